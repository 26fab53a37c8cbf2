-- The timeline names a linked record by the lists' rule (private.link_names_sql, through
-- private.timeline_value_label): a record the caller may open by its name, one they may not
-- (another owner's, under an 'own' view scope; deleted) with no name at all, so the page says
-- "Erişiminiz olmayan kayıt"; allowed for a member who sees the whole organization, denied
-- for a sales user who sees only their own customers, and for another organization's member.
begin;
select plan(8);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as a from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yılmaz') as admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as sales \gset
select tests.create_user('team@alpha.test', 'user', 'Tülay', 'Takım') as team \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'admin', :'alpha', 'admin');
select tests.add_member(:'sales', :'alpha', 'sales');
select tests.add_member(:'team', :'alpha', 'user');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- The sales role sees only its own customers and deals; the team role every customer and deal.
update private.role_permissions set scope = 'own'
 where organization_id = :'alpha' and role_key = 'sales' and module in ('customers', 'deals') and action = 'view';
insert into private.role_permissions (organization_id, role_key, module, action, scope)
select :'alpha', 'user', m.key, 'view', 'all' from private.modules m where m.key in ('customers', 'deals')
on conflict (organization_id, role_key, module, action) do update set scope = 'all';

-- The sales user's deal moved from the admin's customer to their own, then to a deleted one.
select format($$insert into %I.customers (id, name, owner_id, created_by) values
  ('a0000000-0000-4000-8000-000000000001', 'Işık Yazılım A.Ş.', %L, %L),
  ('a0000000-0000-4000-8000-000000000002', 'Satış Müşterisi', %L, %L),
  ('a0000000-0000-4000-8000-000000000003', 'Silinmiş Müşteri', %L, %L)$$,
  :'a', :'admin', :'admin', :'sales', :'sales', :'sales', :'sales') as fill \gset
:fill;
select format('update %I.customers set deleted_at = now() where id = %L', :'a', 'a0000000-0000-4000-8000-000000000003') as gone \gset
:gone;
select format($$insert into %I.deals (id, title, customer_id, owner_id, created_by)
  values ('d0000000-0000-4000-8000-000000000001', 'Bakım işi', 'a0000000-0000-4000-8000-000000000002', %L, %L)$$,
  :'a', :'sales', :'sales') as fill \gset
:fill;
select format($$insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by, changed_at) values
  ((select entity_type from private.modules where key = 'deals'), 'd0000000-0000-4000-8000-000000000001', 'customer_id',
   '"a0000000-0000-4000-8000-000000000001"', '"a0000000-0000-4000-8000-000000000002"', %L, now() - interval '2 minutes'),
  ((select entity_type from private.modules where key = 'deals'), 'd0000000-0000-4000-8000-000000000001', 'customer_id',
   '"a0000000-0000-4000-8000-000000000002"', '"a0000000-0000-4000-8000-000000000003"', %L, now() - interval '1 minute')$$,
  :'a', :'admin', :'admin') as fill \gset
:fill;

select gen_random_uuid() as s_sales, gen_random_uuid() as s_team, gen_random_uuid() as s_beta \gset
select tests.authenticate_as(:'sales', :'s_sales');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select public.get_record_timeline('deals', 'd0000000-0000-4000-8000-000000000001') -> 'entries' as by_sales \gset
select tests.reset_role();
select tests.authenticate_as(:'team', :'s_team');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select public.get_record_timeline('deals', 'd0000000-0000-4000-8000-000000000001') -> 'entries' as by_team \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.bind_session_organization(:'beta') ->> 'success' as bound \gset
select public.get_record_timeline('deals', 'd0000000-0000-4000-8000-000000000001') as by_beta \gset
select tests.reset_role();

-- Who sees the whole organization: every customer that is there by name; the deleted one has none.
select is((select jsonb_agg(jsonb_build_array(e ->> 'old_label', e ->> 'new_label') order by e ->> 'at')
             from jsonb_array_elements(:'by_team'::jsonb) e where e ->> 'field' = 'customer_id'),
  '[["Işık Yazılım A.Ş.", "Satış Müşterisi"], ["Satış Müşterisi", null]]'::jsonb,
  'all scope: the linked customers by name, a deleted one without a name');
-- Who sees only their own: their customer by name, the admin's customer without one.
select is((select jsonb_agg(jsonb_build_array(e ->> 'old_label', e ->> 'new_label') order by e ->> 'at')
             from jsonb_array_elements(:'by_sales'::jsonb) e where e ->> 'field' = 'customer_id'),
  '[[null, "Satış Müşterisi"], ["Satış Müşterisi", null]]'::jsonb,
  'own scope: another owner''s customer gives no name, their own does');
select is((select count(*)::int from jsonb_array_elements(:'by_sales'::jsonb) e
            where e::text like '%Işık Yazılım%'), 0, 'own scope: the hidden customer''s name is nowhere in the timeline');
select is((select count(*)::int from jsonb_array_elements(:'by_sales'::jsonb) e
            where e ->> 'field' = 'customer_id' and e ->> 'old' is not null), 2, 'the change entries are still there');
-- Another organization's member reads nothing of it.
select is(:'by_beta'::jsonb ->> 'success', 'false', 'another organization''s admin: no timeline');
select is(:'by_beta'::jsonb::text like '%Işık%', false, 'another organization''s admin: no name');

-- The label function itself, as the sales user: a hidden link is null, an owner is named.
select tests.set_request_identity('none', :'sales',
  json_build_object('sub', :'sales', 'role', 'authenticated', 'session_id', :'s_sales')::text);
select is(private.timeline_value_label('deals', :'a', 'customer_id', '"a0000000-0000-4000-8000-000000000001"'), null,
  'timeline_value_label: another owner''s customer, under an own scope: no name');
select is(private.timeline_value_label('deals', :'a', 'owner_id', to_jsonb(:'admin'::text)), 'Ayşe Yılmaz',
  'timeline_value_label: a person by name');
select tests.reset_role();

select * from finish();
rollback;
