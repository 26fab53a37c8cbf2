-- Admin console (spec sections 2, 6): get_organization_users, get_audit_log,
-- list_organizations and update_organization. Every RPC is tried by anon, a plain
-- member, an admin of the organization (bound session), an admin of another
-- organization, an admin whose session is bound to nothing and a super admin. RPC
-- answers are captured with \gset while acting, then checked as the test runner.
begin;
select plan(170);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- Small readers for the answers (rolled back with the rest).
/** The users of a get_organization_users answer, in order, as the local parts of their emails. */
create function tests.user_list(p_answer jsonb)
returns text language sql immutable as $$
  select coalesce(string_agg(split_part(u ->> 'email', '@', 1), ',' order by i), '')
    from jsonb_array_elements(case when jsonb_typeof(p_answer -> 'users') = 'array' then p_answer -> 'users' else '[]' end)
         with ordinality as t (u, i);
$$;
/** The users of an answer, in order, as full emails. */
create function tests.user_emails(p_answer jsonb)
returns text language sql immutable as $$
  select coalesce(string_agg(u ->> 'email', ',' order by i), '')
    from jsonb_array_elements(case when jsonb_typeof(p_answer -> 'users') = 'array' then p_answer -> 'users' else '[]' end)
         with ordinality as t (u, i);
$$;
/** One user row of an answer: organization_role|membership_active|locked. */
create function tests.user_flags(p_answer jsonb, p_email text)
returns text language sql immutable as $$
  select (u ->> 'organization_role') || '|' || (u ->> 'membership_active') || '|' || (u ->> 'locked')
    from jsonb_array_elements(p_answer -> 'users') as t (u)
   where u ->> 'email' = p_email;
$$;
/** The entries of a get_audit_log answer, in order: action by actor's email local part. */
create function tests.audit_list(p_answer jsonb)
returns text language sql immutable as $$
  select coalesce(string_agg((e ->> 'action') || '/' || coalesce(split_part(e -> 'actor' ->> 'email', '@', 1), '-'), ',' order by i), '')
    from jsonb_array_elements(case when jsonb_typeof(p_answer -> 'entries') = 'array' then p_answer -> 'entries' else '[]' end)
         with ordinality as t (e, i);
$$;
/** The entry ids of a get_audit_log answer, in order. */
create function tests.audit_ids(p_answer jsonb)
returns bigint[] language sql immutable as $$
  select coalesce(array_agg((e ->> 'id')::bigint order by i), '{}')
    from jsonb_array_elements(case when jsonb_typeof(p_answer -> 'entries') = 'array' then p_answer -> 'entries' else '[]' end)
         with ordinality as t (e, i);
$$;
/** error/code of a failure answer. */
create function tests.failure_of(p_answer jsonb)
returns text language sql immutable as $$
  select (p_answer ->> 'success') || '|' || (p_answer ->> 'error') || '|' || (p_answer ->> 'code');
$$;
/** The columns update_organization may change, plus updated_at: to see that nothing changed. */
create function tests.organization_state(p_organization uuid)
returns text language sql stable as $$
  select row(o.name, o.subscription_plan, o.subscription_status, o.is_active, o.updated_at)::text
    from private.organizations o where o.id = p_organization;
$$;

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_organization('gamma', 'Gamma Toplu A.Ş.') as gamma \gset
select tests.create_organization('delta', 'Delta Ltd.') as delta \gset
select tests.create_organization('epsilon', 'Epsilon Kapalı') as epsilon \gset
update private.organizations set is_active = false where id = :'epsilon';
select private.migrate_tenant(:'alpha') as alpha_version \gset

select tests.create_user('root@crm.test', 'super_admin', 'Sema', 'Kök') as super \gset
-- Alpha: eleven members with names, roles, statuses and times chosen for the sorts.
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as a_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as a_user \gset
select tests.create_user('sales_rep@alpha.test', 'user', 'Gülşen', 'Işık') as a_sales \gset
select tests.create_user('manager@alpha.test', 'user', 'Zeynep', 'Öztürk') as a_manager \gset
select tests.create_user('cem@alpha.test', 'user', 'Cem', 'Bora') as a_cem \gset
select tests.create_user('derya@alpha.test', 'user', 'Derya', 'Ece') as a_derya \gset
select tests.create_user('emre@alpha.test', 'user', 'Emre', 'Fidan') as a_emre \gset
select tests.create_user('filiz@alpha.test', 'user', 'Filiz', 'Gök') as a_filiz \gset
select tests.create_user('hakan@alpha.test', 'user', 'Hakan', 'Uzun') as a_hakan \gset
select tests.create_user('percent@alpha.test', 'user', 'Yüzde', '100%') as a_percent \gset
select tests.create_user('dual@alpha.test', 'user', 'Deniz', 'İnce') as dual \gset
-- Beta: its own admin, a member named like an alpha member, and dual (manager there).
select tests.create_user('boss@beta.test', 'user', 'Bora', 'Tan') as b_admin \gset
select tests.create_user('zeta@beta.test', 'user', 'Ayla', 'Beta') as b_zeta \gset
-- Delta: a bound member and a former member.
select tests.create_user('member@delta.test', 'user', 'Doğa', 'Üye') as d_member \gset
select tests.create_user('former@delta.test', 'user', 'Eski', 'Üye') as d_former \gset

select tests.add_member(:'a_admin', :'alpha', 'admin');
select tests.add_member(:'a_user', :'alpha', 'user');
select tests.add_member(:'a_sales', :'alpha', 'sales');
select tests.add_member(:'a_manager', :'alpha', 'manager');
select tests.add_member(:'a_cem', :'alpha', 'user');
select tests.add_member(:'a_derya', :'alpha', 'viewer');
select tests.add_member(:'a_emre', :'alpha', 'user');
select tests.add_member(:'a_filiz', :'alpha', 'user');
select tests.add_member(:'a_hakan', :'alpha', 'user');
select tests.add_member(:'a_percent', :'alpha', 'user');
select tests.add_member(:'dual', :'alpha', 'user');
select tests.add_member(:'b_admin', :'beta', 'admin');
select tests.add_member(:'b_zeta', :'beta', 'user');
select tests.add_member(:'dual', :'beta', 'manager');
select tests.add_member(:'d_member', :'delta', 'user');
select tests.add_member(:'d_former', :'delta', 'user');
update private.memberships set is_active = false where user_id = :'d_former';

-- Gamma: 101 members, for the page size limit.
select count(*) as gamma_made from (
  select tests.add_member(tests.create_user(format('bulk%s@gamma.test', lpad(i::text, 3, '0')), 'user', 'Toplu', i::text), :'gamma', 'user')
    from generate_series(1, 101) as i) as made \gset

