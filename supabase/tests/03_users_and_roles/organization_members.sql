-- list_organization_members: every active member of the bound organization reads its
-- usable colleagues; nobody else's, never without a bound session, never anon.
begin;
select plan(8);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('gone@alpha.test', 'user', 'Giden', 'Üye') as alpha_gone \gset
select tests.create_user('both@test.test', 'user', 'Çift', 'Üyelik') as both_member \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'alpha_gone', :'alpha', 'sales');
select tests.add_member(:'both_member', :'alpha', 'sales');
select tests.add_member(:'both_member', :'beta', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
update private.memberships set is_active = false where user_id = :'alpha_gone';
select gen_random_uuid() as s_viewer, gen_random_uuid() as s_both, gen_random_uuid() as s_unbound \gset
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'both_member', :'s_both', :'beta');

select tests.act_as_anon();
select throws_ok($$select public.list_organization_members()$$, '42501', null, 'anon cannot list members');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_unbound');
select is(public.list_organization_members() ->> 'code', 'organization_context_required', 'an unbound session is refused');
select tests.reset_role();

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select public.list_organization_members() as alpha_members \gset
select is((:'alpha_members'::jsonb) ->> 'success', 'true', 'a viewer may read the colleagues');
select is((select array_agg(m ->> 'email' order by m ->> 'email') from jsonb_array_elements((:'alpha_members'::jsonb) -> 'members') m),
  array['admin@alpha.test', 'both@test.test', 'viewer@alpha.test'], 'the active members of alpha, the inactive one left out');
select is((select m ->> 'role' from jsonb_array_elements((:'alpha_members'::jsonb) -> 'members') m where m ->> 'email' = 'admin@alpha.test'),
  'admin', 'with their role');
select tests.reset_role();

-- A person in two organizations, bound to beta, sees beta's members only.
select tests.authenticate_as(:'both_member', :'s_both');
select is((select array_agg(m ->> 'email' order by m ->> 'email') from jsonb_array_elements(public.list_organization_members() -> 'members') m),
  array['admin@beta.test', 'both@test.test'], 'bound to beta: beta''s members only');

-- A locked colleague is not offered as an owner.
select tests.reset_role();
update private.profiles set locked_until = now() + interval '1 hour' where id = :'alpha_admin';
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select ok(not exists (select 1 from jsonb_array_elements(public.list_organization_members() -> 'members') m
                       where m ->> 'email' = 'admin@alpha.test'), 'a locked account is not listed');
select tests.reset_role();

-- A member removed from alpha loses the list with their binding.
update private.memberships set is_active = false where user_id = :'alpha_viewer' and organization_id = :'alpha';
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select isnt(public.list_organization_members() ->> 'success', 'true', 'a deactivated member is refused');
select tests.reset_role();

select * from finish();
rollback;
