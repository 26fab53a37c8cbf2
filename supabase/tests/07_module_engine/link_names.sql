-- Linked records by name: every record answer of the engine (list rows, whole export rows,
-- a single record) carries <link>_name for each link of its module (private.module_links),
-- the linked record's title as the caller may see it; sorting by a link sorts by that name
-- in Turkish order; another organization sees none of it.
begin;
select plan(25);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'beta');
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin \gset
select gen_random_uuid() as s_sales \gset
select gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
-- Sales see only their own customers (every deal, task and contact still).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select tests.set_role_scope(:'alpha', 'sales', 'view', 'own', 'customers');

-- Customers of the admin (Çelik, Cansu, Zeynep, a deleted Silinmiş) and of the sales member (Ağa).
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Çelik Yapı"}') #>> '{record,id}' as c_celik \gset
select public.create_customer('{"name": "Cansu Gıda"}') #>> '{record,id}' as c_cansu \gset
select public.create_customer('{"name": "Zeynep Tekstil"}') #>> '{record,id}' as c_zeynep \gset
select public.create_customer('{"name": "Silinmiş Ltd"}') #>> '{record,id}' as c_gone \gset
select public.create_customer(jsonb_build_object('name', 'Ağa Ticaret', 'owner_id', :'alpha_sales')) #>> '{record,id}' as c_aga \gset
select public.create_contact(jsonb_build_object('first_name', 'Deniz', 'last_name', 'Işık', 'customer_id', :'c_celik')) #>> '{record,id}' as k_deniz \gset

