-- Customers and contacts through their public façade: the module rules (VKN/TCKN with
-- the checksum, phones to +90, email, website, tags, KVKK and İYS consent), Turkish
-- search over name, tax number, email and phone, filters, sort, bulk edit, the own/all
-- scope by id, the timeline, and anon refused.
begin;
select plan(54);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('sales2@alpha.test', 'user', 'Sena', 'İkinci') as alpha_sales2 \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_sales2', :'alpha', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_sales2, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_sales2', :'s_sales2', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

select tests.act_as_anon();
select throws_ok($$select public.create_customer('{"name": "Anon"}')$$, '42501', null, 'anon cannot create customers');
select throws_ok($$select public.list_contacts()$$, '42501', null, 'anon cannot list contacts');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Customer rules
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "  Işık Yazılım A.Ş. ", "kind": "company", "tax_number": "1234567891", "status": "active",
  "phone": "0532 123 45 67", "email": " Info@IsikYazilim.com.TR ", "website": "isikyazilim.com.tr", "city": "İstanbul",
  "tags": ["yazılım", " ihracat ", "yazılım"]}') as isik \gset
select is((:'isik'::jsonb) #>> '{fields,tax_number}', 'invalid_vkn', 'a VKN with a wrong checksum is refused on its field');
select public.create_customer('{"name": "  Işık Yazılım A.Ş. ", "kind": "company", "tax_number": "1234567890", "status": "active",
  "phone": "0532 123 45 67", "email": " Info@IsikYazilim.com.TR ", "website": "isikyazilim.com.tr", "city": "İstanbul",
  "tags": ["yazılım", " ihracat ", "yazılım"]}') as isik \gset
select is((:'isik'::jsonb) ->> 'success', 'true', 'a company with a valid VKN is created');
select is((:'isik'::jsonb) #>> '{record,name}', 'Işık Yazılım A.Ş.', 'the name is trimmed');
select is((:'isik'::jsonb) #>> '{record,phone}', '+905321234567', 'the phone is normalised to +90');
select is((:'isik'::jsonb) #>> '{record,email}', 'info@isikyazilim.com.tr', 'the email is lowercased and trimmed');
select is((:'isik'::jsonb) #> '{record,tags}', '["ihracat", "yazılım"]'::jsonb, 'tags are trimmed and distinct');
select is((:'isik'::jsonb) #>> '{record,owner_id}', :'alpha_admin', 'the creator owns it');
select ok(not ((:'isik'::jsonb) -> 'record' ? 'search_text'), 'the search column is not in the answer');
select (:'isik'::jsonb) #>> '{record,id}' as isik_id, (:'isik'::jsonb) #>> '{record,updated_at}' as isik_at \gset

select is(public.create_customer('{"name": "Ali Veli", "kind": "person", "tax_number": "10000000146"}') ->> 'success', 'true',
  'a person with a valid TCKN is created');
select is(public.create_customer('{"name": "Ali Veli", "kind": "person", "tax_number": "10000000147"}') #>> '{fields,tax_number}',
  'invalid_tckn', 'a TCKN with a wrong checksum is refused');
select is(public.create_customer('{"name": "Kısa", "kind": "person", "tax_number": "1234567890"}') #>> '{fields,tax_number}',
  'invalid_tckn', 'a VKN given for a person is refused');
select is(public.create_customer('{"name": ""}') #>> '{fields,name}', 'required', 'a name is required');
select is(public.create_customer('{"name": "X", "phone": "12"}') #>> '{fields,phone}', 'invalid_phone', 'a bad phone is refused');
select is(public.create_customer('{"name": "X", "email": "not-mail"}') #>> '{fields,email}', 'invalid_email', 'a bad email is refused');
select is(public.create_customer('{"name": "X", "website": "no site"}') #>> '{fields,website}', 'invalid_website', 'a bad website is refused');
select is(public.create_customer('{"name": "X", "status": "gone"}') #>> '{fields,status}', 'invalid_option', 'an unknown status is refused');
select is(public.create_customer('{"name": "X", "tags": [1]}') #>> '{fields,tags}', 'invalid_tags', 'tags must be strings');
select is(public.update_customer(:'isik_id', '{"tags": []}', :'isik_at') #> '{record,tags}', '[]'::jsonb,
  'an empty list clears the tags');
select (public.get_customer(:'isik_id') #>> '{record,updated_at}') as isik_at \gset
select is(public.create_customer(jsonb_build_object('name', repeat('x', 301))) #>> '{fields,name}', 'too_long',
  'a name over its declared 300 characters answers on its field');
select is(public.create_customer('{"name": "X", "owner_id": "00000000-0000-4000-8000-000000000000"}') #>> '{fields,owner_id}',
  'invalid_owner', 'an owner must be a member');
select is(public.create_customer('[1]') ->> 'code', 'invalid_input', 'values must be an object');

-- Changing the kind checks the stored tax number again.
select is(public.update_customer(:'isik_id', '{"kind": "person"}', :'isik_at') #>> '{fields,tax_number}', 'invalid_tckn',
  'a company''s VKN does not pass as a person''s TCKN');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where action = 'customers.create' and organization_id = :'alpha'), 2,
  'refused creations wrote nothing: two customers were created');

-- ---------------------------------------------------------------------------------
-- Search, filters, sort, scope
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.create_customer('{"name": "Çelik Gıda", "city": "Ankara", "status": "lead", "tags": ["gıda"]}') ->> 'success' as made \gset
select public.create_customer('{"name": "Öztürk İnşaat", "city": "İzmir", "status": "active"}') ->> 'success' as made \gset
select (public.create_customer('{"name": "Satışçının Müşterisi"}') #>> '{record,id}') as sales_customer \gset
select is((public.list_customers(p_search => 'isik') #>> '{records,0,name}'), 'Işık Yazılım A.Ş.', '"isik" finds Işık');
select is((public.list_customers(p_search => 'IŞIK') ->> 'total')::int, 1, '"IŞIK" finds it too');
select is((public.list_customers(p_search => '1234567890') ->> 'total')::int, 1, 'search covers the tax number');
select is((public.list_customers(p_search => 'isikyazilim') ->> 'total')::int, 1, 'and the email');
select is((public.list_customers(p_search => '5321234567') ->> 'total')::int, 1, 'and the phone');
select is((select array_agg(r ->> 'name' order by n) from jsonb_array_elements(public.list_customers() -> 'records') with ordinality l (r, n)),
  array['Ali Veli', 'Çelik Gıda', 'Işık Yazılım A.Ş.', 'Öztürk İnşaat', 'Satışçının Müşterisi'],
  'the default sort is by name, Turkish letters beside their Latin ones');
select is((public.list_customers(p_filters => '{"status": "active"}') ->> 'total')::int, 2, 'a filter on status');
select is((public.list_customers(p_filters => '{"status": ["active", "lead"], "city": "Ankara"}') ->> 'total')::int, 1,
  'filters combine (several values, several columns)');
select is((public.list_customers(p_filters => '{"tags": ["gıda"]}') ->> 'total')::int, 1, 'a filter on tags');
select is((public.list_customers(p_filters => '{"owner_id": "me"}') ->> 'total')::int, 3, '"me" filters the caller''s own');
select is(public.list_customers(p_filters => '{"tax_number": "1"}') ->> 'code', 'invalid_input', 'an unlisted filter is refused');
select is(public.list_customers(p_filters => '{"owner_id": "not-a-uuid"}') ->> 'code', 'invalid_input', 'a malformed value is refused');
-- (One transaction: equal dates, so the id decides; descending is ascending reversed.)
select is((select array_agg(r ->> 'id' order by n desc) from jsonb_array_elements(
             public.list_customers(p_sort => 'created_at', p_descending => false) -> 'records') with ordinality l (r, n)),
          (select array_agg(r ->> 'id' order by n) from jsonb_array_elements(
             public.list_customers(p_sort => 'created_at', p_descending => true) -> 'records') with ordinality l (r, n)),
  'sorting by date, either way');
select is((public.list_customers() ->> 'total_exact')::boolean, true, 'a small total is exact');

-- Own scope: a sales member edits only their own customers, even by id.
select is(public.update_customer(:'isik_id', '{"name": "Ele Geçti"}', :'isik_at') ->> 'code', 'not_record_owner',
  'a sales member cannot edit the admin''s customer by id');
select is(public.bulk_update_customers(array[:'isik_id', :'sales_customer']::uuid[], '{"status": "passive"}') - 'refused',
  '{"success": true, "updated": 1, "skipped": 1}'::jsonb, 'a bulk edit changes only what the caller may edit');
select is(public.bulk_update_customers(array[:'sales_customer']::uuid[], jsonb_build_object('owner_id', :'alpha_sales2')) ->> 'code',
  'permission_denied', 'an own-scope member cannot give a record away');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.bulk_update_customers(array[:'sales_customer']::uuid[], jsonb_build_object('owner_id', :'alpha_sales2')) ->> 'updated',
  '1', 'an admin reassigns the owner in bulk');
select is(public.bulk_update_customers(array[:'sales_customer']::uuid[], '{"status": "gone"}') #>> '{fields,status}', 'invalid_option',
  'a bulk edit with a field error changes nothing');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.get_customer(:'isik_id') ->> 'code', 'not_found', 'another organization''s admin: not found');
select is((public.list_customers() ->> 'total')::int, 0, 'and lists nothing of alpha''s');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Contacts: channels and consent
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_contact(jsonb_build_object('customer_id', :'isik_id', 'first_name', 'Şule', 'last_name', 'Güneş',
  'title', 'Satın Alma Müdürü',
  'emails', '[{"label": "work", "value": "Sule@IsikYazilim.com.tr"}]'::jsonb,
  'phones', '[{"label": "mobile", "value": "0 (533) 765 43 21"}]'::jsonb,
  'kvkk_consent', true, 'kvkk_consent_channel', 'form', 'kvkk_consent_source', 'Web formu',
  'iys_consent', '{"email": true}'::jsonb)) as sule \gset
select is((:'sule'::jsonb) #> '{record,phones}', '[{"label": "mobile", "value": "+905337654321"}]'::jsonb, 'contact phones are normalised');
select is((:'sule'::jsonb) #> '{record,iys_consent}', '{"call": false, "sms": false, "email": true}'::jsonb,
  'İYS consent per channel, the rest off');
select ok((:'sule'::jsonb) #>> '{record,kvkk_consent_at}' is not null, 'KVKK consent gets its date');
select is(public.create_contact('{"first_name": "A", "kvkk_consent": true}') #>> '{fields,kvkk_consent_channel}', 'required',
  'KVKK consent needs its channel');
select is(public.create_contact('{"first_name": "A", "emails": [{"label": "work", "value": "x"}]}') #>> '{fields,emails}',
  'invalid_email', 'a bad email among the channels is refused');
select is(public.create_contact('{"title": "Yalnız unvan"}') #>> '{fields,first_name}', 'required', 'a name is required');
select is((public.list_contacts(p_search => 'sule') ->> 'total')::int, 1, 'contacts are searched with Turkish folding');
select is((public.list_contacts(p_filters => jsonb_build_object('customer_id', :'isik_id')) ->> 'total')::int, 1,
  'a customer''s contacts');
select tests.reset_role();

select * from finish();
rollback;
