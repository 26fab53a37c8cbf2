-- Issue 23, items 8, 14 and 13 (settings and roles):
-- * KVKK erasure leaves no copy of the person anywhere in the organization: the test fills
--   every place a contact's values reach (a merged duplicate, history, an import that
--   updated it, a task and its notification, a note, a document, a deal, a saved view),
--   erases, then searches every text, text[] and jsonb column of every table of the
--   organization's schema and every private table holding the organization's rows (found
--   in the catalogue, so a new table is searched too) for each erased value.
-- * Linking checks the caller's scope on the linked module: a "view own" member cannot link
--   a record to a colleague's customer, contact, deal, quote or contract (forms, bulk
--   update, deal contacts, import by name or id) and gets the answer of a record that does
--   not exist; an all-scope member can.
-- * Settings and role changes are audited with old and new values; a secret is masked.
begin;
select plan(55);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as admin \gset
select tests.create_user('manager@alpha.test', 'user', 'Mert', 'Müdür') as manager \gset
select tests.create_user('own@alpha.test', 'user', 'Oya', 'Kendi') as own \gset
select tests.create_user('colleague@alpha.test', 'user', 'Cem', 'Meslektaş') as colleague \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
-- A role that sees and does everything on its own records only (imports too).
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'own_only', 'Kendi kayıtları');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
select :'alpha', 'own_only', m.key, a.key, 'own' from private.modules m, private.module_actions a;
update private.role_permissions set scope = 'all'
 where organization_id = :'alpha' and role_key = 'manager' and action = 'import';
select tests.add_member(:'admin', :'alpha', 'admin');
select tests.add_member(:'manager', :'alpha', 'manager');
select tests.add_member(:'own', :'alpha', 'own_only');
select tests.add_member(:'colleague', :'alpha', 'manager');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_manager, gen_random_uuid() as s_own,
       gen_random_uuid() as s_colleague, gen_random_uuid() as s_beta \gset
