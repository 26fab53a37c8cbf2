-- Custom fields managed by the admin (supabase/schemas/18_custom_fields.sql): list for
-- whoever may view the module, save/delete/count for the admin of the session's
-- organization only (a sales member, another organization's admin, a person in two
-- organizations bound to the other one, an unbound session and anon are refused), the
-- column and its indexes in that organization's table only, keys derived from Turkish
-- labels, field errors, the 100-field limit, options still in use, type changes that
-- would lose values, removal, and the audit trail.
begin;
select plan(121);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.create_user('both@crm.test', 'user', 'İki', 'Şirket') as both_user \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'both_user', :'alpha', 'admin');
select tests.add_member(:'both_user', :'beta', 'sales');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_beta, gen_random_uuid() as s_both_a,
       gen_random_uuid() as s_both_b, gen_random_uuid() as s_free \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
select tests.bind_session(:'both_user', :'s_both_a', :'alpha');
select tests.bind_session(:'both_user', :'s_both_b', :'beta');

-- A call (an SQL expression giving jsonb) as a user in a session; back to the runner after.
create function pg_temp.as_user(p_user uuid, p_session uuid, p_call text) returns jsonb language plpgsql as $$
declare
  answer jsonb;
begin
  perform tests.authenticate_as(p_user, p_session);
  execute 'select ' || p_call into answer;
  perform tests.reset_role();
  return answer;
end;
$$;
grant execute on function pg_temp.as_user(uuid, uuid, text) to authenticated;

-- The columns of a tenant table, with their types.
create function pg_temp.column_type(p_schema text, p_table text, p_column text) returns text language sql as $$
  select format_type(a.atttypid, a.atttypmod) from pg_attribute a
   where a.attrelid = format('%I.%I', p_schema, p_table)::regclass and a.attname = p_column and not a.attisdropped;
$$;

-- ---------------------------------------------------------------------------------
-- Anon: refused by the database
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.list_custom_fields('customers')$$, '42501', null, 'anon cannot list custom fields');
select throws_ok($$select public.save_custom_field('customers', '{"label_tr": "X", "type": "text"}')$$, '42501', null,
  'anon cannot save a custom field');
select throws_ok($$select public.delete_custom_field('customers', 'cf_x')$$, '42501', null, 'anon cannot delete a custom field');
select throws_ok($$select public.count_custom_field_values('customers', 'cf_x')$$, '42501', null, 'anon cannot count values');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- The admin creates fields: key from the Turkish label, column, indexes, audit
-- ---------------------------------------------------------------------------------
select pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": " Sektör kodu ", "label_en": "Sector code", "type": "text", "filterable": true, "searchable": true}')$$) as r \gset
select is(:'r'::jsonb ->> 'success', 'true', 'the admin creates a text field');
select is(:'r'::jsonb #>> '{field,key}', 'cf_sektor_kodu', '"Sektör kodu" gets the key cf_sektor_kodu');
select is((:'r'::jsonb -> 'field') - 'updated_at', '{"key": "cf_sektor_kodu", "type": "text", "label_tr": "Sektör kodu", "label_en": "Sector code",
  "required": false, "options": [], "currency": null, "link_module": null, "position": 1, "hidden": false, "listed": false,
  "filterable": true, "searchable": true}'::jsonb, 'the answer is the field as the app reads it (labels trimmed, placed first)');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_sektor_kodu'), 'text', 'alpha''s customers table has the text column');
select is(pg_temp.column_type(:'beta_schema', 'customers', 'cf_sektor_kodu'), null, 'beta''s customers table does not');
select is((select indexdef ~ '\(cf_sektor_kodu, id\) WHERE \(deleted_at IS NULL\)' from pg_indexes
            where schemaname = :'alpha_schema' and indexname = 'customers_cf_sektor_kodu_filter_idx'), true,
  'filterable: a btree index on (value, id) of live records');
select is((select indexdef ~ 'gin \(private\.fold_search\(cf_sektor_kodu\) (extensions\.)?gin_trgm_ops\) WHERE' from pg_indexes
            where schemaname = :'alpha_schema' and indexname = 'customers_cf_sektor_kodu_search_idx'), true,
  'searchable: a trigram index on the folded text');
select is((select details ->> 'label_tr' from private.audit_log
            where organization_id = :'alpha' and actor_id = :'alpha_admin' and action = 'custom_fields.create'
              and target_type = 'customers' and target_id = 'cf_sektor_kodu'), 'Sektör kodu', 'the creation is audited with the field');

