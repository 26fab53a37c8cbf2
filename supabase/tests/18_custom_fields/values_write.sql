-- Custom field values through a module's create and update (issue 26): each type's valid
-- value stored as its type says and answered by get_<entity>, each invalid one refused with
-- its code and nothing written, required fields on create and on update, another
-- organization's field refused as an unknown field, a link to a record the caller may not
-- see not found, the change in the field history and the audit log, and saved views that
-- sort, filter and show custom fields.
begin;
select plan(58);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

-- Alpha's customers get one field of each type; beta's a text field of its own.
select tests.add_custom_field(:'alpha', 'customers', 'cf_note', '{"type": "text"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_bio', '{"type": "long_text"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_mail', '{"type": "email"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_tel', '{"type": "phone"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_site', '{"type": "url"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_count', '{"type": "number"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_budget', '{"type": "money"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_rate', '{"type": "percent"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_since', '{"type": "date"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_met', '{"type": "datetime"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_vip', '{"type": "boolean"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_tier', '{"type": "choice", "options": ["gold", "silver"]}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_tags', '{"type": "multi_choice", "options": ["a", "b", "c"]}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_partner', '{"type": "link", "link_module": "customers"}');
select tests.add_custom_field(:'beta', 'customers', 'cf_beta', '{"type": "text"}');

-- ---------------------------------------------------------------------------------
-- Every type, valid
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Ortak A.Ş."}') #>> '{record,id}' as partner \gset
select public.create_customer(jsonb_build_object(
  'name', 'Işık Yazılım', 'cf_note', '  Önemli  ', 'cf_bio', repeat('x', 10000), 'cf_mail', ' Satis@Isik.COM ',
  'cf_tel', '0532 111 22 33', 'cf_site', 'isik.com.tr', 'cf_count', 12.5, 'cf_budget', '1234.567', 'cf_rate', 18,
  'cf_since', '1998-02-28', 'cf_met', '2026-03-01T09:30:00+03:00', 'cf_vip', true, 'cf_tier', 'gold',
  'cf_tags', '["b", "a", "b"]'::jsonb, 'cf_partner', :'partner')) as created \gset
select is((:'created'::jsonb) ->> 'success', 'true', 'a customer is created with a value of every custom type');
select (:'created'::jsonb) #>> '{record,id}' as isik \gset
select public.get_customer(:'isik') -> 'record' as got \gset
select is((select jsonb_build_object('note', r -> 'cf_note', 'mail', r -> 'cf_mail', 'tel', r -> 'cf_tel', 'site', r -> 'cf_site',
                                     'count', r -> 'cf_count', 'budget', r -> 'cf_budget', 'rate', r -> 'cf_rate',
                                     'since', r -> 'cf_since', 'met', r -> 'cf_met', 'vip', r -> 'cf_vip', 'tier', r -> 'cf_tier',
                                     'tags', r -> 'cf_tags', 'partner', r -> 'cf_partner', 'bio', char_length(r ->> 'cf_bio'))
             from (select :'got'::jsonb as r) x),
  jsonb_build_object('note', 'Önemli', 'mail', 'satis@isik.com', 'tel', '+905321112233', 'site', 'isik.com.tr',
                     'count', 12.5, 'budget', 1234.57, 'rate', 18.0000, 'since', '1998-02-28', 'met', '2026-03-01T06:30:00+00:00',
                     'vip', true, 'tier', 'gold', 'tags', '["b", "a"]'::jsonb, 'partner', :'partner', 'bio', 10000),
  'get_customer answers each value cleaned and stored by its type (trimmed, normalised, rounded, deduplicated)');
select is((public.create_customer('{"name": "Tek", "cf_count": "-42", "cf_budget": 0, "cf_rate": -1000}') -> 'record') - '{id,created_at,updated_at,owner_id,created_by,owner_name,name}'::text[]
            @> '{"cf_count": -42, "cf_budget": 0, "cf_rate": -1000}', true,
  'numbers as numeric strings, zero and the percent bound are taken');
