-- The default roles of a new organization (private.default_role_grants), as they come:
-- Satış Temsilcisi (sales) sees only the records it owns: another member's customer, deal
-- and quote are neither listed, nor opened by id, nor found by search_records, and the
-- home figures count only its own; Satış Müdürü (manager) sees the whole organization's.
begin;
select plan(21);

select tests.create_organization('gamma', 'Gamma A.Ş.') as gamma \gset
select private.migrate_tenant(:'gamma');
select tests.create_user('admin@gamma.test', 'user', 'Ayşe', 'Yönetici') as g_admin \gset
select tests.create_user('manager@gamma.test', 'user', 'Murat', 'Müdür') as g_manager \gset
select tests.create_user('sales@gamma.test', 'user', 'Selim', 'Satış') as g_sales \gset
select tests.create_user('sales2@gamma.test', 'user', 'Sena', 'İkinci') as g_sales2 \gset
select tests.add_member(:'g_admin', :'gamma', 'admin');
select tests.add_member(:'g_manager', :'gamma', 'manager');
select tests.add_member(:'g_sales', :'gamma', 'sales');
select tests.add_member(:'g_sales2', :'gamma', 'sales');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_manager, gen_random_uuid() as s_sales,
       gen_random_uuid() as s_sales2 \gset
select tests.bind_session(:'g_admin', :'s_admin', :'gamma');
select tests.bind_session(:'g_manager', :'s_manager', :'gamma');
select tests.bind_session(:'g_sales', :'s_sales', :'gamma');
select tests.bind_session(:'g_sales2', :'s_sales2', :'gamma');

select is((select jsonb_object_agg(action, scope order by action) from private.role_permissions
            where organization_id = :'gamma' and role_key = 'sales' and module = 'customers'),
  '{"create": "own", "delete": "own", "edit": "own", "export": "own", "view": "own"}'::jsonb,
  'a new organization''s Satış Temsilcisi views, creates, edits, deletes and exports only its own records');

-- The admin's records, and the sales member's: a customer, a deal and a quote each.
select tests.authenticate_as(:'g_admin', :'s_admin');
select public.create_customer('{"name": "Zümrüt Yapı"}') -> 'record' as c \gset
select (:'c'::jsonb) ->> 'id' as c_admin, (:'c'::jsonb) ->> 'updated_at' as c_admin_at \gset
select public.create_deal(jsonb_build_object('title', 'Zümrüt kule', 'amount', 1000, 'customer_id', :'c_admin')) #>> '{record,id}' as d_admin \gset
select public.save_quote(null, jsonb_build_object('customer_id', :'c_admin'),
  '[{"description": "Kurulum", "quantity": 1, "unit_price": 100, "vat_rate": 20}]') as q_admin \gset
select (:'q_admin'::jsonb) ->> 'id' as q_admin_id, (:'q_admin'::jsonb) ->> 'quote_number' as q_admin_number \gset
select tests.reset_role();
select tests.authenticate_as(:'g_sales', :'s_sales');
select public.create_customer('{"name": "Zümrüt Gıda"}') -> 'record' as c \gset
select (:'c'::jsonb) ->> 'id' as c_sales, (:'c'::jsonb) ->> 'updated_at' as c_sales_at \gset
select public.create_deal(jsonb_build_object('title', 'Zümrüt depo', 'amount', 300, 'customer_id', :'c_sales')) #>> '{record,id}' as d_sales \gset
select public.save_quote(null, jsonb_build_object('customer_id', :'c_sales'),
  '[{"description": "Destek", "quantity": 1, "unit_price": 50, "vat_rate": 20}]') as q_sales \gset
select (:'q_sales'::jsonb) ->> 'id' as q_sales_id, (:'q_sales'::jsonb) ->> 'quote_number' as q_sales_number \gset

/** The titles search_records finds for the query, over every module. */
create function pg_temp.found(p_query text) returns jsonb language sql as $$
  select coalesce(jsonb_agg(i ->> 'title' order by i ->> 'title'), '[]')
    from jsonb_array_elements(public.search_records(p_query) -> 'groups') g, jsonb_array_elements(g -> 'items') i;
$$;
grant execute on function pg_temp.found(text) to authenticated;

-- The sales member: their own records only.
select is(jsonb_path_query_array(public.list_customers(), '$.records[*].name'), '["Zümrüt Gıda"]'::jsonb,
  'sales: the customer list holds only their own customer');
select is(jsonb_path_query_array(public.list_deals(), '$.records[*].title'), '["Zümrüt depo"]'::jsonb,
  'sales: the deal list holds only their own deal');
select is(jsonb_path_query_array(public.list_quotes(), '$.records[*].quote_number'), jsonb_build_array(:'q_sales_number'),
  'sales: the quote list holds only their own quote');