select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": "Sektör Kodu", "type": "number"}')$$) #>> '{field,key}', 'cf_sektor_kodu_2',
  'a second field of the same label gets _2');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": "İl/İlçe — 2024", "type": "text"}')$$) #>> '{field,key}', 'cf_il_ilce_2024',
  'Turkish letters fold, other characters become one underscore');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": "2024 hedefi", "type": "number"}')$$) #>> '{field,key}', 'cf_alan_2024_hedefi',
  'a label starting with a digit gets alan_ first');
select ok(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": "Çok uzun bir etiket adı ki kırk üç karakteri aşıyor", "type": "text"}')$$)
  #>> '{field,key}' ~ '^cf_cok_uzun_bir_etiket_adi_ki_kirk_uc_karak$', 'a long label is cut to a 43-character key');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_cok_uzun_bir_etiket_adi_ki_kirk_uc_karak", "label_tr": "Çok uzun bir etiket adı ki kırk üç karakteri aşıyor bis", "type": "text"}')$$)
  #>> '{field,label_tr}', 'Çok uzun bir etiket adı ki kırk üç karakteri aşıyor bis', 'a given key of the module changes that field');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": "Çok uzun bir etiket adı ki kırk üç karakteri aşıyor", "type": "text"}')$$)
  #>> '{field,key}', 'cf_cok_uzun_bir_etiket_adi_ki_kirk_uc_kar_2', 'the suffix of a 43-character key stays within 43');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_bolge", "label_tr": "Bölge", "type": "choice", "listed": true,
     "options": [{"value": "marmara", "label_tr": "Marmara", "label_en": null, "color": "blue"}, {"label_tr": "Ege"}]}')$$) -> 'field'
  -> 'options', '[{"value": "marmara", "label_tr": "Marmara", "label_en": null, "color": "blue"},
                  {"value": "Ege", "label_tr": "Ege", "label_en": null, "color": null}]'::jsonb,
  'a given key is taken; an option without a value takes its Turkish label');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": "Bütçe", "type": "money"}')$$) #>> '{field,currency}', 'TRY',
  'a money field without a currency gets the organization''s default');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_butce'), 'numeric(18,2)', 'a money column is numeric(18,2)');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"label_tr": "Etiketler", "type": "multi_choice", "filterable": true, "options": [{"value": "a", "label_tr": "A"}]}')$$)
  #>> '{field,key}', 'cf_etiketler', 'a multi choice field');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_etiketler'), 'text[]', 'a multi choice column is text[]');
select ok((select indexdef ~ 'USING gin \(cf_etiketler\)' from pg_indexes where schemaname = :'alpha_schema'
            and indexname = 'customers_cf_etiketler_filter_idx'), 'a filterable multi choice gets a gin index');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('deals', '{"label_tr": "Bağlı firma", "type": "link", "link_module": "customers", "filterable": true}')$$)
  #>> '{field,link_module}', 'customers', 'a link field names its module');
select is(pg_temp.column_type(:'alpha_schema', 'deals', 'cf_bagli_firma'), 'uuid', 'a link column is a uuid');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('deals', '{"key": "cf_bagli_firma_name", "label_tr": "Ad", "type": "text"}')$$) -> 'fields',
  '{"key": "reserved"}', 'a key that is a link''s name key is reserved (the answer carries the linked name under it)');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_ortak_name", "label_tr": "Ortak adı", "type": "text"}')$$) #>> '{field,key}',
  'cf_ortak_name', 'a text field cf_ortak_name');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_ortak", "label_tr": "Ortak", "type": "link", "link_module": "deals"}')$$)
  -> 'fields', '{"key": "reserved"}', 'then a link cf_ortak, whose name key that field holds, is refused');
-- Index names stay within 63 characters.
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('contracts', '{"key": "cf_a234567890123456789012345678901234567890", "label_tr": "Uzun", "type": "text", "filterable": true, "searchable": true}')$$)
  ->> 'success', 'true', 'a 43-character key on a long table name');
select is((select count(*)::int from pg_indexes where schemaname = :'alpha_schema' and tablename = 'contracts'
            and indexdef like '%cf_a234567890123456789012345678901234567890%'), 2, 'has both its indexes (names shortened by a hash)');
select is((select count(*)::int from private.tenant_security_findings()), 0, 'the tenant security checks pass with the new columns and indexes');

select is(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.list_custom_fields('customers')$$) -> 'fields' -> 0 ->> 'key', 'cf_sektor_kodu',
  'a sales member who may view customers lists the fields, in order');
