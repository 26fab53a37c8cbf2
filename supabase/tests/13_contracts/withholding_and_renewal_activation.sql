-- Contracts: KDV withholding (tevkifat) carried from a quote (value, KDV, withheld KDV and
-- the payable total the quote's, to the kuruş; the ratio when the lines share one; the
-- rules of the two fields; a renewal keeps them in proportion), and the old term of a
-- renewal marked renewed only once the new term is active: a draft renewal leaves it as it
-- was until signed; terminated or deleted, it lets the contract be renewed again; an
-- automatic renewal marks it at once; the scheduled step expires a term whose renewal
-- waits as a draft. Per role (admin, own-scope sales, viewer), another organization's admin.
begin;
select plan(37);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
update private.organization_settings set time_zone = 'Europe/Istanbul' where organization_id in (:'alpha', :'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
-- Sales sees the whole organization here, so another member's draft is refused as theirs, not hidden.
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
select (now() at time zone 'Europe/Istanbul')::date as today \gset

-- ---------------------------------------------------------------------------------
-- Tevkifat from a quote
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Kamu Hizmetleri A.Ş."}') #>> '{record,id}' as kamu \gset
-- 10,000.00 + 2 × 1,234.57, 3 % off the document, KDV 20 %, 7/10 withheld on both lines.
select public.save_quote(null, jsonb_build_object('customer_id', :'kamu', 'currency', 'TRY', 'quote_date', :'today',
                                                  'valid_until', (:'today'::date + 30)::text,
                                                  'document_discount_type', 'percent', 'document_discount_value', 3),
                         '[{"description": "Danışmanlık", "quantity": 1, "unit_price": 10000, "vat_rate": 20, "withholding_rate": "7/10"},
                           {"description": "Eğitim", "quantity": 2, "unit_price": 1234.57, "vat_rate": 20, "withholding_rate": "7/10"}]') as q \gset
select (:'q'::jsonb) ->> 'id' as q_id, (:'q'::jsonb) ->> 'updated_at' as q_at \gset
select is(public.send_quote(:'q_id', :'q_at') ->> 'success', 'true', 'the quote with tevkifat is sent');
select public.create_contract_from_quote(:'q_id') as fq \gset
select public.get_contract_details(((:'fq'::jsonb) ->> 'id')::uuid) -> 'contract' as fqc \gset
select tests.reset_role();
select net_total::text as q_net, vat_total::text as q_vat, withholding_total::text as q_withheld,
       (net_total + vat_total)::text as q_with_vat, grand_total::text as q_grand
  from :"alpha_schema".quotes where id = :'q_id' \gset
select ok(:'q_withheld'::numeric > 0 and :'q_grand'::numeric = :'q_net'::numeric + :'q_vat'::numeric - :'q_withheld'::numeric,
  'the quote withholds KDV: its grand total is net + KDV - the withheld KDV');
select is(jsonb_build_object('value', (:'fqc'::jsonb) ->> 'value', 'vat', (:'fqc'::jsonb) ->> 'vat_amount',
                             'withheld', (:'fqc'::jsonb) ->> 'withholding_amount', 'rate', (:'fqc'::jsonb) ->> 'withholding_rate',
                             'with_vat', (:'fqc'::jsonb) ->> 'total_with_vat', 'payable', (:'fqc'::jsonb) ->> 'payable_total'),
  jsonb_build_object('value', :'q_net', 'vat', :'q_vat', 'withheld', :'q_withheld', 'rate', '7/10',
                     'with_vat', :'q_with_vat', 'payable', :'q_grand'),
  'the contract from the quote carries its totals to the kuruş: net, KDV, the withheld KDV and its ratio, the total with KDV, the payable total');

-- Two ratios: the amount is the quote's, no single ratio is named.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_quote(null, jsonb_build_object('customer_id', :'kamu', 'currency', 'TRY', 'quote_date', :'today',
                                                  'valid_until', (:'today'::date + 30)::text),
                         '[{"description": "Temizlik", "quantity": 3, "unit_price": 777.77, "vat_rate": 20, "withholding_rate": "9/10"},
                           {"description": "Yemek", "quantity": 1, "unit_price": 555.55, "vat_rate": 10, "withholding_rate": "5/10"}]') as q2 \gset