-- Statuses: cem's membership and derya's profile are inactive; emre has a temporary
-- lock, hakan a lock that has run out (filiz gets an admin lock below, through the RPC).
update private.memberships set is_active = false where user_id = :'a_cem' and organization_id = :'alpha';
update private.profiles set is_active = false where id = :'a_derya';
update private.profiles set failed_login_attempts = 5, locked_until = now() + interval '30 minutes' where id = :'a_emre';
update private.profiles set failed_login_attempts = 5, locked_until = now() - interval '1 minute' where id = :'a_hakan';

-- Times for the sorts (created_at: dual oldest ... percent newest).
update private.profiles p set created_at = now() - v.created, last_login_at = now() - v.login
  from (values (:'dual'::uuid, interval '11 days', interval '10 days'),
               (:'a_admin'::uuid, interval '10 days', interval '1 hour'),
               (:'a_user'::uuid, interval '9 days', interval '2 days'),
               (:'a_sales'::uuid, interval '8 days', null),
               (:'a_manager'::uuid, interval '7 days', interval '3 days'),
               (:'a_cem'::uuid, interval '6 days', interval '5 days'),
               (:'a_derya'::uuid, interval '5 days', null),
               (:'a_emre'::uuid, interval '4 days', interval '4 days'),
               (:'a_filiz'::uuid, interval '3 days', interval '6 hours'),
               (:'a_hakan'::uuid, interval '2 days', interval '30 minutes'),
               (:'a_percent'::uuid, interval '1 day', null)) as v (id, created, login)
 where p.id = v.id;

-- One Auth session per actor.
select gen_random_uuid() as s_admin, gen_random_uuid() as s_admin_free, gen_random_uuid() as s_user,
       gen_random_uuid() as s_badmin, gen_random_uuid() as s_super_free, gen_random_uuid() as s_super_alpha,
       gen_random_uuid() as s_super_gamma, gen_random_uuid() as s_dmember \gset

select tests.authenticate_as(:'a_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_admin \gset
-- The admin lock on filiz, the first entry of alpha's audit trail.
select public.lock_user_secure(:'a_filiz') ->> 'success' as locked_filiz \gset
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_admin_free');
select tests.reset_role();
select tests.authenticate_as(:'a_user', :'s_user');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_user \gset
select tests.reset_role();
select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.bind_session_organization(:'beta') ->> 'success' as bound_badmin \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_super_free');
select tests.reset_role();
select tests.authenticate_as(:'d_member', :'s_dmember');
select public.bind_session_organization(:'delta') ->> 'success' as bound_dmember \gset
select tests.reset_role();

select is(:'bound_admin' || :'bound_user' || :'bound_badmin' || :'bound_dmember' || :'locked_filiz',
  'truetruetruetruetrue', 'fixtures: the admin, the plain member, the beta admin and the delta member are bound; filiz is locked');
select is((select count(*)::int from private.memberships where organization_id = :'gamma'), 101,
  'fixtures: gamma has 101 members');

select '{"success": false, "error": "Organization context required", "code": "organization_context_required"}' as no_context \gset
select '{"success": false, "error": "Admin privileges required", "code": "admin_required"}' as admin_required \gset
select '{"success": false, "error": "Admin privileges required", "code": "super_admin_required"}' as super_required \gset

-- ---------------------------------------------------------------------------------
-- anon: none of the RPCs is granted
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok('select public.get_organization_users()', '42501', null,
  'anon: get_organization_users is refused by the database');
select throws_ok($$select public.get_organization_users(p_organization_slug => 'alpha')$$, '42501', null,
  'anon: get_organization_users naming an organization is refused by the database');
select throws_ok('select public.get_audit_log()', '42501', null, 'anon: get_audit_log is refused by the database');
select throws_ok('select public.list_organizations()', '42501', null, 'anon: list_organizations is refused by the database');
select throws_ok(format('select public.update_organization(%L, %L)', :'delta', '{"is_active": false}'), '42501', null,
  'anon: update_organization is refused by the database');
select tests.reset_role();
select ok(has_function_privilege('authenticated', 'public.get_organization_users(text, text, text, text, boolean, integer, integer, text)', 'execute')
          and has_function_privilege('authenticated', 'public.get_audit_log(integer, bigint, text, uuid, text, timestamptz, timestamptz)', 'execute')
          and has_function_privilege('authenticated', 'public.list_organizations()', 'execute')
          and has_function_privilege('authenticated', 'public.update_organization(uuid, jsonb)', 'execute')
          and not has_function_privilege('authenticated', 'private.organization_json(uuid)', 'execute'),
  'authenticated may call the four RPCs, not private.organization_json');

-- =================================================================================
-- get_organization_users
-- =================================================================================

-- Denied.
select tests.authenticate_as(:'a_user', :'s_user');
select public.get_organization_users() as r1, public.get_organization_users(p_organization_slug => 'alpha') as r2 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'admin_required'::jsonb, 'users: a plain member gets admin_required');
select is(:'r2'::jsonb, :'admin_required'::jsonb, 'users: a plain member naming their own organization gets admin_required');

select tests.authenticate_as(:'a_admin', :'s_admin_free');
select public.get_organization_users() as r1, public.get_organization_users(p_organization_slug => 'alpha') as r2 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'users: an admin whose session is unbound gets Organization context required');
select is(:'r2'::jsonb, :'no_context'::jsonb, 'users: ... also when naming their organization by slug');

select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.get_organization_users(p_organization_slug => 'alpha') as r1,
       public.get_organization_users(p_search => 'ayla') as r2 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'users: the beta admin naming alpha gets Organization context required');
select is(tests.user_emails(:'r2'::jsonb) || '|' || (:'r2'::jsonb ->> 'total'), 'zeta@beta.test|1',
  'users: the beta admin searching ayla finds only beta''s Ayla');

select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users(p_organization_slug => 'beta') as r1 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'users: the alpha admin naming beta gets Organization context required');

select tests.authenticate_as(:'super', :'s_super_free');
select public.get_organization_users() as r1, public.get_organization_users(p_organization_slug => 'nope') as r2 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'users: a super admin with an unbound session and no slug gets Organization context required');
select is(:'r2'::jsonb, :'no_context'::jsonb, 'users: a super admin naming an unknown slug gets Organization context required');

-- Allowed: the alpha admin in the bound organization, every member and only those.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users(p_sort => 'email') as r_all,
       public.get_organization_users(p_organization_slug => 'ALPHA', p_sort => 'email') as r_slug \gset
select tests.reset_role();
select is(:'r_all'::jsonb ->> 'success', 'true', 'users: the alpha admin lists alpha''s users');
select is(tests.user_emails(:'r_all'::jsonb),
  'admin@alpha.test,cem@alpha.test,derya@alpha.test,dual@alpha.test,emre@alpha.test,filiz@alpha.test,hakan@alpha.test,manager@alpha.test,percent@alpha.test,sales_rep@alpha.test,user@alpha.test',
  'users: exactly alpha''s eleven members, no beta, gamma or delta member');
