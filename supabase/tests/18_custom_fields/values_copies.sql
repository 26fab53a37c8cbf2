-- Custom field values in the records the product copies (issue 26): a quote's revision
-- copies the quote's custom values, a contract's next term (renew_contract, and the
-- scheduled auto-renewal's row) the contract's; save_quote takes and checks custom values;
-- a contract made from a quote is given the contract's required custom fields by its caller.
begin;
select plan(12);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select gen_random_uuid() as s_admin \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');

select tests.add_custom_field(:'alpha', 'quotes', 'cf_region', '{"type": "choice", "options": ["ege", "marmara"]}');
select tests.add_custom_field(:'alpha', 'quotes', 'cf_budget', '{"type": "money"}');
select tests.add_custom_field(:'alpha', 'contracts', 'cf_sla', '{"type": "text"}');
select tests.add_custom_field(:'alpha', 'contracts', 'cf_tags', '{"type": "multi_choice", "options": ["a", "b"]}');

-- ---------------------------------------------------------------------------------
-- A quote's revision
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Işık Yazılım"}') #>> '{record,id}' as isik \gset
select is(public.save_quote(null, '{"cf_region": "karadeniz"}', '[{"description": "Kurulum", "quantity": 1, "unit_price": 100, "vat_rate": 20}]')
            -> 'fields', '{"cf_region": "invalid_option"}', 'save_quote checks a custom value');
select public.save_quote(null, jsonb_build_object('customer_id', :'isik', 'cf_region', 'ege', 'cf_budget', 5000),
  '[{"description": "Kurulum", "quantity": 1, "unit_price": 100, "vat_rate": 20}]') as q1 \gset
select (:'q1'::jsonb) ->> 'id' as q1_id \gset
select public.send_quote(:'q1_id', ((:'q1'::jsonb) ->> 'updated_at')::timestamptz) as sent \gset
select (:'sent'::jsonb) ->> 'updated_at' as q1_at \gset
select public.reject_quote(:'q1_id', :'q1_at', 'Pahalı') ->> 'success' as rejected \gset
select is(:'rejected'::text, 'true', 'the quote is sent and rejected');
select public.revise_quote(:'q1_id') ->> 'id' as q2_id \gset
select is((select jsonb_build_object('region', r ->> 'cf_region', 'budget', r -> 'cf_budget', 'revision', r -> 'revision')
             from (select public.get_quote(:'q2_id') -> 'record' as r) x),
  '{"region": "ege", "budget": 5000.00, "revision": 2}', 'the revision copies the quote''s custom values');

-- ---------------------------------------------------------------------------------
-- A contract's next term
-- ---------------------------------------------------------------------------------
select public.create_contract('{"title": "Bakım", "status": "active", "start_date": "2026-01-01", "end_date": "2026-12-31",
                                "auto_renew": true, "cf_sla": "4 saat", "cf_tags": ["b"]}') -> 'record' as c1 \gset
select is((:'c1'::jsonb) ->> 'status', 'active', 'an active contract with custom values');
select public.renew_contract(((:'c1'::jsonb) ->> 'id')::uuid, ((:'c1'::jsonb) ->> 'updated_at')::timestamptz) ->> 'id' as c2_id \gset
select is((select jsonb_build_object('sla', r ->> 'cf_sla', 'tags', r -> 'cf_tags', 'previous', r ->> 'previous_contract_id')
             from (select public.get_contract(:'c2_id') -> 'record' as r) x),
  jsonb_build_object('sla', '4 saat', 'tags', '["b"]'::jsonb, 'previous', (:'c1'::jsonb) ->> 'id'),
  'the renewal copies the contract''s custom values');
select tests.reset_role();

-- The scheduled auto-renewal makes the next term by the same row (no caller).
select to_jsonb(c) as c2_row from :"alpha_schema".contracts c where c.id = :'c2_id' \gset
select private.contract_renew_row(:'alpha', :'alpha_schema', :'c2_row'::jsonb, null) as c3_id \gset
select is((select jsonb_build_array(cf_sla, cf_tags) from :"alpha_schema".contracts where id = :'c3_id'), '["4 saat", ["b"]]',
  'and so does the scheduled step''s');
select is((select count(*)::integer from :"alpha_schema".contracts where cf_sla = '4 saat'), 3, 'three terms, each with the value');

-- ---------------------------------------------------------------------------------
-- A contract from a quote, when contracts have a required custom field
-- ---------------------------------------------------------------------------------
select tests.add_custom_field(:'alpha', 'contracts', 'cf_approver', '{"type": "text", "required": true}');
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_quote(null, jsonb_build_object('customer_id', :'isik'),
  '[{"description": "Lisans", "quantity": 2, "unit_price": 50, "vat_rate": 20}]') as q3 \gset
select public.send_quote(((:'q3'::jsonb) ->> 'id')::uuid, ((:'q3'::jsonb) ->> 'updated_at')::timestamptz) ->> 'success' as q3_sent \gset
select is(public.create_contract_from_quote(((:'q3'::jsonb) ->> 'id')::uuid) -> 'fields', '{"cf_approver": "required"}',
  'a contract from a quote needs the contract''s required custom field');
select is(public.create_contract_from_quote(((:'q3'::jsonb) ->> 'id')::uuid, '{"value": 1}') ->> 'code', 'invalid_input',
  'only custom fields come from the caller: the quote gives the rest');
select is(public.create_contract_from_quote(((:'q3'::jsonb) ->> 'id')::uuid, '{"cf_nope": "x"}') -> 'fields', '{"cf_nope": "unknown_field"}',
  'and only the organization''s own');
select public.create_contract_from_quote(((:'q3'::jsonb) ->> 'id')::uuid, '{"cf_approver": "Ayşe Yönetici"}') as from_quote \gset
select is((select jsonb_build_object('approver', r ->> 'cf_approver', 'value', r ->> 'value', 'status', r ->> 'status')
             from (select public.get_contract(((:'from_quote'::jsonb) ->> 'id')::uuid) -> 'record' as r) x),
  '{"approver": "Ayşe Yönetici", "value": "100.00", "status": "draft"}', 'given, the draft contract holds it beside the quote''s values');
select tests.reset_role();
select is((select count(*)::integer from :"alpha_schema".contracts where quote_id = ((:'q3'::jsonb) ->> 'id')::uuid), 1,
  'the refused tries made no contract');

select * from finish();
rollback;
