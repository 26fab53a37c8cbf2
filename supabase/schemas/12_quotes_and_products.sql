-- Quotes and products: KDV-correct lines and totals, the quote workflow (send, accept,
-- reject, revise, expire), frozen exchange rates, and the product list.

/**
 * The exchange rate of a currency for a quote dated p_on: 1 for TRY and the
 * organization's own currency; else the rate of the latest day on or before p_on, or,
 * for a date before any rate was set, the oldest rate known. No row when none is known.
 */
create function private.quote_exchange_rate(p_organization_id uuid, p_currency text, p_on date)
returns table (rate numeric, rate_date date)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select 1::numeric, p_on
     where p_currency = 'TRY'
        or p_currency = (select s.default_currency from private.organization_settings s where s.organization_id = p_organization_id)
    union all
    (select h.rate, h.rate_date
       from private.exchange_rate_history h
      where h.organization_id = p_organization_id and h.currency = p_currency
        and p_currency <> 'TRY'
        and p_currency <> (select s.default_currency from private.organization_settings s where s.organization_id = p_organization_id)
      order by h.rate_date <= p_on desc, case when h.rate_date <= p_on then h.rate_date end desc, h.rate_date
      limit 1);
end;
$$;

/**
 * The KDV rates a quote line may use: 0, 1, 10 and 20, plus the organization's default
 * rate when it is another one (the settings hold no list of their own).
 */
create function private.quote_vat_rates(p_organization_id uuid)
returns numeric[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select array(select distinct r from unnest(array[0, 1, 10, 20]::numeric[]
                                                || array(select s.default_vat_rate from private.organization_settings s
                                                          where s.organization_id = p_organization_id)) r
                  order by r));
end;
$$;

/**
 * A quote's totals by the Turkish invoice rules, from its header ({prices_include_vat,
 * document_discount_type, document_discount_value, exchange_rate}) and lines (each
 * {quantity, unit_price, discount_type, discount_value, vat_rate, withholding_rate}, in
 * order). Returns {"totals": {...}, "lines": [...]}, money as strings with two decimals.
 * - Line base = quantity × unit_price; when prices include KDV, the net base is
 *   base / (1 + rate / 100). The line's subtotal is that net base to the kuruş.
 * - Line discount: a percent of the line's subtotal, or an amount, off the net (kuruş).
 * - Document discount: a percent of (or an amount off) the sum of the lines after their
 *   discounts, spread over the lines in proportion to that amount, each share to the
 *   kuruş; the last line takes the rounding rest, so the shares add up exactly.
 * - Per line: net = subtotal − line discount − share; KDV = net × rate / 100 and
 *   withholding (tevkifat) = KDV × the ratio ("7/10"), each rounded to the kuruş (half
 *   away from zero) on the line; line gross = net + KDV.
 * - Totals: gross_total (the lines' subtotals), line_discount_total,
 *   document_discount_total, net_total, vat_breakdown per rate [{rate, base, vat,
 *   withholding}], vat_total, withholding_total, grand_total = net + KDV − withholding,
 *   grand_total_try = grand_total × exchange_rate to the kuruş (null without a rate);
 *   after_line_discounts (what the document discount may take at most).
 * Input is expected clean (see private.clean_quote_items); missing numbers count as 0.
 * PL/pgSQL around one query so that its plan is kept for the session.
 */
create function private.quote_totals(p_header jsonb, p_items jsonb)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return (
  with header as (
    select coalesce((p_header ->> 'prices_include_vat')::boolean, false) as included,
           p_header ->> 'document_discount_type' as discount_type,
           coalesce((p_header ->> 'document_discount_value')::numeric, 0) as discount_value,
           (p_header ->> 'exchange_rate')::numeric as rate
  ),
  line as (
    select i.position::integer - 1 as index,
           coalesce((i.item ->> 'vat_rate')::numeric, 0) as vat_rate,
           case when i.item ->> 'withholding_rate' ~ '^\d+/\d+$'
                then split_part(i.item ->> 'withholding_rate', '/', 1)::numeric
                     / nullif(split_part(i.item ->> 'withholding_rate', '/', 2)::numeric, 0)
                else 0 end as withholding_ratio,
           i.item ->> 'discount_type' as discount_type,
           coalesce((i.item ->> 'discount_value')::numeric, 0) as discount_value,
           round(case when h.included
                      then coalesce((i.item ->> 'quantity')::numeric, 0) * coalesce((i.item ->> 'unit_price')::numeric, 0)
                           / (1 + coalesce((i.item ->> 'vat_rate')::numeric, 0) / 100)
                      else coalesce((i.item ->> 'quantity')::numeric, 0) * coalesce((i.item ->> 'unit_price')::numeric, 0) end,
                 2) as subtotal
      from jsonb_array_elements(case when jsonb_typeof(p_items) = 'array' then p_items else '[]' end)
             with ordinality i (item, position),
           header h
  ),
  discounted as (
    select l.*,
           round(case l.discount_type when 'percent' then l.subtotal * l.discount_value / 100
                                      when 'amount' then l.discount_value else 0 end, 2) as line_discount
      from line l
  ),
  after_line as (
    select d.*, d.subtotal - d.line_discount as after_discount,
           sum(d.subtotal - d.line_discount) over () as after_total,
           max(d.index) over () as last_index
      from discounted d
  ),
  document as (
    select round(case h.discount_type when 'percent' then coalesce(max(a.after_total), 0) * h.discount_value / 100
                                      when 'amount' then h.discount_value else 0 end, 2) as discount
      from header h left join after_line a on true
     group by h.discount_type, h.discount_value
  ),
  shared as (
    select a.*,
           case when a.after_total = 0 then 0::numeric
                else round(doc.discount * a.after_discount / a.after_total, 2) end as rounded_share,
           doc.discount as document_discount
      from after_line a, document doc
  ),
  spread as (
    select s.*,
           case when s.index = s.last_index
                then s.document_discount - (sum(s.rounded_share) over () - s.rounded_share)
                else s.rounded_share end as share
      from shared s
  ),
  netted as (
    select s.*, s.after_discount - s.share as net, round((s.after_discount - s.share) * s.vat_rate / 100, 2) as vat
      from spread s
  ),
  computed as (
    select n.*, round(n.vat * n.withholding_ratio, 2) as withholding from netted n
  ),
  sums as (
    select coalesce(sum(c.subtotal), 0) as gross_total, coalesce(sum(c.line_discount), 0) as line_discount_total,
           coalesce(sum(c.share), 0) as document_discount_total, coalesce(sum(c.after_discount), 0) as after_line_discounts,
           coalesce(sum(c.net), 0) as net_total, coalesce(sum(c.vat), 0) as vat_total,
           coalesce(sum(c.withholding), 0) as withholding_total
      from computed c
  )
  select jsonb_build_object(
    'totals', jsonb_build_object(
      'gross_total', round(s.gross_total, 2)::text,
      'line_discount_total', round(s.line_discount_total, 2)::text,
      'after_line_discounts', round(s.after_line_discounts, 2)::text,
      'document_discount_total', round((select d.discount from document d), 2)::text,
      'net_total', round(s.net_total, 2)::text,
      'vat_breakdown', (select coalesce(jsonb_agg(jsonb_build_object('rate', trim_scale(g.vat_rate), 'base', round(g.base, 2)::text,
                                                                     'vat', round(g.vat, 2)::text,
                                                                     'withholding', round(g.withholding, 2)::text)
                                                  order by g.vat_rate), '[]')
                          from (select c.vat_rate, sum(c.net) as base, sum(c.vat) as vat, sum(c.withholding) as withholding
                                  from computed c group by c.vat_rate) g),
      'vat_total', round(s.vat_total, 2)::text,
      'withholding_total', round(s.withholding_total, 2)::text,
      'grand_total', round(s.net_total + s.vat_total - s.withholding_total, 2)::text,
      'grand_total_try', round((s.net_total + s.vat_total - s.withholding_total) * h.rate, 2)::text),
    'lines', (select coalesce(jsonb_agg(jsonb_build_object(
                'index', c.index, 'subtotal', round(c.subtotal, 2)::text, 'line_discount', round(c.line_discount, 2)::text,
                'document_discount', round(c.share, 2)::text, 'line_net', round(c.net, 2)::text,
                'line_vat', round(c.vat, 2)::text, 'line_withholding', round(c.withholding, 2)::text,
                'line_gross', round(c.net + c.vat, 2)::text) order by c.index), '[]')
                from computed c))
    from sums s, header h);
