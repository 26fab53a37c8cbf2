-- Custom field type changes that must keep every value (supabase/schemas/18_custom_fields.sql,
-- private.convert_custom_column): into phone, e-mail and URL by the record engine's own rules
-- (normalised, or refused), between choice and multi choice, into a shorter text; options a
-- multi choice still holds; the count capped at 10,000; and the restore's rebuild of columns
-- (private.build_custom_fields) leaving what exists as it is.
begin;
select plan(24);

select tests.create_organization('gamma', 'Gamma A.Ş.') as gamma \gset
select private.migrate_tenant(:'gamma');
select schema_name as gamma_schema from private.organizations where id = :'gamma' \gset
select tests.create_user('admin@gamma.test', 'user', 'Gül', 'Yönetici') as admin \gset
select tests.add_member(:'admin', :'gamma', 'admin');
select gen_random_uuid() as s_admin \gset
select tests.bind_session(:'admin', :'s_admin', :'gamma');

-- save_custom_field as gamma's admin; back to the runner after.
create function pg_temp.save(p_module text, p_field jsonb) returns jsonb language plpgsql as $$
declare
  answer jsonb;
begin
  perform tests.authenticate_as(current_setting('tests.admin')::uuid, current_setting('tests.session')::uuid);
  answer := public.save_custom_field(p_module, p_field);
  perform tests.reset_role();
  return answer;
end;
$$;
grant execute on function pg_temp.save(text, jsonb) to authenticated;
select set_config('tests.admin', :'admin', false), set_config('tests.session', :'s_admin', false);

create function pg_temp.column_type(p_schema text, p_column text) returns text language sql as $$
  select format_type(a.atttypid, a.atttypmod) from pg_attribute a
   where a.attrelid = format('%I.customers', p_schema)::regclass and a.attname = p_column and not a.attisdropped;
$$;

select pg_temp.save('customers', '{"key": "cf_tel", "label_tr": "Telefon 2", "type": "text"}');
select pg_temp.save('customers', '{"key": "cf_adres", "label_tr": "Adres 2", "type": "text"}');
select pg_temp.save('customers', '{"key": "cf_site", "label_tr": "Site", "type": "text"}');
select pg_temp.save('customers', '{"key": "cf_renk", "label_tr": "Renk", "type": "choice", "options": [{"value": "a", "label_tr": "A"}, {"value": "b", "label_tr": "B"}]}');
select pg_temp.save('customers', '{"key": "cf_renkler", "label_tr": "Renkler", "type": "multi_choice", "options": [{"value": "a", "label_tr": "A"}, {"value": "b", "label_tr": "B"}]}');
select pg_temp.save('customers', '{"key": "cf_not", "label_tr": "Not", "type": "long_text"}');
select pg_temp.save('customers', '{"key": "cf_onay", "label_tr": "Onay", "type": "boolean"}');
select pg_temp.save('customers', '{"key": "cf_gun", "label_tr": "Gün", "type": "date"}');
insert into :"gamma_schema".customers (name, owner_id, created_by, cf_tel, cf_adres, cf_site, cf_renk, cf_renkler, cf_not, cf_onay, cf_gun)
values ('Bir', :'admin', :'admin', '0532 123 45 67', ' Info@Gamma.COM ', 'gamma.com.tr', 'a', '{a,b}', repeat('x', 1500), true, '2026-11-28'),
       ('İki', :'admin', :'admin', null, null, null, null, '{a}', null, null, null);

