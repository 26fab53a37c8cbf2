-- Sessions and the login log (spec sections 2, 4, 7; DESIGN.md D5): the organization
-- bound to an Auth session, the caller's context and organizations, when the binding
-- stops counting, and get_login_attempts.
begin;
select plan(95);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- ---------------------------------------------------------------------------------
-- Fixtures
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_organization('gamma', 'Gamma Co') as gamma \gset
select tests.create_organization('closed', 'Closed Co') as closed \gset
update private.organizations set is_active = false where id = :'closed';
select table_prefix_timestamp as alpha_prefix from private.organizations where id = :'alpha' \gset
select table_prefix_timestamp as beta_prefix from private.organizations where id = :'beta' \gset

select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as a_admin \gset
select tests.create_user('multi@alpha.test', 'user', 'Mert', 'Çok') as multi \gset
select tests.create_user('only@alpha.test', 'user', 'Oya', 'Tek') as a_only \gset
select tests.create_user('gone@alpha.test', 'user', 'Gül', 'Yok') as gone \gset
select tests.create_user('admin@beta.test', 'admin', 'Berk', 'Bey') as b_admin \gset
select tests.create_user('user@beta.test', 'user', 'Banu', 'Su') as b_user \gset
select tests.create_user('root@crm.test', 'super_admin', 'Sezen', 'Kök') as super \gset
select tests.add_member(:'a_admin', :'alpha', 'admin');
select tests.add_member(:'multi', :'alpha', 'user');
select tests.add_member(:'multi', :'beta', 'sales');
select tests.add_member(:'a_only', :'alpha', 'user');
select tests.add_member(:'gone', :'alpha', 'user');
select tests.add_member(:'b_admin', :'beta', 'admin');
select tests.add_member(:'b_user', :'beta', 'user');
-- multi joined Beta first: Beta is their first available organization.
update private.memberships set created_at = now() - interval '1 day' where user_id = :'multi' and organization_id = :'beta';
update private.memberships set is_active = false where user_id = :'gone';

select '{"success": false, "error": "Authentication required", "code": "authentication_required"}' as auth_required \gset
select '{"success": false, "error": "Organization context required", "code": "organization_not_available"}' as no_context \gset
select '{"success": false, "error": "Changing organization is disabled for security. Please log in with the correct organization.", "code": "organization_switch_disabled"}' as switch_disabled \gset
select '{"success": false, "error": "Admin privileges required", "code": "admin_required"}' as admin_required \gset
select '{"success": false, "error": "User not found", "code": "user_not_found"}' as not_found \gset

select gen_random_uuid() as s1 \gset
select gen_random_uuid() as s2 \gset
select gen_random_uuid() as s3 \gset
select gen_random_uuid() as s_admin \gset
select gen_random_uuid() as s_badmin \gset
select gen_random_uuid() as s_buser \gset
select gen_random_uuid() as s_super \gset
select gen_random_uuid() as s_super2 \gset
select gen_random_uuid() as s_only \gset

-- ---------------------------------------------------------------------------------
-- Privileges
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.bind_session_organization(uuid)', 'execute'), 'anon may not bind a session');
select ok(has_function_privilege('authenticated', 'public.bind_session_organization(uuid)', 'execute'), 'authenticated may bind its session');
select ok(not has_function_privilege('anon', 'public.get_my_organizations()', 'execute'), 'anon may not call get_my_organizations');
select ok(not has_function_privilege('anon', 'public.get_login_attempts(uuid, integer)', 'execute'), 'anon may not call get_login_attempts');
select ok(not has_table_privilege('authenticated', 'private.session_organizations', 'select'), 'authenticated cannot read session bindings');
select tests.act_as_anon();
select throws_ok('select public.bind_session_organization(null)', '42501', null, 'anon is refused bind_session_organization');
select throws_ok('select public.get_current_user_context()', '42501', null, 'anon is refused get_current_user_context');
select throws_ok('select public.get_my_organizations()', '42501', null, 'anon is refused get_my_organizations');
select throws_ok('select public.get_login_attempts()', '42501', null, 'anon is refused get_login_attempts');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Before binding: no organization
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'multi', :'s1');
select is(public.get_current_user_context() -> 'organization', 'null'::jsonb, 'an unbound session has no organization');
select is(public.get_current_user_context() -> 'user' ->> 'email', 'multi@alpha.test', 'the context names the user');
select is((select array_agg(array[e ->> 'slug', e ->> 'role'] order by ord)
             from jsonb_array_elements(public.get_current_user_context() -> 'organizations') with ordinality as t (e, ord)),
  array[array['beta', 'sales'], array['alpha', 'user']], 'the organizations on offer, first available first, with the member''s roles');
