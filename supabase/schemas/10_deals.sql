-- Deals: stages from the organization's pipeline, stage history, the board with totals
-- kept per owner, the forecast, a deal's contacts and details.

/** The stage a new deal starts at: the pipeline's first open stage (else its first stage). */
create function private.first_deal_stage(p_stages jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce((select stage from jsonb_array_elements(p_stages) with ordinality s (stage, position)
                    where stage ->> 'outcome' = 'open' order by position limit 1),
                  p_stages -> 0);
$$;

/** One stage of a pipeline by its key ({key, name, probability, outcome}), or null. */
create function private.deal_stage(p_stages jsonb, p_key text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select stage from jsonb_array_elements(p_stages) stage where stage ->> 'key' = p_key limit 1;
$$;

/**
 * What a deal written without a stage or currency gets in a tenant schema: the first
 * open stage of the owning organization's pipeline, its probability, the organization's
 * currency. (A schema no organization owns, like the drift check's reference, gets the
 * default pipeline's lead stage in TRY.)
 */
create function private.tenant_deal_defaults(p_schema text)
returns table (stage text, probability integer, currency text)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select coalesce(private.first_deal_stage(s.deal_stages) ->> 'key', 'lead'),
           coalesce((private.first_deal_stage(s.deal_stages) ->> 'probability')::numeric::integer, 10),
           coalesce(s.default_currency, 'TRY')
      from (select 1) one
      left join private.organizations o on o.schema_name = p_schema
      left join private.organization_settings s on s.organization_id = o.id;
end;
$$;

/** Trigger (before insert on deals): a deal written without stage or currency gets the organization's defaults. */
create function private.deal_fill_defaults()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  defaults record;
begin
  if new.stage is null or new.currency is null then
    select * into defaults from private.tenant_deal_defaults(tg_table_schema);
    if new.stage is null then
      new.stage := defaults.stage;
      new.probability := coalesce(new.probability, defaults.probability);
    end if;
    new.currency := coalesce(new.currency, defaults.currency);
  end if;
  return new;
end;
$$;

/**
 * Trigger (after insert, update and delete on deals, per statement, with the transition
 * tables new_deals and old_deals): one stage history entry per new deal (at its creation,
 * by its creator unless a signed-in user wrote it) and per deal whose stage changed (now,
 * by the signed-in user); the board's totals per owner, stage and currency follow every
 * change of a live deal's owner, stage, currency, amount or deletion.
 */
create function private.deal_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changes text := case tg_op
    when 'INSERT' then 'select owner_id, stage, currency, 1 as n, amount from new_deals where deleted_at is null'
    when 'UPDATE' then 'select owner_id, stage, currency, 1 as n, amount from new_deals where deleted_at is null
                        union all select owner_id, stage, currency, -1, -amount from old_deals where deleted_at is null'
    else 'select owner_id, stage, currency, -1 as n, -amount as amount from old_deals where deleted_at is null' end;
begin
  if tg_op = 'INSERT' then
    execute format('insert into %I.deal_stage_history (deal_id, from_stage, to_stage, changed_by, changed_at)
                    select n.id, null, n.stage, coalesce(auth.uid(), n.created_by), n.created_at from new_deals n',
                   tg_table_schema);
  elsif tg_op = 'UPDATE' then
    execute format('insert into %I.deal_stage_history (deal_id, from_stage, to_stage, changed_by, changed_at)
                    select n.id, o.stage, n.stage, auth.uid(), now()
                      from new_deals n join old_deals o on o.id = n.id
                     where o.stage is distinct from n.stage',
                   tg_table_schema);
  end if;
  -- In key order, so that concurrent writers lock the totals rows in the same order.
  execute format('insert into %I.deal_stage_totals as s (owner_id, stage, currency, deal_count, amount)
                  select d.owner_id, d.stage, d.currency, sum(d.n), sum(d.amount) from (%s) d
                   group by d.owner_id, d.stage, d.currency
                  having sum(d.n) <> 0 or sum(d.amount) <> 0
                   order by d.owner_id, d.stage, d.currency
                  on conflict (owner_id, stage, currency) do update
                    set deal_count = s.deal_count + excluded.deal_count, amount = s.amount + excluded.amount',
                 tg_table_schema, changes);
  return null;
end;
$$;

/** Trigger (after truncate on deals): the board's totals empty too. */
create function private.deal_after_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  execute format('delete from %I.deal_stage_totals', tg_table_schema);
  return null;
end;
$$;

/**
 * Trigger (before update on deal_contacts): when a link is moved onto a deal and contact
 * already linked (merging two contacts on one deal, or two deals with one contact), the
 * link already there goes, so the moved one takes its place instead of a unique violation.
 */
create function private.deal_contacts_merge_link()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (new.deal_id, new.contact_id) is distinct from (old.deal_id, old.contact_id) then
    execute format('delete from %I.deal_contacts where deal_id = $1 and contact_id = $2', tg_table_schema)
      using new.deal_id, new.contact_id;
  end if;
  return new;
end;
$$;

/**
 * A deal's own rules (the title, at most 200 characters, is its declared type's): the stage a key of the organization's
 * pipeline (invalid_stage; a new deal starts at the first open stage); the probability
 * 0-100, the stage's own when the stage is set or changed and none is given; the currency
 * three letters, the organization's by default; an amount of at least 0; an existing,
 * not deleted customer of the organization (source, description and tags are their types'
 * rules, declared below). Moving to a won or lost stage sets
 * closed_at; a lost stage needs a lost_reason; moving back to an open stage clears both.
 * Returns {"values", "errors"} like private.prepare_customer.
 */
create function private.prepare_deal(p_values jsonb, p_existing jsonb)
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
  target_org uuid := private.current_organization_id();
  settings private.organization_settings;
  tenant text;
  old_stage jsonb;
  new_stage jsonb;
  stage_changed boolean;
  outcome text;
  number_value numeric;
  close_date date;
  customer uuid;
  customer_found boolean;
begin
  select * into settings from private.organization_settings s where s.organization_id = target_org;
  settings.deal_stages := coalesce(settings.deal_stages, '[]');

  -- Free-text fields: strings only, trimmed, empty as null.
  foreach field in array array['currency', 'stage', 'lost_reason'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

  if char_length(result ->> 'lost_reason') > 500 and p_values ? 'lost_reason' then
    errors := errors || '{"lost_reason": "too_long"}';
  end if;

  -- Amount: a number from 0 (null: 0), kept to the cent.
  if p_values ? 'amount' then
    if jsonb_typeof(p_values -> 'amount') = 'null' then
      result := result || '{"amount": 0}';
    elsif jsonb_typeof(p_values -> 'amount') <> 'number'
          or (p_values ->> 'amount')::numeric not between 0 and 99999999999999.99 then
      errors := errors || '{"amount": "invalid"}';
    else
      result := result || jsonb_build_object('amount', round((p_values ->> 'amount')::numeric, 2));
    end if;
  end if;

  -- Currency: three letters, the organization's when a new deal names none.
  if p_values ? 'currency' and not errors ? 'currency' then
    if result ->> 'currency' is null then
      if p_existing is null then
        result := result || jsonb_build_object('currency', settings.default_currency);
      else
        errors := errors || '{"currency": "required"}';
      end if;
    elsif upper(result ->> 'currency') !~ '^[A-Z]{3}$' then
      errors := errors || '{"currency": "invalid"}';
    else
      result := result || jsonb_build_object('currency', upper(result ->> 'currency'));
    end if;
  elsif p_existing is null then
    result := result || jsonb_build_object('currency', coalesce(settings.default_currency, 'TRY'));
  end if;

  if p_values ? 'probability' and jsonb_typeof(p_values -> 'probability') <> 'null' then
    if jsonb_typeof(p_values -> 'probability') <> 'number' then
      errors := errors || '{"probability": "invalid"}';
    else
      number_value := (p_values ->> 'probability')::numeric;
      if number_value not between 0 and 100 or number_value <> trunc(number_value) then
        errors := errors || '{"probability": "invalid"}';
      else
        result := result || jsonb_build_object('probability', number_value::integer);
      end if;
    end if;
  end if;

  if p_values ? 'expected_close_date' and jsonb_typeof(p_values -> 'expected_close_date') <> 'null' then
    begin
      if jsonb_typeof(p_values -> 'expected_close_date') <> 'string'
         or (p_values ->> 'expected_close_date') !~ '^\d{4}-\d{2}-\d{2}$' then
        raise invalid_datetime_format;
      end if;
      close_date := (p_values ->> 'expected_close_date')::date;
      if extract(year from close_date) not between 2000 and 2999 then
        raise invalid_datetime_format;
      end if;
      result := result || jsonb_build_object('expected_close_date', close_date);
    exception when invalid_datetime_format or datetime_field_overflow then
      errors := errors || '{"expected_close_date": "invalid"}';
    end;
  end if;

  -- The customer: one of the organization's, not deleted.
  if p_values ? 'customer_id' and jsonb_typeof(p_values -> 'customer_id') <> 'null' then
    begin
      customer := (p_values ->> 'customer_id')::uuid;
      tenant := private.tenant_schema(target_org);
      execute format('select exists (select 1 from %I.customers c where c.id = $1 and c.deleted_at is null)', tenant)
        into customer_found using customer;
      if not coalesce(customer_found, false) then
        errors := errors || '{"customer_id": "not_found"}';
      end if;
    exception when invalid_text_representation then
      errors := errors || '{"customer_id": "invalid"}';
    end;
  end if;

  -- The stage and what moving there means.
  old_stage := private.deal_stage(settings.deal_stages, p_existing ->> 'stage');
  if p_values ? 'stage' and not errors ? 'stage' then
    if result ->> 'stage' is null and p_existing is null then
      new_stage := private.first_deal_stage(settings.deal_stages);
    else
      new_stage := private.deal_stage(settings.deal_stages, result ->> 'stage');
      if new_stage is null then
        errors := errors || '{"stage": "invalid_stage"}';
      end if;
    end if;
  elsif p_existing is null then
    new_stage := private.first_deal_stage(settings.deal_stages);
    if new_stage is null then
      errors := errors || '{"stage": "invalid_stage"}';
    end if;
  end if;
  stage_changed := new_stage is not null and (p_existing is null or new_stage ->> 'key' is distinct from p_existing ->> 'stage');

  if new_stage is not null then
    result := result || jsonb_build_object('stage', new_stage ->> 'key');
  end if;
  if stage_changed then
    outcome := new_stage ->> 'outcome';
    if not (p_values ? 'probability') or jsonb_typeof(p_values -> 'probability') = 'null' then
      result := result || jsonb_build_object('probability', (new_stage ->> 'probability')::numeric::integer);
    end if;
    if outcome = 'open' then
      result := result || '{"closed_at": null, "lost_reason": null}';
    else
      -- Closed now, unless it only moves between two stages of the same outcome.
      result := result || jsonb_build_object('closed_at',
        case when old_stage ->> 'outcome' = outcome and p_existing ->> 'closed_at' is not null
             then p_existing -> 'closed_at' else to_jsonb(now()) end);
    end if;
  elsif p_existing is not null then
    outcome := old_stage ->> 'outcome';
    if p_values ? 'probability' and jsonb_typeof(p_values -> 'probability') = 'null' then
      result := result || jsonb_build_object('probability', (old_stage ->> 'probability')::numeric::integer);
    end if;
  end if;
  -- A lost reason belongs to a lost deal only, and a lost deal has one.
  if outcome is distinct from 'lost' then
    if p_values ? 'lost_reason' or stage_changed then
      result := result || '{"lost_reason": null}';
    end if;
  elsif not errors ? 'lost_reason'
        and (case when p_values ? 'lost_reason' then result ->> 'lost_reason' else p_existing ->> 'lost_reason' end) is null then
    errors := errors || '{"lost_reason": "required"}';
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The registry row
-- ---------------------------------------------------------------------------------
select private.register_module(
  p_key => 'deals', p_position => 3, p_table_name => 'deals', p_entity_type => 'deal',
  p_fields => jsonb_build_array(
    private.field_declaration('title', 'text', 'Başlık', 'Title', '{required,listed,sortable,own_ui}', 200,
                              p_import_names => '{Fırsat,"Fırsat Adı",Konu,Deal,"Deal name",Opportunity}'),
    private.field_declaration('customer_id', 'link', 'Müşteri', 'Customer', '{listed,sortable,filterable,own_ui}',
                              p_link_module => 'customers'),
    private.field_declaration('amount', 'money', 'Tutar', 'Amount', '{listed,sortable,own_rule,own_ui}',
                              p_import_names => '{Değer,"Fırsat Tutarı",Value,"Deal value"}'),
    private.field_declaration('currency', 'text', 'Para birimi', 'Currency', '{listed,filterable,own_rule,own_ui}',
                              p_import_names => '{Döviz,"Döviz Cinsi"}'),
    private.field_declaration('stage', 'text', 'Aşama', 'Stage', '{listed,sortable,filterable,own_rule,own_ui}',
                              p_import_names => '{Evre,"Satış Aşaması","Pipeline stage"}'),
    private.field_declaration('probability', 'percent', 'Olasılık (%)', 'Probability (%)', '{listed,own_rule,own_ui}',
                              p_import_names => '{Olasılık,İhtimal,Probability}'),
    private.field_declaration('expected_close_date', 'date', 'Beklenen kapanış', 'Expected close',
                              '{listed,sortable,filterable,own_rule,own_ui}',
                              p_import_names => '{"Beklenen Kapanış Tarihi","Tahmini Kapanış","Kapanış Tarihi","Expected close date","Close date"}'),
    private.field_declaration('source', 'text', 'Kaynak', 'Source', '{listed,filterable,own_ui}', 100, p_import_names => '{"Lead source"}'),
    private.field_declaration('description', 'long_text', 'Açıklama', 'Description', '{own_ui}', 10000),
    private.field_declaration('tags', 'tags', 'Etiketler', 'Tags', '{listed,filterable,own_ui}'),
    private.field_declaration('lost_reason', 'text', 'Kaybetme nedeni', 'Lost reason', '{own_rule,own_ui}', 500,
                              p_import_names => '{"Kayıp Nedeni"}'),
    private.field_declaration('closed_at', 'datetime', 'Kapanış tarihi', 'Closed on', '{readonly,listed,own_ui}'),
    private.field_declaration('external_id', 'text', 'Harici kod', 'External code', '{own_rule,own_ui}',
                              p_import_names => '{"Fırsat Kodu","Deal code"}')),
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_prepare_function => 'prepare_deal', p_transfer_kind => 'deals', p_transfer_default => true,
  p_document_link => 'deal_id',
  p_record_label_tr => 'Fırsat', p_record_label_en => 'Deal');

-- A contact's deals: deals filtered by contact_id through deal_contacts.
insert into private.module_link_filters (module, filter_column, target_module, link_table, record_column)
values ('deals', 'contact_id', 'contacts', 'deal_contacts', 'deal_id');

/**
 * Moves a deal the caller may edit to another stage through the record engine (the
 * deal's rules, stale check, field history, audit); p_lost_reason for a lost stage.
 */
create function private.deal_move(p_id uuid, p_stage text, p_updated_at timestamptz, p_lost_reason text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'edit');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  return private.record_write('deals', context, p_id,
    jsonb_build_object('stage', p_stage)
      || case when p_lost_reason is not null then jsonb_build_object('lost_reason', p_lost_reason) else '{}' end,
    p_updated_at, true);
end;
$$;

/**
 * The board's filters as query parameters: {"owner_id": id | "me" | [ids], "customer_id":
 * id | [ids], "search": text}. Returns {"owners": [ids] | null, "customers": [ids] | null,
 * "pattern": LIKE pattern over the folded search text | null}, or {"problem"}.
 */
create function private.deal_board_filters(p_filters jsonb, p_caller uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  filters jsonb := coalesce(p_filters, '{}');
  owners uuid[];
  customers uuid[];
  folded text;
  refused constant jsonb := jsonb_build_object('problem', private.failure('Invalid board request', 'invalid_input'));
begin
  if jsonb_typeof(filters) <> 'object' then
    return refused;
  end if;
  if exists (select 1 from jsonb_object_keys(filters) k where k not in ('owner_id', 'customer_id', 'search'))
     or jsonb_typeof(coalesce(filters -> 'search', 'null')) not in ('string', 'null') then
    return refused;
  end if;
  begin
    if jsonb_typeof(coalesce(filters -> 'owner_id', 'null')) <> 'null' then
      owners := array(select case when v #>> '{}' = 'me' then p_caller else (v #>> '{}')::uuid end
                        from jsonb_array_elements(case jsonb_typeof(filters -> 'owner_id') when 'array' then filters -> 'owner_id'
                                                       else jsonb_build_array(filters -> 'owner_id') end) v);
    end if;
    if jsonb_typeof(coalesce(filters -> 'customer_id', 'null')) <> 'null' then
      customers := array(select (v #>> '{}')::uuid
                           from jsonb_array_elements(case jsonb_typeof(filters -> 'customer_id') when 'array' then filters -> 'customer_id'
                                                          else jsonb_build_array(filters -> 'customer_id') end) v);
    end if;
  exception when invalid_text_representation then
    return refused;
  end;
  if cardinality(owners) > 100 or cardinality(customers) > 100 then
    return refused;
  end if;
  folded := private.fold_search(btrim(coalesce(filters ->> 'search', '')));
  return jsonb_build_object('owners', to_jsonb(owners), 'customers', to_jsonb(customers),
    'pattern', case when folded <> '' then '%' || replace(replace(replace(folded, '\', '\\'), '%', '\%'), '_', '\_') || '%' end);
end;
$$;

/**
 * The condition a board query puts on deals ($1 scope, $2 caller, $3 owners, $4
 * customers, $5 pattern), with only the filters given: one owner as an equality, so that
 * the owner's board index serves it.
 */
create function private.deal_board_condition(p_filters jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select 't.deleted_at is null and ($1 = ''all'' or t.owner_id = $2)'
         || case when jsonb_typeof(p_filters -> 'owners') <> 'array' then ''
                 when jsonb_array_length(p_filters -> 'owners') = 1 then ' and t.owner_id = ($3)[1]'
                 else ' and t.owner_id = any ($3)' end
         || case when jsonb_typeof(p_filters -> 'customers') <> 'array' then ''
                 when jsonb_array_length(p_filters -> 'customers') = 1 then ' and t.customer_id = ($4)[1]'
                 else ' and t.customer_id = any ($4)' end
         || case when p_filters ->> 'pattern' is null then '' else ' and t.search_text like $5' end;
$$;

/**
 * The cards of some stages as {stage key: [cards]}: p_limit deals per stage after the card
 * p_after names ({"updated_at", "id"}, checked by the caller; null: from the first), most
 * recently changed first, each with its customer's name (when the caller may see that
 * customer) and its owner's name.
 */
create function private.deal_board_cards(p_context private.module_context, p_filters jsonb, p_stages text[],
                                                    p_after jsonb, p_limit integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cards jsonb;
begin
  if p_limit <= 0 or cardinality(p_stages) = 0 then
    return (select coalesce(jsonb_object_agg(k, '[]'::jsonb), '{}') from unnest(p_stages) k);
  end if;
  execute format('select coalesce(jsonb_object_agg(c.key, coalesce(c.cards::jsonb, ''[]'')), ''{}'') from (%s) c',
                 private.deal_board_cards_query(p_context.schema_name, private.deal_board_condition(p_filters), p_stages))
    into cards
    using p_context.scope, p_context.caller, private.uuid_array(p_filters -> 'owners'),
          private.uuid_array(p_filters -> 'customers'), p_filters ->> 'pattern',
          p_stages, p_after, p_limit, private.caller_scope('customers', 'view');
  return cards;
end;
$$;

/**
 * The board: every stage of the pipeline in order with its count, totals per currency
 * and first p_per_stage cards, within the caller's view scope and the filters; deals
 * whose stage is no longer in the pipeline follow as stages of their own ("unknown":
 * true), never hidden. The answer is built in one statement, as json text converted to
 * jsonb once (building it in jsonb copied the 300 cards three times).
 */
create function private.deal_board(p_filters jsonb, p_per_stage integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'view');
  filters jsonb;
  settings private.organization_settings;
  groups jsonb;
  stage_keys text[];
  answer jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  filters := private.deal_board_filters(p_filters, context.caller);
  if filters ? 'problem' then
    return filters -> 'problem';
  end if;
  select * into settings from private.organization_settings s where s.organization_id = context.organization_id;

  -- Counts and totals per stage and currency: kept per owner in deal_stage_totals; a
  -- customer or search filter counts its (fewer) deals.
  if filters -> 'customers' = 'null' and filters -> 'pattern' = 'null' then
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total)), '[]')
        from (select t.stage, t.currency, sum(t.deal_count) as n, sum(t.amount) as total
                from %1$I.deal_stage_totals t
               where ($1 = 'all' or t.owner_id = $2) and ($3::uuid[] is null or t.owner_id = any ($3))
               group by t.stage, t.currency having sum(t.deal_count) > 0) g$query$,
      context.schema_name)
      into groups
      using context.scope, context.caller, private.uuid_array(filters -> 'owners');
  else
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total)), '[]')
        from (select t.stage, t.currency, count(*) as n, sum(t.amount) as total
                from %1$I.deals t where %2$s group by t.stage, t.currency) g$query$,
      context.schema_name, private.deal_board_condition(filters))
      into groups
      using context.scope, context.caller, private.uuid_array(filters -> 'owners'), private.uuid_array(filters -> 'customers'),
            filters ->> 'pattern';
  end if;

  -- The pipeline's stages in order, then any stage key the deals hold that it lacks.
  stage_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) with ordinality e (s, n) order by n)
             || array(select distinct g ->> 'stage' from jsonb_array_elements(groups) g
                       where private.deal_stage(settings.deal_stages, g ->> 'stage') is null order by 1);

  execute format($query$
    select json_build_object('success', true, 'scope', $1, 'currency', $10,
      'stages', (
        select json_agg(json_build_object(
                 'key', k.key,
                 'name', st -> 'name',
                 'outcome', st -> 'outcome',
                 'probability', st -> 'probability',
                 'unknown', st is null,
                 'count', (select coalesce(sum((g ->> 'count')::bigint), 0) from jsonb_array_elements($11) g where g ->> 'stage' = k.key),
                 'totals', (select coalesce(jsonb_agg(jsonb_build_object('currency', g ->> 'currency', 'amount', (g ->> 'amount')::numeric)
                                                      order by g ->> 'currency' <> $10, g ->> 'currency'), '[]')
                              from jsonb_array_elements($11) g where g ->> 'stage' = k.key),
                 'cards', coalesce(c.cards, '[]'::json),
                 'next_cursor', private.deal_board_cursor(c.cards, $8)) order by k.position)
          from unnest($6::text[]) with ordinality k (key, position)
          cross join lateral (select private.deal_stage($12, k.key) as st) stage
          left join (%s) c on c.key = k.key))::jsonb$query$,
    private.deal_board_cards_query(context.schema_name, private.deal_board_condition(filters), stage_keys))
    into answer
    using context.scope, context.caller, private.uuid_array(filters -> 'owners'), private.uuid_array(filters -> 'customers'),
          filters ->> 'pattern', stage_keys, null::jsonb, least(greatest(coalesce(p_per_stage, 50), 0), 200),
          private.caller_scope('customers', 'view'), settings.default_currency, groups, settings.deal_stages;
  return answer;
end;
$$;

/**
 * Where the next cards of a stage start: after the last of these cards by the board's
 * order (updated_at, id), when the page was full (p_limit cards); null when it was not.
 */
create function private.deal_board_cursor(p_cards json, p_limit integer)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case when p_limit > 0 and json_array_length(coalesce(p_cards, '[]')) >= p_limit
              then jsonb_build_object('updated_at', p_cards -> -1 ->> 'updated_at', 'id', p_cards -> -1 ->> 'id') end;
$$;

/**
 * More cards of one stage of the board (up to 200 after p_cursor, the board's or the last
 * page's next_cursor: by key, so a page reads only its own cards), with the board's scope
 * and filters; has_more and next_cursor tell whether and from where more follow. A cursor
 * of another shape is refused.
 */
create function private.deal_board_stage(p_stage text, p_filters jsonb, p_cursor jsonb, p_limit integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'view');
  filters jsonb;
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  after jsonb := nullif(p_cursor, 'null');
  cards jsonb;
  page json;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  filters := private.deal_board_filters(p_filters, context.caller);
  if filters ? 'problem' then
    return filters -> 'problem';
  end if;
  if coalesce(p_stage, '') !~ '^[a-z][a-z0-9_]{0,39}$'
     or (after is not null
         and (jsonb_typeof(after) <> 'object'
              or coalesce((select array_agg(k order by k) from jsonb_object_keys(after) k), '{}') <> '{id,updated_at}'
              or private.try_uuid(after -> 'id') is null or jsonb_typeof(after -> 'updated_at') <> 'string')) then
    return private.failure('Invalid board request', 'invalid_input');
  end if;
  begin
    perform (after ->> 'updated_at')::timestamptz;
  exception when invalid_datetime_format or datetime_field_overflow then
    return private.failure('Invalid board request', 'invalid_input');
  end;
  -- One card more than asked tells whether there are more.
  cards := private.deal_board_cards(context, filters, array[p_stage], after, page_size + 1) -> p_stage;
  page := coalesce((select json_agg(c order by n) from jsonb_array_elements(cards) with ordinality e (c, n) where n <= page_size), '[]');
  return jsonb_build_object('success', true, 'key', p_stage, 'cards', page,
    'has_more', jsonb_array_length(cards) > page_size,
    'next_cursor', case when jsonb_array_length(cards) > page_size then private.deal_board_cursor(page, page_size) end);
end;
$$;

/**
 * One forecast summary of grouped open deals ([{currency, month, count, amount, weighted,
 * rate}], rate null when the currency has none): count, amount and weighted amount
 * converted to the organization's currency, per month of p_months, and the deals in a
 * currency without a rate per currency, unconverted.
 * PL/pgSQL, so that its plan is kept for the session: as an SQL function it was planned
 * again on every call (1.9 ms; the forecast calls it once, then once per owner).
 */
create function private.deal_forecast_summary(p_groups jsonb, p_months text[])
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return (
    with g as (
      select * from jsonb_to_recordset(p_groups) as g (currency text, month text, count bigint, amount numeric,
                                                       weighted numeric, rate numeric)
    )
    select jsonb_build_object(
      'count', (select coalesce(sum(g.count), 0) from g where g.rate is not null),
      'amount', (select round(coalesce(sum(g.amount * g.rate), 0), 2) from g where g.rate is not null),
      'weighted', (select round(coalesce(sum(g.weighted * g.rate), 0), 2) from g where g.rate is not null),
      'months', (select jsonb_agg(jsonb_build_object(
                          'month', m.month,
                          'count', (select coalesce(sum(g.count), 0) from g where g.rate is not null and g.month = m.month),
                          'amount', (select round(coalesce(sum(g.amount * g.rate), 0), 2) from g where g.rate is not null and g.month = m.month),
                          'weighted', (select round(coalesce(sum(g.weighted * g.rate), 0), 2) from g where g.rate is not null and g.month = m.month))
                        order by m.position)
                   from unnest(p_months) with ordinality m (month, position)),
      'unconverted', (select coalesce(jsonb_agg(jsonb_build_object(
                               'currency', c.currency,
                               'count', (select sum(g.count) from g where g.rate is null and g.currency = c.currency),
                               'amount', (select round(sum(g.amount), 2) from g where g.rate is null and g.currency = c.currency),
                               'weighted', (select round(sum(g.weighted), 2) from g where g.rate is null and g.currency = c.currency),
                               'months', (select jsonb_agg(jsonb_build_object(
                                                   'month', m.month,
                                                   'count', (select coalesce(sum(g.count), 0) from g
                                                              where g.rate is null and g.currency = c.currency and g.month = m.month),
                                                   'amount', (select round(coalesce(sum(g.amount), 0), 2) from g
                                                               where g.rate is null and g.currency = c.currency and g.month = m.month),
                                                   'weighted', (select round(coalesce(sum(g.weighted), 0), 2) from g
                                                                 where g.rate is null and g.currency = c.currency and g.month = m.month))
                                                 order by m.position)
                                            from unnest(p_months) with ordinality m (month, position)))
                             order by c.currency), '[]')
                        from (select distinct g.currency from g where g.rate is null) c)));
end;
$$;

/**
 * The weighted forecast: open deals the caller may see (p_owner: one owner's) by month of
 * expected close, from the organization's current month for p_months months (1-24):
 * amount and amount × probability / 100 (a deal's own probability, else its stage's in
 * the pipeline now), converted to the default currency with the organization's exchange
 * rates, in total and per owner. Deals in a currency without a rate are reported per
 * currency, unconverted (in "unconverted"), never summed. Read from deal_forecast_totals
 * a few hundred rows, whatever the number of deals.
 */
create function private.deal_forecast(p_months integer, p_owner uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'view');
  settings private.organization_settings;
  open_keys text[];
  first_month date;
  months text[];
  groups jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if coalesce(p_months, 6) not between 1 and 24 then
    return private.failure('Invalid forecast request', 'invalid_input');
  end if;
  select * into settings from private.organization_settings s where s.organization_id = context.organization_id;
  open_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'open');
  first_month := date_trunc('month', (now() at time zone settings.time_zone))::date;
  months := array(select to_char(first_month + make_interval(months => m), 'YYYY-MM')
                    from generate_series(0, coalesce(p_months, 6) - 1) m order by m);

  -- A stage's probability is its first entry's in the pipeline (private.deal_stage), 0 without one.
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('owner_id', g.owner_id, 'currency', g.currency, 'month', g.month,
                                                 'count', g.n, 'amount', g.amount, 'weighted', g.weighted,
                                                 'rate', case when g.currency = $6 then 1 else ($7 ->> g.currency)::numeric end)), '[]')
      from (select t.owner_id, t.currency, to_char(t.month, 'YYYY-MM') as month, sum(t.deal_count) as n, sum(t.amount) as amount,
                   sum(t.weighted + t.default_amount * coalesce(s.probability, 0) * 0.01) as weighted
              from %I.deal_forecast_totals t
              left join (select distinct on (e.stage ->> 'key') e.stage ->> 'key' as key,
                                (e.stage ->> 'probability')::numeric as probability
                           from jsonb_array_elements($8) with ordinality e (stage, position)
                          where e.stage ->> 'key' = any ($4)
                          order by e.stage ->> 'key', e.position) s on s.key = t.stage
             where ($1 = 'all' or t.owner_id = $2) and ($3::uuid is null or t.owner_id = $3)
               and t.stage = any ($4) and t.month >= $5 and t.month < $9
             group by t.owner_id, t.currency, t.month
            having sum(t.deal_count) > 0) g$query$,
    context.schema_name)
    into groups
    using context.scope, context.caller, p_owner, open_keys, first_month, settings.default_currency,
          settings.exchange_rates, settings.deal_stages, (first_month + make_interval(months => coalesce(p_months, 6)))::date;

  return jsonb_build_object('success', true, 'scope', context.scope, 'currency', settings.default_currency,
    'rates', settings.exchange_rates, 'months', to_jsonb(months),
    'total', private.deal_forecast_summary(groups, months),
    'owners', (select coalesce(jsonb_agg(
                 jsonb_build_object('owner_id', o.owner_id,
                                    'owner_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                                                     from private.profiles p where p.id = o.owner_id))
                 || private.deal_forecast_summary(
                      (select jsonb_agg(g) from jsonb_array_elements(groups) g where (g ->> 'owner_id')::uuid = o.owner_id), months)
                 order by o.owner_id), '[]')
                 from (select distinct (g ->> 'owner_id')::uuid as owner_id from jsonb_array_elements(groups) g) o));
end;
$$;

/**
 * A deal's stage history, oldest first (who by name, when, from → to with the stages'
 * names, how long it stayed: until the next change, or until now for the current stage)
 * and the time spent per stage: {"history": [...], "time_in_stage": [...]}.
 */
create function private.deal_stage_history_json(p_schema text, p_deal uuid, p_stages jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  history jsonb;
begin
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', h.id, 'from_stage', h.from_stage, 'from_stage_name', private.deal_stage($2, h.from_stage) ->> 'name',
             'to_stage', h.to_stage, 'to_stage_name', private.deal_stage($2, h.to_stage) ->> 'name',
             'changed_by', h.changed_by,
             'changed_by_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                                   from private.profiles p where p.id = h.changed_by),
             'changed_at', h.changed_at, 'left_at', h.left_at,
             'duration_seconds', floor(extract(epoch from coalesce(h.left_at, now()) - h.changed_at))::bigint)
             order by h.changed_at, h.id), '[]')
      from (select s.*, lead(s.changed_at) over (order by s.changed_at, s.id) as left_at
              from %I.deal_stage_history s where s.deal_id = $1) h$query$, p_schema)
    into history using p_deal, p_stages;
  return jsonb_build_object('history', history, 'time_in_stage', (
    select coalesce(jsonb_agg(jsonb_build_object('stage', t.stage, 'name', private.deal_stage(p_stages, t.stage) ->> 'name',
                                                 'seconds', t.seconds) order by t.first_entry), '[]')
      from (select e ->> 'to_stage' as stage, sum((e ->> 'duration_seconds')::bigint) as seconds, min(n) as first_entry
              from jsonb_array_elements(history) with ordinality h (e, n) group by e ->> 'to_stage') t));