select is((:'r_all'::jsonb ->> 'total')::int, 11, 'users: total is 11');
select is(:'r_slug'::jsonb, :'r_all'::jsonb, 'users: the admin naming their own organization (any case) gets the same answer');

-- Each row carries organization_role, membership_active and locked.
select is(tests.user_flags(:'r_all'::jsonb, 'cem@alpha.test'), 'user|false|false', 'users: cem: user, membership inactive, not locked');
select is(tests.user_flags(:'r_all'::jsonb, 'filiz@alpha.test'), 'user|true|true', 'users: filiz (admin lock) is locked');
select is(tests.user_flags(:'r_all'::jsonb, 'emre@alpha.test'), 'user|true|true', 'users: emre (temporary lock) is locked');
select is(tests.user_flags(:'r_all'::jsonb, 'hakan@alpha.test'), 'user|true|false', 'users: hakan (lock run out) is not locked');
select is(tests.user_flags(:'r_all'::jsonb, 'derya@alpha.test'), 'viewer|true|false', 'users: derya: viewer, membership active');
select is(tests.user_flags(:'r_all'::jsonb, 'dual@alpha.test'), 'user|true|false',
  'users: dual carries the alpha role (user), not the beta one (manager)');
select is((select u ->> 'locked_by_admin' || '|' || (u ->> 'is_active') || '|' || (u ->> 'first_name') || ' ' || (u ->> 'last_name')
             from jsonb_array_elements(:'r_all'::jsonb -> 'users') u where u ->> 'email' = 'filiz@alpha.test'),
  'true|true|Filiz Gök', 'users: the row has the user''s own fields too');
select is((select u ->> 'is_active' from jsonb_array_elements(:'r_all'::jsonb -> 'users') u where u ->> 'email' = 'derya@alpha.test'),
  'false', 'users: derya''s profile is inactive');

-- Search: part of a name or email, any case, Turkish letters; trimmed.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users(p_search => 'KAYA') as s1,
       public.get_organization_users(p_search => 'ayla') as s2,
       public.get_organization_users(p_search => 'Ayla Kaya') as s3,
       public.get_organization_users(p_search => 'ÖZTÜRK') as s4,
       public.get_organization_users(p_search => 'GÜLŞEN') as s5,
       public.get_organization_users(p_search => 'şen iş') as s6,
       public.get_organization_users(p_search => 'ışık') as s6b,
       public.get_organization_users(p_search => 'IŞIK') as s6c,
       public.get_organization_users(p_search => 'İNCE') as s7,
       public.get_organization_users(p_search => 'gök') as s8,
       public.get_organization_users(p_search => '  kaya  ') as s9,
       public.get_organization_users(p_search => 'ALPHA.TEST') as s10,
       public.get_organization_users(p_search => 'Emre@') as s11,
       public.get_organization_users(p_search => 'nobody-here') as s12,
       public.get_organization_users(p_search => '') as s13 \gset
select tests.reset_role();
select is(tests.user_list(:'s1'::jsonb) || '|' || (:'s1'::jsonb ->> 'total'), 'admin|1', 'search: KAYA finds Ayla Kaya (case-insensitive)');
select is(tests.user_list(:'s2'::jsonb) || '|' || (:'s2'::jsonb ->> 'total'), 'admin|1',
  'search: ayla finds alpha''s Ayla only, not beta''s');
select is(tests.user_list(:'s3'::jsonb), 'admin', 'search: the full name finds its owner');
select is(tests.user_list(:'s4'::jsonb), 'manager', 'search: ÖZTÜRK finds Zeynep Öztürk');
select is(tests.user_list(:'s5'::jsonb), 'sales_rep', 'search: GÜLŞEN finds Gülşen Işık');
select is(tests.user_list(:'s6'::jsonb), 'sales_rep', 'search: şen iş matches across first and last name');
select is(tests.user_list(:'s6b'::jsonb), 'sales_rep', 'search: ışık (Turkish lowercase of Işık) finds Gülşen Işık');
select is(tests.user_list(:'s6c'::jsonb), 'sales_rep', 'search: IŞIK (Turkish uppercase of Işık) finds Gülşen Işık');
select is(tests.user_list(:'s7'::jsonb), 'dual', 'search: İNCE finds Deniz İnce');
select is(tests.user_list(:'s8'::jsonb), 'filiz', 'search: gök finds Filiz Gök');
select is(tests.user_list(:'s9'::jsonb), 'admin', 'search: the search text is trimmed');
select is((:'s10'::jsonb ->> 'total')::int, 11, 'search: ALPHA.TEST matches every email (case-insensitive)');
select is(tests.user_list(:'s11'::jsonb), 'emre', 'search: part of an email finds its owner');
select is(tests.user_list(:'s12'::jsonb) || '|' || (:'s12'::jsonb ->> 'total'), '|0', 'search: no match gives no users and total 0');
select is((:'s13'::jsonb ->> 'total')::int, 11, 'search: an empty search finds everyone');