select is(public.get_my_organizations() -> 'current_organization_id', 'null'::jsonb, 'get_my_organizations: no current organization yet');
select is((select array_agg((e ->> 'is_current') order by ord)
             from jsonb_array_elements(public.get_my_organizations() -> 'organizations') with ordinality as t (e, ord)),
  array['false', 'false'], 'get_my_organizations: nothing is current before binding');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- bind_session_organization
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'multi', :'s1');
select is(public.bind_session_organization(null),
  jsonb_build_object('success', true, 'organization',
    jsonb_build_object('id', :'beta'::uuid, 'slug', 'beta', 'name', 'Beta Ltd.', 'role', 'sales')),
  'binding without an organization takes the first available one');
select is(public.bind_session_organization(null) ->> 'success', 'true', 'binding again without an organization is harmless');
select is(public.bind_session_organization(:'beta') -> 'organization' ->> 'id', :'beta', 'binding the same organization again is harmless');
select is(public.bind_session_organization(:'alpha'), :'switch_disabled'::jsonb,
  'binding another of the user''s organizations is refused: changing is disabled');
select is(public.bind_session_organization(:'gamma'), :'no_context'::jsonb,
  'an organization the user is not in: Organization context required');
select is(public.get_current_user_context() -> 'organization',
  jsonb_build_object('id', :'beta'::uuid, 'slug', 'beta', 'name', 'Beta Ltd.', 'table_prefix_timestamp', :'beta_prefix'::bigint),
  'the context now shows the bound organization (unchanged by the refused switch)');
select is(public.get_my_organizations() ->> 'current_organization_id', :'beta', 'get_my_organizations: beta is current');
select is((select array_agg(array[e ->> 'slug', e ->> 'is_current'] order by ord)
             from jsonb_array_elements(public.get_my_organizations() -> 'organizations') with ordinality as t (e, ord)),
  array[array['beta', 'true'], array['alpha', 'false']], 'get_my_organizations: is_current flags');
select tests.reset_role();
select is((select array[user_id::text, organization_id::text] from private.session_organizations where session_id = :'s1'),
  array[:'multi', :'beta'], 'one binding row: this session, this user, beta');

-- The binding belongs to the session: another session of the same user chooses anew.
select tests.authenticate_as(:'multi', :'s2');
select is(public.bind_session_organization(:'gamma'), :'no_context'::jsonb, 'a fresh session naming an organization the user is not in is refused');
select is(public.bind_session_organization(:'closed'), :'no_context'::jsonb, 'a deactivated organization is refused');
select is(public.bind_session_organization(:'alpha') -> 'organization' ->> 'slug', 'alpha', 'the fresh session may then choose alpha');
select is(public.get_current_user_context() -> 'organization' ->> 'id', :'alpha', 'this session works in alpha');
select tests.reset_role();
select tests.authenticate_as(:'multi', :'s1');
select is(public.get_current_user_context() -> 'organization' ->> 'id', :'beta', 'the first session still works in beta');
select tests.reset_role();