select is(jsonb_array_length(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.list_custom_fields('customers')$$) -> 'fields'), 10,
  'every field of the module');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.list_custom_fields('nope')$$) ->> 'code', 'invalid_input',
  'an unknown module is invalid input');

-- ---------------------------------------------------------------------------------
-- Denied: a sales member, an unbound session, the other organization, the person in two
-- ---------------------------------------------------------------------------------
select count(*) as fields_before from private.custom_fields \gset
select is(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.save_custom_field('customers', '{"label_tr": "Satış", "type": "text"}')$$) ->> 'code',
  'admin_required', 'a sales member may not create a field');
select is(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.save_custom_field('customers', '{"key": "cf_sektor_kodu", "label_tr": "X"}')$$) ->> 'code',
  'admin_required', 'nor change one');
select is(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.delete_custom_field('customers', 'cf_sektor_kodu')$$) ->> 'code',
  'admin_required', 'nor delete one');
select is(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.count_custom_field_values('customers', 'cf_sektor_kodu')$$) ->> 'code',
  'admin_required', 'nor count its values');
delete from private.role_permissions where organization_id = :'alpha' and role_key = 'sales' and module = 'contracts' and action = 'view';
select is(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.list_custom_fields('contracts')$$) ->> 'code', 'permission_denied',
  'a member who may not view a module does not read its fields');
select is(pg_temp.as_user(:'alpha_admin', :'s_free', $$public.save_custom_field('customers', '{"label_tr": "Boş", "type": "text"}')$$) ->> 'code',
  'organization_context_required', 'an admin whose session is bound to no organization creates nothing');
select is(pg_temp.as_user(:'alpha_admin', :'s_free', $$public.list_custom_fields('customers')$$) ->> 'code',
  'organization_context_required', 'nor lists');

select is(pg_temp.as_user(:'beta_admin', :'s_beta', $$public.list_custom_fields('customers')$$) -> 'fields', '[]'::jsonb,
  'beta''s admin never sees alpha''s fields');
select is(pg_temp.as_user(:'beta_admin', :'s_beta', $$public.delete_custom_field('customers', 'cf_sektor_kodu')$$) ->> 'code', 'not_found',
  'beta''s admin cannot delete alpha''s field');
select is(pg_temp.as_user(:'beta_admin', :'s_beta', $$public.count_custom_field_values('customers', 'cf_sektor_kodu')$$) ->> 'code', 'not_found',
  'nor count its values');
select is(pg_temp.as_user(:'both_user', :'s_both_b', $$public.save_custom_field('customers', '{"label_tr": "İkili", "type": "text"}')$$) ->> 'code',
  'admin_required', 'admin of alpha, bound to beta where they are sales: may not create in beta');
select is(pg_temp.as_user(:'both_user', :'s_both_b', $$public.delete_custom_field('customers', 'cf_sektor_kodu')$$) ->> 'code',
  'admin_required', 'nor delete alpha''s field from a session bound to beta');
select is(pg_temp.as_user(:'both_user', :'s_both_b', $$public.count_custom_field_values('customers', 'cf_sektor_kodu')$$) ->> 'code',
  'admin_required', 'nor count alpha''s values from there');
select is(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.list_custom_fields('customers')$$) -> 'fields' -> 0 ->> 'label_tr', 'Sektör kodu',
  'alpha''s field is as it was');
select is((select count(*) from private.custom_fields), :'fields_before'::bigint, 'the refusals created and removed nothing');

-- beta's admin creates beta's own field of the same key: alpha's stays alpha's.
select is(pg_temp.as_user(:'beta_admin', :'s_beta', $$public.save_custom_field('customers', '{"key": "cf_sektor_kodu", "label_tr": "Beta sektör", "type": "number"}')$$)
  ->> 'success', 'true', 'beta''s admin creates beta''s own field of that key');
select is(pg_temp.column_type(:'beta_schema', 'customers', 'cf_sektor_kodu'), 'numeric', 'in beta''s table');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_sektor_kodu'), 'text', 'alpha''s column is untouched');
select is((select label_tr from private.custom_fields where organization_id = :'alpha' and key = 'cf_sektor_kodu'), 'Sektör kodu',
  'alpha''s declaration is untouched');
select is(pg_temp.as_user(:'both_user', :'s_both_a', $$public.save_custom_field('customers', '{"label_tr": "İkili", "type": "text"}')$$) ->> 'success',
  'true', 'the person in two organizations, bound to alpha where they are admin, creates in alpha');
