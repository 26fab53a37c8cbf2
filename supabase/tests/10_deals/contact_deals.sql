-- A contact's deals: list_deals filtered by contact_id through deal_contacts (the record
-- engine's filter through a link table, private.module_link_filters), within the caller's
-- scope ('own': their own deals), only by contacts the caller may see; refused without
-- deals' view permission, nothing for another organization's member, anon refused.
begin;
select plan(18);
select tests.send_request_tokens();

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('sales2@alpha.test', 'user', 'Sena', 'İkinci') as alpha_sales2 \gset
select tests.create_user('nodeals@alpha.test', 'user', 'Nuri', 'Fırsatsız') as alpha_nodeals \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_sales2', :'alpha', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- The sales role, explicitly: its own deals only, every customer and contact.
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all', 'customers');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'alpha', 'sales', 'deals', 'view', 'own'), (:'alpha', 'sales', 'deals', 'create', 'own'),
       (:'alpha', 'sales', 'deals', 'edit', 'own'), (:'alpha', 'sales', 'contacts', 'view', 'all')
on conflict (organization_id, role_key, module, action) do update set scope = excluded.scope;
-- A role that sees contacts but no deals.
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'nodeals', 'Fırsatsız');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'alpha', 'nodeals', 'contacts', 'view', 'all');
select tests.add_member(:'alpha_nodeals', :'alpha', 'nodeals');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_sales2,
       gen_random_uuid() as s_nodeals, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_sales2', :'s_sales2', :'alpha');
select tests.bind_session(:'alpha_nodeals', :'s_nodeals', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

-- One customer with two contacts; the admin's two deals of that customer, one with each
-- contact; each salesperson's deal with the first contact.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Işık Yazılım A.Ş."}') #>> '{record,id}' as isik \gset
select public.create_contact(jsonb_build_object('first_name', 'Şule', 'last_name', 'Kaya', 'customer_id', :'isik')) #>> '{record,id}' as sule \gset
select public.create_contact(jsonb_build_object('first_name', 'Ozan', 'last_name', 'Er', 'customer_id', :'isik')) #>> '{record,id}' as ozan \gset
select public.create_deal(jsonb_build_object('title', 'ERP lisansı', 'customer_id', :'isik')) #>> '{record,id}' as erp \gset
select public.create_deal(jsonb_build_object('title', 'Destek', 'customer_id', :'isik')) #>> '{record,id}' as support \gset
select public.set_deal_contacts(:'erp', array[:'sule']::uuid[]) ->> 'success' as done \gset
select public.set_deal_contacts(:'support', array[:'ozan']::uuid[]) ->> 'success' as done \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.create_deal(jsonb_build_object('title', 'Selim fırsatı', 'customer_id', :'isik')) #>> '{record,id}' as own_deal \gset
select public.set_deal_contacts(:'own_deal', array[:'sule']::uuid[]) ->> 'success' as done \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales2', :'s_sales2');
select public.create_deal(jsonb_build_object('title', 'Sena fırsatı', 'customer_id', :'isik')) #>> '{record,id}' as other_deal \gset
select public.set_deal_contacts(:'other_deal', array[:'sule']::uuid[]) ->> 'success' as done \gset
select tests.reset_role();

-- anon
select tests.act_as_anon();
select throws_ok(format('select public.list_deals(null, %L)', jsonb_build_object('contact_id', :'sule')), '42501', null,
  'anon cannot list a contact''s deals');
select tests.reset_role();

-- Allowed, scope all: exactly the deals the contact is on.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.list_deals(null, jsonb_build_object('contact_id', :'sule'), 'title', false) as sule_deals \gset
select is((select array_agg(r.value ->> 'id' order by r.place) from jsonb_array_elements(:'sule_deals'::jsonb -> 'records') with ordinality r (value, place)),
          array[:'erp', :'own_deal', :'other_deal'],
          'admin: the contact''s deals, every owner''s, and not the customer''s other deal');
select is((:'sule_deals'::jsonb) ->> 'total', '3', 'counted');
select is((select array_agg(r ->> 'id') from jsonb_array_elements(public.list_deals(null, jsonb_build_object('contact_id', :'ozan')) -> 'records') r),
          array[:'support'], 'the other contact: its one deal');
select is((public.list_deals(null, jsonb_build_object('contact_id', jsonb_build_array(:'sule', :'ozan'))) ->> 'total')::int, 4,
          'several contacts: the deals of any of them');
select is((select array_agg(r ->> 'id') from jsonb_array_elements(
             public.list_deals('erp', jsonb_build_object('contact_id', :'sule', 'customer_id', :'isik')) -> 'records') r),
          array[:'erp'], 'with a search and another filter');
select is(public.list_deals(null, '{"contact_id": "nope"}') ->> 'code', 'invalid_input', 'a value that is not an id is refused');
select is(public.list_deals(null, '{"contact_id": {"is_null": true}}') ->> 'code', 'invalid_input', 'as is a condition');
select is((public.list_deals(null, jsonb_build_object('contact_id', gen_random_uuid())) ->> 'total')::int, 0,
          'a contact that does not exist has no deals');
select is(jsonb_array_length(public.export_records('deals', null, jsonb_build_object('contact_id', :'sule')) -> 'records'), 3,
          'the export takes the same filter');
select tests.reset_role();

-- Scope own: only the caller's own deals among the contact's.
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((select array_agg(r ->> 'id') from jsonb_array_elements(public.list_deals(null, jsonb_build_object('contact_id', :'sule')) -> 'records') r),
          array[:'own_deal'], 'sales (own): only their own deal with the contact, not a colleague''s nor the admin''s');
select is(public.list_deals(null, jsonb_build_object('contact_id', :'sule')) ->> 'total', '1', 'and counts only it');
select tests.reset_role();
-- Contacts own: a contact the caller may not see filters to nothing, even their own deal with it.
update private.role_permissions set scope = 'own' where organization_id = :'alpha' and role_key = 'sales' and module = 'contacts' and action = 'view';
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.list_deals(null, jsonb_build_object('contact_id', :'sule')) ->> 'total', '0',
          'a contact the caller may not see: no deals told by it');
select tests.reset_role();

-- Denied: no deals' view permission.
select tests.authenticate_as(:'alpha_nodeals', :'s_nodeals');
select is(public.list_deals(null, jsonb_build_object('contact_id', :'sule')) ->> 'code', 'permission_denied',
          'without deals'' view permission: refused');
select tests.reset_role();

-- Another organization's member: nothing of alpha's.
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.list_deals(null, jsonb_build_object('contact_id', :'sule')) ->> 'success', 'true', 'beta admin: answered');
select is(public.list_deals(null, jsonb_build_object('contact_id', :'sule')) ->> 'total', '0', 'but with none of alpha''s deals');
select tests.reset_role();

-- A deleted deal or contact: left out.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.delete_deals(array[:'erp']::uuid[]) ->> 'success' as done \gset
select is(public.list_deals(null, jsonb_build_object('contact_id', :'sule')) ->> 'total', '2', 'a deleted deal is left out');
select public.delete_contacts(array[:'ozan']::uuid[]) ->> 'success' as done \gset
select is(public.list_deals(null, jsonb_build_object('contact_id', :'ozan')) ->> 'total', '0', 'a deleted contact has no deals listed');
select tests.reset_role();

select * from finish();
rollback;