-- A member of another organization.
select tests.authenticate_as(:'b_user', :'s_buser');
select is(public.bind_session_organization(:'alpha'), :'no_context'::jsonb, 'a member of beta cannot bind alpha');
select is(public.bind_session_organization(null) -> 'organization' ->> 'id', :'beta', 'a member of beta binds beta');
select ok(public.get_current_user_context()::text not like '%alpha%', 'nothing of alpha is in beta''s member''s context');
select tests.reset_role();

-- A deactivated membership is not available.
select tests.authenticate_as(:'gone');
select is(public.bind_session_organization(:'alpha'), :'no_context'::jsonb, 'a deactivated membership cannot be bound');
select is(public.bind_session_organization(null), :'no_context'::jsonb, 'nor is it offered as the first available');
select tests.reset_role();

-- Sessions that are not the caller's, or do not exist.
select tests.set_request_identity('authenticated', :'multi',
  json_build_object('sub', :'multi', 'role', 'authenticated', 'session_id', gen_random_uuid())::text);
select is(public.bind_session_organization(null), :'auth_required'::jsonb, 'a session id not in auth.sessions: Authentication required');
select tests.set_request_identity('authenticated', :'multi', json_build_object('sub', :'multi', 'role', 'authenticated')::text);
select is(public.bind_session_organization(null), :'auth_required'::jsonb, 'no session id: Authentication required');
select tests.set_request_identity('authenticated', :'a_only',
  json_build_object('sub', :'a_only', 'role', 'authenticated', 'session_id', :'s1')::text);
select is(public.bind_session_organization(null), :'auth_required'::jsonb, 'another user''s session id: Authentication required');
select is(public.get_current_user_context() -> 'organization', 'null'::jsonb, 'another user''s bound session gives no organization');
select tests.reset_role();
select is((select count(*)::int from private.session_organizations where user_id in (:'a_only', :'gone')), 0,
  'refused bindings leave no row');

-- A super admin binds any active organization, audited.
select tests.authenticate_as(:'super', :'s_super');
select is(public.bind_session_organization(:'gamma'),
  jsonb_build_object('success', true, 'organization',
    jsonb_build_object('id', :'gamma'::uuid, 'slug', 'gamma', 'name', 'Gamma Co', 'role', 'admin')),
  'a super admin binds an organization they are not a member of, as admin');
select is(public.bind_session_organization(:'alpha'), :'switch_disabled'::jsonb, 'a super admin cannot switch either');
select is(public.get_current_user_context() -> 'organization' ->> 'slug', 'gamma', 'the super admin works in gamma');
select tests.reset_role();
select is((select array_agg(array[organization_id::text, actor_id::text, target_type, target_id] order by id)
             from private.audit_log where action = 'session.super_admin_entered'),
  array[array[:'gamma', :'super', 'user', :'super']], 'the entry is audited once: session.super_admin_entered in gamma');
select tests.authenticate_as(:'super', :'s_super2');
select is(public.bind_session_organization(:'closed'), :'no_context'::jsonb, 'not even a super admin binds a deactivated organization');
select is(public.bind_session_organization(null) -> 'organization' ->> 'slug', 'alpha',
  'a super admin without memberships binding without an organization gets the first active one');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where action = 'session.super_admin_entered' and organization_id = :'alpha'), 1,
  'that entry is audited too');
select tests.authenticate_as(:'super', :'s_super');
select is((select array_agg(array[e ->> 'slug', e ->> 'role', e ->> 'is_current'] order by e ->> 'slug')
             from jsonb_array_elements(public.get_my_organizations() -> 'organizations') e),
  array[array['alpha', 'admin', 'false'], array['beta', 'admin', 'false'], array['gamma', 'admin', 'true']],
  'a super admin without memberships is offered every active organization, gamma current');
select tests.reset_role();

-- Members binding their own organization are not audited as super admin entries.
select is((select count(*)::int from private.audit_log where action = 'session.super_admin_entered' and actor_id <> :'super'), 0,
  'members binding their own organization write no super admin entry');

