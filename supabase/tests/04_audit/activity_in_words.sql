-- The audit log, the record timeline and the home's recent activity name people and
-- records, never only by id: get_audit_log's filters (who, action, date range) and names
-- (actor, deleted actor, target record, role, person, a target that no longer exists),
-- allowed for the organization's admin and denied per role, for another organization's
-- admin and for a member of both; the timeline's change labels (linked record, owner) and
-- who did it; the dashboard's actor name.
begin;
select plan(30);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yılmaz') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.create_user('multi@both.test', 'user', 'Zeynep', 'Çoklu') as multi \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'multi', :'alpha', 'sales');
select tests.add_member(:'multi', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_beta, gen_random_uuid() as s_multi \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
select tests.bind_session(:'multi', :'s_multi', :'beta');

-- Fixtures through the real RPCs: the admin creates two customers and a deal of the first,
-- then moves the deal to the second; the sales member creates a customer of their own.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Işık Yazılım A.Ş."}') #>> '{record,id}' as isik \gset
select public.create_customer('{"name": "Çınar Gıda"}') #>> '{record,id}' as cinar \gset
select public.create_deal(jsonb_build_object('title', 'Bakım işi', 'customer_id', :'isik')) -> 'record' as deal \gset
select public.update_deal((:'deal'::jsonb ->> 'id')::uuid, jsonb_build_object('customer_id', :'cinar'),
                          (:'deal'::jsonb ->> 'updated_at')::timestamptz) ->> 'success' as moved \gset
select public.delete_customers(array[:'cinar'::uuid]) ->> 'changed' as deleted_one \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.create_customer('{"name": "Satış Müşterisi"}') #>> '{record,id}' as mine \gset
select tests.reset_role();
select :'deal'::jsonb ->> 'id' as deal_id \gset
-- An entry by an account that is gone, about a record that is gone; an owner change.
select gen_random_uuid() as ghost \gset
insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, created_at)
values (:'alpha', :'ghost', 'customers.update', 'customers', gen_random_uuid()::text, now() - interval '10 days');
insert into private.audit_log (organization_id, actor_id, action, target_type, target_id)
values (:'alpha', :'alpha_admin', 'role.saved', 'role', 'sales'),
       (:'alpha', :'alpha_admin', 'user.locked', 'user', :'alpha_sales');
select format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by) values (''deal'', %L, ''owner_id'', %L, %L, %L)',
              :'alpha_schema', :'deal_id', to_jsonb(:'alpha_admin'::text), to_jsonb(:'alpha_sales'::text), :'ghost') as owner_change \gset
:owner_change;
select is(:'moved' || '|' || :'deleted_one', 'true|1'::text, 'fixtures: the deal moved to Çınar, and Çınar was deleted');

-- ---------------------------------------------------------------------------------
-- get_audit_log: denied
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok(format('select public.get_audit_log(p_actor_id => %L)', :'alpha_admin'), '42501', null,
  'anon: the filtered audit log is refused by the database');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.get_audit_log(p_action => 'customers.create') ->> 'code' as r1 \gset
select tests.reset_role();
select is(:'r1'::text, 'admin_required', 'a sales member filtering the audit log gets admin_required');
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select public.get_audit_log(p_actor_id => :'alpha_admin') ->> 'code' as r1 \gset
select tests.reset_role();
select is(:'r1'::text, 'admin_required', 'a viewer gets admin_required');
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.get_audit_log(p_actor_id => :'alpha_admin') as r1,
       public.get_audit_log(p_action => 'customers.create') as r2,
       public.get_audit_log(p_organization_slug => 'alpha', p_action => 'customers.create') ->> 'code' as r3 \gset
select tests.reset_role();
select is(:'r1'::jsonb -> 'entries', '[]'::jsonb, 'another organization''s admin filtering by an alpha member sees nothing of alpha');
select is(:'r2'::jsonb -> 'entries', '[]'::jsonb, 'another organization''s admin filtering by action sees none of alpha''s entries');
select is(:'r3'::text, 'organization_context_required', 'another organization''s admin naming alpha is refused');
select tests.authenticate_as(:'multi', :'s_multi');
select public.get_audit_log(p_action => 'customers.create') -> 'entries' as r1 \gset
select tests.reset_role();
select is(:'r1'::jsonb, '[]'::jsonb, 'a member of both, admin in beta, sees none of alpha''s entries');

-- ---------------------------------------------------------------------------------
-- get_audit_log: allowed, filters
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_audit_log(p_actor_id => :'alpha_sales') as by_sales,
       public.get_audit_log(p_action => 'customers.create') as creates,
       public.get_audit_log(p_actor_id => :'alpha_admin', p_action => 'customers.create') as admin_creates,
       public.get_audit_log(p_from => now() - interval '11 days', p_to => now() - interval '9 days') as old_days,
       public.get_audit_log(p_from => now() + interval '1 day') as future,
       public.get_audit_log(p_to => now() - interval '20 days') as long_ago,
       public.get_audit_log() as everything \gset
select tests.reset_role();
select is((select string_agg(e ->> 'action', ',') from jsonb_array_elements(:'by_sales'::jsonb -> 'entries') e),
  'customers.create', 'filter by actor: only the sales member''s entry');
select is((select string_agg(e -> 'target' ->> 'name', ',' order by e ->> 'id') from jsonb_array_elements(:'creates'::jsonb -> 'entries') e),
  'Işık Yazılım A.Ş.,Çınar Gıda,Satış Müşterisi', 'filter by action: the three customers created, by name');
