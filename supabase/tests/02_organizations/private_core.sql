-- Control schema: not reachable by the API roles; RLS on; the context RPC per caller.
begin;
select plan(18);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_user('admin@alpha.test', 'admin', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('user@beta.test', 'user', 'Bora', 'Tan') as beta_user \gset
select tests.create_user('loner@none.test') as loner \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'beta_user', :'beta', 'user');

-- The schema and its tables are closed to the API roles.
select ok(not has_schema_privilege('anon', 'private', 'usage'), 'anon cannot use schema private');
select ok(not has_schema_privilege('authenticated', 'private', 'usage'), 'authenticated cannot use schema private');
select ok(not has_table_privilege('authenticated', 'private.profiles', 'select'), 'authenticated cannot read profiles');
select ok(not has_table_privilege('anon', 'private.memberships', 'select'), 'anon cannot read memberships');
select is(
  (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'private' and c.relkind = 'r' and not c.relrowsecurity),
  0, 'every private table has row level security on');

-- The RPC is a hardened security definer function.
select is((select prosecdef from pg_proc where oid = 'public.get_current_user_context()'::regprocedure),
  true, 'get_current_user_context is security definer');
select is((select proconfig from pg_proc where oid = 'public.get_current_user_context()'::regprocedure),
  array['search_path=""'], 'get_current_user_context has an empty search_path');
select ok(not has_function_privilege('anon', 'public.get_current_user_context()', 'execute'),
  'anon cannot execute get_current_user_context');

-- Denied: an anonymous caller.
select tests.act_as_anon();
select throws_ok('select public.get_current_user_context()', '42501', null,
  'anon is refused by the database');
select tests.reset_role();

-- Allowed: each member sees themselves and only their own organizations.
select gen_random_uuid() as alpha_session \gset
select tests.authenticate_as(:'alpha_admin', :'alpha_session');
select is(public.get_current_user_context() -> 'user' ->> 'email', 'admin@alpha.test', 'admin sees own profile');
select ok(public.get_current_user_context() -> 'organization' = 'null'::jsonb, 'no organization until the session is bound');
select public.bind_session_organization();
select is(public.get_current_user_context() -> 'organization' ->> 'slug', 'alpha', 'admin works in alpha once bound');
select is(jsonb_array_length(public.get_current_user_context() -> 'organizations'), 1, 'admin sees one organization');
select tests.reset_role();

select tests.authenticate_as(:'beta_user');
select public.bind_session_organization();
select is(public.get_current_user_context() -> 'organization' ->> 'name', 'Beta Ltd.',
  'a member of another organization sees only beta');
select ok(public.get_current_user_context()::text not like '%alpha%', 'nothing of alpha leaks to beta');
select tests.reset_role();

-- A user without any organization gets no organization rather than someone else's.
select tests.authenticate_as(:'loner');
select ok(public.get_current_user_context() -> 'organization' = 'null'::jsonb, 'no membership, no organization');
select tests.reset_role();

-- A deactivated organization is no longer available.
update private.organizations set is_active = false where id = :'beta';
select tests.authenticate_as(:'beta_user');
select is(jsonb_array_length(public.get_current_user_context() -> 'organizations'), 0,
  'an inactive organization is not offered');
select tests.reset_role();

-- An authenticated token whose user has no profile is answered, not crashed on.
select tests.authenticate_as(gen_random_uuid());
select is(public.get_current_user_context() ->> 'error', 'User not found', 'unknown user gets User not found');
select tests.reset_role();

select * from finish();
rollback;
