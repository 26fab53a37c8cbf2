-- Tenant isolation: sealed tenant schemas, table resolution only inside the caller's
-- organization, no way from one organization into another, and injection attempts
-- that leave the database intact.
begin;
select plan(72);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- ---------------------------------------------------------------------------------
-- Fixtures: alpha and beta provisioned, each with an admin and a plain member.
-- ---------------------------------------------------------------------------------
\o /dev/null
select tests.create_user('root@platform.test', 'super_admin', 'Sena', 'Kök') as sa \gset
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.create_user('admin@beta.test', 'user', 'Bora', 'Tan') as beta_admin \gset
select tests.create_user('user@beta.test', 'user', 'Berk', 'Uz') as beta_user \gset
select tests.create_user('both@alpha.test', 'user', 'Cem', 'Çift') as dual_member \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'beta_user', :'beta', 'user');
select tests.add_member(:'dual_member', :'alpha', 'user');
select tests.add_member(:'dual_member', :'beta', 'user');
select gen_random_uuid() as s_sa, gen_random_uuid() as s_alpha_admin, gen_random_uuid() as s_alpha_user,
       gen_random_uuid() as s_beta_admin, gen_random_uuid() as s_beta_user, gen_random_uuid() as s_unbound,
       gen_random_uuid() as s_alpha_admin_2, gen_random_uuid() as s_dual \gset
-- beta's data: a customer and a task owned by its plain member.
select format('insert into %I.customers (name, owner_id, created_by) values (%L, %L, %L)',
              :'beta_schema', 'Beta Müşteri', :'beta_user', :'beta_user') as beta_customer \gset
select format('insert into %I.tasks (title, owner_id, created_by) values (%L, %L, %L)',
              :'beta_schema', 'Beta görev', :'beta_user', :'beta_user') as beta_task \gset
:beta_customer;
:beta_task;

select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin');
select public.bind_session_organization(:'alpha');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_alpha_user');
select public.bind_session_organization(:'alpha');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta_admin');
select public.bind_session_organization(:'beta');
select tests.reset_role();
select tests.authenticate_as(:'beta_user', :'s_beta_user');
select public.bind_session_organization(:'beta');
select tests.reset_role();
select tests.authenticate_as(:'dual_member', :'s_dual');
select public.bind_session_organization(:'alpha');
select tests.reset_role();
\o
select is((select count(*)::int from private.session_organizations), 5, 'the five fixture sessions are bound');

-- ---------------------------------------------------------------------------------
-- Sealed schemas
-- ---------------------------------------------------------------------------------
select ok(not has_schema_privilege('anon', :'alpha_schema', 'usage'), 'anon cannot use alpha''s schema');
select ok(not has_schema_privilege('authenticated', :'alpha_schema', 'usage'), 'authenticated cannot use alpha''s schema');
select ok(not has_schema_privilege('anon', :'beta_schema', 'usage'), 'anon cannot use beta''s schema');
select ok(not has_schema_privilege('authenticated', :'beta_schema', 'usage'), 'authenticated cannot use beta''s schema');
select ok(not has_schema_privilege('authenticated', :'alpha_schema', 'create'), 'authenticated cannot create in alpha''s schema');
select is((select count(*)::int from pg_class c
            where c.relnamespace in (:'alpha_schema'::regnamespace, :'beta_schema'::regnamespace) and c.relkind = 'r'),
  46, 'both tenant schemas have their twenty-three tables');
select is((select array_agg(r.role_name || ' ' || c.relnamespace::regnamespace || '.' || c.relname)
             from pg_class c cross join unnest(array['anon', 'authenticated', 'public']) as r (role_name)
            where c.relnamespace in (:'alpha_schema'::regnamespace, :'beta_schema'::regnamespace)
              and c.relkind in ('r', 'p', 'v', 'm', 'S')
              and case when r.role_name = 'public'
                       then exists (select 1 from aclexplode(c.relacl) a where a.grantee = 0)
                       else has_table_privilege(r.role_name, c.oid, 'select, insert, update, delete, truncate, references, trigger') end),
  null, 'no API role (nor PUBLIC) has any privilege on any tenant table');
select is((select array_agg(c.relname::text) from pg_class c
            where c.relnamespace in (:'alpha_schema'::regnamespace, :'beta_schema'::regnamespace)
              and c.relkind = 'r' and not c.relrowsecurity),
  null, 'row level security is on for every tenant table');