select tests.reset_role();
select tests.bind_session(:'admin', :'s_admin', :'alpha');
select tests.bind_session(:'manager', :'s_manager', :'alpha');
select tests.bind_session(:'own', :'s_own', :'alpha');
select tests.bind_session(:'colleague', :'s_colleague', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

/**
 * Every place an organization keeps one of p_values: each text, varchar, text[] and jsonb
 * column (generated ones too) of every table of its schema, and of every private table
 * with an organization_id column (its rows only), matched case-insensitively, as written
 * and Turkish-folded. Returns "table.column" for each hit.
 */
create function pg_temp.places_holding(p_organization uuid, p_values text[])
returns text[] language plpgsql as $$
declare
  tenant text := (select o.schema_name from private.organizations o where o.id = p_organization);
  target record;
  hit boolean;
  hits text[] := '{}';
  patterns text[] := array(select distinct '%' || replace(replace(v, '%', '\%'), '_', '\_') || '%'
                             from unnest(p_values || array(select private.fold_search(x) from unnest(p_values) x)) v);
begin
  for target in
    select n.nspname, c.relname, a.attname,
           exists (select 1 from pg_catalog.pg_attribute o where o.attrelid = c.oid and o.attname = 'organization_id'
                     and not o.attisdropped) as has_organization
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where c.relkind in ('r', 'p')
       and a.atttypid in ('text'::regtype, 'character varying'::regtype, 'text[]'::regtype, 'jsonb'::regtype)
       and (n.nspname = tenant
            or (n.nspname = 'private' and exists (select 1 from pg_catalog.pg_attribute o where o.attrelid = c.oid
                                                     and o.attname = 'organization_id' and not o.attisdropped)))
  loop
    execute format('select exists (select 1 from %I.%I t where t.%I::text ilike any ($1) %s)', target.nspname, target.relname,
                   target.attname, case when target.nspname = 'private' then 'and t.organization_id = $2' else '' end)
      into hit using patterns, p_organization;
    if hit then
      hits := hits || (target.relname || '.' || target.attname);
    end if;
  end loop;
  return array(select distinct h from unnest(hits) h order by h);
end;
$$;

-- =================================================================================
-- Item 8: erasure covers every copy of the person
-- =================================================================================
select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select public.create_customer('{"name": "Kuzey Makine A.Ş."}') #>> '{record,id}' as kuzey \gset
select public.create_contact(jsonb_build_object('first_name', 'Zeynurhan', 'last_name', 'Eskisoyad', 'customer_id', :'kuzey',
  'emails', '[{"label": "work", "value": "zeynurhan.quxbas@ornek.com.tr"}]'::jsonb,
  'phones', '[{"label": "mobile", "value": "+905559876543"}]'::jsonb,
  'title', 'Satın Alma Müdürü')) -> 'record' as person_row \gset
select (:'person_row'::jsonb) ->> 'id' as person \gset
-- Its history: a new phone.
select public.update_contact(:'person', '{"phones": [{"label": "mobile", "value": "+905551112299"}]}',
  ((:'person_row'::jsonb) ->> 'updated_at')::timestamptz) ->> 'success' as changed \gset
-- A duplicate with the first name and the e-mail, merged into it.
select public.create_contact('{"first_name": "Zeynurhan", "last_name": "Q",
  "emails": [{"label": "home", "value": "zeynurhan.quxbas@ornek.com.tr"}, {"label": "work", "value": "zq.ikinci@ornek.com.tr"}]}')
  #>> '{record,id}' as duplicate \gset
select public.merge_contacts(:'person', :'duplicate') ->> 'success' as merged \gset
-- An import that updated its surname (import_rows.previous keeps the old one).
select public.start_import('contacts', 'zeynurhan-kisiler.csv', 10, repeat('a', 64), 'upsert', 'email', 1, '{}') #>> '{import,id}' as imp \gset
select public.run_import_batch(:'imp', 0, '[{"row": 2, "values": {"email": "zeynurhan.quxbas@ornek.com.tr", "last_name": "Quxbaşoğlu"}}]')
  #>> '{results,0,status}' as imported \gset
select public.finish_import(:'imp') ->> 'success' as finished \gset
-- A task about it, given to a colleague (who is notified with its title), then renamed.
select public.create_task(jsonb_build_object('title', 'Zeynurhan Quxbaşoğlu ile görüş', 'contact_id', :'person',
  'owner_id', :'colleague', 'description', 'E-posta: zeynurhan.quxbas@ornek.com.tr, tel +905551112299')) -> 'record' as task_row \gset
select (:'task_row'::jsonb) ->> 'id' as task \gset
select public.update_task(:'task', '{"title": "Toplantı: Zeynurhan"}',
  ((:'task_row'::jsonb) ->> 'updated_at')::timestamptz) ->> 'success' as renamed \gset
-- A task not linked to it that names its e-mail, a deal named after it, a note, a document, a saved view.
select public.create_task('{"title": "Ara: ZEYNURHAN.QUXBAS@ornek.com.tr"}') ->> 'success' as other_task \gset
select public.create_deal(jsonb_build_object('title', 'Zeynurhan Quxbaşoğlu fırsatı', 'customer_id', :'kuzey')) ->> 'success' as deal \gset
select public.add_record_note('contacts', :'person', 'Zeynurhan ile konuşuldu, +905559876543 artık kullanılmıyor') ->> 'success' as noted \gset
select public.create_document(jsonb_build_object('title', 'Quxbaşoğlu kimlik fotokopisi', 'contact_id', :'person')) ->> 'success' as doc \gset
select public.save_saved_view(null, 'contacts', 'Zeynurhan Quxbaşoğlu araması', '{"search": "zeynurhan.quxbas@ornek.com.tr"}')
  ->> 'success' as saved_view \gset
select tests.reset_role();

\set erased_values '{Zeynurhan,Quxbaşoğlu,Eskisoyad,zeynurhan.quxbas@ornek.com.tr,zq.ikinci@ornek.com.tr,+905551112299,+905559876543}'
select ok(:'changed' and :'merged' and :'imported' = 'updated' and :'finished' and :'renamed' and :'other_task' and :'deal'
          and :'noted' and :'doc' and :'saved_view', 'the person''s values reach every place (setup)');
select ok((select count(*) from private.notifications where organization_id = :'alpha' and user_id = :'colleague'
            and title like 'Zeynurhan Quxbaşoğlu%') = 1, 'the colleague was notified with the task''s title');
select ok(pg_temp.places_holding(:'alpha', :'erased_values') @> array['contacts.first_name', 'contacts.emails', 'contacts.last_name',
            'contacts.phones', 'contacts.search_text', 'deals.title', 'documents.title', 'field_history.old_value',
            'import_rows.previous', 'imports.file_name', 'notes.body', 'notifications.title', 'saved_views.definition',
            'saved_views.name', 'tasks.description', 'tasks.title'],
  'before the erasure the search finds the values in every one of those places');

-- Who may erase.
select tests.act_as_anon();
select throws_ok(format('select public.erase_contact(%L)', :'person'), '42501', null, 'anon cannot erase');
select tests.reset_role();
select tests.authenticate_as(:'manager', :'s_manager');
select is(public.erase_contact(:'person') ->> 'code', 'admin_required', 'a member who is not an admin cannot erase');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.erase_contact(:'person') ->> 'code', 'not_found', 'another organization''s admin cannot erase (not found)');
select tests.reset_role();
select ok(pg_temp.places_holding(:'alpha', :'erased_values') <> '{}', 'the refused calls erased nothing');

