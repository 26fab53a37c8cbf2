-- Saved views (personal and shared), likely duplicates, merging two records, and the
-- KVKK data-subject actions (export and erase), per role and for another organization.
begin;
select plan(41);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

-- ---------------------------------------------------------------------------------
-- Saved views
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.list_saved_views('customers')$$, '42501', null, 'anon cannot list saved views');
select tests.reset_role();

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.save_saved_view(null, 'customers', 'Aktif İstanbul', '{"filters": {"status": "active", "city": "İstanbul"}, "sort": "name"}')
  #>> '{view,id}' as personal_view \gset
select public.save_saved_view(null, 'customers', 'Ekip: adaylar', '{"filters": {"status": "lead"}}', true) #>> '{view,id}' as shared_view \gset
select is(jsonb_array_length(public.list_saved_views('customers') -> 'views'), 2, 'a member keeps personal and shared views');
select is(public.save_saved_view(null, 'customers', 'Kötü', '{"filters": {"tax_number": "1"}}') #>> '{fields,definition}', 'invalid',
  'a filter the module does not offer is refused');
select is(public.save_saved_view(null, 'customers', 'Kötü', '{"sort": "search_text"}') #>> '{fields,definition}', 'invalid',
  'so is an unsortable column');
select is(public.save_saved_view(null, 'customers', ' ', '{}') #>> '{fields,name}', 'required', 'a view needs a name');
select tests.reset_role();

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is((select array_agg(v ->> 'name') from jsonb_array_elements(public.list_saved_views('customers') -> 'views') v),
  array['Ekip: adaylar'], 'a colleague sees the shared view, not the personal one');
select is(public.save_saved_view(:'shared_view', 'customers', 'Ele geçirildi', '{}', true) ->> 'code', 'not_found',
  'and cannot change it');
select is(public.delete_saved_view('customers', :'personal_view') ->> 'code', 'not_found', 'nor delete another''s view');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(jsonb_array_length(public.list_saved_views('customers') -> 'views'), 0, 'another organization sees none of them');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.delete_saved_view('customers', :'shared_view') ->> 'success', 'true', 'an admin may delete a shared view');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Likely duplicates
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Işık Yazılım A.Ş.", "tax_number": "1234567890", "email": "info@isik.com.tr",
  "phone": "+905321234567"}') #>> '{record,id}' as isik \gset
select public.create_customer('{"name": "Deniz Lojistik", "email": "bilgi@deniz.com.tr"}') #>> '{record,id}' as deniz \gset
select is(public.find_customer_duplicates('{"name": "Başka Ad", "tax_number": "1234567890"}') #> '{duplicates,0,reasons}',
  '["tax_number"]'::jsonb, 'the same VKN is a likely duplicate');
select is(public.find_customer_duplicates('{"name": "Başka", "email": " INFO@isik.com.tr"}') #>> '{duplicates,0,id}', :'isik',
  'so is the same email, written differently');
select is(public.find_customer_duplicates('{"name": "Başka", "phone": "0532 123 45 67"}') #> '{duplicates,0,reasons}',
  '["phone"]'::jsonb, 'and the same phone, normalised first');
select is(public.find_customer_duplicates('{"name": "ISIK YAZILIM"}') #> '{duplicates,0,reasons}', '["name"]'::jsonb,
  'and a similar name, Turkish letters folded');
select is(jsonb_array_length(public.find_customer_duplicates('{"name": "Tamamen Farklı Şirket"}') -> 'duplicates'), 0,
  'a different name matches nothing');
select is(jsonb_array_length(public.find_customer_duplicates('{"name": "Işık Yazılım"}', :'isik') -> 'duplicates'), 0,
  'the record being edited is left out');
select public.create_contact(jsonb_build_object('customer_id', :'deniz', 'first_name', 'Gökhan', 'last_name', 'Çelik',
  'emails', '[{"label": "work", "value": "gokhan@deniz.com.tr"}]'::jsonb)) #>> '{record,id}' as gokhan \gset
