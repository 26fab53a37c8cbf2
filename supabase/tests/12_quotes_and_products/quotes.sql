-- Quotes and products (issue 13): the totals by the Turkish invoice rules (every KDV
-- rate, percent and amount discounts on lines and the document, KDV-included prices,
-- withholding, the document discount's rounding rest), the stored totals equal to the
-- computed ones, numbering, line and header refusals with stable codes (nothing written),
-- the stale check, locked quotes, the workflow (allowed and refused steps, expiry as read
-- and by the step), revisions, accepting with the deal marked won (and refused when the
-- caller may not edit the deal), a EUR quote's dated and frozen rate; per role (admin
-- all, sales own scope, viewer read only), other organizations and anon refused;
-- products and their permissions.
begin;
select plan(111);

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions, records
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
update private.organization_settings set exchange_rates = '{"EUR": 40, "USD": 35}' where organization_id = :'alpha';
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.create_user('multi@both.test', 'user', 'Çoklu', 'Üye') as multi \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select tests.add_member(:'multi', :'alpha', 'sales');
select tests.add_member(:'multi', :'beta', 'user');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_beta, gen_random_uuid() as s_multi_b \gset
create temporary table sessions (person uuid, session uuid primary key, organization uuid);
insert into sessions values (:'alpha_admin', :'s_admin', :'alpha'), (:'alpha_sales', :'s_sales', :'alpha'),
  (:'alpha_viewer', :'s_viewer', :'alpha'), (:'beta_admin', :'s_beta', :'beta'), (:'multi', :'s_multi_b', :'beta');
insert into auth.sessions (id, user_id) select session, person from sessions;
insert into private.session_organizations (session_id, user_id, organization_id) select session, person, organization from sessions;
grant select on sessions to authenticated;

/** Acts as the person in the session (as authenticated, as PostgREST would). */
create function pg_temp.act(p_session uuid) returns void language sql as $$
  select tests.authenticate_as((select person from sessions where session = p_session), p_session);
$$;
grant execute on function pg_temp.act(uuid) to authenticated;

insert into :"alpha_schema".customers (id, name, owner_id, created_by) values
  ('c0000000-0000-4000-8000-000000000001', 'Işık Yazılım', :'alpha_admin', :'alpha_admin');