-- LIKE wildcards are literal.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users(p_search => '%') as w1,
       public.get_organization_users(p_search => '100%') as w2,
       public.get_organization_users(p_search => 'a%a') as w3,
       public.get_organization_users(p_search => '_') as w4,
       public.get_organization_users(p_search => 'a_a') as w5,
       public.get_organization_users(p_search => '\') as w6,
       public.get_organization_users(p_search => '%%') as w7 \gset
select tests.reset_role();
select is(tests.user_list(:'w1'::jsonb) || '|' || (:'w1'::jsonb ->> 'total'), 'percent|1', 'wildcards: % finds only the name with a %');
select is(tests.user_list(:'w2'::jsonb), 'percent', 'wildcards: 100% finds Yüzde 100%');
select is(tests.user_list(:'w3'::jsonb) || '|' || (:'w3'::jsonb ->> 'total'), '|0', 'wildcards: a%a finds nobody (% is not a wildcard)');
select is(tests.user_list(:'w4'::jsonb) || '|' || (:'w4'::jsonb ->> 'total'), 'sales_rep|1', 'wildcards: _ finds only the email with an underscore');
select is(tests.user_list(:'w5'::jsonb) || '|' || (:'w5'::jsonb ->> 'total'), '|0', 'wildcards: a_a finds nobody (_ is not a wildcard)');
select is(tests.user_list(:'w6'::jsonb) || '|' || (:'w6'::jsonb ->> 'success'), '|true', 'wildcards: a backslash is literal too');
select is(tests.user_list(:'w7'::jsonb) || '|' || (:'w7'::jsonb ->> 'total'), '|0', 'wildcards: %% finds nobody');

select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.get_organization_users(p_search => '%') as w1 \gset
select tests.reset_role();
select is(tests.user_list(:'w1'::jsonb) || '|' || (:'w1'::jsonb ->> 'total'), '|0', 'wildcards: in beta, where no name has %, % finds nobody');

-- Role and status filters.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users(p_role => 'user', p_sort => 'email') as f1,
       public.get_organization_users(p_role => 'admin') as f2,
       public.get_organization_users(p_role => 'nonexistent') as f3,
       public.get_organization_users(p_status => 'active', p_sort => 'email') as f4,
       public.get_organization_users(p_status => 'inactive', p_sort => 'email') as f5,
       public.get_organization_users(p_status => 'locked', p_sort => 'email') as f6,
       public.get_organization_users(p_status => 'all', p_sort => 'email') as f7,
       public.get_organization_users(p_role => 'user', p_status => 'active', p_sort => 'email') as f8,
       public.get_organization_users(p_role => 'user', p_status => 'locked', p_search => 'gök') as f9 \gset
select tests.reset_role();
select is(tests.user_list(:'f1'::jsonb) || '|' || (:'f1'::jsonb ->> 'total'), 'cem,dual,emre,filiz,hakan,percent,user|7',
  'filter: role user');
select is(tests.user_list(:'f2'::jsonb), 'admin', 'filter: role admin');
select is(tests.user_list(:'f3'::jsonb) || '|' || (:'f3'::jsonb ->> 'total'), '|0', 'filter: an unknown role matches nobody');
select is(tests.user_list(:'f4'::jsonb) || '|' || (:'f4'::jsonb ->> 'total'), 'admin,dual,hakan,manager,percent,sales_rep,user|7',
  'filter: active = active membership and profile, not locked (an expired lock is active)');
select is(tests.user_list(:'f5'::jsonb), 'cem,derya', 'filter: inactive = membership or profile inactive');
select is(tests.user_list(:'f6'::jsonb), 'emre,filiz', 'filter: locked = a temporary or an admin lock in the future');
select is((:'f7'::jsonb ->> 'total')::int, 11, 'filter: status all is everyone');
select is(tests.user_list(:'f8'::jsonb), 'dual,hakan,percent,user', 'filter: role and status together');
select is(tests.user_list(:'f9'::jsonb), 'filiz', 'filter: role, status and search together');

-- Sorts.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users() as o_default,
       public.get_organization_users(p_sort => 'name') as o1,
       public.get_organization_users(p_sort => 'name', p_descending => true) as o2,
       public.get_organization_users(p_sort => 'email') as o3,
       public.get_organization_users(p_sort => 'email', p_descending => true) as o4,
       public.get_organization_users(p_sort => 'role') as o5,
       public.get_organization_users(p_sort => 'role', p_descending => true) as o6,
       public.get_organization_users(p_sort => 'last_login_at') as o7,
       public.get_organization_users(p_sort => 'last_login_at', p_descending => true) as o8,
       public.get_organization_users(p_sort => 'created_at') as o9,
       public.get_organization_users(p_sort => 'created_at', p_descending => true) as o10,
       public.get_organization_users(p_sort => null) as o11 \gset
select tests.reset_role();
select is(tests.user_list(:'o1'::jsonb), 'user,admin,cem,dual,derya,emre,filiz,sales_rep,hakan,percent,manager',
  'sort: name ascending (Ali Demir ... Zeynep Öztürk)');
select is(tests.user_list(:'o_default'::jsonb), tests.user_list(:'o1'::jsonb), 'sort: the default is name ascending');
select is(tests.user_list(:'o2'::jsonb), 'manager,percent,hakan,sales_rep,filiz,emre,derya,dual,cem,admin,user', 'sort: name descending');
select is(tests.user_list(:'o3'::jsonb), 'admin,cem,derya,dual,emre,filiz,hakan,manager,percent,sales_rep,user', 'sort: email ascending');
select is(tests.user_list(:'o4'::jsonb), 'user,sales_rep,percent,manager,hakan,filiz,emre,dual,derya,cem,admin', 'sort: email descending');
select is(tests.user_list(:'o5'::jsonb), 'admin,manager,sales_rep,cem,dual,emre,filiz,hakan,percent,user,derya',
  'sort: role ascending, ties by email');
select is(tests.user_list(:'o6'::jsonb), 'derya,cem,dual,emre,filiz,hakan,percent,user,sales_rep,manager,admin',
  'sort: role descending, ties by email');
select is(tests.user_list(:'o7'::jsonb), 'dual,cem,emre,manager,user,filiz,admin,hakan,derya,percent,sales_rep',
  'sort: last_login_at ascending, never signed in last');
select is(tests.user_list(:'o8'::jsonb), 'hakan,admin,filiz,user,manager,emre,cem,dual,derya,percent,sales_rep',
  'sort: last_login_at descending, never signed in last');
select is(tests.user_list(:'o9'::jsonb), 'dual,admin,user,sales_rep,manager,cem,derya,emre,filiz,hakan,percent', 'sort: created_at ascending');
select is(tests.user_list(:'o10'::jsonb), 'percent,hakan,filiz,emre,derya,cem,manager,sales_rep,user,admin,dual', 'sort: created_at descending');
select is(tests.user_list(:'o11'::jsonb), tests.user_list(:'o1'::jsonb), 'sort: a null sort (accepted as name) sorts by name');

-- Invalid status or sort.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users(p_status => 'banned') as i1,
       public.get_organization_users(p_sort => 'password') as i2,
       public.get_organization_users(p_sort => 'email; drop table private.profiles') as i3,
       public.get_organization_users(p_status => 'ACTIVE') as i4 \gset
select tests.reset_role();
select is(tests.failure_of(:'i1'::jsonb), 'false|Failed to fetch users|invalid_input', 'invalid: an unknown status gets invalid_input');
select is(tests.failure_of(:'i2'::jsonb), 'false|Failed to fetch users|invalid_input', 'invalid: an unknown sort gets invalid_input');
select is(tests.failure_of(:'i3'::jsonb), 'false|Failed to fetch users|invalid_input', 'invalid: SQL as the sort gets invalid_input');
select is(tests.failure_of(:'i4'::jsonb), 'false|Failed to fetch users|invalid_input', 'invalid: statuses are lowercase');
select ok(not (:'i1'::jsonb ? 'users') and not (:'i2'::jsonb ? 'users'), 'invalid: the failures carry no users');

-- Pages.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_organization_users(p_sort => 'email', p_limit => 3, p_offset => 3) as p1,
       public.get_organization_users(p_sort => 'email', p_limit => 3, p_offset => 9) as p2,
       public.get_organization_users(p_sort => 'email', p_limit => 0) as p3,
       public.get_organization_users(p_sort => 'email', p_limit => -5) as p4,
       public.get_organization_users(p_sort => 'email', p_limit => null) as p5,
       public.get_organization_users(p_sort => 'email', p_limit => 2, p_offset => -3) as p6,
       public.get_organization_users(p_sort => 'email', p_limit => 2, p_offset => null) as p7,
       public.get_organization_users(p_role => 'user', p_sort => 'email', p_descending => true, p_limit => 2, p_offset => 1) as p8,
       public.get_organization_users(p_sort => 'email', p_limit => 5, p_offset => 50) as p9 \gset
select tests.reset_role();
select is(tests.user_list(:'p1'::jsonb) || '|' || (:'p1'::jsonb ->> 'total'), 'dual,emre,filiz|11', 'pages: limit 3 offset 3 is a slice; total counts all');
select is(tests.user_list(:'p2'::jsonb) || '|' || (:'p2'::jsonb ->> 'total'), 'sales_rep,user|11', 'pages: the last page is short; total 11');
select is(tests.user_list(:'p3'::jsonb) || '|' || (:'p3'::jsonb ->> 'total'), 'admin|11', 'pages: limit 0 is clamped to 1');
select is(tests.user_list(:'p4'::jsonb) || '|' || (:'p4'::jsonb ->> 'total'), 'admin|11', 'pages: a negative limit is clamped to 1');
select is(jsonb_array_length(:'p5'::jsonb -> 'users'), 11, 'pages: a null limit means the default (25): all eleven');
select is(tests.user_list(:'p6'::jsonb), 'admin,cem', 'pages: a negative offset is 0');
select is(tests.user_list(:'p7'::jsonb), 'admin,cem', 'pages: a null offset is 0');
select is(tests.user_list(:'p8'::jsonb) || '|' || (:'p8'::jsonb ->> 'total'), 'percent,hakan|7', 'pages: with a filter and descending, total counts the filtered');
select is(tests.user_list(:'p9'::jsonb) || '|' || (:'p9'::jsonb ->> 'total'), '|11', 'pages: past the end, no users but total still 11');

-- The super admin: any organization by slug; p_limit at most 100.
select tests.authenticate_as(:'super', :'s_super_free');
select public.get_organization_users(p_organization_slug => 'alpha', p_sort => 'email') as u1,
       public.get_organization_users(p_organization_slug => 'Beta', p_sort => 'email') as u2,
       public.get_organization_users(p_organization_slug => 'gamma', p_sort => 'email', p_limit => 1000) as u3,
       public.get_organization_users(p_organization_slug => 'gamma', p_sort => 'email', p_limit => 100, p_offset => 100) as u4,
       public.get_organization_users(p_organization_slug => 'gamma', p_sort => 'email', p_limit => 100) as u5 \gset
select tests.reset_role();
select is(tests.user_emails(:'u1'::jsonb), tests.user_emails(:'r_all'::jsonb), 'super: names alpha by slug and sees alpha''s members');
select is(tests.user_emails(:'u2'::jsonb) || '|' || (:'u2'::jsonb ->> 'total'), 'boss@beta.test,dual@alpha.test,zeta@beta.test|3',
  'super: names beta (any case) and sees only beta''s members');
select is(tests.user_flags(:'u2'::jsonb, 'dual@alpha.test'), 'manager|true|false', 'super: in beta, dual carries the beta role');
select is(jsonb_array_length(:'u3'::jsonb -> 'users') || '|' || (:'u3'::jsonb ->> 'total'), '100|101', 'super: limit 1000 is clamped to 100; total 101');
select is(tests.user_list(:'u4'::jsonb) || '|' || (:'u4'::jsonb ->> 'total'), 'bulk101|101', 'super: the second page of 100 has the 101st member');
select is(jsonb_array_length(:'u5'::jsonb -> 'users'), 100, 'super: limit 100 gives 100');

-- The beta admin in their own organization.
select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.get_organization_users(p_sort => 'email') as r1 \gset
select tests.reset_role();
select is(tests.user_emails(:'r1'::jsonb) || '|' || (:'r1'::jsonb ->> 'total'), 'boss@beta.test,dual@alpha.test,zeta@beta.test|3',
  'users: the beta admin sees beta''s members only');

-- =================================================================================
-- get_audit_log
-- =================================================================================

-- Entries through the real RPCs: the alpha admin locks and unlocks hakan; the super
-- admin enters alpha and unlocks emre; the beta admin locks zeta. Plus one row for beta
-- and one without an organization written directly, which alpha must never see.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.lock_user_secure(:'a_hakan') ->> 'success' as e1, public.unlock_user_secure(:'a_hakan') ->> 'success' as e2 \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_super_alpha');
select public.bind_session_organization(:'alpha') ->> 'success' as e3 \gset
select public.unlock_user_secure(:'a_emre') ->> 'success' as e4 \gset
select tests.reset_role();
select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.lock_user_secure(:'b_zeta') ->> 'success' as e5 \gset
select tests.reset_role();
insert into private.audit_log (organization_id, actor_id, action, target_type, target_id)
values (:'beta', :'b_admin', 'manual.beta_entry', 'user', :'b_zeta'),
       (null, :'super', 'manual.no_organization', 'user', :'a_admin');
select is(:'e1' || :'e2' || :'e3' || :'e4' || :'e5', 'truetruetruetruetrue', 'audit fixtures: the RPCs that write the trail succeeded');
select array_agg(id order by id desc)::text as alpha_ids from private.audit_log where organization_id = :'alpha' \gset
select is(cardinality(:'alpha_ids'::bigint[]), 5, 'audit fixtures: alpha has five entries');

-- Denied.
select tests.authenticate_as(:'a_user', :'s_user');
select public.get_audit_log() as r1 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'admin_required'::jsonb, 'audit: a plain member gets admin_required');