-- Phone, e-mail, URL: the engine's rules.
select is(pg_temp.save('customers', '{"key": "cf_tel", "type": "phone"}') #>> '{field,type}', 'phone', 'a Turkish number written at home becomes a phone field');
select is((select cf_tel from :"gamma_schema".customers where name = 'Bir'), '+905321234567', 'its value normalised to +90 (private.normalize_phone)');
select is(pg_temp.save('customers', '{"key": "cf_adres", "type": "email"}') #>> '{field,type}', 'email', 'an address becomes an e-mail field');
select is((select cf_adres from :"gamma_schema".customers where name = 'Bir'), 'info@gamma.com', 'lowercased and trimmed (private.normalize_email)');
select is(pg_temp.save('customers', '{"key": "cf_site", "type": "url"}') #>> '{field,type}', 'url', 'a website becomes a URL field');
update :"gamma_schema".customers set cf_site = 'not a site' where name = 'Bir';
select is(pg_temp.save('customers', '{"key": "cf_site", "type": "text"}') #>> '{field,type}', 'text', 'any URL field becomes text');
select is(pg_temp.save('customers', '{"key": "cf_site", "type": "url"}') ->> 'code', 'type_not_convertible', '"not a site" is no website');
select is(pg_temp.save('customers', '{"key": "cf_site", "type": "phone"}') ->> 'code', 'type_not_convertible', 'nor a phone');

-- Choice and multi choice.
select is(pg_temp.save('customers', '{"key": "cf_renkler", "type": "choice"}') ->> 'code', 'type_not_convertible',
  'a multi choice holding two options cannot become one choice');
select is(pg_temp.save('customers', '{"key": "cf_renkler", "options": [{"value": "a", "label_tr": "A"}]}') - 'error',
  '{"success": false, "code": "option_in_use", "count": 1, "fields": {"options": "option_in_use"}}'::jsonb,
  'an option a multi choice record holds cannot be removed');
update :"gamma_schema".customers set cf_renkler = '{b}' where name = 'Bir';
select is(pg_temp.save('customers', '{"key": "cf_renkler", "type": "choice"}') #>> '{field,type}', 'choice',
  'holding one option each, it becomes a choice');
select is((select array_agg(cf_renkler order by name) from :"gamma_schema".customers), array['b', 'a'], 'each record keeps its option');
select is(pg_temp.save('customers', '{"key": "cf_renk", "type": "multi_choice"}') #>> '{field,type}', 'multi_choice', 'a choice becomes a multi choice');
select is((select array_agg(cf_renk::text order by name) from :"gamma_schema".customers), array['{a}', null], 'its value a list of one (none stays none)');
select is(pg_temp.save('customers', '{"key": "cf_renk", "type": "text"}') #>> '{field,options}', '[]', 'a multi choice becomes text, without options');
select is((select cf_renk from :"gamma_schema".customers where name = 'Bir'), 'a', 'its options joined');

-- Lengths, casts, links.
select is(pg_temp.save('customers', '{"key": "cf_not", "type": "text"}') ->> 'code', 'type_not_convertible',
  'a long text of 1,500 characters cannot become a text (1,000)');
select is(pg_temp.save('customers', '{"key": "cf_onay", "type": "number"}') ->> 'code', 'type_not_convertible', 'a yes/no is no number');
select is(pg_temp.save('customers', '{"key": "cf_onay", "type": "link", "link_module": "deals"}') ->> 'code', 'type_not_convertible',
  'a field holding values cannot become a link');
select is(pg_temp.save('customers', '{"key": "cf_gun", "type": "datetime"}') #>> '{field,type}', 'datetime', 'a date becomes a date and time');
select is(pg_temp.column_type(:'gamma_schema', 'cf_gun'), 'timestamp with time zone', 'its column too');

-- The count stops at 10,000.
insert into :"gamma_schema".customers (name, owner_id, created_by, cf_gun)
select 'Müşteri ' || i, :'admin', :'admin', now() from generate_series(1, 10001) i;
select tests.authenticate_as(:'admin', :'s_admin');
select is(public.count_custom_field_values('customers', 'cf_gun'), '{"success": true, "count": 10000, "exact": false}'::jsonb,
  'over 10,000 values: 10,000, not exact');
select tests.reset_role();

-- The restore's rebuild changes nothing where the columns exist; it builds a missing one.
select private.build_custom_fields(:'gamma');
select is(pg_temp.column_type(:'gamma_schema', 'cf_renk'), 'text', 'build_custom_fields leaves an existing column as it is');
alter table :"gamma_schema".customers drop column cf_onay;
select private.build_custom_fields(:'gamma');
select is(pg_temp.column_type(:'gamma_schema', 'cf_onay'), 'boolean', 'and builds a missing one of its declared type');

select * from finish();
rollback;