end;
$$;

/** The KDV withholding (tevkifat) ratios a quote line or a contract may name. */
create function private.withholding_rates()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['2/10', '3/10', '4/10', '5/10', '7/10', '9/10', '10/10'];
$$;

/**
 * A quote's lines checked and normalised: {"items": [clean lines], "errors":
 * {"items.<index>.<field>": code}} (index from 0). At most 500 lines ({"items":
 * "too_many_items"}). Each line: a description (1-2000 characters; required), quantity
 * > 0 (3 decimals), unit (at most 20 characters), unit_price ≥ 0 (4 decimals),
 * discount_type percent|amount with discount_value ≥ 0 (percent at most 100, an amount
 * at most the line: discount_exceeds_line), vat_rate one of p_vat_rates
 * (invalid_vat_rate), a vat_exemption_reason when the rate is 0 (vat_exemption_required),
 * withholding_rate one of private.withholding_rates() or null, product_id
 * a product of the organization (not_found).
 */
create function private.clean_quote_items(p_items jsonb, p_vat_rates numeric[], p_schema text, p_prices_include_vat boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  errors jsonb := '{}';
  items jsonb[] := '{}';
  item jsonb;
  index integer := -1;
  prefix text;
  description text;
  quantity numeric;
  unit text;
  unit_price numeric;
  discount_type text;
  discount numeric;
  rate numeric;
  exemption text;
  withholding text;
  product text;
  product_ids uuid[] := '{}';
  known uuid[];
begin
  if p_items is null or jsonb_typeof(p_items) = 'null' then
    return jsonb_build_object('items', '[]'::jsonb, 'errors', '{}'::jsonb);
  end if;
  if jsonb_typeof(p_items) <> 'array' then
    return jsonb_build_object('items', '[]'::jsonb, 'errors', '{"items": "invalid"}'::jsonb);
  end if;
  if jsonb_array_length(p_items) > 500 then
    return jsonb_build_object('items', '[]'::jsonb, 'errors', '{"items": "too_many_items"}'::jsonb);
  end if;
  for item in select value from jsonb_array_elements(p_items) loop
    index := index + 1;
    prefix := 'items.' || index || '.';
    if jsonb_typeof(item) <> 'object' then
      errors := errors || jsonb_build_object('items.' || index, 'invalid');
      continue;
    end if;

    description := case when jsonb_typeof(item -> 'description') = 'string' then nullif(btrim(item ->> 'description'), '') end;
    if description is null then
      errors := errors || jsonb_build_object(prefix || 'description', 'required');
    elsif char_length(description) > 2000 then
      errors := errors || jsonb_build_object(prefix || 'description', 'too_long');
    end if;

    quantity := private.json_numeric(item -> 'quantity');
    if quantity is null or quantity <= 0 or quantity >= 100000000000 or scale(quantity) > 3 then
      errors := errors || jsonb_build_object(prefix || 'quantity', 'invalid');
    end if;

    unit := nullif(btrim(item ->> 'unit'), '');
    if coalesce(jsonb_typeof(item -> 'unit'), 'null') not in ('string', 'null') then
      errors := errors || jsonb_build_object(prefix || 'unit', 'invalid');
    elsif char_length(unit) > 20 then
      errors := errors || jsonb_build_object(prefix || 'unit', 'too_long');
    end if;

    unit_price := private.json_numeric(item -> 'unit_price');
    if unit_price is null or unit_price < 0 or unit_price >= 1000000000000 or scale(unit_price) > 4 then
      errors := errors || jsonb_build_object(prefix || 'unit_price', 'invalid');
    end if;

    rate := private.json_numeric(item -> 'vat_rate');
    exemption := null;
    if rate is null or not (rate = any (p_vat_rates)) then
      errors := errors || jsonb_build_object(prefix || 'vat_rate', 'invalid_vat_rate');
    elsif rate = 0 then
      exemption := case when jsonb_typeof(item -> 'vat_exemption_reason') = 'string'
                        then nullif(btrim(item ->> 'vat_exemption_reason'), '') end;
      if exemption is null then
        errors := errors || jsonb_build_object(prefix || 'vat_exemption_reason', 'vat_exemption_required');
      elsif char_length(exemption) > 200 then
        errors := errors || jsonb_build_object(prefix || 'vat_exemption_reason', 'too_long');
      end if;
    end if;

    withholding := nullif(item ->> 'withholding_rate', '');
    if withholding is not null and (jsonb_typeof(item -> 'withholding_rate') <> 'string'
                                    or not (withholding = any (private.withholding_rates()))) then
      errors := errors || jsonb_build_object(prefix || 'withholding_rate', 'invalid');
    end if;

    discount_type := nullif(item ->> 'discount_type', '');
    discount := coalesce(private.json_numeric(item -> 'discount_value'),
                         case when coalesce(jsonb_typeof(item -> 'discount_value'), 'null') = 'null' then 0 end);
    if discount_type is null then
      if discount is distinct from 0 then
        errors := errors || jsonb_build_object(prefix || 'discount_type', 'required');
      end if;
      discount := 0;
    elsif discount_type not in ('percent', 'amount') then
      errors := errors || jsonb_build_object(prefix || 'discount_type', 'invalid');
    elsif discount is null or discount < 0 or scale(discount) > 2 or (discount_type = 'percent' and discount > 100) then
      errors := errors || jsonb_build_object(prefix || 'discount_value', 'invalid');
    elsif discount_type = 'amount' and quantity is not null and unit_price is not null and rate is not null
          and discount > round(case when p_prices_include_vat then quantity * unit_price / (1 + rate / 100)
                                    else quantity * unit_price end, 2) then
      errors := errors || jsonb_build_object(prefix || 'discount_value', 'discount_exceeds_line');
    end if;

    product := item ->> 'product_id';
    if coalesce(jsonb_typeof(item -> 'product_id'), 'null') <> 'null' then
      if product !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        errors := errors || jsonb_build_object(prefix || 'product_id', 'invalid');
      else
        product_ids := product_ids || product::uuid;
      end if;
    end if;

    items := items || jsonb_build_object(
      'position', index + 1, 'description', description, 'quantity', quantity, 'unit', unit, 'unit_price', unit_price,
      'discount_type', discount_type, 'discount_value', discount, 'vat_rate', rate, 'vat_exemption_reason', exemption,
      'withholding_rate', withholding, 'product_id', product);
  end loop;

  if cardinality(product_ids) > 0 then
    execute format('select array_agg(p.id) from %I.products p where p.id = any ($1) and p.deleted_at is null', p_schema)
      into known using product_ids;
    select coalesce(jsonb_object_agg('items.' || (i.position - 1) || '.product_id', 'not_found'), '{}') || errors into errors
      from unnest(items) with ordinality i (item, position)
     where i.item ->> 'product_id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' and not ((i.item ->> 'product_id')::uuid = any (coalesce(known, '{}')));
  end if;
  return jsonb_build_object('items', to_jsonb(items), 'errors', errors);
end;
$$;

/**
 * Trigger (before insert or update on quotes): a new quote gets the organization's
 * currency, today's date, valid_until after the organization's validity days, and its
 * number (private.next_document_number, kind quote) unless it has one (a revision keeps
 * its root's). While a quote is a draft (and when it leaves draft) without an entered
 * rate, its exchange rate is the one of its date (private.quote_exchange_rate); after,
 * the rate stays frozen. Every write stores the totals private.quote_totals gives for the
 * quote's lines. A schema no organization owns (the drift check's) gets TRY and no number.
 */
create function private.quote_before_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization uuid := private.schema_organization(tg_table_schema);
  settings private.organization_settings;
  found_rate record;
  items jsonb;
  totals jsonb;
begin
  select * into settings from private.organization_settings s where s.organization_id = organization;
  if tg_op = 'INSERT' then
    new.currency := coalesce(new.currency, settings.default_currency, 'TRY');
    new.quote_date := coalesce(new.quote_date, private.organization_today(organization));
    new.valid_until := coalesce(new.valid_until, new.quote_date + coalesce(settings.quote_validity_days, 30));
    if new.quote_number is null and organization is not null then
      new.quote_number := private.next_document_number(organization, 'quote', settings.quote_number_pattern, new.quote_date);
    end if;
  end if;
  if (tg_op = 'INSERT' or old.status = 'draft') and not new.exchange_rate_manual then
    select * into found_rate from private.quote_exchange_rate(organization, new.currency, new.quote_date);
    if found_rate is null and new.currency = 'TRY' then
      select 1::numeric as rate, new.quote_date as rate_date into found_rate;
    end if;
    new.exchange_rate := found_rate.rate;
    new.exchange_rate_date := found_rate.rate_date;
  end if;
  if tg_op = 'UPDATE' then
    -- Only what the totals read (the whole rows cost twice as much to build).
    execute format('select coalesce(jsonb_agg(jsonb_build_object(''quantity'', i.quantity, ''unit_price'', i.unit_price,
                                                                 ''discount_type'', i.discount_type, ''discount_value'', i.discount_value,
                                                                 ''vat_rate'', i.vat_rate, ''withholding_rate'', i.withholding_rate)
                                              order by i.position, i.id), ''[]'')
                      from %I.quote_items i where i.quote_id = $1 and i.deleted_at is null', tg_table_schema)
      into items using new.id;
  else
    items := '[]';
  end if;
  totals := private.quote_totals(to_jsonb(new), items) -> 'totals';
  new.gross_total := (totals ->> 'gross_total')::numeric;
  new.line_discount_total := (totals ->> 'line_discount_total')::numeric;
  new.document_discount_total := (totals ->> 'document_discount_total')::numeric;
  new.net_total := (totals ->> 'net_total')::numeric;
  new.vat_total := (totals ->> 'vat_total')::numeric;
  new.withholding_total := (totals ->> 'withholding_total')::numeric;
  new.grand_total := (totals ->> 'grand_total')::numeric;
  new.grand_total_try := (totals ->> 'grand_total_try')::numeric;
  return new;
