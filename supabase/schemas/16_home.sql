-- The home dashboard: money by stage and currency, recent activity, the caller's numbers.

/**
 * Money of grouped deals ([{currency, count, amount}]): the count, the totals per
 * currency (the organization's first), the amount converted to the organization's
 * currency with its exchange rates (1 unit = rate units of the default currency), and the
 * currencies without a rate (left out of the converted amount).
 */
create function private.money_summary(p_groups jsonb, p_currency text, p_rates jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  with g as (
    select e ->> 'currency' as currency, sum((e ->> 'count')::bigint) as n, sum((e ->> 'amount')::numeric) as amount
      from jsonb_array_elements(coalesce(p_groups, '[]')) e
     group by e ->> 'currency'
  )
  select jsonb_build_object(
    'count', coalesce(sum(g.n), 0),
    'totals', coalesce(jsonb_agg(jsonb_build_object('currency', g.currency, 'amount', g.amount)
                                 order by g.currency <> p_currency, g.currency), '[]'),
    'amount', round(coalesce(sum(g.amount * case when g.currency = p_currency then 1
                                                 else (p_rates ->> g.currency)::numeric end), 0), 2),
    'unconverted', coalesce(jsonb_agg(g.currency order by g.currency)
                              filter (where g.currency <> p_currency and p_rates ->> g.currency is null), '[]'))
    from g;
$$;

/**
 * The 10 latest audit entries about records the caller owns (not deleted) in the modules
 * they may view: among their 10 most recently changed records per module, and the
 * records of theirs the organization's latest 300 entries name (a note does not change
 * its record). [{action, module, record_id, title, actor_id, actor_name (name, else e-mail;
 * null for no actor or a deleted account), at}]. The modules
 * the caller may view come from one scope lookup (private.caller_scopes).
 */
create function private.recent_activity(p_organization_id uuid, p_schema text, p_caller uuid)
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
             'actor_name', (select coalesce(private.profile_name(p.id), p.email) from private.profiles p where p.id = a.actor_id),
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
 * and overdue counts add the rows of task_due_totals, the overdue ones those
 * of earlier UTC days and the tasks of today already due.
 */
create function public.get_dashboard()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('organization');
  caller uuid := context.user_id;
  target_org uuid := context.organization_id;
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
  if context.problem is not null then
    return context.problem;
  end if;
  if tenant is null then
    return private.refusal('tables_not_found');
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
    -- The board's totals, kept per owner, stage and currency (deal_stage_totals).
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
revoke all on function public.get_dashboard() from public, anon, authenticated;
grant execute on function public.get_dashboard() to authenticated;
