-- The organization's own details (supabase/schemas/06_settings_and_templates.sql): the IBAN
-- rule (private.normalize_iban, private.is_valid_iban; the same cases as
-- src/lib/turkish-identifiers.test.ts: pgTAP cannot read a shared file, so each side keeps its
-- own copy, change both together), and update_organization_settings with legal name,
-- address, tax office, VKN, MERSİS, phone, e-mail, website and IBANs: allowed for the admin,
-- refused for every other role, an unbound session and anon, and never reaching another
-- organization; bad values refused by field, changing nothing.
begin;
select plan(64);

-- ---------------------------------------------------------------------------------
-- IBAN
-- ---------------------------------------------------------------------------------
select is(private.normalize_iban(input), expected, format('IBAN %s → %s', coalesce(to_json(input)::text, 'null'), coalesce(expected, 'null')))
  from (values
    -- ISO 13616's Turkish example, then demo numbers with computed check digits.
    ('TR330006100519786457841326', 'TR330006100519786457841326'),
    ('TR33 0006 1005 1978 6457 8413 26', 'TR330006100519786457841326'),
    ('tr330006100519786457841326', 'TR330006100519786457841326'),
    (' TR33 0006 1005 1978 6457 8413 26 ', 'TR330006100519786457841326'),
    (E'TR33\t0006\u00a01005 1978 6457 8413 26', 'TR330006100519786457841326'),
    ('TR180006200119000006672315', 'TR180006200119000006672315'),
    ('TR080006400000112340012345', 'TR080006400000112340012345'),
    ('TR890001000000987654321001', 'TR890001000000987654321001'),
    ('TR024996642917038961848562', 'TR024996642917038961848562'),
    ('TR994996642917038961848562', null),  -- passes mod 97, but check digits are 02-98
    ('TR340006100519786457841326', null),  -- wrong check digits
    ('TR330006100519786457841327', null),  -- last digit changed
    ('TR330006100519786457841362', null),  -- two digits swapped
    ('TR000006100519786457841326', null),
    ('TR33000610051978645784132', null),   -- 25 characters
    ('TR3300061005197864578413261', null), -- 27 characters
    ('DE89370400440532013000', null),      -- a valid German IBAN: not Turkish
    ('TR33-0006-1005-1978-6457-8413-26', null),
    ('TR33000610051978645784132A', null),
    ('', null),
    ('ＴＲ330006100519786457841326', null),
    ('TR33０006100519786457841326', null),
    (null, null)
  ) as cases (input, expected);

select is(
  (select count(*)::int from generate_series(5, 26) as position, generate_series(1, 9) as step
    where private.is_valid_iban(overlay('TR330006100519786457841326' placing
            ((substr('TR330006100519786457841326', position, 1)::int + step) % 10)::text from position for 1))),
  0, 'every single-digit change of a valid IBAN is refused (198 changes)');
select ok(private.is_valid_iban('TR33 0006 1005 1978 6457 8413 26') and not private.is_valid_iban(null),
  'is_valid_iban: true for a spaced valid IBAN, false for null');

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_user('root@crm.test', 'super_admin', 'Sema', 'Kök') as super \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('manager@alpha.test', 'user', 'Mert', 'Yön') as alpha_manager \gset
select tests.create_user('sales@alpha.test', 'user', 'Sena', 'Satış') as alpha_sales \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.create_user('viewer@alpha.test', 'user', 'Veli', 'Bakan') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Bora', 'Tan') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_manager', :'alpha', 'manager');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_manager, gen_random_uuid() as s_sales, gen_random_uuid() as s_user,
       gen_random_uuid() as s_viewer, gen_random_uuid() as s_badmin, gen_random_uuid() as s_free, gen_random_uuid() as s_super \gset

create function pg_temp.bind(p_user uuid, p_session uuid, p_organization uuid) returns void language plpgsql as $$
begin
  perform tests.authenticate_as(p_user, p_session);
  perform public.bind_session_organization(p_organization);
  perform tests.reset_role();
end;
$$;
select pg_temp.bind(:'alpha_admin', :'s_admin', :'alpha');
select pg_temp.bind(:'alpha_manager', :'s_manager', :'alpha');
select pg_temp.bind(:'alpha_sales', :'s_sales', :'alpha');
select pg_temp.bind(:'alpha_user', :'s_user', :'alpha');
select pg_temp.bind(:'alpha_viewer', :'s_viewer', :'alpha');
select pg_temp.bind(:'beta_admin', :'s_badmin', :'beta');
select pg_temp.bind(:'super', :'s_super', :'alpha');

-- update_organization_settings as a user in a session; back to the runner after.
create function pg_temp.update_as(p_user uuid, p_session uuid, p_changes jsonb) returns jsonb language plpgsql as $$
declare
  answer jsonb;