select is(jsonb_build_array(public.get_customer(:'c_admin') ->> 'code', public.get_deal(:'d_admin') ->> 'code',
                            public.get_quote(:'q_admin_id') ->> 'code', public.get_quote_details(:'q_admin_id') ->> 'code'),
  '["not_found", "not_found", "not_found", "not_found"]'::jsonb,
  'sales: another member''s customer, deal and quote are not found by id');
select is(jsonb_build_array(public.get_customer(:'c_sales') #>> '{record,name}', public.get_deal(:'d_sales') #>> '{record,title}',
                            public.get_quote(:'q_sales_id') #>> '{record,quote_number}'),
  jsonb_build_array('Zümrüt Gıda', 'Zümrüt depo', :'q_sales_number'),
  'sales: their own customer, deal and quote open by id');
select is(pg_temp.found('zümrüt'), '["Zümrüt Gıda", "Zümrüt depo"]'::jsonb,
  'sales: search finds their own customer and deal, not another member''s');
select is(pg_temp.found(:'q_admin_number'), '[]'::jsonb, 'sales: search does not find another member''s quote by its number');
select is(pg_temp.found(:'q_sales_number'), jsonb_build_array(:'q_sales_number'), 'sales: but finds their own');
select public.get_dashboard() as dash_sales \gset
select is(jsonb_build_array((:'dash_sales'::jsonb) ->> 'deals_scope',
                            (select sum((p ->> 'count')::int) from jsonb_array_elements((:'dash_sales'::jsonb) -> 'pipeline') p),
                            (select sum((p ->> 'amount')::numeric) from jsonb_array_elements((:'dash_sales'::jsonb) -> 'pipeline') p)),
  '["own", 1, 300]'::jsonb, 'sales: the home figures count only their own deals');
select tests.reset_role();

-- Another sales member sees none of the first one's records.
select tests.authenticate_as(:'g_sales2', :'s_sales2');
select is(jsonb_build_array(public.list_customers() -> 'total', public.list_deals() -> 'total', public.list_quotes() -> 'total'),
  '[0, 0, 0]'::jsonb, 'another sales member lists none of the others'' customers, deals and quotes');
select is(jsonb_build_array(public.get_customer(:'c_sales') ->> 'code', public.get_deal(:'d_sales') ->> 'code',
                            public.get_quote(:'q_sales_id') ->> 'code'),
  '["not_found", "not_found", "not_found"]'::jsonb, 'nor opens them by id');
select is(pg_temp.found('zümrüt'), '[]'::jsonb, 'nor finds them by search');
select tests.reset_role();

-- The manager: the whole organization's.
select tests.authenticate_as(:'g_manager', :'s_manager');
select is(jsonb_path_query_array(public.list_customers(p_sort => 'name'), '$.records[*].name'),
  '["Zümrüt Gıda", "Zümrüt Yapı"]'::jsonb, 'manager: the customer list holds every member''s customer');
select is((public.list_deals() ->> 'total')::int, 2, 'manager: and every deal');
select is((public.list_quotes() ->> 'total')::int, 2, 'manager: and every quote');
select is(jsonb_build_array(public.get_customer(:'c_admin') #>> '{record,name}', public.get_deal(:'d_sales') #>> '{record,title}',
                            public.get_quote(:'q_admin_id') #>> '{record,quote_number}'),
  jsonb_build_array('Zümrüt Yapı', 'Zümrüt depo', :'q_admin_number'), 'manager: opens any member''s records by id');
select is(pg_temp.found('zümrüt'), '["Zümrüt Gıda", "Zümrüt Yapı", "Zümrüt depo", "Zümrüt kule"]'::jsonb,
  'manager: search finds every member''s');
select public.get_dashboard() as dash_manager \gset
select is(jsonb_build_array((:'dash_manager'::jsonb) ->> 'deals_scope',
                            (select sum((p ->> 'count')::int) from jsonb_array_elements((:'dash_manager'::jsonb) -> 'pipeline') p),
                            (select sum((p ->> 'amount')::numeric) from jsonb_array_elements((:'dash_manager'::jsonb) -> 'pipeline') p)),
  '["all", 2, 1300]'::jsonb, 'manager: the home figures count the whole organization''s deals');
select tests.reset_role();

-- The sales member still changes only their own (by id, another's is simply not there).
select tests.authenticate_as(:'g_sales', :'s_sales');
select is(public.update_customer(:'c_admin', '{"name": "Ele geçirildi"}', :'c_admin_at') ->> 'code', 'not_found',
  'sales: another member''s customer cannot be changed by id');
select is(public.update_customer(:'c_sales', '{"city": "Bursa"}', :'c_sales_at') #>> '{record,city}', 'Bursa', 'sales: their own can');
select tests.reset_role();

select * from finish();
rollback;
