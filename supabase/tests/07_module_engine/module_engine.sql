-- The module engine, once per module of private.modules (a new module is covered the
-- moment it is registered): the guard (unbound session, viewer, own scope, another
-- organization's id), create, get, list, update with a stale and a current updated_at,
-- field history, audit, soft delete hiding the record, restore, unknown fields.
-- The engine is private; the test runner calls it with each person's request identity.
begin;
select plan((select count(*)::int * 17 from private.modules) + 3);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here, so it meets others' records it may not change
-- (its default is to view only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');

-- One bound session each (bound as the runner, with each person's identity).
create temporary table sessions (person uuid primary key, session uuid not null, organization uuid);
insert into sessions values (:'alpha_admin', gen_random_uuid(), :'alpha'), (:'alpha_sales', gen_random_uuid(), :'alpha'),
                            (:'alpha_viewer', gen_random_uuid(), :'alpha'), (:'beta_admin', gen_random_uuid(), :'beta');
insert into auth.sessions (id, user_id) select session, person from sessions;
insert into private.session_organizations (session_id, user_id, organization_id) select session, person, organization from sessions;

/** Acts as the person (their bound session) while staying the runner, who may call private.*. */
create function pg_temp.act_as(p_person uuid, p_session uuid default null) returns void language sql as $$
  select tests.set_request_identity('none', p_person::text, json_build_object(
    'sub', p_person, 'role', 'authenticated',
    'session_id', coalesce(p_session, (select session from sessions where person = p_person)))::text);
$$;

/** A minimal valid record of a module: its required text columns, or the module's own sample. */
create function pg_temp.sample(p_module text) returns jsonb language sql as $$
  select coalesce(
    case p_module when 'contacts' then '{"first_name": "Örnek"}'::jsonb
                  -- The number is assigned; notes is a free text field of the header.
                  when 'quotes' then '{"notes": "Örnek"}'::jsonb
                  -- The stage and currency default to the pipeline's first stage and the organization's currency.
                  when 'deals' then '{"title": "Örnek"}'::jsonb end,
    (select jsonb_object_agg(a.attname, 'Örnek')
       from private.modules m
       join pg_catalog.pg_attribute a
         on a.attrelid = format('%I.%I', (select o.schema_name from private.organizations o where o.slug = 'alpha'), m.table_name)::regclass
      where m.key = p_module and a.attname = any (private.module_column_list(m.key, 'writable')) and a.attnotnull and not a.atthasdef
        and a.atttypid = 'text'::regtype),
    '{}');
$$;

/** Every check of one module, as TAP lines. */
create function pg_temp.module_checks(p_module text) returns setof text language plpgsql as $$
declare
  sample jsonb := pg_temp.sample(p_module);
  field text := (select k from jsonb_object_keys(pg_temp.sample(p_module)) k limit 1);
  created jsonb;
  answer jsonb;
  record_id uuid;
  stamp timestamptz;
  schema_name text := (select o.schema_name from private.organizations o where o.slug = 'alpha');
  history integer;
begin
  perform pg_temp.act_as((select id from private.profiles where email = 'admin@alpha.test'), gen_random_uuid());
  return next is(private.record_list(p_module, null, null, null, null, 50, 0) ->> 'code', 'organization_context_required',
                 p_module || ': an unbound session is refused');

  perform pg_temp.act_as((select id from private.profiles where email = 'admin@alpha.test'));
  created := private.record_create(p_module, sample);
  return next is(created ->> 'success', 'true', p_module || ': an admin creates a record');
  record_id := (created #>> '{record,id}')::uuid;
  stamp := (created #>> '{record,updated_at}')::timestamptz;
  return next is(private.record_get(p_module, record_id) #>> '{record,id}', record_id::text, p_module || ': and reads it back');
  return next ok(exists (select 1 from jsonb_array_elements(private.record_list(p_module, null, null, null, null, 200, 0) -> 'records') r
                          where r ->> 'id' = record_id::text), p_module || ': the list shows it');
  return next is(private.record_create(p_module, sample || '{"no_such_column": 1}') #>> '{fields,no_such_column}', 'unknown_field',
                 p_module || ': an unknown field is refused');
  return next is(private.record_update(p_module, record_id, jsonb_build_object(field, 'Değişti'), stamp - interval '1 second') ->> 'code',
                 'stale_record', p_module || ': an update from a stale read is refused');
  answer := private.record_update(p_module, record_id, jsonb_build_object(field, 'Değişti'), stamp);
  return next is(answer #>> array['record', field], 'Değişti', p_module || ': an update from the current read is written');
  execute format('select count(*) from %I.field_history where record_id = $1 and field = $2', schema_name)
    into history using record_id, field;
  return next is(history, 1, p_module || ': the changed field is in the record''s history');

  perform pg_temp.act_as((select id from private.profiles where email = 'viewer@alpha.test'));
  return next is(private.record_create(p_module, sample) ->> 'code', 'permission_denied', p_module || ': a viewer cannot create');
  return next is(private.record_update(p_module, record_id, jsonb_build_object(field, 'İzleyici'), (answer #>> '{record,updated_at}')::timestamptz) ->> 'code',
                 'permission_denied', p_module || ': nor edit');
  perform pg_temp.act_as((select id from private.profiles where email = 'sales@alpha.test'));
  return next is(private.record_update(p_module, record_id, jsonb_build_object(field, 'Satış'), (answer #>> '{record,updated_at}')::timestamptz) ->> 'code',
                 'not_record_owner', p_module || ': an own-scope editor cannot edit another''s record, even by id');
  perform pg_temp.act_as((select id from private.profiles where email = 'admin@beta.test'));
  return next is(private.record_get(p_module, record_id) ->> 'code', 'not_found', p_module || ': another organization''s admin: not found');
  return next is(private.record_set_deleted(p_module, array[record_id], true) ->> 'changed', '0',
                 p_module || ': and cannot delete it');

  perform pg_temp.act_as((select id from private.profiles where email = 'admin@alpha.test'));
  return next is(private.record_set_deleted(p_module, array[record_id], true) ->> 'changed', '1', p_module || ': the admin deletes it');
  return next is(private.record_get(p_module, record_id) ->> 'code', 'not_found', p_module || ': a deleted record is hidden');
  return next is(private.record_set_deleted(p_module, array[record_id], false) ->> 'changed', '1', p_module || ': and restores it');
  return next is((select array_agg(a.action order by a.id) from private.audit_log a where a.target_id = record_id::text),
                 array[p_module || '.create', p_module || '.update', p_module || '.delete', p_module || '.restore'],
                 p_module || ': every write is audited');
  perform tests.reset_role();
end;
$$;

select pg_temp.module_checks(m.key) from private.modules m order by m.position;
select tests.reset_role();

-- The guard itself.
select pg_temp.act_as(:'alpha_admin');
select is((private.module_context('no_such_module', 'view')).problem ->> 'code', 'unknown_module', 'an unknown module is refused');
select is((private.module_context('customers', 'approve')).problem ->> 'code', 'unknown_module', 'an unknown action is refused');
select is((private.module_context('customers', 'view')).scope, 'all', 'an admin''s scope is all');
select tests.reset_role();

select * from finish();
rollback;