begin
  perform tests.authenticate_as(p_user, p_session);
  answer := public.update_organization_settings(p_changes);
  perform tests.reset_role();
  return answer;
end;
$$;
grant execute on function pg_temp.update_as(uuid, uuid, jsonb) to authenticated;

\set details '{"legal_name": "  Alpha Teknoloji Anonim Şirketi ", "address": "Büyükdere Cad. No: 185", "province": "İstanbul", "district": "Şişli", "tax_office": "Zincirlikuyu", "tax_number": "4540536920", "mersis_number": "0454 0536 9200 0015", "phone": "0212 555 01 23", "email": " Teklif@Alpha.com.tr ", "website": "www.alpha.com.tr", "bank_accounts": [{"iban": "tr33 0006 1005 1978 6457 8413 26", "bank_name": " Ziraat "}, {"iban": "TR180006200119000006672315"}]}'
\set stored '{"legal_name": "Alpha Teknoloji Anonim Şirketi", "address": "Büyükdere Cad. No: 185", "province": "İstanbul", "district": "Şişli", "tax_office": "Zincirlikuyu", "tax_number": "4540536920", "mersis_number": "0454053692000015", "phone": "+902125550123", "email": "teklif@alpha.com.tr", "website": "www.alpha.com.tr", "bank_accounts": [{"iban": "TR330006100519786457841326", "bank_name": "Ziraat"}, {"iban": "TR180006200119000006672315", "bank_name": null}]}'

-- ---------------------------------------------------------------------------------
-- Before: no details, none in the answer
-- ---------------------------------------------------------------------------------
select ok(not (private.settings_json(:'alpha') ?| array['legal_name', 'address', 'tax_number', 'bank_accounts']),
  'an organization without details has none in its settings answer');

-- ---------------------------------------------------------------------------------
-- Denied: every role but admin, an unbound session, beta's admin (only beta), anon
-- ---------------------------------------------------------------------------------
select private.settings_json(:'alpha') as alpha_before \gset
select private.settings_json(:'beta') as beta_before \gset
select is(pg_temp.update_as(:'alpha_manager', :'s_manager', :'details') ->> 'code', 'admin_required', 'a manager may not change the details');
select is(pg_temp.update_as(:'alpha_sales', :'s_sales', :'details') ->> 'code', 'admin_required', 'a sales member may not change the details');
select is(pg_temp.update_as(:'alpha_user', :'s_user', :'details') ->> 'code', 'admin_required', 'a plain user may not change the details');
select is(pg_temp.update_as(:'alpha_viewer', :'s_viewer', :'details') ->> 'code', 'admin_required', 'a viewer may not change the details');
select is(pg_temp.update_as(:'alpha_admin', :'s_free', :'details') ->> 'code', 'organization_context_required',
  'an admin whose session is bound to no organization changes nothing');
select is(private.settings_json(:'alpha'), :'alpha_before'::jsonb, 'alpha''s settings are as they were after the refusals');

select tests.act_as_anon();
select throws_ok($$select public.update_organization_settings('{"legal_name": "Anonim"}')$$, '42501', null,
  'anon: update_organization_settings is refused by the database');
select tests.reset_role();

-- beta's admin changes beta's details, never alpha's.
select is(pg_temp.update_as(:'beta_admin', :'s_badmin', '{"legal_name": "Beta Limited Şirketi", "tax_number": "1000036109"}') ->> 'success',
  'true', 'beta''s admin changes beta''s details');
select is(private.settings_json(:'alpha'), :'alpha_before'::jsonb, 'beta''s admin''s change did not reach alpha');
select is(private.settings_json(:'beta') ->> 'legal_name', 'Beta Limited Şirketi', 'beta''s legal name is stored');

-- ---------------------------------------------------------------------------------
-- Allowed: alpha's admin, and the super admin bound to alpha
-- ---------------------------------------------------------------------------------
select pg_temp.update_as(:'alpha_admin', :'s_admin', :'details') as r \gset
select is(:'r'::jsonb ->> 'success', 'true', 'alpha''s admin changes every detail at once');
select is((:'r'::jsonb -> 'settings') - array(select jsonb_object_keys(:'alpha_before'::jsonb)) , :'stored'::jsonb,
  'the answer carries the details, trimmed and normalised (MERSİS and IBANs compact, phone E.164, e-mail lower case)');
select is(private.settings_json(:'alpha') - array(select jsonb_object_keys(:'alpha_before'::jsonb)), :'stored'::jsonb,
  'every detail is stored');
select is(private.settings_json(:'beta') ->> 'tax_number', '1000036109', 'beta''s details are untouched by alpha''s admin');
select is((select details -> 'fields' @> '["bank_accounts", "tax_number"]' from private.audit_log
            where organization_id = :'alpha' and actor_id = :'alpha_admin' and action = 'settings.updated'),
  true, 'the change is audited with its fields');

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.get_organization_settings() #>> '{settings,bank_accounts,0,iban}' as member_iban \gset
select tests.reset_role();
select is(:'member_iban'::text, 'TR330006100519786457841326', 'every member reads the details (their PDFs print them)');