insert into :"alpha_schema".contacts (id, customer_id, first_name, last_name, owner_id, created_by) values
  ('c0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'Ece', 'Demir', :'alpha_admin', :'alpha_admin');
insert into :"alpha_schema".deals (id, customer_id, title, owner_id, created_by) values
  ('c0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'Lisans', :'alpha_admin', :'alpha_admin');
insert into :"beta_schema".customers (id, name, owner_id, created_by) values
  ('b0000000-0000-4000-8000-000000000001', 'Beta Müşteri', :'beta_admin', :'beta_admin');
insert into :"beta_schema".products (id, name, unit_price, owner_id, created_by) values
  ('b0000000-0000-4000-8000-000000000002', 'Beta Ürün', 5, :'beta_admin', :'beta_admin');

-- ---------------------------------------------------------------------------------
-- The totals (private.quote_totals)
-- ---------------------------------------------------------------------------------
select private.quote_totals('{}', '[
  {"quantity": 2, "unit_price": 100, "vat_rate": 20},
  {"quantity": 1, "unit_price": 50, "vat_rate": 10},
  {"quantity": 3, "unit_price": 10, "vat_rate": 1},
  {"quantity": 1, "unit_price": 80, "vat_rate": 0}]') as every_rate \gset
select is((:'every_rate'::jsonb) #> '{totals,vat_breakdown}',
  '[{"rate": 0, "base": "80.00", "vat": "0.00", "withholding": "0.00"},
    {"rate": 1, "base": "30.00", "vat": "0.30", "withholding": "0.00"},
    {"rate": 10, "base": "50.00", "vat": "5.00", "withholding": "0.00"},
    {"rate": 20, "base": "200.00", "vat": "40.00", "withholding": "0.00"}]'::jsonb,
  'every KDV rate: base and KDV per rate');
select is(jsonb_build_array((:'every_rate'::jsonb) #>> '{totals,net_total}', (:'every_rate'::jsonb) #>> '{totals,vat_total}',
                            (:'every_rate'::jsonb) #>> '{totals,grand_total}'),
  '["360.00", "45.30", "405.30"]', 'every KDV rate: net, KDV and grand total');

select private.quote_totals('{"document_discount_type": "percent", "document_discount_value": 5}', '[
  {"quantity": 10, "unit_price": 12.5, "vat_rate": 20, "discount_type": "percent", "discount_value": 10},
  {"quantity": 1, "unit_price": 99.99, "vat_rate": 10, "discount_type": "amount", "discount_value": 9.99},
  {"quantity": 3, "unit_price": 33.33, "vat_rate": 20}]') as discounted \gset
select is(((:'discounted'::jsonb) -> 'totals') - 'vat_breakdown',
  '{"gross_total": "324.98", "line_discount_total": "22.49", "after_line_discounts": "302.49",
    "document_discount_total": "15.12", "net_total": "287.37", "vat_total": "48.93", "withholding_total": "0.00",
    "grand_total": "336.30", "grand_total_try": null}'::jsonb,
  'percent and amount line discounts, a percent document discount: the totals');
select is((select jsonb_agg(jsonb_build_array(l ->> 'document_discount', l ->> 'line_net', l ->> 'line_vat'))
             from jsonb_array_elements((:'discounted'::jsonb) -> 'lines') l),
  '[["5.62", "106.88", "21.38"], ["4.50", "85.50", "8.55"], ["5.00", "94.99", "19.00"]]',
  'the document discount is spread in proportion, KDV rounded per line');

select private.quote_totals('{"prices_include_vat": true}', '[
  {"quantity": 1, "unit_price": 120, "vat_rate": 20},
  {"quantity": 1, "unit_price": 100, "vat_rate": 10},
  {"quantity": 3, "unit_price": 9.99, "vat_rate": 20}]') as included \gset
select is((select jsonb_agg(jsonb_build_array(l ->> 'line_net', l ->> 'line_vat', l ->> 'line_gross'))
             from jsonb_array_elements((:'included'::jsonb) -> 'lines') l),
  '[["100.00", "20.00", "120.00"], ["90.91", "9.09", "100.00"], ["24.98", "5.00", "29.98"]]',
  'KDV-included prices: the net is the price over 1 + rate, rounded half away from zero');
select is(jsonb_build_array((:'included'::jsonb) #>> '{totals,net_total}', (:'included'::jsonb) #>> '{totals,vat_total}',
                            (:'included'::jsonb) #>> '{totals,grand_total}'),
  '["215.89", "34.09", "249.98"]', 'KDV-included prices: the totals');

select private.quote_totals('{"exchange_rate": 1}', '[
  {"quantity": 1, "unit_price": 1000, "vat_rate": 20, "withholding_rate": "9/10"},
  {"quantity": 1, "unit_price": 333.33, "vat_rate": 20, "withholding_rate": "5/10"}]') as withheld \gset
select is(jsonb_build_array((:'withheld'::jsonb) #>> '{lines,1,line_vat}', (:'withheld'::jsonb) #>> '{lines,1,line_withholding}'),
  '["66.67", "33.34"]', 'withholding is the line''s KDV times the ratio, rounded on the line');
select is(jsonb_build_array((:'withheld'::jsonb) #>> '{totals,vat_total}', (:'withheld'::jsonb) #>> '{totals,withholding_total}',
                            (:'withheld'::jsonb) #>> '{totals,grand_total}', (:'withheld'::jsonb) #>> '{totals,grand_total_try}'),
  '["266.67", "213.34", "1386.66", "1386.66"]', 'grand total = net + KDV − withholding; TRY at rate 1');

select private.quote_totals('{"document_discount_type": "amount", "document_discount_value": 1, "exchange_rate": 40.5}', '[
  {"quantity": 1, "unit_price": 1, "vat_rate": 20}, {"quantity": 1, "unit_price": 1, "vat_rate": 20},
  {"quantity": 1, "unit_price": 1, "vat_rate": 20}]') as rest \gset
select is((select jsonb_agg(l ->> 'document_discount') from jsonb_array_elements((:'rest'::jsonb) -> 'lines') l),
  '["0.33", "0.33", "0.34"]', 'an amount document discount: the last line takes the rounding rest');
select is(jsonb_build_array((:'rest'::jsonb) #>> '{totals,net_total}', (:'rest'::jsonb) #>> '{totals,vat_total}',
                            (:'rest'::jsonb) #>> '{totals,grand_total}', (:'rest'::jsonb) #>> '{totals,grand_total_try}'),
  '["2.00", "0.39", "2.39", "96.80"]', 'the shares add up exactly; the TRY equivalent at the rate, to the kuruş');

-- ---------------------------------------------------------------------------------
-- anon: refused by the database
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.save_quote(null, '{}', '[]')$$, '42501', null, 'anon: save_quote is refused');
select throws_ok($$select public.get_quote_details(gen_random_uuid())$$, '42501', null, 'anon: get_quote_details is refused');
select throws_ok($$select public.list_products()$$, '42501', null, 'anon: list_products is refused');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Saving (admin)
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.save_quote(null,
  '{"customer_id": "c0000000-0000-4000-8000-000000000001", "contact_id": "c0000000-0000-4000-8000-000000000002",
    "deal_id": "c0000000-0000-4000-8000-000000000003", "document_discount_type": "percent", "document_discount_value": 5,
    "payment_terms": "30 gün"}',
  '[{"description": "Kurulum", "quantity": 10, "unit": "saat", "unit_price": "12.50", "vat_rate": 20, "discount_type": "percent", "discount_value": 10},
    {"description": "Lisans", "quantity": 1, "unit_price": "99.99", "vat_rate": 10, "discount_type": "amount", "discount_value": "9.99"},
    {"description": "Destek", "quantity": 3, "unit": "ay", "unit_price": "33.33", "vat_rate": 20}]') as q1 \gset
select is((:'q1'::jsonb) ->> 'success', 'true', 'an admin saves a new quote with its lines');
select matches((:'q1'::jsonb) ->> 'quote_number', '^TKL-\d{4}-00001$', 'it gets the first number of the year');
select (:'q1'::jsonb) ->> 'id' as q1_id, (:'q1'::jsonb) ->> 'updated_at' as q1_at \gset
select public.get_quote_details(:'q1_id') as d1 \gset
select is(jsonb_build_array((:'d1'::jsonb) #>> '{quote,status}', (:'d1'::jsonb) #>> '{quote,locked}',
                            (:'d1'::jsonb) #>> '{quote,currency}', (:'d1'::jsonb) #>> '{quote,exchange_rate}',
                            (:'d1'::jsonb) #>> '{quote,owner_name}', (:'d1'::jsonb) #>> '{customer,name}',
                            (:'d1'::jsonb) #>> '{contact,name}', (:'d1'::jsonb) #>> '{deal,title}'),
  '["draft", "false", "TRY", "1.000000", "Ayşe Yönetici", "Işık Yazılım", "Ece Demir", "Lisans"]',
  'the details: a draft, unlocked, TRY at rate 1, owner, customer, contact and deal');
select is((:'d1'::jsonb) -> 'totals', ((:'discounted'::jsonb) -> 'totals') || '{"grand_total_try": "336.30"}',
  'the details'' totals are private.quote_totals of the stored lines');
select is(jsonb_build_array((:'d1'::jsonb) #>> '{items,0,description}', (:'d1'::jsonb) #>> '{items,0,unit}',
                            (:'d1'::jsonb) #>> '{items,0,line_net}', (:'d1'::jsonb) #>> '{items,2,position}'),
  '["Kurulum", "saat", "106.88", "3"]', 'the lines in order with their computed amounts');
select tests.reset_role();
select is((select jsonb_build_array(q.gross_total, q.net_total, q.vat_total, q.grand_total, q.grand_total_try)
             from :"alpha_schema".quotes q where q.id = :'q1_id'),
  '[324.98, 287.37, 48.93, 336.30, 336.30]', 'the stored totals equal the computed ones');
select pg_temp.act(:'s_admin');

-- Refusals: stable codes, nothing written.
select is(public.save_quote(null, '{}', '[{"description": "X", "quantity": 1, "unit_price": 1, "vat_rate": 7}]') -> 'fields',
  '{"items.0.vat_rate": "invalid_vat_rate"}', 'a KDV rate outside 0, 1, 10, 20 and the organization''s is refused');
select is(public.save_quote(null, '{}', '[{"description": "X", "quantity": 1, "unit_price": 1, "vat_rate": 20},
                                        {"description": "Y", "quantity": 1, "unit_price": 1, "vat_rate": 0}]') -> 'fields',
  '{"items.1.vat_exemption_reason": "vat_exemption_required"}',
  'rate 0 needs an exemption reason');
select is(public.save_quote(null, '{}', '[{"description": "", "quantity": 0, "unit_price": -1, "vat_rate": 20, "withholding_rate": "1/3"}]') -> 'fields',
  '{"items.0.description": "required", "items.0.quantity": "invalid", "items.0.unit_price": "invalid", "items.0.withholding_rate": "invalid"}',
  'a line needs a description, a positive quantity, a price of at least 0 and a known withholding ratio');
select is(public.save_quote(null, '{}', '[{"description": "X", "quantity": 1, "unit_price": 10, "vat_rate": 20, "discount_type": "amount", "discount_value": 10.01},
                                        {"description": "Y", "quantity": 1, "unit_price": 10, "vat_rate": 20, "discount_type": "percent", "discount_value": 101}]') -> 'fields',
  '{"items.0.discount_value": "discount_exceeds_line", "items.1.discount_value": "invalid"}',
  'a line discount larger than the line (or over 100 %) is refused');
select is(public.save_quote(null, '{"document_discount_type": "amount", "document_discount_value": 20.01}',
                            '[{"description": "X", "quantity": 2, "unit_price": 10, "vat_rate": 20}]') -> 'fields',
  '{"document_discount_value": "discount_exceeds_total"}', 'a document discount larger than the lines is refused');
select is(public.save_quote(null, '{}', (select jsonb_agg(jsonb_build_object('description', 'L' || i, 'quantity', 1, 'unit_price', 1, 'vat_rate', 20))
                                          from generate_series(1, 501) i)) ->> 'code',
  'too_many_items', 'at most 500 lines');
select is(public.save_quote(null, '{"status": "sent"}', '[]') -> 'fields', '{"status": "unknown_field"}',
  'the status is not saved directly');
select is(public.save_quote(null, '{"customer_id": "b0000000-0000-4000-8000-000000000001", "quote_date": "2026-05-10", "valid_until": "2026-05-01"}', '[]') -> 'fields',
  '{"customer_id": "not_found", "valid_until": "before_quote_date"}', 'another organization''s customer is not found; valid_until not before the date');
select is(public.save_quote(null, '{}', '[{"description": "X", "quantity": 1, "unit_price": 1, "vat_rate": 20, "product_id": "b0000000-0000-4000-8000-000000000002"}]') -> 'fields',
  '{"items.0.product_id": "not_found"}', 'another organization''s product is not found');
select tests.reset_role();
select is((select count(*)::integer from :"alpha_schema".quotes), 1, 'no refused save wrote a quote');
select is((select last_value::integer from private.document_counters where organization_id = :'alpha' and kind = 'quote'), 1,
  'nor took a number');
select pg_temp.act(:'s_admin');

-- Updating a draft: stale check, lines replaced.
select is(public.save_quote(:'q1_id', '{"notes": "x"}', '[]', now() - interval '1 day') ->> 'code', 'stale_record',
  'a save from an old read is refused as stale');
select public.save_quote(:'q1_id', '{"notes": "Teslim: 2 hafta"}',
  '[{"description": "Kurulum", "quantity": 2, "unit_price": 100, "vat_rate": 20}]', :'q1_at') as q1b \gset
select is((:'q1b'::jsonb) ->> 'quote_number', (:'q1'::jsonb) ->> 'quote_number', 'a saved draft keeps its number');
select (:'q1b'::jsonb) ->> 'updated_at' as q1_at \gset
select is(public.get_quote_details(:'q1_id') #>> '{totals,grand_total}', '228.00', 'the lines are replaced and the totals follow (200 − 5 % + 20 % KDV)');
select tests.reset_role();
select is((select count(*)::integer from :"alpha_schema".quote_items where quote_id = :'q1_id'), 1, 'the old lines are gone');
select is((select count(*)::integer from :"alpha_schema".field_history where record_id = :'q1_id' and field = 'notes'), 1,
  'the header change is in the field history');
select pg_temp.act(:'s_admin');

-- ---------------------------------------------------------------------------------
-- The workflow
-- ---------------------------------------------------------------------------------
select is(public.accept_quote(:'q1_id', :'q1_at') ->> 'code', 'invalid_transition', 'a draft cannot be accepted');
select is(public.send_quote(:'q1_id', now() - interval '1 day') ->> 'code', 'stale_record', 'sending from an old read is refused');
select public.save_quote(null, '{"customer_id": "c0000000-0000-4000-8000-000000000001"}', '[]') as empty \gset
select is(public.send_quote(((:'empty'::jsonb) ->> 'id')::uuid, ((:'empty'::jsonb) ->> 'updated_at')::timestamptz) ->> 'code',
  'items_required', 'a quote without lines is not sent');
select public.send_quote(:'q1_id', :'q1_at') as sent \gset
select is(jsonb_build_array((:'sent'::jsonb) ->> 'success', (:'sent'::jsonb) ->> 'status'), '["true", "sent"]', 'a draft is sent');
select (:'sent'::jsonb) ->> 'updated_at' as q1_at \gset
select is(public.get_quote_details(:'q1_id') #>> '{quote,locked}', 'true', 'a sent quote is locked');
select is(public.save_quote(:'q1_id', '{"notes": "değişti"}', '[]', :'q1_at') ->> 'code', 'quote_locked', 'save_quote refuses a locked quote');
select is(public.update_quote(:'q1_id', '{"notes": "değişti"}', :'q1_at') -> 'fields', '{"notes": "quote_locked"}',
  'the engine''s update refuses it too');
select is(public.send_quote(:'q1_id', :'q1_at') ->> 'code', 'invalid_transition', 'a sent quote is not sent again');
select is(public.reject_quote(:'q1_id', :'q1_at', '  ') -> 'fields', '{"rejection_reason": "required"}', 'a rejection needs a reason');

-- Expired as read before the step, then by the step.
select tests.reset_role();
update :"alpha_schema".quotes set valid_until = current_date - 3, quote_date = current_date - 40 where id = :'q1_id';
select updated_at as q1_at from :"alpha_schema".quotes where id = :'q1_id' \gset
select pg_temp.act(:'s_admin');
select is(public.get_quote_details(:'q1_id') #>> '{quote,status}', 'expired', 'a sent quote past valid_until reads as expired');
select is(public.accept_quote(:'q1_id', :'q1_at') ->> 'code', 'quote_expired', 'and is not accepted');
select tests.reset_role();
select is(private.expire_quotes(:'alpha'), 1, 'the expiry step expires it');
select is((select status from :"alpha_schema".quotes where id = :'q1_id'), 'expired', 'stored as expired');
select is(private.expire_quotes(:'alpha'), 0, 'once');
select pg_temp.act(:'s_admin');

-- A revision.
select public.revise_quote(:'q1_id') as r2 \gset
select is((:'r2'::jsonb) ->> 'success', 'true', 'an expired quote is revised');
select (:'r2'::jsonb) ->> 'id' as q2_id \gset
select public.get_quote_details(:'q2_id') as d2 \gset
select is(jsonb_build_array((:'d2'::jsonb) #>> '{quote,quote_number}', (:'d2'::jsonb) #>> '{quote,revision}',
                            (:'d2'::jsonb) #>> '{quote,status}', (:'d2'::jsonb) #>> '{quote,root_quote_id}',
                            (:'d2'::jsonb) #>> '{totals,grand_total}', (:'d2'::jsonb) #>> '{items,0,description}'),
  jsonb_build_array((:'q1'::jsonb) ->> 'quote_number', '2', 'draft', :'q1_id', '228.00', 'Kurulum'),
  'the revision keeps the number, counts 2, is a draft of the same root with the same lines and totals');
select is((select jsonb_agg(r ->> 'revision') from jsonb_array_elements((:'d2'::jsonb) -> 'revisions') r), '["1", "2"]'::jsonb,
  'the details list both revisions');
select is(public.revise_quote(:'q1_id') ->> 'code', 'quote_superseded', 'a superseded quote is not revised again');
select is(public.get_quote_details(:'q1_id') #>> '{quote,superseded_by}', :'q2_id', 'the old one points at its successor');
select is(public.revise_quote(:'q2_id') ->> 'code', 'invalid_transition', 'a draft is edited, not revised');

-- Accepting with the deal marked won.
select public.save_quote(:'q2_id', '{}', '[{"description": "Kurulum", "quantity": 2, "unit_price": 100, "vat_rate": 20}]',
                         ((:'d2'::jsonb) #>> '{quote,updated_at}')::timestamptz) as q2s \gset
select public.send_quote(:'q2_id', ((:'q2s'::jsonb) ->> 'updated_at')::timestamptz) as q2sent \gset
select public.accept_quote(:'q2_id', ((:'q2sent'::jsonb) ->> 'updated_at')::timestamptz, true) as accepted \gset
select is(jsonb_build_array((:'accepted'::jsonb) ->> 'status', (:'accepted'::jsonb) ->> 'deal_won'), '["accepted", "true"]',
  'a sent quote is accepted and its deal marked won');
select tests.reset_role();
select is((select stage from :"alpha_schema".deals where id = 'c0000000-0000-4000-8000-000000000003'), 'won',
  'the deal is at the won stage');
select is((select count(*)::integer from :"alpha_schema".deal_stage_history
            where deal_id = 'c0000000-0000-4000-8000-000000000003' and to_stage = 'won'), 1,
  'through the deal code (its stage history)');
select pg_temp.act(:'s_admin');
select is(public.reject_quote(:'q2_id', ((:'accepted'::jsonb) ->> 'updated_at')::timestamptz, 'geç') ->> 'code', 'invalid_transition',
  'an accepted quote is not rejected');

-- ---------------------------------------------------------------------------------
-- A EUR quote: the rate of its date, frozen when sent
-- ---------------------------------------------------------------------------------
select tests.reset_role();
insert into private.exchange_rate_history (organization_id, currency, rate_date, rate)
values (:'alpha', 'EUR', current_date - 30, 38.5);
select pg_temp.act(:'s_admin');
select public.save_quote(null, jsonb_build_object('customer_id', 'c0000000-0000-4000-8000-000000000001', 'currency', 'eur',
                                                  'quote_date', current_date - 10),
  '[{"description": "Danışmanlık", "quantity": 1, "unit_price": 1000, "vat_rate": 20}]') as eur_old \gset
select is(public.get_quote_details(((:'eur_old'::jsonb) ->> 'id')::uuid) #>> '{quote,exchange_rate}', '38.500000',
  'a quote dated ten days ago takes that day''s rate');
select public.save_quote(null, '{"customer_id": "c0000000-0000-4000-8000-000000000001", "currency": "EUR"}',
  '[{"description": "Danışmanlık", "quantity": 1, "unit_price": 1000, "vat_rate": 20}]') as eur \gset
select (:'eur'::jsonb) ->> 'id' as eur_id \gset
select is(public.get_quote_details(:'eur_id') #>> '{totals,grand_total_try}', '48000.00', 'today''s quote: 1200 EUR × 40');
select public.send_quote(:'eur_id', ((:'eur'::jsonb) ->> 'updated_at')::timestamptz) as eur_sent \gset
select is((:'eur_sent'::jsonb) ->> 'status', 'sent', 'the EUR quote is sent');
select public.update_organization_settings('{"exchange_rates": {"EUR": 45, "USD": 35}}') ->> 'success' as settings_ok \gset
select is(public.get_quote_details(:'eur_id') #> '{quote,exchange_rate}', '"40.000000"', 'after a new rate the sent quote keeps its frozen one');
select is(public.preview_quote_totals('{"currency": "EUR"}', '[{"description": "X", "quantity": 1, "unit_price": 1000, "vat_rate": 20}]')
            #>> '{totals,grand_total_try}', '54000.00', 'a new quote previews at the new rate');
select is(public.preview_quote_totals('{"currency": "EUR", "exchange_rate": "41.25"}',
                                      '[{"description": "X", "quantity": 1, "unit_price": 1000, "vat_rate": 20}]')
            #>> '{totals,grand_total_try}', '49500.00', 'or at a rate entered by hand');
select public.save_quote(null, '{"customer_id": "c0000000-0000-4000-8000-000000000001", "currency": "GBP"}',
  '[{"description": "X", "quantity": 1, "unit_price": 1, "vat_rate": 20}]') as gbp \gset
select is(public.send_quote(((:'gbp'::jsonb) ->> 'id')::uuid, ((:'gbp'::jsonb) ->> 'updated_at')::timestamptz) ->> 'code',
  'exchange_rate_required', 'a currency without a rate is not sent');

-- ---------------------------------------------------------------------------------
-- Scope: sales (own), viewer, other organizations
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select pg_temp.act(:'s_sales');
select public.save_quote(null, '{"customer_id": "c0000000-0000-4000-8000-000000000001", "deal_id": "c0000000-0000-4000-8000-000000000003"}',
  '[{"description": "Satış", "quantity": 1, "unit_price": 10, "vat_rate": 20}]') as sq \gset
select is((:'sq'::jsonb) ->> 'success', 'true', 'a sales member saves a quote of their own');
select is(public.save_quote(:'eur_id', '{}', '[]', now()) ->> 'code', 'not_found', 'but not the admin''s (own scope)');
select is(public.send_quote(:'eur_id', now()) ->> 'code', 'not_record_owner', 'nor takes its workflow steps (another member''s record)');
select is(public.get_quote_details(:'eur_id') ->> 'success', 'true', 'they see it (view scope all)');
select is(public.save_quote(null, jsonb_build_object('owner_id', :'alpha_admin'), '[]') ->> 'code', 'permission_denied',
  'nor create one for someone else');
select public.send_quote(((:'sq'::jsonb) ->> 'id')::uuid, ((:'sq'::jsonb) ->> 'updated_at')::timestamptz) as sq_sent \gset
select tests.reset_role();
update :"alpha_schema".deals set stage = 'proposal' where id = 'c0000000-0000-4000-8000-000000000003';
select pg_temp.act(:'s_sales');
select is(public.accept_quote(((:'sq'::jsonb) ->> 'id')::uuid, ((:'sq_sent'::jsonb) ->> 'updated_at')::timestamptz, true) ->> 'code',
  'deal_not_updated', 'accepting with the admin''s deal marked won is refused for a sales member');
select tests.reset_role();
select is((select status from :"alpha_schema".quotes where id = ((:'sq'::jsonb) ->> 'id')::uuid), 'sent', 'and nothing changed: the quote is still sent');
select is((select stage from :"alpha_schema".deals where id = 'c0000000-0000-4000-8000-000000000003'), 'proposal', 'the deal too');
select pg_temp.act(:'s_sales');
select is(public.accept_quote(((:'sq'::jsonb) ->> 'id')::uuid, ((:'sq_sent'::jsonb) ->> 'updated_at')::timestamptz) ->> 'status',
  'accepted', 'without the deal the sales member accepts their quote');

select tests.reset_role();
select pg_temp.act(:'s_viewer');
select is(public.save_quote(null, '{}', '[]') ->> 'code', 'permission_denied', 'a viewer cannot create quotes');
select is(public.send_quote(:'eur_id', now()) ->> 'code', 'permission_denied', 'nor send them');
select is(public.revise_quote(:'eur_id') ->> 'code', 'permission_denied', 'nor revise them');
select is(public.get_quote_details(:'eur_id') ->> 'success', 'true', 'but reads them');
select is(public.preview_quote_totals('{}', '[{"description": "X", "quantity": 1, "unit_price": 1, "vat_rate": 20}]') #>> '{totals,grand_total}',
  '1.20', 'and previews totals');
select is(public.preview_quote_totals('18', 'true') ->> 'code', 'invalid_input', 'a preview of values that are not an object is refused (found by npm run fuzz)');

select tests.reset_role();
select pg_temp.act(:'s_beta');
select is(public.get_quote_details(:'eur_id') ->> 'code', 'not_found', 'another organization''s admin does not find the quote');
select is(public.save_quote(:'eur_id', '{}', '[]', now()) ->> 'code', 'not_found', 'nor saves it');
select is(public.revise_quote(:'eur_id') ->> 'code', 'not_found', 'nor revises it');
select is(public.accept_quote(:'eur_id', now(), true) ->> 'code', 'not_found', 'nor accepts it');
select is((public.list_quotes() ->> 'total')::integer, 0, 'nor lists it');
select tests.reset_role();
select pg_temp.act(:'s_multi_b');
select is(public.get_quote_details(:'eur_id') ->> 'code', 'not_found', 'a member of both bound to beta does not find alpha''s quote');
select is(public.send_quote(:'eur_id', now()) ->> 'code', 'not_found', 'nor sends it');

-- ---------------------------------------------------------------------------------
-- The list
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select pg_temp.act(:'s_admin');
select is((select jsonb_agg(r ->> 'revision' order by r ->> 'revision')
             from jsonb_array_elements(public.list_quotes(p_search => (:'q1'::jsonb) ->> 'quote_number') -> 'records') r),
  '["1", "2"]', 'the list finds a quote by its number, every revision');
select is((public.list_quotes(p_search => (:'q1'::jsonb) ->> 'quote_number', p_filters => '{"is_latest": true}') #>> '{records,0,revision}'),
  '2', 'the latest revision only, with is_latest');
select is((select jsonb_agg(r ->> 'status') from jsonb_array_elements(public.list_quotes(p_filters => '{"status": "accepted"}') -> 'records') r),
  '["accepted", "accepted"]', 'filtered by status');
select ok((public.list_quotes(p_sort => 'grand_total') ->> 'success')::boolean, 'sorted by grand total');

-- ---------------------------------------------------------------------------------
-- Products
-- ---------------------------------------------------------------------------------
select public.save_product(null, '{"name": "  Web Sitesi Bakımı ", "unit": "ay", "unit_price": "1500.50", "vat_rate": 20}') as p1 \gset
select is(jsonb_build_array((:'p1'::jsonb) #>> '{product,name}', (:'p1'::jsonb) #>> '{product,unit_price}',
                            (:'p1'::jsonb) #>> '{product,currency}', (:'p1'::jsonb) #>> '{product,active}'),
  '["Web Sitesi Bakımı", "1500.5000", "TRY", "true"]', 'an admin adds a product (trimmed, TRY by default, active)');
select (:'p1'::jsonb) #>> '{product,id}' as p1_id, (:'p1'::jsonb) #>> '{product,updated_at}' as p1_at \gset
select is(public.save_product(null, '{"name": "", "unit_price": -1, "vat_rate": 8, "color": "red"}') -> 'fields',
  '{"color": "unknown_field"}', 'an unknown field is refused');
select is(public.save_product(null, '{"name": "", "unit_price": -1, "vat_rate": 8}') -> 'fields',
  '{"name": "required", "unit_price": "invalid", "vat_rate": "invalid_vat_rate"}', 'name, price and KDV rate are checked');
select is(public.save_product(:'p1_id', '{"unit_price": 1600}', now() - interval '1 day') ->> 'code', 'stale_record', 'a stale change is refused');
select is(public.save_product(:'p1_id', '{"unit_price": 1600}', :'p1_at') #>> '{product,unit_price}', '1600.0000', 'a product is changed');
select is(public.save_quote(null, '{}', jsonb_build_array(jsonb_build_object('product_id', :'p1_id', 'description', 'Bakım', 'quantity', 12,
                                                                           'unit', 'ay', 'unit_price', 1600, 'vat_rate', 20))) ->> 'success',
  'true', 'a quote line names the product');
select is(public.set_product_active(:'p1_id', false) #>> '{product,active}', 'false', 'a product is made inactive');
select is(jsonb_array_length(public.list_products() -> 'products'), 0, 'inactive products are not offered');
select is(public.list_products('BAKIM', true) #>> '{products,0,name}', 'Web Sitesi Bakımı', 'unless asked for (search Turkish-folded)');
select tests.reset_role();
select pg_temp.act(:'s_sales');
select is(public.list_products(p_include_inactive => true) #>> '{products,0,id}', :'p1_id', 'a sales member lists products');
select is(public.save_product(null, '{"name": "Satışçı ürünü"}') ->> 'code', 'permission_denied', 'but does not add them (edit scope own)');
select is(public.set_product_active(:'p1_id', true) ->> 'code', 'permission_denied', 'nor activates them');
select tests.reset_role();
select pg_temp.act(:'s_viewer');
select is(public.save_product(:'p1_id', '{"name": "X"}', now()) ->> 'code', 'permission_denied', 'a viewer does not change products');
select tests.reset_role();
select pg_temp.act(:'s_beta');
select is(public.list_products(p_include_inactive => true) #>> '{products,0,name}', 'Beta Ürün', 'beta lists only its own products');
select is(public.set_product_active(:'p1_id', true) ->> 'code', 'not_found', 'and cannot touch alpha''s');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Exchange rates history, settings, registry
-- ---------------------------------------------------------------------------------
select is((select rate from private.exchange_rate_history where organization_id = :'alpha' and currency = 'EUR'
            and rate_date = (now() at time zone 'Europe/Istanbul')::date), 45.000000::numeric,
  'a settings change writes today''s rate to the history');
select ok(not has_table_privilege('authenticated', 'private.exchange_rate_history', 'select'), 'the history is not readable by the API roles');
select is((select template_version from private.organizations where id = :'alpha'), private.latest_template_version(),
  'the organization is at the latest template');
select ok(exists (select 1 from private.tenant_schema_drift() d where d.organization_id = :'alpha' and d.matches_template),
  'and matches it');

select * from finish();
rollback;
