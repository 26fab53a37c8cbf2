-- Custom field values through the import (issue 26): a custom field of the kind's module is
-- a field of the import under its key, in the shapes a form sends (the browser reads the
-- cells: numbers, dates, yes/no, an option's value); the preview and the batches check them
-- as a form does (each row's codes), write them on create and on update (an unchanged value
-- leaves the row unchanged, a changed one goes to the field history and the undo), required
-- fields are asked for on create; another organization's fields, and a module's fields in a
-- kind with a table of its own (products), are unknown.
begin;
select plan(15);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

select tests.add_custom_field(:'alpha', 'customers', 'cf_amount', '{"type": "money"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_tier', '{"type": "choice", "options": ["gold", "silver"]}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_tags', '{"type": "multi_choice", "options": ["a", "b", "c"]}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_vip', '{"type": "boolean"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_since', '{"type": "date"}');
select tests.add_custom_field(:'alpha', 'quotes', 'cf_region', '{"type": "text"}');

select tests.authenticate_as(:'alpha_admin', :'s_admin');

-- The preview: each row's codes, nothing written.
select public.check_import_rows('customers', 'create', null, '[
  {"row": 2, "values": {"name": "Işık", "cf_amount": 1234.5, "cf_tier": "gold", "cf_tags": ["a", "c"], "cf_vip": true, "cf_since": "2020-01-31"}},
  {"row": 3, "values": {"name": "Deniz", "cf_tier": "bronze", "cf_amount": "12,5", "cf_vip": "evet"}},
  {"row": 4, "values": {"name": "Göl", "cf_since": "31.01.2020", "cf_tags": ["z"]}}]') as preview \gset
select is((:'preview'::jsonb) -> 'results',
  '[{"row": 2, "status": "created"},
    {"row": 3, "status": "failed", "errors": {"cf_tier": "invalid_option", "cf_amount": "invalid", "cf_vip": "invalid"}},
    {"row": 4, "status": "failed", "errors": {"cf_since": "invalid", "cf_tags": "invalid_option"}}]',
  'the preview checks custom values as a form does, row by row');
select tests.reset_role();
select is((select count(*)::integer from :"alpha_schema".customers), 0, 'the preview writes nothing');

-- A create batch.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.start_import('customers', 'ozel.csv', 100, repeat('a', 64), 'create', null, 3,
  '{"Firma": "name", "Tutar": "cf_amount", "Seviye": "cf_tier", "Etiket": "cf_tags", "VIP": "cf_vip"}') #>> '{import,id}' as imp1 \gset
select isnt(:'imp1'::uuid, null, 'an import mapping columns to custom fields starts');
select public.run_import_batch(:'imp1', 0, '[
  {"row": 2, "values": {"name": "Işık", "cf_amount": 1234.5, "cf_tier": "gold", "cf_tags": ["a", "c", "a"], "cf_vip": true, "cf_since": "2020-01-31"}},
  {"row": 3, "values": {"name": "Deniz", "cf_amount": 10, "cf_vip": false}},
  {"row": 4, "values": {"name": "Göl", "cf_tier": "bronze"}}]') as batch1 \gset