-- ---------------------------------------------------------------------------------
-- When the binding stops counting
-- ---------------------------------------------------------------------------------
-- private.current_organization_id() as the caller sees it: the caller's claims, the
-- test runner's role (the API roles cannot call private functions).
select tests.set_request_identity('none', :'multi', json_build_object('sub', :'multi', 'role', 'authenticated', 'session_id', :'s1')::text);
select is(private.current_organization_id(), :'beta'::uuid, 'current_organization_id is the bound organization');
select tests.reset_role();

update private.organizations set is_active = false where id = :'beta';
select tests.set_request_identity('none', :'multi', json_build_object('sub', :'multi', 'role', 'authenticated', 'session_id', :'s1')::text);
select is(private.current_organization_id(), null, 'the organization deactivated: no current organization');
select tests.reset_role();
select tests.authenticate_as(:'multi', :'s1');
select is(public.get_current_user_context() -> 'organization', 'null'::jsonb, 'and the context shows none');
select tests.reset_role();
update private.organizations set is_active = true where id = :'beta';

update private.memberships set is_active = false where user_id = :'multi' and organization_id = :'beta';
select tests.set_request_identity('none', :'multi', json_build_object('sub', :'multi', 'role', 'authenticated', 'session_id', :'s1')::text);
select is(private.current_organization_id(), null, 'the membership deactivated: no current organization');
select tests.reset_role();
select tests.authenticate_as(:'multi', :'s1');
select is(public.get_my_organizations() -> 'current_organization_id', 'null'::jsonb, 'and get_my_organizations shows none');
select tests.reset_role();
update private.memberships set is_active = true where user_id = :'multi' and organization_id = :'beta';
select tests.set_request_identity('none', :'multi', json_build_object('sub', :'multi', 'role', 'authenticated', 'session_id', :'s1')::text);
select is(private.current_organization_id(), :'beta'::uuid, 'reactivated: the binding counts again');
select tests.reset_role();

-- A super admin who is demoted loses the organization they entered.
update private.profiles set role = 'admin' where id = :'super';
select tests.set_request_identity('none', :'super', json_build_object('sub', :'super', 'role', 'authenticated', 'session_id', :'s_super')::text);
select is(private.current_organization_id(), null, 'a demoted super admin no longer works in gamma');
select tests.reset_role();
update private.profiles set role = 'super_admin' where id = :'super';
select tests.set_request_identity('none', :'super', json_build_object('sub', :'super', 'role', 'authenticated', 'session_id', :'s_super')::text);
select is(private.current_organization_id(), :'gamma'::uuid, 'a super admin''s binding counts while they are super admin');
select tests.reset_role();

-- An admin lock that keeps the session (set directly) already voids the binding.
update private.profiles set locked_by_admin = true, locked_until = now() + interval '365 days' where id = :'b_user';
select tests.set_request_identity('none', :'b_user', json_build_object('sub', :'b_user', 'role', 'authenticated', 'session_id', :'s_buser')::text);
select is(private.current_organization_id(), null, 'an admin-locked user has no current organization');
select tests.reset_role();
select tests.authenticate_as(:'b_user', :'s_buser');
select is(public.get_current_user_context(), :'not_found'::jsonb, 'an admin-locked user''s context: User not found');
select tests.reset_role();
select tests.authenticate_as(:'b_user');
select is(public.bind_session_organization(null),
  '{"success": false, "error": "Account is locked by administrator", "code": "admin_locked"}'::jsonb,
  'an admin-locked user cannot bind a new session');
select tests.reset_role();

-- A temporary lock: a locked account's session can do nothing while the lock holds
-- (issue 10), and a new one cannot start.
update private.profiles set locked_by_admin = false, locked_until = now() + interval '30 minutes' where id = :'b_user';
select tests.set_request_identity('none', :'b_user', json_build_object('sub', :'b_user', 'role', 'authenticated', 'session_id', :'s_buser')::text);
select is(private.current_organization_id(), null, 'a temporary lock voids the working session''s binding');
select tests.reset_role();
select tests.authenticate_as(:'b_user');
select is(public.bind_session_organization(null) ->> 'code', 'account_locked',
  'a new session cannot start during a temporary lock (a direct Auth sign-in gains nothing)');
