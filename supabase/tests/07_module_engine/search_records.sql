-- The header's search (public.search_records): every searchable module at once, Turkish-
-- folded, prefix matches first, per role (admin; a sales user whose customers scope is
-- 'own'; a role without view on deals), a member of another organization, anon, an unbound
-- session; bad input refused; a broad search walks the sort index and answers the same.
begin;
select plan(36);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'beta');
select o.schema_name as a from private.organizations o where o.id = :'alpha' \gset
select o.schema_name as b from private.organizations o where o.id = :'beta' \gset

select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as admin \gset
select tests.add_member(:'admin', :'alpha', 'admin');
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as sales \gset
select tests.add_member(:'sales', :'alpha', 'sales');
select tests.create_user('viewer@alpha.test', 'user', 'Veli', 'İzler') as viewer \gset
select tests.add_member(:'viewer', :'alpha', 'viewer');
select tests.create_user('admin@beta.test', 'user', 'Burak', 'Beta') as beta_admin \gset
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.create_user('nobody@alpha.test', 'user', 'Nur', 'Bağsız') as unbound \gset
select tests.add_member(:'unbound', :'alpha', 'user');

-- Sales see only their own customers (every other module's records still); viewers may
-- not view deals at all.
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select tests.set_role_scope(:'alpha', 'sales', 'view', 'own', 'customers');
delete from private.role_permissions
 where organization_id = :'alpha' and role_key = 'viewer' and module = 'deals';

-- Alpha's records: two "Işık" customers (the admin's and the sales user's), one with the
-- word inside its name, a deleted one, and records of the other modules.
select format($$insert into %I.customers (id, name, owner_id, created_by) values
  ('a0000000-0000-4000-8000-000000000001', 'IŞIK Yazılım A.Ş.', %L, %L),
  ('a0000000-0000-4000-8000-000000000002', 'Işıklar Gıda', %L, %L),
  ('a0000000-0000-4000-8000-000000000003', 'Kuzey Işık Enerji', %L, %L),
  ('a0000000-0000-4000-8000-000000000004', 'Işık Silinmiş', %L, %L)$$,
  :'a', :'admin', :'admin', :'sales', :'sales', :'admin', :'admin', :'admin', :'admin') as fill \gset
:fill;
select format('update %I.customers set deleted_at = now() where id = %L', :'a', 'a0000000-0000-4000-8000-000000000004') as gone \gset
:gone;
select format($$insert into %I.contacts (first_name, last_name, customer_id, owner_id, created_by)
  values ('Ayşe', 'Işıkçı', 'a0000000-0000-4000-8000-000000000001', %L, %L)$$, :'a', :'admin', :'admin') as fill \gset
:fill;
select format($$insert into %I.deals (title, customer_id, owner_id, created_by)
  values ('Işık lisans yenileme', 'a0000000-0000-4000-8000-000000000002', %L, %L)$$, :'a', :'sales', :'sales') as fill \gset
:fill;
select format($$insert into %I.quotes (quote_number, customer_id, quote_date, valid_until, currency, owner_id, created_by)
  values ('TKL-2026-00004', 'a0000000-0000-4000-8000-000000000001', current_date, current_date + 30, 'TRY', %L, %L),
         ('TKL-2026-00005', 'a0000000-0000-4000-8000-000000000002', current_date, current_date + 30, 'TRY', %L, %L)$$,
  :'a', :'admin', :'admin', :'sales', :'sales') as fill \gset
:fill;
select format($$insert into %I.tasks (title, owner_id, created_by) values ('Işık firmasını ara', %L, %L)$$,
  :'a', :'admin', :'admin') as fill \gset
:fill;
select format($$insert into %I.customers (name, owner_id, created_by) values ('Işık Beta Müşterisi', %L, %L)$$,
  :'b', :'beta_admin', :'beta_admin') as fill \gset
:fill;

select gen_random_uuid() as s_admin \gset
select gen_random_uuid() as s_sales \gset
select gen_random_uuid() as s_viewer \gset
select gen_random_uuid() as s_beta \gset
select gen_random_uuid() as s_unbound \gset
select tests.reset_role();
select tests.bind_session(:'admin', :'s_admin', :'alpha');
select tests.bind_session(:'sales', :'s_sales', :'alpha');
select tests.bind_session(:'viewer', :'s_viewer', :'alpha');
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.bind_session_organization(:'beta') ->> 'success' as bound \gset

-- The admin: every module, folded, prefix matches first, in Turkish order, with subtitles.
select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select public.search_records('isik') as found \gset
select is((:'found'::jsonb) ->> 'success', 'true', 'the admin searches');
select is((select jsonb_agg(g ->> 'module') from jsonb_array_elements((:'found'::jsonb) -> 'groups') g),
  '["customers", "contacts", "deals", "tasks"]'::jsonb, 'grouped by module, in module order, modules without matches left out');
select is((select jsonb_agg(i ->> 'title') from jsonb_array_elements((:'found'::jsonb) #> '{groups,0,items}') i),
  '["IŞIK Yazılım A.Ş.", "Işıklar Gıda", "Kuzey Işık Enerji"]'::jsonb,
  '"isik" finds IŞIK and Işık; titles starting with it first, then Turkish order; not the deleted one');
select is((:'found'::jsonb) #>> '{groups,1,items,0,title}', 'Ayşe Işıkçı', 'a contact is named by first and last name');
select is((:'found'::jsonb) #>> '{groups,1,items,0,subtitle}', 'IŞIK Yazılım A.Ş.', 'its subtitle is its customer');
select is((:'found'::jsonb) #>> '{groups,2,items,0,subtitle}', 'Işıklar Gıda', 'a deal''s subtitle is its customer');
select is((:'found'::jsonb) #>> '{groups,0,items,0,subtitle}', null, 'a customer has no link to show');
select ok((:'found'::jsonb) #>> '{groups,0,items,0,id}' = 'a0000000-0000-4000-8000-000000000001', 'each item carries its id to open');
select is(public.search_records('IŞIK', 1) #> '{groups,0,items}',
  jsonb_build_array((:'found'::jsonb) #> '{groups,0,items,0}'), 'the same in capitals; p_limit caps each module');

-- A quote by its number or part of it.
select is(jsonb_path_query_array(public.search_records('TKL-2026-00004'), '$.groups[*].items[*].title'),
  '["TKL-2026-00004"]'::jsonb, 'a quote by its whole number');
select is(jsonb_path_query_array(public.search_records('tkl-2026-00004'), '$.groups[*].items[*].subtitle'),
  '["IŞIK Yazılım A.Ş."]'::jsonb, 'in small letters too, with its customer as subtitle');
select is(jsonb_path_query_array(public.search_records('0000'), '$.groups[*].items[*].title'),
  '["TKL-2026-00004", "TKL-2026-00005"]'::jsonb, 'part of a number finds every quote that holds it');
select is(jsonb_path_query_array(public.search_records('100%'), '$.groups[*].items[*].title'),
  '[]'::jsonb, 'a % in the query is a character, not a wildcard');
select is(public.search_records('zzzz qqqq') -> 'groups', '[]'::jsonb, 'nothing found: no groups');

-- Bad input: a clear refusal.
select is(public.search_records('i') ->> 'code', 'query_too_short', 'one character is too short');
select is(public.search_records('  i   ') ->> 'code', 'query_too_short', 'spaces do not count');
select is(public.search_records(null) ->> 'code', 'query_too_short', 'no query is too short');
select is(public.search_records(repeat('a', 201)) ->> 'code', 'invalid_input', 'over 200 characters is refused');
select is(public.search_records('isik', 0) ->> 'code', 'invalid_input', 'p_limit under 1 is refused');
select is(public.search_records('isik', 21) ->> 'code', 'invalid_input', 'p_limit over 20 is refused');

-- The sales user: customers in 'own' scope; a link's subtitle only when they may see it.
select tests.reset_role();
select tests.authenticate_as(:'sales', :'s_sales');
select public.search_records('isik') as found \gset
select is((select jsonb_agg(i ->> 'title') from jsonb_array_elements((:'found'::jsonb) #> '{groups,0,items}') i),
  '["Işıklar Gıda"]'::jsonb, 'a sales user with own scope finds only their own customers');
select is((:'found'::jsonb) #>> '{groups,1,items,0,subtitle}', null,
  'a contact (all scope) whose customer is not theirs shows no customer name');
select is(jsonb_path_query_array(public.search_records('TKL-2026'), '$.groups[*].items[*].subtitle'),
  '[null, "Işıklar Gıda"]'::jsonb, 'quotes (all scope) name only the customers they may see');

-- The viewer: no view on deals, so no deals, without a word.
select tests.reset_role();
select tests.authenticate_as(:'viewer', :'s_viewer');
select public.search_records('isik') as found \gset
select is((:'found'::jsonb) ->> 'success', 'true', 'a role without view on one module still searches');
select is((select jsonb_agg(g ->> 'module') from jsonb_array_elements((:'found'::jsonb) -> 'groups') g),
  '["customers", "contacts", "tasks"]'::jsonb, 'the module it may not view is skipped silently');

-- Another organization's member finds nothing of alpha; only their own.
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(jsonb_path_query_array(public.search_records('isik'), '$.groups[*].items[*].title'),
  '["Işık Beta Müşterisi"]'::jsonb, 'a member of another organization finds only their own organization''s records');
select is(public.search_records('TKL-2026') -> 'groups', '[]'::jsonb, 'and none of alpha''s quotes');

-- Anonymous and unbound sessions: the standard refusals.
select tests.reset_role();
select tests.authenticate_as(:'unbound', :'s_unbound');
select is(public.search_records('isik') ->> 'code', 'organization_context_required', 'a session bound to no organization is refused');
select tests.act_as_anon();
select throws_ok($$select public.search_records('isik')$$, '42501', null, 'anon may not call it at all');
select tests.reset_role();
select is(private.search_records('isik', 5) ->> 'code', 'authentication_required', 'without a user the guard refuses');

-- A broad search (the planner expects over 1,000 matches) walks the sort index and answers
-- as the narrow path does: prefix matches first ("Işık …", "ışıl …" folds too), then Turkish order.
select format($$insert into %I.customers (name, owner_id, created_by)
  select case g %% 3 when 0 then 'Işık ' when 1 then 'Çınar Işık ' else 'Isıtma ' end || g, %L, %L
    from generate_series(1, 6000) g$$, :'a', :'admin', :'admin') as fill \gset
:fill;
select format('analyze %I.customers', :'a') as analyze_it \gset
:analyze_it;
select tests.reset_role();
select tests.authenticate_as(:'admin', :'s_admin');
select is(jsonb_path_query_array(public.search_records('isik', 3), '$.groups[0].items[*].title'),
  '["Işık 1002", "Işık 1005", "Işık 1008"]'::jsonb, 'broad: titles starting with the text first, in Turkish order');
select is(jsonb_path_query_array(public.search_records('cinar', 3), '$.groups[0].items[*].title'),
  '["Çınar Işık 1", "Çınar Işık 10", "Çınar Işık 100"]'::jsonb, 'broad: ç and ı fold in the prefix ranges too');
select is(jsonb_path_query_array(public.search_records('cinar isik 60', 2), '$.groups[0].items[*].title'),
  '["Çınar Işık 601", "Çınar Işık 604"]'::jsonb, 'narrow: the same order');
select is(jsonb_path_query_array(public.search_records('isik 599', 5), '$.groups[0].items[*].title'),
  '["Işık 5991", "Işık 5994", "Işık 5997", "Çınar Işık 5992", "Çınar Işık 5995"]'::jsonb,
  'prefix matches first, then the others in Turkish order');
select tests.reset_role();
select is((select count(*)::int from private.search_prefix_ranges('cisgou')), 16, 'at most 16 prefix ranges');
select is((select count(*)::int from private.search_prefix_ranges('tkl-2026')), 1, 'a number is one range');

select * from finish();
rollback;