select is(pg_temp.update_as(:'super', :'s_super', '{"website": "https://alpha.com.tr"}') ->> 'success', 'true',
  'the super admin bound to alpha changes a detail');

-- Blank and null clear a detail; an empty list clears the IBANs.
select is(pg_temp.update_as(:'alpha_admin', :'s_admin', '{"website": "  ", "mersis_number": null, "bank_accounts": []}') ->> 'success', 'true',
  'blank, null and an empty list clear details');
select ok(not (private.settings_json(:'alpha') ?| array['website', 'mersis_number', 'bank_accounts'])
          and private.settings_json(:'alpha') ->> 'tax_number' = '4540536920',
  'the cleared details are gone, the others stay');

-- ---------------------------------------------------------------------------------
-- Refused values: the field named, nothing changed
-- ---------------------------------------------------------------------------------
select private.settings_json(:'alpha') as alpha_before \gset
select count(*) as audits_before from private.audit_log where action = 'settings.updated' and organization_id = :'alpha' \gset
select is(pg_temp.update_as(:'alpha_admin', :'s_admin', change::jsonb) - 'error', expected::jsonb, format('refused: %s', change))
  from (values
    ('{"tax_number": "4540536921"}', '{"success": false, "code": "invalid_setting", "field": "tax_number"}'),
    ('{"tax_number": "454053692"}', '{"success": false, "code": "invalid_setting", "field": "tax_number"}'),
    ('{"tax_number": 4540536920}', '{"success": false, "code": "invalid_setting", "field": "tax_number"}'),
    ('{"mersis_number": "045405369200001"}', '{"success": false, "code": "invalid_setting", "field": "mersis_number"}'),
    ('{"phone": "12345"}', '{"success": false, "code": "invalid_setting", "field": "phone"}'),
    ('{"email": "teklif@"}', '{"success": false, "code": "invalid_setting", "field": "email"}'),
    ('{"website": "not a site"}', '{"success": false, "code": "invalid_setting", "field": "website"}'),
    ('{"legal_name": ["A"]}', '{"success": false, "code": "invalid_setting", "field": "legal_name"}'),
    ('{"tax_office": 7}', '{"success": false, "code": "invalid_setting", "field": "tax_office"}'),
    ('{"bank_accounts": [{"iban": "TR180006200119000006672315"}, {"iban": "TR340006100519786457841326"}]}',
     '{"success": false, "code": "invalid_setting", "field": "bank_accounts", "index": 1, "problem": "invalid_iban"}'),
    ('{"bank_accounts": [{"iban": "TR180006200119000006672315"}, {"iban": "tr18 0006 2001 1900 0006 6723 15"}]}',
     '{"success": false, "code": "invalid_setting", "field": "bank_accounts", "index": 1, "problem": "duplicate_iban"}'),
    ('{"bank_accounts": [{"iban": "DE89370400440532013000"}]}',
     '{"success": false, "code": "invalid_setting", "field": "bank_accounts", "index": 0, "problem": "invalid_iban"}'),
    ('{"bank_accounts": [{"iban": "TR180006200119000006672315", "owner": "x"}]}',
     '{"success": false, "code": "invalid_setting", "field": "bank_accounts", "index": 0, "problem": "invalid"}'),
    ('{"bank_accounts": "TR180006200119000006672315"}',
     '{"success": false, "code": "invalid_setting", "field": "bank_accounts", "index": null, "problem": "invalid"}')
  ) as cases (change, expected);
select is(pg_temp.update_as(:'alpha_admin', :'s_admin', '{"legal_name": "Yeni Ünvan", "tax_number": "4540536921"}') ->> 'field', 'tax_number',
  'one bad field refuses a change that also holds good ones');
select is(private.settings_json(:'alpha'), :'alpha_before'::jsonb, 'the refused changes changed nothing');
select is((select count(*) from private.audit_log where action = 'settings.updated' and organization_id = :'alpha'), :'audits_before'::bigint,
  'and were not audited');

-- The table's own checks keep any other writer to the shapes.
select throws_ok(format($$update private.organization_settings set bank_accounts = '[{"iban": "TR33 0006 1005 1978 6457 8413 26"}]' where organization_id = %L$$, :'alpha'),
  '23514', null, 'the table refuses an IBAN that is not in compact form');
select throws_ok(format($$update private.organization_settings set tax_number = '12345' where organization_id = %L$$, :'alpha'),
  '23514', null, 'the table refuses a tax number that is not ten digits');

select * from finish();
rollback;
