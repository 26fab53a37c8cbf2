-- Import and export (issue 14): every import RPC and export_records for anon, a member
-- without the import and export permissions, an own-scope importer (only own records
-- matched and updated, no other owner), an admin, another organization's admin and a person
-- in two organizations (acting in the bound one only); bad input refused with its code and
-- nothing written; the preview writes nothing; idempotent batches (a replay answers as
-- before and writes nothing), a resume after a gap; updates (changed fields in the history,
-- identical rows unchanged), references, owners and stages by text; revert (created rows
-- soft-deleted, updated rows restored) and its refusals (after an edit, while running, a
-- second time); products need scope all; saved mappings; the export's rows, limits, scope
-- and audit.
begin;
select plan(136);

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions, records
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.create_user('multi@both.test', 'user', 'Çoklu', 'Üye') as multi \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'multi', :'alpha', 'sales');
select tests.add_member(:'multi', :'beta', 'admin');
-- Sales may import their own customers and contacts, and products only with scope own
-- (not enough: products need scope all).
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'alpha', 'sales', 'customers', 'import', 'own'), (:'alpha', 'sales', 'contacts', 'import', 'own'),
       (:'alpha', 'sales', 'quotes', 'import', 'own');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_beta, gen_random_uuid() as s_multi_b \gset
create temporary table sessions (person uuid, session uuid primary key, organization uuid);
insert into sessions values (:'alpha_admin', :'s_admin', :'alpha'), (:'alpha_sales', :'s_sales', :'alpha'),
  (:'alpha_viewer', :'s_viewer', :'alpha'), (:'beta_admin', :'s_beta', :'beta'), (:'multi', :'s_multi_b', :'beta');
insert into auth.sessions (id, user_id) select session, person from sessions;
insert into private.session_organizations (session_id, user_id, organization_id) select session, person, organization from sessions;
grant select on sessions to authenticated;

/** Acts as the person in the session (as authenticated, as PostgREST would). */
create function pg_temp.act(p_session uuid) returns void language sql as $$
  select tests.authenticate_as((select person from sessions where session = p_session), p_session);
$$;
grant execute on function pg_temp.act(uuid) to authenticated;

/** The live rows of a tenant table (as the runner). */
create function pg_temp.live(p_schema text, p_table text) returns integer language plpgsql as $$
declare
  counted integer;
begin
  execute format('select count(*) from %I.%I where deleted_at is null', p_schema, p_table) into counted;
  return counted;
end;
$$;

/**
 * Moves an import one minute into the past, as if it ran in an earlier transaction: its
 * records' updated_at and its rows' written_at (a test runs in one transaction, where
 * now() never moves, so an edit after the import would look like the import's own write).
 */
create function pg_temp.age_import(p_schema text, p_table text, p_import uuid) returns void language plpgsql as $$
begin
  execute format('alter table %I.%I disable trigger touch_updated_at', p_schema, p_table);
  execute format('update %I.%I t set updated_at = t.updated_at - interval ''1 minute''
                   where t.id in (select record_id from %I.import_rows where import_id = $1)', p_schema, p_table, p_schema)
    using p_import;
  execute format('alter table %I.%I enable trigger touch_updated_at', p_schema, p_table);
  execute format('update %I.import_rows set written_at = written_at - interval ''1 minute'' where import_id = $1', p_schema)
    using p_import;
end;
$$;

insert into :"alpha_schema".customers (id, name, tax_number, status, owner_id, created_by) values
  ('c0000000-0000-4000-8000-000000000001', 'Işık Yazılım', '1234567890', 'lead', :'alpha_admin', :'alpha_admin'),
  ('c0000000-0000-4000-8000-000000000002', 'Deniz Gıda', '5554443334', 'active', :'alpha_sales', :'alpha_sales'),
  ('c0000000-0000-4000-8000-000000000003', 'Ortak Ad', null, 'lead', :'alpha_admin', :'alpha_admin'),
  ('c0000000-0000-4000-8000-000000000004', 'Ortak Ad', null, 'lead', :'alpha_sales', :'alpha_sales');
insert into :"alpha_schema".deals (id, customer_id, title, owner_id, created_by) values
  ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'Lisans Yenileme', :'alpha_admin', :'alpha_admin');
insert into :"beta_schema".customers (id, name, tax_number, owner_id, created_by) values
  ('b0000000-0000-4000-8000-000000000001', 'Beta Müşteri', '9876543217', :'beta_admin', :'beta_admin');
select pg_temp.live(:'alpha_schema', 'customers') as alpha_customers_before \gset

-- ---------------------------------------------------------------------------------
-- anon: refused by the database
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.start_import('customers', 'a.csv', 10, repeat('a', 64), 'create', null, 1, '{}')$$, '42501', null,
                 'anon: start_import is refused');
