-- Contracts: the contract's rules (number, dates, value, currency, type, links, status
-- transitions), the number pattern setting, terminate and renew (with the renewal chain
-- in the details), the scheduled step (renewal notice once, expiry, auto-renewal through
-- several terms), the contracts ending soon, each RPC allowed and denied per role (admin,
-- own-scope sales, viewer), for another organization's admin and for a member of both,
-- and anon refused.
begin;
select plan(121);

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
select tests.create_user('multi@both.test', 'user', 'Zeynep', 'Çoklu') as multi \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select tests.add_member(:'multi', :'alpha', 'sales');
select tests.add_member(:'multi', :'beta', 'admin');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_beta, gen_random_uuid() as s_multi \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
-- The member of both organizations works in beta in this session.
select tests.bind_session(:'multi', :'s_multi', :'beta');

-- Today in the organizations' time zone, and the year the numbers carry.
select (now() at time zone 'Europe/Istanbul')::date as today,
       to_char(now() at time zone 'Europe/Istanbul', 'YYYY') as year \gset

-- ---------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok('select public.create_contract(''{"title": "Anon"}'')', '42501', null, 'anon cannot create a contract');
select throws_ok(format('select public.get_contract_details(%L)', gen_random_uuid()), '42501', null, 'anon cannot read a contract');
select throws_ok(format('select public.renew_contract(%L, now())', gen_random_uuid()), '42501', null, 'anon cannot renew a contract');
select throws_ok(format('select public.terminate_contract(%L, now(), ''x'')', gen_random_uuid()), '42501', null,
  'anon cannot terminate a contract');
select throws_ok('select public.list_contracts_ending()', '42501', null, 'anon cannot list the contracts ending');
select throws_ok(format('select public.create_contract_from_quote(%L)', gen_random_uuid()), '42501', null,
  'anon cannot make a contract from a quote');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- The contract's rules
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Işık Yazılım A.Ş."}') #>> '{record,id}' as isik \gset
select public.create_contact(jsonb_build_object('first_name', 'Deniz', 'last_name', 'Ak', 'customer_id', :'isik')) #>> '{record,id}' as deniz \gset
select public.create_deal(jsonb_build_object('title', 'Bakım işi', 'customer_id', :'isik')) #>> '{record,id}' as bakim_deal \gset

select public.create_contract(jsonb_build_object('title', '  Bakım sözleşmesi  ', 'customer_id', :'isik', 'contact_id', :'deniz',
                                                 'deal_id', :'bakim_deal', 'contract_type', 'maintenance', 'value', '120000.50')) as c1 \gset
select is((:'c1'::jsonb) ->> 'success', 'true', 'an admin creates a contract');
select is((select jsonb_build_object('number', r ->> 'contract_number', 'title', r ->> 'title', 'status', r ->> 'status',
                                     'currency', r ->> 'currency', 'value', r -> 'value', 'type', r ->> 'contract_type',
                                     'notice', r -> 'renewal_notice_days', 'term', r -> 'renewal_term_months')
             from (select (:'c1'::jsonb) -> 'record' as r) x),
  jsonb_build_object('number', format('SZL-%s-00001', :'year'), 'title', 'Bakım sözleşmesi', 'status', 'draft', 'currency', 'TRY',
                     'value', 120000.50, 'type', 'maintenance', 'notice', 30, 'term', 12),
  'a new contract is a draft numbered from the default pattern, in the organization''s currency, the value exact');
select (:'c1'::jsonb) #>> '{record,id}' as c1_id, (:'c1'::jsonb) #>> '{record,updated_at}' as c1_at \gset