end;
$$;

/**
 * A quote header's rules (the registry's prepare function, so update_quote, bulk updates
 * and save_quote share them): customer, contact and deal of the organization (not
 * deleted); quote_date and valid_until dates (valid_until not before quote_date:
 * before_quote_date); currency three letters; exchange_rate a positive number (an
 * entered rate, kept as is) or null (the rate of the quote's date); prices_include_vat a
 * boolean; a document discount percent (at most 100) or amount of at least 0; payment
 * terms (2000), notes (10000). A quote that is no longer a draft is locked: only its
 * owner, and its status by the workflow, may change (quote_locked). The workflow:
 * draft → sent (a customer, at least one line — items_required — and a known rate —
 * exchange_rate: required; sets sent_at), sent → accepted (accepted_at) or rejected
 * (rejected_at, a rejection_reason required); a sent quote past valid_until is expired
 * (quote_expired), a superseded one is history (quote_superseded); anything else is
 * invalid_transition. Returns {"values", "errors"} like private.prepare_deal.
 */
create function private.prepare_quote(p_values jsonb, p_existing jsonb)
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
  tenant text := private.tenant_schema(target_org);
  old_status text := p_existing ->> 'status';
  new_status text;
  reference uuid;
  found boolean;
  day date;
  number_value numeric;
  quote_date date;
  valid_until date;
  item_count integer;