select is(pg_temp.column_type(:'beta_schema', 'customers', 'cf_ikili'), null, 'and nothing in beta');
select is(pg_temp.as_user(:'beta_admin', :'s_beta', $$public.list_custom_fields('customers')$$) #>> '{fields,0,label_tr}', 'Beta sektör',
  'beta lists only its own field');

-- ---------------------------------------------------------------------------------
-- Field errors: nothing created
-- ---------------------------------------------------------------------------------
alter table :"alpha_schema".customers add column cf_eski text;
select count(*) as fields_before from private.custom_fields \gset
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', format('public.save_custom_field(''customers'', %L)', field)) - 'error', expected::jsonb,
  format('refused: %s', field))
  from (values
    ('{"key": "cf_Buyuk", "label_tr": "X", "type": "text"}', '{"success": false, "code": "invalid_fields", "fields": {"key": "invalid"}}'),
    ('{"key": "sektor", "label_tr": "X", "type": "text"}', '{"success": false, "code": "invalid_fields", "fields": {"key": "invalid"}}'),
    ('{"key": "cf_a2345678901234567890123456789012345678901", "label_tr": "X", "type": "text"}',
     '{"success": false, "code": "invalid_fields", "fields": {"key": "invalid"}}'),
    ('{"key": 7, "label_tr": "X", "type": "text"}', '{"success": false, "code": "invalid_fields", "fields": {"key": "invalid"}}'),
    ('{"key": "cf_eski", "label_tr": "Eski", "type": "text"}', '{"success": false, "code": "invalid_fields", "fields": {"key": "reserved"}}'),
    ('{"type": "text"}', '{"success": false, "code": "invalid_fields", "fields": {"label_tr": "required"}}'),
    ('{"label_tr": "   ", "type": "text"}', '{"success": false, "code": "invalid_fields", "fields": {"label_tr": "required"}}'),
    ('{"label_tr": "1234567890123456789012345678901234567890123456789012345678901", "type": "text"}',
     '{"success": false, "code": "invalid_fields", "fields": {"label_tr": "too_long"}}'),
    ('{"label_tr": "X"}', '{"success": false, "code": "invalid_fields", "fields": {"type": "required"}}'),
    ('{"label_tr": "X", "type": "json"}', '{"success": false, "code": "invalid_fields", "fields": {"type": "invalid"}}'),
    ('{"label_tr": "X", "type": "text", "colour": "red"}', '{"success": false, "code": "invalid_fields", "fields": {"colour": "unknown_field"}}'),
    ('{"label_tr": "X", "type": "text", "required": "yes"}', '{"success": false, "code": "invalid_fields", "fields": {"required": "invalid"}}'),
    ('{"label_tr": "X", "type": "number", "searchable": true}', '{"success": false, "code": "invalid_fields", "fields": {"searchable": "invalid"}}'),
    ('{"label_tr": "X", "type": "long_text", "filterable": true}', '{"success": false, "code": "invalid_fields", "fields": {"filterable": "invalid"}}'),
    ('{"label_tr": "X", "type": "choice"}', '{"success": false, "code": "invalid_fields", "fields": {"options": "required"}}'),
    ('{"label_tr": "X", "type": "choice", "options": [{"value": "a", "label_tr": "A"}, {"value": " a ", "label_tr": "B"}]}',
     '{"success": false, "code": "invalid_fields", "fields": {"options": "duplicate"}}'),
    ('{"label_tr": "X", "type": "choice", "options": [{"value": "a", "label_tr": "A", "color": "#fff"}]}',
     '{"success": false, "code": "invalid_fields", "fields": {"options": "invalid"}}'),
    ('{"label_tr": "X", "type": "text", "options": [{"value": "a", "label_tr": "A"}]}',
     '{"success": false, "code": "invalid_fields", "fields": {"options": "invalid"}}'),
    ('{"label_tr": "X", "type": "text", "currency": "TRY"}', '{"success": false, "code": "invalid_fields", "fields": {"currency": "invalid"}}'),
    ('{"label_tr": "X", "type": "money", "currency": "try"}', '{"success": false, "code": "invalid_fields", "fields": {"currency": "invalid"}}'),
    ('{"label_tr": "X", "type": "link"}', '{"success": false, "code": "invalid_fields", "fields": {"link_module": "required"}}'),
    ('{"label_tr": "X", "type": "link", "link_module": "nope"}', '{"success": false, "code": "invalid_fields", "fields": {"link_module": "invalid"}}'),
    ('{"label_tr": "X", "type": "text", "position": -1}', '{"success": false, "code": "invalid_fields", "fields": {"position": "invalid"}}')
  ) as cases (field, expected);
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  format('public.save_custom_field(''customers'', %L)', jsonb_build_object('label_tr', 'X', 'type', 'choice',
    'options', (select jsonb_agg(jsonb_build_object('value', 'v' || i, 'label_tr', 'V' || i)) from generate_series(1, 201) i)))) #>> '{fields,options}',
  'too_many', 'at most 200 options');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('products', '{"label_tr": "X", "type": "text"}')$$) ->> 'code',
  'invalid_input', 'only a sales module of the registry takes fields');