select throws_ok($$select public.check_import_rows('customers', 'create', null, '[]')$$, '42501', null, 'anon: check_import_rows is refused');
select throws_ok($$select public.run_import_batch(gen_random_uuid(), 0, '[]')$$, '42501', null, 'anon: run_import_batch is refused');
select throws_ok($$select public.finish_import(gen_random_uuid())$$, '42501', null, 'anon: finish_import is refused');
select throws_ok($$select public.get_import(gen_random_uuid())$$, '42501', null, 'anon: get_import is refused');
select throws_ok($$select public.list_imports()$$, '42501', null, 'anon: list_imports is refused');
select throws_ok($$select public.revert_import(gen_random_uuid())$$, '42501', null, 'anon: revert_import is refused');
select throws_ok($$select public.list_import_mappings('customers')$$, '42501', null, 'anon: list_import_mappings is refused');
select throws_ok($$select public.save_import_mapping('customers', 'x', '{}')$$, '42501', null, 'anon: save_import_mapping is refused');
select throws_ok($$select public.delete_import_mapping(gen_random_uuid())$$, '42501', null, 'anon: delete_import_mapping is refused');
select throws_ok($$select public.export_records('customers')$$, '42501', null, 'anon: export_records is refused');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- A member without the import and export permissions (viewer)
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_viewer');
select is(public.start_import('customers', 'a.csv', 10, repeat('a', 64), 'create', null, 1, '{}') ->> 'code', 'permission_denied',
          'viewer: start_import is refused');
select is(public.check_import_rows('customers', 'create', null, '[{"row": 2, "values": {"name": "X"}}]') ->> 'code', 'permission_denied',
          'viewer: check_import_rows is refused');
select is(public.list_imports() ->> 'code', 'permission_denied', 'viewer: list_imports is refused');
select is(public.list_import_mappings('customers') ->> 'code', 'permission_denied', 'viewer: list_import_mappings is refused');
select is(public.save_import_mapping('customers', 'Benim', '{"Ad": "name"}') ->> 'code', 'permission_denied',
          'viewer: save_import_mapping is refused');
select is(public.export_records('customers') ->> 'code', 'permission_denied', 'viewer: export_records is refused');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Bad input: clear codes, nothing written
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select is(public.start_import('invoices', 'a.csv', 10, repeat('a', 64), 'create', null, 1, '{}') ->> 'code', 'unknown_kind',
          'an unknown kind is refused (start_import)');
select is(public.check_import_rows('invoices', 'create', null, '[{"row": 2, "values": {}}]') ->> 'code', 'unknown_kind',
          'an unknown kind is refused (check_import_rows)');
select is(public.list_imports('invoices') ->> 'code', 'unknown_kind', 'an unknown kind is refused (list_imports)');
select is(public.start_import('customers', 'a.csv', 10, repeat('a', 64), 'merge', null, 1, '{}') ->> 'code', 'invalid_mode',
          'a bad mode is refused');
select is(public.start_import('customers', 'a.csv', 10, repeat('a', 64), 'upsert', null, 1, '{}') ->> 'code', 'invalid_match_key',
          'upsert without a match key is refused');
select is(public.check_import_rows('customers', 'update', 'phone', '[{"row": 2, "values": {}}]') ->> 'code', 'invalid_match_key',
          'a match key the kind has not is refused');
select is(public.start_import('customers', 'a.csv', 10, repeat('a', 64), 'create', null, 100001, '{}') ->> 'code', 'too_many_rows',
          'more than 100,000 rows is refused');
select is(public.start_import('customers', 'a.csv', 52428801, repeat('a', 64), 'create', null, 1, '{}') ->> 'code', 'file_too_large',
          'a file over 50 MiB is refused');
select is(public.start_import('customers', 'a.csv', 10, 'not-a-hash', 'create', null, 1, '{}') ->> 'code', 'invalid_input',
          'a file hash that is not sha256 hex is refused');
select is(public.start_import('customers', 'a.csv', 10, repeat('a', 64), 'create', null, 1, '["Ad"]') ->> 'code', 'invalid_mapping',
          'a mapping that is not an object is refused');
select is(public.check_import_rows('customers', 'create', null,
            (select jsonb_agg(jsonb_build_object('row', g, 'values', jsonb_build_object('name', 'M' || g))) from generate_series(1, 1001) g))
          ->> 'code', 'batch_too_large', 'more than 1,000 rows in a batch is refused');
select is(public.check_import_rows('customers', 'create', null, '{"row": 2, "values": {"name": "X"}}') ->> 'code', 'invalid_input',
          'rows that are not an array are refused');
select is(public.check_import_rows('customers', 'create', null, '[]') ->> 'code', 'invalid_input', 'an empty batch is refused');
select is(public.check_import_rows('customers', 'create', null, '[{"row": "2", "values": {"name": "X"}}]') ->> 'code', 'invalid_input',
          'a row number that is not a number is refused');
select is(public.check_import_rows('customers', 'create', null, '[{"row": 2.5, "values": {"name": "X"}}]') ->> 'code', 'invalid_input',
          'a row number that is not an integer is refused');
select is(public.check_import_rows('customers', 'create', null, '[{"row": 2, "values": ["X"]}]') ->> 'code', 'invalid_input',
          'values that are not an object are refused');
