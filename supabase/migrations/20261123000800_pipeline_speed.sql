-- Pipeline speed (issue 12's goal: p95 <= 100 ms with 200,000 deals and 500,000 tasks in
-- one organization, on PostgreSQL 15). Measured on a database filled like scripts/bench.ts:
-- * The forecast read every open deal of its months (100,000 of 200,000) and asked the
--   pipeline for each one's stage probability (private.deal_stage per row): 420-500 ms a
--   call in the database alone. Template v5 keeps deal_forecast_totals per month of
--   expected close, owner, stage and currency (count, amount, the weighted amount of deals
--   with a probability of their own, the amount of those without), exact through
--   statement triggers like deal_stage_totals. The stage's probability is applied when the
--   forecast is read, so a pipeline change in the settings needs no rewrite of the totals.
-- * The board took each stage's cards by walking the updated_at index of all deals and
--   filtering by stage: fast while the newest deals are spread over the stages, but a
--   stage of 10 deals read all 200,000 (230 ms) and, after a bulk move into one stage,
--   every other stage read the 33,000 moved deals first. Each stage's cards are now their
--   own query that only the board indexes (stage, or owner and stage, then updated_at and
--   id) can answer in order, and the answer is built once as json and converted once.
-- * The dashboard counted the caller's open and overdue tasks (100,000 and 16,000 in the
--   bench): index-only while the table was freshly vacuumed, but the due-items step marks
--   overdue tasks every minute, the visibility map goes, and the counts read the table
--   (540 ms and 280 ms measured in the bench's own database). Template v5 keeps
--   task_due_totals per owner, state and UTC day of due time; the overdue count adds the
--   earlier days' rows and counts only today's tasks already due. Its next tasks walked the
--   due-date index of all tasks filtering by owner and state (8,000 rows for 2 in-progress
--   tasks); the index (owner, state, due, id) gives them at once. The scopes are looked up
--   once per call instead of once per module, and caller_scope's plan is kept.

-- ---------------------------------------------------------------------------------
-- Forecast totals, kept by triggers
-- ---------------------------------------------------------------------------------

/**
 * Trigger (after insert, update and delete on deals, per statement, with the transition
 * tables new_deals and old_deals; template v5): deal_forecast_totals follows every change
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

/** Trigger (after truncate on deals; template v5): the forecast's totals empty too. */
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

-- ---------------------------------------------------------------------------------
-- An owner's open tasks per day of due time, kept by triggers
-- ---------------------------------------------------------------------------------

/**
 * Trigger (after insert, update and delete on tasks, per statement, with the transition
 * tables new_tasks and old_tasks; template v5): task_due_totals counts the live open and
 * in-progress tasks per owner, state and UTC day of due time ('infinity': none) through
 * every change of a task's owner, state, due time or deletion.
 */
create function private.task_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  counted constant text := 'deleted_at is null and status in (''open'', ''in_progress'')';
  changes text := case tg_op
    when 'INSERT' then format('select owner_id, status, due_at, 1 as n from new_tasks where %s', counted)
    when 'UPDATE' then format('select owner_id, status, due_at, 1 as n from new_tasks where %1$s
                               union all select owner_id, status, due_at, -1 from old_tasks where %1$s', counted)
    else format('select owner_id, status, due_at, -1 as n from old_tasks where %s', counted) end;
begin
  -- In key order, so that concurrent writers lock the totals rows in the same order.
  execute format($query$
    insert into %I.task_due_totals as s (owner_id, status, due_day, task_count)
    select c.owner_id, c.status, coalesce((c.due_at at time zone 'UTC')::date, 'infinity'::date), sum(c.n)
      from (%s) c
     group by 1, 2, 3
    having sum(c.n) <> 0
     order by 1, 2, 3
    on conflict (owner_id, status, due_day) do update set task_count = s.task_count + excluded.task_count$query$,
    tg_table_schema, changes);
  return null;
end;
$$;

/** Trigger (after truncate on tasks; template v5): the tasks' totals empty too. */
create function private.task_after_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  execute format('delete from %I.task_due_totals', tg_table_schema);
  return null;
end;
$$;

-- ---------------------------------------------------------------------------------
-- Template v5: forecast totals; my tasks in due order from one index
-- ---------------------------------------------------------------------------------

insert into private.tenant_template_steps (version, description, ddl) values (5,
'Forecast totals per month of expected close, owner, stage and currency; open tasks per owner, state and day of due time; an owner''s tasks by state in due order from one index',
$template$
-- The forecast's counts and sums of live deals with an expected close, kept by the
-- triggers below (summing 100,000 open deals on every forecast would not be fast).
create table deal_forecast_totals (
  -- The first day of the month of expected close.
  month date not null,
  owner_id uuid not null,
  stage text not null,
  currency text not null,
  deal_count bigint not null default 0,
  amount numeric not null default 0,
  -- Σ amount × probability / 100 of the deals with a probability of their own.
  weighted numeric not null default 0,
  -- Σ amount of the deals without one: their stage's probability applies when read.
  default_amount numeric not null default 0,
  primary key (month, owner_id, stage, currency)
);
insert into deal_forecast_totals (month, owner_id, stage, currency, deal_count, amount, weighted, default_amount)
select date_trunc('month', expected_close_date::timestamp)::date, owner_id, stage, currency, count(*), sum(amount),
       coalesce(sum(amount * probability * 0.01), 0), coalesce(sum(amount) filter (where probability is null), 0)
  from deals
 where deleted_at is null and expected_close_date is not null
 group by 1, owner_id, stage, currency;

create trigger forecast_after_insert after insert on deals
  referencing new table as new_deals
  for each statement execute function private.deal_forecast_after_write();
create trigger forecast_after_update after update on deals
  referencing old table as old_deals new table as new_deals
  for each statement execute function private.deal_forecast_after_write();
create trigger forecast_after_delete after delete on deals
  referencing old table as old_deals
  for each statement execute function private.deal_forecast_after_write();
create trigger forecast_after_truncate after truncate on deals
  for each statement execute function private.deal_forecast_after_truncate();

-- The live open and in-progress tasks per owner, state and UTC day of due time
-- ('infinity': none), kept by the triggers below: the dashboard's open and overdue counts
-- add a few rows instead of counting an owner's tasks (100,000 in the bench), which the
-- due-items step keeps touching, so that even an index-only count read the table.
create table task_due_totals (
  owner_id uuid not null,
  status private.task_status not null,
  due_day date not null,
  task_count bigint not null default 0,
  primary key (owner_id, status, due_day)
);
insert into task_due_totals (owner_id, status, due_day, task_count)
select owner_id, status, coalesce((due_at at time zone 'UTC')::date, 'infinity'::date), count(*)
  from tasks
 where deleted_at is null and status in ('open', 'in_progress')
 group by 1, 2, 3;

create trigger totals_after_insert after insert on tasks
  referencing new table as new_tasks
  for each statement execute function private.task_after_write();
create trigger totals_after_update after update on tasks
  referencing old table as old_tasks new table as new_tasks
  for each statement execute function private.task_after_write();
create trigger totals_after_delete after delete on tasks
  referencing old table as old_tasks
  for each statement execute function private.task_after_write();
create trigger totals_after_truncate after truncate on tasks
  for each statement execute function private.task_after_truncate();

-- An owner's open and in-progress tasks in due order (the dashboard's next five read five
-- rows, and the tasks falling due earlier today); replaces the index without id.
create index tasks_owner_status_due_id_idx on tasks (owner_id, status, due_at, id) where deleted_at is null;
drop index tasks_owner_status_due_idx;
$template$);

-- ---------------------------------------------------------------------------------
-- The forecast from its totals
-- ---------------------------------------------------------------------------------

/**
 * The weighted forecast: open deals the caller may see (p_owner: one owner's) by month of
 * expected close, from the organization's current month for p_months months (1-24):
 * amount and amount × probability / 100 (a deal's own probability, else its stage's in
 * the pipeline now), converted to the default currency with the organization's exchange
 * rates, in total and per owner. Deals in a currency without a rate are reported per
 * currency, unconverted (in "unconverted"), never summed. Read from deal_forecast_totals
 * (template v5): a few hundred rows, whatever the number of deals.
 */
create or replace function private.deal_forecast(p_months integer, p_owner uuid)
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
 * One forecast summary of grouped open deals ([{currency, month, count, amount, weighted,
 * rate}], rate null when the currency has none): count, amount and weighted amount
 * converted to the organization's currency, per month of p_months, and the deals in a
 * currency without a rate per currency, unconverted.
 * PL/pgSQL, so that its plan is kept for the session: as an SQL function it was planned
 * again on every call (1.9 ms; the forecast calls it once, then once per owner).
 */
create or replace function private.deal_forecast_summary(p_groups jsonb, p_months text[])
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

-- ---------------------------------------------------------------------------------
-- The board: each stage's cards from its own index range, the answer built once
-- ---------------------------------------------------------------------------------

/**
 * The query of some stages' cards: one row (key, cards as a json array, null for none)
 * per stage of p_stages, each stage its own query, so that the board indexes (stage, or
 * owner and stage, then updated_at and id) give the page at once whatever the stage's
 * size. The stage is a range of one key and leads the order: as an equality the planner
 * dropped it from the order and walked the updated_at index of all deals instead, reading
 * every deal changed since the stage's last one (33,000 after a bulk move; all 200,000
 * for a stage of 10 deals). Parameters as private.deal_board_cards passes them: $1 scope,
 * $2 caller, $3 owners, $4 customers, $5 pattern, $7 offset, $8 limit, $9 the caller's
 * scope of customers; p_condition from private.deal_board_condition.
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
               order by t.stage, t.updated_at desc, t.id desc
               offset $7 limit $8) d
        left join %2$I.customers cu on cu.id = d.customer_id
        left join private.profiles p on p.id = d.owner_id) as cards$query$, s.key, p_schema, p_condition),
    ' union all ' order by s.position), 'select null::text as key, null::json as cards where false')
    from unnest(p_stages) with ordinality s (key, position);
$$;

/**
 * The cards of some stages as {stage key: [cards]}: p_limit deals from p_offset per stage,
 * most recently changed first, each with its customer's name (when the caller may see
 * that customer) and its owner's name.
 */
create or replace function private.deal_board_cards(p_context private.module_context, p_filters jsonb, p_stages text[],
                                                    p_offset integer, p_limit integer)
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
          p_stages, p_offset, p_limit, private.caller_scope('customers', 'view');
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
create or replace function private.deal_board(p_filters jsonb, p_per_stage integer)
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
                 'cards', coalesce(c.cards, '[]'::json)) order by k.position)
          from unnest($6::text[]) with ordinality k (key, position)
          cross join lateral (select private.deal_stage($12, k.key) as st) stage
          left join (%s) c on c.key = k.key))::jsonb$query$,
    private.deal_board_cards_query(context.schema_name, private.deal_board_condition(filters), stage_keys))
    into answer
    using context.scope, context.caller, private.uuid_array(filters -> 'owners'), private.uuid_array(filters -> 'customers'),
          filters ->> 'pattern', stage_keys, 0, least(greatest(coalesce(p_per_stage, 50), 0), 200),
          private.caller_scope('customers', 'view'), settings.default_currency, groups, settings.deal_stages;
  return answer;