select tests.reset_role();
update private.profiles set is_active = false, locked_by_admin = false, locked_until = null where id = :'b_user';
select tests.authenticate_as(:'b_user');
select is(public.bind_session_organization(null), :'not_found'::jsonb, 'an inactive user cannot bind a session');
select tests.reset_role();
update private.profiles set is_active = true where id = :'b_user';

-- ---------------------------------------------------------------------------------
-- get_login_attempts
-- ---------------------------------------------------------------------------------
-- 130 attempts of only@alpha.test, one a minute, the newest a minute ago; a few of others.
insert into private.login_attempts (email, user_id, success, failure_reason, created_at)
select 'only@alpha.test', :'a_only', g % 5 = 0, case when g % 5 <> 0 then 'invalid_credentials' end, now() - g * interval '1 minute'
  from generate_series(1, 130) g;
insert into private.login_attempts (email, user_id, success, failure_reason, created_at)
select 'user@beta.test', :'b_user', true, null, now() - g * interval '1 second' from generate_series(1, 3) g;
insert into private.login_attempts (email, user_id, success, failure_reason, created_at)
values ('multi@alpha.test', :'multi', true, null, now());

select tests.authenticate_as(:'a_only', :'s_only');
select public.get_login_attempts() as own \gset
select is((:'own'::jsonb) ->> 'success', 'true', 'a user reads their own attempts');
select is(jsonb_array_length((:'own'::jsonb) -> 'attempts'), 20, 'by default the 20 newest');
select is((select array_agg((e ->> 'created_at')::timestamptz order by ord)
             from jsonb_array_elements((:'own'::jsonb) -> 'attempts') with ordinality as t (e, ord)),
  (select array_agg(now() - g * interval '1 minute' order by g) from generate_series(1, 20) g),
  'newest first: one minute ago, two minutes ago, ... twenty minutes ago');
select is((:'own'::jsonb) -> 'attempts' -> 0,
  jsonb_build_object('email', 'only@alpha.test', 'success', false, 'failure_reason', 'invalid_credentials', 'source', 'login',
                     'client_address', null, 'created_at', now() - interval '1 minute'),
  'each attempt: email, success, failure_reason, source, client address, created_at');
select ok((:'own'::jsonb)::text not like '%beta.test%' and (:'own'::jsonb)::text not like '%multi@%', 'only the caller''s own attempts');
select is(jsonb_array_length(public.get_login_attempts(:'a_only', 5) -> 'attempts'), 5, 'p_limit 5 gives 5');
select is(jsonb_array_length(public.get_login_attempts(null, 500) -> 'attempts'), 100, 'p_limit 500 is clamped to 100');
select is(jsonb_array_length(public.get_login_attempts(null, 130) -> 'attempts'), 100, 'p_limit 130 is clamped to 100');
select is(jsonb_array_length(public.get_login_attempts(null, 0) -> 'attempts'), 1, 'p_limit 0 is raised to 1');
select is(jsonb_array_length(public.get_login_attempts(null, -7) -> 'attempts'), 1, 'a negative p_limit is raised to 1');
select is(jsonb_array_length(public.get_login_attempts(null, null) -> 'attempts'), 20, 'a null p_limit means 20');
select is(public.get_login_attempts(null, 0) -> 'attempts' -> 0 ->> 'created_at',
  (public.get_login_attempts() -> 'attempts' -> 0 ->> 'created_at'), 'the single attempt is the newest');