end;
$$;

/** The stage history of a deal the caller may see: {"success", "history", "time_in_stage"}. */
create function private.deal_stage_history(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get('deals', p_id);
  context private.module_context;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context('deals', 'view');
  return jsonb_build_object('success', true) || private.deal_stage_history_json(context.schema_name, p_id,
    (select s.deal_stages from private.organization_settings s where s.organization_id = context.organization_id));
end;
$$;

/** The contacts of a deal the caller may see among contacts (not deleted), by name. */
create function private.deal_contacts_json(p_schema text, p_deal uuid, p_caller uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  contacts jsonb;
begin
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'first_name', c.first_name, 'last_name', c.last_name,
                                                 'name', btrim(concat_ws(' ', c.first_name, c.last_name)), 'title', c.title)
                              order by private.turkish_sort_key(c.first_name || ' ' || c.last_name) collate "C", c.id), '[]')
      from %I.deal_contacts dc join %I.contacts c on c.id = dc.contact_id
     where dc.deal_id = $1 and c.deleted_at is null and ($2 = 'all' or ($2 = 'own' and c.owner_id = $3))$query$,
    p_schema, p_schema)
    into contacts using p_deal, private.caller_scope('contacts', 'view'), p_caller;
  return contacts;
end;
$$;

/**
 * A deal the caller may see with what its page shows: the record (with customer_name when
 * the caller may see that customer), its contacts, its stage history (stage_history) and
 * the time per stage (time_in_stage), as private.deal_stage_history gives them.
 */