begin
  -- A locked quote: nothing but its owner and status changes.
  if old_status is not null and old_status <> 'draft' then
    select coalesce(jsonb_object_agg(k, 'quote_locked'), '{}') into errors
      from jsonb_object_keys(p_values) k where k not in ('owner_id', 'status', 'rejection_reason');
    if errors <> '{}' then
      return jsonb_build_object('values', '{}'::jsonb, 'errors', errors);
    end if;
  end if;

  foreach field in array array['currency', 'payment_terms', 'notes', 'rejection_reason', 'document_discount_type', 'status'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;
  if char_length(result ->> 'payment_terms') > 2000 and p_values ? 'payment_terms' then
    errors := errors || '{"payment_terms": "too_long"}';
  end if;
  if char_length(result ->> 'notes') > 10000 and p_values ? 'notes' then
    errors := errors || '{"notes": "too_long"}';
  end if;
  if char_length(result ->> 'rejection_reason') > 1000 and p_values ? 'rejection_reason' then
    errors := errors || '{"rejection_reason": "too_long"}';
  end if;

  if p_values ? 'currency' and not errors ? 'currency' then
    if result ->> 'currency' is null or upper(result ->> 'currency') !~ '^[A-Z]{3}$' then
      errors := errors || jsonb_build_object('currency', case when result ->> 'currency' is null then 'required' else 'invalid' end);
    else
      result := result || jsonb_build_object('currency', upper(result ->> 'currency'));
    end if;
  end if;

  -- Customer, contact and deal: the organization's, not deleted.
  foreach field in array array['customer_id', 'contact_id', 'deal_id'] loop
    if p_values ? field and jsonb_typeof(p_values -> field) <> 'null' then
      begin
        reference := (p_values ->> field)::uuid;
        execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null)', tenant,
                       case field when 'customer_id' then 'customers' when 'contact_id' then 'contacts' else 'deals' end)
          into found using reference;
        if not coalesce(found, false) then
          errors := errors || jsonb_build_object(field, 'not_found');
        end if;
      exception when invalid_text_representation then
        errors := errors || jsonb_build_object(field, 'invalid');
      end;
    end if;
  end loop;

  foreach field in array array['quote_date', 'valid_until'] loop
    if p_values ? field then
      begin
        if jsonb_typeof(p_values -> field) = 'null' then
          if field = 'quote_date' then
            errors := errors || '{"quote_date": "required"}';
          else
            result := result || '{"valid_until": null}';
          end if;
        else
          if jsonb_typeof(p_values -> field) <> 'string' or (p_values ->> field) !~ '^\d{4}-\d{2}-\d{2}$' then
            raise invalid_datetime_format;
          end if;
          day := (p_values ->> field)::date;
          if extract(year from day) not between 2000 and 2999 then
            raise invalid_datetime_format;
          end if;
          result := result || jsonb_build_object(field, day);
        end if;
      exception when invalid_datetime_format or datetime_field_overflow then
        errors := errors || jsonb_build_object(field, 'invalid');
      end;
    end if;
  end loop;
  -- valid_until: null means the organization's validity days from the quote's date.
  if not errors ? 'quote_date' and not errors ? 'valid_until' then
    quote_date := coalesce((result ->> 'quote_date')::date, (p_existing ->> 'quote_date')::date, private.organization_today(target_org));
    if p_values ? 'valid_until' and result ->> 'valid_until' is null then
      result := result || jsonb_build_object('valid_until', quote_date + (select s.quote_validity_days from private.organization_settings s
                                                                            where s.organization_id = target_org));
    end if;
    valid_until := coalesce((result ->> 'valid_until')::date, (p_existing ->> 'valid_until')::date);
    if valid_until < quote_date then
      errors := errors || '{"valid_until": "before_quote_date"}';
    end if;
  end if;

  if p_values ? 'exchange_rate' then
    if jsonb_typeof(p_values -> 'exchange_rate') = 'null' then
      result := result || '{"exchange_rate_manual": false}';
    else
      number_value := private.json_numeric(p_values -> 'exchange_rate');
      if number_value is null or number_value <= 0 or number_value >= 1000000000 or scale(number_value) > 6 then
        errors := errors || '{"exchange_rate": "invalid"}';
      else
        result := result || jsonb_build_object('exchange_rate', number_value, 'exchange_rate_manual', true,
                                               'exchange_rate_date', null);
      end if;
    end if;
  end if;

  if p_values ? 'prices_include_vat' then
    if jsonb_typeof(p_values -> 'prices_include_vat') <> 'boolean' then
      errors := errors || '{"prices_include_vat": "invalid"}';
    end if;
  end if;

  if p_values ? 'document_discount_type' and not errors ? 'document_discount_type'
     and result ->> 'document_discount_type' not in ('percent', 'amount') then
    errors := errors || '{"document_discount_type": "invalid"}';
  end if;
  if p_values ? 'document_discount_value' then
    number_value := coalesce(private.json_numeric(p_values -> 'document_discount_value'),
                             case when jsonb_typeof(p_values -> 'document_discount_value') = 'null' then 0 end);
    if number_value is null or number_value < 0 or number_value >= 100000000000000 or scale(number_value) > 2
       or (coalesce(result ->> 'document_discount_type', p_existing ->> 'document_discount_type') = 'percent' and number_value > 100) then
      errors := errors || '{"document_discount_value": "invalid"}';
    else
      result := result || jsonb_build_object('document_discount_value', number_value);
    end if;
  end if;
  if coalesce(result ->> 'document_discount_type', case when not p_values ? 'document_discount_type' then p_existing ->> 'document_discount_type' end) is null then
    if (result ->> 'document_discount_value')::numeric > 0 then
      errors := errors || '{"document_discount_type": "required"}';
    end if;
  end if;

  -- The workflow.
  if p_values ? 'status' and not errors ? 'status' then
    new_status := result ->> 'status';
    if p_existing is null and new_status is not distinct from 'draft' then
      result := result - 'status';
    elsif p_existing is null or new_status is not distinct from old_status then
      errors := errors || '{"status": "invalid_transition"}';
    elsif (p_existing ->> 'superseded_by') is not null then
      errors := errors || '{"status": "quote_superseded"}';
    elsif old_status = 'draft' and new_status = 'sent' then
      execute format('select count(*) from %I.quote_items i where i.quote_id = $1 and i.deleted_at is null', tenant)
        into item_count using (p_existing ->> 'id')::uuid;
      if item_count = 0 then
        errors := errors || '{"status": "items_required"}';
      elsif (p_existing ->> 'customer_id') is null then
        errors := errors || '{"customer_id": "required"}';
      elsif not (p_existing ->> 'exchange_rate_manual')::boolean
            and not exists (select 1 from private.quote_exchange_rate(target_org, p_existing ->> 'currency',
                                                                       (p_existing ->> 'quote_date')::date)) then
        errors := errors || '{"exchange_rate": "required"}';
      end if;
      result := result || jsonb_build_object('sent_at', now());
    elsif old_status = 'sent' and new_status in ('accepted', 'rejected') then
      if (p_existing ->> 'valid_until')::date < private.organization_today(target_org) then
        errors := errors || '{"status": "quote_expired"}';
      elsif new_status = 'accepted' then
        result := result || jsonb_build_object('accepted_at', now());
      elsif coalesce(result ->> 'rejection_reason', p_existing ->> 'rejection_reason') is null then
        errors := errors || '{"rejection_reason": "required"}';
      else
        result := result || jsonb_build_object('rejected_at', now());
      end if;
    else
      errors := errors || '{"status": "invalid_transition"}';
    end if;
  end if;
  if p_values ? 'rejection_reason' and coalesce(new_status, old_status, 'draft') <> 'rejected' and not errors ? 'rejection_reason' then
    result := result || '{"rejection_reason": null}';
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The registry row
-- ---------------------------------------------------------------------------------
select private.register_module(
  p_key => 'quotes', p_position => 4, p_table_name => 'quotes', p_entity_type => 'quote',
  p_fields => jsonb_build_array(
    private.field_declaration('quote_number', 'text', 'Teklif no', 'Quote no.', '{readonly,listed,sortable,own_ui}'),
    private.field_declaration('revision', 'number', 'Revizyon', 'Revision', '{readonly,listed,own_ui}'),
    private.field_declaration('customer_id', 'link', 'Müşteri', 'Customer', '{listed,sortable,filterable,own_rule,own_ui}', p_link_module => 'customers'),
    private.field_declaration('contact_id', 'link', 'Kişi', 'Contact', '{filterable,own_rule,own_ui}', p_link_module => 'contacts'),
    private.field_declaration('deal_id', 'link', 'Fırsat', 'Deal', '{listed,sortable,filterable,own_rule,own_ui}', p_link_module => 'deals'),
    private.field_declaration('status', 'text', 'Durum', 'Status', '{listed,sortable,filterable,own_rule,own_ui}'),
    private.field_declaration('quote_date', 'date', 'Teklif tarihi', 'Quote date', '{listed,sortable,filterable,own_rule,own_ui}'),
    private.field_declaration('valid_until', 'date', 'Geçerlilik tarihi', 'Valid until', '{listed,sortable,filterable,own_rule,own_ui}'),
    private.field_declaration('currency', 'text', 'Para birimi', 'Currency', '{listed,filterable,own_rule,own_ui}'),
    private.field_declaration('exchange_rate', 'number', 'Döviz kuru (1 birim = ? ₺)', 'Exchange rate (1 unit = ? ₺)', '{own_rule,own_ui}'),
    private.field_declaration('prices_include_vat', 'boolean', 'Fiyatlara KDV dahil', 'Prices include VAT', '{own_rule,own_ui}'),
    private.field_declaration('document_discount_type', 'text', 'Genel iskonto türü', 'Overall discount type', '{own_rule,own_ui}'),
    private.field_declaration('document_discount_value', 'number', 'Genel iskonto', 'Overall discount', '{own_rule,own_ui}'),
    private.field_declaration('payment_terms', 'long_text', 'Ödeme koşulları', 'Payment terms', '{own_rule,own_ui}'),
    private.field_declaration('notes', 'long_text', 'Notlar', 'Notes', '{own_rule,own_ui}'),
    private.field_declaration('rejection_reason', 'text', 'Ret nedeni', 'Rejection reason', '{own_rule,own_ui}'),
    private.field_declaration('grand_total', 'money', 'Genel toplam', 'Grand total', '{readonly,listed,sortable,own_ui}'),
    private.field_declaration('grand_total_try', 'money', 'TL karşılığı', 'TRY equivalent', '{readonly,listed,own_ui}'),
    private.field_declaration('is_latest', 'boolean', 'Son revizyon', 'Latest revision', '{readonly,listed,filterable,own_ui}')),
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_title_columns => '{quote_number}', p_prepare_function => 'prepare_quote',
  p_transfer_kind => 'quotes', p_transfer_default => false, p_transfer_tables => '{quote_items}',
  p_document_link => 'quote_id',
  p_record_label_tr => 'Teklif', p_record_label_en => 'Quote');

