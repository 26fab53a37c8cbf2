-- Contracts: numbers, terms, status and its workflow (renew, terminate), the due steps
-- (notice, expiry, auto-renewal), and a contract from an accepted quote.

-- An enum rather than text with a check: the record engine sorts it in workflow order.
create type private.contract_status as enum ('draft', 'active', 'expired', 'terminated', 'renewed');

comment on type private.contract_status is 'A contract''s state, in workflow order.';

/** The contract types, as stored keys (the app names them: hizmet, satış, bakım, lisans, gizlilik, diğer). */
create function private.contract_types()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['service', 'sales', 'maintenance', 'license', 'nda', 'other'];
$$;

/**
 * Trigger (before insert on contracts): a contract written without a number
 * gets the next one of its organization's contract_number_pattern for today in the
 * organization's time zone (private.next_document_number: gapless, and a rolled-back
 * insert gives its number back). A schema no organization owns gets none.
 */
create function private.contract_fill_number()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.organization_settings;
begin
  if new.contract_number is null then
    select s.* into settings from private.organization_settings s
     where s.organization_id = private.schema_organization(tg_table_schema);
    if settings.organization_id is not null then
      new.contract_number := private.next_document_number(settings.organization_id, 'contract',
        settings.contract_number_pattern, private.organization_today(settings.organization_id));
    end if;
  end if;
  return new;
end;
$$;

/**
 * A contract's own rules (its title and notes are their declared types'): a type among
 * private.contract_types(); the dates as 'YYYY-MM-DD' (invalid), the end not before the
 * start (end_before_start); a value of at least 0 with at most two decimals, as a number
 * or a numeric string (invalid); value_includes_vat a boolean and vat_amount (the KDV
 * stated with the value) null or such an amount, not above a KDV-included value
 * (exceeds_value); withholding_amount (the KDV withheld, tevkifat) null or such an
 * amount, only with a stated KDV and not above it (exceeds_vat), and withholding_rate
 * null or one of private.withholding_rates() (invalid); a three-letter currency, the organization's by default;
 * auto_renew a boolean; renewal_notice_days 0-365 and renewal_term_months 1-120 whole
 * numbers; customer, contact, quote and deal the caller can see (not_found). Status: a new
 * contract is draft or active; through the engine a contract only goes draft -> active
 * (invalid_transition: terminate_contract, renew_contract and the scheduled step make the
 * other moves). An active contract has both dates (required_for_active). A terminated or
 * renewed contract is history: no change (status: locked). A new end date or notice
 * period lets the renewal notice go out again. Returns {"values", "errors"}.
 */