select public.send_quote(((:'q2'::jsonb) ->> 'id')::uuid, ((:'q2'::jsonb) ->> 'updated_at')::timestamptz) ->> 'success' as sent \gset
select public.create_contract_from_quote(((:'q2'::jsonb) ->> 'id')::uuid) ->> 'id' as fq2 \gset
select public.get_contract_details(:'fq2') -> 'contract' as fq2c \gset
select tests.reset_role();
select is(jsonb_build_array((:'fq2c'::jsonb) ->> 'withholding_amount', (:'fq2c'::jsonb) -> 'withholding_rate', (:'fq2c'::jsonb) ->> 'payable_total'),
  (select jsonb_build_array(withholding_total::text, null, grand_total::text) from :"alpha_schema".quotes where id = ((:'q2'::jsonb) ->> 'id')::uuid),
  'lines with two ratios: the quote''s withheld KDV and payable total, no single ratio');
select tests.authenticate_as(:'alpha_admin', :'s_admin');

-- A quote without tevkifat: nothing withheld, the payable total is the total with KDV.
select public.save_quote(null, jsonb_build_object('customer_id', :'kamu', 'currency', 'TRY', 'quote_date', :'today',
                                                  'valid_until', (:'today'::date + 30)::text),
                         '[{"description": "Lisans", "quantity": 1, "unit_price": 1000, "vat_rate": 20}]') as q3 \gset
select public.send_quote(((:'q3'::jsonb) ->> 'id')::uuid, ((:'q3'::jsonb) ->> 'updated_at')::timestamptz) ->> 'success' as sent \gset
select public.create_contract_from_quote(((:'q3'::jsonb) ->> 'id')::uuid) ->> 'id' as fq3 \gset
select public.get_contract_details(:'fq3') -> 'contract' as fq3c \gset
select is(jsonb_build_array((:'fq3c'::jsonb) -> 'withholding_amount', (:'fq3c'::jsonb) -> 'withholding_rate', (:'fq3c'::jsonb) ->> 'payable_total'),
  '[null, null, "1200.00"]'::jsonb, 'a quote without tevkifat: no withheld KDV, the customer pays the total with KDV');

-- The rules of the two fields.
select is(public.create_contract('{"title": "X", "value": "100", "vat_amount": "20", "withholding_amount": "20.01"}') #>> '{fields,withholding_amount}',
  'exceeds_vat', 'no more KDV withheld than the KDV');
select is(public.create_contract('{"title": "X", "value": "100", "withholding_amount": "5"}') #>> '{fields,withholding_amount}',
  'exceeds_vat', 'nor any withheld without a stated KDV');
select is(public.create_contract('{"title": "X", "value": "100", "vat_amount": "20", "withholding_amount": "1.234"}') #>> '{fields,withholding_amount}',
  'invalid', 'a withheld amount is to the kuruş');
select is(public.create_contract('{"title": "X", "value": "100", "vat_amount": "20", "withholding_rate": "6/10"}') #>> '{fields,withholding_rate}',
  'invalid', 'a ratio is one of the tevkifat ratios');
select is(public.update_contract(((:'fq'::jsonb) ->> 'id')::uuid, '{"vat_amount": "1.00"}',
                                 ((:'fqc'::jsonb) ->> 'updated_at')::timestamptz) #>> '{fields,withholding_amount}',
  'exceeds_vat', 'lowering the KDV below what is withheld is refused');
select public.create_contract('{"title": "Elle", "value": "1000.00", "vat_amount": "200.00", "withholding_amount": "100.00", "withholding_rate": "5/10"}')
  -> 'record' as manual \gset
select is(public.get_contract_details(((:'manual'::jsonb) ->> 'id')::uuid) #>> '{contract,payable_total}', '1100.00',
  'stated by hand: 1,000.00 + 200.00 KDV - 100.00 withheld = 1,100.00 payable');
select tests.reset_role();

-- A renewal raises the withheld KDV with the value: 1,000.00 → 1,100.00, 200.00 → 220.00, 100.00 → 110.00.
update :"alpha_schema".contracts set status = 'active', start_date = :'today'::date - 100, end_date = :'today'::date + 10,
                                     auto_renew = true
 where id = ((:'manual'::jsonb) ->> 'id')::uuid returning updated_at as manual_at \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.renew_contract(((:'manual'::jsonb) ->> 'id')::uuid, :'manual_at', p_increase_percent => 10) ->> 'id' as manual_next \gset