end;
$$;

-- ---------------------------------------------------------------------------------
-- Scopes: looked up at a fraction of the cost, and once for every module
-- ---------------------------------------------------------------------------------

/**
 * What the caller may do in a module of their session's organization: 'all' records,
 * 'own' records, or null (not allowed). Admins and super admins may do everything.
 * PL/pgSQL around the same query, so that its plan is kept for the session: as an SQL
 * function it was planned again on every call (1-1.5 ms, on every module request).
 */
create or replace function private.caller_scope(p_module text, p_action text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- The session's organization is looked up once: this runs on every module request.
  return (
    select case
      when bound.organization_id is null then null
      when private.is_admin_of(auth.uid(), bound.organization_id) then 'all'
      else (select rp.scope
              from private.memberships m
              join private.role_permissions rp on rp.organization_id = m.organization_id and rp.role_key = m.role
             where m.user_id = auth.uid() and m.organization_id = bound.organization_id
               and m.is_active and rp.module = p_module and rp.action = p_action)
    end
      from (select private.current_organization_id() as organization_id) as bound);
end;
$$;

/**
 * private.caller_scope for every module of the registry at once: one row (module, scope)
 * per module, scope 'all', 'own' or null by the same rules, with the session's
 * organization and the caller's admin rights looked up once for all of them (the
 * dashboard asked seven times). Keep in step with private.caller_scope.
 */
create function private.caller_scopes(p_action text)
returns table (module text, scope text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  bound uuid := private.current_organization_id();
  is_admin boolean := bound is not null and private.is_admin_of(auth.uid(), bound);
begin
  return query
    select m.key,
           case
             when bound is null then null
             when is_admin then 'all'
             else (select rp.scope
                     from private.memberships ms
                     join private.role_permissions rp on rp.organization_id = ms.organization_id and rp.role_key = ms.role
                    where ms.user_id = auth.uid() and ms.organization_id = bound
                      and ms.is_active and rp.module = m.key and rp.action = p_action)
           end
      from private.modules m;
end;
$$;

-- ---------------------------------------------------------------------------------
-- The home dashboard: fewer lookups
-- ---------------------------------------------------------------------------------

/**
 * The 10 latest audit entries about records the caller owns (not deleted) in the modules
 * they may view: among their 10 most recently changed records per module, and the
 * records of theirs the organization's latest 300 entries name (a note does not change
 * its record). [{action, module, record_id, title, actor_id, actor_name, at}]. The modules
 * the caller may view come from one scope lookup (private.caller_scopes).
 */
create or replace function private.recent_activity(p_organization_id uuid, p_schema text, p_caller uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  module record;
  latest jsonb;
  found jsonb;
  candidates jsonb := '[]';
begin
  select coalesce(jsonb_agg(jsonb_build_object('module', a.target_type, 'id', a.target_id)), '[]') into latest
    from (select l.target_type, l.target_id from private.audit_log l
           where l.organization_id = p_organization_id order by l.created_at desc limit 300) a
   where a.target_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  for module in
    select m.key, m.table_name from private.modules m
      join private.caller_scopes('view') s on s.module = m.key
     where s.scope is not null order by m.position
  loop
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('module', $3, 'id', t.id, 'title', private.record_title($3, to_jsonb(t)))), '[]')
        from %1$I.%2$I t
       where t.id in (select mine.id from (select r.id from %1$I.%2$I r where r.owner_id = $1 and r.deleted_at is null
                                            order by r.updated_at desc limit 10) mine
                      union
                      select (e ->> 'id')::uuid from jsonb_array_elements($2) e where e ->> 'module' = $3)
         and t.owner_id = $1 and t.deleted_at is null$query$,
      p_schema, module.table_name)
      into found using p_caller, latest, module.key;
    candidates := candidates || found;
  end loop;

  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'action', substr(a.action, char_length(a.target_type) + 2), 'module', a.target_type,
             'record_id', a.target_id::uuid, 'title', a.title, 'actor_id', a.actor_id,
             'actor_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                              from private.profiles p where p.id = a.actor_id),
             'at', a.created_at) order by a.created_at desc, a.id desc), '[]')
      from (select l.*, c.title from jsonb_to_recordset(candidates) as c (module text, id uuid, title text)
              cross join lateral (select * from private.audit_log l
                                   where l.organization_id = p_organization_id and l.target_type = c.module
                                     and l.target_id = c.id::text and l.action like c.module || '.%'
                                   order by l.created_at desc limit 10) l
             order by l.created_at desc, l.id desc limit 10) a);