select is(public.get_login_attempts(:'b_user'), :'admin_required'::jsonb, 'a plain user cannot read a colleague''s attempts');
select is(public.get_login_attempts(:'a_admin'), :'admin_required'::jsonb, 'nor the admin''s attempts');
select is(public.get_login_attempts(gen_random_uuid()), :'admin_required'::jsonb, 'nor an unknown user''s');
select tests.reset_role();

-- A plain user with nothing logged gets an empty list.
select tests.authenticate_as(:'gone');
select is(public.get_login_attempts(), '{"success": true, "attempts": []}'::jsonb, 'no attempts: an empty list');
select tests.reset_role();

-- The admin of the bound organization reads a member's attempts; not another organization's.
select tests.authenticate_as(:'a_admin', :'s_admin');
select is(public.get_login_attempts(:'a_only'), :'admin_required'::jsonb, 'an admin whose session is not bound is refused');
select is(public.bind_session_organization(:'alpha') ->> 'success', 'true', 'the admin binds alpha');
select is(jsonb_array_length(public.get_login_attempts(:'a_only') -> 'attempts'), 20, 'the admin of alpha reads a member''s 20 newest attempts');
select is(jsonb_array_length(public.get_login_attempts(:'a_only', 1000) -> 'attempts'), 100, 'an admin''s limit is clamped to 100 too');
select is(public.get_login_attempts(:'b_user'), :'admin_required'::jsonb,
  'the admin of alpha cannot read a beta member''s attempts: Admin privileges required');
select tests.reset_role();

select tests.authenticate_as(:'b_admin', :'s_badmin');
select is(public.bind_session_organization(null) -> 'organization' ->> 'slug', 'beta', 'the admin of beta binds beta');
select is(public.get_login_attempts(:'a_only'), :'admin_required'::jsonb,
  'the admin of another organization: Admin privileges required');
select is(jsonb_array_length(public.get_login_attempts(:'b_user') -> 'attempts'), 3, 'the admin of beta reads a beta member''s attempts');
select tests.reset_role();

select tests.authenticate_as(:'super', :'s_super');
select is(jsonb_array_length(public.get_login_attempts(:'b_user') -> 'attempts'), 3, 'a super admin reads anyone''s attempts');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- An administrator's lock ends the user's sessions, and with them the binding
-- ---------------------------------------------------------------------------------
-- multi@alpha.test also belongs to beta: locking the account is a super admin's (issue 10).
select tests.authenticate_as(:'a_admin', :'s_admin');
select is(public.lock_user_secure(:'multi') ->> 'code', 'shared_account', 'the admin of alpha may not lock a member beta shares');
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_super');
select is(public.lock_user_secure(:'multi') ->> 'success', 'true', 'a super admin locks multi@alpha.test');
select tests.reset_role();
select is((select count(*)::int from auth.sessions where user_id = :'multi'), 0, 'the locked user''s Auth sessions are deleted');
select is((select count(*)::int from private.session_organizations where user_id = :'multi'), 0, 'and their bindings with them');
select is((select count(*)::int from auth.sessions where user_id = :'a_admin'), 1, 'the admin''s own session is kept');
select tests.set_request_identity('none', :'multi', json_build_object('sub', :'multi', 'role', 'authenticated', 'session_id', :'s1')::text);
select is(private.current_organization_id(), null, 'the locked user''s old token has no current organization');
select tests.reset_role();
select tests.set_request_identity('authenticated', :'multi', json_build_object('sub', :'multi', 'role', 'authenticated', 'session_id', :'s1')::text);
select is(public.bind_session_organization(null), :'auth_required'::jsonb, 'the old token cannot bind again: Authentication required');
select tests.reset_role();
select tests.authenticate_as(:'multi', :'s3');
select is(public.bind_session_organization(null) ->> 'code', 'admin_locked', 'a new session of the admin-locked user is refused');
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_admin');
select is(public.get_current_user_context() -> 'organization' ->> 'slug', 'alpha', 'the admin still works in alpha');
select tests.reset_role();

select * from finish();
rollback;