select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select public.erase_contact(:'person') as erase_answer \gset
select tests.reset_role();
select is((:'erase_answer'::jsonb) ->> 'success', 'true', 'an admin erases the contact');
select is((select array_agg(e::uuid order by e) from jsonb_array_elements_text((:'erase_answer'::jsonb) -> 'erased') e),
          (select array_agg(i order by i) from unnest(array[:'person'::uuid, :'duplicate'::uuid]) i),
  'the merged-away duplicate is erased with it');
select is(pg_temp.places_holding(:'alpha', :'erased_values'), '{}'::text[],
  'after the erasure no table of the organization (tenant tables, notifications, audit log, imports, uploads) holds any erased value');
select is((select count(*)::int from :"alpha_schema".contacts where id in (:'person', :'duplicate')
            and anonymized_at is not null and deleted_at is not null and first_name = '' and emails = '[]'), 2,
  'both contacts stay as anonymised, deleted rows (references hold)');
select is((select title from :"alpha_schema".tasks where id = :'task'), 'Toplantı: ***',
  'the linked task keeps its title without the name');
select is((select previous from :"alpha_schema".import_rows where import_id = :'imp'), '{}'::jsonb,
  'the import''s old values of the contact are emptied');
select is((select count(*)::int from :"alpha_schema".tasks where title = 'Ara: ***'), 1,
  'an e-mail is erased wherever it is written, in any case');
select is((select name from private.organizations where id = :'alpha'), 'Alpha A.Ş.', 'what is not the person stays (organization)');
select is((select name from :"alpha_schema".customers where id = :'kuzey'), 'Kuzey Makine A.Ş.', 'and the customer');
select is((select array_agg(action order by id) from private.audit_log where organization_id = :'alpha' and action = 'contacts.erased'),
  array['contacts.erased', 'contacts.erased'], 'each erased contact is audited (ids only)');
select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select is(public.erase_contact(:'duplicate') ->> 'code', 'not_found', 'an erased contact cannot be erased again');
select tests.reset_role();
select ok(exists (select 1 from private.audit_log where organization_id = :'alpha' and action = 'contacts.update'),
  'the audit log keeps its entries (append-only; they never held the values)');