select tests.authenticate_as(:'a_admin', :'s_admin_free');
select public.get_audit_log() as r1, public.get_audit_log(p_organization_slug => 'alpha') as r2 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'audit: an admin whose session is unbound gets Organization context required');
select is(:'r2'::jsonb, :'no_context'::jsonb, 'audit: ... also when naming their organization');

select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.get_audit_log(p_organization_slug => 'alpha') as r1, public.get_audit_log() as r2 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'audit: the beta admin naming alpha gets Organization context required');
select is(tests.audit_list(:'r2'::jsonb), 'manual.beta_entry/boss,user.locked/boss', 'audit: the beta admin sees beta''s entries only');

select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_audit_log(p_organization_slug => 'beta') as r1 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'audit: the alpha admin naming beta gets Organization context required');

select tests.authenticate_as(:'super', :'s_super_free');
select public.get_audit_log() as r1 \gset
select tests.reset_role();
select is(:'r1'::jsonb, :'no_context'::jsonb, 'audit: a super admin with an unbound session and no slug gets Organization context required');

-- Allowed: the alpha admin; newest first, with the actor.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_audit_log() as a_all \gset
select tests.reset_role();
select is(:'a_all'::jsonb ->> 'success', 'true', 'audit: the alpha admin reads alpha''s trail');
select is(tests.audit_list(:'a_all'::jsonb),
  'user.unlocked/root,session.super_admin_entered/root,user.unlocked/admin,user.locked/admin,user.locked/admin',
  'audit: alpha''s entries only, newest first, each with its actor');