select public.create_deal(jsonb_build_object('title', 'D-Çelik', 'customer_id', :'c_celik')) as created_deal \gset
select is(:'created_deal'::jsonb #>> '{record,customer_name}', 'Çelik Yapı', 'create_deal answers with the customer''s name');
select :'created_deal'::jsonb #>> '{record,id}' as d_celik \gset
select public.create_deal(jsonb_build_object('title', 'D-Cansu', 'customer_id', :'c_cansu')) #>> '{record,id}' as d_cansu \gset
select public.create_deal(jsonb_build_object('title', 'D-Zeynep', 'customer_id', :'c_zeynep')) #>> '{record,id}' as d_zeynep \gset
select public.create_deal(jsonb_build_object('title', 'D-Ağa', 'customer_id', :'c_aga')) #>> '{record,id}' as d_aga \gset
select public.create_deal(jsonb_build_object('title', 'D-Silinmiş', 'customer_id', :'c_gone')) #>> '{record,id}' as d_gone \gset
select public.create_deal('{"title": "D-Yok"}') #>> '{record,id}' as d_none \gset
select public.delete_customers(array[:'c_gone']::uuid[]) ->> 'success' as deleted \gset
select public.create_task(jsonb_build_object('title', 'Ara', 'customer_id', :'c_celik', 'contact_id', :'k_deniz', 'deal_id', :'d_celik')) #>> '{record,id}' as t_call \gset

select is(public.get_deal(:'d_celik') #>> '{record,customer_name}', 'Çelik Yapı', 'get_deal names the customer');
select is((select r ->> 'customer_name' from jsonb_array_elements(public.list_deals(null, null, 'title', false, 50) -> 'records') r
            where r ->> 'id' = :'d_cansu'), 'Cansu Gıda', 'a list row names the customer');
select is(public.get_task(:'t_call') -> 'record' ->> 'contact_name', 'Deniz Işık', 'a task names its contact (first and last name)');
select is((select jsonb_build_object('customer', r ->> 'customer_name', 'contact', r ->> 'contact_name', 'deal', r ->> 'deal_name')
             from jsonb_array_elements(public.list_tasks() -> 'records') r where r ->> 'id' = :'t_call'),
          '{"customer": "Çelik Yapı", "contact": "Deniz Işık", "deal": "D-Çelik"}'::jsonb,
          'a task list row names its customer, contact and deal');
select is((select r ->> 'customer_name' from jsonb_array_elements(public.list_contacts() -> 'records') r where r ->> 'id' = :'k_deniz'),
          'Çelik Yapı', 'a contact list row names its company');
select ok((select r ? 'customer_name' and r ->> 'customer_name' is null
             from jsonb_array_elements(public.list_deals(null, null, 'title', false, 50) -> 'records') r where r ->> 'id' = :'d_gone'),
          'a deleted customer gives no name (the key is there, null)');
select is((select r ->> 'customer_name' from jsonb_array_elements(public.export_records('deals', null, null, 'title', false) -> 'records') r
            where r ->> 'id' = :'d_celik'), 'Çelik Yapı', 'an export''s whole rows carry the name');

-- Sorting by the link sorts by the customer's name, Turkish order (C before Ç), no name last.
select is(array(select r ->> 'customer_name' from jsonb_array_elements(public.list_deals(null, null, 'customer_id', false, 50) -> 'records') r),
          array['Ağa Ticaret', 'Cansu Gıda', 'Çelik Yapı', 'Zeynep Tekstil', null, null],
          'deals sorted by customer: Ağa, Cansu, Çelik, Zeynep, then those without a name');
select is(array(select r ->> 'title' from jsonb_array_elements(public.list_deals(null, null, 'customer_id', true, 50) -> 'records') r
                 where r ->> 'customer_name' is not null),
          array['D-Zeynep', 'D-Çelik', 'D-Cansu', 'D-Ağa'], 'and descending, backwards');
select is(array(select r ->> 'customer_name' from jsonb_array_elements(public.list_deals(null, null, 'customer_id', true, 50) -> 'records') r),
          array['Zeynep Tekstil', 'Çelik Yapı', 'Cansu Gıda', 'Ağa Ticaret', null, null],
          'descending too, those without a name come last');
select is(array(select r ->> 'customer_name' from jsonb_array_elements(public.list_deals(null, null, 'customer_id', false, 3, 2) -> 'records') r),
          array['Çelik Yapı', 'Zeynep Tekstil', null], 'a later page goes on where the first stopped, into those without a name');
select is(array(select r ->> 'title' from jsonb_array_elements(public.list_deals(null, jsonb_build_object('customer_id', :'c_cansu')) -> 'records') r),
          array['D-Cansu'], 'filtering by the link keeps that customer''s deals');

-- An 'own'-scope caller: the names of customers they may not open do not show.
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((select r ->> 'customer_name' from jsonb_array_elements(public.list_deals(null, null, 'title', false, 50) -> 'records') r
            where r ->> 'id' = :'d_celik'), null, 'own scope: another owner''s customer gives no name in the list');
select is(public.get_deal(:'d_celik') #>> '{record,customer_name}', null, 'nor in the single record');
select is(public.get_deal(:'d_celik') #>> '{record,customer_id}', :'c_celik', '(the deal itself is visible, with its link)');
select is((select r ->> 'customer_name' from jsonb_array_elements(public.list_deals(null, null, 'title', false, 50) -> 'records') r
            where r ->> 'id' = :'d_aga'), 'Ağa Ticaret', 'their own customer is named');
select is(array(select r ->> 'title' from jsonb_array_elements(public.list_deals(null, null, 'customer_id', false, 50) -> 'records') r
                 where r ->> 'customer_name' is not null),
          array['D-Ağa'], 'sorting by customer sorts by what they may see only');
select is(array(select r ->> 'customer_name' from jsonb_array_elements(public.list_deals(null, null, 'customer_id', false, 50) -> 'records') r),
          array['Ağa Ticaret', null, null, null, null, null], 'the deals of customers they may not open come last, unnamed');
select is((select r ->> 'contact_name' from jsonb_array_elements(public.list_tasks() -> 'records') r where r ->> 'id' = :'t_call'),
          'Deniz Işık', 'contacts they may view (scope all) are still named');

-- Another organization sees nothing of alpha's.
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(jsonb_array_length(public.list_deals() -> 'records'), 0, 'a member of another organization lists no deals of alpha');
select is(public.get_deal(:'d_celik') ->> 'code', 'not_found', 'nor gets one by id (no name with it)');
select tests.reset_role();

-- What a record's answer asks about the caller (counted in this transaction): the guard once;
-- the view scopes only for a module with links, once however many links it has.
set local track_functions = 'all';
create temporary view calls_so_far as
  select f.funcname::text as name, f.calls::int as calls from pg_stat_xact_user_functions f where f.schemaname = 'private';
grant select on calls_so_far to authenticated;
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select coalesce((select calls from calls_so_far where name = 'caller_context'), 0) as guards_before,
       coalesce((select calls from calls_so_far where name = 'caller_scopes'), 0) as scopes_before \gset
select public.get_customer(:'c_celik') ->> 'success' as customer_read \gset
select is(array[coalesce((select calls from calls_so_far where name = 'caller_context'), 0) - :guards_before,
                coalesce((select calls from calls_so_far where name = 'caller_scopes'), 0) - :scopes_before],
          array[1, 0], 'a customer''s answer (no links) asks who calls once and looks up no view scopes');
select coalesce((select calls from calls_so_far where name = 'caller_scopes'), 0) as scopes_before \gset
select is(public.get_task(:'t_call') #>> '{record,contact_name}', 'Deniz Işık', 'a task''s answer names its links');
select is(coalesce((select calls from calls_so_far where name = 'caller_scopes'), 0) - :scopes_before, 1,
          'and looks up the view scopes once for its three links');
select tests.reset_role();

select * from finish();
rollback;
