-- Module access: the caller's permission matrix, and list_customers enforcing it per
-- request (all, own or refused), per role, for another organization and for anonymous callers.
begin;
select plan(26);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_organization('bare', 'Bare Ltd.') as bare \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test') as alpha_viewer \gset
select tests.create_user('user@beta.test') as beta_user \gset
select tests.create_user('user@bare.test') as bare_user \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_user', :'beta', 'user');
select tests.add_member(:'bare_user', :'bare', 'user');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_beta, gen_random_uuid() as s_bare, gen_random_uuid() as s_unbound \gset

insert into :"alpha_schema".customers (name, owner_id, created_by) values
  ('Işık Tekstil', :'alpha_sales', :'alpha_sales'),
  ('Çınar Gıda', :'alpha_sales', :'alpha_sales'),
  ('Anka 100% Yazılım', :'alpha_admin', :'alpha_admin'),
  ('Silinmiş Ltd.', :'alpha_admin', :'alpha_admin');
update :"alpha_schema".customers set deleted_at = now() where name = 'Silinmiş Ltd.';
insert into :"beta_schema".customers (name, owner_id, created_by) values ('Beta Müşteri', :'beta_user', :'beta_user');

select tests.act_as_anon();
select throws_ok('select public.get_my_permissions()', '42501', null, 'anon cannot read permissions');
select throws_ok('select public.list_customers()', '42501', null, 'anon cannot list customers');
select tests.reset_role();

select tests.authenticate_as(:'alpha_sales', :'s_unbound');
select is(public.get_my_permissions() ->> 'code', 'organization_context_required', 'an unbound session has no permissions');
select is(public.list_customers() ->> 'code', 'organization_context_required', 'nor customers');
select tests.reset_role();

-- Admins may do everything; the sales role sees and edits only its own customers.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.get_my_permissions() #>> '{permissions,tasks,delete}', 'all', 'an admin may do everything');
select is((public.get_my_permissions() ->> 'is_admin')::boolean, true, 'and is told so');
select is((public.list_customers() ->> 'total')::int, 3, 'an admin sees every customer not deleted');
select is(public.list_customers() #>> '{records,0,name}', 'Anka 100% Yazılım', 'sorted by name');
select is(public.list_customers() #>> '{records,0,owner_name}', 'Ayşe Yönetici', 'with the owner''s name');
select is(public.list_customers(p_sort => 'name', p_descending => true) #>> '{records,0,name}', 'Işık Tekstil', 'descending too');
select is(public.list_customers() #>> '{records,1,name}', 'Çınar Gıda', 'Turkish letters sort beside their Latin ones');
select is((public.list_customers(p_search => 'ISIK') ->> 'total')::int, 1, 'search folds Turkish letters');
select is((public.list_customers(p_search => '%') ->> 'total')::int, 1, 'a wildcard is searched literally');
select is(jsonb_array_length(public.list_customers(p_limit => 2, p_offset => 2) -> 'records'), 1, 'pages are cut by limit and offset');
select is(public.list_customers(p_sort => 'name; drop table private.profiles') ->> 'code', 'invalid_input', 'an unknown sort is refused');
select is(public.list_customers(p_offset => -1) ->> 'code', 'invalid_input', 'a negative offset is refused');
select tests.reset_role();

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.get_my_permissions() #>> '{permissions,customers,edit}', 'own', 'the sales role edits its own records');
select is(public.get_my_permissions() #>> '{permissions,customers,import}', null, 'and may not import');
select tests.reset_role();

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.get_my_permissions() -> 'permissions' -> 'customers', '{"view": "all"}'::jsonb, 'a viewer only views');
select tests.reset_role();

-- A matrix change applies from the next request: the default view own, widened to all,
-- then no view at all.
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((public.list_customers() ->> 'scope'), 'own', 'the sales role''s default scope, own, is reported');
select is((select array_agg(c ->> 'name' order by n) from jsonb_array_elements(public.list_customers() -> 'records') with ordinality as l (c, n)),
  array['Çınar Gıda', 'Işık Tekstil'], 'and only the caller''s own customers are listed');
select tests.reset_role();
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all', 'customers');
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((select array_agg(c ->> 'name' order by n) from jsonb_array_elements(public.list_customers() -> 'records') with ordinality as l (c, n)),
  array['Anka 100% Yazılım', 'Çınar Gıda', 'Işık Tekstil'], 'widened to all, the next request lists every customer');
select tests.reset_role();
delete from private.role_permissions
 where organization_id = :'alpha' and role_key = 'sales' and module = 'customers' and action = 'view';
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.list_customers() ->> 'code', 'permission_denied', 'without view the module refuses');
select ok(not (public.get_my_permissions() #> '{permissions,customers}' ? 'view'), 'and the matrix no longer shows it');
select tests.reset_role();

-- Another organization sees only its own customers; one without tables says so.
select tests.authenticate_as(:'beta_user', :'s_beta');
select public.bind_session_organization(:'beta') ->> 'success' as bound \gset
select is((select array_agg(c ->> 'name') from jsonb_array_elements(public.list_customers() -> 'records') c),
  array['Beta Müşteri'], 'a member of another organization sees only that organization''s customers');
select tests.reset_role();

select tests.authenticate_as(:'bare_user', :'s_bare');
select public.bind_session_organization(:'bare') ->> 'success' as bound \gset
select is(public.list_customers() ->> 'code', 'tables_not_found', 'an organization without tables says so');
select tests.reset_role();

select * from finish();
rollback;