create function private.deal_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get('deals', p_id);
  context private.module_context;
  customer_name text;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context('deals', 'view');
  execute format('select c.name from %I.customers c where c.id = $1 and c.deleted_at is null and ($2 = ''all'' or ($2 = ''own'' and c.owner_id = $3))',
                 context.schema_name)
    into customer_name using (found_record #>> '{record,customer_id}')::uuid, private.caller_scope('customers', 'view'), context.caller;
  return jsonb_build_object('success', true,
           'record', (found_record -> 'record') || jsonb_build_object('customer_name', customer_name),
           'contacts', private.deal_contacts_json(context.schema_name, p_id, context.caller))
         || (select jsonb_build_object('stage_history', h -> 'history', 'time_in_stage', h -> 'time_in_stage')
               from private.deal_stage_history_json(context.schema_name, p_id,
                      (select s.deal_stages from private.organization_settings s
                        where s.organization_id = context.organization_id)) h);
end;
$$;

/**
 * Sets the contacts of a deal the caller may edit (the list replaces the previous one; at
 * most 50; each an existing, not deleted contact of the organization, and each one added a
 * contact the caller may see: their view scope of contacts; a hidden one is not_found, as one
 * that does not exist). The change goes to the deal's field history (contact_ids) and the
 * audit log (deals.contacts).
 */
create function private.deal_set_contacts(p_id uuid, p_contact_ids uuid[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'edit');
  wanted uuid[];
  before uuid[];
  locked uuid;
  known integer;
  contact_scope text := private.caller_scope('contacts', 'view');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_contact_ids is null or array_position(p_contact_ids, null) is not null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  wanted := array(select distinct c from unnest(p_contact_ids) c order by c);
  if cardinality(wanted) > 50 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"contact_ids": "invalid"}}');
  end if;
  execute format('select t.id from %I.deals t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 context.schema_name)
    into locked using p_id, context.scope, context.caller;
  if locked is null then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('select array(select dc.contact_id from %I.deal_contacts dc where dc.deal_id = $1 order by dc.contact_id)',
                 context.schema_name)
    into before using p_id;
  -- Every contact live; the ones added also visible to the caller.
  execute format('select count(*) from %I.contacts c where c.id = any ($1) and c.deleted_at is null
                    and (c.id = any ($2) or $3 = ''all'' or ($3 = ''own'' and c.owner_id = $4))', context.schema_name)
    into known using wanted, before, contact_scope, context.caller;
  if known <> cardinality(wanted) then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"contact_ids": "not_found"}}');
  end if;

  if before is distinct from wanted then
    execute format('delete from %I.deal_contacts where deal_id = $1 and not (contact_id = any ($2))', context.schema_name)
      using p_id, wanted;
    execute format('insert into %I.deal_contacts (deal_id, contact_id, created_by) select $1, c, $3 from unnest($2) c on conflict do nothing',
                   context.schema_name)
      using p_id, wanted, context.caller;
    execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                    values (''deal'', $1, ''contact_ids'', $2, $3, $4)', context.schema_name)
      using p_id, to_jsonb(before), to_jsonb(wanted), context.caller;
    perform private.write_audit(context.organization_id, 'deals.contacts', 'deals', p_id::text, jsonb_build_object(
      'added', (select coalesce(jsonb_agg(c), '[]') from unnest(wanted) c where not (c = any (before))),
      'removed', (select coalesce(jsonb_agg(c), '[]') from unnest(before) c where not (c = any (wanted)))));
  end if;
  return jsonb_build_object('success', true, 'contacts', private.deal_contacts_json(context.schema_name, p_id, context.caller));