select is_empty('select * from private.tenant_security_findings()', 'the tenant security check finds nothing');

-- Direct access is refused by the database itself.
select format('select count(*) from %I.customers', :'beta_schema') as read_beta \gset
select format('insert into %I.customers (name, owner_id, created_by) values (''x'', %L, %L)',
              :'beta_schema', :'alpha_admin', :'alpha_admin') as write_beta \gset
select tests.act_as_anon();
select throws_ok(:'read_beta', '42501', null, 'anon cannot read a tenant table');
select tests.reset_role();
select tests.authenticate_as(:'beta_user', :'s_beta_user');
select throws_ok(:'read_beta', '42501', null, 'even a member of beta cannot read beta''s table directly');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin');
select throws_ok(:'read_beta', '42501', null, 'a member of alpha cannot read beta''s table');
select throws_ok(:'write_beta', '42501', null, 'a member of alpha cannot write beta''s table');
select tests.reset_role();

-- The check can fail: a grant, RLS off and an unregistered schema are all reported.
select format('grant select on %I.customers to authenticated', :'alpha_schema') as leak \gset
select format('revoke select on %I.customers from authenticated', :'alpha_schema') as unleak \gset
:leak;
select results_eq(
  'select schema_name, object_name, finding from private.tenant_security_findings()',
  format($$values (%L::text, 'customers'::text, 'API role has a privilege on the table'::text)$$, :'alpha_schema'),
  'a grant to authenticated on a tenant table is reported');
:unleak;
select is_empty('select * from private.tenant_security_findings()', 'after the revoke nothing is reported');
select format('alter table %I.notes disable row level security', :'beta_schema') as rls_off \gset
select format('alter table %I.notes enable row level security', :'beta_schema') as rls_on \gset
:rls_off;
select results_eq(
  'select schema_name, object_name, finding from private.tenant_security_findings()',
  format($$values (%L::text, 'notes'::text, 'row level security is off'::text)$$, :'beta_schema'),
  'a tenant table without row level security is reported');
:rls_on;
select format('grant usage on schema %I to anon', :'beta_schema') as open_schema \gset
select format('revoke usage on schema %I from anon', :'beta_schema') as close_schema \gset
:open_schema;
select results_eq(
  'select schema_name, finding from private.tenant_security_findings()',
  format($$values (%L::text, 'API role can use the schema'::text)$$, :'beta_schema'),
  'a schema the API roles can use is reported');
:close_schema;
create schema org_rogue_1;
select results_eq(
  'select schema_name, finding from private.tenant_security_findings()',
  $$values ('org_rogue_1'::text, 'schema is not registered to an organization'::text)$$,
  'an org_ schema without an organization is reported');
drop schema org_rogue_1;
select is_empty('select * from private.tenant_security_findings()', 'everything is sealed again');

-- ---------------------------------------------------------------------------------
-- resolve_table_name_bypass
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.resolve_table_name_bypass(text, text)', 'execute'),
  'anon may not execute resolve_table_name_bypass');
select tests.act_as_anon();
select throws_ok($$select public.resolve_table_name_bypass('alpha', 'customers')$$, '42501', null,
  'anon calling resolve_table_name_bypass is refused by the database');
select tests.reset_role();

select tests.authenticate_as(:'alpha_user', :'s_alpha_user');
select is(public.resolve_table_name_bypass('alpha', 'customers'),
  jsonb_build_object('success', true, 'schema_name', :'alpha_schema', 'table_name', 'customers',
                     'qualified_name', :'alpha_schema' || '.customers'),
  'a member resolves their organization''s customers table');
select is(public.resolve_table_name_bypass('ALPHA', 'quote_items') ->> 'qualified_name', :'alpha_schema' || '.quote_items',
  'the slug is matched without regard to case');
select is(public.resolve_table_name_bypass('beta', 'customers'),
  '{"success": false, "error": "Table resolution failed for requested resource.", "code": "table_not_found"}'::jsonb,
  'the same member naming another organization gets the single failure');
select is(public.resolve_table_name_bypass('nowhere', 'customers') ->> 'error', 'Table resolution failed for requested resource.',
  'an unknown organization gets the same failure');