create function private.prepare_contract(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  related uuid;
  amount numeric;
  whole numeric;
  old_status text := p_existing ->> 'status';
  new_status text;
  start_on date;
  end_on date;
begin
  if old_status in ('terminated', 'renewed') then
    return jsonb_build_object('values', result, 'errors', '{"status": "locked"}'::jsonb);
  end if;

  -- Free-text fields: strings only, trimmed, empty as null.
  foreach field in array array['contract_type', 'currency', 'status'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

  if p_values ? 'contract_type' and not errors ? 'contract_type' then
    if result ->> 'contract_type' is null then
      errors := errors || '{"contract_type": "required"}';
    elsif not (result ->> 'contract_type' = any (private.contract_types())) then
      errors := errors || '{"contract_type": "invalid"}';
    end if;
  end if;

  -- Currency: three letters, the organization's when a new contract names none.
  if p_values ? 'currency' and not errors ? 'currency' then
    if result ->> 'currency' is null then
      if p_existing is null then
        result := result || jsonb_build_object('currency', private.organization_currency());
      else
        errors := errors || '{"currency": "required"}';
      end if;
    elsif upper(result ->> 'currency') !~ '^[A-Z]{3}$' then
      errors := errors || '{"currency": "invalid"}';
    else
      result := result || jsonb_build_object('currency', upper(result ->> 'currency'));
    end if;
  elsif p_existing is null then
    result := result || jsonb_build_object('currency', private.organization_currency());
  end if;

  -- Value: a number (or a numeric string, kept exact) from 0, to the kuruş; null is 0.
  if p_values ? 'value' then
    if jsonb_typeof(p_values -> 'value') = 'null' then
      result := result || '{"value": 0}';
    elsif jsonb_typeof(p_values -> 'value') not in ('number', 'string')
          or btrim(p_values ->> 'value') !~ '^\d{1,16}(\.\d{1,2})?$' then
      errors := errors || '{"value": "invalid"}';
    else
      amount := btrim(p_values ->> 'value')::numeric;
      result := result || jsonb_build_object('value', amount);
    end if;
  end if;

  -- KDV: value_includes_vat a boolean; vat_amount null (not stated) or an amount from 0,
  -- to the kuruş, kept exact; a KDV-included value cannot hold more KDV than itself.
  if p_values ? 'value_includes_vat' and jsonb_typeof(p_values -> 'value_includes_vat') <> 'boolean' then
    errors := errors || '{"value_includes_vat": "invalid"}';
  end if;
  foreach field in array array['vat_amount', 'withholding_amount'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      elsif jsonb_typeof(p_values -> field) not in ('number', 'string')
            or btrim(p_values ->> field) !~ '^\d{1,16}(\.\d{1,2})?$' then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, btrim(p_values ->> field)::numeric);
      end if;
    end if;
  end loop;
  if not (errors ? 'value' or errors ? 'vat_amount' or errors ? 'value_includes_vat')
     and coalesce((case when p_values ? 'value_includes_vat' then result ->> 'value_includes_vat' else p_existing ->> 'value_includes_vat' end)::boolean, false)
     and (case when p_values ? 'vat_amount' then result ->> 'vat_amount' else p_existing ->> 'vat_amount' end)::numeric
         > coalesce((case when p_values ? 'value' then result ->> 'value' else p_existing ->> 'value' end)::numeric, 0) then
    errors := errors || '{"vat_amount": "exceeds_value"}';
  end if;
  -- Tevkifat: part of the stated KDV, so never without it nor above it.
  if not (errors ? 'vat_amount' or errors ? 'withholding_amount')
     and (case when p_values ? 'withholding_amount' then result ->> 'withholding_amount' else p_existing ->> 'withholding_amount' end) is not null
     and coalesce((case when p_values ? 'withholding_amount' then result ->> 'withholding_amount' else p_existing ->> 'withholding_amount' end)::numeric
                  > (case when p_values ? 'vat_amount' then result ->> 'vat_amount' else p_existing ->> 'vat_amount' end)::numeric, true) then
    errors := errors || '{"withholding_amount": "exceeds_vat"}';
  end if;
  if p_values ? 'withholding_rate' then
    if jsonb_typeof(p_values -> 'withholding_rate') not in ('string', 'null') then
      errors := errors || '{"withholding_rate": "invalid"}';
    elsif private.clean_text(p_values -> 'withholding_rate') is null then
      result := result || '{"withholding_rate": null}';
    elsif not (private.clean_text(p_values -> 'withholding_rate') = any (private.withholding_rates())) then
      errors := errors || '{"withholding_rate": "invalid"}';
    else
      result := result || jsonb_build_object('withholding_rate', private.clean_text(p_values -> 'withholding_rate'));
    end if;
  end if;

  -- Dates: 'YYYY-MM-DD' or null (an empty string clears).
  foreach field in array array['start_date', 'end_date', 'customer_signed_on', 'company_signed_on'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      elsif private.try_calendar_date(p_values -> field) is null then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.try_calendar_date(p_values -> field));
      end if;
    end if;
  end loop;
  start_on := case when errors ? 'start_date' then null when p_values ? 'start_date' then (result ->> 'start_date')::date
                   else (p_existing ->> 'start_date')::date end;
  end_on := case when errors ? 'end_date' then null when p_values ? 'end_date' then (result ->> 'end_date')::date
                 else (p_existing ->> 'end_date')::date end;
  if not (errors ? 'start_date' or errors ? 'end_date') and end_on < start_on then
    errors := errors || '{"end_date": "end_before_start"}';
  end if;

  if p_values ? 'auto_renew' then
    if jsonb_typeof(p_values -> 'auto_renew') <> 'boolean' then
      errors := errors || '{"auto_renew": "invalid"}';
    end if;
  end if;
  foreach field in array array['renewal_notice_days', 'renewal_term_months'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) <> 'number' then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        whole := (p_values ->> field)::numeric;
        if whole <> trunc(whole) or (field = 'renewal_notice_days' and whole not between 0 and 365)
           or (field = 'renewal_term_months' and whole not between 1 and 120) then
          errors := errors || jsonb_build_object(field, 'invalid');
        else
          result := result || jsonb_build_object(field, whole::integer);
        end if;
      end if;
    end if;
  end loop;

  -- Status: new contracts are draft or active; through the engine only draft -> active.
  new_status := coalesce(case when p_values ? 'status' and not errors ? 'status' then result ->> 'status' end, old_status, 'draft');
  if p_values ? 'status' and not errors ? 'status' then
    if not (new_status = any (enum_range(null::private.contract_status)::text[])) then
      errors := errors || '{"status": "invalid"}';
    elsif new_status = old_status then
      result := result - 'status';
    elsif new_status not in ('draft', 'active') or (old_status is not null and not (old_status = 'draft' and new_status = 'active')) then
      errors := errors || '{"status": "invalid_transition"}';
    else
      result := result || jsonb_build_object('status', new_status);
    end if;
  end if;
  if new_status = 'active' and not (errors ? 'start_date' or errors ? 'end_date') then
    if start_on is null then
      errors := errors || '{"start_date": "required_for_active"}';
    end if;
    if end_on is null then
      errors := errors || '{"end_date": "required_for_active"}';
    end if;
  end if;

  if p_existing is not null
     and ((p_values ? 'end_date' and end_on is distinct from (p_existing ->> 'end_date')::date)
          or (p_values ? 'renewal_notice_days' and result -> 'renewal_notice_days' is distinct from p_existing -> 'renewal_notice_days')) then
    result := result || '{"renewal_notified_at": null}';
  end if;

  -- Linked records: the caller must be able to see them in this organization.
  foreach field in array array['customer_id', 'contact_id', 'quote_id', 'deal_id'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      else
        related := private.try_uuid(p_values -> field);
        if related is null then
          errors := errors || jsonb_build_object(field, 'not_found');
        elsif related::text is distinct from p_existing ->> field
              and not private.record_visible(case field when 'customer_id' then 'customers' when 'contact_id' then 'contacts'
                                                        when 'quote_id' then 'quotes' else 'deals' end, related) then
          errors := errors || jsonb_build_object(field, 'not_found');
        else
          result := result || jsonb_build_object(field, related);
        end if;
      end if;
    end if;
  end loop;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The registry row
-- ---------------------------------------------------------------------------------
select private.register_module(
  p_key => 'contracts', p_position => 5, p_table_name => 'contracts', p_entity_type => 'contract',
  p_fields => jsonb_build_array(
    private.field_declaration('contract_number', 'text', 'Numara', 'Number', '{readonly,listed,sortable,own_ui}'),
    private.field_declaration('title', 'text', 'Başlık', 'Title', '{required,listed,sortable,own_ui}', 300),
    private.field_declaration('customer_id', 'link', 'Müşteri', 'Customer', '{listed,sortable,filterable,own_rule,own_ui}', p_link_module => 'customers'),
    private.field_declaration('contact_id', 'link', 'Kişi', 'Contact', '{filterable,own_rule,own_ui}', p_link_module => 'contacts'),
    private.field_declaration('quote_id', 'link', 'Teklif', 'Quote', '{filterable,own_rule,own_ui}', p_link_module => 'quotes'),
    private.field_declaration('deal_id', 'link', 'Fırsat', 'Deal', '{filterable,own_rule,own_ui}', p_link_module => 'deals'),
    private.field_declaration('contract_type', 'text', 'Tür', 'Type', '{listed,filterable,own_rule,own_ui}'),
    private.field_declaration('start_date', 'date', 'Başlangıç', 'Start', '{listed,sortable,filterable,own_rule,own_ui}'),
    private.field_declaration('end_date', 'date', 'Bitiş', 'End', '{listed,sortable,filterable,own_rule,own_ui}'),
    private.field_declaration('value', 'money', 'Tutar', 'Value', '{listed,sortable,own_rule,own_ui}'),
    private.field_declaration('value_includes_vat', 'boolean', 'Tutar KDV dahil', 'Value includes VAT', '{own_rule,own_ui}'),
    private.field_declaration('vat_amount', 'money', 'KDV tutarı', 'VAT amount', '{own_rule,own_ui}'),
    private.field_declaration('withholding_amount', 'money', 'Tevkif edilen KDV', 'VAT withheld', '{own_rule,own_ui}'),
    private.field_declaration('withholding_rate', 'text', 'Tevkifat oranı', 'Withholding ratio', '{own_rule,own_ui}'),
    private.field_declaration('currency', 'text', 'Para birimi', 'Currency', '{listed,filterable,own_rule,own_ui}'),
    private.field_declaration('status', 'text', 'Durum', 'Status', '{listed,sortable,filterable,own_rule,own_ui}'),
    private.field_declaration('customer_signed_on', 'date', 'Müşterinin imza tarihi', 'Signed by the customer on', '{own_rule,own_ui}'),
    private.field_declaration('company_signed_on', 'date', 'Şirketin imza tarihi', 'Signed by us on', '{own_rule,own_ui}'),
    private.field_declaration('auto_renew', 'boolean', 'Otomatik yenileme', 'Automatic renewal', '{listed,filterable,own_rule,own_ui}'),
    private.field_declaration('renewal_notice_days', 'number', 'Yenileme bildirimi (gün önce)', 'Renewal notice (days before)', '{own_rule,own_ui}'),
    private.field_declaration('renewal_term_months', 'number', 'Yenileme süresi (ay)', 'Renewal term (months)', '{own_rule,own_ui}'),
    private.field_declaration('notes', 'long_text', 'Notlar', 'Notes', '{own_ui}', 10000),
    private.field_declaration('previous_contract_id', 'link', 'Önceki dönem', 'Previous term', '{readonly,listed,own_ui}', p_link_module => 'contracts')),
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_prepare_function => 'prepare_contract', p_transfer_kind => 'contracts', p_transfer_default => false,
  p_document_link => 'contract_id',
  p_record_label_tr => 'Sözleşme', p_record_label_en => 'Contract');

/**
 * Applies a state change to one contract row (already locked by the caller): the changes
 * are written, each changed field goes to the field history (by p_actor; null for the
 * scheduled step) and the change to the audit log as p_action. Returns the new row.
 */
create function private.contract_apply(p_organization_id uuid, p_schema text, p_existing jsonb, p_changes jsonb,
                                       p_actor uuid, p_action text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  columns text[] := array(select k from jsonb_object_keys(p_changes) k order by k);
  changed jsonb;
begin
  execute format('update %1$I.contracts as t set (%2$s) = (select %3$s from jsonb_populate_record(null::%1$I.contracts, $1) r)
                   where t.id = $2 returning to_jsonb(t)',
                 p_schema,
                 (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                 (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
    into changed using p_changes, (p_existing ->> 'id')::uuid;
  execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                  select ''contract'', $1, c, $2 -> c, $3 -> c, $4 from unnest($5::text[]) c where ($2 -> c) is distinct from ($3 -> c)',
                 p_schema)
    using (p_existing ->> 'id')::uuid, p_existing, changed, p_actor, columns;
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  values (p_organization_id, p_actor, p_action, 'contracts', p_existing ->> 'id',
          jsonb_build_object('fields', to_jsonb(columns)));
  return changed;
end;
$$;

/**
 * The next term of an active or expired contract (locked by the caller): a new contract
 * with the same title, parties (customer, contact), deal, type, currency, notes, KDV
 * basis, tevkifat ratio, renewal settings and the organization's custom fields, a new
 * number, owned by the same member, previous_contract_id set. p_terms (checked by the caller) may set start_date (default:
 * the day after the old end), end_date (default: start + renewal_term_months months - 1
 * day), value (default: the old value) and status (default active). The old term becomes
 * renewed when the new one is active (private.contract_mark_renewed: at once for an
 * active term, when a draft is signed otherwise). A stated KDV amount and its withheld
 * part follow a changed value in proportion, to the kuruş. p_actor null: the scheduled
 * step (created_by: the owner). Returns the new contract's id.
 */
create function private.contract_renew_row(p_organization_id uuid, p_schema text, p_existing jsonb, p_actor uuid,
                                           p_terms jsonb default '{}')
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  next_id uuid;
  starts date := coalesce((p_terms ->> 'start_date')::date, (p_existing ->> 'end_date')::date + 1);
  ends date := coalesce((p_terms ->> 'end_date')::date,
                        (starts + make_interval(months => (p_existing ->> 'renewal_term_months')::integer) - interval '1 day')::date);
  old_value numeric := (p_existing ->> 'value')::numeric;
  new_value numeric := coalesce((p_terms ->> 'value')::numeric, old_value);
  old_vat numeric := (p_existing ->> 'vat_amount')::numeric;
  new_vat numeric := case when new_value = old_value then old_vat when old_value > 0 then round(old_vat * new_value / old_value, 2) end;
  old_withholding numeric := (p_existing ->> 'withholding_amount')::numeric;
  new_withholding numeric := case when new_value = old_value then old_withholding
                                  when old_value > 0 then round(old_withholding * new_value / old_value, 2) end;
begin
  execute format($insert$
    insert into %1$I.contracts (title, customer_id, contact_id, deal_id, contract_type, start_date, end_date, value,
                              value_includes_vat, vat_amount, withholding_amount, withholding_rate, currency, status,
                              auto_renew, renewal_notice_days, renewal_term_months, notes, previous_contract_id, owner_id,
                              created_by%3$s)
    select o.title, o.customer_id, o.contact_id, o.deal_id, o.contract_type, $2, $3, $4, o.value_includes_vat, $5, $8,
           o.withholding_rate, o.currency, $6::private.contract_status, o.auto_renew, o.renewal_notice_days,
           o.renewal_term_months, o.notes, o.id, o.owner_id, coalesce($7, o.owner_id)%4$s
      from %2$I.contracts o where o.id = $1
    returning id$insert$, p_schema, p_schema, private.custom_columns_sql(p_organization_id, 'contracts'),
    private.custom_columns_sql(p_organization_id, 'contracts', 'o'))
    into next_id using (p_existing ->> 'id')::uuid, starts, ends, new_value, new_vat,
                       coalesce(p_terms ->> 'status', 'active'), p_actor, new_withholding;
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  values (p_organization_id, p_actor, 'contracts.create', 'contracts', next_id::text,
          jsonb_build_object('renews', p_existing ->> 'id') || coalesce(p_terms - 'start_date' - 'end_date' - 'value' - 'status', '{}'));
  return next_id;
end;
$$;

/**
 * Trigger (after insert or update of status on contracts, for a next term that is
 * active): the term it renews, while active or expired, becomes renewed (field history
 * and audit as contracts.renew, by the caller; by none for the scheduled step). So a
 * renewal made as a draft marks its old term only once it is signed (draft -> active);
 * a draft renewal terminated or deleted leaves the old term as it was.
 */
create function private.contract_mark_renewed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization_id uuid;
  previous jsonb;
begin
  if new.deleted_at is not null or (tg_op = 'UPDATE' and old.status = 'active') then
    return null;
  end if;
  organization_id := private.schema_organization(tg_table_schema);
  execute format('select to_jsonb(t) from %I.contracts t where t.id = $1 and t.status in (''active'', ''expired'') for update',
                 tg_table_schema)
    into previous using new.previous_contract_id;
  if previous is not null and organization_id is not null then
    perform private.contract_apply(organization_id, tg_table_schema, previous, '{"status": "renewed"}', auth.uid(), 'contracts.renew');
  end if;
  return null;
end;
$$;

/** Whether a contract has a next term that is not deleted nor terminated (a renewal signed or still a draft). */
create function private.contract_has_next_term(p_schema text, p_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found boolean;
begin
  execute format('select exists (select 1 from %I.contracts n where n.previous_contract_id = $1 and n.deleted_at is null
                                                              and n.status <> ''terminated'')', p_schema)
    into found using p_id;
  return found;
end;
$$;

/**
 * Locks a contract the caller may edit and checks the read it was based on: {"row"} or,
 * in "problem", not_found or stale_record (with the current record).
 */
create function private.contract_lock(p_context private.module_context, p_id uuid, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing jsonb;
begin
  execute format('select to_jsonb(t) from %I.contracts t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 p_context.schema_name)
    into existing using p_id, p_context.scope, p_context.caller;
  if existing is null then
    return jsonb_build_object('problem', private.failure('Record not found', 'not_found'));
  end if;
  if p_updated_at is null or (existing ->> 'updated_at')::timestamptz <> p_updated_at then
    return jsonb_build_object('problem', private.failure('The record was changed by someone else', 'stale_record',
                                                         jsonb_build_object('record', private.record_answer('contracts', existing))));
  end if;
  return jsonb_build_object('row', existing);
end;
$$;

/**
 * Renews an active or expired contract the caller may edit (and who may create
 * contracts), read at p_updated_at, into its next term (private.contract_renew_row):
 * p_start_date (default the day after its end; after its end, else overlaps_previous),
 * p_end_date (default start + renewal_term_months months - 1 day; not before the start,
 * end_before_start), p_value (default its value; 0 or more, to the kuruş) raised by
 * p_increase_percent (0-1000, at most 4 decimals; e.g. TÜFE) to round(value × (100 +
 * percent) / 100, 2). The new term is active when the contract renews automatically,
 * else a draft until it is signed (the old term reads renewed once the new one is active:
 * private.contract_mark_renewed). Refused with nothing changed: a draft or terminated
 * contract (not_renewable), one already renewed or with a next term not terminated
 * (already_renewed), bad terms (invalid_fields with the fields). {success, id,
 * contract_number, status, value}.
 */
create function private.contract_renew(p_id uuid, p_updated_at timestamptz, p_start_date date default null,
                                       p_end_date date default null, p_value numeric default null,
                                       p_increase_percent numeric default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'edit');
  locked jsonb;
  old jsonb;
  next_id uuid;
  next_number text;
  starts date;
  ends date;
  base numeric;
  new_value numeric;
  errors jsonb := '{}';
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if private.caller_scope('contracts', 'create') is null then
    return private.refusal('permission_denied');
  end if;
  locked := private.contract_lock(context, p_id, p_updated_at);
  if locked ? 'problem' then
    return locked -> 'problem';
  end if;
  old := locked -> 'row';
  if old ->> 'status' = 'renewed' or private.contract_has_next_term(context.schema_name, p_id) then
    return private.failure('The contract was already renewed', 'already_renewed');
  end if;
  if old ->> 'status' not in ('active', 'expired') or old ->> 'end_date' is null then
    return private.failure('Only an active or expired contract can be renewed', 'not_renewable');
  end if;

  starts := coalesce(p_start_date, (old ->> 'end_date')::date + 1);
  ends := coalesce(p_end_date, (starts + make_interval(months => (old ->> 'renewal_term_months')::integer) - interval '1 day')::date);
  if starts <= (old ->> 'end_date')::date then
    errors := errors || '{"start_date": "overlaps_previous"}';
  end if;
  if ends < starts then
    errors := errors || '{"end_date": "end_before_start"}';
  end if;
  base := coalesce(p_value, (old ->> 'value')::numeric);
  if base < 0 or base <> round(base, 2) or base >= 1e16 then
    errors := errors || '{"value": "invalid"}';
  end if;
  if p_increase_percent is not null
     and (p_increase_percent < 0 or p_increase_percent > 1000 or p_increase_percent <> round(p_increase_percent, 4)) then
    errors := errors || '{"increase_percent": "invalid"}';
  end if;
  if errors = '{}' then
    new_value := round(base * (100 + coalesce(p_increase_percent, 0)) / 100, 2);
    if new_value >= 1e16 then
      errors := errors || '{"value": "invalid"}';
    end if;
  end if;
  if errors <> '{}' then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', errors));
  end if;

  next_id := private.contract_renew_row(context.organization_id, context.schema_name, old, context.caller,
    jsonb_strip_nulls(jsonb_build_object('start_date', starts, 'end_date', ends, 'value', new_value,
                                         'status', case when (old ->> 'auto_renew')::boolean then 'active' else 'draft' end,
                                         'increase_percent', p_increase_percent)));
  execute format('select contract_number from %I.contracts where id = $1', context.schema_name) into next_number using next_id;
  return jsonb_build_object('success', true, 'id', next_id, 'contract_number', next_number,
                            'status', case when (old ->> 'auto_renew')::boolean then 'active' else 'draft' end,
                            'value', new_value::text);
end;
$$;

/**
 * Terminates a draft or active contract the caller may edit, read at p_updated_at, with a
 * reason (1-1,000 characters; reason_required): status terminated, terminated_at now.
 * Refused for one already expired, terminated or renewed (not_terminable). {success, record}.
 */
create function private.contract_terminate(p_id uuid, p_updated_at timestamptz, p_reason text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'edit');
  locked jsonb;
  reason text := nullif(btrim(coalesce(p_reason, '')), '');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  locked := private.contract_lock(context, p_id, p_updated_at);
  if locked ? 'problem' then
    return locked -> 'problem';
  end if;
  if locked #>> '{row,status}' not in ('draft', 'active') then
    return private.failure('Only a draft or active contract can be terminated', 'not_terminable');
  end if;
  if reason is null or char_length(reason) > 1000 then
    return private.failure('Invalid fields', 'invalid_fields',
      jsonb_build_object('fields', jsonb_build_object('termination_reason', case when reason is null then 'required' else 'too_long' end)));
  end if;
  return jsonb_build_object('success', true, 'record', private.record_answer('contracts', private.contract_apply(
    context.organization_id, context.schema_name, locked -> 'row',
    jsonb_build_object('status', 'terminated', 'terminated_at', now(), 'termination_reason', reason),
    context.caller, 'contracts.terminate')));
end;
$$;

/**
 * The scheduled step in one organization (hourly, in each organization:
 * private.scheduled_jobs), by the organization's own calendar day: active
 * contracts whose notice date (end_date - renewal_notice_days) has come tell their owner
 * once (contract_renewal; the bookkeeping column is set in the same statement, so
 * concurrent runs cannot repeat one); active contracts whose end date has passed renew
 * themselves when auto_renew is set (the next term, as renew_contract makes it, again
 * while that term has passed too) and expire otherwise (also when a renewal made by hand
 * waits as a draft). Returns the counts of each; none for an organization without its tables.
 */
create function private.contract_due_steps(p_organization_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  schema_name text := private.tenant_schema(p_organization_id);
  today date := private.organization_today(p_organization_id);
  notified integer := 0;
  due jsonb;
  expired integer := 0;
  renewed integer := 0;
begin
  if schema_name is null or to_regclass(format('%I.contracts', schema_name)) is null then
    return jsonb_build_object('contract_renewal', 0, 'expired', 0, 'renewed', 0);
  end if;
  -- The mark only: the contracts' updated_at stays (private.touch_updated_at), so a save begun before stays valid.
  perform pg_catalog.set_config('crm.bookkeeping_update', 'on', true);
  execute format($query$
    with announced as (
      update %I.contracts t set renewal_notified_at = now()
       where t.status = 'active' and t.deleted_at is null and t.renewal_notified_at is null
         and t.end_date - t.renewal_notice_days <= $2 and t.end_date >= $2
      returning t.id, t.owner_id, t.title, t.contract_number)
    select count(private.notify($1, a.owner_id, 'contract_renewal', 'contracts', a.id,
                                concat_ws(' ', a.contract_number, a.title), null)) from announced a$query$,
    schema_name)
    into notified using p_organization_id, today;
  perform pg_catalog.set_config('crm.bookkeeping_update', 'off', true);

  -- Past their end: renew (auto_renew) or expire; a renewed term past its end too goes round again.
  loop
    execute format('select to_jsonb(t) from %I.contracts t
                     where t.status = ''active'' and t.deleted_at is null and t.end_date < $1
                     order by t.end_date, t.id limit 1 for update skip locked', schema_name)
      into due using today;
    exit when due is null;
    if (due ->> 'auto_renew')::boolean and not private.contract_has_next_term(schema_name, (due ->> 'id')::uuid) then
      perform private.contract_renew_row(p_organization_id, schema_name, due, null);
      renewed := renewed + 1;
    else
      perform private.contract_apply(p_organization_id, schema_name, due, '{"status": "expired"}', null,
                                     'contracts.expire');
      expired := expired + 1;
    end if;
  end loop;
  return jsonb_build_object('contract_renewal', notified, 'expired', expired, 'renewed', renewed);
end;
$$;

-- Hourly, at minute 7 (private.scheduled_jobs).
insert into private.scheduled_jobs (name, schedule, function_name, in_each_organization)
values ('crm-contract-due-steps', '7 * * * *', 'contract_due_steps', true);

/**
 * A contract the caller may see with what its page shows: the record (owner_name, locked:
 * terminated or renewed; value, vat_amount and withholding_amount as decimal strings, exact
 * whatever their size; total_with_vat: the value with its KDV, value + vat_amount for a
 * value without KDV whose KDV is stated, the value itself when it includes KDV, else null;
 * payable_total: total_with_vat less the withheld KDV (tevkifat), what the customer pays,
 * a quote's grand total for a contract from it), its customer {id, name}, contact {id, name, email, phone}, quote
 * {id, quote_number} and deal {id, title} when the caller may see them (else null), and
 * the renewal chain: previous {id, contract_number, status, start_date, end_date} (the
 * term it renews) and next (the term that renews it: the one not terminated, else the
 * latest), when the caller may see them.
 */
create function private.contract_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get('contracts', p_id);
  context private.module_context;
  contract jsonb;
  customer jsonb;
  contact jsonb;
  quote jsonb;
  deal jsonb;
  previous jsonb;
  next_term jsonb;
  total_with_vat numeric;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context('contracts', 'view');
  contract := found_record -> 'record';
  if private.record_visible('customers', (contract ->> 'customer_id')::uuid) then
    execute format('select jsonb_build_object(''id'', c.id, ''name'', c.name, ''tax_number'', c.tax_number, ''tax_office'', c.tax_office,
                                              ''address'', c.address, ''city'', c.city, ''district'', c.district)
                      from %I.customers c where c.id = $1', context.schema_name)
      into customer using (contract ->> 'customer_id')::uuid;
  end if;
  if private.record_visible('contacts', (contract ->> 'contact_id')::uuid) then
    execute format('select jsonb_build_object(''id'', c.id, ''name'', btrim(concat_ws('' '', c.first_name, c.last_name)),
                                              ''email'', c.emails #>> ''{0,value}'', ''phone'', c.phones #>> ''{0,value}'')
                      from %I.contacts c where c.id = $1', context.schema_name)
      into contact using (contract ->> 'contact_id')::uuid;
  end if;
  if private.record_visible('quotes', (contract ->> 'quote_id')::uuid) then
    execute format('select jsonb_build_object(''id'', q.id, ''quote_number'', q.quote_number) from %I.quotes q where q.id = $1',
                   context.schema_name)
      into quote using (contract ->> 'quote_id')::uuid;
  end if;
  if private.record_visible('deals', (contract ->> 'deal_id')::uuid) then
    execute format('select jsonb_build_object(''id'', d.id, ''title'', d.title) from %I.deals d where d.id = $1', context.schema_name)
      into deal using (contract ->> 'deal_id')::uuid;
  end if;
  execute format($query$
    select (select jsonb_build_object('id', t.id, 'contract_number', t.contract_number, 'status', t.status,
                                      'start_date', t.start_date, 'end_date', t.end_date)
              from %1$I.contracts t
             where t.id = $1 and t.deleted_at is null and ($3 = 'all' or t.owner_id = $4)),
           (select jsonb_build_object('id', t.id, 'contract_number', t.contract_number, 'status', t.status,
                                      'start_date', t.start_date, 'end_date', t.end_date)
              from %1$I.contracts t
             where t.previous_contract_id = $2 and t.deleted_at is null and ($3 = 'all' or t.owner_id = $4)
             order by t.status = 'terminated', t.created_at desc, t.id limit 1)$query$,
    context.schema_name)
    into previous, next_term using (contract ->> 'previous_contract_id')::uuid, p_id, context.scope, context.caller;
  total_with_vat := case when (contract ->> 'value_includes_vat')::boolean then (contract ->> 'value')::numeric
                         else (contract ->> 'value')::numeric + (contract ->> 'vat_amount')::numeric end;
  return jsonb_build_object('success', true,
    'contract', contract || jsonb_build_object('locked', contract ->> 'status' in ('terminated', 'renewed'),
                                               'value', contract ->> 'value', 'vat_amount', contract ->> 'vat_amount',
                                               'withholding_amount', contract ->> 'withholding_amount',
                                               'total_with_vat', total_with_vat::text,
                                               'payable_total', (total_with_vat - coalesce((contract ->> 'withholding_amount')::numeric, 0))::text),
    'customer', customer, 'contact', contact, 'quote', quote, 'deal', deal, 'previous', previous, 'next', next_term);
end;
$$;

/**
 * Active contracts the caller may see whose end date falls within p_days (1-365) of
 * today in the organization's time zone (or has passed while the scheduled step has not
 * yet run), soonest first, at most 200: {success, today, contracts: [{id,
 * contract_number, title, customer_id, customer_name, contract_type, status, start_date,
 * end_date, value (a decimal string), currency, auto_renew, renewal_notice_days, notice_date, days_left,
 * owner_id, owner_name, updated_at}]}.
 */
create function private.contracts_ending(p_days integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'view');
  today date;
  contracts jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if coalesce(p_days, 60) not between 1 and 365 then
    return private.failure('Invalid list request', 'invalid_input');
  end if;
  today := private.organization_today(context.organization_id);
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', t.id, 'contract_number', t.contract_number, 'title', t.title, 'customer_id', t.customer_id,
             'customer_name', case when cu.deleted_at is null and ($5 = 'all' or ($5 = 'own' and cu.owner_id = $2)) then cu.name end,
             'contract_type', t.contract_type, 'status', t.status, 'start_date', t.start_date, 'end_date', t.end_date,
             'value', t.value::text, 'currency', t.currency, 'auto_renew', t.auto_renew,
             'renewal_notice_days', t.renewal_notice_days, 'notice_date', t.end_date - t.renewal_notice_days,
             'days_left', t.end_date - $3, 'owner_id', t.owner_id,
             'owner_name', nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''), 'updated_at', t.updated_at)
             order by t.end_date, t.id), '[]')
      from (select * from %1$I.contracts c
             where c.status = 'active' and c.deleted_at is null and c.end_date <= $4 and ($1 = 'all' or c.owner_id = $2)
             order by c.end_date, c.id limit 200) t
      left join %1$I.customers cu on cu.id = t.customer_id
      left join private.profiles p on p.id = t.owner_id$query$, context.schema_name)
    into contracts
    using context.scope, context.caller, today, today + coalesce(p_days, 60), private.caller_scope('customers', 'view');
  return jsonb_build_object('success', true, 'today', today, 'contracts', contracts);
end;
$$;

/**
 * A draft contract from a sent (not yet past valid_until) or accepted quote the caller
 * may see (quote_not_ready otherwise), created through the engine (contracts create permission, the contract's
 * rules, audit): the quote's customer, contact, deal and link, value = its net total (KDV
 * hariç, after discounts) with vat_amount = its KDV total stated separately
 * (value_includes_vat false) and withholding_amount = its withheld KDV (tevkifat; null
 * when none) with withholding_rate its lines' ratio when they share one, so the contract's
 * payable total is the quote's grand total; its currency, titled after the quote's number.
 * {success, id, record}.
 */
create function private.contract_from_quote(p_quote_id uuid, p_values jsonb default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'create');
  quote jsonb;
  withholding_rate text;
  created jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  -- Only the contract's custom fields come from the caller (its required ones, which a quote cannot fill).
  if p_values is not null and (jsonb_typeof(p_values) <> 'object'
                               or exists (select 1 from jsonb_object_keys(p_values) k where k not like 'cf\_%')) then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if not private.record_visible('quotes', p_quote_id) then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('select to_jsonb(q) from %I.quotes q where q.id = $1', context.schema_name) into quote using p_quote_id;
  -- As people read it (private.quote_status): a sent quote past valid_until is expired.
  if private.quote_status(quote ->> 'status', (quote ->> 'valid_until')::date, private.organization_today(context.organization_id))
     not in ('sent', 'accepted') then
    return private.failure('Only a sent or accepted quote becomes a contract', 'quote_not_ready');
  end if;
  execute format('select min(i.withholding_rate) from %I.quote_items i
                   where i.quote_id = $1 and i.deleted_at is null and i.withholding_rate is not null
                  having count(distinct i.withholding_rate) = 1', context.schema_name)
    into withholding_rate using p_quote_id;
  created := private.record_create('contracts', jsonb_build_object(
    'title', format('%s sözleşmesi', coalesce(quote ->> 'quote_number', 'Teklif')),
    'customer_id', quote -> 'customer_id', 'contact_id', quote -> 'contact_id', 'deal_id', quote -> 'deal_id',
    'quote_id', quote -> 'id', 'value', quote ->> 'net_total', 'value_includes_vat', false,
    'vat_amount', quote ->> 'vat_total', 'withholding_amount', nullif((quote ->> 'withholding_total')::numeric, 0)::text,
    'withholding_rate', case when (quote ->> 'withholding_total')::numeric > 0 then withholding_rate end,
    'currency', quote -> 'currency', 'status', 'draft') || coalesce(p_values, '{}'));
  if not (created ->> 'success')::boolean then
    return created;
  end if;
  return jsonb_build_object('success', true, 'id', created #>> '{record,id}', 'record', created -> 'record');
end;
$$;

/** A contract with its customer, contact, quote, deal and renewal chain (previous and next term). */
create function public.get_contract_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.contract_details(p_id); $$;
revoke all on function public.get_contract_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_contract_details(p_id uuid) to authenticated;

/**
 * Renews an active or expired contract read at p_updated_at into its next term (start, end,
 * value raised by an optional percentage; a draft until signed unless it renews
 * automatically); the old one becomes renewed, linked to it, once the new one is active.
 */
create function public.renew_contract(p_id uuid, p_updated_at timestamptz, p_start_date date default null,
                                      p_end_date date default null, p_value numeric default null,
                                      p_increase_percent numeric default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.contract_renew(p_id, p_updated_at, p_start_date, p_end_date, p_value, p_increase_percent); $$;
revoke all on function public.renew_contract(p_id uuid, p_updated_at timestamp with time zone, p_start_date date, p_end_date date,
  p_value numeric, p_increase_percent numeric) from public, anon, authenticated;
grant execute on function public.renew_contract(p_id uuid, p_updated_at timestamp with time zone, p_start_date date, p_end_date date,
  p_value numeric, p_increase_percent numeric) to authenticated;

/** Terminates a draft or active contract read at p_updated_at, with a reason. */
create function public.terminate_contract(p_id uuid, p_updated_at timestamptz, p_reason text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.contract_terminate(p_id, p_updated_at, p_reason); $$;
revoke all on function public.terminate_contract(p_id uuid, p_updated_at timestamp with time zone, p_reason text) from public, anon, authenticated;
grant execute on function public.terminate_contract(p_id uuid, p_updated_at timestamp with time zone, p_reason text) to authenticated;

/** Active contracts ending within p_days days (1-365), soonest first. */
create function public.list_contracts_ending(p_days integer default 60)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.contracts_ending(p_days); $$;
revoke all on function public.list_contracts_ending(p_days integer) from public, anon, authenticated;
grant execute on function public.list_contracts_ending(p_days integer) to authenticated;

/**
 * A draft contract from a sent or accepted quote (customer, contact, deal, value = net total
 * with its KDV and tevkifat stated apart, currency), with the values of the contract's custom
 * fields in p_values (cf_… keys only: a required one the quote cannot fill is asked for and
 * refused as required when missing, as on any create).
 */
create function public.create_contract_from_quote(p_quote_id uuid, p_values jsonb default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.contract_from_quote(p_quote_id, p_values); $$;
revoke all on function public.create_contract_from_quote(p_quote_id uuid, p_values jsonb) from public, anon, authenticated;
grant execute on function public.create_contract_from_quote(p_quote_id uuid, p_values jsonb) to authenticated;