-- A namesake is not erased: another contact and a customer named like the person keep
-- their names (only e-mails and phones, which are the person's own, go from them).
select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select public.create_contact('{"first_name": "Nurcan", "last_name": "Öztürk", "emails": [{"label": "work", "value": "nurcan@ornek.com.tr"}]}')
  #>> '{record,id}' as nurcan \gset
select public.create_contact('{"first_name": "Nurcan", "last_name": "Öztürk", "description": "Adaşı: nurcan@ornek.com.tr"}')
  #>> '{record,id}' as namesake \gset
select public.create_customer('{"name": "Nurcan Öztürk", "kind": "person"}') #>> '{record,id}' as namesake_customer \gset
select public.create_task('{"title": "Nurcan Öztürk için teklif"}') ->> 'success' as namesake_task \gset
select public.erase_contact(:'nurcan') ->> 'success' as nurcan_erased \gset
select tests.reset_role();
select is((select first_name || ' ' || last_name || ' | ' || description from :"alpha_schema".contacts where id = :'namesake')
          || ' | ' || (select name from :"alpha_schema".customers where id = :'namesake_customer'),
  'Nurcan Öztürk | Adaşı: *** | Nurcan Öztürk',
  'a namesake contact and customer keep their names; the erased person''s e-mail goes from them');
select is((select count(*)::int from :"alpha_schema".tasks where title = '*** için teklif'), 1,
  'the full name goes from free text elsewhere');

-- =================================================================================
-- Item 14: links within the caller's scope of the linked module
-- =================================================================================
-- The colleague's records (the own-scope member cannot see them).
select tests.reset_role();
select tests.authenticate_as(:'colleague', :'s_colleague');
select public.create_customer('{"name": "Gizli Holding A.Ş."}') #>> '{record,id}' as hidden_customer \gset
select public.create_contact(jsonb_build_object('first_name', 'Gizem', 'last_name', 'Saklı', 'customer_id', :'hidden_customer'))
  #>> '{record,id}' as hidden_contact \gset
select public.create_deal(jsonb_build_object('title', 'Gizli fırsat', 'customer_id', :'hidden_customer')) #>> '{record,id}' as hidden_deal \gset
select public.save_quote(null, jsonb_build_object('customer_id', :'hidden_customer'),
  '[{"description": "Kurulum", "quantity": 1, "unit_price": 10, "vat_rate": 20}]') ->> 'id' as hidden_quote \gset
select public.create_contract(jsonb_build_object('title', 'Gizli sözleşme', 'customer_id', :'hidden_customer'))
  #>> '{record,id}' as hidden_contract \gset
-- The own-scope member's own customer.
select tests.reset_role();
select tests.authenticate_as(:'own', :'s_own');
select public.create_customer('{"name": "Benim Müşterim Ltd."}') #>> '{record,id}' as own_customer \gset
select public.create_deal(jsonb_build_object('title', 'Benim fırsatım', 'customer_id', :'own_customer')) -> 'record' as own_deal_row \gset
select (:'own_deal_row'::jsonb) ->> 'id' as own_deal, (:'own_deal_row'::jsonb) ->> 'updated_at' as own_deal_at \gset
select tests.reset_role();
select ok(:'hidden_customer' is not null and :'hidden_contact' is not null and :'hidden_deal' is not null
          and :'hidden_quote' is not null and :'hidden_contract' is not null and :'own_deal' is not null, 'link setup');

create temp table link_cases (module text, entity text, base jsonb, link text, hidden uuid);
insert into link_cases values
  ('deals', 'deal', '{"title": "Bağ"}', 'customer_id', :'hidden_customer'),
  ('contacts', 'contact', '{"first_name": "Bağ"}', 'customer_id', :'hidden_customer'),
  ('tasks', 'task', '{"title": "Bağ"}', 'customer_id', :'hidden_customer'),
  ('tasks', 'task', '{"title": "Bağ"}', 'contact_id', :'hidden_contact'),
  ('tasks', 'task', '{"title": "Bağ"}', 'deal_id', :'hidden_deal'),
  ('quotes', 'quote', '{}', 'customer_id', :'hidden_customer'),
  ('quotes', 'quote', jsonb_build_object('customer_id', :'own_customer'), 'contact_id', :'hidden_contact'),
  ('quotes', 'quote', jsonb_build_object('customer_id', :'own_customer'), 'deal_id', :'hidden_deal'),
  ('contracts', 'contract', '{"title": "Bağ"}', 'customer_id', :'hidden_customer'),
  ('contracts', 'contract', '{"title": "Bağ"}', 'contact_id', :'hidden_contact'),
  ('contracts', 'contract', '{"title": "Bağ"}', 'deal_id', :'hidden_deal'),
  ('contracts', 'contract', '{"title": "Bağ"}', 'quote_id', :'hidden_quote'),
  ('documents', 'document', '{"title": "Bağ"}', 'customer_id', :'hidden_customer'),
  ('documents', 'document', '{"title": "Bağ"}', 'contact_id', :'hidden_contact'),
  ('documents', 'document', '{"title": "Bağ"}', 'deal_id', :'hidden_deal'),
  ('documents', 'document', '{"title": "Bağ"}', 'quote_id', :'hidden_quote'),
  ('documents', 'document', '{"title": "Bağ"}', 'contract_id', :'hidden_contract');
grant select on link_cases to authenticated;

/** create_<entity>(p_values) for a module of the registry. */
create function pg_temp.create_record(p_entity text, p_values jsonb)
returns jsonb language plpgsql as $$
declare
  answer jsonb;
begin
  execute format('select public.%I($1)', 'create_' || p_entity) into answer using p_values;
  return answer;
end;
$$;

grant execute on function pg_temp.create_record(text, jsonb) to authenticated;

-- Every link of every module, through the form: a colleague's record is not found, exactly
-- as an id that names nothing.
select tests.reset_role();
select tests.authenticate_as(:'own', :'s_own');
create temp table link_answers as
select c.module, c.link,
       pg_temp.create_record(c.entity, c.base || jsonb_build_object(c.link, c.hidden)) as hidden_answer,
       pg_temp.create_record(c.entity, c.base || jsonb_build_object(c.link, gen_random_uuid())) as missing_answer
  from link_cases c;
select tests.reset_role();
select is((select array_agg(module || '.' || link order by module, link) from link_answers
            where hidden_answer #>> array['fields', link] = 'not_found' and hidden_answer ->> 'code' = 'invalid_fields'),
          (select array_agg(module || '.' || link order by module, link) from link_cases),
  'view own: every link to a colleague''s record (deal, contact, task, quote, contract, document) is not_found');
select is((select array_agg(module || '.' || link order by module, link) from link_answers
            where hidden_answer is distinct from missing_answer), null,
  'and each answer is exactly the answer for an id that names nothing');
select is((select count(*)::int from :"alpha_schema".deals where title = 'Bağ'), 0, 'nothing was created');

select tests.reset_role();
select tests.authenticate_as(:'own', :'s_own');
select is(public.update_deal(:'own_deal', jsonb_build_object('customer_id', :'hidden_customer'),
                             :'own_deal_at') -> 'fields',
  '{"customer_id": "not_found"}', 'view own: an update cannot link to a colleague''s customer');
select is(public.bulk_update_deals(array[:'own_deal'::uuid], jsonb_build_object('customer_id', :'hidden_customer')),
          public.bulk_update_deals(array[:'own_deal'::uuid], jsonb_build_object('customer_id', gen_random_uuid())),
  'view own: a bulk update linking to a colleague''s customer answers as for one that does not exist');
select is(public.bulk_update_deals(array[:'own_deal'::uuid], jsonb_build_object('customer_id', :'hidden_customer')) ->> 'code',
  'invalid_fields', 'and is refused');
select is(public.update_deal(:'own_deal', '{"title": "Benim fırsatım 2"}',
                             :'own_deal_at') ->> 'success', 'true',
  'an update that keeps its link is not checked again');
select is(public.set_deal_contacts(:'own_deal', array[:'hidden_contact'::uuid]),
          public.set_deal_contacts(:'own_deal', array[gen_random_uuid()]),
  'view own: set_deal_contacts with a colleague''s contact answers as for one that does not exist');
select is(public.set_deal_contacts(:'own_deal', array[:'hidden_contact'::uuid]) #>> '{fields,contact_ids}', 'not_found',
  'which is not_found');
select tests.reset_role();
select is((select customer_id::text from :"alpha_schema".deals where id = :'own_deal'), :'own_customer', 'the deal''s link is unchanged');

-- Import: by name, by id, by the id column; the preview and the run.
select tests.reset_role();
select tests.authenticate_as(:'own', :'s_own');
select public.check_import_rows('deals', 'create', null, jsonb_build_array(
  jsonb_build_object('row', 2, 'values', jsonb_build_object('title', 'A', 'customer', 'Gizli Holding A.Ş.')),
  jsonb_build_object('row', 3, 'values', jsonb_build_object('title', 'B', 'customer', 'Hiç Olmayan Holding')),
  jsonb_build_object('row', 4, 'values', jsonb_build_object('title', 'C', 'customer', :'hidden_customer')),
  jsonb_build_object('row', 5, 'values', jsonb_build_object('title', 'D', 'customer', gen_random_uuid())),
  jsonb_build_object('row', 6, 'values', jsonb_build_object('title', 'E', 'customer_id', :'hidden_customer')),
  jsonb_build_object('row', 7, 'values', jsonb_build_object('title', 'F', 'customer_id', gen_random_uuid())),
  jsonb_build_object('row', 8, 'values', jsonb_build_object('title', 'G', 'customer', 'Benim Müşterim Ltd.')))) as own_preview \gset
select is((((:'own_preview'::jsonb) #> '{results,0}') - 'row'), (((:'own_preview'::jsonb) #> '{results,1}') - 'row'),
  'import preview: a colleague''s customer by name answers exactly as a name that does not exist');
select is((:'own_preview'::jsonb) #> '{results,0,errors}', '{"customer": "not_found"}', 'which is not_found');
select is((((:'own_preview'::jsonb) #> '{results,2}') - 'row'), (((:'own_preview'::jsonb) #> '{results,3}') - 'row'),
  'import preview: a colleague''s customer by its id, as an id that names nothing');
select is((((:'own_preview'::jsonb) #> '{results,4}') - 'row'), (((:'own_preview'::jsonb) #> '{results,5}') - 'row'),
  'import preview: a colleague''s customer in the customer_id column, as an id that names nothing');
select is((:'own_preview'::jsonb) #> '{results,4,errors}', '{"customer_id": "not_found"}', 'which is not_found');
select is((:'own_preview'::jsonb) #>> '{results,6,status}', 'created', 'the member''s own customer is found by name');
select public.check_import_rows('tasks', 'create', null, '[
  {"row": 2, "values": {"title": "T", "contact": "Gizem Saklı"}}, {"row": 3, "values": {"title": "U", "contact": "Hiç Kimse"}}]')
  as task_preview \gset
select is((((:'task_preview'::jsonb) #> '{results,0}') - 'row'), (((:'task_preview'::jsonb) #> '{results,1}') - 'row'),
  'import preview: a task''s hidden contact by name answers as an unknown name');
select public.start_import('deals', 'firsatlar.csv', 10, repeat('b', 64), 'create', null, 2, '{}') #>> '{import,id}' as own_import \gset
select public.run_import_batch(:'own_import', 0, jsonb_build_array(
  jsonb_build_object('row', 2, 'values', jsonb_build_object('title', 'İçe A', 'customer', 'Gizli Holding A.Ş.')),
  jsonb_build_object('row', 3, 'values', jsonb_build_object('title', 'İçe B', 'customer_id', :'hidden_customer')))) as own_run \gset
select tests.reset_role();
select is((:'own_run'::jsonb) -> 'results',
  '[{"row": 2, "status": "failed", "errors": {"customer": "not_found"}}, {"row": 3, "status": "failed", "errors": {"customer_id": "not_found"}}]',
  'import run: both rows fail as not_found');
select is((select count(*)::int from :"alpha_schema".deals where title like 'İçe%'), 0, 'and no deal was linked to the hidden customer');

-- An all-scope member may link to the same records.
select tests.reset_role();
select tests.authenticate_as(:'manager', :'s_manager');
select is(public.create_deal(jsonb_build_object('title', 'Müdür fırsatı', 'customer_id', :'hidden_customer')) ->> 'success', 'true',
  'view all: a deal links to the colleague''s customer');
select is(public.create_task(jsonb_build_object('title', 'Müdür görevi', 'contact_id', :'hidden_contact', 'deal_id', :'hidden_deal'))
  ->> 'success', 'true', 'view all: a task links to the colleague''s contact and deal');
select is(public.create_contract(jsonb_build_object('title', 'Müdür sözleşmesi', 'quote_id', :'hidden_quote')) ->> 'success', 'true',
  'view all: a contract links to the colleague''s quote');
select is(public.create_document(jsonb_build_object('title', 'Müdür belgesi', 'contract_id', :'hidden_contract')) ->> 'success', 'true',
  'view all: a document links to the colleague''s contract');
select is(public.check_import_rows('deals', 'create', null, jsonb_build_array(
  jsonb_build_object('row', 2, 'values', jsonb_build_object('title', 'A', 'customer', 'Gizli Holding A.Ş.')),
  jsonb_build_object('row', 3, 'values', jsonb_build_object('title', 'B', 'customer_id', :'hidden_customer')))) -> 'results',
  '[{"row": 2, "status": "created"}, {"row": 3, "status": "created"}]', 'view all: the import finds the customer by name and id');
select is(public.set_deal_contacts(:'own_deal', array[:'hidden_contact'::uuid]) ->> 'success', 'true',
  'view all: set_deal_contacts adds the colleague''s contact');
select tests.reset_role();
-- Once linked by someone who may, the own-scope member's other edits of the deal still work.
select tests.reset_role();
select tests.authenticate_as(:'own', :'s_own');
select is(public.set_deal_contacts(:'own_deal', array[:'hidden_contact'::uuid]) ->> 'success', 'true',
  'view own: keeping a contact linked by someone else is not a new link');
select tests.reset_role();

-- =================================================================================
-- Item 13: settings and roles audited with old and new values
-- =================================================================================
select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select public.update_organization_settings('{"exchange_rates": {"USD": 41.2, "EUR": 44.1}}') ->> 'success' as set_rates \gset
select public.update_organization_settings('{"exchange_rates": {"USD": 42.5, "EUR": 44.1}, "default_vat_rate": 10, "locale": "tr-TR",
  "name": "Alpha Yeni A.Ş."}') ->> 'success' as changed_rates \gset
select tests.reset_role();
select is((select details from private.audit_log where organization_id = :'alpha' and action = 'settings.updated' order by id desc limit 1),
  '{"fields": ["name", "locale", "exchange_rates", "default_vat_rate"],
    "changes": {"exchange_rates": {"old": {"USD": 41.2, "EUR": 44.1}, "new": {"USD": 42.5, "EUR": 44.1}},
                "default_vat_rate": {"old": 20, "new": 10}, "name": {"old": "Alpha A.Ş.", "new": "Alpha Yeni A.Ş."}}}'::jsonb,
  'settings: the audit keeps each changed field''s old and new value (the unchanged locale is named, not listed as a change)');
select is((select details #> '{changes,exchange_rates}' from private.audit_log where organization_id = :'alpha'
             and action = 'settings.updated' order by id desc offset 1 limit 1),
  '{"old": {}, "new": {"USD": 41.2, "EUR": 44.1}}', 'settings: the first rates are recorded against none');
select is(private.audit_changes('{"smtp_password": "eski-gizli", "api_key": "k1", "locale": "tr-TR"}',
                                '{"smtp_password": "yeni-gizli", "api_key": "k1", "locale": "en-US"}'),
  '{"smtp_password": {"old": "***", "new": "***", "changed": true}, "locale": {"old": "tr-TR", "new": "en-US"}}',
  'settings: a secret-typed setting is recorded as changed, never in clear');

select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select public.save_role('partner', 'İş Ortağı', '{"customers": {"view": "own"}}') ->> 'success' as role_created \gset
select public.save_role('partner', 'Bayi', '{"customers": {"view": "all", "edit": "own"}}') ->> 'success' as role_changed \gset
select public.delete_role('partner') ->> 'success' as role_deleted \gset
select tests.reset_role();
select is((select array_agg(details order by id) from private.audit_log where organization_id = :'alpha' and target_id = 'partner'),
  array['{"name": "İş Ortağı", "permissions": {"customers": {"view": "own"}}, "old": null}'::jsonb,
        '{"name": "Bayi", "permissions": {"customers": {"view": "all", "edit": "own"}},
          "old": {"name": "İş Ortağı", "permissions": {"customers": {"view": "own"}}}}'::jsonb,
        '{"old": {"name": "Bayi", "permissions": {"customers": {"view": "all", "edit": "own"}}}}'::jsonb],
  'roles: a new role, a change (name and matrix before and after) and a deletion (what was removed) are audited');
select tests.reset_role();
select tests.authenticate_as(:'manager', :'s_manager');
select is(public.save_role('partner2', 'X', '{}') ->> 'code', 'admin_required', 'a member cannot save a role');
select is(public.update_organization_settings('{"default_vat_rate": 1}') ->> 'code', 'admin_required', 'nor change settings');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where organization_id = :'beta' and action in ('settings.updated', 'role.saved')), 0,
  'another organization''s audit log shows none of it');

select * from finish();
rollback;
