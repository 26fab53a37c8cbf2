-- Contracts: the KDV basis of the value (value_includes_vat, vat_amount: rules, the total
-- with KDV in the details), a contract from a quote with a discount and mixed KDV rates
-- (net and KDV to the kuruş), and renewal with chosen terms: start, end, value raised by
-- a percentage (exact), a draft next term unless the contract renews automatically, notes
-- kept, an expired contract renewed late; bad terms refused with the fields and nothing
-- changed; per role (admin, own-scope sales, viewer), another organization's admin.
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
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
select (now() at time zone 'Europe/Istanbul')::date as today \gset

-- ---------------------------------------------------------------------------------
-- The KDV basis
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.create_contract('{"title": "X", "vat_amount": "12.345"}') #>> '{fields,vat_amount}', 'invalid',
  'a KDV amount is to the kuruş');
select is(public.create_contract('{"title": "X", "vat_amount": -1}') #>> '{fields,vat_amount}', 'invalid', 'and not negative');
select is(public.create_contract('{"title": "X", "value_includes_vat": "evet"}') #>> '{fields,value_includes_vat}', 'invalid',
  'value_includes_vat is a boolean');
select is(public.create_contract('{"title": "X", "value": "100", "value_includes_vat": true, "vat_amount": "100.01"}')
          #>> '{fields,vat_amount}', 'exceeds_value', 'a KDV-included value holds no more KDV than itself');
select public.create_contract('{"title": "KDV dahil", "value": "1200.00", "value_includes_vat": true, "vat_amount": "200.00"}') as inc \gset
select is(public.get_contract_details(((:'inc'::jsonb) #>> '{record,id}')::uuid) #>> '{contract,total_with_vat}', '1200.00',
  'a KDV-included value is its own total with KDV');
select public.create_contract('{"title": "KDV hariç", "value": "99999999999999.99", "vat_amount": "0.01"}') as exc \gset
select is(public.get_contract_details(((:'exc'::jsonb) #>> '{record,id}')::uuid) #>> '{contract,total_with_vat}', '100000000000000.00',
  'a value without KDV adds its stated KDV exactly, whatever its size');
select public.create_contract('{"title": "KDV belirtilmemiş", "value": "500"}') as unk \gset
select is(public.get_contract_details(((:'unk'::jsonb) #>> '{record,id}')::uuid) -> 'contract' -> 'total_with_vat', 'null'::jsonb,
  'no total with KDV when the KDV is not stated');
select is(public.update_contract(((:'inc'::jsonb) #>> '{record,id}')::uuid, '{"value": "150"}',
                                 ((:'inc'::jsonb) #>> '{record,updated_at}')::timestamptz) #>> '{fields,vat_amount}', 'exceeds_value',
  'lowering a KDV-included value below its KDV is refused');

-- ---------------------------------------------------------------------------------
-- From a quote: a document discount and two KDV rates
-- ---------------------------------------------------------------------------------
select public.create_customer('{"name": "Işık Yazılım A.Ş.", "address": "Bağdat Cad. 1", "city": "İstanbul"}') #>> '{record,id}' as isik \gset
select public.save_quote(null, jsonb_build_object('customer_id', :'isik', 'currency', 'TRY', 'quote_date', :'today',
                                                  'valid_until', (:'today'::date + 30)::text,
                                                  'document_discount_type', 'percent', 'document_discount_value', 5),
                         '[{"description": "Lisans", "quantity": 3, "unit_price": 333.33, "vat_rate": 20},
                           {"description": "Kitap", "quantity": 7, "unit_price": 12.99, "vat_rate": 10}]') as q \gset
select (:'q'::jsonb) ->> 'id' as q_id, (:'q'::jsonb) ->> 'updated_at' as q_at \gset
select is(public.send_quote(:'q_id', :'q_at') ->> 'success', 'true', 'the quote is sent');
select public.create_contract_from_quote(:'q_id') as fq \gset
select public.get_contract_details(((:'fq'::jsonb) ->> 'id')::uuid) -> 'contract' as fqc \gset
select tests.reset_role();
select net_total::text as q_net, vat_total::text as q_vat, (net_total + vat_total)::text as q_with_vat
  from :"alpha_schema".quotes where id = :'q_id' \gset
select is(jsonb_build_array((:'fqc'::jsonb) ->> 'value', (:'fqc'::jsonb) ->> 'vat_amount', (:'fqc'::jsonb) ->> 'total_with_vat',
                            (:'fqc'::jsonb) -> 'value_includes_vat'),
  jsonb_build_array(:'q_net', :'q_vat', :'q_with_vat', false),
  'the contract''s value is the quote''s net (KDV hariç), its KDV the quote''s, to the kuruş');
select ok(:'q_vat'::numeric > 0 and :'q_net'::numeric < 3 * 333.33 + 7 * 12.99, 'the quote had KDV and a discount to carry');

-- ---------------------------------------------------------------------------------
-- Renewal with chosen terms
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select (public.create_contract(jsonb_build_object('title', 'Bakım', 'customer_id', :'isik', 'status', 'active',
  'start_date', (:'today'::date - 300)::text, 'end_date', (:'today'::date + 64)::text, 'value', '10000.00', 'vat_amount', '2000.00',
  'notes', 'Yerinde destek dahil.')) -> 'record') as m \gset
select (:'m'::jsonb) ->> 'id' as m_id, (:'m'::jsonb) ->> 'updated_at' as m_at \gset
select public.get_contract_details(:'m_id') -> 'contract' as m_before \gset

select is(public.renew_contract(:'m_id', :'m_at', p_start_date => (:'today'::date + 64)) #>> '{fields,start_date}', 'overlaps_previous',
  'the next term starts after the old one ends');
select is(public.renew_contract(:'m_id', :'m_at', p_start_date => (:'today'::date + 70), p_end_date => (:'today'::date + 69))
          #>> '{fields,end_date}', 'end_before_start', 'and does not end before it starts');
select is(public.renew_contract(:'m_id', :'m_at', p_value => 12.345) #>> '{fields,value}', 'invalid', 'a value is to the kuruş');
select is(public.renew_contract(:'m_id', :'m_at', p_value => -5) #>> '{fields,value}', 'invalid', 'and not negative');
select is(public.renew_contract(:'m_id', :'m_at', p_increase_percent => -1) #>> '{fields,increase_percent}', 'invalid',
  'an increase is not negative');
select is(public.renew_contract(:'m_id', :'m_at', p_increase_percent => 1000.5) #>> '{fields,increase_percent}', 'invalid',
  'nor above 1000%');
select is(public.renew_contract(:'m_id', :'m_at', p_increase_percent => 1.23456) ->> 'code', 'invalid_fields',
  'nor finer than four decimals');
select is(public.get_contract_details(:'m_id') -> 'contract', :'m_before'::jsonb, 'the refused renewals changed nothing');
select tests.reset_role();
select is((select count(*)::int from :"alpha_schema".contracts where previous_contract_id = :'m_id'), 0, 'and made no next term');

-- Viewer, own-scope sales (not theirs), another organization: refused, nothing changed.
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.renew_contract(:'m_id', :'m_at', p_increase_percent => 10) ->> 'code', 'permission_denied', 'a viewer cannot renew');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.renew_contract(:'m_id', :'m_at', p_increase_percent => 10) ->> 'code', 'not_found',
  'an own-scope member cannot renew another''s contract');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.renew_contract(:'m_id', :'m_at', p_increase_percent => 10) ->> 'code', 'not_found',
  'another organization''s admin cannot renew it');
select tests.reset_role();
select is((select status::text from :"alpha_schema".contracts where id = :'m_id'), 'active', 'the contract is still active');

-- TÜFE 44.38%: 10,000.00 → 14,438.00; the stated KDV follows: 2,000.00 → 2,887.60.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.renew_contract(:'m_id', :'m_at', p_start_date => (:'today'::date + 65), p_end_date => (:'today'::date + 429),
                             p_increase_percent => 44.38) as r \gset
select is(jsonb_build_array((:'r'::jsonb) ->> 'success', (:'r'::jsonb) ->> 'status', (:'r'::jsonb) ->> 'value'),
  '["true", "draft", "14438.00"]'::jsonb, 'a contract that does not renew itself is renewed into a draft term, its value raised');
select public.get_contract_details(((:'r'::jsonb) ->> 'id')::uuid) as rd \gset
select is((select jsonb_build_object('status', c ->> 'status', 'start', c ->> 'start_date', 'end', c ->> 'end_date', 'value', c ->> 'value',
                                     'vat', c ->> 'vat_amount', 'with_vat', c ->> 'total_with_vat', 'notes', c ->> 'notes',
                                     'previous', c ->> 'previous_contract_id', 'customer', c ->> 'customer_id')
             from (select (:'rd'::jsonb) -> 'contract' as c) x),
  jsonb_build_object('status', 'draft', 'start', (:'today'::date + 65)::text, 'end', (:'today'::date + 429)::text, 'value', '14438.00',
                     'vat', '2887.60', 'with_vat', '17325.60', 'notes', 'Yerinde destek dahil.', 'previous', :'m_id', 'customer', :'isik'),
  'the next term: the chosen dates, the raised value and KDV to the kuruş, the notes and parties kept, linked to the old one');
select is((select jsonb_build_array(c #>> '{contract,status}', c #>> '{next,id}') from (select public.get_contract_details(:'m_id') as c) x),
  jsonb_build_array('active', (:'r'::jsonb) ->> 'id'), 'the old term stays active until the draft is signed and names its next term');
select tests.reset_role();
select is((select details ->> 'increase_percent' from private.audit_log where action = 'contracts.create' and target_id = (:'r'::jsonb) ->> 'id'),
  '44.38', 'the increase is in the audit log');
select tests.authenticate_as(:'alpha_admin', :'s_admin');

-- A value set by hand and raised: 1,234.56 × 1.075 = 1,327.152 → 1,327.15; an auto-renewing contract starts its next term active.
select (public.create_contract(jsonb_build_object('title', 'Otomatik', 'status', 'active', 'auto_renew', true, 'renewal_term_months', 6,
  'start_date', '2026-01-31', 'end_date', (:'today'::date + 10)::text, 'value', '900')) -> 'record') as a \gset
select public.renew_contract(((:'a'::jsonb) ->> 'id')::uuid, ((:'a'::jsonb) ->> 'updated_at')::timestamptz,
                             p_value => 1234.56, p_increase_percent => 7.5) as ar \gset
select is(jsonb_build_array((:'ar'::jsonb) ->> 'status', (:'ar'::jsonb) ->> 'value'), '["active", "1327.15"]'::jsonb,
  'an auto-renewing contract''s next term is active; the value given is raised and rounded to the kuruş');
select is((select jsonb_build_array(c ->> 'start_date', c ->> 'end_date')
             from (select public.get_contract_details(((:'ar'::jsonb) ->> 'id')::uuid) -> 'contract' as c) x),
  jsonb_build_array((:'today'::date + 11)::text, ((:'today'::date + 11) + interval '6 months' - interval '1 day')::date::text),
  'by default the next term starts the day after the end and runs the renewal term');

-- An expired contract is renewed late; a terminated one is not.
select tests.reset_role();
insert into :"alpha_schema".contracts (id, title, status, start_date, end_date, value, owner_id, created_by)
values ('e0000000-0000-4000-8000-000000000001', 'Süresi dolmuş', 'expired', :'today'::date - 400, :'today'::date - 35, 100, :'alpha_admin', :'alpha_admin');
select updated_at as e_at from :"alpha_schema".contracts where id = 'e0000000-0000-4000-8000-000000000001' \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.renew_contract('e0000000-0000-4000-8000-000000000001', :'e_at', p_start_date => :'today'::date) as er \gset
select is(jsonb_build_array((:'er'::jsonb) ->> 'success', (:'er'::jsonb) ->> 'status'), '["true", "draft"]'::jsonb,
  'an expired contract is renewed late, into a draft');
select is(public.get_contract_details('e0000000-0000-4000-8000-000000000001') #>> '{contract,status}', 'expired',
  'and reads expired until the draft is signed');
select public.terminate_contract(((:'unk'::jsonb) #>> '{record,id}')::uuid, ((:'unk'::jsonb) #>> '{record,updated_at}')::timestamptz, 'Vazgeçildi')
  #>> '{record,updated_at}' as unk_at \gset
select is(public.renew_contract(((:'unk'::jsonb) #>> '{record,id}')::uuid, :'unk_at') ->> 'code', 'not_renewable',
  'a terminated contract is not renewed');

-- Own-scope sales renew their own contract with an increase.
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select (public.create_contract(jsonb_build_object('title', 'Satışçının', 'status', 'active', 'start_date', (:'today'::date - 10)::text,
  'end_date', (:'today'::date + 20)::text, 'value', '333.33')) -> 'record') as s \gset
select public.renew_contract(((:'s'::jsonb) ->> 'id')::uuid, ((:'s'::jsonb) ->> 'updated_at')::timestamptz, p_increase_percent => 33.3333) as sr \gset
select is((:'sr'::jsonb) ->> 'value', '444.44', 'an own-scope member renews their own contract: 333.33 × 1.333333 = 444.4433 → 444.44');
select tests.reset_role();

-- The scheduled step still renews an auto-renewing contract past its end into an active term.
update :"alpha_schema".contracts set end_date = :'today'::date - 1, start_date = :'today'::date - 100
 where id = ((:'ar'::jsonb) ->> 'id')::uuid;
update :"alpha_schema".contracts set status = 'active' where id = ((:'ar'::jsonb) ->> 'id')::uuid;
select ok((private.contract_due_steps(:'alpha') ->> 'renewed')::int >= 1, 'the scheduled step renews it');
select is((select status::text from :"alpha_schema".contracts where previous_contract_id = ((:'ar'::jsonb) ->> 'id')::uuid), 'active',
  'into an active term');
select is((select value::text from :"alpha_schema".contracts where previous_contract_id = ((:'ar'::jsonb) ->> 'id')::uuid), '1327.15',
  'at the same value');

select * from finish();
rollback;