select is(public.create_contract('{"value": 5}') #>> '{fields,title}', 'required', 'a title is required');
select is(public.create_contract(jsonb_build_object('title', repeat('x', 301))) #>> '{fields,title}', 'too_long',
  'a title has at most 300 characters');
select is(public.create_contract('{"title": "X", "contract_type": "kira"}') #>> '{fields,contract_type}', 'invalid',
  'a type outside the list is refused');
select is(public.create_contract('{"title": "X", "start_date": "2026-05-01", "end_date": "2026-04-30"}') #>> '{fields,end_date}',
  'end_before_start', 'the end cannot come before the start');
select is(public.create_contract('{"title": "X", "start_date": "2026-02-30"}') #>> '{fields,start_date}', 'invalid',
  'an impossible date is refused');
select is(public.create_contract('{"title": "X", "status": "active", "start_date": "2026-01-01"}') #>> '{fields,end_date}',
  'required_for_active', 'an active contract needs its end date');
select is(public.create_contract('{"title": "X", "status": "active"}') #>> '{fields,start_date}',
  'required_for_active', 'and its start date');
select is(public.create_contract('{"title": "X", "value": -1}') #>> '{fields,value}', 'invalid', 'a negative value is refused');
select is(public.create_contract('{"title": "X", "value": 10.125}') #>> '{fields,value}', 'invalid', 'a value has at most two decimals');
select is(public.create_contract('{"title": "X", "value": "1e5"}') #>> '{fields,value}', 'invalid', 'a value is a plain decimal');
select is(public.create_contract('{"title": "X", "currency": "eur"}') #>> '{record,currency}', 'EUR', 'a currency is upper-cased');
select is(public.create_contract('{"title": "X", "currency": "EURO"}') #>> '{fields,currency}', 'invalid', 'a currency has three letters');
select is(public.create_contract('{"title": "X", "renewal_notice_days": 366}') #>> '{fields,renewal_notice_days}', 'invalid',
  'a notice period is at most 365 days');
select is(public.create_contract('{"title": "X", "renewal_term_months": 0}') #>> '{fields,renewal_term_months}', 'invalid',
  'a renewal term is at least a month');
select is(public.create_contract('{"title": "X", "auto_renew": "yes"}') #>> '{fields,auto_renew}', 'invalid', 'auto_renew is a boolean');
select is(public.create_contract(jsonb_build_object('title', 'X', 'customer_id', gen_random_uuid())) #>> '{fields,customer_id}',
  'not_found', 'an unknown customer is refused');
select is(public.create_contract(jsonb_build_object('title', 'X', 'quote_id', gen_random_uuid())) #>> '{fields,quote_id}',
  'not_found', 'an unknown quote is refused');
select is(public.create_contract('{"title": "X", "status": "expired"}') #>> '{fields,status}', 'invalid_transition',
  'a contract starts as a draft or active, never expired');
select is(public.create_contract('{"title": "X", "status": "renewed"}') #>> '{fields,status}', 'invalid_transition',
  'nor renewed');
select is(public.create_contract('{"title": "X", "previous_contract_id": null}') #>> '{fields,previous_contract_id}', 'unknown_field',
  'the renewal chain is not a field (renew_contract sets it)');
select is(public.create_contract('{"title": "X", "contract_number": "EL-1"}') #>> '{fields,contract_number}', 'unknown_field',
  'nor is the number');

select public.create_contract(jsonb_build_object('title', 'Hizmet', 'status', 'active', 'start_date', :'today',
  'end_date', (:'today'::date + 364)::text, 'value', 1000)) as c2 \gset
select is((:'c2'::jsonb) #>> '{record,contract_number}', format('SZL-%s-00003', :'year'),
  'the refused creates took no number: after the EUR contract (00002) comes 00003, gapless');
select is((:'c2'::jsonb) #>> '{record,status}', 'active', 'a contract may start active with both dates');

-- Status through the engine: draft -> active only.
select public.update_contract(:'c1_id', '{"status": "active"}', :'c1_at') #>> '{fields,start_date}' as r \gset
select is(:'r'::text, 'required_for_active', 'activating needs the dates');
select public.update_contract(:'c1_id', jsonb_build_object('status', 'active', 'start_date', (:'today'::date - 300)::text,
  'end_date', (:'today'::date + 20)::text, 'customer_signed_on', (:'today'::date - 301)::text, 'auto_renew', true), :'c1_at') as c1u \gset
select is((:'c1u'::jsonb) #>> '{record,status}', 'active', 'a draft with its dates becomes active');
select (:'c1u'::jsonb) #>> '{record,updated_at}' as c1_at \gset
select is(public.update_contract(:'c1_id', '{"status": "draft"}', :'c1_at') #>> '{fields,status}', 'invalid_transition',
  'an active contract does not go back to draft');
select is(public.update_contract(:'c1_id', '{"status": "terminated"}', :'c1_at') #>> '{fields,status}', 'invalid_transition',
  'nor is it terminated by an edit (terminate_contract asks the reason)');
select is(public.update_contract(:'c1_id', '{"status": "expired"}', :'c1_at') #>> '{fields,status}', 'invalid_transition',
  'nor expired by an edit');
select is(public.update_contract(:'c1_id', '{"end_date": null}', :'c1_at') #>> '{fields,end_date}', 'required_for_active',
  'an active contract keeps its end date');
select is(public.bulk_update_contracts(array[:'c1_id']::uuid[], '{"status": "renewed"}') #>> '{fields,status}', 'invalid_transition',
  'a bulk edit goes through the same rules');
select is(public.update_contract(:'c1_id', '{"title": "Bayat"}', now() - interval '1 day') ->> 'code', 'stale_record',
  'a stale edit is refused');
select tests.reset_role();
select is((select count(*)::int from :"alpha_schema".field_history where record_id = :'c1_id' and field = 'status'), 1,
  'the activation is in the field history');

-- The table's own checks hold whoever writes.
select throws_ok(format('update %I.contracts set end_date = start_date - 1 where id = %L', :'alpha_schema', :'c1_id'), '23514', null,
  'the table refuses an end before the start');
select throws_ok(format('update %I.contracts set status = ''terminated'' where id = %L', :'alpha_schema', :'c1_id'), '23514', null,
  'and a terminated contract without terminated_at');

-- ---------------------------------------------------------------------------------
-- The number pattern setting
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.update_organization_settings('{"contract_number_pattern": "SZ-{YYYY}"}') ->> 'code', 'invalid_setting',
  'a pattern without {SEQ:n} is refused');
select is(public.update_organization_settings('{"contract_number_pattern": 5}') ->> 'code', 'invalid_setting',
  'a pattern is text');
select ok(not (public.get_organization_settings() -> 'settings' ? 'contract_number_pattern'),
  'the settings leave out the default contract number pattern (the answer stays as before)');
select is(public.update_organization_settings('{"contract_number_pattern": "S/{YY}/{MM}/{SEQ:3}"}') #>> '{settings,contract_number_pattern}',
  'S/{YY}/{MM}/{SEQ:3}', 'an admin sets the contract number pattern, and the settings carry it');
select is(public.create_contract('{"title": "Yeni düzen"}') #>> '{record,contract_number}',
  format('S/%s/%s/004', to_char(now() at time zone 'Europe/Istanbul', 'YY'), to_char(now() at time zone 'Europe/Istanbul', 'MM')),
  'the next contract follows the new pattern, the year''s sequence going on');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.update_organization_settings('{"contract_number_pattern": "X-{SEQ:2}"}') ->> 'code', 'admin_required',
  'a member who is not an admin cannot change it');
select tests.reset_role();
select throws_ok(format('update private.organization_settings set contract_number_pattern = ''NO-SEQ'' where organization_id = %L', :'alpha'),
  '23514', null, 'the table refuses a pattern without {SEQ}, whoever writes');

-- ---------------------------------------------------------------------------------
-- Terminate
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select (public.create_contract('{"title": "Feshedilecek"}') -> 'record') as t1 \gset
select (:'t1'::jsonb) ->> 'id' as t1_id, (:'t1'::jsonb) ->> 'updated_at' as t1_at \gset
select is(public.terminate_contract(:'t1_id', :'t1_at', '  ') #>> '{fields,termination_reason}', 'required',
  'terminating needs a reason');
select is(public.terminate_contract(:'t1_id', now() - interval '1 day', 'Neden') ->> 'code', 'stale_record',
  'a stale termination is refused');
select public.terminate_contract(:'t1_id', :'t1_at', '  Müşteri vazgeçti  ') as terminated \gset
select is(jsonb_build_array((:'terminated'::jsonb) #>> '{record,status}', (:'terminated'::jsonb) #>> '{record,termination_reason}',
                            (:'terminated'::jsonb) #>> '{record,terminated_at}' is not null),
  '["terminated", "Müşteri vazgeçti", true]'::jsonb, 'a draft is terminated with its reason and time');
select (:'terminated'::jsonb) #>> '{record,updated_at}' as t1_at \gset
select is(public.terminate_contract(:'t1_id', :'t1_at', 'Yine') ->> 'code', 'not_terminable', 'a terminated contract is not terminated again');
select is(public.renew_contract(:'t1_id', :'t1_at') ->> 'code', 'not_renewable', 'nor renewed');
select is(public.update_contract(:'t1_id', '{"title": "Değişmesin"}', :'t1_at') #>> '{fields,status}', 'locked',
  'a terminated contract is history: no edit');
select is(public.get_contract_details(:'t1_id') #>> '{contract,locked}', 'true', 'its details say it is locked');
select tests.reset_role();
select is((select array_agg(field order by field) from :"alpha_schema".field_history where record_id = :'t1_id'),
  array['status', 'terminated_at', 'termination_reason'], 'the termination is in the field history');
select is((select action from private.audit_log where target_id = :'t1_id' order by id desc limit 1), 'contracts.terminate',
  'and audited');

-- ---------------------------------------------------------------------------------
-- Renew and the chain
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select (public.create_contract('{"title": "Taslak"}') -> 'record') as d1 \gset
select is(public.renew_contract(((:'d1'::jsonb) ->> 'id')::uuid, ((:'d1'::jsonb) ->> 'updated_at')::timestamptz) ->> 'code', 'not_renewable',
  'a draft is not renewed');
select is(public.renew_contract(:'c1_id', now() - interval '1 day') ->> 'code', 'stale_record', 'a stale renewal is refused');
select public.renew_contract(:'c1_id', :'c1_at') as renewal \gset
select is((:'renewal'::jsonb) ->> 'success', 'true', 'an active contract is renewed');
select (:'renewal'::jsonb) ->> 'id' as c1_next \gset
select public.get_contract_details(:'c1_next') as next_details \gset
select is((select jsonb_build_object('status', c ->> 'status', 'start', c ->> 'start_date', 'end', c ->> 'end_date',
                                     'value', c -> 'value', 'currency', c ->> 'currency', 'customer', c ->> 'customer_id',
                                     'contact', c ->> 'contact_id', 'deal', c ->> 'deal_id', 'type', c ->> 'contract_type',
                                     'auto_renew', c -> 'auto_renew', 'previous', c ->> 'previous_contract_id',
                                     'number', c ->> 'contract_number', 'signed', c -> 'customer_signed_on')
             from (select (:'next_details'::jsonb) -> 'contract' as c) x),
  jsonb_build_object('status', 'active', 'start', (:'today'::date + 21)::text,
                     'end', ((:'today'::date + 21) + interval '12 months' - interval '1 day')::date::text,
                     'value', '120000.50', 'currency', 'TRY', 'customer', :'isik', 'contact', :'deniz', 'deal', :'bakim_deal',
                     'type', 'maintenance', 'auto_renew', true, 'previous', :'c1_id',
                     'number', (:'renewal'::jsonb) ->> 'contract_number', 'signed', null),
  'the next term starts the day after the end, runs the renewal term, with the same value, currency and parties, unsigned');
select ok((:'renewal'::jsonb) ->> 'contract_number' <> format('SZL-%s-00001', :'year'), 'with a number of its own');
select is((:'next_details'::jsonb) #>> '{previous,id}', :'c1_id', 'the next term names the previous one');
select is((:'next_details'::jsonb) -> 'customer',
  jsonb_build_object('id', :'isik', 'name', 'Işık Yazılım A.Ş.', 'tax_number', null, 'tax_office', null,
                     'address', null, 'city', null, 'district', null),
  'the details carry the customer with what a contract PDF prints of it');
select is((:'next_details'::jsonb) #>> '{contact,name}', 'Deniz Ak', 'the contact');
select is((:'next_details'::jsonb) -> 'deal', jsonb_build_object('id', :'bakim_deal', 'title', 'Bakım işi'), 'and the deal');
select public.get_contract_details(:'c1_id') as old_details \gset
select is(jsonb_build_array((:'old_details'::jsonb) #>> '{contract,status}', (:'old_details'::jsonb) #>> '{next,id}',
                            (:'old_details'::jsonb) #>> '{contract,locked}'),
  jsonb_build_array('renewed', :'c1_next', 'true'), 'the old term is renewed, locked, and names its next term');
select is(public.renew_contract(:'c1_id', ((:'old_details'::jsonb) #>> '{contract,updated_at}')::timestamptz) ->> 'code',
  'already_renewed', 'a renewed contract is not renewed twice');
select tests.reset_role();
select is((select action from private.audit_log where target_id = :'c1_id' order by id desc limit 1), 'contracts.renew',
  'the renewal is audited');
select throws_ok(format('insert into %I.contracts (title, previous_contract_id, owner_id, created_by) values (''İkinci'', %L, %L, %L)',
                        :'alpha_schema', :'c1_id', :'alpha_admin', :'alpha_admin'), '23505', null,
  'the table allows one next term per contract');

-- ---------------------------------------------------------------------------------
-- Per role: own-scope sales, viewer
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select (public.create_contract(jsonb_build_object('title', 'Satışçının', 'status', 'active', 'start_date', (:'today'::date - 10)::text,
  'end_date', (:'today'::date + 5)::text, 'renewal_notice_days', 7)) -> 'record') as s1 \gset
select is((:'s1'::jsonb) ->> 'owner_id', :'alpha_sales', 'an own-scope member creates their own contract');
select (:'s1'::jsonb) ->> 'id' as s1_id, (:'s1'::jsonb) ->> 'updated_at' as s1_at \gset
select is(public.get_contract_details(:'c1_next') #>> '{contract,id}', :'c1_next', 'they may see another''s contract (view all)');
select is(public.renew_contract(:'c1_next', ((:'next_details'::jsonb) #>> '{contract,updated_at}')::timestamptz) ->> 'code', 'not_found',
  'but not renew it');
select is(public.terminate_contract(:'c1_next', ((:'next_details'::jsonb) #>> '{contract,updated_at}')::timestamptz, 'x') ->> 'code',
  'not_found', 'nor terminate it');
select is(public.update_contract(:'c1_next', '{"title": "Benim"}', ((:'next_details'::jsonb) #>> '{contract,updated_at}')::timestamptz) ->> 'code',
  'not_record_owner', 'nor edit it (another member''s record)');
select is(public.create_contract(jsonb_build_object('title', 'Başkasına', 'owner_id', :'alpha_admin')) ->> 'code', 'permission_denied',
  'nor give a new one to someone else');
select (public.create_contract(jsonb_build_object('title', 'Yenilenecek', 'status', 'active', 'start_date', (:'today'::date - 10)::text,
  'end_date', (:'today'::date + 200)::text)) -> 'record') as s2 \gset
select public.renew_contract(((:'s2'::jsonb) ->> 'id')::uuid, ((:'s2'::jsonb) ->> 'updated_at')::timestamptz) as s1_renewal \gset
select is((:'s1_renewal'::jsonb) ->> 'success', 'true', 'they renew their own contract');
select is((select (c ->> 'owner_id') from (select public.get_contract_details(((:'s1_renewal'::jsonb) ->> 'id')::uuid) -> 'contract' as c) x),
  :'alpha_sales', 'the next term is theirs too');
select tests.reset_role();

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.get_contract_details(:'c1_next') #>> '{contract,id}', :'c1_next', 'a viewer reads a contract');
select is(public.list_contracts_ending(400) ->> 'code', 'invalid_input', 'the ending list takes 1 to 365 days');
select ok(not exists (select 1 from jsonb_array_elements(public.list_contracts_ending(30) -> 'contracts') e where e ->> 'title' = 'Hizmet')
          and exists (select 1 from jsonb_array_elements(public.list_contracts_ending(30) -> 'contracts') e where e ->> 'title' = 'Satışçının'),
  'a viewer lists the contracts ending within 30 days; one ending in a year is not among them');
select is(public.create_contract('{"title": "Okuyucu"}') ->> 'code', 'permission_denied', 'a viewer cannot create a contract');
select is(public.renew_contract(:'c1_next', ((:'next_details'::jsonb) #>> '{contract,updated_at}')::timestamptz) ->> 'code',
  'permission_denied', 'nor renew one');
select is(public.terminate_contract(:'c1_next', ((:'next_details'::jsonb) #>> '{contract,updated_at}')::timestamptz, 'x') ->> 'code',
  'permission_denied', 'nor terminate one');
select is(public.create_contract_from_quote(gen_random_uuid()) ->> 'code', 'permission_denied', 'nor make one from a quote');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Another organization, and a member of both working in the other one
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.get_contract_details(:'c1_next') ->> 'code', 'not_found', 'another organization''s admin cannot read a contract');
select is(public.renew_contract(:'c1_next', ((:'next_details'::jsonb) #>> '{contract,updated_at}')::timestamptz) ->> 'code', 'not_found',
  'nor renew it');
select is(public.terminate_contract(:'c1_next', ((:'next_details'::jsonb) #>> '{contract,updated_at}')::timestamptz, 'x') ->> 'code',
  'not_found', 'nor terminate it');
select is(jsonb_array_length(public.list_contracts_ending(365) -> 'contracts'), 0, 'nor list it among those ending');
select is(public.create_contract(jsonb_build_object('title', 'Sızma', 'customer_id', :'isik')) #>> '{fields,customer_id}', 'not_found',
  'nor link a contract to another organization''s customer');
select is(public.create_contract('{"title": "Beta sözleşmesi"}') #>> '{record,contract_number}', format('SZL-%s-00001', :'year'),
  'numbers are per organization');
select tests.reset_role();
select tests.authenticate_as(:'multi', :'s_multi');
select is(public.get_contract_details(:'c1_next') ->> 'code', 'not_found',
  'a member of both, working in beta, cannot read alpha''s contract');
select is(public.renew_contract(:'s1_id', now()) ->> 'code', 'not_found', 'nor renew it');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- From a quote
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_quote(null, jsonb_build_object('customer_id', :'isik', 'contact_id', :'deniz', 'deal_id', :'bakim_deal',
                                                  'currency', 'TRY', 'quote_date', :'today', 'valid_until', (:'today'::date + 30)::text),
                         '[{"description": "Bakım hizmeti", "quantity": 12, "unit": "ay", "unit_price": 1250.50, "vat_rate": 20}]') as q \gset
select (:'q'::jsonb) ->> 'id' as q_id, (:'q'::jsonb) ->> 'updated_at' as q_at \gset
select is(public.create_contract_from_quote(:'q_id') ->> 'code', 'quote_not_ready', 'a draft quote does not become a contract');
select is(public.send_quote(:'q_id', :'q_at') ->> 'success', 'true', 'the quote is sent');
select public.create_contract_from_quote(:'q_id') as from_quote \gset
select is((:'from_quote'::jsonb) ->> 'success', 'true', 'a sent quote becomes a contract');
select public.get_contract_details(((:'from_quote'::jsonb) ->> 'id')::uuid) as fq \gset
select tests.reset_role();
select net_total::text as q_net, vat_total::text as q_vat, grand_total::text as q_total, quote_number as q_number
  from :"alpha_schema".quotes where id = :'q_id' \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is((select jsonb_build_object('status', c ->> 'status', 'value', c ->> 'value', 'vat', c ->> 'vat_amount',
                                     'includes_vat', c -> 'value_includes_vat', 'with_vat', c ->> 'total_with_vat', 'currency', c ->> 'currency',
                                     'customer', c ->> 'customer_id', 'contact', c ->> 'contact_id', 'deal', c ->> 'deal_id',
                                     'quote', c ->> 'quote_id', 'owner', c ->> 'owner_id')
             from (select (:'fq'::jsonb) -> 'contract' as c) x),
  jsonb_build_object('status', 'draft',
                     'value', :'q_net', 'vat', :'q_vat', 'includes_vat', false, 'with_vat', :'q_total',
                     'currency', 'TRY', 'customer', :'isik', 'contact', :'deniz', 'deal', :'bakim_deal', 'quote', :'q_id',
                     'owner', :'alpha_admin'),
  'a draft contract with the quote''s parties, deal and currency, valued at its net total (KDV hariç) with its KDV stated apart');
select is(jsonb_build_array(:'q_net'::text, :'q_vat'::text, :'q_total'::text), '["15006.00", "3001.20", "18007.20"]'::jsonb,
  'to the kuruş: net 12 × 1,250.50, KDV 20%, with KDV the quote''s grand total');
select is((:'fq'::jsonb) -> 'quote', jsonb_build_object('id', :'q_id', 'quote_number', :'q_number'),
  'its details link the quote by number');
select is(public.create_contract_from_quote(gen_random_uuid()) ->> 'code', 'not_found', 'an unknown quote is not found');
select tests.reset_role();
update :"alpha_schema".quotes set valid_until = :'today'::date - 1, quote_date = :'today'::date - 10 where id = :'q_id';
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.create_contract_from_quote(:'q_id') ->> 'code', 'quote_not_ready', 'a sent quote past its validity reads expired: refused');
select tests.reset_role();
update :"alpha_schema".quotes set valid_until = :'today'::date + 30, quote_date = :'today' where id = :'q_id';
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.create_contract_from_quote(:'q_id') #>> '{id}' is not null, true,
  'an own-scope member who sees the quote makes their own contract from it');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.create_contract_from_quote(:'q_id') ->> 'code', 'not_found', 'another organization''s admin cannot use the quote');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Contracts ending soon
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.list_contracts_ending(60) as ending \gset
select is((:'ending'::jsonb) ->> 'today', :'today', 'the ending list says which day it counts from');
select is((select array_agg(e ->> 'title' order by n) from jsonb_array_elements((:'ending'::jsonb) -> 'contracts') with ordinality x (e, n)),
  array['Satışçının'], 'active contracts ending within 60 days, soonest first (renewed and terminated ones are not)');
select is((select jsonb_build_object('days_left', e -> 'days_left', 'notice_date', e ->> 'notice_date', 'owner_name', e ->> 'owner_name')
             from jsonb_array_elements((:'ending'::jsonb) -> 'contracts') e),
  jsonb_build_object('days_left', 5, 'notice_date', (:'today'::date - 2)::text, 'owner_name', 'Selim Satış'),
  'each with its days left, notice date and owner');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- The scheduled step: notice once, expiry, auto-renewal
-- ---------------------------------------------------------------------------------
-- Written straight into the table (dates in the past cannot be made through the RPCs'
-- path without waiting): the step treats them like any other contract.
insert into :"alpha_schema".contracts (id, title, status, start_date, end_date, auto_renew, renewal_notice_days,
                                       renewal_term_months, owner_id, created_by)
values
  ('f0000000-0000-4000-8000-000000000001', 'Haber verilecek', 'active', :'today'::date - 100, :'today'::date + 10, false, 30, 12,
   :'alpha_sales', :'alpha_sales'),
  ('f0000000-0000-4000-8000-000000000002', 'Henüz erken', 'active', :'today'::date - 100, :'today'::date + 60, false, 30, 12,
   :'alpha_sales', :'alpha_sales'),
  ('f0000000-0000-4000-8000-000000000003', 'Süresi doldu', 'active', :'today'::date - 100, :'today'::date - 1, false, 30, 12,
   :'alpha_sales', :'alpha_sales'),
  ('f0000000-0000-4000-8000-000000000004', 'Kendiliğinden yenilenir', 'active', :'today'::date - 100, :'today'::date - 45, true, 0, 1,
   :'alpha_sales', :'alpha_sales'),
  ('f0000000-0000-4000-8000-000000000005', 'Taslak kalır', 'draft', :'today'::date - 100, :'today'::date - 1, true, 30, 12,
   :'alpha_sales', :'alpha_sales');

-- As a person last read them (a day ago; triggers off to set it).
set session_replication_role = replica;
update :"alpha_schema".contracts set updated_at = '2026-01-01 12:00+00' where id::text like 'f0000000%';
set session_replication_role = default;
select private.contract_due_steps(:'alpha') as first_run \gset
select private.contract_due_steps(:'alpha') as second_run \gset
select is((select updated_at from :"alpha_schema".contracts where id = 'f0000000-0000-4000-8000-000000000001'), '2026-01-01 12:00+00'::timestamptz,
  'the renewal notice''s mark leaves the contract''s updated_at as it was: a save begun before is not refused as stale');
select isnt((select updated_at from :"alpha_schema".contracts where id = 'f0000000-0000-4000-8000-000000000003'), '2026-01-01 12:00+00'::timestamptz,
  'while an expiry is a change of the contract');
select is((select count(*)::int from private.notifications
            where kind = 'contract_renewal' and record_id = 'f0000000-0000-4000-8000-000000000001' and user_id = :'alpha_sales'), 1,
  'the owner is told once the notice date has come');
select is((select count(*)::int from private.notifications where kind = 'contract_renewal' and record_id = :'s1_id'), 1,
  'also for a contract a few days from its end');
select is((select count(*)::int from private.notifications
            where kind = 'contract_renewal' and record_id = 'f0000000-0000-4000-8000-000000000002'), 0,
  'nobody is told before the notice date');
select is((select status::text from :"alpha_schema".contracts where id = 'f0000000-0000-4000-8000-000000000003'), 'expired',
  'an active contract past its end expires');
select is((select status::text from :"alpha_schema".contracts where id = 'f0000000-0000-4000-8000-000000000005'), 'draft',
  'a draft past its end is left alone');
select is((with recursive chain as (
             select c.id, c.status::text, c.end_date, 1 as depth from :"alpha_schema".contracts c
              where c.id = 'f0000000-0000-4000-8000-000000000004'
             union all
             select n.id, n.status::text, n.end_date, chain.depth + 1 from :"alpha_schema".contracts n
               join chain on n.previous_contract_id = chain.id)
           select jsonb_build_object('terms', count(*), 'live', count(*) filter (where status = 'active'),
                                     'last_ends_from_today', max(end_date) >= :'today'::date) from chain),
  '{"terms": 3, "live": 1, "last_ends_from_today": true}'::jsonb,
  'an auto-renewing contract past its end renews, term after term, until the current term');
select is(((:'first_run'::jsonb) ->> 'expired')::int, 1, 'the step counts what expired');
select is((:'second_run'::jsonb), '{"contract_renewal": 0, "expired": 0, "renewed": 0}'::jsonb,
  'a second run does nothing again');
select is((select actor_id from private.audit_log where target_id = 'f0000000-0000-4000-8000-000000000003' order by id desc limit 1),
  null, 'the expiry is audited as the scheduled step''s');

-- A new end date lets the notice go out again.
select updated_at as f1_at from :"alpha_schema".contracts where id = 'f0000000-0000-4000-8000-000000000001' \gset
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.update_contract('f0000000-0000-4000-8000-000000000001', jsonb_build_object('end_date', (:'today'::date + 12)::text),
  :'f1_at') ->> 'success' as moved \gset
select tests.reset_role();
select is(:'moved'::text, 'true', 'the owner moves the end date of a contract already announced');
select is(private.contract_due_steps(:'alpha') ->> 'contract_renewal', '1', 'a contract given a new end date is announced again');
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.get_notifications() #>> '{notifications,0,kind}', 'contract_renewal', 'the notice reaches the owner''s bell');
select tests.reset_role();

select * from finish();
rollback;