end;
$$;

/**
 * The signed-in member's home dashboard in their session's organization, within their
 * view scope of deals and tasks (a module they may not view is null):
 * pipeline: the open stages in order [{key, name, probability, count, totals: [{currency,
 *   amount}], amount (converted), unconverted: [currency]}];
 * won, lost: {month, quarter} each {count, totals, amount, unconverted}, by closed_at,
 *   month and quarter in the organization's time zone;
 * tasks: my open and overdue counts and my next 5 open tasks [{id, title, due_at,
 *   priority, status}] (soonest due first, undated last);
 * recent_activity: the 10 latest audit entries about records I own.
 * {success, currency, time_zone, deals_scope, tasks_scope, pipeline, won, lost, tasks, recent_activity}.
 * The session's organization and the caller's scopes are looked up once each; my open
 * and overdue counts add the rows of task_due_totals (template v5), the overdue ones those
 * of earlier UTC days and the tasks of today already due.
 */
create or replace function public.get_dashboard()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.notification_problem();
  caller uuid := auth.uid();
  target_org uuid := private.current_organization_id();
  tenant text := private.tenant_schema(target_org);
  settings private.organization_settings;
  deals_scope text;
  tasks_scope text;
  month_start timestamptz;
  quarter_start timestamptz;
  open_keys text[];
  won_keys text[];
  lost_keys text[];
  groups jsonb;
  closed jsonb;
  pipeline jsonb;
  won jsonb;
  lost jsonb;
  tasks jsonb;