select is((select jsonb_build_array(r -> 'cf_since', r -> 'cf_met') from (select public.create_customer(
             '{"name": "Artık", "cf_since": "2024-02-29", "cf_met": "2026-03-01 23:59:59.5+0530"}') -> 'record' as r) x),
  '["2024-02-29", "2026-03-01T18:29:59.5+00:00"]', 'a leap day is a date; an instant may have a space, fractions and any offset');

-- ---------------------------------------------------------------------------------
-- Every type, invalid: its code, nothing written
-- ---------------------------------------------------------------------------------
create function pg_temp.refusal(p_values jsonb) returns jsonb language sql as $$
  select public.create_customer(jsonb_build_object('name', 'Reddedilen') || p_values) -> 'fields';
$$;
grant execute on function pg_temp.refusal(jsonb) to authenticated;
select is(pg_temp.refusal(jsonb_build_object('cf_note', repeat('y', 1001))), '{"cf_note": "too_long"}', 'text: at most 1,000 characters');
select is(pg_temp.refusal(jsonb_build_object('cf_bio', repeat('y', 10001))), '{"cf_bio": "too_long"}', 'long text: at most 10,000');
select is(pg_temp.refusal('{"cf_note": 5}'), '{"cf_note": "invalid"}', 'text: a number is not a text');
select is(pg_temp.refusal('{"cf_mail": "satis@"}'), '{"cf_mail": "invalid_email"}', 'email: invalid_email');
select is(pg_temp.refusal('{"cf_tel": "12"}'), '{"cf_tel": "invalid_phone"}', 'phone: invalid_phone');
select is(pg_temp.refusal('{"cf_site": "not a site"}'), '{"cf_site": "invalid_website"}', 'url: invalid_website');
select is(pg_temp.refusal('{"cf_count": "12,5"}'), '{"cf_count": "invalid"}', 'number: a Turkish-written string is not a number');
select is(pg_temp.refusal('{"cf_count": 1e15}'), '{"cf_count": "invalid"}', 'number: below 10^15');
select is(pg_temp.refusal('{"cf_budget": 1e16}'), '{"cf_budget": "invalid"}', 'money: below 10^16');
select is(pg_temp.refusal('{"cf_budget": true}'), '{"cf_budget": "invalid"}', 'money: a boolean is not an amount');
select is(pg_temp.refusal('{"cf_rate": 1000.5}'), '{"cf_rate": "invalid"}', 'percent: within -1,000 and 1,000');
select is(pg_temp.refusal('{"cf_since": "2026-02-30"}'), '{"cf_since": "invalid"}', 'date: a real date');
select is(pg_temp.refusal('{"cf_since": "01.02.2026"}'), '{"cf_since": "invalid"}', 'date: YYYY-MM-DD');
select is(pg_temp.refusal('{"cf_met": "2026-03-01T09:30:00"}'), '{"cf_met": "invalid"}', 'datetime: with its offset');
select is(pg_temp.refusal('{"cf_met": "2026-13-01T09:30:00Z"}'), '{"cf_met": "invalid"}', 'datetime: a real instant');
select is(pg_temp.refusal('{"cf_vip": "evet"}'), '{"cf_vip": "invalid"}', 'boolean: true or false');
select is(pg_temp.refusal('{"cf_tier": "bronze"}'), '{"cf_tier": "invalid_option"}', 'choice: one of the options');
select is(pg_temp.refusal('{"cf_tier": "Gold"}'), '{"cf_tier": "invalid_option"}', 'choice: by its value, not its label');
select is(pg_temp.refusal('{"cf_tags": ["a", "z"]}'), '{"cf_tags": "invalid_option"}', 'multi choice: each one an option');
select is(pg_temp.refusal('{"cf_tags": "a"}'), '{"cf_tags": "invalid"}', 'multi choice: an array');
select is(pg_temp.refusal('{"cf_partner": "x"}'), '{"cf_partner": "invalid"}', 'link: an id');
select is(pg_temp.refusal(jsonb_build_object('cf_partner', gen_random_uuid())), '{"cf_partner": "not_found"}',
  'link: a record that does not exist is not found');
