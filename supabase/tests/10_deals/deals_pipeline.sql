-- The deals pipeline: the deal's rules (stage, probability, closed_at, lost reason), the
-- stage history, move_deal per role and for another organization, the board (shape,
-- scope, filters, totals kept per owner, unknown stages, more cards), the forecast (with
-- and without an exchange rate), the exchange rates setting, removing a stage that holds
-- deals, a deal's contacts and details, merging two contacts of one deal, the record
-- transfer, and anon refused.
begin;
select plan(143);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('sales2@alpha.test', 'user', 'Sena', 'İkinci') as alpha_sales2 \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('solo@alpha.test', 'user', 'Sinan', 'Solo') as alpha_solo \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_sales2', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
-- A role that sees only its own deals (the default roles all see every deal).
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'solo', 'Yalnız kendi');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'alpha', 'solo', 'deals', 'view', 'own'), (:'alpha', 'solo', 'deals', 'create', 'own'),
       (:'alpha', 'solo', 'deals', 'edit', 'own');
select tests.add_member(:'alpha_solo', :'alpha', 'solo');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_sales2, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_solo, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_sales2', :'s_sales2', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'alpha_solo', :'s_solo', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

-- The first day of this month and the next, in the organization's time zone.
select to_char(date_trunc('month', now() at time zone 'Europe/Istanbul'), 'YYYY-MM-DD') as month0,
       to_char(date_trunc('month', now() at time zone 'Europe/Istanbul') + interval '1 month', 'YYYY-MM-DD') as month1,
       to_char(date_trunc('month', now() at time zone 'Europe/Istanbul'), 'YYYY-MM') as month0_key,
       to_char(date_trunc('month', now() at time zone 'Europe/Istanbul') + interval '1 month', 'YYYY-MM') as month1_key \gset

-- ---------------------------------------------------------------------------------
-- anon
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok(format('select public.move_deal(%L, %L, now())', gen_random_uuid(), 'won'), '42501', null, 'anon cannot move a deal');
select throws_ok('select public.get_deal_board()', '42501', null, 'anon cannot read the board');
select throws_ok('select public.get_deal_board_stage(''lead'')', '42501', null, 'anon cannot read a stage of the board');
select throws_ok('select public.get_deal_forecast()', '42501', null, 'anon cannot read the forecast');
select throws_ok(format('select public.get_deal_stage_history(%L)', gen_random_uuid()), '42501', null, 'anon cannot read a stage history');
select throws_ok(format('select public.get_deal_details(%L)', gen_random_uuid()), '42501', null, 'anon cannot read a deal''s details');
select throws_ok(format('select public.set_deal_contacts(%L, %L)', gen_random_uuid(), '{}'), '42501', null,
  'anon cannot set a deal''s contacts');
select throws_ok('select public.create_deal(''{"title": "Anon"}'')', '42501', null, 'anon cannot create a deal');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- The deal's rules
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Işık Yazılım A.Ş."}') #>> '{record,id}' as isik \gset
select public.create_customer('{"name": "Silinecek Ltd."}') #>> '{record,id}' as gone_customer \gset
select public.delete_customers(array[:'gone_customer']::uuid[]) ->> 'changed' as deleted \gset

select public.create_deal(jsonb_build_object('title', '  ERP lisansı  ', 'amount', 150000.5, 'customer_id', :'isik',
                                             'tags', '["yazılım"]'::jsonb, 'source', 'Fuar')) as erp \gset
select is((:'erp'::jsonb) ->> 'success', 'true', 'an admin creates a deal');
select is((select jsonb_build_object('title', r ->> 'title', 'stage', r ->> 'stage', 'probability', r -> 'probability',
                                     'currency', r ->> 'currency', 'amount', r -> 'amount', 'closed_at', r -> 'closed_at')
             from (select (:'erp'::jsonb) -> 'record' as r) x),
  '{"title": "ERP lisansı", "stage": "lead", "probability": 10, "currency": "TRY", "amount": 150000.50, "closed_at": null}'::jsonb,
  'a new deal starts at the first open stage with its probability, in the organization''s currency, the title trimmed');
select ok(not ((:'erp'::jsonb) -> 'record' ? 'search_text'), 'the search column is not in the answer');
select (:'erp'::jsonb) #>> '{record,id}' as erp_id, (:'erp'::jsonb) #>> '{record,updated_at}' as erp_at \gset

select is(public.create_deal('{"title": "X", "stage": "nope"}') #>> '{fields,stage}', 'invalid_stage',
  'a stage outside the pipeline is refused');
select is(public.create_deal('{"title": "X", "stage": "proposal"}') #>> '{record,probability}', '50',
  'a stage without a probability brings its own');
select is(public.create_deal('{"title": "X", "stage": "proposal", "probability": 60}') #>> '{record,probability}', '60',
  'a probability given is kept');