select tests.reset_role();
select is(pg_temp.live(:'alpha_schema', 'customers'), :alpha_customers_before, 'bad input wrote no customer');
select is((select count(*)::int from :"alpha_schema".imports), 0, 'bad input started no import');

-- ---------------------------------------------------------------------------------
-- The preview: the same rules as the forms, nothing written
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.check_import_rows('customers', 'create', null, '[
  {"row": 2, "values": {"name": "Çağ Lojistik", "tax_number": "246 813 5797", "phone": "0212 555 12 34", "tags": ["bayi"], "owner": "SALES@alpha.test"}},
  {"row": 3, "values": {"name": "Hatalı VKN", "tax_number": "1234567891"}},
  {"row": 4, "values": {"name": "Bilinmeyen", "renk": "mavi"}},
  {"row": 5, "values": {"name": "Sahipsiz", "owner": "kimse@alpha.test"}},
  {"row": 6, "values": {"name": "İsimle", "owner": "selim SATIŞ"}},
  {"row": 7, "values": {"name": 42, "email": "bozuk"}},
  {"row": 8, "values": {"name": "Dış Kimlik", "external_id": {"a": 1}}}]') as preview \gset
select is((:'preview'::jsonb) - 'results', '{"success": true, "created": 2, "updated": 0, "skipped": 0, "failed": 5}',
          'the preview counts what would happen');