select is(tests.audit_ids(:'a_all'::jsonb), :'alpha_ids'::bigint[], 'audit: the ids are alpha''s, in descending order');
select is((select array_agg(e ->> 'target_id' order by i) from jsonb_array_elements(:'a_all'::jsonb -> 'entries') with ordinality t (e, i)),
  array[:'a_emre', :'super', :'a_hakan', :'a_hakan', :'a_filiz'], 'audit: the targets, newest first');
select is((select (e ->> 'action') || '|' || (e ->> 'target_type') || '|' || (e -> 'actor' ->> 'id') || '|' || (e -> 'actor' ->> 'email')
                  || '|' || (e -> 'actor' ->> 'first_name') || ' ' || (e -> 'actor' ->> 'last_name') || '|' || (e -> 'details')::text
                  || '|' || ((e ->> 'created_at')::timestamptz = now())::text
             from jsonb_array_elements(:'a_all'::jsonb -> 'entries') e where e ->> 'target_id' = :'a_filiz'),
  format('user.locked|user|%s|admin@alpha.test|Ayla Kaya|{}|true', :'a_admin'), 'audit: an entry carries action, target, actor, details and time');

-- Pages: p_before_id, and p_limit between 1 and 200.
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.get_audit_log(p_limit => 2) as g1 \gset
select public.get_audit_log(p_limit => 2, p_before_id => (:'g1'::jsonb -> 'entries' -> 1 ->> 'id')::bigint) as g2 \gset
select public.get_audit_log(p_limit => 2, p_before_id => (:'g2'::jsonb -> 'entries' -> 1 ->> 'id')::bigint) as g3 \gset
select public.get_audit_log(p_before_id => (:'g3'::jsonb -> 'entries' -> 0 ->> 'id')::bigint) as g4,
       public.get_audit_log(p_limit => 0) as g5, public.get_audit_log(p_limit => -1) as g6,
       public.get_audit_log(p_limit => null) as g7 \gset
select tests.reset_role();
select is(tests.audit_ids(:'g1'::jsonb) || tests.audit_ids(:'g2'::jsonb) || tests.audit_ids(:'g3'::jsonb), :'alpha_ids'::bigint[],
  'audit pages: three pages of 2, 2 and 1 follow each other without gaps or repeats');
select is(cardinality(tests.audit_ids(:'g3'::jsonb)), 1, 'audit pages: the last page has one entry');
select is(:'g4'::jsonb -> 'entries', '[]'::jsonb, 'audit pages: before alpha''s oldest entry there is nothing');
select is(tests.audit_ids(:'g5'::jsonb), array[(:'alpha_ids'::bigint[])[1]], 'audit pages: limit 0 is clamped to 1');
select is(tests.audit_ids(:'g6'::jsonb), array[(:'alpha_ids'::bigint[])[1]], 'audit pages: a negative limit is clamped to 1');
select is(tests.audit_ids(:'g7'::jsonb), :'alpha_ids'::bigint[], 'audit pages: a null limit means the default');

-- The super admin: alpha by slug; gamma with more than 200 entries.
select tests.authenticate_as(:'super', :'s_super_free');
select public.get_audit_log(p_organization_slug => 'alpha') as s1, public.get_audit_log(p_organization_slug => 'BETA') as s2 \gset
select tests.reset_role();
select is(:'s1'::jsonb, :'a_all'::jsonb, 'audit: the super admin naming alpha reads the same trail');
select is(tests.audit_list(:'s2'::jsonb), 'manual.beta_entry/boss,user.locked/boss', 'audit: the super admin naming beta reads beta''s');

select array_agg(user_id)::text as gamma_members from private.memberships where organization_id = :'gamma' \gset
select tests.authenticate_as(:'super', :'s_super_gamma');
select public.bind_session_organization(:'gamma') ->> 'success' as bound_gamma \gset
select count(*) filter (where (public.lock_user_secure(m) ->> 'success')::boolean) as gamma_locks
  from unnest(:'gamma_members'::uuid[]) as m \gset
select count(*) filter (where (public.unlock_user_secure(m) ->> 'success')::boolean) as gamma_unlocks
  from unnest(:'gamma_members'::uuid[]) as m \gset
select public.get_audit_log(p_limit => 1000) as h1, public.get_audit_log(p_limit => 200) as h2, public.get_audit_log() as h3 \gset
select public.get_audit_log(p_limit => 1000, p_before_id => (:'h1'::jsonb -> 'entries' -> 199 ->> 'id')::bigint) as h4 \gset
select tests.reset_role();
select is((select count(*)::int from private.audit_log where organization_id = :'gamma') || '|' || :'gamma_locks' || '|' || :'gamma_unlocks' || '|' || :'bound_gamma',
  '203|101|101|true', 'audit fixtures: gamma has 203 entries, written by the super admin working in gamma');
select is(cardinality(tests.audit_ids(:'h1'::jsonb)), 200, 'audit pages: limit 1000 is clamped to 200');
select is(cardinality(tests.audit_ids(:'h2'::jsonb)), 200, 'audit pages: limit 200 gives 200');
select is(cardinality(tests.audit_ids(:'h3'::jsonb)), 50, 'audit pages: the default limit is 50');
select is(tests.audit_list(:'h4'::jsonb), 'user.locked/root,user.locked/root,session.super_admin_entered/root',
  'audit pages: after 200, the three oldest remain');

-- =================================================================================
-- list_organizations
-- =================================================================================

select tests.authenticate_as(:'a_user', :'s_user');
select public.list_organizations() as l1 \gset
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.list_organizations() as l2 \gset
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_admin_free');
select public.list_organizations() as l3 \gset
select tests.reset_role();
select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.list_organizations() as l4 \gset
select tests.reset_role();
select is(:'l1'::jsonb, :'super_required'::jsonb, 'organizations: a plain member gets super_admin_required');
select is(:'l2'::jsonb, :'super_required'::jsonb, 'organizations: the alpha admin (bound) gets super_admin_required');
select is(:'l3'::jsonb, :'super_required'::jsonb, 'organizations: an admin with an unbound session gets super_admin_required');
select is(:'l4'::jsonb, :'super_required'::jsonb, 'organizations: the beta admin gets super_admin_required');