select is(public.create_deal('{"title": "X", "probability": 101}') #>> '{fields,probability}', 'invalid', 'a probability above 100 is refused');
select is(public.create_deal('{"title": "X", "probability": 12.5}') #>> '{fields,probability}', 'invalid', 'a probability is whole');
select is(public.create_deal('{"amount": 5}') #>> '{fields,title}', 'required', 'a title is required');
select is(public.create_deal(jsonb_build_object('title', repeat('x', 201))) #>> '{fields,title}', 'too_long', 'a title has at most 200 characters');
select is(public.create_deal('{"title": "X", "amount": -1}') #>> '{fields,amount}', 'invalid', 'a negative amount is refused');
select is(public.create_deal('{"title": "X", "amount": "100"}') #>> '{fields,amount}', 'invalid', 'an amount is a number');
select is(public.create_deal('{"title": "X", "currency": "usd"}') #>> '{record,currency}', 'USD', 'a currency is upper-cased');
select is(public.create_deal('{"title": "X", "currency": "DOLAR"}') #>> '{fields,currency}', 'invalid', 'a currency has three letters');
select is(public.create_deal('{"title": "X", "expected_close_date": "2026-02-30"}') #>> '{fields,expected_close_date}', 'invalid',
  'an impossible date is refused');
select is(public.create_deal(jsonb_build_object('title', 'X', 'customer_id', gen_random_uuid())) #>> '{fields,customer_id}', 'not_found',
  'an unknown customer is refused');
select is(public.create_deal(jsonb_build_object('title', 'X', 'customer_id', :'gone_customer')) #>> '{fields,customer_id}', 'not_found',
  'a deleted customer is refused');
select is(public.create_deal('{"title": "X", "source": 5}') #>> '{fields,source}', 'invalid', 'a source is text');
select is(public.create_deal('{"title": "X", "contact_ids": []}') #>> '{fields,contact_ids}', 'unknown_field',
  'contacts are not a deal field (set_deal_contacts sets them)');

select public.create_deal('{"title": "Kazanılan", "stage": "won", "amount": 10}') as won_deal \gset
select ok((:'won_deal'::jsonb) #>> '{record,closed_at}' is not null and (:'won_deal'::jsonb) #>> '{record,probability}' = '100',
  'a deal made in a won stage is closed, at 100%');
select is(public.create_deal('{"title": "Kaybedilen", "stage": "lost"}') #>> '{fields,lost_reason}', 'required',
  'a lost stage needs a lost reason');

-- Moving through the stages with update_deal.
select public.update_deal(:'erp_id', '{"stage": "lost"}', :'erp_at') #>> '{fields,lost_reason}' as r \gset
select is(:'r'::text, 'required', 'moving to lost without a reason is refused');
select public.update_deal(:'erp_id', '{"stage": "lost", "lost_reason": "Bütçe ertelendi"}', :'erp_at') as lost \gset
select is((:'lost'::jsonb) #>> '{record,lost_reason}', 'Bütçe ertelendi', 'moving to lost with a reason is written');
select ok((:'lost'::jsonb) #>> '{record,closed_at}' is not null and (:'lost'::jsonb) #>> '{record,probability}' = '0',
  'a lost deal is closed, at 0%');
select is(public.update_deal(:'erp_id', '{"lost_reason": null}', ((:'lost'::jsonb) #>> '{record,updated_at}')::timestamptz) #>> '{fields,lost_reason}',
  'required', 'a lost deal keeps its reason');
select public.update_deal(:'erp_id', '{"stage": "qualified"}', ((:'lost'::jsonb) #>> '{record,updated_at}')::timestamptz) as reopened \gset
select is((select jsonb_build_object('stage', r ->> 'stage', 'probability', r -> 'probability', 'closed_at', r -> 'closed_at',
                                     'lost_reason', r -> 'lost_reason')
             from (select (:'reopened'::jsonb) -> 'record' as r) x),
  '{"stage": "qualified", "probability": 25, "closed_at": null, "lost_reason": null}'::jsonb,
  'reopening clears closed_at and the lost reason and takes the open stage''s probability');
select (:'reopened'::jsonb) #>> '{record,updated_at}' as erp_at \gset
select is(public.update_deal(:'erp_id', '{"probability": 40}', :'erp_at') #>> '{record,probability}', '40',
  'the probability changes on its own');
select (public.get_deal(:'erp_id') #>> '{record,updated_at}') as erp_at \gset
select is(public.update_deal(:'erp_id', '{"lost_reason": "yok"}', :'erp_at') #> '{record,lost_reason}', 'null'::jsonb,
  'an open deal keeps no lost reason');
select (public.get_deal(:'erp_id') #>> '{record,updated_at}') as erp_at \gset
select is(public.bulk_update_deals(array[:'erp_id']::uuid[], '{"stage": "nope"}') #>> '{fields,stage}', 'invalid_stage',
  'a bulk edit goes through the same rules');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Stage history
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_deal_stage_history(:'erp_id') as h \gset
select is((select array_agg(coalesce(e ->> 'from_stage', '-') || '>' || (e ->> 'to_stage') || ' ' || (e ->> 'changed_by_name')
                            order by n)
             from jsonb_array_elements((:'h'::jsonb) -> 'history') with ordinality x (e, n)),
  array['->lead Ayşe Yönetici', 'lead>lost Ayşe Yönetici', 'lost>qualified Ayşe Yönetici'],
  'every stage change is in the history with who made it');
select is((:'h'::jsonb) #>> '{history,1,to_stage_name}', 'Kaybedildi', 'with the stages'' names');
select ok((select bool_and((e ->> 'duration_seconds')::bigint >= 0) from jsonb_array_elements((:'h'::jsonb) -> 'history') e)
          and (:'h'::jsonb) #> '{history,2,left_at}' = 'null'::jsonb,
  'each entry says how long the deal stayed; the current stage is still open');
select is((select array_agg(e ->> 'stage' order by n) from jsonb_array_elements((:'h'::jsonb) -> 'time_in_stage') with ordinality x (e, n)),
  array['lead', 'lost', 'qualified'], 'the time spent per stage');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where target_id = :'erp_id' and action = 'deals.update'), 4,
  'each of the four writes is audited, no refusal');
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.get_deal_stage_history(:'erp_id') ->> 'code', 'not_found', 'another organization''s admin cannot read the history');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- move_deal
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.create_deal('{"title": "Satışçının fırsatı", "amount": 2000}') as sales_deal \gset
select (:'sales_deal'::jsonb) #>> '{record,id}' as sales_deal_id, (:'sales_deal'::jsonb) #>> '{record,updated_at}' as sales_deal_at \gset
select public.move_deal(:'sales_deal_id', 'proposal', :'sales_deal_at') as moved \gset
select is((:'moved'::jsonb) ->> 'success', 'true', 'an own-scope member moves their own deal');
select is((:'moved'::jsonb) #>> '{record,stage}', 'proposal', 'the answer carries the moved record');
select is(public.move_deal(:'erp_id', 'proposal', :'erp_at') ->> 'code', 'not_record_owner',
  'an own-scope member cannot move another''s deal, even by id (refused as another member''s)');
select tests.reset_role();
select is((select count(*)::int from :"alpha_schema".field_history where record_id = :'sales_deal_id' and field = 'stage'), 1,
  'the move is in the field history');
select is((select action from private.audit_log where target_id = :'sales_deal_id' order by id desc limit 1), 'deals.update',
  'and audited');
select is((select changed_by from :"alpha_schema".deal_stage_history where deal_id = :'sales_deal_id' and to_stage = 'proposal'),
  :'alpha_sales'::uuid, 'the stage history names the member who moved it');

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.move_deal(:'sales_deal_id', 'won', ((:'moved'::jsonb) #>> '{record,updated_at}')::timestamptz) ->> 'code',
  'permission_denied', 'a viewer cannot move a deal');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.move_deal(:'sales_deal_id', 'won', ((:'moved'::jsonb) #>> '{record,updated_at}')::timestamptz) ->> 'code',
  'not_found', 'another organization''s admin: not found');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.move_deal(:'sales_deal_id', 'won', ((:'moved'::jsonb) #>> '{record,updated_at}')::timestamptz - interval '1 second') ->> 'code',
  'stale_record', 'a move from a stale read is refused');
select is(public.move_deal(:'sales_deal_id', 'lost', ((:'moved'::jsonb) #>> '{record,updated_at}')::timestamptz) #>> '{fields,lost_reason}',
  'required', 'a move to a lost stage needs its reason');
select is(public.move_deal(:'sales_deal_id', 'nope', ((:'moved'::jsonb) #>> '{record,updated_at}')::timestamptz) #>> '{fields,stage}',
  'invalid_stage', 'a move to a stage outside the pipeline is refused');
select public.move_deal(:'sales_deal_id', 'lost', ((:'moved'::jsonb) #>> '{record,updated_at}')::timestamptz, 'Rakip daha ucuz') as moved \gset
select is((:'moved'::jsonb) #>> '{record,lost_reason}', 'Rakip daha ucuz', 'an admin moves anyone''s deal to lost with its reason');
select tests.reset_role();
select is((select count(*)::int from :"alpha_schema".deal_stage_history where deal_id = :'sales_deal_id'), 3,
  'refused moves wrote no history');

-- ---------------------------------------------------------------------------------
-- Contacts of a deal, details, merge
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_contact(jsonb_build_object('customer_id', :'isik', 'first_name', 'Şule', 'last_name', 'Güneş')) #>> '{record,id}' as sule \gset
select public.create_contact(jsonb_build_object('customer_id', :'isik', 'first_name', 'Şule', 'last_name', 'Gunes')) #>> '{record,id}' as sule2 \gset
select public.create_contact('{"first_name": "Ozan", "last_name": "Öz"}') #>> '{record,id}' as ozan \gset
select public.set_deal_contacts(:'erp_id', array[:'sule', :'ozan', :'sule']::uuid[]) as set_contacts \gset
select is((select array_agg(c ->> 'name' order by n) from jsonb_array_elements((:'set_contacts'::jsonb) -> 'contacts') with ordinality x (c, n)),
  array['Ozan Öz', 'Şule Güneş'], 'an admin sets a deal''s contacts (each once)');
select is(public.set_deal_contacts(:'erp_id', array[gen_random_uuid()]) #>> '{fields,contact_ids}', 'not_found',
  'an unknown contact is refused');
select is(public.set_deal_contacts(:'erp_id', array[null]::uuid[]) ->> 'code', 'invalid_input', 'a null contact is refused');
select public.get_deal_details(:'erp_id') as details \gset
select is((:'details'::jsonb) #>> '{record,customer_name}', 'Işık Yazılım A.Ş.', 'the details name the customer');
select is(jsonb_array_length((:'details'::jsonb) -> 'contacts'), 2, 'and list the contacts');
select is(jsonb_array_length((:'details'::jsonb) -> 'stage_history'), 3, 'and the stage history');
select ok((:'details'::jsonb) ? 'time_in_stage', 'and the time per stage');
select tests.reset_role();
select is((select new_value from :"alpha_schema".field_history where record_id = :'erp_id' and field = 'contact_ids'),
  (select jsonb_agg(c order by c) from unnest(array[:'sule', :'ozan']::uuid[]) c),
  'the contacts change is in the deal''s field history');
select ok(exists (select 1 from private.audit_log where target_id = :'erp_id' and action = 'deals.contacts'), 'and audited');

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.set_deal_contacts(:'erp_id', array[:'ozan']::uuid[]) ->> 'code', 'not_found',
  'an own-scope member cannot set the contacts of another''s deal');
select is(jsonb_array_length(public.get_deal_details(:'erp_id') -> 'contacts'), 2, 'but reads them (view scope all)');
select tests.reset_role();
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.set_deal_contacts(:'erp_id', array[:'ozan']::uuid[]) ->> 'code', 'permission_denied', 'a viewer cannot set contacts');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.get_deal_details(:'erp_id') ->> 'code', 'not_found', 'another organization''s admin cannot read the details');
select is(public.set_deal_contacts(:'erp_id', '{}') ->> 'code', 'not_found', 'nor set the contacts');
select public.create_contact('{"first_name": "Beta"}') #>> '{record,id}' as beta_contact \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.set_deal_contacts(:'erp_id', array[:'beta_contact']::uuid[]) #>> '{fields,contact_ids}', 'not_found',
  'another organization''s contact is refused');

-- Two contacts of one deal merged: one link stays, pointing at the survivor.
select public.set_deal_contacts(:'erp_id', array[:'sule', :'sule2', :'ozan']::uuid[]) ->> 'success' as done \gset
select public.set_deal_contacts(:'sales_deal_id', array[:'sule2']::uuid[]) ->> 'success' as done \gset
select public.merge_contacts(:'sule', :'sule2') as merged \gset
select is((:'merged'::jsonb) ->> 'success', 'true', 'two contacts of the same deal merge');
select tests.reset_role();
select is((select array_agg(contact_id order by contact_id) from :"alpha_schema".deal_contacts where deal_id = :'erp_id'),
  (select array_agg(c order by c) from unnest(array[:'sule', :'ozan']::uuid[]) c),
  'the deal keeps one link to the survivor');
select is((select array_agg(contact_id) from :"alpha_schema".deal_contacts where deal_id = :'sales_deal_id'), array[:'sule']::uuid[],
  'another deal''s link moves to the survivor');

-- ---------------------------------------------------------------------------------
-- The board
-- ---------------------------------------------------------------------------------
-- A clean slate: the deals made so far go (soft delete), the board's are made below.
update :"alpha_schema".deals set deleted_at = now();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_deal(jsonb_build_object('title', 'Aday TL', 'amount', 1000, 'customer_id', :'isik')) #>> '{record,id}' as b1 \gset
select public.create_deal('{"title": "Aday dolar", "amount": 500, "currency": "USD"}') #>> '{record,id}' as b2 \gset
select public.create_deal('{"title": "Teklif büyük", "amount": 2000, "stage": "proposal"}') #>> '{record,id}' as b3 \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_solo', :'s_solo');
select public.create_deal('{"title": "Solo aday", "amount": 300}') #>> '{record,id}' as b4 \gset
select public.create_deal('{"title": "Solo kazanç", "amount": 700, "stage": "won"}') #>> '{record,id}' as b5 \gset
select tests.reset_role();

-- Changed at different times (the touch trigger would set now()).
alter table :"alpha_schema".deals disable trigger touch_updated_at;
update :"alpha_schema".deals set updated_at = now() - interval '3 hours' where id = :'b1';
update :"alpha_schema".deals set updated_at = now() - interval '2 hours' where id = :'b2';
update :"alpha_schema".deals set updated_at = now() - interval '1 hour' where id = :'b4';
alter table :"alpha_schema".deals enable trigger touch_updated_at;

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_deal_board() as board \gset
select is((select array_agg(s ->> 'key' order by n) from jsonb_array_elements((:'board'::jsonb) -> 'stages') with ordinality x (s, n)),
  array['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'], 'the board has every stage of the pipeline, in order');
select is((select s - 'cards' from jsonb_array_elements((:'board'::jsonb) -> 'stages') s where s ->> 'key' = 'lead'),
  '{"key": "lead", "name": "Aday", "outcome": "open", "probability": 10, "unknown": false, "next_cursor": null, "count": 3,
    "totals": [{"currency": "TRY", "amount": 1300}, {"currency": "USD", "amount": 500}]}'::jsonb,
  'a stage: its name, outcome, probability, count and totals per currency (the organization''s first)');
select is((select jsonb_agg(c ->> 'title' order by n) from jsonb_array_elements((:'board'::jsonb) #> '{stages,0,cards}') with ordinality x (c, n)),
  '["Solo aday", "Aday dolar", "Aday TL"]'::jsonb, 'cards come most recently changed first');
select is((select array_agg(k order by k) from jsonb_object_keys((:'board'::jsonb) #> '{stages,0,cards,0}') k),
  array['amount', 'currency', 'customer_id', 'customer_name', 'expected_close_date', 'id', 'owner_id', 'owner_name', 'probability',
        'title', 'updated_at'], 'a card has exactly the fields the board shows');
select is((select c ->> 'customer_name' from jsonb_array_elements((:'board'::jsonb) #> '{stages,0,cards}') c where c ->> 'id' = :'b1'),
  'Işık Yazılım A.Ş.', 'with the customer''s name');
select is((select c ->> 'owner_name' from jsonb_array_elements((:'board'::jsonb) #> '{stages,0,cards}') c where c ->> 'id' = :'b4'),
  'Sinan Solo', 'and the owner''s');
select is((select (s ->> 'count')::int from jsonb_array_elements((:'board'::jsonb) -> 'stages') s where s ->> 'key' = 'won'), 1,
  'deleted deals are not on the board');
select is((public.get_deal_board('{"owner_id": "me"}') #>> '{stages,0,count}')::int, 2, 'the owner filter takes "me"');
select is((public.get_deal_board(jsonb_build_object('customer_id', :'isik')) #>> '{stages,0,count}')::int, 1, 'a customer filter');
select is((public.get_deal_board('{"search": "aday"}') #>> '{stages,0,count}')::int, 3, 'a search (Turkish-folded)');
select is((public.get_deal_board('{"search": "DOLAR"}') #> '{stages,0,totals}'), '[{"currency": "USD", "amount": 500}]'::jsonb,
  'a search counts its own totals');
select is(public.get_deal_board('{"stage": "lead"}') ->> 'code', 'invalid_input', 'an unknown filter is refused');
select is(public.get_deal_board('{"owner_id": "not-an-id"}') ->> 'code', 'invalid_input', 'a malformed owner is refused');
select is(public.get_deal_board('[]') ->> 'code', 'invalid_input', 'filters are an object');

select public.get_deal_board(p_per_stage => 1) as small_board \gset
select is(jsonb_array_length((:'small_board'::jsonb) #> '{stages,0,cards}'), 1, 'p_per_stage limits the cards, not the count');
select public.get_deal_board_stage('lead', null, (:'small_board'::jsonb) #> '{stages,0,next_cursor}', 1) as more \gset
select is((:'more'::jsonb) #>> '{cards,0,title}', 'Aday dolar', 'the next cards of one stage, after the board''s cursor');
select is((:'more'::jsonb) ->> 'has_more', 'true', 'saying there are more');
select is(public.get_deal_board_stage('lead', null, (:'more'::jsonb) -> 'next_cursor', 5) ->> 'has_more', 'false', 'until the last');
select is(public.get_deal_board_stage('lead', null, '{"offset": 1}', 5) ->> 'code', 'invalid_input', 'a cursor of another shape is refused');
select tests.reset_role();

select tests.authenticate_as(:'alpha_solo', :'s_solo');
select public.get_deal_board() as solo_board \gset
select is((:'solo_board'::jsonb) ->> 'scope', 'own', 'an own-scope viewer''s board says so');
select is((select jsonb_object_agg(s ->> 'key', (s ->> 'count')::int) from jsonb_array_elements((:'solo_board'::jsonb) -> 'stages') s
            where (s ->> 'count')::int > 0),
  '{"lead": 1, "won": 1}'::jsonb, 'and counts only their own deals');
select is((select count(*)::int from jsonb_array_elements((:'solo_board'::jsonb) -> 'stages') s, jsonb_array_elements(s -> 'cards') c
            where c ->> 'owner_id' <> :'alpha_solo'), 0, 'and shows only their own cards');
select is(public.get_deal_board_stage('lead') #> '{cards}', (select jsonb_agg(c) from jsonb_array_elements((:'solo_board'::jsonb) #> '{stages,0,cards}') c),
  'a stage''s further cards keep the scope');
select is(public.get_deal_details(:'b1') ->> 'code', 'not_found', 'another''s deal is not found for them');
select tests.reset_role();
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is((public.get_deal_board() #>> '{stages,0,count}')::int, 3, 'a viewer sees the whole board');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is((select sum((s ->> 'count')::int)::int from jsonb_array_elements(public.get_deal_board() -> 'stages') s), 0,
  'another organization''s board holds none of alpha''s deals');
select tests.reset_role();

-- A deal whose stage left the pipeline (written by hand) is shown, not hidden.
update :"alpha_schema".deals set stage = 'legacy' where id = :'b3';
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_deal_board() as board \gset
select is((select s - 'cards' from jsonb_array_elements((:'board'::jsonb) -> 'stages') s where s ->> 'key' = 'legacy'),
  '{"key": "legacy", "name": null, "outcome": null, "probability": null, "unknown": true, "next_cursor": null, "count": 1,
    "totals": [{"currency": "TRY", "amount": 2000}]}'::jsonb,
  'a stage no longer in the pipeline comes last, marked unknown, with its deals');
select is((:'board'::jsonb) #>> '{stages,6,cards,0,id}', :'b3', 'its cards too');
select is(public.get_deal_board_stage('legacy') #>> '{cards,0,id}', :'b3', 'and its further cards');
select tests.reset_role();
update :"alpha_schema".deals set stage = 'proposal' where id = :'b3';

-- The totals kept per owner, stage and currency agree with the deals after every kind of write.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bulk_update_deals(array[:'b1', :'b2']::uuid[], '{"amount": 250}') ->> 'updated' as n \gset
select public.delete_deals(array[:'b2']::uuid[]) ->> 'changed' as n \gset
select public.bulk_update_deals(array[:'b1']::uuid[], jsonb_build_object('owner_id', :'alpha_sales')) ->> 'updated' as n \gset
select public.restore_deals(array[:'b2']::uuid[]) ->> 'changed' as n \gset
select tests.reset_role();
delete from :"alpha_schema".deals where id = :'b5';
select is((select coalesce(jsonb_agg(jsonb_build_object('owner', owner_id, 'stage', stage, 'currency', currency, 'n', deal_count, 'amount', amount)
                                     order by owner_id, stage, currency), '[]')
             from :"alpha_schema".deal_stage_totals where deal_count <> 0 or amount <> 0),
  (select coalesce(jsonb_agg(jsonb_build_object('owner', owner_id, 'stage', stage, 'currency', currency, 'n', n, 'amount', amount)
                             order by owner_id, stage, currency), '[]')
     from (select owner_id, stage, currency, count(*) as n, sum(amount) as amount from :"alpha_schema".deals
            where deleted_at is null group by owner_id, stage, currency) actual),
  'the board''s totals follow amounts, owners, deletion, restore and removal');

-- ---------------------------------------------------------------------------------
-- Exchange rates and the forecast
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select array_agg(coalesce(public.update_organization_settings(jsonb_build_object('exchange_rates', v)) ->> 'field', 'accepted') order by n)
    as bad_rates
  from unnest(array['{"usd": 41}', '{"USD": 0}', '{"USD": -1}', '{"USD": "41"}', '[]', '"USD"', '{"DOLAR": 2}']::jsonb[])
       with ordinality u (v, n) \gset
select is(:'bad_rates'::text[], array_fill('exchange_rates'::text, array[7]),
  'exchange rates: upper-case three-letter codes to positive numbers, or refused');
select ok(not (public.get_organization_settings() -> 'settings' ? 'exchange_rates'), 'without rates the settings carry none');
select is(public.update_organization_settings('{"exchange_rates": {"USD": 40, "EUR": 44.9}}') #> '{settings,exchange_rates}',
  '{"USD": 40, "EUR": 44.9}'::jsonb, 'an admin sets the rates');
select is(public.get_organization_settings() #> '{settings,exchange_rates}', '{"USD": 40, "EUR": 44.9}'::jsonb,
  'members read them with the settings');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.update_organization_settings('{"exchange_rates": {"USD": 1}}') ->> 'code', 'admin_required',
  'a member cannot change the rates');
select tests.reset_role();

-- sales2's open deals: 1,000 TRY at 50% this month, 100 USD at 20% next month, 200 GBP
-- (no rate) at 50% this month; a won deal and one beyond the months do not count.
select tests.authenticate_as(:'alpha_sales2', :'s_sales2');
select public.create_deal(jsonb_build_object('title', 'F1', 'amount', 1000, 'stage', 'proposal', 'expected_close_date', (:'month0'::date + 14)::text)) ->> 'success' as ok \gset
select public.create_deal(jsonb_build_object('title', 'F2', 'amount', 100, 'currency', 'USD', 'probability', 20, 'expected_close_date', (:'month1'::date + 2)::text)) ->> 'success' as ok \gset
select public.create_deal(jsonb_build_object('title', 'F3', 'amount', 200, 'currency', 'GBP', 'stage', 'proposal', 'expected_close_date', :'month0')) ->> 'success' as ok \gset
select public.create_deal(jsonb_build_object('title', 'F4', 'amount', 9999, 'stage', 'won', 'expected_close_date', :'month0')) ->> 'success' as ok \gset
select public.create_deal(jsonb_build_object('title', 'F5', 'amount', 9999, 'stage', 'proposal', 'expected_close_date', (:'month0'::date + 400)::text)) ->> 'success' as ok \gset
select public.get_deal_forecast(2, :'alpha_sales2') as forecast \gset
select tests.reset_role();
select is((:'forecast'::jsonb) -> 'months', jsonb_build_array(:'month0_key', :'month1_key'), 'the forecast''s months start at the current one');
select is(((:'forecast'::jsonb) -> 'total') - 'unconverted',
  jsonb_build_object('count', 2, 'amount', 5000.00, 'weighted', 1300.00, 'months', jsonb_build_array(
    jsonb_build_object('month', :'month0_key', 'count', 1, 'amount', 1000.00, 'weighted', 500.00),
    jsonb_build_object('month', :'month1_key', 'count', 1, 'amount', 4000.00, 'weighted', 800.00))),
  'open deals weighted by probability, converted with the rate (100 USD at 40 = 4,000 TRY, 20%: 800)');
select is((:'forecast'::jsonb) #> '{total,unconverted}',
  jsonb_build_array(jsonb_build_object('currency', 'GBP', 'count', 1, 'amount', 200.00, 'weighted', 100.00, 'months', jsonb_build_array(
    jsonb_build_object('month', :'month0_key', 'count', 1, 'amount', 200.00, 'weighted', 100.00),
    jsonb_build_object('month', :'month1_key', 'count', 0, 'amount', 0, 'weighted', 0)))),
  'a currency without a rate is reported apart, unconverted');
select is((:'forecast'::jsonb) #>> '{owners,0,owner_name}', 'Sena İkinci', 'per owner, named');
select is((:'forecast'::jsonb) #> '{owners,0,weighted}', '1300.00'::jsonb, 'with the owner''s own total');
select is((:'forecast'::jsonb) ->> 'currency', 'TRY', 'in the organization''s currency');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_organization_settings('{"exchange_rates": {"EUR": 44.9}}') ->> 'success' as ok \gset
select public.get_deal_forecast(2, :'alpha_sales2') as forecast \gset
select is((:'forecast'::jsonb) #> '{total,weighted}', '500.00'::jsonb, 'a rate taken away: that currency leaves the total…');
select is((select jsonb_agg(jsonb_build_array(u ->> 'currency', u -> 'weighted') order by u ->> 'currency')
             from jsonb_array_elements((:'forecast'::jsonb) #> '{total,unconverted}') u),
  '[["GBP", 100.00], ["USD", 20.00]]'::jsonb, '…and is reported apart, unconverted, never summed as TRY');
select is(public.get_deal_forecast(0) ->> 'code', 'invalid_input', 'months are 1 to 24');
select tests.reset_role();
select tests.authenticate_as(:'alpha_solo', :'s_solo');
select is((public.get_deal_forecast(2, :'alpha_sales2') #>> '{total,count}')::int, 0, 'an own-scope viewer''s forecast has only their deals');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is((public.get_deal_forecast(2, :'alpha_sales2') #>> '{total,count}')::int, 0, 'another organization''s forecast has none of alpha''s');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Removing a stage that holds deals
-- ---------------------------------------------------------------------------------
-- alpha's deals in proposal: b3 (admin), F1, F3, F5 (sales2).
select '[{"key": "lead", "name": "Aday", "probability": 10, "outcome": "open"},
         {"key": "qualified", "name": "Nitelikli", "probability": 30, "outcome": "open"},
         {"key": "negotiation", "name": "Pazarlık", "probability": 75, "outcome": "open"},
         {"key": "won", "name": "Kazanıldı", "probability": 100, "outcome": "won"},
         {"key": "lost", "name": "Kaybedildi", "probability": 0, "outcome": "lost"}]' as without_proposal \gset
select private.settings_json(:'alpha') as settings_before \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_organization_settings(jsonb_build_object('deal_stages', :'without_proposal'::jsonb)) as refused \gset
select is(:'refused'::jsonb,
  '{"success": false, "error": "Deal stages still hold deals", "code": "stage_in_use", "field": "deal_stages",
    "stages": [{"key": "proposal", "count": 4}]}'::jsonb,
  'removing a stage that holds deals is refused, saying which and how many');
select is(public.update_organization_settings(jsonb_build_object('deal_stages', :'without_proposal'::jsonb,
                                                                  'deal_stage_moves', '{"proposal": "nope"}'::jsonb)) ->> 'field',
  'deal_stage_moves', 'a move to a stage outside the new pipeline is refused');
select is(public.update_organization_settings(jsonb_build_object('deal_stages', :'without_proposal'::jsonb,
                                                                  'deal_stage_moves', '{"lead": "qualified", "proposal": "qualified"}'::jsonb)) ->> 'field',
  'deal_stage_moves', 'a move of a stage that stays is refused');
select is(public.update_organization_settings('{"deal_stage_moves": {"proposal": "qualified"}}') ->> 'field',
  'deal_stage_moves', 'moves without the new stages are refused');
select is(public.update_organization_settings(jsonb_build_object('deal_stages', :'without_proposal'::jsonb,
                                                                  'deal_stage_moves', '{"proposal": "lost"}'::jsonb)) - 'error',
  '{"success": false, "code": "lost_reason_required", "field": "deal_stage_moves", "stages": [{"key": "proposal", "count": 4}]}'::jsonb,
  'moving open deals into a lost stage is refused: they have no lost reason');
select tests.reset_role();
select is(private.settings_json(:'alpha'), :'settings_before'::jsonb, 'the refusals changed nothing');
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.update_organization_settings(jsonb_build_object('deal_stages', :'without_proposal'::jsonb,
                                                                  'deal_stage_moves', '{"proposal": "qualified"}'::jsonb)) ->> 'code',
  'admin_required', 'a member cannot change the pipeline');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_organization_settings(jsonb_build_object('deal_stages', :'without_proposal'::jsonb,
                                                              'deal_stage_moves', '{"proposal": "qualified"}'::jsonb)) as done \gset
select is((:'done'::jsonb) -> 'moved_deals', '{"proposal": 6}'::jsonb,
  'with moves the stage goes and its deals move (the 4 live ones and 2 deleted ones, so a restore finds a stage)');
select is((select array_agg(s ->> 'key' order by n) from jsonb_array_elements(public.get_deal_board() -> 'stages') with ordinality x (s, n)),
  array['lead', 'qualified', 'negotiation', 'won', 'lost'], 'the board follows the new pipeline');
select tests.reset_role();
select is((select jsonb_object_agg(stage || ':' || probability, n) from (select stage, probability, count(*) as n from :"alpha_schema".deals
            where id in (select id from :"alpha_schema".deals where title in ('Teklif büyük', 'F1', 'F3', 'F5')) group by stage, probability) g),
  '{"qualified:30": 4}'::jsonb, 'the moved deals are in the new stage, at its probability');
select is((select count(*)::int from :"alpha_schema".deal_stage_history
            where from_stage = 'proposal' and to_stage = 'qualified' and changed_by = :'alpha_admin'), 6,
  'each move is in the stage history, by the admin');
select is((select count(*)::int from private.audit_log where action = 'deals.update' and details ->> 'stage_removed' = 'proposal'), 6,
  'and audited per deal');
select is((select count(*)::int from :"alpha_schema".field_history
            where field = 'stage' and old_value = '"proposal"' and new_value = '"qualified"' and changed_by = :'alpha_admin'), 6,
  'and in each deal''s field history');
select is((select deal_count::int from :"alpha_schema".deal_stage_totals where owner_id = :'alpha_sales2' and stage = 'qualified' and currency = 'GBP'), 1,
  'the board''s totals follow the move');

-- ---------------------------------------------------------------------------------
-- Record transfer
-- ---------------------------------------------------------------------------------
select count(*) as history_before from :"alpha_schema".deal_stage_history
 where deal_id in (select id from :"alpha_schema".deals where owner_id = :'alpha_sales2') \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'alpha_sales2', :'alpha_sales', null, array['deals']) as transfer \gset
select tests.reset_role();
select is((:'transfer'::jsonb) -> 'transferred', '{"deals": 5}'::jsonb, 'the transfer moves the deals');
select is((select count(*)::int from :"alpha_schema".deal_stage_history
            where deal_id in (select id from :"alpha_schema".deals where title like 'F_')), :'history_before'::int,
  'their stage history follows them (it belongs to the deal)');
select is((select jsonb_agg(jsonb_build_object('stage', stage, 'amount', amount, 'currency', currency) order by title)
             from :"alpha_schema".deals where title like 'F_' and owner_id = :'alpha_sales'),
  '[{"stage": "qualified", "amount": 1000.00, "currency": "TRY"}, {"stage": "lead", "amount": 100.00, "currency": "USD"},
    {"stage": "qualified", "amount": 200.00, "currency": "GBP"}, {"stage": "won", "amount": 9999.00, "currency": "TRY"},
    {"stage": "qualified", "amount": 9999.00, "currency": "TRY"}]'::jsonb,
  'with their fields unchanged');
select is((select coalesce(sum(deal_count), 0)::int from :"alpha_schema".deal_stage_totals where owner_id = :'alpha_sales2'), 0,
  'the giver''s board totals go to the receiver');

-- ---------------------------------------------------------------------------------
-- The list through the engine
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is((public.list_deals(p_filters => '{"stage": "qualified"}') ->> 'total')::int, 4, 'deals filter by stage');
select is((public.list_deals(p_filters => '{"currency": ["USD", "GBP"]}') ->> 'total')::int, 3, 'and by currency');
select is((public.list_deals(p_sort => 'amount', p_descending => true) #>> '{records,0,amount}'), '9999.00', 'and sort by amount');
select is((public.list_deals(p_search => 'teklif') #>> '{records,0,title}'), 'Teklif büyük', 'and are searched');
select is((public.list_deals(p_filters => jsonb_build_object('expected_close_date', jsonb_build_object('from', :'month0', 'to', :'month1')))
           ->> 'total')::int, 3, 'and filter on a range of expected close dates');
select tests.reset_role();

select * from finish();
rollback;