select is(pg_temp.refusal('{"cf_beta": "x"}'), '{"cf_beta": "unknown_field"}',
  'another organization''s custom field is an unknown field');
select is(pg_temp.refusal('{"cf_nothing": "x"}'), '{"cf_nothing": "unknown_field"}', 'an undeclared key is an unknown field');
select tests.reset_role();
select is((select count(*)::integer from :"alpha_schema".customers where name = 'Reddedilen'), 0, 'no refused create wrote a customer');

-- Beta's admin: beta's own field is theirs, alpha's is unknown.
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.create_customer('{"name": "Beta Müşteri", "cf_beta": "bizim"}') #>> '{record,cf_beta}', 'bizim',
  'beta''s member writes beta''s field');
select is(public.create_customer('{"name": "Beta Müşteri", "cf_note": "x"}') -> 'fields', '{"cf_note": "unknown_field"}',
  'alpha''s field is unknown to beta''s member');
select is(public.update_customer(:'isik', '{"cf_beta": "x"}', now()) ->> 'code', 'not_found',
  'nor can beta''s member reach alpha''s customer');

-- A link to a record the caller may not see: sales sees only their own customers.
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.create_customer(jsonb_build_object('name', 'Satışın', 'cf_partner', :'partner')) -> 'fields',
  '{"cf_partner": "not_found"}', 'a link to a customer the caller may not see is not found');
select public.create_customer('{"name": "Satışın"}') -> 'record' as own \gset
select is(public.create_customer(jsonb_build_object('name', 'Satışın 2', 'cf_partner', (:'own'::jsonb) ->> 'id')) #>> '{record,cf_partner}',
  (:'own'::jsonb) ->> 'id', 'a link to one they see is taken');
select is(public.create_customer(jsonb_build_object('name', 'Satışın 3', 'cf_partner', (:'own'::jsonb) ->> 'id')) #>> '{record,cf_partner_name}',
  'Satışın', 'a record answer names the record a custom link points to (private.link_names_sql)');
select is((select count(*)::integer from jsonb_array_elements(public.list_customers() -> 'records') r
            where r ->> 'cf_partner_name' = 'Satışın'), 2, 'and so does every list row');

-- ---------------------------------------------------------------------------------
-- Required fields
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.add_custom_field(:'alpha', 'customers', 'cf_code', '{"type": "text", "required": true}');
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.create_customer('{"name": "Kodsuz"}') -> 'fields', '{"cf_code": "required"}',
  'create: a required custom field that is missing is required');
select is(public.create_customer('{"name": "Kodsuz", "cf_code": "   "}') -> 'fields', '{"cf_code": "required"}',
  'create: blank is missing');
select is(public.create_customer('{"name": "Kodlu", "cf_code": "K-1"}') #>> '{record,cf_code}', 'K-1', 'create: with it, created');
select public.get_customer(:'isik') #>> '{record,updated_at}' as isik_at \gset
select is(public.update_customer(:'isik', '{"city": "İzmir"}', :'isik_at') ->> 'success', 'true',
  'update: a required field left out is not asked for (records from before it stay editable)');
select public.get_customer(:'isik') #>> '{record,updated_at}' as isik_at \gset
select is(public.update_customer(:'isik', '{"cf_code": null}', :'isik_at') -> 'fields', '{"cf_code": "required"}',
  'update: a required field set to null is required');

-- ---------------------------------------------------------------------------------
-- Changes: cleared by null, in the field history and the audit log
-- ---------------------------------------------------------------------------------
select public.update_customer(:'isik', '{"cf_note": "Çok önemli", "cf_tags": [], "cf_count": null, "cf_code": "K-2"}', :'isik_at')
  -> 'record' as changed \gset
select is(jsonb_build_array((:'changed'::jsonb) -> 'cf_note', (:'changed'::jsonb) -> 'cf_tags', (:'changed'::jsonb) -> 'cf_count'),
  '["Çok önemli", null, null]', 'an update changes a value; an empty list and null clear');
select tests.reset_role();
select is((select jsonb_build_object('old', old_value, 'new', new_value) from :"alpha_schema".field_history
            where record_id = :'isik' and field = 'cf_note'),
  '{"old": "Önemli", "new": "Çok önemli"}', 'the field history has the custom field''s change');
select is((select count(*)::integer from :"alpha_schema".field_history where record_id = :'isik' and field in ('cf_tags', 'cf_count')), 2,
  'and the cleared ones');
select is((select details -> 'fields' @> '["cf_note", "cf_code"]' from private.audit_log
            where organization_id = :'alpha' and action = 'customers.update' and target_id = :'isik' order by created_at desc, id desc limit 1),
  true, 'the audit entry names the custom fields changed');

-- A bulk update and a merge take custom values like an update.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.bulk_update_customers(array[:'isik', :'partner']::uuid[], '{"cf_tier": "silver"}') ->> 'updated', '2',
  'a bulk update sets a custom field');