select is(public.find_contact_duplicates('{"first_name": "Başka", "emails": [{"label": "home", "value": "Gokhan@Deniz.com.tr"}]}')
  #> '{duplicates,0,reasons}', '["email"]'::jsonb, 'a contact with the same email is a likely duplicate');
select is(public.find_contact_duplicates('{"first_name": "gokhan", "last_name": "celik"}') #>> '{duplicates,0,id}', :'gokhan',
  'and one with a similar name');
select is(public.find_contact_duplicates('{"first_name": "gokhan", "last_name": "celik", "emails": "x", "phones": 5}') #>> '{duplicates,0,id}',
  :'gokhan', 'emails and phones that are not lists match nothing, and the rest still matches (found by npm run fuzz)');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(jsonb_array_length(public.find_customer_duplicates('{"name": "x", "tax_number": "1234567890"}') -> 'duplicates'), 0,
  'another organization''s records are never duplicates');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Merge
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Isik Yazilim", "city": "Ankara"}') #>> '{record,id}' as isik_copy \gset
select public.create_contact(jsonb_build_object('customer_id', :'isik_copy', 'first_name', 'Ece', 'last_name', 'Kopya'))
  #>> '{record,id}' as copy_contact \gset
select public.add_record_note('customers', :'isik_copy', 'Kopyadaki not') ->> 'success' as noted \gset
select tests.reset_role();

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.merge_customers(:'isik', :'isik_copy') ->> 'code', 'permission_denied', 'a viewer cannot merge');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.merge_customers(:'isik', :'isik_copy') ->> 'code', 'not_found',
  'an own-scope editor cannot merge records that are not theirs');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.merge_customers(:'isik', :'isik', '{}') ->> 'code', 'invalid_input', 'a record is not merged into itself');
select is(public.merge_customers(:'isik', :'isik_copy', '{"city": "Ankara"}') #>> '{record,city}', 'Ankara',
  'the chosen value survives on the survivor');
select is(public.get_customer(:'isik_copy') ->> 'code', 'not_found', 'the other is gone from view');
select tests.reset_role();
select is((select customer_id::text from :"alpha_schema".contacts where id = :'copy_contact'), :'isik',
  'its contacts now belong to the survivor');
select is((select entity_id::text from :"alpha_schema".notes where body = 'Kopyadaki not'), :'isik', 'and its notes');
select is((select merged_into::text from :"alpha_schema".customers where id = :'isik_copy'), :'isik', 'the other points to the survivor');
select is((select array_agg(action order by id) from private.audit_log where action like 'customers.merge%'),
  array['customers.merge', 'customers.merged_away'], 'the merge is audited on both records');

-- ---------------------------------------------------------------------------------
-- KVKK: export and erase a contact
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_contact(:'gokhan', '{"title": "Genel Müdür", "phones": [{"label": "mobile", "value": "05551112233"}]}',
  (public.get_contact(:'gokhan') #>> '{record,updated_at}')::timestamptz) ->> 'success' as changed \gset
select public.add_record_note('contacts', :'gokhan', 'Gökhan Bey ile görüşüldü') ->> 'success' as noted \gset
select tests.reset_role();

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.export_contact_data(:'gokhan') ->> 'code', 'admin_required', 'a member who is not an admin cannot export');
select is(public.erase_contact(:'gokhan') ->> 'code', 'admin_required', 'nor erase');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.export_contact_data(:'gokhan') ->> 'code', 'not_found', 'another organization''s admin: not found');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.export_contact_data(:'gokhan') as held \gset
select is((:'held'::jsonb) #>> '{data,contact,first_name}', 'Gökhan', 'the export holds the contact');
select is((:'held'::jsonb) #>> '{data,customer,name}', 'Deniz Lojistik', 'its customer');
select is((:'held'::jsonb) #>> '{data,notes,0,body}', 'Gökhan Bey ile görüşüldü', 'its notes');
select ok(jsonb_array_length((:'held'::jsonb) #> '{data,field_history}') >= 1, 'and its field history');
select is(public.erase_contact(:'gokhan') ->> 'success', 'true', 'an admin erases the contact');
select is(public.export_contact_data(:'gokhan') ->> 'code', 'not_found', 'an erased contact is gone');
select tests.reset_role();
select is((select concat_ws('|', first_name, last_name, title, emails::text, phones::text, description, kvkk_consent_source)
             from :"alpha_schema".contacts where id = :'gokhan'), '||[]|[]', 'no personal data is left on the row');
select ok(not exists (select 1 from :"alpha_schema".notes where entity_id = :'gokhan')
          and not exists (select 1 from :"alpha_schema".field_history where record_id = :'gokhan'),
  'nor in notes or the field history');
select ok(not exists (select 1 from private.audit_log where target_id = :'gokhan' and details::text ~* 'gökhan|çelik|deniz'),
  'the audit entries hold no personal data');

select * from finish();
rollback;