select is((:'preview'::jsonb) -> 'results' -> 0, '{"row": 2, "status": "created"}', 'a valid row would be created (no id yet)');
select is((:'preview'::jsonb) #> '{results,1,errors}', '{"tax_number": "invalid_vkn"}', 'a bad VKN is refused by the customer''s rules');
select is((:'preview'::jsonb) #> '{results,2,errors}', '{"renk": "unknown_field"}', 'an unknown field is refused');
select is((:'preview'::jsonb) #> '{results,3,errors}', '{"owner": "owner_not_found"}', 'an owner who is no member is not found');
select is((:'preview'::jsonb) #>> '{results,4,status}', 'created', 'an owner named by full name (any case, Turkish letters) is found');
select is((:'preview'::jsonb) #> '{results,5,errors}', '{"name": "invalid", "email": "invalid_email"}',
          'a number for a text field and a bad email are field errors');
select is((:'preview'::jsonb) #> '{results,6,errors}', '{"external_id": "invalid"}', 'an external id that is not text is refused');
select tests.reset_role();
select is(pg_temp.live(:'alpha_schema', 'customers'), :alpha_customers_before, 'the preview wrote nothing');

-- ---------------------------------------------------------------------------------
-- Running an import: batches, idempotency, a resume after a gap
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.start_import('customers', ' müşteriler.csv ', 2048, repeat('ab', 32), 'create', null, 6, '{"Firma": "name", "VKN": "tax_number"}')
  as started \gset
select :'started'::jsonb #>> '{import,id}' as imp1 \gset
select is(((:'started'::jsonb) -> 'import') - 'id' - 'created_at' - 'created_by',
          jsonb_build_object('kind', 'customers', 'file_name', 'müşteriler.csv', 'file_size', 2048, 'file_hash', repeat('ab', 32),
                             'mode', 'create', 'match_key', null, 'status', 'running', 'total_rows', 6, 'created', 0, 'updated', 0,
                             'skipped', 0, 'failed', 0, 'finished_at', null, 'reverted_at', null, 'created_by_name', 'Ayşe Yönetici'),
          'start_import answers the import');
select public.run_import_batch(:'imp1', 0, '[
  {"row": 2, "values": {"name": "Çağ Lojistik", "tax_number": "2468135797", "owner": "sales@alpha.test", "external_id": " CAG-1 "}},
  {"row": 3, "values": {"name": "Hatalı VKN", "tax_number": "1234567891"}}]') as batch0 \gset
select is((:'batch0'::jsonb) - 'results', '{"success": true, "batch": 0, "replayed": false, "created": 1, "updated": 0, "skipped": 0, "failed": 1}',
          'a batch answers its counts');
select :'batch0'::jsonb #>> '{results,0,id}' as cag \gset
select is(public.run_import_batch(:'imp1', 0, '[{"row": 2, "values": {"name": "Başka"}}]'),
          (:'batch0'::jsonb) || '{"replayed": true}', 'the same batch again answers as before, replayed');
-- Out of order: batch 2 before batch 1 (two batches on their way) is refused and writes nothing.
select is(public.run_import_batch(:'imp1', 2, '[{"row": 6, "values": {"name": "Ege Tekstil", "tax_number": "1112223339"}}]') ->> 'code',
          'batch_out_of_order', 'a batch before its predecessor is refused');
select is(public.get_import(:'imp1') #> '{import,batches}', '[0]', 'and nothing of it is applied');
select is(public.run_import_batch(:'imp1', 1, '[{"row": 4, "values": {"name": "Fırat Gıda"}}, {"row": 5, "values": {"name": "Göl Gıda"}}]') ->> 'created',
          '2', 'the predecessor is applied');
select is(public.run_import_batch(:'imp1', 2, '[{"row": 6, "values": {"name": "Ege Tekstil", "tax_number": "1112223339"}}]') ->> 'created', '1',
          'then the batch sent again applies');
select is(public.run_import_batch(:'imp1', 3, '[]') - 'results',
          '{"success": true, "batch": 3, "replayed": false, "created": 0, "updated": 0, "skipped": 0, "failed": 0}',
          'an empty batch (every row failed the browser''s checks) is applied, writing nothing');
select is(public.run_import_batch(:'imp1', 4, '[{"row": 7, "values": {"name": "Fazla"}}, {"row": 8, "values": {"name": "Fazla 2"}}]') ->> 'code',
          'too_many_rows', 'rows beyond the file''s count are refused');
select is(public.run_import_batch(:'imp1', -1, '[{"row": 7, "values": {"name": "Eksi"}}]') ->> 'code', 'invalid_input',
          'a negative batch number is refused');
select is((public.get_import(:'imp1') -> 'import') - 'id' - 'created_at' - 'created_by' - 'file_hash' - 'finished_at' - 'reverted_at'
            - 'file_name' - 'file_size' - 'created_by_name',
          '{"kind": "customers", "mode": "create", "match_key": null, "status": "running", "total_rows": 6, "created": 4, "updated": 0,
            "skipped": 0, "failed": 1, "mapping": {"Firma": "name", "VKN": "tax_number"}, "batches": [0, 1, 2, 3]}',
          'the counts add up on the import, with its mapping');
select tests.reset_role();
select is((select count(*)::int from :"alpha_schema".customers where name = 'Çağ Lojistik'), 1, 'a replayed batch wrote its row once');
select is((select jsonb_build_object('owner', owner_id, 'created_by', created_by, 'external_id', external_id, 'tax_number', tax_number)
             from :"alpha_schema".customers where id = :'cag'),
          jsonb_build_object('owner', :'alpha_sales', 'created_by', :'alpha_admin', 'external_id', 'CAG-1', 'tax_number', '2468135797'),
          'the new record: the owner named, created by the importer, the external id trimmed');
select is((select count(*)::int from :"alpha_schema".import_rows where import_id = :'imp1' and action = 'created'), 4,
          'every created record is noted for the undo');
select is((select count(*)::int from private.notifications where record_id = :'cag'), 0,
          'the import tells no owner about each record');

select pg_temp.act(:'s_admin');
select is(public.finish_import(:'imp1') #>> '{import,status}', 'completed', 'finish_import completes the import');
select is(public.run_import_batch(:'imp1', 4, '[{"row": 7, "values": {"name": "Sonra"}}]') ->> 'code', 'import_not_running',
          'no batch runs after the finish');
select is(public.finish_import(:'imp1') ->> 'code', 'import_not_running', 'nor does it finish twice');
select tests.reset_role();
select is((select details from private.audit_log where action = 'customers.import' and target_id = :'imp1'),
          '{"mode": "create", "match_key": null, "status": "completed", "total_rows": 6,
            "created": 4, "updated": 0, "skipped": 0, "failed": 1}',
          'one audit entry for the import, with its counts (not its file name, which may name a person: issue 23)');
select is((select count(*)::int from private.audit_log where action like 'customers.%' and target_id in (
             select id::text from :"alpha_schema".customers)), 0, 'and none per record');

-- ---------------------------------------------------------------------------------
-- Upsert by tax number: updates, unchanged rows, duplicates in the file
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.start_import('customers', 'guncel.csv', 100, repeat('c', 64), 'upsert', 'tax_number', 5, '{}') #>> '{import,id}' as imp2 \gset
select public.run_import_batch(:'imp2', 0, '[
  {"row": 2, "values": {"tax_number": "123 456 7890", "name": "Işık Yazılım A.Ş.", "status": "active"}},
  {"row": 3, "values": {"tax_number": "5554443334", "name": "Deniz Gıda", "status": "active"}},
  {"row": 4, "values": {"tax_number": "1234567890", "name": "Işık Tekrar"}},
  {"row": 5, "values": {"tax_number": "9876543217", "name": "Yeni Ortak"}}]') as upserted \gset
select is((:'upserted'::jsonb) -> 'results',
          ('[{"row": 2, "status": "updated", "id": "c0000000-0000-4000-8000-000000000001"},
             {"row": 3, "status": "unchanged", "id": "c0000000-0000-4000-8000-000000000002"},
             {"row": 4, "status": "failed", "reason": "duplicate_in_file"},
             {"row": 5, "status": "created", "id": "' || (:'upserted'::jsonb #>> '{results,3,id}') || '"}]')::jsonb,
          'upsert: a match is updated, identical values are unchanged, a second row with the same key fails, a new key is created');
select is(public.finish_import(:'imp2') #>> '{import,skipped}', '1', 'unchanged rows count as skipped');
select tests.reset_role();
select is((select jsonb_build_object('name', name, 'status', status) from :"alpha_schema".customers where id = 'c0000000-0000-4000-8000-000000000001'),
          '{"name": "Işık Yazılım A.Ş.", "status": "active"}', 'the matched record is updated');
select is((select array_agg(field order by field) from :"alpha_schema".field_history where record_id = 'c0000000-0000-4000-8000-000000000001'),
          array['name', 'status'], 'each changed field is in the record''s history');
select is((select previous from :"alpha_schema".import_rows where import_id = :'imp2' and record_id = 'c0000000-0000-4000-8000-000000000001'),
          '{"name": "Işık Yazılım", "status": "lead"}', 'the changed columns'' old values are kept for the undo');
select is((select count(*)::int from :"alpha_schema".import_rows where import_id = :'imp2' and record_id = 'c0000000-0000-4000-8000-000000000002'),
          0, 'an unchanged record is not the import''s');

-- ---------------------------------------------------------------------------------
-- Revert: created soft-deleted, updated restored; refused after an edit and twice
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select is(public.revert_import(:'imp2'), '{"success": true, "deleted": 1, "restored": 1}', 'revert answers what it undid');
select is(public.revert_import(:'imp2') ->> 'code', 'import_not_revertible', 'an import is reverted once');
select tests.reset_role();
select is((select jsonb_build_object('name', name, 'status', status) from :"alpha_schema".customers where id = 'c0000000-0000-4000-8000-000000000001'),
          '{"name": "Işık Yazılım", "status": "lead"}', 'the updated record has its previous values back');
select is((select deleted_at is not null from :"alpha_schema".customers where name = 'Yeni Ortak'), true, 'the created record is soft-deleted');
select is((select count(*)::int from :"alpha_schema".field_history where record_id = 'c0000000-0000-4000-8000-000000000001'), 4,
          'the restore is in the field history too');
select is((select jsonb_build_object('status', status, 'reverted', reverted_at is not null) from :"alpha_schema".imports where id = :'imp2'),
          '{"status": "reverted", "reverted": true}', 'the import is marked reverted');
select is((select details from private.audit_log where action = 'customers.import_revert' and target_id = :'imp2'),
          '{"deleted": 1, "restored": 1}', 'the revert is audited');

-- An edit after the import refuses the undo.
select pg_temp.act(:'s_admin');
select public.start_import('customers', 'ikinci.csv', 100, repeat('d', 64), 'upsert', 'external_id', 2, '{}') #>> '{import,id}' as imp3 \gset
select public.run_import_batch(:'imp3', 0, '[{"row": 2, "values": {"external_id": "CAG-1", "sector": "Lojistik"}},
                                             {"row": 3, "values": {"external_id": "HAL-9", "name": "Hal Market"}}]') ->> 'updated' as imp3_updated \gset
select is(:'imp3_updated'::text, '1', 'a record is matched by its external id');
select is(public.revert_import(:'imp3') ->> 'code', 'import_not_revertible', 'a running import cannot be reverted');
select public.finish_import(:'imp3') ->> 'success' as imp3_finished \gset
select tests.reset_role();
select pg_temp.age_import(:'alpha_schema', 'customers', :'imp3');
select pg_temp.act(:'s_admin');
select is(public.update_customer(:'cag', '{"sector": "Taşımacılık"}',
                                 (public.get_customer(:'cag') #>> '{record,updated_at}')::timestamptz) ->> 'success',
          'true', 'someone edits a record of the import');
select is(public.revert_import(:'imp3'), '{"success": false, "error": "Records of this import were changed since", "code": "import_changed_since", "changed": 1}',
          'the undo is refused after the edit, with how many changed');
select tests.reset_role();
select is((select sector from :"alpha_schema".customers where id = :'cag'), 'Taşımacılık', 'the refused undo changed nothing');
select is((select deleted_at from :"alpha_schema".customers where external_id = 'HAL-9'), null, 'not even the records it created');

-- ---------------------------------------------------------------------------------
-- An own-scope importer (sales): own records only, no other owner
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_sales');
select public.check_import_rows('customers', 'update', 'name', '[
  {"row": 2, "values": {"name": "Ortak Ad", "sector": "Gıda"}},
  {"row": 3, "values": {"name": "Işık Yazılım", "sector": "Gıda"}}]') as own_preview \gset
select is((:'own_preview'::jsonb) -> 'results',
          '[{"row": 2, "status": "updated", "id": "c0000000-0000-4000-8000-000000000004"}, {"row": 3, "status": "skipped", "reason": "not_found"}]',
          'own scope: of two records of the same name only the own one is matched; another''s is not found');
select is(public.check_import_rows('customers', 'create', null, '[{"row": 2, "values": {"name": "Başkasının", "owner": "admin@alpha.test"}}]')
            #> '{results,0,errors}', '{"owner": "permission_denied"}', 'own scope: another owner is refused');
select is(public.check_import_rows('customers', 'create', null, '[{"row": 2, "values": {"name": "Benim", "owner": "sales@alpha.test"}}]')
            #>> '{results,0,status}', 'created', 'own scope: the own owner is fine');
select is(public.get_import(:'imp1') ->> 'code', 'not_found', 'own scope: another''s import is not found');
select is(public.revert_import(:'imp1') ->> 'code', 'not_found', 'own scope: nor reverted');
select is(public.list_imports() -> 'imports', '[]', 'own scope: only own imports are listed');
select public.start_import('customers', 'satis.csv', 100, repeat('e', 64), 'upsert', 'name', 1, '{}') #>> '{import,id}' as imp_sales \gset
select is(public.run_import_batch(:'imp_sales', 0, '[{"row": 2, "values": {"name": "Ortak Ad", "sector": "Gıda"}}]') #>> '{results,0,id}',
          'c0000000-0000-4000-8000-000000000004', 'own scope: the own record is updated');
select is(public.list_imports() #>> '{imports,0,id}', :'imp_sales', 'own scope: the own import is listed');
select is(public.start_import('products', 'urun.csv', 100, repeat('e', 64), 'create', null, 1, '{}') ->> 'code', 'permission_denied',
          'products need the quotes import permission with scope all');
select tests.reset_role();
select is((select sector from :"alpha_schema".customers where id = 'c0000000-0000-4000-8000-000000000003'), null,
          'another''s record of the same name is untouched');

select pg_temp.act(:'s_admin');
select is(public.run_import_batch(:'imp_sales', 1, '[{"row": 3, "values": {"name": "Admin"}}]') ->> 'code', 'permission_denied',
          'only the import''s creator runs its batches');
select is(public.get_import(:'imp_sales') #>> '{import,created_by_name}', 'Selim Satış', 'an admin sees every import');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Another organization's admin, and a person in two organizations
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_beta');
select is(public.get_import(:'imp1') ->> 'code', 'not_found', 'another organization''s admin: get_import finds nothing');
select is(public.run_import_batch(:'imp1', 9, '[{"row": 2, "values": {"name": "Sızma"}}]') ->> 'code', 'not_found',
          'another organization''s admin: run_import_batch finds nothing');
select is(public.finish_import(:'imp_sales') ->> 'code', 'not_found', 'another organization''s admin: finish_import finds nothing');
select is(public.revert_import(:'imp1') ->> 'code', 'not_found', 'another organization''s admin: revert_import finds nothing');
select is(public.list_imports() -> 'imports', '[]', 'another organization''s admin lists none of alpha''s imports');
select is((select array_agg(r ->> 'name') from jsonb_array_elements(public.export_records('customers') -> 'records') r),
          array['Beta Müşteri'], 'another organization''s admin exports only their own organization''s rows');
select tests.reset_role();

select pg_temp.act(:'s_multi_b');
select public.start_import('customers', 'iki.csv', 100, repeat('f', 64), 'create', null, 2, '{}') #>> '{import,id}' as imp_multi \gset
select is(public.run_import_batch(:'imp_multi', 0, '[{"row": 2, "values": {"name": "Çift Üye", "owner": "admin@beta.test"}},
                                                     {"row": 3, "values": {"name": "Alfa Sahibi", "owner": "sales@alpha.test"}}]') - 'results' - 'batch',
          '{"success": true, "replayed": false, "created": 1, "updated": 0, "skipped": 0, "failed": 1}',
          'a person in two organizations imports into the bound one; alpha''s members are no owners there');
select tests.reset_role();
select is((select count(*)::int from :"beta_schema".customers where name = 'Çift Üye'), 1, 'the row is in beta');
select is((select count(*)::int from :"alpha_schema".customers where name = 'Çift Üye'), 0, 'and not in alpha');
select is((select count(*)::int from :"alpha_schema".imports where id = :'imp_multi'), 0, 'the import is beta''s');

-- ---------------------------------------------------------------------------------
-- Contacts, deals, tasks and products: references, channels, stages
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.check_import_rows('contacts', 'create', null, '[
  {"row": 2, "values": {"first_name": "Ece", "last_name": "Demir", "customer": "ışık yazılım", "email": "ECE@isik.com.tr", "phone": "0212 555 11 22", "mobile_phone": "0532 111 22 33"}},
  {"row": 3, "values": {"first_name": "Can", "customer": "Ortak Ad"}},
  {"row": 4, "values": {"first_name": "Ada", "customer": "Olmayan Firma", "phone": "12"}},
  {"row": 5, "values": {"first_name": "Efe", "customer": "5554443334"}}]') as contacts_preview \gset
select is((:'contacts_preview'::jsonb) #>> '{results,0,status}', 'created', 'a contact''s customer is found by its folded name');
select is((:'contacts_preview'::jsonb) #> '{results,1,errors}', '{"customer": "ambiguous"}', 'a name two customers share is ambiguous');
select is((:'contacts_preview'::jsonb) #> '{results,2,errors}', '{"customer": "not_found", "phone": "invalid_phone"}',
          'an unknown customer and a bad phone are field errors');
select is((:'contacts_preview'::jsonb) #>> '{results,3,status}', 'created', 'a customer is found by its tax number');
select public.start_import('contacts', 'kisiler.csv', 100, repeat('1', 64), 'upsert', 'email', 2, '{}') #>> '{import,id}' as imp_contacts \gset
select public.run_import_batch(:'imp_contacts', 0, '[
  {"row": 2, "values": {"first_name": "Ece", "last_name": "Demir", "customer": "ışık yazılım", "email": "ECE@isik.com.tr", "phone": "0212 555 11 22", "mobile_phone": "0532 111 22 33"}}]')
  #>> '{results,0,id}' as ece \gset
select is(public.run_import_batch(:'imp_contacts', 1, '[{"row": 3, "values": {"email": "ece@isik.com.tr", "phone": "+90 212 555 11 22", "title": "Müdür"}}]')
            #>> '{results,0,status}', 'updated', 'a contact is matched by email and updated');
select tests.reset_role();
select is((select jsonb_build_object('customer_id', customer_id, 'emails', emails, 'phones', phones, 'title', title)
             from :"alpha_schema".contacts where id = :'ece'),
          '{"customer_id": "c0000000-0000-4000-8000-000000000001", "emails": [{"label": "work", "value": "ece@isik.com.tr"}],
            "phones": [{"label": "work", "value": "+902125551122"}, {"label": "mobile", "value": "+905321112233"}], "title": "Müdür"}',
          'email and phones become labelled entries, a number already there is not added twice');

select pg_temp.act(:'s_admin');
select public.check_import_rows('deals', 'create', null, '[
  {"row": 2, "values": {"title": "Yeni Lisans", "stage": "teklif", "amount": 1500.5, "customer": "Işık Yazılım"}},
  {"row": 3, "values": {"title": "Bilinmeyen Aşama", "stage": "Hayal"}}]') as deals_preview \gset
select is((:'deals_preview'::jsonb) #>> '{results,0,status}', 'created', 'a deal''s stage by its name (folded) and customer by name');
select is((:'deals_preview'::jsonb) #> '{results,1,errors}', '{"stage": "invalid_stage"}', 'an unknown stage is refused by the deal''s rules');
select is(public.check_import_rows('tasks', 'create', null, '[{"row": 2, "values": {"title": "Ara", "deal": "lisans yenileme", "contact": "ece@isik.com.tr"}}]')
            #>> '{results,0,status}', 'created', 'a task''s deal by title and contact by email');
select public.start_import('products', 'urun.csv', 100, repeat('2', 64), 'upsert', 'name', 2, '{}') #>> '{import,id}' as imp_products \gset
select public.run_import_batch(:'imp_products', 0, '[{"row": 2, "values": {"name": "Danışmanlık", "unit_price": 2500, "vat_rate": 20, "unit": "saat"}},
                                                     {"row": 3, "values": {"name": "Kırtasiye", "vat_rate": 7}}]') -> 'results' as products_results \gset
select is(:'products_results'::jsonb,
          ('[{"row": 2, "status": "created", "id": "' || (select (public.list_products('Danışmanlık') #>> '{products,0,id}')) || '"},
             {"row": 3, "status": "failed", "errors": {"vat_rate": "invalid_vat_rate"}}]')::jsonb,
          'products go through the product rules (a KDV rate not in use is refused)');
select tests.reset_role();

-- A clash only the table sees: the set-based write falls back to row by row.
select pg_temp.act(:'s_admin');
select public.start_import('customers', 'cakisma.csv', 100, repeat('3', 64), 'create', null, 2, '{}') #>> '{import,id}' as imp_clash \gset
select public.run_import_batch(:'imp_clash', 0, '[{"row": 2, "values": {"name": "Birinci", "external_id": "AYNI"}},
                                                  {"row": 3, "values": {"name": "İkinci", "external_id": "AYNI"}}]') - 'batch' as clash \gset
select tests.reset_role();
select is(:'clash'::jsonb,
          jsonb_build_object('success', true, 'replayed', false, 'created', 1, 'updated', 0, 'skipped', 0, 'failed', 1,
            'results', jsonb_build_array(
              jsonb_build_object('row', 2, 'status', 'created', 'id',
                                 (select id from :"alpha_schema".customers where external_id = 'AYNI' and deleted_at is null)),
              '{"row": 3, "status": "failed", "errors": {"external_id": "duplicate"}}'::jsonb)),
          'a duplicate external id in one batch: the first row is written, the second fails on that field');

-- A row of a later batch that matches a record an earlier batch created updates it (each
-- batch's rules run on its rows as new records before it waits for the one before; a row
-- that turns out to match goes through the rules again, against the record).
select pg_temp.act(:'s_admin');
select public.start_import('customers', 'sirali.csv', 100, repeat('5', 64), 'upsert', 'tax_number', 2, '{}') #>> '{import,id}' as imp_seq \gset
select public.run_import_batch(:'imp_seq', 0, '[{"row": 2, "values": {"tax_number": "3692581472", "name": "Sıra Bir", "status": "lead"}}]')
  #>> '{results,0,id}' as seq_id \gset
select is(public.run_import_batch(:'imp_seq', 1, '[{"row": 3, "values": {"tax_number": "369 258 1472", "name": "Sıra İki"}}]') -> 'results',
          jsonb_build_array(jsonb_build_object('row', 3, 'status', 'updated', 'id', :'seq_id')),
          'a later batch updates the record an earlier batch of the import created');
select tests.reset_role();
select is((select jsonb_agg(jsonb_build_object('name', name, 'status', status)) from :"alpha_schema".customers where tax_number = '3692581472'),
          '[{"name": "Sıra İki", "status": "lead"}]', 'one record, with the later row''s values over the earlier''s');

-- The forms write external ids through the same engine rules.
select pg_temp.act(:'s_admin');
select is(public.create_customer('{"name": "Formdan", "external_id": ["x"]}') -> 'fields', '{"external_id": "invalid"}',
          'a form''s external id that is not text is refused');
select is(public.create_customer('{"name": "Formdan", "external_id": " CAG-1 "}') -> 'fields', '{"external_id": "duplicate"}',
          'a form''s external id another live record has is a duplicate');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Saved mappings (each person's own)
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.save_import_mapping('customers', ' Logo Excel ', '{"Firma Adı": "name", "Vergi No": "tax_number"}') #>> '{mapping,id}' as mapping_id \gset
select is(public.save_import_mapping('customers', 'Logo Excel', '{"Unvan": "name"}') #>> '{mapping,id}', :'mapping_id',
          'saving the same name again replaces the mapping');
select is((public.list_import_mappings('customers') -> 'mappings') #- '{0,updated_at}',
          jsonb_build_array(jsonb_build_object('id', :'mapping_id', 'name', 'Logo Excel', 'mapping', '{"Unvan": "name"}'::jsonb,
            'owner_id', :'alpha_admin')),
          'the caller''s mappings are listed');
select is(public.save_import_mapping('customers', '  ', '{}') #> '{fields}', '{"name": "required"}', 'a mapping needs a name');
select tests.reset_role();
select pg_temp.act(:'s_sales');
select is(public.list_import_mappings('customers') -> 'mappings', '[]', 'another member does not see the mapping');
select is(public.delete_import_mapping(:'mapping_id') ->> 'code', 'not_found', 'nor delete it');
select tests.reset_role();
select pg_temp.act(:'s_admin');
select is(public.delete_import_mapping(:'mapping_id') ->> 'success', 'true', 'the owner deletes it');
select is(public.list_import_mappings('customers') -> 'mappings', '[]', 'and it is gone');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Export
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.export_records('customers', null, '{"status": "active"}', 'name', false, null, 2) as page1 \gset
select is((select array_agg(r ->> 'name') from jsonb_array_elements((:'page1'::jsonb) -> 'records') r),
          (select array_agg(r ->> 'name') from jsonb_array_elements(public.list_customers(null, '{"status": "active"}', 'name', false, 2, 0) -> 'records') r),
          'the export pages like the list: the same filter and sort');
select ok(((:'page1'::jsonb) #> '{records,0}') ?& array['id', 'tax_office', 'address', 'created_by', 'external_id', 'owner_name']
          and not ((:'page1'::jsonb) #> '{records,0}') ? 'search_text', 'whole rows with the owner''s name, without the search column');
select is((:'page1'::jsonb) ->> 'next_cursor' is not null, ((:'page1'::jsonb) ->> 'total')::int > 2,
          'next_cursor points at the next page while there is one');
select is(public.export_records('customers', null, null, null, null, null, 5001) ->> 'code', 'invalid_input', 'a page of more than 5,000 rows is refused');
select is(public.export_records('customers', null, '{"colour": "red"}') ->> 'code', 'invalid_input', 'the list''s filter rules apply');
select is(public.export_records('customers', null, '{"status": "active"}', 'name', false,
                               jsonb_build_object('sort', 'name', 'descending', false, 'value', (:'page1'::jsonb) #>> '{records,0,name}',
                                                  'id', (:'page1'::jsonb) #>> '{records,0,id}'), 1) #>> '{records,0,id}',
          (:'page1'::jsonb) #>> '{records,1,id}', 'a later page: after the cursor''s row');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where action = 'customers.export' and organization_id = :'alpha'), 1,
          'the first page of an export is audited, the later pages are not');
select is((select details from private.audit_log where action = 'customers.export' and organization_id = :'alpha'),
          '{"searched": false, "filters": {"status": "active"}}',
          'with its filters and whether a search narrowed it (not the words, which may name a person: issue 23)');
select pg_temp.act(:'s_sales');
select is((select bool_and((r ->> 'owner_id')::uuid = :'alpha_sales') from jsonb_array_elements(public.export_records('customers') -> 'records') r),
          true, 'export scope own: only own records');
select tests.reset_role();

select * from finish();
rollback;