select is((select jsonb_build_array(c ->> 'value', c ->> 'vat_amount', c ->> 'withholding_amount', c ->> 'withholding_rate', c ->> 'payable_total')
             from (select public.get_contract_details(:'manual_next') -> 'contract' as c) x),
  '["1100.00", "220.00", "110.00", "5/10", "1210.00"]'::jsonb, 'the next term keeps the ratio and the withheld KDV in proportion');

-- ---------------------------------------------------------------------------------
-- A renewal made as a draft: the old term is renewed once the new one is signed
-- ---------------------------------------------------------------------------------
select is(public.get_contract_details(((:'manual'::jsonb) ->> 'id')::uuid) #>> '{contract,status}', 'renewed',
  'an automatic renewal starts active and marks the old term renewed at once');

select (public.create_contract(jsonb_build_object('title', 'Bakım', 'customer_id', :'kamu', 'status', 'active',
  'start_date', (:'today'::date - 300)::text, 'end_date', (:'today'::date + 30)::text, 'value', '5000.00')) -> 'record') as m \gset
select (:'m'::jsonb) ->> 'id' as m_id, (:'m'::jsonb) ->> 'updated_at' as m_at \gset
select public.renew_contract(:'m_id', :'m_at') as r \gset
select (:'r'::jsonb) ->> 'id' as r_id \gset
select is(jsonb_build_array((:'r'::jsonb) ->> 'success', (:'r'::jsonb) ->> 'status'), '["true", "draft"]'::jsonb,
  'a contract that does not renew itself is renewed into a draft');
select public.get_contract_details(:'m_id') as md \gset
select is(jsonb_build_array((:'md'::jsonb) #>> '{contract,status}', (:'md'::jsonb) #>> '{contract,locked}', (:'md'::jsonb) #>> '{next,id}'),
  jsonb_build_array('active', 'false', :'r_id'), 'the old term stays active (and editable) while its renewal is a draft, and names it');
select is(public.renew_contract(:'m_id', ((:'md'::jsonb) #>> '{contract,updated_at}')::timestamptz) ->> 'code', 'already_renewed',
  'it is not renewed a second time while the draft waits');
select public.get_contract_details(:'r_id') #>> '{contract,updated_at}' as r_at \gset
select tests.reset_role();

-- Who may sign the draft: a viewer, an own-scope member (not theirs), another organization: refused, the old term unchanged.
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.update_contract(:'r_id', '{"status": "active"}', :'r_at') ->> 'code', 'permission_denied', 'a viewer cannot sign the renewal');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.update_contract(:'r_id', '{"status": "active"}', :'r_at') ->> 'code', 'not_record_owner',
  'an own-scope member cannot sign another''s renewal');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.update_contract(:'r_id', '{"status": "active"}', :'r_at') ->> 'code', 'not_found',
  'another organization''s admin cannot sign it');