select is(jsonb_array_length(:'admin_creates'::jsonb -> 'entries'), 2, 'filters combine: the admin''s two customers');
select is((select string_agg(e ->> 'action', ',') from jsonb_array_elements(:'old_days'::jsonb -> 'entries') e),
  'customers.update', 'filter by date range: the entry of ten days ago only');
select is(:'future'::jsonb -> 'entries', '[]'::jsonb, 'a range starting tomorrow holds nothing');
select is(:'long_ago'::jsonb -> 'entries', '[]'::jsonb, 'a range ending before everything holds nothing');

-- Names.
select is((select e -> 'target' from jsonb_array_elements(:'everything'::jsonb -> 'entries') e
            where e ->> 'action' = 'customers.create' and e ->> 'target_id' = :'isik'),
  jsonb_build_object('name', 'Işık Yazılım A.Ş.', 'exists', true, 'module', 'customers'), 'a record target: its name and its module to open');
select is((select e -> 'target' from jsonb_array_elements(:'everything'::jsonb -> 'entries') e
            where e ->> 'action' = 'customers.delete'),
  jsonb_build_object('name', 'Çınar Gıda', 'exists', true, 'module', null), 'a deleted record: still its name, nothing to open');
select is((select e -> 'target' from jsonb_array_elements(:'everything'::jsonb -> 'entries') e where e ->> 'action' = 'role.saved'),
  jsonb_build_object('name', 'Satış Temsilcisi', 'exists', true), 'a role target: the role''s name');
select is((select e -> 'target' ->> 'name' from jsonb_array_elements(:'everything'::jsonb -> 'entries') e where e ->> 'action' = 'user.locked'),
  'Selim Satış', 'a person target: the person''s name');
select is((select e -> 'target' ->> 'email' from jsonb_array_elements(:'everything'::jsonb -> 'entries') e where e ->> 'action' = 'user.locked'),
  'sales@alpha.test', 'a person target: with their e-mail');
select is((select jsonb_build_object('target', e -> 'target', 'deleted', e -> 'actor' -> 'deleted', 'email', e -> 'actor' -> 'email')
             from jsonb_array_elements(:'everything'::jsonb -> 'entries') e where e ->> 'action' = 'customers.update' and e -> 'actor' ->> 'id' = :'ghost'),
  jsonb_build_object('target', null, 'deleted', true, 'email', null), 'a deleted account and a record that no longer exists are said to be gone');
select is((select (e -> 'actor' ->> 'deleted') || '|' || (e -> 'actor' ->> 'first_name')
             from jsonb_array_elements(:'by_sales'::jsonb -> 'entries') e), 'false|Selim', 'a present actor is not deleted, with their name');

-- ---------------------------------------------------------------------------------
-- The record timeline: who, and linked ids as names
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_record_timeline('deals', :'deal_id') -> 'entries' as timeline \gset
select tests.reset_role();
select is((select jsonb_build_object('old', e ->> 'old_label', 'new', e ->> 'new_label', 'by', e ->> 'by_name', 'gone', e -> 'by_deleted')
             from jsonb_array_elements(:'timeline'::jsonb) e where e ->> 'field' = 'customer_id'),
  jsonb_build_object('old', 'Işık Yazılım A.Ş.', 'new', null, 'by', 'Ayşe Yılmaz', 'gone', false),
  'timeline: a link change names the customer and who changed it; the deleted one, as in the lists, has no name');
select is((select jsonb_build_object('old', e ->> 'old_label', 'new', e ->> 'new_label', 'by', e -> 'by_name', 'gone', e -> 'by_deleted')
             from jsonb_array_elements(:'timeline'::jsonb) e where e ->> 'field' = 'owner_id'),
  jsonb_build_object('old', 'Ayşe Yılmaz', 'new', 'Selim Satış', 'by', null, 'gone', true),
  'timeline: an owner change names both people; an account that is gone is said to be gone');
select is((select string_agg(e ->> 'action', ',' order by e ->> 'action') from jsonb_array_elements(:'timeline'::jsonb) e where e ->> 'kind' = 'event'),
  'deals.create,deals.update', 'timeline: the deal''s own events');
select is((select count(*)::int from jsonb_array_elements(:'timeline'::jsonb) e
            where e ->> 'kind' = 'change' and e ->> 'field' = 'customer_id' and e ? 'old_label'), 1, 'timeline: change entries carry labels');

-- The sales member may read the deal's timeline; the other organization's admin may not.
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select coalesce(public.get_record_timeline('deals', :'deal_id') ->> 'code', 'allowed') as t1 \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select coalesce(public.get_record_timeline('deals', :'deal_id') ->> 'code', 'allowed') as t2 \gset
select tests.reset_role();
select is(:'t1'::text, 'allowed', 'timeline: a sales member (who views every deal) reads it');
select is(:'t2'::text, 'not_found', 'timeline: another organization''s admin gets not_found');

-- ---------------------------------------------------------------------------------
-- The dashboard: the actor by name
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.get_dashboard() -> 'recent_activity' as recent \gset
select tests.reset_role();
select is((select string_agg((e ->> 'action') || '|' || (e ->> 'title') || '|' || (e ->> 'actor_name'), ',') from jsonb_array_elements(:'recent'::jsonb) e),
  'create|Satış Müşterisi|Selim Satış', 'home: my record''s activity names the record and the actor');

-- Indexes for the filters.
select has_index('private', 'audit_log', 'audit_log_actor_idx', 'the audit log has an index for the actor filter');
select has_index('private', 'audit_log', 'audit_log_action_idx', 'the audit log has an index for the action filter');

select * from finish();
rollback;