select is(public.bulk_update_customers(array[:'isik']::uuid[], '{"cf_tier": "bronze"}') -> 'fields', '{"cf_tier": "invalid_option"}',
  'and checks it');
select public.create_customer(jsonb_build_object('name', 'Bağlı', 'cf_code', 'K-3', 'cf_partner', :'partner')) #>> '{record,id}' as linked \gset
select is(public.merge_customers(:'isik', :'partner', '{"cf_vip": false, "cf_partner": null}') #>> '{record,cf_vip}', 'false',
  'a merge takes the custom value chosen for the survivor');
select is(public.get_customer(:'linked') #>> '{record,cf_partner}', :'isik', 'and a custom link to the merged record now names the survivor');
select is(public.get_customer(:'linked') #>> '{record,cf_partner_name}', 'Işık Yazılım', 'by its name');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.create_customer(jsonb_build_object('name', 'Satışın 4', 'cf_code', 'K-4')) #>> '{record,id}' <> '', true, 'a sales user''s own customer');
select tests.reset_role();
update :"alpha_schema".customers set cf_partner = :'isik', owner_id = :'alpha_sales' where name = 'Satışın 4';
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((select r -> 'cf_partner_name' from jsonb_array_elements(public.list_customers() -> 'records') r where r ->> 'name' = 'Satışın 4'),
  'null'::jsonb, 'a linked record the caller may not see has no name in their list');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');

-- The timeline names the record a custom link field points to.
select public.create_customer('{"name": "Yeni Ortak", "cf_code": "K-9"}') #>> '{record,id}' as new_partner \gset
select is(public.bulk_update_customers(array[:'isik']::uuid[], jsonb_build_object('cf_partner', :'new_partner')) ->> 'updated', '1',
  'a custom link is changed');
select is((select jsonb_agg(jsonb_build_array(e ->> 'old_label', e ->> 'new_label'))
             from jsonb_array_elements(public.get_record_timeline('customers', :'isik') -> 'entries') e
            where e ->> 'field' = 'cf_partner' and e ->> 'new' is not null),
  '[[null, "Yeni Ortak"]]', 'the timeline names the linked record, not its id');

-- ---------------------------------------------------------------------------------
-- Saved views with custom fields
-- ---------------------------------------------------------------------------------
select tests.reset_role();
update private.custom_fields set filterable = true where organization_id = :'alpha' and key = 'cf_tier';
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.save_saved_view(null, 'customers', 'Altın', '{"sort": "cf_note", "filters": {"cf_tier": ["gold"]}, "columns": ["name", "cf_note", "cf_tags"]}')
            ->> 'success', 'true', 'a view may sort by, filter on and show custom fields');
select is(public.save_saved_view(null, 'customers', 'Uzun', '{"sort": "cf_bio"}') ->> 'code', 'invalid_fields',
  'but not sort by a long text');
select is(public.save_saved_view(null, 'customers', 'Süz', '{"filters": {"cf_note": "x"}}') ->> 'code', 'invalid_fields',
  'nor filter on a field that is not filterable');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.save_saved_view(null, 'customers', 'Başkası', '{"columns": ["cf_note"]}') ->> 'code', 'invalid_fields',
  'nor show another organization''s field');
select tests.reset_role();

select * from finish();
rollback;
