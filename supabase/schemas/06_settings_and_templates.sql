-- An organization's settings (currency, KDV, pipeline, task types, numbering patterns,
-- exchange rates and their history), document numbers, and document templates.

-- ---------------------------------------------------------------------------------
-- Settings
-- ---------------------------------------------------------------------------------
/** True when a numbering pattern holds exactly the known tokens and at least one {SEQ} or {SEQ:n} (n 1..9). */
create function private.is_valid_number_pattern(p_pattern text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_pattern is not null
     and char_length(p_pattern) between 1 and 60
     and p_pattern ~ '\{SEQ(:[1-9])?\}';
$$;

/**
 * p as a Turkish IBAN in its compact form (TR and 24 digits, upper case), or null when it
 * is not one. Whitespace (the same characters private.normalize_phone drops) is removed and
 * the letters upper-cased first, so "tr33 0006 1005 1978 6457 8413 26" is accepted. The
 * check digits must be 02-98 and pass ISO 13616's mod-97 test: the first four characters
 * moved to the end, each letter replaced by its number (A = 10 … Z = 35), the whole number
 * mod 97 is 1.
 * The same rule as normalizeIban in src/lib/turkish-identifiers.ts (shared test vectors:
 * supabase/tests/06_settings_and_templates/iban.sql and src/lib/turkish-identifiers.test.ts).
 */
create function private.normalize_iban(p text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  compact text;
begin
  if p is null or char_length(p) > 64 then
    return null;
  end if;
  compact := upper(regexp_replace(p, '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]', '', 'g'));
  if compact !~ '^TR[0-9]{24}$' or substr(compact, 3, 2)::integer not between 2 and 98 then
    return null;
  end if;
  -- T = 29, R = 27.
  return case when (substr(compact, 5) || '2927' || substr(compact, 3, 2))::numeric % 97 = 1 then compact end;
end;
$$;

/** Whether p is a Turkish IBAN (private.normalize_iban gives it a compact form). Null gives false. */
create function private.is_valid_iban(p text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select private.normalize_iban(p) is not null;
$$;

/**
 * The organization's bank accounts as stored: an array of at most 10 objects
 * {iban, bank_name}, each IBAN in compact form (private.normalize_iban of itself), no IBAN
 * twice, bank_name null or 1-100 characters, no other keys.
 */
create function private.is_valid_bank_accounts(p_accounts jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(p_accounts) = 'array'
     and jsonb_array_length(p_accounts) <= 10
     and not exists (
       select 1 from jsonb_array_elements(p_accounts) account
        where jsonb_typeof(account) <> 'object'
           or exists (select 1 from jsonb_object_keys(account) k where k not in ('iban', 'bank_name'))
           or jsonb_typeof(account -> 'iban') is distinct from 'string'
           or private.normalize_iban(account ->> 'iban') is distinct from account ->> 'iban'
           or coalesce(jsonb_typeof(account -> 'bank_name'), 'null') not in ('null', 'string')
           or char_length(account ->> 'bank_name') not between 1 and 100)
     and (select count(distinct account ->> 'iban') = count(*) from jsonb_array_elements(p_accounts) account);
$$;

create table private.organization_settings (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  default_currency text not null default 'TRY' check (default_currency ~ '^[A-Z]{3}$'),
  -- KDV (Turkish VAT) in percent.
  default_vat_rate numeric(5, 2) not null default 20 check (default_vat_rate between 0 and 100),
  locale text not null default 'tr-TR' check (locale in ('tr-TR', 'en-US')),
  time_zone text not null default 'Europe/Istanbul' check (char_length(time_zone) between 1 and 64),
  -- Deal pipeline: [{key, name, probability, outcome: open|won|lost}] in order.
  deal_stages jsonb not null default '[
    {"key": "lead", "name": "Aday", "probability": 10, "outcome": "open"},
    {"key": "qualified", "name": "Nitelikli", "probability": 25, "outcome": "open"},
    {"key": "proposal", "name": "Teklif", "probability": 50, "outcome": "open"},
    {"key": "negotiation", "name": "Pazarlık", "probability": 75, "outcome": "open"},
    {"key": "won", "name": "Kazanıldı", "probability": 100, "outcome": "won"},
    {"key": "lost", "name": "Kaybedildi", "probability": 0, "outcome": "lost"}
  ]' check (jsonb_typeof(deal_stages) = 'array'),
  task_types jsonb not null default '["call", "meeting", "email", "visit", "other"]'
    check (jsonb_typeof(task_types) = 'array'),
  -- The settings RPC already refuses a quote pattern without {SEQ}; the named constraint
  -- keeps any other writer honest too.
  quote_number_pattern text not null default 'TKL-{YYYY}-{SEQ:5}' check (char_length(quote_number_pattern) between 1 and 60)
    constraint organization_settings_quote_number_pattern_seq check (private.is_valid_number_pattern(quote_number_pattern)),
  quote_validity_days integer not null default 30 check (quote_validity_days between 1 and 365),
  updated_at timestamptz not null default now(),
  updated_by uuid,
  -- 1 unit of the currency is this many units of the default currency: {"USD": 41.2}.
  exchange_rates jsonb not null default '{}' check (jsonb_typeof(exchange_rates) = 'object'),
  contract_number_pattern text not null default 'SZL-{YYYY}-{SEQ:5}'
    constraint organization_settings_contract_number_pattern_check
    check (private.is_valid_number_pattern(contract_number_pattern)),
  -- The organization's own details, printed on its quotes and contracts (organization.*
  -- placeholders). The settings RPC checks each (VKN checksum, phone, e-mail, website, IBANs);
  -- the constraints keep any other writer to their shape.
  legal_name text check (char_length(legal_name) between 1 and 250),
  address text check (char_length(address) between 1 and 500),
  province text check (char_length(province) between 1 and 60),
  district text check (char_length(district) between 1 and 60),
  tax_office text check (char_length(tax_office) between 1 and 100),
  -- VKN: ten digits (the checksum: private.is_valid_vkn, in the settings RPC).
  tax_number text check (tax_number ~ '^[0-9]{10}$'),
  -- MERSİS number: sixteen digits.
  mersis_number text check (mersis_number ~ '^[0-9]{16}$'),
  -- E.164, as private.normalize_phone gives it.
  phone text check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  email text check (char_length(email) between 3 and 254),
  website text check (char_length(website) between 1 and 300),
  -- [{"iban": "TR…", "bank_name": "…" | null}], in the order they print.
  bank_accounts jsonb not null default '[]' check (private.is_valid_bank_accounts(bank_accounts))
);

comment on table private.organization_settings is 'One row per organization: general and operations settings.';

alter table private.organization_settings enable row level security;

/**
 * The settings of one organization, with its name and when its logo last changed (null:
 * none). exchange_rates is there once any rate is set (absent: none), and
 * contract_number_pattern once it differs from the default SZL-{YYYY}-{SEQ:5} (absent:
 * the default), and each of the organization's own details (legal_name … bank_accounts)
 * once set (absent: none), so the answer stays as it was for organizations that set neither.
 */
create function private.settings_json(p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select (to_jsonb(s) - 'organization_id' - 'updated_by')
           - case when s.exchange_rates = '{}'::jsonb then 'exchange_rates' else '' end
           - case when s.contract_number_pattern = 'SZL-{YYYY}-{SEQ:5}' then 'contract_number_pattern' else '' end
           - case when s.bank_accounts = '[]'::jsonb then 'bank_accounts' else '' end
           - array(select k from unnest(array['legal_name', 'address', 'province', 'district', 'tax_office', 'tax_number',
                                              'mersis_number', 'phone', 'email', 'website']) k
                    where to_jsonb(s) -> k = 'null'::jsonb)
           || jsonb_build_object('name', o.name, 'logo_updated_at', l.updated_at)
      from private.organization_settings s
      join private.organizations o on o.id = s.organization_id
      left join private.organization_logos l on l.organization_id = s.organization_id
     where s.organization_id = p_organization_id);
end;
$$;

/** The caller's organization settings (every member reads them: currency, KDV, stages...). */
create function public.get_organization_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;
revoke all on function public.get_organization_settings() from public, anon, authenticated;
grant execute on function public.get_organization_settings() to authenticated;

/** Are these deal stages a usable pipeline: unique keys, probabilities 0-100, a won and a lost stage? */
create function private.is_valid_pipeline(p_stages jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(p_stages) = 'array'
     and jsonb_array_length(p_stages) between 2 and 30
     and not exists (
       select 1 from jsonb_array_elements(p_stages) stage
        where jsonb_typeof(stage) <> 'object'
           or coalesce(stage ->> 'key', '') !~ '^[a-z][a-z0-9_]{0,39}$'
           or char_length(btrim(coalesce(stage ->> 'name', ''))) not between 1 and 60
           or coalesce(jsonb_typeof(stage -> 'probability'), '') <> 'number'
           or (stage ->> 'probability')::numeric not between 0 and 100
           or coalesce(stage ->> 'outcome', '') not in ('open', 'won', 'lost'))
     and (select count(distinct stage ->> 'key') = count(*) from jsonb_array_elements(p_stages) stage)
     and exists (select 1 from jsonb_array_elements(p_stages) stage where stage ->> 'outcome' = 'won')
     and exists (select 1 from jsonb_array_elements(p_stages) stage where stage ->> 'outcome' = 'lost');
$$;

/** A setting that may be cleared: JSON null, or a string of at most p_max characters once trimmed (blank clears it). */
create function private.is_optional_setting_text(p_value jsonb, p_max integer)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_typeof(p_value), 'null') = 'null'
      or (jsonb_typeof(p_value) = 'string' and char_length(btrim(p_value #>> '{}')) <= p_max);
$$;

/**
 * What is wrong with a bank_accounts change, or null when nothing: an array of at most 10
 * objects {iban, bank_name?}; each IBAN a Turkish IBAN (private.normalize_iban: spaces and
 * lower case allowed), none twice once normalised; bank_name absent, null or a string of at
 * most 100 characters. The answer names the first bad entry: {index, problem} with problem
 * invalid_iban, duplicate_iban, invalid_bank_name or invalid (not an object, an unknown key;
 * index null: not an array, or more than 10).
 */
create function private.bank_accounts_problem(p_accounts jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_accounts) is distinct from 'array' or jsonb_array_length(p_accounts) > 10
      then jsonb_build_object('index', null, 'problem', 'invalid')
    else (
      select jsonb_build_object('index', a.position - 1, 'problem', a.problem)
        from (select e.position,
                     case when jsonb_typeof(e.account) <> 'object'
                            or exists (select 1 from jsonb_object_keys(e.account) k where k not in ('iban', 'bank_name'))
                            then 'invalid'
                          when jsonb_typeof(e.account -> 'iban') is distinct from 'string'
                            or private.normalize_iban(e.account ->> 'iban') is null then 'invalid_iban'
                          when exists (select 1 from jsonb_array_elements(p_accounts) with ordinality o (account, position)
                                        where o.position < e.position and jsonb_typeof(o.account) = 'object'
                                          and private.normalize_iban(o.account ->> 'iban') = private.normalize_iban(e.account ->> 'iban'))
                            then 'duplicate_iban'
                          when not private.is_optional_setting_text(e.account -> 'bank_name', 100) then 'invalid_bank_name'
                     end as problem
                from jsonb_array_elements(p_accounts) with ordinality e (account, position)) a
       where a.problem is not null
       order by a.position
       limit 1)
  end;
$$;

/**
 * Admin: changes the organization's settings. Fields: name, default_currency,
 * default_vat_rate, locale, time_zone, deal_stages, task_types, quote_number_pattern,
 * quote_validity_days, contract_number_pattern (private.is_valid_number_pattern: 1-60 characters
 * with a {SEQ:n} token),
 * exchange_rates ({"USD": 41.2}: one unit is that many of the default currency), and the
 * organization's own details, each cleared by null or a blank text: legal_name (250),
 * address (500), province and district (60 each), tax_office (100), tax_number (a VKN,
 * private.is_valid_vkn), mersis_number (16 digits, spaces dropped), phone
 * (private.normalize_phone, kept in E.164), email (private.is_valid_email, kept lower case),
 * website (private.is_valid_website), bank_accounts ([{iban, bank_name}], see
 * private.bank_accounts_problem; IBANs kept in compact form). Any invalid field refuses the
 * whole change (invalid_setting with its field; for bank_accounts also the entry's index
 * and the problem). A deal_stages change that removes stages still
 * holding deals is refused (stage_in_use, with {"stages": [{key, count}]}) unless
 * deal_stage_moves ({old key: new key}) says where they go; they move in the same
 * transaction. Deals may only be moved into a lost stage with a lost reason
 * (lost_reason_required). The audit entry names the changed fields and, under "changes",
 * each changed field's old and new value (private.audit_changes: secret-typed settings
 * masked).
 */
create function public.update_organization_settings(p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  invalid_field text;
  tenant text;
  new_stages jsonb;
  removed text[] := '{}';
  moves jsonb := coalesce(p_changes -> 'deal_stage_moves', '{}');
  in_use jsonb;
  moved jsonb;
  before_settings jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if jsonb_typeof(p_changes) is distinct from 'object' then
    return private.failure('Invalid settings', 'invalid_input');
  end if;

  select key into invalid_field
    from jsonb_each(p_changes) as change (key, value)
   where not case key
     when 'name' then jsonb_typeof(value) = 'string' and char_length(btrim(value #>> '{}')) between 1 and 200
     when 'default_currency' then coalesce(value #>> '{}', '') ~ '^[A-Z]{3}$'
     when 'default_vat_rate' then jsonb_typeof(value) = 'number' and (value #>> '{}')::numeric between 0 and 100
     when 'locale' then coalesce(value #>> '{}', '') in ('tr-TR', 'en-US')
     when 'time_zone' then exists (select 1 from pg_catalog.pg_timezone_names z where z.name = value #>> '{}')
     when 'deal_stages' then private.is_valid_pipeline(value)
     when 'task_types' then jsonb_typeof(value) = 'array' and jsonb_array_length(value) between 1 and 30
                            and not exists (select 1 from jsonb_array_elements(value) t
                                             where jsonb_typeof(t) <> 'string' or char_length(btrim(t #>> '{}')) not between 1 and 40)
     when 'quote_number_pattern' then char_length(coalesce(value #>> '{}', '')) between 1 and 60
                                      and (value #>> '{}') ~ '\{SEQ(:[1-9])?\}'
     when 'quote_validity_days' then jsonb_typeof(value) = 'number' and (value #>> '{}') ~ '^\d+$'
                                     and (value #>> '{}')::numeric between 1 and 365
     when 'contract_number_pattern' then jsonb_typeof(value) = 'string' and private.is_valid_number_pattern(value #>> '{}')
     when 'exchange_rates' then private.is_valid_exchange_rates(value)
     when 'legal_name' then private.is_optional_setting_text(value, 250)
     when 'address' then private.is_optional_setting_text(value, 500)
     when 'province' then private.is_optional_setting_text(value, 60)
     when 'district' then private.is_optional_setting_text(value, 60)
     when 'tax_office' then private.is_optional_setting_text(value, 100)
     when 'tax_number' then private.is_optional_setting_text(value, 20)
                            and (btrim(coalesce(value #>> '{}', '')) = '' or private.is_valid_vkn(btrim(value #>> '{}')))
     when 'mersis_number' then private.is_optional_setting_text(value, 40)
                               and regexp_replace(coalesce(value #>> '{}', ''), '\s', '', 'g') ~ '^([0-9]{16})?$'
     when 'phone' then private.is_optional_setting_text(value, 40)
                       and (btrim(coalesce(value #>> '{}', '')) = '' or private.normalize_phone(value #>> '{}') is not null)
     when 'email' then private.is_optional_setting_text(value, 254)
                       and (btrim(coalesce(value #>> '{}', '')) = '' or private.is_valid_email(private.normalize_email(value #>> '{}')))
     when 'website' then private.is_optional_setting_text(value, 300)
                         and (btrim(coalesce(value #>> '{}', '')) = '' or private.is_valid_website(btrim(value #>> '{}')))
     when 'bank_accounts' then private.bank_accounts_problem(value) is null
     -- Where the deals of removed stages go: only with deal_stages, stage keys both ways.
     when 'deal_stage_moves' then p_changes ? 'deal_stages' and jsonb_typeof(value) = 'object'
                                  and not exists (select 1 from jsonb_each(value) m
                                                   where m.key !~ '^[a-z][a-z0-9_]{0,39}$' or jsonb_typeof(m.value) <> 'string')
     else false end
   limit 1;
  if invalid_field = 'bank_accounts' then
    return private.failure('Invalid setting: bank_accounts', 'invalid_setting',
                           jsonb_build_object('field', 'bank_accounts') || private.bank_accounts_problem(p_changes -> 'bank_accounts'));
  end if;
  if invalid_field is not null then
    return private.failure(format('Invalid setting: %s', left(invalid_field, 40)), 'invalid_setting',
                           jsonb_build_object('field', left(invalid_field, 40)));
  end if;

  if p_changes ? 'deal_stages' then
    new_stages := p_changes -> 'deal_stages';
    removed := array(select old.stage ->> 'key'
                       from private.organization_settings s, jsonb_array_elements(s.deal_stages) old (stage)
                      where s.organization_id = target_org
                        and private.deal_stage(new_stages, old.stage ->> 'key') is null);
    -- Each move takes a removed stage to a stage of the new pipeline.
    if exists (select 1 from jsonb_each_text(moves) m
                where not (m.key = any (removed)) or private.deal_stage(new_stages, m.value) is null) then
      return private.failure('Invalid setting: deal_stage_moves', 'invalid_setting', '{"field": "deal_stage_moves"}');
    end if;
    tenant := private.tenant_schema(target_org);
    if tenant is not null and cardinality(removed) > 0 then
      execute format('select jsonb_agg(jsonb_build_object(''key'', g.stage, ''count'', g.n) order by g.stage)
                        from (select t.stage, count(*) as n from %I.deals t
                               where t.stage = any ($1) and t.deleted_at is null group by t.stage) g', tenant)
        into in_use using array(select r from unnest(removed) r where not moves ? r);
      if in_use is not null then
        return private.failure('Deal stages still hold deals', 'stage_in_use',
                               jsonb_build_object('field', 'deal_stages', 'stages', in_use));
      end if;
      execute format('select jsonb_agg(jsonb_build_object(''key'', g.stage, ''count'', g.n) order by g.stage)
                        from (select t.stage, count(*) as n from %I.deals t
                               where t.stage = any ($1) and t.deleted_at is null and t.lost_reason is null group by t.stage) g', tenant)
        into in_use
        using array(select m.key from jsonb_each_text(moves) m where private.deal_stage(new_stages, m.value) ->> 'outcome' = 'lost');
      if in_use is not null then
        return private.failure('Deals moved to a lost stage need a lost reason', 'lost_reason_required',
                               jsonb_build_object('field', 'deal_stage_moves', 'stages', in_use));
      end if;
    end if;
  end if;

  before_settings := private.settings_audit_json(target_org);
  if p_changes ? 'name' then
    update private.organizations set name = btrim(p_changes ->> 'name'), updated_at = now() where id = target_org;
  end if;
  update private.organization_settings
     set default_currency = coalesce(p_changes ->> 'default_currency', default_currency),
         default_vat_rate = coalesce((p_changes ->> 'default_vat_rate')::numeric, default_vat_rate),
         locale = coalesce(p_changes ->> 'locale', locale),
         time_zone = coalesce(p_changes ->> 'time_zone', time_zone),
         deal_stages = coalesce(p_changes -> 'deal_stages', deal_stages),
         task_types = coalesce(p_changes -> 'task_types', task_types),
         quote_number_pattern = coalesce(p_changes ->> 'quote_number_pattern', quote_number_pattern),
         quote_validity_days = coalesce((p_changes ->> 'quote_validity_days')::integer, quote_validity_days),
         contract_number_pattern = coalesce(p_changes ->> 'contract_number_pattern', contract_number_pattern),
         exchange_rates = coalesce(p_changes -> 'exchange_rates', exchange_rates),
         legal_name = case when p_changes ? 'legal_name' then nullif(btrim(p_changes ->> 'legal_name'), '') else legal_name end,
         address = case when p_changes ? 'address' then nullif(btrim(p_changes ->> 'address'), '') else address end,
         province = case when p_changes ? 'province' then nullif(btrim(p_changes ->> 'province'), '') else province end,
         district = case when p_changes ? 'district' then nullif(btrim(p_changes ->> 'district'), '') else district end,
         tax_office = case when p_changes ? 'tax_office' then nullif(btrim(p_changes ->> 'tax_office'), '') else tax_office end,
         tax_number = case when p_changes ? 'tax_number' then nullif(btrim(p_changes ->> 'tax_number'), '') else tax_number end,
         mersis_number = case when p_changes ? 'mersis_number'
                              then nullif(regexp_replace(coalesce(p_changes ->> 'mersis_number', ''), '\s', '', 'g'), '')
                              else mersis_number end,
         phone = case when p_changes ? 'phone' then private.normalize_phone(nullif(btrim(p_changes ->> 'phone'), '')) else phone end,
         email = case when p_changes ? 'email' then nullif(private.normalize_email(coalesce(p_changes ->> 'email', '')), '') else email end,
         website = case when p_changes ? 'website' then nullif(btrim(p_changes ->> 'website'), '') else website end,
         bank_accounts = case when p_changes ? 'bank_accounts'
                              then coalesce((select jsonb_agg(jsonb_build_object(
                                                      'iban', private.normalize_iban(a.account ->> 'iban'),
                                                      'bank_name', nullif(btrim(a.account ->> 'bank_name'), ''))
                                                    order by a.position)
                                               from jsonb_array_elements(p_changes -> 'bank_accounts') with ordinality a (account, position)),
                                            '[]')
                              else bank_accounts end,
         updated_at = now(),
         updated_by = auth.uid()
   where organization_id = target_org;
  if tenant is not null and moves <> '{}' then
    moved := private.move_deals_off_stages(target_org, tenant, moves, new_stages);
  end if;
  perform private.write_audit(target_org, 'settings.updated', 'organization', target_org::text,
                              jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p_changes) k),
                                                 'changes', private.audit_changes(before_settings, private.settings_audit_json(target_org)))
                              || case when moved is not null then jsonb_build_object('moved_deals', moved) else '{}' end);
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org))
         || case when moved is not null then jsonb_build_object('moved_deals', moved) else '{}' end;
end;
$$;
revoke all on function public.update_organization_settings(p_changes jsonb) from public, anon, authenticated;
grant execute on function public.update_organization_settings(p_changes jsonb) to authenticated;

/** The organization's quote and contract templates (not deleted), defaults first. */
create function public.list_document_templates()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  templates jsonb;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', t.id, 'kind', t.kind, 'name', t.name, 'body', t.body, 'is_default', t.is_default,
             'owner_id', t.owner_id, 'created_at', t.created_at, 'updated_at', t.updated_at)
             order by t.kind, t.is_default desc, private.turkish_sort_key(t.name) collate "C", t.id), '[]')
      from %I.document_templates t where t.deleted_at is null$query$, target.schema_name)
    into templates;
  return jsonb_build_object('success', true, 'templates', templates);
end;
$$;
revoke all on function public.list_document_templates() from public, anon, authenticated;
grant execute on function public.list_document_templates() to authenticated;

/**
 * Creates (p_id null) or changes a template. Kind quote or contract; a name; a body of at
 * most 200,000 characters (kept as text: the app renders it escaped). Making one the
 * default of its kind takes the flag from the previous default in the same transaction.
 */
create function public.save_document_template(p_id uuid, p_kind text, p_name text, p_body text, p_is_default boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  clean_name text := btrim(p_name);
  saved_id uuid;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  if coalesce(p_kind, '') not in ('quote', 'contract') then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 200 then
    return private.failure('Template name is required (at most 200 characters)', 'invalid_name');
  end if;
  if char_length(coalesce(p_body, '')) > 200000 then
    return private.failure('Template body is too long', 'body_too_long');
  end if;

  if coalesce(p_is_default, false) then
    execute format('update %I.document_templates set is_default = false
                     where kind = $1 and is_default and deleted_at is null and id is distinct from $2', target.schema_name)
      using p_kind, p_id;
  end if;
  if p_id is null then
    execute format('insert into %I.document_templates (kind, name, body, is_default, owner_id, created_by)
                    values ($1, $2, $3, $4, $5, $5) returning id', target.schema_name)
      into saved_id using p_kind, clean_name, coalesce(p_body, ''), coalesce(p_is_default, false), auth.uid();
  else
    execute format('update %I.document_templates set kind = $2, name = $3, body = $4, is_default = $5
                     where id = $1 and deleted_at is null returning id', target.schema_name)
      into saved_id using p_id, p_kind, clean_name, coalesce(p_body, ''), coalesce(p_is_default, false);
    if saved_id is null then
      return private.failure('Template not found', 'template_not_found');
    end if;
  end if;

  perform private.write_audit(private.current_organization_id(), 'template.saved', 'document_template', saved_id::text,
                              jsonb_build_object('kind', p_kind, 'name', clean_name, 'is_default', coalesce(p_is_default, false)));
  return jsonb_build_object('success', true, 'id', saved_id);
end;
$$;
revoke all on function public.save_document_template(p_id uuid, p_kind text, p_name text, p_body text, p_is_default boolean) from public, anon, authenticated;
grant execute on function public.save_document_template(p_id uuid, p_kind text, p_name text, p_body text, p_is_default boolean) to authenticated;

/** Moves a template to the trash (soft delete). */
create function public.delete_document_template(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  deleted_id uuid;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  execute format('update %I.document_templates set deleted_at = now(), is_default = false
                   where id = $1 and deleted_at is null returning id', target.schema_name)
    into deleted_id using p_id;
  if deleted_id is null then
    return private.failure('Template not found', 'template_not_found');
  end if;
  perform private.write_audit(private.current_organization_id(), 'template.deleted', 'document_template', p_id::text);
  return jsonb_build_object('success', true);
end;
$$;
revoke all on function public.delete_document_template(p_id uuid) from public, anon, authenticated;
grant execute on function public.delete_document_template(p_id uuid) to authenticated;

-- ---------------------------------------------------------------------------------
-- Settings: exchange rates
-- ---------------------------------------------------------------------------------
/** Exchange rates as a setting: an object of at most 50 three-letter upper-case codes, each a positive number. */
create function private.is_valid_exchange_rates(p_rates jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_rates) is distinct from 'object' then false
              else (select count(*) from jsonb_object_keys(p_rates)) <= 50
                   and not exists (select 1 from jsonb_each(p_rates) rate
                                    where rate.key !~ '^[A-Z]{3}$'
                                       or jsonb_typeof(rate.value) <> 'number'
                                       or (rate.value #>> '{}')::numeric <= 0
                                       or (rate.value #>> '{}')::numeric >= 1000000000) end;
$$;

-- Document numbers: quotes and contracts get gapless numbers per organization,
-- kind and year from one row-locked counter (private.document_counters). The counter is
-- taken inside the caller's transaction (insert … on conflict do update … returning), so
-- concurrent creators wait for each other and a rolled-back create gives its number back.
-- Patterns: {YYYY}, {YY}, {MM}, {SEQ:n} (n 1..9, zero padded; {SEQ} unpadded); anything
-- else is literal. A quote number pattern without {SEQ…} is refused by the settings RPC
-- and, as a last line, by a check constraint on private.organization_settings.
create table private.document_counters (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  kind text not null check (kind in ('quote', 'contract')),
  year integer not null check (year between 1900 and 9999),
  last_value bigint not null check (last_value >= 0),
  primary key (organization_id, kind, year)
);

alter table private.document_counters enable row level security;

comment on table private.document_counters is
  'The last number given per organization, document kind and year (gapless: taken in the creating transaction).';

/**
 * A document number from a pattern: {YYYY} the four-digit year, {YY} its last two digits,
 * {MM} the two-digit month (all of p_on), {SEQ:n} the sequence zero padded to n digits
 * (a longer sequence is never cut), {SEQ} the sequence as is. Anything else is literal.
 */
create function private.render_document_number(p_pattern text, p_on date, p_sequence bigint)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  result text := p_pattern;
  token text[];
  width integer;
begin
  result := replace(result, '{YYYY}', to_char(p_on, 'YYYY'));
  result := replace(result, '{YY}', to_char(p_on, 'YY'));
  result := replace(result, '{MM}', to_char(p_on, 'MM'));
  for token in select regexp_matches(p_pattern, '\{SEQ(?::([1-9]))?\}', 'g') loop
    width := coalesce(token[1]::integer, 1);
    result := replace(result, '{SEQ' || coalesce(':' || token[1], '') || '}',
                      lpad(p_sequence::text, greatest(width, char_length(p_sequence::text)), '0'));
  end loop;
  return result;
end;
$$;

/**
 * The next number of a kind ('quote' or 'contract') for an organization in the year of
 * p_on, rendered with p_pattern. Gapless: the counter row is locked until the caller's
 * transaction ends, and a rollback gives the number back. Numbers restart at 1 each year.
 * Raises invalid_parameter_value for an unknown kind or a pattern without {SEQ}.
 */
create function private.next_document_number(p_organization_id uuid, p_kind text, p_pattern text, p_on date)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  sequence bigint;
begin
  if p_kind is null or p_kind not in ('quote', 'contract') then
    raise exception 'Unknown document kind: %', p_kind using errcode = 'invalid_parameter_value';
  end if;
  if not private.is_valid_number_pattern(p_pattern) then
    raise exception 'A number pattern needs {SEQ}: %', p_pattern using errcode = 'invalid_parameter_value';
  end if;
  insert into private.document_counters as c (organization_id, kind, year, last_value)
  values (p_organization_id, p_kind, extract(year from coalesce(p_on, current_date))::integer, 1)
  on conflict (organization_id, kind, year) do update set last_value = c.last_value + 1
  returning c.last_value into sequence;
  return private.render_document_number(p_pattern, coalesce(p_on, current_date), sequence);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Exchange rates per day
-- ---------------------------------------------------------------------------------
create table private.exchange_rate_history (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  -- The day (in the organization's time zone) the rate was set in the settings.
  rate_date date not null,
  -- 1 unit of the currency is this many units of the organization's currency.
  rate numeric(18, 6) not null check (rate > 0),
  primary key (organization_id, currency, rate_date)
);

alter table private.exchange_rate_history enable row level security;

comment on table private.exchange_rate_history is
  'Each organization''s exchange rates by the day they were set; quotes take the rate of their date.';

/** Trigger (after insert or update of exchange_rates on organization_settings): today's rates go to the history. */
create function private.record_exchange_rates()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.exchange_rates is not distinct from old.exchange_rates then
    return null;
  end if;
  insert into private.exchange_rate_history as h (organization_id, currency, rate_date, rate)
  select new.organization_id, r.key, (now() at time zone new.time_zone)::date, round((r.value #>> '{}')::numeric, 6)
    from jsonb_each(new.exchange_rates) r
   where jsonb_typeof(r.value) = 'number' and (r.value #>> '{}')::numeric > 0
  on conflict (organization_id, currency, rate_date) do update set rate = excluded.rate;
  return null;
end;
$$;

create trigger record_exchange_rates
  after insert or update of exchange_rates on private.organization_settings
  for each row execute function private.record_exchange_rates();

/** Today in the organization's time zone. */
create function private.organization_today(p_organization_id uuid)
returns date
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select (now() at time zone coalesce((select s.time_zone from private.organization_settings s
                                          where s.organization_id = p_organization_id), 'Europe/Istanbul'))::date);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Settings: the contract number pattern
-- ---------------------------------------------------------------------------------
/** The caller's organization's default currency (TRY when it has none). */
create function private.organization_currency()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce((select s.default_currency from private.organization_settings s
                      where s.organization_id = private.current_organization_id()), 'TRY'));
end;
$$;

/**
 * The organization's default template of a kind ('quote' or 'contract'), for a member with
 * view permission on quotes or contracts in the session's organization:
 * {success, template: {id, name, body, updated_at} | null} (null: no default, the app uses
 * its built-in body). The body is plain text; the app fills its placeholders from a fixed list.
 */
create function public.get_default_document_template(p_kind text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  template jsonb;
begin
  if coalesce(p_kind, '') not in ('quote', 'contract') then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  context := private.module_context(case p_kind when 'quote' then 'quotes' else 'contracts' end, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  execute format($query$
    select jsonb_build_object('id', t.id, 'name', t.name, 'body', t.body, 'updated_at', t.updated_at)
      from %I.document_templates t
     where t.kind = $1 and t.is_default and t.deleted_at is null
     order by t.updated_at desc
     limit 1$query$, context.schema_name)
    into template using p_kind;
  return jsonb_build_object('success', true, 'template', template);
end;
$$;
revoke all on function public.get_default_document_template(p_kind text) from public, anon, authenticated;
grant execute on function public.get_default_document_template(p_kind text) to authenticated;

/**
 * Whether a setting's value is a secret that the audit log must not show (a password, a
 * token, an API or private key, a credential): by its name. No setting is one today; one
 * added later with such a name is masked without a change here.
 */
create function private.is_secret_setting(p_key text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_key, '') ~* '(secret|password|passwd|token|api_?key|private_?key|credential)';
$$;

/** An organization's settings as the audit compares them: every setting and the name, not who or when. */
create function private.settings_audit_json(p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select (to_jsonb(s) - 'organization_id' - 'updated_by' - 'updated_at' - 'created_at') || jsonb_build_object('name', o.name)
      from private.organization_settings s
      join private.organizations o on o.id = s.organization_id
     where s.organization_id = p_organization_id);
end;
$$;