select tests.authenticate_as(:'super', :'s_super_free');
select public.list_organizations() as lo \gset
select tests.reset_role();
select is(:'lo'::jsonb ->> 'success', 'true', 'organizations: the super admin lists the organizations');
select is(jsonb_array_length(:'lo'::jsonb -> 'organizations'), (select count(*)::int from private.organizations),
  'organizations: every organization is listed');
select is((select string_agg(format('%s:%s:%s:%s:%s', o ->> 'slug', o ->> 'member_count', o ->> 'active_member_count',
                                    o ->> 'template_version', o ->> 'is_active'), ',' order by i)
             from jsonb_array_elements(:'lo'::jsonb -> 'organizations') with ordinality t (o, i)),
  format('alpha:11:10:%s:true,beta:3:3:0:true,delta:2:1:0:true,epsilon:0:0:0:false,gamma:101:101:0:true', :'alpha_version'),
  'organizations: by name, with member counts, active member counts, template version and activity');
select is((select count(*)::int from jsonb_array_elements(:'lo'::jsonb -> 'organizations') o
            where (o ->> 'latest_template_version')::int = private.latest_template_version()),
  5, 'organizations: each carries latest_template_version = private.latest_template_version()');
select is((select format('%s|%s|%s|%s|%s|%s', o ->> 'id', o ->> 'name', o ->> 'subscription_plan', o ->> 'subscription_status',
                         o ->> 'table_prefix_timestamp', o ->> 'latest_template_version')
             from jsonb_array_elements(:'lo'::jsonb -> 'organizations') o where o ->> 'slug' = 'alpha'),
  (select format('%s|Alpha A.Ş.|basic|active|%s|%s', id, table_prefix_timestamp, private.latest_template_version())
     from private.organizations where id = :'alpha'),
  'organizations: alpha''s id, name, plan, status and table prefix');
select ok(:'alpha_version'::int = private.latest_template_version() and private.latest_template_version() > 0,
  'organizations: alpha was migrated to the latest version (so the version above is the latest)');

-- =================================================================================
-- update_organization
-- =================================================================================

select tests.organization_state(:'delta') as delta_before \gset
select tests.organization_state(:'epsilon') as epsilon_before \gset
select count(*) as delta_bindings_before from private.session_organizations where organization_id = :'delta' \gset
select count(*) as other_bindings_before from private.session_organizations where organization_id <> :'delta' \gset

-- Denied.
select tests.authenticate_as(:'a_user', :'s_user');
select public.update_organization(:'alpha', '{"name": "Ele Geçirildi"}') as d1 \gset
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_admin');
select public.update_organization(:'alpha', '{"subscription_plan": "enterprise"}') as d2,
       public.update_organization(:'delta', '{"is_active": false}') as d3 \gset
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_admin_free');
select public.update_organization(:'alpha', '{"name": "Serbest"}') as d4 \gset
select tests.reset_role();
select tests.authenticate_as(:'b_admin', :'s_badmin');
select public.update_organization(:'alpha', '{"is_active": false}') as d5,
       public.update_organization(:'beta', '{"subscription_status": "trial"}') as d6 \gset
select tests.reset_role();
select tests.authenticate_as(:'d_member', :'s_dmember');
select public.update_organization(:'delta', '{"name": "Benim"}') as d7 \gset
select tests.reset_role();
select is(:'d1'::jsonb, :'super_required'::jsonb, 'update: a plain member gets super_admin_required');
select is(:'d2'::jsonb, :'super_required'::jsonb, 'update: the alpha admin cannot change alpha');
select is(:'d3'::jsonb, :'super_required'::jsonb, 'update: the alpha admin cannot change another organization');
select is(:'d4'::jsonb, :'super_required'::jsonb, 'update: an admin with an unbound session gets super_admin_required');
select is(:'d5'::jsonb, :'super_required'::jsonb, 'update: the beta admin cannot change alpha');
select is(:'d6'::jsonb, :'super_required'::jsonb, 'update: the beta admin cannot change beta either');
select is(:'d7'::jsonb, :'super_required'::jsonb, 'update: a delta member gets super_admin_required');
select is((select string_agg(format('%s/%s/%s/%s', name, subscription_plan, subscription_status, is_active::text), ',' order by slug)
             from private.organizations where id in (:'alpha', :'beta')),
  'Alpha A.Ş./basic/active/true,Beta Ltd./basic/active/true', 'update: the refused changes changed nothing in alpha or beta');
select is(tests.organization_state(:'delta'), :'delta_before', 'update: ... nor in delta');

-- Bad input: invalid_input and nothing changes.
select tests.authenticate_as(:'super', :'s_super_free');
select public.update_organization(:'delta', '{"slug": "delta2"}') as v1,
       public.update_organization(:'delta', '{"name": "Delta Yeni", "schema_name": "x"}') as v2,
       public.update_organization(:'delta', '{"name": "   "}') as v3,
       public.update_organization(:'delta', jsonb_build_object('name', repeat('a', 201))) as v4,
       public.update_organization(:'delta', '{"name": null}') as v5,
       public.update_organization(:'delta', '{"subscription_plan": "Enterprise"}') as v6,
       public.update_organization(:'delta', '{"subscription_plan": "1basic"}') as v7,
       public.update_organization(:'delta', '{"subscription_plan": ""}') as v8,
       public.update_organization(:'delta', '{"subscription_status": "paused"}') as v9,
       public.update_organization(:'delta', '{"subscription_status": "ACTIVE"}') as v10,
       public.update_organization(:'delta', '{"is_active": "false"}') as v11,
       public.update_organization(:'delta', '{"is_active": null}') as v12,
       public.update_organization(:'delta', '[{"name": "Dizi"}]') as v13,
       public.update_organization(:'delta', '"Delta"') as v14,
       public.update_organization(:'delta', null) as v15,
       public.update_organization(:'delta', '{"name": "Delta Yeni", "is_active": 0}') as v16,
       public.update_organization(:'delta', '{"subscription_plan": null}') as v17 \gset
-- Values of the wrong JSON type, tried on epsilon so that delta's checks stay independent.
select public.update_organization(:'epsilon', '{"name": ["Epsilon", "Dizi"]}') as v18 \gset
select public.update_organization(:'epsilon', '{"subscription_plan": true}') as v19 \gset
select public.update_organization(gen_random_uuid(), '{"name": "Hayalet"}') as v20,
       public.update_organization(null, '{"name": "Hiç"}') as v21 \gset
select tests.reset_role();
select is((select string_agg(tests.failure_of(v), ',') from unnest(array[:'v1', :'v2', :'v3', :'v4', :'v5', :'v6', :'v7', :'v8', :'v9', :'v10',
                                                                     :'v11', :'v12', :'v13', :'v14', :'v15', :'v16', :'v17']::jsonb[]) v),
  rtrim(repeat('false|Invalid organization change|invalid_input,', 17), ','),
  'update: unknown fields, blank/long/null names, bad plans and statuses, non-boolean is_active and non-objects get invalid_input');