begin
  if problem is not null then
    return problem;
  end if;
  if tenant is null then
    return private.failure('Required tables not found', 'tables_not_found');
  end if;
  select max(s.scope) filter (where s.module = 'deals'), max(s.scope) filter (where s.module = 'tasks')
    into deals_scope, tasks_scope
    from private.caller_scopes('view') s;
  select * into settings from private.organization_settings s where s.organization_id = target_org;
  month_start := date_trunc('month', now() at time zone settings.time_zone) at time zone settings.time_zone;
  quarter_start := date_trunc('quarter', now() at time zone settings.time_zone) at time zone settings.time_zone;

  if deals_scope is not null then
    open_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'open');
    won_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'won');
    lost_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'lost');
    -- The board's totals, kept per owner, stage and currency (deal_stage_totals, template v3).
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total)), '[]')
        from (select t.stage, t.currency, sum(t.deal_count) as n, sum(t.amount) as total
                from %I.deal_stage_totals t
               where ($1 = 'all' or t.owner_id = $2) and t.stage = any ($3)
               group by t.stage, t.currency having sum(t.deal_count) > 0) g$query$, tenant)
      into groups using deals_scope, caller, open_keys;
    pipeline := (
      select jsonb_agg(jsonb_build_object('key', s ->> 'key', 'name', s ->> 'name', 'probability', s -> 'probability')
                       || private.money_summary((select jsonb_agg(g) from jsonb_array_elements(groups) g
                                                  where g ->> 'stage' = s ->> 'key'),
                                                settings.default_currency, settings.exchange_rates)
                       order by n)
        from jsonb_array_elements(settings.deal_stages) with ordinality e (s, n)
       where s ->> 'outcome' = 'open');

    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total,
                                                   'month_count', g.month_n, 'month_amount', g.month_total)), '[]')
        from (select t.stage, t.currency, count(*) as n, sum(t.amount) as total,
                     count(*) filter (where t.closed_at >= $5) as month_n,
                     coalesce(sum(t.amount) filter (where t.closed_at >= $5), 0) as month_total
                from %I.deals t
               where t.deleted_at is null and t.closed_at is not null and t.closed_at >= $4
                 and ($1 = 'all' or t.owner_id = $2) and t.stage = any ($3)
               group by t.stage, t.currency) g$query$, tenant)
      into closed using deals_scope, caller, won_keys || lost_keys, quarter_start, month_start;
    won := jsonb_build_object(
      'month', private.money_summary((select jsonb_agg(jsonb_build_object('currency', c ->> 'currency', 'count', c -> 'month_count',
                                                                          'amount', c -> 'month_amount'))
                                        from jsonb_array_elements(closed) c where c ->> 'stage' = any (won_keys) and (c ->> 'month_count')::int > 0),
                                     settings.default_currency, settings.exchange_rates),
      'quarter', private.money_summary((select jsonb_agg(c) from jsonb_array_elements(closed) c where c ->> 'stage' = any (won_keys)),
                                       settings.default_currency, settings.exchange_rates));
    lost := jsonb_build_object(
      'month', private.money_summary((select jsonb_agg(jsonb_build_object('currency', c ->> 'currency', 'count', c -> 'month_count',
                                                                          'amount', c -> 'month_amount'))
                                        from jsonb_array_elements(closed) c where c ->> 'stage' = any (lost_keys) and (c ->> 'month_count')::int > 0),
                                     settings.default_currency, settings.exchange_rates),
      'quarter', private.money_summary((select jsonb_agg(c) from jsonb_array_elements(closed) c where c ->> 'stage' = any (lost_keys)),
                                       settings.default_currency, settings.exchange_rates));
  end if;

  if tasks_scope is not null then
    execute format($query$
      select jsonb_build_object(
        'open', (select coalesce(sum(d.task_count), 0) from %1$I.task_due_totals d
                  where d.owner_id = $1 and d.status in ('open', 'in_progress')),
        'overdue', (select coalesce(sum(d.task_count), 0) from %1$I.task_due_totals d
                     where d.owner_id = $1 and d.status in ('open', 'in_progress') and d.due_day < $2)
                   + (select count(*) from %1$I.tasks t
                       where t.owner_id = $1 and t.deleted_at is null and t.status in ('open', 'in_progress')
                         and t.due_at >= $3 and t.due_at < now()),
        'next', (select coalesce(jsonb_agg(jsonb_build_object('id', n.id, 'title', n.title, 'due_at', n.due_at,
                                                              'priority', n.priority, 'status', n.status)
                                           order by n.due_at nulls last, n.id), '[]')
                   from (select * from ((select t.id, t.title, t.due_at, t.priority, t.status from %1$I.tasks t
                                          where t.owner_id = $1 and t.deleted_at is null and t.status = 'open'
                                          order by t.due_at nulls last, t.id limit 5)
                                        union all
                                        (select t.id, t.title, t.due_at, t.priority, t.status from %1$I.tasks t
                                          where t.owner_id = $1 and t.deleted_at is null and t.status = 'in_progress'
                                          order by t.due_at nulls last, t.id limit 5)) both_states
                          order by both_states.due_at nulls last, both_states.id limit 5) n))$query$, tenant)
      into tasks using caller, (now() at time zone 'UTC')::date, (now() at time zone 'UTC')::date::timestamp at time zone 'UTC';
  end if;

  return jsonb_build_object('success', true, 'currency', settings.default_currency, 'time_zone', settings.time_zone,
    'deals_scope', deals_scope, 'tasks_scope', tasks_scope,
    'pipeline', pipeline, 'won', won, 'lost', lost, 'tasks', tasks,
    'recent_activity', private.recent_activity(target_org, tenant, caller));
end;
$$;

-- ---------------------------------------------------------------------------------
-- Grants: the new functions are private (the façade's grants stay as they were)
-- ---------------------------------------------------------------------------------

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