/** A save's refusal: field errors of the header and lines as {"fields": {...}} (too_many_items on its own). */
create function private.quote_fields_failure(p_errors jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case when p_errors ->> 'items' = 'too_many_items'
              then private.failure('A quote has at most 500 lines', 'too_many_items', jsonb_build_object('fields', p_errors))
              else private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', p_errors)) end;
$$;

/**
 * Saves a quote with all its lines in one transaction. p_id null creates a draft (its
 * number assigned, owned by the caller or, with scope all, the member in owner_id);
 * otherwise the draft read at p_updated_at is changed (stale_record when someone changed
 * it since; quote_locked when it is no longer a draft) and its lines are replaced. Header
 * rules: private.prepare_quote (status is changed by send/accept/reject only); lines:
 * private.clean_quote_items; a document discount larger than the lines after their
 * discounts is discount_exceeds_total. Answers {success, id, updated_at, quote_number}.
 */
create function private.quote_save(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', case when p_id is null then 'create' else 'edit' end);
  values_in jsonb := coalesce(p_values, '{}');
  existing jsonb;
  prepared jsonb;
  items jsonb;
  errors jsonb := '{}';
  answer jsonb;
  quote_id uuid := p_id;
  saved record;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if jsonb_typeof(values_in) <> 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if values_in ? 'status' or values_in ? 'rejection_reason' then
    return private.quote_fields_failure(jsonb_build_object(case when values_in ? 'status' then 'status' else 'rejection_reason' end,
                                                           'unknown_field'));
  end if;
  if p_id is not null then
    execute format('select to_jsonb(t) from %I.quotes t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                   context.schema_name)
      into existing using p_id, context.scope, context.caller;
    if existing is null then
      return private.failure('Record not found', 'not_found');
    end if;
    if existing ->> 'status' <> 'draft' or existing ->> 'superseded_by' is not null then
      return private.failure('The quote is locked', 'quote_locked');
    end if;
  end if;

  prepared := private.prepare_record('quotes', values_in, existing, context.caller, context.organization_id, context.scope);
  if prepared ? 'problem' then
    if prepared #>> '{problem,code}' <> 'invalid_fields' then
      return prepared -> 'problem';
    end if;
    errors := prepared #> '{problem,fields}';
  end if;
  items := private.clean_quote_items(p_items, private.quote_vat_rates(context.organization_id), context.schema_name,
                                     coalesce((prepared #>> '{values,prices_include_vat}')::boolean,
                                              (existing ->> 'prices_include_vat')::boolean, false));
  errors := errors || (items -> 'errors');
  if errors <> '{}' then
    return private.quote_fields_failure(errors);
  end if;

  begin
    if p_id is null then
      answer := private.record_create('quotes', values_in);
      if not (answer ->> 'success')::boolean then
        raise exception using errcode = 'P0001', message = answer::text;
      end if;
      quote_id := (answer #>> '{record,id}')::uuid;
    else
      execute format('delete from %I.quote_items where quote_id = $1', context.schema_name) using p_id;
    end if;
    execute format('insert into %I.quote_items (quote_id, position, product_id, description, quantity, unit, unit_price,
                                                discount_type, discount_value, vat_rate, vat_exemption_reason, withholding_rate,
                                                owner_id, created_by)
                    select $1, r.position, r.product_id, r.description, r.quantity, r.unit, r.unit_price, r.discount_type,
                           coalesce(r.discount_value, 0), r.vat_rate, r.vat_exemption_reason, r.withholding_rate, q.owner_id, $3
                      from jsonb_to_recordset($2) as r (position integer, product_id uuid, description text, quantity numeric,
                                                         unit text, unit_price numeric, discount_type text, discount_value numeric,
                                                         vat_rate numeric, vat_exemption_reason text, withholding_rate text),
                           %I.quotes q
                     where q.id = $1', context.schema_name, context.schema_name)
      using quote_id, items -> 'items', context.caller;
    if p_id is not null then
      answer := private.record_write('quotes', context, p_id, values_in, p_updated_at, true);
      if not (answer ->> 'success')::boolean then
        raise exception using errcode = 'P0001', message = answer::text;
      end if;
    end if;
    -- The quote's trigger stores the totals of its new lines on every write: the header's
    -- above, else one of updated_at.
    if p_id is null or values_in = '{}' then
      execute format('update %I.quotes q set updated_at = now() where q.id = $1
                      returning q.updated_at, q.quote_number, q.document_discount_total > q.gross_total - q.line_discount_total as too_much',
                     context.schema_name)
        into saved using quote_id;
    else
      execute format('select q.updated_at, q.quote_number, q.document_discount_total > q.gross_total - q.line_discount_total as too_much
                        from %I.quotes q where q.id = $1', context.schema_name)
        into saved using quote_id;
    end if;
    if saved.too_much then
      raise exception using errcode = 'P0001',
        message = private.quote_fields_failure('{"document_discount_value": "discount_exceeds_total"}')::text;
    end if;
  exception when sqlstate 'P0001' then
    return sqlerrm::jsonb;
  end;
  return jsonb_build_object('success', true, 'id', quote_id, 'updated_at', saved.updated_at, 'quote_number', saved.quote_number);
end;
$$;

/**
 * The totals a quote would have, nothing stored: the header and lines checked like
 * save_quote (field errors the same way) and computed by private.quote_totals with the
 * rate of the quote's date (or the entered one). Answers {success, totals, lines}.
 */
create function private.quote_preview(p_values jsonb, p_items jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'view');
  values_in jsonb := coalesce(p_values, '{}');
  prepared jsonb;
  header jsonb;
  items jsonb;
  errors jsonb := '{}';
  computed jsonb;
  found_rate record;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if jsonb_typeof(values_in) <> 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  values_in := values_in - 'status' - 'rejection_reason' - 'owner_id';
  prepared := private.prepare_record('quotes', values_in, null, context.caller, context.organization_id, context.scope);
  if prepared ? 'problem' then
    if prepared #>> '{problem,code}' <> 'invalid_fields' then
      return prepared -> 'problem';
    end if;
    errors := prepared #> '{problem,fields}';
  end if;
  header := coalesce(prepared -> 'values', '{}');
  items := private.clean_quote_items(p_items, private.quote_vat_rates(context.organization_id), context.schema_name,
                                     coalesce((header ->> 'prices_include_vat')::boolean, false));
  errors := errors || (items -> 'errors');
  if coalesce((header ->> 'exchange_rate_manual')::boolean, false) then
    select (header ->> 'exchange_rate')::numeric as rate, null::date as rate_date into found_rate;
  else
    select * into found_rate from private.quote_exchange_rate(
      context.organization_id,
      coalesce(header ->> 'currency', (select s.default_currency from private.organization_settings s
                                        where s.organization_id = context.organization_id)),
      coalesce((header ->> 'quote_date')::date, private.organization_today(context.organization_id)));
    header := header || jsonb_build_object('exchange_rate', found_rate.rate);
  end if;
  if errors = '{}' then
    computed := private.quote_totals(header, items -> 'items');
    if (computed #>> '{totals,document_discount_total}')::numeric > (computed #>> '{totals,after_line_discounts}')::numeric then
      errors := '{"document_discount_value": "discount_exceeds_total"}';
    end if;
  end if;
  if errors <> '{}' then
    return private.quote_fields_failure(errors);
  end if;
  return jsonb_build_object('success', true, 'totals', computed -> 'totals', 'lines', computed -> 'lines',
                            'exchange_rate', found_rate.rate::text, 'exchange_rate_date', found_rate.rate_date);
end;
$$;

/** A quote's status as people read it: a sent quote past its valid_until is expired even before the expiry step. */
create function private.quote_status(p_status text, p_valid_until date, p_today date)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_status = 'sent' and p_valid_until < p_today then 'expired' else p_status end;
$$;

/**
 * A quote the caller may see with what its page and its PDF need: the quote (status as
 * read: expired past valid_until; locked unless an editable draft; owner_name), its
 * lines with their computed amounts, the totals (private.quote_totals), its customer,
 * contact and deal when the caller may see them, and every revision of its number.
 */
create function private.quote_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'view');
  quote jsonb;
  items jsonb;
  computed jsonb;
  customer jsonb;
  contact jsonb;
  deal jsonb;
  revisions jsonb;
  today date;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select to_jsonb(t) from %I.quotes t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3)',
                 context.schema_name)
    into quote using p_id, context.scope, context.caller;
  if quote is null then
    return private.failure('Record not found', 'not_found');
  end if;
  today := private.organization_today(context.organization_id);
  execute format('select coalesce(jsonb_agg(to_jsonb(i) order by i.position, i.id), ''[]'') from %I.quote_items i
                   where i.quote_id = $1 and i.deleted_at is null', context.schema_name)
    into items using p_id;
  computed := private.quote_totals(quote, items);
  execute format($query$
    select (select jsonb_build_object('id', c.id, 'name', c.name, 'tax_number', c.tax_number, 'tax_office', c.tax_office,
                                      'address', c.address, 'city', c.city, 'district', c.district)
              from %1$I.customers c
             where c.id = $1 and c.deleted_at is null and ($4 = 'all' or ($4 = 'own' and c.owner_id = $7))),
           (select jsonb_build_object('id', k.id, 'name', btrim(concat_ws(' ', k.first_name, k.last_name)),
                                      'email', k.emails -> 0 ->> 'value', 'phone', k.phones -> 0 ->> 'value')
              from %1$I.contacts k
             where k.id = $2 and k.deleted_at is null and ($5 = 'all' or ($5 = 'own' and k.owner_id = $7))),
           (select jsonb_build_object('id', d.id, 'title', d.title)
              from %1$I.deals d
             where d.id = $3 and d.deleted_at is null and ($6 = 'all' or ($6 = 'own' and d.owner_id = $7))),
           (select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'revision', r.revision,
                                                         'status', private.quote_status(r.status, r.valid_until, $10),
                                                         'quote_date', r.quote_date, 'grand_total', r.grand_total::text,
                                                         'created_at', r.created_at) order by r.revision), '[]')
              from %1$I.quotes r
             where coalesce(r.root_quote_id, r.id) = $8 and r.deleted_at is null and ($9 = 'all' or r.owner_id = $7))$query$,
    context.schema_name)
    into customer, contact, deal, revisions
    using (quote ->> 'customer_id')::uuid, (quote ->> 'contact_id')::uuid, (quote ->> 'deal_id')::uuid,
          private.caller_scope('customers', 'view'), private.caller_scope('contacts', 'view'), private.caller_scope('deals', 'view'),
          context.caller, coalesce((quote ->> 'root_quote_id')::uuid, p_id), context.scope, today;
  return jsonb_build_object('success', true,
    'quote', (private.record_answer('quotes', quote) - 'gross_total' - 'line_discount_total' - 'document_discount_total' - 'net_total'
              - 'vat_total' - 'withholding_total' - 'grand_total' - 'grand_total_try')
             || jsonb_build_object(
                  'status', private.quote_status(quote ->> 'status', (quote ->> 'valid_until')::date, today),
                  'locked', quote ->> 'status' <> 'draft' or quote ->> 'superseded_by' is not null,
                  'exchange_rate', quote ->> 'exchange_rate',
                  'document_discount_value', quote ->> 'document_discount_value'),
    'items', (select coalesce(jsonb_agg(jsonb_build_object(
                'id', i.item ->> 'id', 'position', (i.item ->> 'position')::integer, 'product_id', i.item ->> 'product_id',
                'description', i.item ->> 'description', 'quantity', i.item ->> 'quantity', 'unit', i.item ->> 'unit',
                'unit_price', i.item ->> 'unit_price', 'discount_type', i.item ->> 'discount_type',
                'discount_value', i.item ->> 'discount_value', 'vat_rate', trim_scale((i.item ->> 'vat_rate')::numeric),
                'vat_exemption_reason', i.item ->> 'vat_exemption_reason', 'withholding_rate', i.item ->> 'withholding_rate')
                || (l.line - 'index') order by i.position), '[]')
                from jsonb_array_elements(items) with ordinality i (item, position)
                join jsonb_array_elements(computed -> 'lines') l (line) on (l.line ->> 'index')::integer = i.position - 1),
    'totals', computed -> 'totals',
    'customer', customer, 'contact', contact, 'deal', deal, 'revisions', revisions);
end;
$$;

/**
 * A refused step of a quote as people are told it: a refusal about the status itself with
 * that code (invalid_transition, items_required, quote_expired, quote_superseded), a missing
 * exchange rate as exchange_rate_required; any other answer as it is. Shared by the steps
 * and by whoever checks a step before taking it (a quote's e-mail, private.mail_begin_record).
 */
create function private.quote_step_failure(p_answer jsonb)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (select case
            when p_answer ->> 'code' = 'invalid_fields' and p_answer #>> '{fields,status}' is not null then
              private.failure('The quote cannot take this step', p_answer #>> '{fields,status}', jsonb_build_object('fields', p_answer -> 'fields'))
            when p_answer ->> 'code' = 'invalid_fields' and p_answer #>> '{fields,exchange_rate}' = 'required' then
              private.failure('The quote needs an exchange rate', 'exchange_rate_required', jsonb_build_object('fields', p_answer -> 'fields'))
            else p_answer end);
end;
$$;

/**
 * Changes a quote's status through the record engine (scope edit, stale check against
 * p_updated_at, private.prepare_quote's workflow, field history, audit). A refusal about
 * the status itself answers with that code (invalid_transition, items_required,
 * quote_expired, quote_superseded); other field errors stay invalid_fields.
 */
create function private.quote_transition(p_id uuid, p_updated_at timestamptz, p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'edit');
  answer jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  answer := private.record_write('quotes', context, p_id, p_values, p_updated_at, true);
  if not (answer ->> 'success')::boolean then
    return private.quote_step_failure(answer);
  end if;
  return jsonb_build_object('success', true, 'id', p_id, 'status', answer #>> '{record,status}',
                            'updated_at', answer #>> '{record,updated_at}');
end;
$$;

/**
 * Accepts a sent quote; with p_mark_deal_won its deal moves to the pipeline's first won
 * stage through private.deal_move (the deal rules, its stale check against the deal as
 * just read, history and audit). When the caller may not edit that deal (or the move is
 * refused) nothing changes: deal_not_updated with the deal's answer in "deal".
 */
create function private.quote_accept(p_id uuid, p_updated_at timestamptz, p_mark_deal_won boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  answer jsonb;
  moved jsonb;
  tenant text;
  deal uuid;
  deal_updated timestamptz;
  won text;
begin
  answer := private.quote_transition(p_id, p_updated_at, '{"status": "accepted"}');
  if not (answer ->> 'success')::boolean or not coalesce(p_mark_deal_won, false) then
    return answer;
  end if;
  tenant := private.tenant_schema(private.current_organization_id());
  execute format('select q.deal_id, d.updated_at from %I.quotes q join %I.deals d on d.id = q.deal_id and d.deleted_at is null
                   where q.id = $1', tenant, tenant)
    into deal, deal_updated using p_id;
  if deal is null then
    return answer || '{"deal_won": false}';
  end if;
  select stage ->> 'key' into won
    from private.organization_settings s, jsonb_array_elements(s.deal_stages) stage
   where s.organization_id = private.current_organization_id() and stage ->> 'outcome' = 'won' limit 1;
  moved := private.deal_move(deal, won, deal_updated, null);
  if won is null or not coalesce((moved ->> 'success')::boolean, false) then
    -- The quote's acceptance goes back too: nothing changes.
    raise exception using errcode = 'P0001',
      message = private.failure('The deal could not be marked won', 'deal_not_updated', jsonb_build_object('deal', moved))::text;
  end if;
  return answer || jsonb_build_object('deal_won', true, 'deal_id', deal);
exception when sqlstate 'P0001' then
  return sqlerrm::jsonb;
end;
$$;

/**
 * A new draft revision of a sent, rejected or expired quote the caller may edit (needs
 * create rights too): the same number, the next revision, header (with the
 * organization's custom fields) and lines copied, dated today with a fresh validity and rate; the old quote stays as history, superseded
 * by the new one. Answers {success, id}.
 */
create function private.quote_revise(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'edit');
  may_create boolean := private.caller_scope('quotes', 'create') is not null;
  source jsonb;
  today date;
  new_id uuid;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if not may_create then
    return private.refusal('permission_denied');
  end if;
  execute format('select to_jsonb(t) from %I.quotes t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 context.schema_name)
    into source using p_id, context.scope, context.caller;
  if source is null then
    return private.failure('Record not found', 'not_found');
  end if;
  if source ->> 'superseded_by' is not null then
    return private.failure('The quote already has a newer revision', 'quote_superseded');
  end if;
  if source ->> 'status' not in ('sent', 'rejected', 'expired') then
    return private.failure('Only a sent, rejected or expired quote is revised', 'invalid_transition');
  end if;
  today := private.organization_today(context.organization_id);
  execute format($query$
    insert into %1$I.quotes (quote_number, revision, root_quote_id, customer_id, contact_id, deal_id, quote_date, valid_until,
                             currency, exchange_rate, exchange_rate_manual, prices_include_vat, document_discount_type,
                             document_discount_value, payment_terms, notes, owner_id, created_by%2$s)
    select q.quote_number, (select max(r.revision) + 1 from %1$I.quotes r where coalesce(r.root_quote_id, r.id) = coalesce(q.root_quote_id, q.id)),
           coalesce(q.root_quote_id, q.id), q.customer_id, q.contact_id, q.deal_id, $2,
           $2 + (select s.quote_validity_days from private.organization_settings s where s.organization_id = $3),
           q.currency, case when q.exchange_rate_manual then q.exchange_rate end, q.exchange_rate_manual, q.prices_include_vat,
           q.document_discount_type, q.document_discount_value, q.payment_terms, q.notes, q.owner_id, $4%3$s
      from %1$I.quotes q where q.id = $1
    returning id$query$, context.schema_name, private.custom_columns_sql(context.organization_id, 'quotes'),
    private.custom_columns_sql(context.organization_id, 'quotes', 'q'))
    into new_id using p_id, today, context.organization_id, context.caller;
  execute format('insert into %1$I.quote_items (quote_id, position, product_id, description, quantity, unit, unit_price, discount_type,
                                                discount_value, vat_rate, vat_exemption_reason, withholding_rate, owner_id, created_by)
                  select $2, i.position, i.product_id, i.description, i.quantity, i.unit, i.unit_price, i.discount_type,
                         i.discount_value, i.vat_rate, i.vat_exemption_reason, i.withholding_rate, i.owner_id, $3
                    from %1$I.quote_items i where i.quote_id = $1 and i.deleted_at is null', context.schema_name)
    using p_id, new_id, context.caller;
  -- The totals follow the copied lines; the old quote is history.
  execute format('update %1$I.quotes q set updated_at = now() where q.id = $1', context.schema_name) using new_id;
  execute format('update %1$I.quotes q set superseded_by = $2 where q.id = $1', context.schema_name) using p_id, new_id;
  execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                  values (''quote'', $1, ''superseded_by'', ''null'', to_jsonb($2), $3)', context.schema_name)
    using p_id, new_id, context.caller;
  perform private.write_audit(context.organization_id, 'quotes.create', 'quotes', new_id::text, jsonb_build_object('revision_of', p_id));
  perform private.write_audit(context.organization_id, 'quotes.revise', 'quotes', p_id::text, jsonb_build_object('revision', new_id));
  return jsonb_build_object('success', true, 'id', new_id);
end;
$$;

/**
 * The scheduled expiry in one organization (hourly, in each organization:
 * private.scheduled_jobs): sent quotes whose valid_until is before today (in the
 * organization's time zone) become expired. Returns how many; none for an organization
 * without its tables.
 */
create function private.expire_quotes(p_organization_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  schema_name text := private.tenant_schema(p_organization_id);
  changed integer;
begin
  if schema_name is null or to_regclass(format('%I.quotes', schema_name)) is null then
    return 0;
  end if;
  execute format('update %I.quotes q set status = ''expired'' where q.status = ''sent'' and q.deleted_at is null and q.valid_until < $1',
                 schema_name)
    using private.organization_today(p_organization_id);
  get diagnostics changed = row_count;
  return changed;
end;
$$;

-- Hourly, at minute 7 (private.scheduled_jobs).
insert into private.scheduled_jobs (name, schedule, function_name, in_each_organization)
values ('crm-expire-quotes', '7 * * * *', 'expire_quotes', true);

/** A product as the app reads it (money as strings). */
create function private.product_json(p_row jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('id', p_row -> 'id', 'name', p_row -> 'name', 'unit', p_row -> 'unit',
                            'unit_price', p_row ->> 'unit_price', 'currency', p_row -> 'currency',
                            'vat_rate', trim_scale((p_row ->> 'vat_rate')::numeric), 'description', p_row -> 'description',
                            'active', p_row -> 'active', 'updated_at', p_row -> 'updated_at');
$$;

/**
 * The organization's products (anyone who may view quotes): active ones unless
 * p_include_inactive, matching p_search (Turkish-folded, in the name), by name, at most 500.
 */
create function private.product_list(p_search text, p_include_inactive boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'view');
  folded text := private.fold_search(btrim(coalesce(p_search, '')));
  products jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select coalesce(jsonb_agg(private.product_json(to_jsonb(p)) order by private.turkish_sort_key(p.name) collate "C", p.id), ''[]'')
                    from (select * from %I.products p
                           where p.deleted_at is null and ($1 or p.active)
                             and ($2 = '''' or private.fold_search(p.name) like ''%%'' || $2 || ''%%'')
                           order by private.turkish_sort_key(p.name) collate "C", p.id limit 500) p', context.schema_name)
    into products using coalesce(p_include_inactive, false),
                        replace(replace(replace(folded, '\', '\\'), '%', '\%'), '_', '\_');
  return jsonb_build_object('success', true, 'products', products);
end;
$$;

/** The products' guard: quotes edit with scope all (admins and managers by default). */
create function private.product_context()
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'edit');
begin
  if context.problem is null and context.scope <> 'all' then
    context.problem := private.refusal('permission_denied');
  end if;
  return context;
end;
$$;

/**
 * Creates (p_id null) or changes a product by the rules of private.prepare_product. A
 * change needs p_updated_at as read (stale_record). Audited.
 */
create function private.product_save(p_id uuid, p_values jsonb, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.product_context();
  existing jsonb;
  prepared jsonb;
  clean jsonb;
  key text;
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if jsonb_typeof(p_values) is distinct from 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  select k into key from jsonb_object_keys(p_values) k
   where k not in ('name', 'unit', 'unit_price', 'currency', 'vat_rate', 'description', 'active') limit 1;
  if key is not null then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(left(key, 63), 'unknown_field')));
  end if;
  if p_id is not null then
    execute format('select to_jsonb(p) from %I.products p where p.id = $1 and p.deleted_at is null for update', context.schema_name)
      into existing using p_id;
    if existing is null then
      return private.failure('Record not found', 'not_found');
    end if;
    if p_updated_at is null or (existing ->> 'updated_at')::timestamptz <> p_updated_at then
      return private.failure('The record was changed by someone else', 'stale_record',
                             jsonb_build_object('record', private.product_json(existing)));
    end if;
  end if;

  prepared := private.prepare_product(p_values, existing);
  if prepared -> 'errors' <> '{}' then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', prepared -> 'errors'));
  end if;
  clean := prepared -> 'values';

  if p_id is null then
    clean := clean || jsonb_build_object('owner_id', context.caller, 'created_by', context.caller);
    execute format('insert into %1$I.products as p (%2$s) select %3$s from jsonb_populate_record(null::%1$I.products, $1) r returning to_jsonb(p)',
                   context.schema_name,
                   (select string_agg(format('%I', k), ', ') from jsonb_object_keys(clean) k),
                   (select string_agg(format('r.%I', k), ', ') from jsonb_object_keys(clean) k))
      into saved using clean;
    perform private.write_audit(context.organization_id, 'products.create', 'products', saved ->> 'id');
  elsif clean <> '{}' then
    execute format('update %1$I.products as p set (%2$s) = (select %3$s from jsonb_populate_record(null::%1$I.products, $1) r)
                     where p.id = $2 returning to_jsonb(p)',
                   context.schema_name,
                   (select string_agg(format('%I', k), ', ') from jsonb_object_keys(clean) k),
                   (select string_agg(format('r.%I', k), ', ') from jsonb_object_keys(clean) k))
      into saved using clean, p_id;
    perform private.write_audit(context.organization_id, 'products.update', 'products', p_id::text,
                                jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(clean) k)));
  else
    saved := existing;
  end if;
  return jsonb_build_object('success', true, 'product', private.product_json(saved));
end;
$$;

/** Makes a product active or inactive (inactive ones stay on old quotes but are not offered). Audited. */
create function private.product_set_active(p_id uuid, p_active boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.product_context();
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_active is null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  execute format('update %I.products p set active = $2 where p.id = $1 and p.deleted_at is null returning to_jsonb(p)', context.schema_name)
    into saved using p_id, p_active;
  if saved is null then
    return private.failure('Record not found', 'not_found');
  end if;
  perform private.write_audit(context.organization_id, case when p_active then 'products.activate' else 'products.deactivate' end,
                              'products', p_id::text);
  return jsonb_build_object('success', true, 'product', private.product_json(saved));
end;
$$;

/** Saves a quote with all its lines (p_id null creates a draft with its number; p_updated_at as read). */
create function public.save_quote(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamptz default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_save(p_id, p_values, p_items, p_updated_at); $$;
revoke all on function public.save_quote(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.save_quote(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamp with time zone) to authenticated;

/** A quote's totals computed by the database from a header and lines being edited; nothing stored. */
create function public.preview_quote_totals(p_values jsonb, p_items jsonb)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.quote_preview(p_values, p_items); $$;
revoke all on function public.preview_quote_totals(p_values jsonb, p_items jsonb) from public, anon, authenticated;
grant execute on function public.preview_quote_totals(p_values jsonb, p_items jsonb) to authenticated;

/** A quote with its lines, totals, customer, contact, deal and revisions. */
create function public.get_quote_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.quote_details(p_id); $$;
revoke all on function public.get_quote_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_quote_details(p_id uuid) to authenticated;

/** Sends a draft quote (its exchange rate is frozen from then on). */
create function public.send_quote(p_id uuid, p_updated_at timestamptz)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_transition(p_id, p_updated_at, '{"status": "sent"}'); $$;
revoke all on function public.send_quote(p_id uuid, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.send_quote(p_id uuid, p_updated_at timestamp with time zone) to authenticated;

/** Accepts a sent quote; with p_mark_deal_won its deal moves to the won stage too (or nothing changes). */
create function public.accept_quote(p_id uuid, p_updated_at timestamptz, p_mark_deal_won boolean default false)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_accept(p_id, p_updated_at, p_mark_deal_won); $$;
revoke all on function public.accept_quote(p_id uuid, p_updated_at timestamp with time zone, p_mark_deal_won boolean) from public, anon, authenticated;
grant execute on function public.accept_quote(p_id uuid, p_updated_at timestamp with time zone, p_mark_deal_won boolean) to authenticated;

/** Rejects a sent quote with a reason. */
create function public.reject_quote(p_id uuid, p_updated_at timestamptz, p_reason text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_transition(p_id, p_updated_at, jsonb_build_object('status', 'rejected', 'rejection_reason', p_reason)); $$;
revoke all on function public.reject_quote(p_id uuid, p_updated_at timestamp with time zone, p_reason text) from public, anon, authenticated;
grant execute on function public.reject_quote(p_id uuid, p_updated_at timestamp with time zone, p_reason text) to authenticated;

/** A new draft revision of a sent, rejected or expired quote; the old one stays as history. */
create function public.revise_quote(p_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_revise(p_id); $$;
revoke all on function public.revise_quote(p_id uuid) from public, anon, authenticated;
grant execute on function public.revise_quote(p_id uuid) to authenticated;

/** The organization's products for quote lines (active ones unless p_include_inactive). */
create function public.list_products(p_search text default null, p_include_inactive boolean default false)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.product_list(p_search, p_include_inactive); $$;
revoke all on function public.list_products(p_search text, p_include_inactive boolean) from public, anon, authenticated;
grant execute on function public.list_products(p_search text, p_include_inactive boolean) to authenticated;

/** Creates (p_id null) or changes a product (p_updated_at as read). */
create function public.save_product(p_id uuid, p_values jsonb, p_updated_at timestamptz default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.product_save(p_id, p_values, p_updated_at); $$;
revoke all on function public.save_product(p_id uuid, p_values jsonb, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.save_product(p_id uuid, p_values jsonb, p_updated_at timestamp with time zone) to authenticated;

/** Makes a product active or inactive. */
create function public.set_product_active(p_id uuid, p_active boolean)
returns jsonb language sql security definer set search_path = ''
as $$ select private.product_set_active(p_id, p_active); $$;
revoke all on function public.set_product_active(p_id uuid, p_active boolean) from public, anon, authenticated;
grant execute on function public.set_product_active(p_id uuid, p_active boolean) to authenticated;

/**
 * A product's rules: name (1-200, required on a new product), unit (20), unit_price ≥ 0
 * (4 decimals), currency (three letters, the organization's by default), vat_rate one of
 * the quote rates (invalid_vat_rate), description (2000), active (a boolean). Returns
 * {"values": the cleaned values given, "errors": {field: code}}; other keys are dropped.
 */
create function private.prepare_product(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  texts jsonb := private.clean_text_fields(p_values, '{name,unit,currency,description}');
  errors jsonb := texts -> 'errors';
  clean jsonb := texts -> 'values';
  number_value numeric;
begin
  if (p_existing is null or p_values ? 'name') and not errors ? 'name' then
    if clean ->> 'name' is null then
      errors := errors || '{"name": "required"}';
    elsif char_length(clean ->> 'name') > 200 then
      errors := errors || '{"name": "too_long"}';
    end if;
  end if;
  if char_length(clean ->> 'unit') > 20 then
    errors := errors || '{"unit": "too_long"}';
  end if;
  if char_length(clean ->> 'description') > 2000 then
    errors := errors || '{"description": "too_long"}';
  end if;
  if p_values ? 'currency' and not errors ? 'currency' then
    if coalesce(upper(clean ->> 'currency'), '') !~ '^[A-Z]{3}$' then
      errors := errors || '{"currency": "invalid"}';
    else
      clean := clean || jsonb_build_object('currency', upper(clean ->> 'currency'));
    end if;
  elsif p_existing is null then
    clean := clean || jsonb_build_object('currency', (select s.default_currency from private.organization_settings s
                                                       where s.organization_id = target_org));
  end if;
  if p_values ? 'unit_price' then
    number_value := private.json_numeric(p_values -> 'unit_price');
    if number_value is null or number_value < 0 or number_value >= 1000000000000 or scale(number_value) > 4 then
      errors := errors || '{"unit_price": "invalid"}';
    else
      clean := clean || jsonb_build_object('unit_price', number_value);
    end if;
  end if;
  if p_values ? 'vat_rate' then
    number_value := private.json_numeric(p_values -> 'vat_rate');
    if number_value is null or not (number_value = any (private.quote_vat_rates(target_org))) then
      errors := errors || '{"vat_rate": "invalid_vat_rate"}';
    else
      clean := clean || jsonb_build_object('vat_rate', number_value);
    end if;
  end if;
  if p_values ? 'active' then
    if jsonb_typeof(p_values -> 'active') <> 'boolean' then
      errors := errors || '{"active": "invalid"}';
    else
      clean := clean || jsonb_build_object('active', p_values -> 'active');
    end if;
  end if;
  return jsonb_build_object('values', clean, 'errors', errors);
end;
$$;