select is(public.resolve_table_name_bypass('alpha', 'widgets') ->> 'error', 'Table resolution failed for requested resource.',
  'a table the template does not have gets the same failure');
select is(public.resolve_table_name_bypass('alpha', 'Customers') ->> 'error', 'Table resolution failed for requested resource.',
  'an uppercase name gets the same failure');
select is(public.resolve_table_name_bypass('alpha', 'customers; drop table x') ->> 'error', 'Table resolution failed for requested resource.',
  'statement text in the name gets the same failure');
select is(public.resolve_table_name_bypass('alpha', 'pg_authid') ->> 'error', 'Table resolution failed for requested resource.',
  'a system catalog gets the same failure');
select is(public.resolve_table_name_bypass('alpha', '../customers') ->> 'error', 'Table resolution failed for requested resource.',
  'a path-like name gets the same failure');
select is(public.resolve_table_name_bypass('alpha', repeat('c', 51)) ->> 'error', 'Table resolution failed for requested resource.',
  'a 51-character name gets the same failure');
select is(public.resolve_table_name_bypass('alpha', 'tenant_migrations') ->> 'error', 'Table resolution failed for requested resource.',
  'a control table name gets the same failure');
select is(public.resolve_table_name_bypass('alpha', null) ->> 'error', 'Table resolution failed for requested resource.',
  'a null name gets the same failure');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin');
select is(public.resolve_table_name_bypass('alpha', 'deals') ->> 'success', 'true', 'an admin resolves their organization''s table');
select is(public.resolve_table_name_bypass('beta', 'deals') ->> 'error', 'Table resolution failed for requested resource.',
  'an admin naming another organization gets the failure');
select tests.reset_role();
select tests.authenticate_as(:'beta_user', :'s_beta_user');
select is(public.resolve_table_name_bypass('alpha', 'customers') ->> 'error', 'Table resolution failed for requested resource.',
  'a member of beta cannot resolve alpha''s table');
select tests.reset_role();
select tests.authenticate_as(:'dual_member', :'s_dual');
select is(public.resolve_table_name_bypass('alpha', 'customers') ->> 'success', 'true',
  'a member of both organizations resolves the one their session is bound to');
select is(public.resolve_table_name_bypass('beta', 'customers') ->> 'error', 'Table resolution failed for requested resource.',
  'but not the other one they also belong to');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_unbound');
select is(public.resolve_table_name_bypass('alpha', 'customers') ->> 'error', 'Table resolution failed for requested resource.',
  'a member whose session is not bound gets the failure');
select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select is(public.resolve_table_name_bypass('alpha', 'customers') ->> 'schema_name', :'alpha_schema',
  'a super admin resolves alpha''s table');
select is(public.resolve_table_name_bypass('beta', 'documents') ->> 'qualified_name', :'beta_schema' || '.documents',
  'a super admin resolves beta''s table');
select is(public.resolve_table_name_bypass('beta', 'pg_class') ->> 'error', 'Table resolution failed for requested resource.',
  'a super admin cannot resolve a catalog either');
select tests.reset_role();

-- A deactivated organization resolves for nobody.
update private.organizations set is_active = false where id = :'beta';
select tests.authenticate_as(:'beta_user', :'s_beta_user');
select is(public.resolve_table_name_bypass('beta', 'customers') ->> 'error', 'Table resolution failed for requested resource.',
  'a member of a deactivated organization gets the failure');
select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select is(public.resolve_table_name_bypass('beta', 'customers') ->> 'error', 'Table resolution failed for requested resource.',
  'a super admin gets the failure for a deactivated organization');
select tests.reset_role();
update private.organizations set is_active = true where id = :'beta';

-- ---------------------------------------------------------------------------------
-- From alpha into beta through the other RPCs
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'beta_admin', :'s_beta_admin');
select is(public.analyze_user_records(:'beta_user', 'beta') -> 'counts' -> 'customers', '1'::jsonb,
  'beta''s admin sees the customer beta''s member owns');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin');
select is(public.analyze_user_records(:'beta_user', 'beta'),
  '{"success": false, "error": "Organization context required", "code": "organization_context_required"}'::jsonb,
  'alpha''s admin cannot analyse a beta member by naming beta');
select is(public.analyze_user_records(:'beta_user') ->> 'error', 'User not found',
  'nor through their own organization');