select is((select count(*) from private.custom_fields), :'fields_before'::bigint, 'the refused fields created nothing');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('customers', '{"label_tr": "Eski", "type": "text"}')$$)
  #>> '{field,key}', 'cf_eski_2', 'a derived key passes a column the table already has');

-- ---------------------------------------------------------------------------------
-- The limit: 100 fields per module
-- ---------------------------------------------------------------------------------
insert into private.custom_fields (organization_id, module, key, type, label_tr, position)
select :'alpha', 'tasks', 'cf_alan_' || i, 'text', 'Alan ' || i, i from generate_series(1, 100) i;
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('tasks', '{"label_tr": "Yüz birinci", "type": "text"}')$$) ->> 'code',
  'too_many_fields', 'the 101st field of a module is refused');
select is(pg_temp.column_type(:'alpha_schema', 'tasks', 'cf_yuz_birinci'), null, 'and has no column');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('tasks', '{"key": "cf_alan_1", "label_tr": "Birinci alan"}')$$)
  ->> 'success', 'true', 'a field of a full module still changes');

-- ---------------------------------------------------------------------------------
-- Changes: options in use, type conversions, indexes, order, stale writes
-- ---------------------------------------------------------------------------------
insert into :"alpha_schema".customers (name, owner_id, created_by, cf_bolge, cf_sektor_kodu)
values ('Ege Tekstil', :'alpha_admin', :'alpha_admin', 'marmara', 'abc');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_bolge", "options": [{"value": "Ege", "label_tr": "Ege"}]}')$$) - 'error',
  '{"success": false, "code": "option_in_use", "count": 1, "fields": {"options": "option_in_use"}}'::jsonb,
  'an option a record holds cannot be removed (with the count)');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_bolge", "options": [{"value": "marmara", "label_tr": "Marmara Bölgesi", "color": "teal"}]}')$$)
  #>> '{field,options,0,label_tr}', 'Marmara Bölgesi', 'an unused option goes, a used one is renamed');

select pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('customers', '{"key": "cf_sektor_kodu", "type": "number"}')$$) as r \gset
select is(:'r'::jsonb - 'error', '{"success": false, "code": "type_not_convertible", "fields": {"type": "type_not_convertible"}}'::jsonb,
  'text holding "abc" cannot become a number');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_sektor_kodu'), 'text', 'the column keeps its type');
select is((select type from private.custom_fields where organization_id = :'alpha' and key = 'cf_sektor_kodu'), 'text', 'the declaration too');
select is((select count(*)::int from pg_indexes where schemaname = :'alpha_schema' and indexname like 'customers_cf_sektor_kodu_%'), 2,
  'and its indexes');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('customers', '{"key": "cf_sektor_kodu", "type": "email"}')$$) ->> 'code',
  'type_not_convertible', '"abc" is no e-mail address');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_sektor_kodu", "type": "choice", "options": [{"value": "xyz", "label_tr": "XYZ"}]}')$$) ->> 'code',
  'type_not_convertible', '"abc" is none of the new choice''s options');
update :"alpha_schema".customers set cf_sektor_kodu = '12' where name = 'Ege Tekstil';
select pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('customers', '{"key": "cf_sektor_kodu", "type": "number"}')$$) as r \gset
select is(:'r'::jsonb #>> '{field,type}', 'number', 'text holding "12" becomes a number');
select is(:'r'::jsonb #>> '{field,searchable}', 'false', 'no longer searchable (a number is not text)');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_sektor_kodu'), 'numeric', 'the column is numeric');
select is((select cf_sektor_kodu from :"alpha_schema".customers where name = 'Ege Tekstil'), 12::numeric, 'the value is the number 12');
select is((select array_agg(indexname::text order by indexname) from pg_indexes where schemaname = :'alpha_schema' and indexname like 'customers_cf_sektor_kodu_%'),
  array['customers_cf_sektor_kodu_filter_idx'], 'the filter index is built again, the search index is gone');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.save_custom_field('customers', '{"key": "cf_il_ilce_2024", "type": "date"}')$$)
  ->> 'success', 'true', 'a field without values takes any type');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_il_ilce_2024'), 'date', 'its column is a date now');