select is(tests.failure_of(:'v1'::jsonb), 'false|Invalid organization change|invalid_input', 'update: an unknown field (slug) gets invalid_input');
select is(tests.failure_of(:'v18'::jsonb), 'false|Invalid organization change|invalid_input', 'update: a name that is not a string gets invalid_input');
select is(tests.failure_of(:'v19'::jsonb), 'false|Invalid organization change|invalid_input', 'update: a plan that is not a string gets invalid_input');
select is(tests.failure_of(:'v20'::jsonb), 'false|Organization not found|organization_not_found', 'update: an unknown id gets organization_not_found');
select is(tests.failure_of(:'v21'::jsonb), 'false|Organization not found|organization_not_found', 'update: a null id gets organization_not_found');
select is(tests.organization_state(:'delta'), :'delta_before', 'update: the refused changes left delta as it was');
select is(tests.organization_state(:'epsilon'), :'epsilon_before', 'update: the refused wrong-type values left epsilon as it was');
select is((select count(*)::int from private.audit_log where action = 'organization.updated' and organization_id = :'delta'), 0,
  'update: no organization.updated entry was written for the refusals');

-- Allowed: name (trimmed), plan, each status, activity.
select tests.authenticate_as(:'super', :'s_super_free');
select public.update_organization(:'delta', '{"name": "  Delta Yeni A.Ş.  "}') as u1 \gset
select public.update_organization(:'delta', '{"subscription_plan": "enterprise_2"}') as u2 \gset
select string_agg(public.update_organization(:'delta', jsonb_build_object('subscription_status', s)) -> 'organization' ->> 'subscription_status', ',' order by n) as statuses
  from unnest(array['trial', 'past_due', 'suspended', 'cancelled', 'active']) with ordinality as t (s, n) \gset
select public.update_organization(:'beta', '{"name": "Beta Yeni", "subscription_plan": "pro", "subscription_status": "trial"}') as u3 \gset
select tests.reset_role();
select is((select name from private.organizations where id = :'delta'), 'Delta Yeni A.Ş.', 'update: the super admin renames delta; the name is trimmed');
select is(:'u1'::jsonb ->> 'success' || '|' || (:'u1'::jsonb -> 'organization' ->> 'name') || '|' || (:'u1'::jsonb -> 'organization' ->> 'id'),
  'true|Delta Yeni A.Ş.|' || :'delta', 'update: the answer carries the changed organization');
select is((select subscription_plan from private.organizations where id = :'delta'), 'enterprise_2', 'update: the plan changes');
select is(:'statuses'::text, 'trial,past_due,suspended,cancelled,active', 'update: every allowed subscription status is accepted');
select is((select format('%s/%s/%s/%s', name, subscription_plan, subscription_status, is_active::text) from private.organizations where id = :'delta'),
  'Delta Yeni A.Ş./enterprise_2/active/true', 'update: each change left the other fields alone');
select is((select format('%s/%s/%s/%s', name, subscription_plan, subscription_status, is_active::text) from private.organizations where id = :'beta'),
  'Beta Yeni/pro/trial/true', 'update: several fields at once');
select is((:'u3'::jsonb -> 'organization' ->> 'member_count') || '|' || (:'u3'::jsonb -> 'organization' ->> 'active_member_count'), '3|3',
  'update: the answer has the member counts');
select is((select count(*)::int from private.session_organizations where organization_id = :'delta'), :'delta_bindings_before'::int,
  'update: changes other than deactivation keep the bindings');

-- Deactivation: the organization's bindings go; an audit entry records it.
select tests.set_request_identity('none', :'d_member', json_build_object('sub', :'d_member', 'role', 'authenticated', 'session_id', :'s_dmember')::text);
select is(private.current_organization_id(), :'delta'::uuid, 'deactivate: before, the delta member works in delta');
select tests.reset_role();
select is(:'delta_bindings_before'::int, 1, 'deactivate: before, delta has one binding');

select tests.authenticate_as(:'super', :'s_super_free');
select public.update_organization(:'delta', '{"is_active": false}') as x1 \gset
select tests.reset_role();
select is((:'x1'::jsonb ->> 'success') || '|' || (:'x1'::jsonb -> 'organization' ->> 'is_active'), 'true|false', 'deactivate: the super admin deactivates delta');
select is((select is_active from private.organizations where id = :'delta'), false, 'deactivate: delta is inactive');
select is((select count(*)::int from private.session_organizations where organization_id = :'delta'), 0, 'deactivate: delta''s bindings are deleted');
select is((select count(*)::int from private.session_organizations where organization_id <> :'delta'), :'other_bindings_before'::int,
  'deactivate: other organizations'' bindings stay');
select tests.set_request_identity('none', :'d_member', json_build_object('sub', :'d_member', 'role', 'authenticated', 'session_id', :'s_dmember')::text);
select is(private.current_organization_id(), null, 'deactivate: the delta member has no current organization');
select tests.reset_role();
select is((select count(*)::int from auth.sessions where id = :'s_dmember'), 1, 'deactivate: the member''s Auth session itself remains');

-- Reactivated, the old binding does not come back.
select tests.authenticate_as(:'super', :'s_super_free');
select public.update_organization(:'delta', '{"is_active": true}') as x2 \gset
select tests.reset_role();
select tests.set_request_identity('none', :'d_member', json_build_object('sub', :'d_member', 'role', 'authenticated', 'session_id', :'s_dmember')::text);
select is(private.current_organization_id(), null, 'reactivate: the member''s old session stays unbound (the binding was deleted, not suspended)');
select tests.reset_role();
select is((:'x2'::jsonb ->> 'success') || '|' || (select is_active::text from private.organizations where id = :'delta'), 'true|true',
  'reactivate: delta is active again');

-- The audit trail.
select is((select string_agg(format('%s|%s|%s|%s', (organization_id = :'delta')::text, (actor_id = :'super')::text, target_type, (target_id = :'delta')::text), ',')
             from private.audit_log where action = 'organization.updated' and details = '{"is_active": false}'),
  'true|true|organization|true', 'audit: the deactivation wrote one organization.updated entry by the super admin for delta');
select is((select count(*)::int from private.audit_log where action = 'organization.updated' and organization_id = :'delta'), 9,
  'audit: each successful change of delta wrote one entry (name, plan, five statuses, off, on)');
select is((select details from private.audit_log where action = 'organization.updated' and organization_id = :'delta' order by id limit 1),
  '{"name": "  Delta Yeni A.Ş.  "}'::jsonb, 'audit: the entry records the change requested');

select * from finish();
rollback;
