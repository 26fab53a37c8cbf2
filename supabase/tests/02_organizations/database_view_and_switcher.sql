-- admin/database (get_organization_tables) and the super-admin switcher
-- (super_admin_switch_organization): allowed and denied per caller; audit trail.
begin;
select plan(18);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_organization('bare', 'Bare Ltd.') as bare \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test') as alpha_admin \gset
select tests.create_user('user@alpha.test') as alpha_user \gset
select tests.create_user('admin@bare.test') as bare_admin \gset
select tests.create_user('root@crm.test', 'super_admin') as super \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'bare_admin', :'bare', 'admin');
insert into :"alpha_schema".deals (title, owner_id, created_by) values ('One', :'alpha_user', :'alpha_user'), ('Two', :'alpha_user', :'alpha_user');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_user, gen_random_uuid() as s_bare, gen_random_uuid() as s_super \gset

-- anon: not granted
select tests.act_as_anon();
select throws_ok('select public.get_organization_tables()', '42501', null, 'anon cannot read the tables view');
select throws_ok(format('select public.super_admin_switch_organization(%L)', :'beta'), '42501', null, 'anon cannot switch');
select tests.reset_role();

-- The admin of alpha sees alpha's tables, with row counts.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select public.get_organization_tables() as view \gset
select is(jsonb_array_length(:'view'::jsonb -> 'tables'), 23, 'the admin sees the twenty-three template tables');
select is((select (t ->> 'row_count')::int from jsonb_array_elements(:'view'::jsonb -> 'tables') t where t ->> 'name' = 'deals'),
  2, 'with exact row counts');
select ok((select bool_and((t ->> 'total_bytes')::bigint > 0) from jsonb_array_elements(:'view'::jsonb -> 'tables') t),
  'and their sizes');
select is(:'view'::jsonb ->> 'needs_provisioning', 'false', 'alpha is up to date with the template');
select is(public.get_organization_tables('beta') ->> 'code', 'organization_context_required',
  'an admin cannot name another organization');
select is(public.super_admin_switch_organization(:'beta') ->> 'code', 'super_admin_required', 'an admin cannot switch');
select tests.reset_role();

-- A plain member is refused.
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.get_organization_tables() ->> 'code', 'admin_required', 'a plain member cannot read the tables view');
select tests.reset_role();

-- An organization without tables says so.
select private.latest_template_version() as latest_version \gset
select tests.authenticate_as(:'bare_admin', :'s_bare');
select public.bind_session_organization(:'bare') ->> 'success' as bound \gset
select is(public.get_organization_tables() - 'schema_name',
  jsonb_build_object('success', true, 'provisioned', false, 'template_version', 0,
    'latest_template_version', :'latest_version'::int,
    'last_migrated_at', null, 'last_migration_error', null, 'needs_provisioning', true, 'tables', '[]'::jsonb),
  'an unprovisioned organization needs provisioning');
select tests.reset_role();

-- The super admin switches this session from alpha to beta, recorded in both audit logs.
select tests.authenticate_as(:'super', :'s_super');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.get_organization_tables('beta') ->> 'schema_name', :'beta_schema',
  'a super admin may name any organization');
select is(public.super_admin_switch_organization(:'beta') -> 'organization' ->> 'slug', 'beta', 'the super admin switches to beta');
select is(public.get_current_user_context() -> 'organization' ->> 'slug', 'beta', 'the session now works in beta');
select is(public.super_admin_switch_organization(gen_random_uuid()) ->> 'code', 'organization_not_found',
  'an unknown organization is refused');
select tests.reset_role();
update private.organizations set is_active = false where id = :'bare';
select tests.authenticate_as(:'super', :'s_super');
select is(public.super_admin_switch_organization(:'bare') ->> 'code', 'organization_not_found',
  'an inactive organization is refused');
select tests.reset_role();
select is((select count(*)::int from private.session_organizations where session_id = :'s_super'), 1,
  'the session has exactly one binding');
select is((select array_agg(action order by id) from private.audit_log where actor_id = :'super' and organization_id = :'alpha'),
  array['session.super_admin_entered', 'session.super_admin_left'], 'alpha records the entry and the departure');
select is((select action from private.audit_log where actor_id = :'super' and organization_id = :'beta'),
  'session.super_admin_switched', 'beta records the switch');

select * from finish();
rollback;