select f as bolge_read from jsonb_array_elements(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.list_custom_fields('customers')$$) -> 'fields') f
 where f ->> 'key' = 'cf_bolge' \gset
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  $$public.save_custom_field('customers', '{"key": "cf_sektor_kodu", "filterable": false, "position": 50, "hidden": true, "label_en": null}')$$)
  ->> 'success', 'true', 'flags, order and labels change');
select is((select count(*)::int from pg_indexes where schemaname = :'alpha_schema' and indexname like 'customers_cf_sektor_kodu_%'), 0,
  'not filterable: its index is dropped');
select isnt(pg_temp.as_user(:'alpha_sales', :'s_sales', $$public.list_custom_fields('customers')$$) #>> '{fields,0,key}', 'cf_sektor_kodu',
  'the list follows the new order');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  format('public.save_custom_field(''customers'', %L)', :'bolge_read'::jsonb || '{"label_tr": "Eski okuma", "updated_at": "2000-01-01T00:00:00Z"}'))
  ->> 'code', 'stale_record', 'a change of the field as read before another change is refused');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin',
  format('public.save_custom_field(''customers'', %L)', :'bolge_read'::jsonb || '{"label_tr": "Bölgemiz"}')) #>> '{field,label_tr}', 'Bölgemiz',
  'the field as read, with a change, is saved');
select is((select details -> 'changes' -> 'position' from private.audit_log
            where organization_id = :'alpha' and action = 'custom_fields.update' and target_id = 'cf_sektor_kodu' order by id desc limit 1),
  '{"old": 1, "new": 50}'::jsonb, 'a change is audited with what changed');

-- ---------------------------------------------------------------------------------
-- Counting and removal
-- ---------------------------------------------------------------------------------
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.count_custom_field_values('customers', 'cf_sektor_kodu')$$),
  '{"success": true, "count": 1, "exact": true}'::jsonb, 'the admin counts the live records holding a value');
update :"alpha_schema".customers set deleted_at = now() where name = 'Ege Tekstil';
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.count_custom_field_values('customers', 'cf_sektor_kodu')$$) ->> 'count',
  '0', 'a deleted record does not count');
update :"alpha_schema".customers set deleted_at = null where name = 'Ege Tekstil';
select is(private.audit_target(:'alpha', 'customers', 'cf_sektor_kodu'), '{"name": "Sektör kodu", "exists": true}'::jsonb,
  'the audit log names a custom field by its label');
select is((select matches_template from private.tenant_schema_drift() where organization_id = :'alpha'), true,
  'an organization with custom fields and their indexes still matches the template (they are its own)');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.delete_custom_field('customers', 'cf_sektor_kodu')$$), '{"success": true}'::jsonb,
  'the admin deletes a field');
select is(private.audit_target(:'alpha', 'customers', 'cf_sektor_kodu'), '{"name": "Sektör kodu", "exists": false}'::jsonb,
  'and, once it is deleted, by the label its deletion recorded');
select is(pg_temp.column_type(:'alpha_schema', 'customers', 'cf_sektor_kodu'), null, 'its column is gone');
select is(pg_temp.column_type(:'beta_schema', 'customers', 'cf_sektor_kodu'), 'numeric', 'beta''s field of the same key stays');
select is((select count(*)::int from private.custom_fields where organization_id = :'alpha' and key = 'cf_sektor_kodu'), 0, 'its declaration is gone');
select is((select details from private.audit_log where organization_id = :'alpha' and action = 'custom_fields.delete' and target_id = 'cf_sektor_kodu'),
  '{"label_tr": "Sektör kodu", "type": "number", "values": {"count": 1, "exact": true}}'::jsonb,
  'the removal is audited with the label and how many records held a value');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.delete_custom_field('customers', 'cf_sektor_kodu')$$) ->> 'code', 'not_found',
  'a field deleted is not found again');
select is(pg_temp.as_user(:'alpha_admin', :'s_admin', $$public.delete_custom_field('nope', 'cf_x')$$) ->> 'code', 'invalid_input',
  'an unknown module is invalid input');
select is((select count(*)::int from private.tenant_security_findings()), 0, 'the tenant security checks still pass');

select * from finish();
rollback;