select is(jsonb_build_array((:'batch1'::jsonb) -> 'created', (:'batch1'::jsonb) -> 'failed', (:'batch1'::jsonb) #> '{results,2,errors}'),
  '[2, 1, {"cf_tier": "invalid_option"}]', 'a batch creates the rows with valid custom values and fails the other');
select public.finish_import(:'imp1');
select tests.reset_role();
select is((select jsonb_build_object('amount', cf_amount, 'tier', cf_tier, 'tags', cf_tags, 'vip', cf_vip, 'since', cf_since)
             from :"alpha_schema".customers where name = 'Işık'),
  '{"amount": 1234.50, "tier": "gold", "tags": ["a", "c"], "vip": true, "since": "2020-01-31"}', 'the values are stored by their types');
select id as isik, cf_amount from :"alpha_schema".customers where name = 'Işık' \gset
select id as deniz from :"alpha_schema".customers where name = 'Deniz' \gset

/**
 * Moves an import one minute into the past, as if it ran in an earlier transaction (here
 * now() never moves, so the undo would take the import's own write for a later edit).
 */
create function pg_temp.age_import(p_schema text, p_import uuid) returns void language plpgsql as $$
begin
  execute format('alter table %I.customers disable trigger touch_updated_at', p_schema);
  execute format('update %I.customers t set updated_at = t.updated_at - interval ''1 minute''
                   where t.id in (select record_id from %I.import_rows where import_id = $1)', p_schema, p_schema) using p_import;
  execute format('alter table %I.customers enable trigger touch_updated_at', p_schema);
  execute format('update %I.import_rows set written_at = written_at - interval ''1 minute'' where import_id = $1', p_schema)
    using p_import;
end;
$$;

-- An update batch by id: a changed custom value is updated (field history, undo), an equal one unchanged.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.start_import('customers', 'guncel.csv', 100, repeat('b', 64), 'update', 'id', 2, '{}') #>> '{import,id}' as imp2 \gset
select public.run_import_batch(:'imp2', 0, jsonb_build_array(
  jsonb_build_object('row', 2, 'values', jsonb_build_object('id', :'isik', 'cf_tier', 'silver', 'cf_amount', 1234.5)),
  jsonb_build_object('row', 3, 'values', jsonb_build_object('id', :'deniz', 'cf_amount', '10.00', 'cf_vip', false)))) -> 'results' as batch2 \gset
select is(jsonb_build_array((:'batch2'::jsonb) #>> '{0,status}', (:'batch2'::jsonb) #>> '{1,status}'), '["updated", "unchanged"]',
  'a changed custom value updates the record; the same value (as stored) leaves it unchanged');
select public.finish_import(:'imp2');
select tests.reset_role();
select is((select jsonb_agg(jsonb_build_object(field, jsonb_build_array(old_value, new_value)))
             from :"alpha_schema".field_history where record_id = :'isik'),
  '[{"cf_tier": ["gold", "silver"]}]', 'only the changed custom field is in the history');
select is((select previous from :"alpha_schema".import_rows where import_id = :'imp2' and record_id = :'isik'), '{"cf_tier": "gold"}',
  'its old value is kept for the undo');
select pg_temp.age_import(:'alpha_schema', :'imp2');
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.revert_import(:'imp2') ->> 'success', 'true', 'the update import is undone');
select tests.reset_role();
select is((select cf_tier from :"alpha_schema".customers where id = :'isik'), 'gold', 'and the custom value is back');

-- A required custom field is asked for on create, not on update.
select tests.add_custom_field(:'alpha', 'customers', 'cf_code', '{"type": "text", "required": true}');
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.check_import_rows('customers', 'create', null, '[{"row": 2, "values": {"name": "Kodsuz"}}, {"row": 3, "values": {"name": "Kodlu", "cf_code": " K1 "}}]') -> 'results',
  '[{"row": 2, "status": "failed", "errors": {"cf_code": "required"}}, {"row": 3, "status": "created"}]',
  'create: a required custom field is required');
select is(public.check_import_rows('customers', 'update', 'id', jsonb_build_array(jsonb_build_object('row', 2, 'values',
            jsonb_build_object('id', :'deniz', 'cf_tier', 'gold')))) #>> '{results,0,status}', 'updated',
  'update: a record without it still takes other changes');

-- Unknown: another organization's field; a quotes field in the products kind (a table of its own).
select is(public.check_import_rows('products', 'create', null, '[{"row": 2, "values": {"name": "Ürün", "unit_price": 1, "cf_region": "Ege"}}]') #> '{results,0,errors}',
  '{"cf_region": "unknown_field"}', 'a module''s custom field is not one of a kind with its own table');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.check_import_rows('customers', 'create', null, '[{"row": 2, "values": {"name": "Beta", "cf_tier": "gold"}}]') #> '{results,0,errors}',
  '{"cf_tier": "unknown_field"}', 'another organization''s custom field is unknown');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.check_import_rows('quotes', 'create', null, '[{"row": 2, "values": {}}]') ->> 'code', 'unknown_kind',
  '(quotes have no import kind of their own)');
select tests.reset_role();

select * from finish();
rollback;