select is(public.get_users_for_transfer('beta') ->> 'success', 'false', 'alpha''s admin cannot list beta''s members');
select unalike(public.get_users_for_transfer()::text, '%beta.test%', 'alpha''s member list holds nobody from beta');
select is(public.transfer_user_records(:'beta_user', :'beta_admin', 'beta') ->> 'success', 'false',
  'alpha''s admin cannot move beta''s records');
select is(public.create_organization_tables('beta') ->> 'error', 'Admin privileges required',
  'alpha''s admin cannot provision beta');
select is(public.get_user_info_by_email('user@beta.test') ->> 'error', 'User not found',
  'alpha''s admin cannot read a beta member''s account');
select is(public.update_user_secure(:'beta_user', '{"first_name": "Ele geçirildi"}', 'beta') ->> 'success', 'false',
  'alpha''s admin cannot update a beta member');
select is(public.lock_user_secure(:'beta_user') ->> 'success', 'false', 'alpha''s admin cannot lock a beta member');
select is(public.delete_user_secure(:'beta_user', :'beta') ->> 'success', 'false', 'alpha''s admin cannot delete a beta member');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin_2');
select is(public.bind_session_organization(:'beta') ->> 'error', 'Organization context required',
  'alpha''s admin cannot bind a session to beta');
select tests.reset_role();

select is((select first_name || ' ' || is_active::text || ' ' || coalesce(locked_until::text, 'unlocked')
             from private.profiles where id = :'beta_user'), 'Berk true unlocked',
  'the beta member is untouched');
select is((select organization_id from private.session_organizations where session_id = :'s_alpha_admin_2'), null,
  'no binding to beta was made');
select format('select owner_id from %I.customers', :'beta_schema') as beta_owners \gset
select set_eq(:'beta_owners', array[:'beta_user'::uuid], 'beta''s customer still belongs to beta''s member');

-- ---------------------------------------------------------------------------------
-- Injection attempts leave everything intact
-- ---------------------------------------------------------------------------------
select count(*) as profiles_before from private.profiles \gset
select count(*) as organizations_before from private.organizations \gset
select count(*) as tenant_tables_before from pg_class where relnamespace in (:'alpha_schema'::regnamespace, :'beta_schema'::regnamespace) \gset

select tests.authenticate_as(:'sa', :'s_sa');
select is(public.create_organization('x''); drop table private.profiles; --', 'X') ->> 'code', 'invalid_slug',
  'a slug carrying SQL is refused');
select is(public.create_organization('x"; drop schema private cascade; --', 'X') ->> 'code', 'invalid_slug',
  'a slug carrying a quoted identifier is refused');
select is(public.create_organization_tables('alpha''; drop table private.profiles; --') ->> 'success', 'false',
  'a slug carrying SQL finds no organization to provision');
select is(public.resolve_table_name_bypass('alpha', 'customers"; drop table private.profiles; --') ->> 'error',
  'Table resolution failed for requested resource.', 'a table name carrying SQL resolves nothing');
select is(public.resolve_table_name_bypass('alpha'' or ''1''=''1', 'customers') ->> 'error',
  'Table resolution failed for requested resource.', 'a slug carrying SQL resolves nothing');
select is(public.analyze_user_records(:'beta_user', 'beta'' or ''1''=''1') ->> 'success', 'false',
  'a slug carrying SQL reaches no organization');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin');
select is(public.create_user_secure('robert@alpha.test', 'Test.1234', :'alpha',
                                    'Robert''); drop table private.profiles; --', 'Tables"; --', 'user') ->> 'success',
  'true', 'a user with SQL text in the names is created');
select tests.reset_role();

select isnt(to_regclass('private.profiles'), null, 'private.profiles still exists');
select is((select count(*)::int from private.profiles), :profiles_before + 1, 'exactly one profile was added');
select is((select count(*) from private.organizations), :'organizations_before'::bigint, 'no organization was added');
select is((select count(*) from pg_class where relnamespace in (:'alpha_schema'::regnamespace, :'beta_schema'::regnamespace)),
  :'tenant_tables_before'::bigint, 'the tenant schemas are unchanged');
select is((select first_name || '|' || last_name from private.profiles where email = 'robert@alpha.test'),
  'Robert''); drop table private.profiles; --|Tables"; --', 'the names are stored literally');

select * from finish();
rollback;