select tests.reset_role();
select is((select status::text from :"alpha_schema".contracts where id = :'m_id'), 'active', 'the old term is still active');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.update_contract(:'r_id', '{"status": "active"}', :'r_at') ->> 'success', 'true', 'the admin signs the renewal: active');
select is((select jsonb_build_array(c #>> '{contract,status}', c #>> '{contract,locked}')
             from (select public.get_contract_details(:'m_id') as c) x),
  '["renewed", "true"]'::jsonb, 'now the old term reads renewed and is locked');
select tests.reset_role();
select is((select jsonb_build_array(action, actor_id::text) from private.audit_log where target_id = :'m_id' order by id desc limit 1),
  jsonb_build_array('contracts.renew', :'alpha_admin'), 'the old term''s renewal is audited, by the member who signed');
select is((select new_value #>> '{}' from :"alpha_schema".field_history where record_id = :'m_id' and field = 'status' order by changed_at desc limit 1),
  'renewed', 'and is in its field history');

-- A draft renewal terminated: the old term as it was, renewed again.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select (public.create_contract(jsonb_build_object('title', 'Destek', 'status', 'active',
  'start_date', (:'today'::date - 300)::text, 'end_date', (:'today'::date + 30)::text, 'value', '700.00')) -> 'record') as t \gset
select (:'t'::jsonb) ->> 'id' as t_id \gset
select public.renew_contract(:'t_id', ((:'t'::jsonb) ->> 'updated_at')::timestamptz) ->> 'id' as t_draft \gset
select is(public.terminate_contract(:'t_draft', (public.get_contract_details(:'t_draft') #>> '{contract,updated_at}')::timestamptz, 'Müşteri vazgeçti')
          ->> 'success', 'true', 'the draft renewal is terminated');
select public.get_contract_details(:'t_id') as td \gset
select is((:'td'::jsonb) #>> '{contract,status}', 'active', 'the old term is still active');
select public.renew_contract(:'t_id', ((:'td'::jsonb) #>> '{contract,updated_at}')::timestamptz) as t2 \gset
select is(jsonb_build_array((:'t2'::jsonb) ->> 'success', (:'t2'::jsonb) ->> 'status'), '["true", "draft"]'::jsonb,
  'and is renewed again');
select is(public.get_contract_details(:'t_id') #>> '{next,id}', (:'t2'::jsonb) ->> 'id', 'its next term is the new draft, not the terminated one');

-- A draft renewal deleted: likewise.
select (public.create_contract(jsonb_build_object('title', 'Barındırma', 'status', 'active',
  'start_date', (:'today'::date - 300)::text, 'end_date', (:'today'::date + 30)::text, 'value', '900.00')) -> 'record') as d \gset
select (:'d'::jsonb) ->> 'id' as d_id \gset
select public.renew_contract(:'d_id', ((:'d'::jsonb) ->> 'updated_at')::timestamptz) ->> 'id' as d_draft \gset
select is((public.delete_contracts(array[:'d_draft']::uuid[]) ->> 'changed')::int, 1, 'the draft renewal is deleted');
select public.get_contract_details(:'d_id') as dd \gset
select is(jsonb_build_array((:'dd'::jsonb) #>> '{contract,status}', (:'dd'::jsonb) -> 'next'), '["active", null]'::jsonb,
  'the old term is still active, with no next term');
select is(public.renew_contract(:'d_id', ((:'dd'::jsonb) #>> '{contract,updated_at}')::timestamptz) ->> 'success', 'true',
  'and is renewed again');
select tests.reset_role();

-- Own-scope sales: renew their own contract into a draft and sign it.
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select (public.create_contract(jsonb_build_object('title', 'Satışçının', 'status', 'active', 'start_date', (:'today'::date - 10)::text,
  'end_date', (:'today'::date + 20)::text, 'value', '333.33')) -> 'record') as s \gset
select (:'s'::jsonb) ->> 'id' as s_id \gset
select public.renew_contract(:'s_id', ((:'s'::jsonb) ->> 'updated_at')::timestamptz) ->> 'id' as s_draft \gset
select is(public.get_contract_details(:'s_id') #>> '{contract,status}', 'active', 'an own-scope member''s old term stays active');
select is(public.update_contract(:'s_draft', '{"status": "active"}',
                                 (public.get_contract_details(:'s_draft') #>> '{contract,updated_at}')::timestamptz) ->> 'success', 'true',
  'they sign their own renewal');
select is(public.get_contract_details(:'s_id') #>> '{contract,status}', 'renewed', 'and their old term reads renewed');
select tests.reset_role();

-- The scheduled step: a term past its end whose renewal waits as a draft expires (even if it
-- renews itself), and reads renewed once the draft is signed.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select (public.create_contract(jsonb_build_object('title', 'Geç imza', 'status', 'active',
  'start_date', (:'today'::date - 300)::text, 'end_date', (:'today'::date + 3)::text, 'value', '100.00')) -> 'record') as g \gset
select (:'g'::jsonb) ->> 'id' as g_id \gset
select public.renew_contract(:'g_id', ((:'g'::jsonb) ->> 'updated_at')::timestamptz) ->> 'id' as g_draft \gset
select tests.reset_role();
update :"alpha_schema".contracts set end_date = :'today'::date - 1, auto_renew = true where id = :'g_id';
update :"alpha_schema".contracts set start_date = :'today'::date, end_date = :'today'::date + 364 where id = :'g_draft';
select private.contract_due_steps(:'alpha') as steps \gset
select is(jsonb_build_array((select status::text from :"alpha_schema".contracts where id = :'g_id'),
                            (select count(*)::int from :"alpha_schema".contracts where previous_contract_id = :'g_id')),
  '["expired", 1]'::jsonb, 'the scheduled step expires it and makes no second renewal');
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.update_contract(:'g_draft', '{"status": "active"}',
                                 (public.get_contract_details(:'g_draft') #>> '{contract,updated_at}')::timestamptz) ->> 'success', 'true',
  'the late renewal is signed');
select is(public.get_contract_details(:'g_id') #>> '{contract,status}', 'renewed', 'and the expired term reads renewed');
select tests.reset_role();

select * from finish();
rollback;