end;
$$;

/**
 * Moves the deals of removed stages ({old key: new key}) in one statement per stage, as
 * the deal's rules would (the new stage's probability; closed_at set for won and lost,
 * cleared for open; a lost reason only on lost deals), with field history, stage history
 * (the trigger) and one deals.update audit entry per deal. Returns {old key: moved}.
 */
create function private.move_deals_off_stages(p_organization_id uuid, p_schema text, p_moves jsonb, p_stages jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  move record;
  target jsonb;
  moved bigint;
  counts jsonb := '{}';
begin
  for move in select m.key, m.value as target_key from jsonb_each_text(p_moves) m order by m.key loop
    target := private.deal_stage(p_stages, move.target_key);
    execute format($query$
      with changed as (
        update %1$I.deals t
           set stage = $2,
               probability = $3,
               closed_at = case when $4 = 'open' then null else coalesce(t.closed_at, now()) end,
               lost_reason = case when $4 = 'lost' then t.lost_reason end
          from %1$I.deals o
         where o.id = t.id and t.stage = $1
        returning t.id, to_jsonb(o) as old_row, to_jsonb(t) as new_row
      ), fields as (
        select c.id, f.field, c.old_row -> f.field as old_value, c.new_row -> f.field as new_value
          from changed c, unnest(array['stage', 'probability', 'closed_at', 'lost_reason']) f (field)
         where (c.old_row -> f.field) is distinct from (c.new_row -> f.field)
      ), history as (
        insert into %1$I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
        select 'deal', f.id, f.field, f.old_value, f.new_value, $5 from fields f
      ), audit as (
        insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
        select $6, $5, 'deals.update', 'deals', c.id::text,
               jsonb_build_object('fields', (select coalesce(jsonb_agg(f.field), '[]') from fields f where f.id = c.id),
                                  'stage_removed', $1)
          from changed c
      )
      select count(*) from changed$query$, p_schema)
      into moved
      using move.key, move.target_key, (target ->> 'probability')::numeric::integer, target ->> 'outcome', auth.uid(),
            p_organization_id;
    counts := counts || jsonb_build_object(move.key, moved);
  end loop;
  return counts;
end;
$$;

/** Moves a deal to another stage (p_updated_at as read; p_lost_reason for a lost stage). */
create function public.move_deal(p_id uuid, p_stage text, p_updated_at timestamptz, p_lost_reason text default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.deal_move(p_id, p_stage, p_updated_at, p_lost_reason); $$;
revoke all on function public.move_deal(p_id uuid, p_stage text, p_updated_at timestamp with time zone, p_lost_reason text) from public, anon, authenticated;
grant execute on function public.move_deal(p_id uuid, p_stage text, p_updated_at timestamp with time zone, p_lost_reason text) to authenticated;

/** The deals board: every stage with its count, totals and first cards. */
create function public.get_deal_board(p_filters jsonb default null, p_per_stage integer default 50)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_board(p_filters, p_per_stage); $$;
revoke all on function public.get_deal_board(p_filters jsonb, p_per_stage integer) from public, anon, authenticated;
grant execute on function public.get_deal_board(p_filters jsonb, p_per_stage integer) to authenticated;

/** More cards of one stage of the deals board, after p_cursor (the stage's next_cursor, as it came). */
create function public.get_deal_board_stage(p_stage text, p_filters jsonb default null, p_cursor jsonb default null,
                                            p_limit integer default 50)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_board_stage(p_stage, p_filters, p_cursor, p_limit); $$;
revoke all on function public.get_deal_board_stage(p_stage text, p_filters jsonb, p_cursor jsonb, p_limit integer) from public, anon, authenticated;
grant execute on function public.get_deal_board_stage(p_stage text, p_filters jsonb, p_cursor jsonb, p_limit integer) to authenticated;

/** The weighted forecast of open deals by month of expected close, in the organization's currency. */
create function public.get_deal_forecast(p_months integer default 6, p_owner uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_forecast(p_months, p_owner); $$;
revoke all on function public.get_deal_forecast(p_months integer, p_owner uuid) from public, anon, authenticated;
grant execute on function public.get_deal_forecast(p_months integer, p_owner uuid) to authenticated;

/** A deal's stage history with the time spent in each stage. */
create function public.get_deal_stage_history(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_stage_history(p_id); $$;
revoke all on function public.get_deal_stage_history(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_deal_stage_history(p_id uuid) to authenticated;

/** A deal with its customer's name, contacts and stage history. */
create function public.get_deal_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_details(p_id); $$;
revoke all on function public.get_deal_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_deal_details(p_id uuid) to authenticated;

/** Sets the contacts of a deal (the list replaces the previous one). */
create function public.set_deal_contacts(p_id uuid, p_contact_ids uuid[])
returns jsonb language sql security definer set search_path = ''
as $$ select private.deal_set_contacts(p_id, p_contact_ids); $$;
revoke all on function public.set_deal_contacts(p_id uuid, p_contact_ids uuid[]) from public, anon, authenticated;
grant execute on function public.set_deal_contacts(p_id uuid, p_contact_ids uuid[]) to authenticated;

/**
 * Statement trigger of deals: tells the organization's board topic
 * org:<organization_id> that deals changed (event 'deals_changed', payload {module,
 * operation}); clients reload through the RPCs, which apply each one's scope, so the
 * broadcast carries no deal data. One message per statement, however many rows.
 */
create function private.broadcast_deal_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is not null then
    perform private.broadcast(format('org:%s', private.schema_organization(tg_table_schema)), 'deals_changed',
                              jsonb_build_object('module', 'deals', 'operation', lower(tg_op)));
  end if;
  return null;
end;
$$;

/**
 * Trigger (after insert, update and delete on deals, per statement, with the transition
 * tables new_deals and old_deals): deal_forecast_totals follows every change
 * of a live deal's expected close, owner, stage, currency, amount, probability or
 * deletion. A deal with a probability of its own adds amount × probability / 100 to
 * weighted; one without adds its amount to default_amount (the stage's probability is
 * applied when the forecast is read). Deals without an expected close are not counted.
 */
create function private.deal_forecast_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  columns constant text := 'expected_close_date, owner_id, stage, currency, probability';
  changes text := case tg_op
    when 'INSERT' then format('select %s, 1 as n, amount from new_deals where deleted_at is null and expected_close_date is not null',
                              columns)
    when 'UPDATE' then format('select %1$s, 1 as n, amount from new_deals where deleted_at is null and expected_close_date is not null
                               union all
                               select %1$s, -1, -amount from old_deals where deleted_at is null and expected_close_date is not null',
                              columns)
    else format('select %s, -1 as n, -amount as amount from old_deals where deleted_at is null and expected_close_date is not null',
                columns) end;
begin
  -- In key order, so that concurrent writers lock the totals rows in the same order.
  execute format($query$
    insert into %I.deal_forecast_totals as f (month, owner_id, stage, currency, deal_count, amount, weighted, default_amount)
    select d.month, d.owner_id, d.stage, d.currency, sum(d.n), sum(d.amount), sum(d.weighted), sum(d.default_amount)
      from (select date_trunc('month', c.expected_close_date::timestamp)::date as month, c.owner_id, c.stage, c.currency, c.n,
                   c.amount,
                   case when c.probability is not null then c.amount * c.probability * 0.01 else 0 end as weighted,
                   case when c.probability is null then c.amount else 0 end as default_amount
              from (%s) c) d
     group by d.month, d.owner_id, d.stage, d.currency
    having sum(d.n) <> 0 or sum(d.amount) <> 0 or sum(d.weighted) <> 0 or sum(d.default_amount) <> 0
     order by d.month, d.owner_id, d.stage, d.currency
    on conflict (month, owner_id, stage, currency) do update
      set deal_count = f.deal_count + excluded.deal_count, amount = f.amount + excluded.amount,
          weighted = f.weighted + excluded.weighted, default_amount = f.default_amount + excluded.default_amount$query$,
    tg_table_schema, changes);
  return null;
end;
$$;

/** Trigger (after truncate on deals): the forecast's totals empty too. */
create function private.deal_forecast_after_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  execute format('delete from %I.deal_forecast_totals', tg_table_schema);
  return null;
end;
$$;

/**
 * The query of some stages' cards: one row (key, cards as a json array, null for none)
 * per stage of p_stages, each stage its own query, so that the board indexes (stage, or
 * owner and stage, then updated_at and id) give the page at once whatever the stage's
 * size. The stage is a range of one key and leads the order: as an equality the planner
 * dropped it from the order and walked the updated_at index of all deals instead, reading
 * every deal changed since the stage's last one (33,000 after a bulk move; all 200,000
 * for a stage of 10 deals). Parameters as private.deal_board_cards passes them: $1 scope,
 * $2 caller, $3 owners, $4 customers, $5 pattern, $7 the cursor (the cards after
 * {"updated_at", "id"} in the board's order, by the index; null: from the first), $8
 * limit, $9 the caller's scope of customers; p_condition from private.deal_board_condition.
 */
create function private.deal_board_cards_query(p_schema text, p_condition text, p_stages text[])
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(string_agg(format($query$
    select %1$L::text as key, (
      select json_agg(json_build_object(
               'id', d.id, 'title', d.title, 'amount', d.amount, 'currency', d.currency, 'probability', d.probability,
               'expected_close_date', d.expected_close_date, 'customer_id', d.customer_id,
               'customer_name', case when cu.deleted_at is null and ($9 = 'all' or ($9 = 'own' and cu.owner_id = $2))
                                     then cu.name end,
               'owner_id', d.owner_id,
               'owner_name', nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''),
               'updated_at', d.updated_at) order by d.updated_at desc, d.id desc)
        from (select t.id, t.title, t.amount, t.currency, t.probability, t.expected_close_date, t.customer_id,
                     t.owner_id, t.updated_at
                from %2$I.deals t
               where t.stage >= %1$L and t.stage <= %1$L and %3$s
                 and ($7::jsonb is null
                      or (t.updated_at, t.id) < (($7::jsonb ->> 'updated_at')::timestamptz, ($7::jsonb ->> 'id')::uuid))
               order by t.stage, t.updated_at desc, t.id desc
               limit $8) d
        left join %2$I.customers cu on cu.id = d.customer_id
        left join private.profiles p on p.id = d.owner_id) as cards$query$, s.key, p_schema, p_condition),
    ' union all ' order by s.position), 'select null::text as key, null::json as cards where false')
    from unnest(p_stages) with ordinality s (key, position);
$$;
