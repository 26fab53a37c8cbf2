-- Pipeline speed (template v5): deal_forecast_totals stays exactly equal to the live
-- aggregate of the deals after inserts, updates of every field it depends on (stage,
-- amount, currency, owner, probability, expected close), soft delete and restore,
-- deletes, a merge of customers (their deals move; deals themselves are not merged), a
-- record transfer, statements changing many deals at once, a pipeline change in the
-- settings and a truncate; the forecast read from it answers exactly what the previous
-- per-deal computation answered (kept below as the reference), per scope and owner, never
-- another organization's; the board's cards are each stage's newest, per scope, whatever
-- the stage's size; task_due_totals stays exactly equal to the live count of open and
-- in-progress tasks per owner, state and UTC day of due time through the task writes (the
-- due-items step's among them), and the dashboard's open and overdue counts are the live
-- ones; private.caller_scopes agrees with private.caller_scope.
begin;
select plan(46);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

select tests.create_organization('omega', 'Omega A.Ş.') as omega \gset
select tests.create_organization('sigma', 'Sigma Ltd.') as sigma \gset
select private.migrate_tenant(:'omega');
select private.migrate_tenant(:'sigma');
select schema_name as omega_schema from private.organizations where id = :'omega' \gset
select schema_name as sigma_schema from private.organizations where id = :'sigma' \gset
update private.organization_settings set exchange_rates = '{"USD": 40, "EUR": 45.5}' where organization_id = :'omega';
select tests.create_user('admin@omega.test', 'user', 'Oya', 'Yönetici') as o_admin \gset
select tests.create_user('sales@omega.test', 'user', 'Ozan', 'Satış') as o_sales \gset
select tests.create_user('solo@omega.test', 'user', 'Ömer', 'Kendi') as o_solo \gset
select tests.create_user('none@omega.test', 'user', 'Nur', 'Yok') as o_none \gset
select tests.create_user('admin@sigma.test', 'user', 'Selin', 'Sigma') as s_admin \gset
select tests.add_member(:'o_admin', :'omega', 'admin');
select tests.add_member(:'o_sales', :'omega', 'sales');
-- Omega's sales role views every deal here (its default is only its own).
select tests.set_role_scope(:'omega', 'sales', 'view', 'all');
insert into private.organization_roles (organization_id, key, name) values (:'omega', 'solo', 'Yalnız'), (:'omega', 'none', 'Hiç');
insert into private.role_permissions (organization_id, role_key, module, action, scope) values
  (:'omega', 'solo', 'deals', 'view', 'own'), (:'omega', 'solo', 'deals', 'edit', 'own'), (:'omega', 'solo', 'tasks', 'view', 'all');
select tests.add_member(:'o_solo', :'omega', 'solo');
select tests.add_member(:'o_none', :'omega', 'none');
select tests.add_member(:'s_admin', :'sigma', 'admin');

create temporary table sessions (person uuid, session uuid primary key, organization uuid);
insert into sessions values (:'o_admin', gen_random_uuid(), :'omega'), (:'o_sales', gen_random_uuid(), :'omega'),
  (:'o_solo', gen_random_uuid(), :'omega'), (:'o_none', gen_random_uuid(), :'omega'), (:'s_admin', gen_random_uuid(), :'sigma');
insert into auth.sessions (id, user_id) select session, person from sessions;
insert into private.session_organizations (session_id, user_id, organization_id) select session, person, organization from sessions;
select session as s_o_admin from sessions where person = :'o_admin' \gset
select session as s_o_sales from sessions where person = :'o_sales' \gset
select session as s_o_solo from sessions where person = :'o_solo' \gset
select session as s_o_none from sessions where person = :'o_none' \gset
select session as s_s_admin from sessions where person = :'s_admin' \gset
grant select on sessions to authenticated;
create function pg_temp.act(p_session uuid) returns void language sql as $$
  select tests.authenticate_as((select person from sessions where session = p_session), p_session);
$$;
grant execute on function pg_temp.act(uuid) to authenticated;

-- The first day of this month in the organization's time zone.
select date_trunc('month', now() at time zone 'Europe/Istanbul')::date as m0 \gset

-- The totals kept, against the live aggregate of the deals they stand for (rows summing
-- to nothing are left out: a row may stay behind at zero).
create function pg_temp.forecast_drift(p_schema text) returns jsonb language plpgsql as $$
declare
  kept jsonb;
  live jsonb;
begin
  execute format($q$
    select coalesce(jsonb_agg(jsonb_build_array(month, owner_id, stage, currency, deal_count, amount, weighted, default_amount)
                              order by month, owner_id, stage, currency), '[]')
      from %I.deal_forecast_totals
     where deal_count <> 0 or amount <> 0 or weighted <> 0 or default_amount <> 0$q$, p_schema) into kept;
  execute format($q$
    select coalesce(jsonb_agg(jsonb_build_array(month, owner_id, stage, currency, n, amount, weighted, default_amount)
                              order by month, owner_id, stage, currency), '[]')
      from (select date_trunc('month', expected_close_date)::date as month, owner_id, stage, currency, count(*) as n,
                   sum(amount) as amount, coalesce(sum(amount * probability / 100), 0) as weighted,
                   coalesce(sum(amount) filter (where probability is null), 0) as default_amount
              from %I.deals where deleted_at is null and expected_close_date is not null
             group by 1, owner_id, stage, currency) live$q$, p_schema) into live;
  return case when kept = live then '"equal"'::jsonb else jsonb_build_object('kept', kept, 'live', live) end;
end;
$$;

-- The tasks' totals kept, against the live count of open and in-progress tasks.
create function pg_temp.task_drift(p_schema text) returns jsonb language plpgsql as $$
declare
  kept jsonb;
  live jsonb;
begin
  execute format($q$
    select coalesce(jsonb_agg(jsonb_build_array(owner_id, status, due_day, task_count) order by owner_id, status, due_day), '[]')
      from %I.task_due_totals where task_count <> 0$q$, p_schema) into kept;
  execute format($q$
    select coalesce(jsonb_agg(jsonb_build_array(owner_id, status, due_day, n) order by owner_id, status, due_day), '[]')
      from (select owner_id, status, coalesce((due_at at time zone 'UTC')::date, 'infinity'::date) as due_day, count(*) as n
              from %I.tasks where deleted_at is null and status in ('open', 'in_progress')
             group by 1, 2, 3) live$q$, p_schema) into live;
  return case when kept = live then '"equal"'::jsonb else jsonb_build_object('kept', kept, 'live', live) end;
end;
$$;

-- The dashboard's open and overdue counts of a member, beside the live counts.
create function pg_temp.dashboard_counts(p_session uuid) returns jsonb language plpgsql as $$
declare
  person uuid := (select s.person from sessions s where s.session = p_session);
  tenant text := (select o.schema_name from sessions s join private.organizations o on o.id = s.organization where s.session = p_session);
  answer jsonb;
  live jsonb;
begin
  perform pg_temp.act(p_session);
  answer := public.get_dashboard() -> 'tasks';
  perform tests.reset_role();
  execute format($q$
    select jsonb_build_object('open', count(*), 'overdue', count(*) filter (where due_at < now()))
      from %I.tasks where owner_id = $1 and deleted_at is null and status in ('open', 'in_progress')$q$, tenant)
    into live using person;
  return jsonb_build_object('open', answer -> 'open', 'overdue', answer -> 'overdue', 'live', live);
end;
$$;

-- The forecast as it was computed before template v5: every open deal of the months,
-- its probability or its stage's from the pipeline, per owner, currency and month.
create function pg_temp.reference_forecast(p_organization uuid, p_scope text, p_caller uuid, p_months integer, p_owner uuid)
returns jsonb language plpgsql as $$
declare
  settings private.organization_settings;
  open_keys text[];
  first_month date;
  months text[];
  groups jsonb;
begin
  select * into settings from private.organization_settings s where s.organization_id = p_organization;
  open_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'open');
  first_month := date_trunc('month', (now() at time zone settings.time_zone))::date;
  months := array(select to_char(first_month + make_interval(months => m), 'YYYY-MM') from generate_series(0, p_months - 1) m order by m);
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('owner_id', g.owner_id, 'currency', g.currency, 'month', g.month,
                                                 'count', g.n, 'amount', g.amount, 'weighted', g.weighted,
                                                 'rate', case when g.currency = $6 then 1 else ($7 ->> g.currency)::numeric end)), '[]')
      from (select t.owner_id, t.currency, to_char(date_trunc('month', t.expected_close_date), 'YYYY-MM') as month, count(*) as n,
                   sum(t.amount) as amount,
                   sum(t.amount * coalesce(t.probability, (private.deal_stage($8, t.stage) ->> 'probability')::numeric, 0) / 100) as weighted
              from %I.deals t
             where t.deleted_at is null and ($1 = 'all' or t.owner_id = $2) and ($3::uuid is null or t.owner_id = $3)
               and t.stage = any ($4) and t.expected_close_date >= $5 and t.expected_close_date < $9
             group by t.owner_id, t.currency, date_trunc('month', t.expected_close_date)) g$query$,
    private.tenant_schema(p_organization))
    into groups
    using p_scope, p_caller, p_owner, open_keys, first_month, settings.default_currency,
          settings.exchange_rates, settings.deal_stages, (first_month + make_interval(months => p_months))::date;
  return jsonb_build_object('success', true, 'scope', p_scope, 'currency', settings.default_currency,
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

-- The forecast as the admin (12 months), as sales for one owner (3 months) and as the
-- own-scope member (6 months), each beside the reference; "equal" when all three agree.
create function pg_temp.forecast_check() returns jsonb language plpgsql as $$
declare
  omega uuid := (select id from private.organizations where slug = 'omega');
  admin_session uuid := (select s.session from sessions s join private.profiles p on p.id = s.person where p.email = 'admin@omega.test');
  sales_session uuid := (select s.session from sessions s join private.profiles p on p.id = s.person where p.email = 'sales@omega.test');
  solo_session uuid := (select s.session from sessions s join private.profiles p on p.id = s.person where p.email = 'solo@omega.test');
  sales uuid := (select id from private.profiles where email = 'sales@omega.test');
  solo uuid := (select id from private.profiles where email = 'solo@omega.test');
  answers jsonb := '[]';
  expected jsonb;
begin
  perform pg_temp.act(admin_session);
  answers := answers || jsonb_build_array(public.get_deal_forecast(12));
  perform tests.reset_role();
  perform pg_temp.act(sales_session);
  answers := answers || jsonb_build_array(public.get_deal_forecast(3, sales));
  perform tests.reset_role();
  perform pg_temp.act(solo_session);
  answers := answers || jsonb_build_array(public.get_deal_forecast(6));
  perform tests.reset_role();
  expected := jsonb_build_array(pg_temp.reference_forecast(omega, 'all', null, 12, null),
                                pg_temp.reference_forecast(omega, 'all', null, 3, sales),
                                pg_temp.reference_forecast(omega, 'own', solo, 6, null));
  return case when answers = expected then '"equal"'::jsonb else jsonb_build_object('answers', answers, 'expected', expected) end;
end;
$$;

-- ---------------------------------------------------------------------------------
-- Template v5
-- ---------------------------------------------------------------------------------
select has_table(:'omega_schema', 'deal_forecast_totals', 'template v5 gives each organization its forecast totals');
select has_table(:'omega_schema', 'task_due_totals', 'and its open tasks per owner, state and day of due time');
select is((select array_agg(indexname::text order by indexname) from pg_indexes
            where schemaname = :'omega_schema' and tablename = 'tasks' and indexname like 'tasks_owner_status_due%'),
  array['tasks_owner_status_due_id_idx'], 'and an owner''s tasks by state in due order from one index');

-- ---------------------------------------------------------------------------------
-- Inserts: through the engine and in bulk (no probability: the stage's applies)
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_o_admin');
select public.create_deal(jsonb_build_object('title', 'A1', 'amount', 1000, 'stage', 'proposal',
                                             'expected_close_date', :'m0'::date + 3)) #>> '{record,id}' as a1 \gset
select public.create_deal(jsonb_build_object('title', 'A2', 'amount', 250.55, 'currency', 'USD', 'probability', 35,
                                             'expected_close_date', (:'m0'::date + interval '1 month')::date + 9)) #>> '{record,id}' as a2 \gset
select public.create_deal(jsonb_build_object('title', 'A3', 'amount', 99.99, 'currency', 'GBP', 'stage', 'negotiation',
                                             'expected_close_date', (:'m0'::date + interval '2 months')::date)) #>> '{record,id}' as a3 \gset
select public.create_deal(jsonb_build_object('title', 'A4 tarihsiz', 'amount', 500)) #>> '{record,id}' as a4 \gset
select public.create_deal(jsonb_build_object('title', 'A5 kazanıldı', 'amount', 700, 'stage', 'won',
                                             'expected_close_date', :'m0')) #>> '{record,id}' as a5 \gset
select tests.reset_role();
insert into :"omega_schema".deals (title, amount, currency, stage, probability, expected_close_date, owner_id, created_by, deleted_at)
select 'Toplu ' || g, (1000 + g * 37.25)::numeric(16, 2), (array['TRY', 'TRY', 'USD', 'EUR', 'GBP'])[1 + g % 5],
       (array['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'])[1 + g % 6],
       case when g % 4 = 0 then 5 + g % 90 end,
       case when g % 9 = 0 then null else (:'m0'::date + ((g % 14) - 1) * 29 + g % 27) end,
       (array[:'o_admin'::uuid, :'o_sales'::uuid, :'o_solo'::uuid])[1 + g % 3],
       (array[:'o_admin'::uuid, :'o_sales'::uuid, :'o_solo'::uuid])[1 + g % 3],
       case when g % 17 = 0 then now() end
  from generate_series(1, 120) g;
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'after inserts the totals equal the live aggregate');
select ok((select count(*) from :"omega_schema".deal_forecast_totals) > 20 and (select sum(default_amount) from :"omega_schema".deal_forecast_totals) > 0
          and (select sum(weighted) from :"omega_schema".deal_forecast_totals) > 0,
  'the totals hold many months, owners and stages, with and without probabilities of their own');
select is(pg_temp.forecast_check(), '"equal"'::jsonb, 'the forecast answers what the per-deal computation answers (all, one owner, own scope)');

-- ---------------------------------------------------------------------------------
-- Updates of every field the totals depend on
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_o_admin');
select public.get_deal(:'a1') #>> '{record,updated_at}' as at \gset
select public.move_deal(:'a1', 'qualified', :'at') ->> 'success' as ok \gset
select tests.reset_role();
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a stage move');

select pg_temp.act(:'s_o_admin');
select public.get_deal(:'a1') #>> '{record,updated_at}' as at \gset
select public.update_deal(:'a1', '{"amount": 1234.56}', :'at') ->> 'success' as ok \gset
select tests.reset_role();
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'an amount');

select pg_temp.act(:'s_o_admin');
select public.get_deal(:'a2') #>> '{record,updated_at}' as at \gset
select public.update_deal(:'a2', '{"currency": "EUR"}', :'at') ->> 'success' as ok \gset
select tests.reset_role();
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a currency');

select pg_temp.act(:'s_o_admin');
select public.bulk_update_deals(array[:'a1', :'a3']::uuid[], jsonb_build_object('owner_id', :'o_sales')) ->> 'updated' as n \gset
select tests.reset_role();
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'an owner (two deals in one statement)');

select pg_temp.act(:'s_o_admin');
select public.get_deal(:'a3') #>> '{record,updated_at}' as at \gset
select public.update_deal(:'a3', '{"probability": 60}', :'at') ->> 'success' as ok \gset
select tests.reset_role();
update :"omega_schema".deals set probability = null where title in ('Toplu 4', 'Toplu 8', 'A2');
update :"omega_schema".deals set probability = 45 where title in ('Toplu 1', 'Toplu 2');
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a probability set, changed and taken away');

select pg_temp.act(:'s_o_admin');
select public.get_deal(:'a1') #>> '{record,updated_at}' as at \gset
select public.update_deal(:'a1', jsonb_build_object('expected_close_date', (:'m0'::date + interval '5 months')::date), :'at') ->> 'success' as ok \gset
select public.get_deal(:'a4') #>> '{record,updated_at}' as at \gset
select public.update_deal(:'a4', jsonb_build_object('expected_close_date', :'m0'::date + 20), :'at') ->> 'success' as ok \gset
select public.get_deal(:'a5') #>> '{record,updated_at}' as at \gset
select public.update_deal(:'a5', '{"expected_close_date": null}', :'at') ->> 'success' as ok \gset
select tests.reset_role();
update :"omega_schema".deals set expected_close_date = expected_close_date + 1 where title like 'Toplu 1%';
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb,
  'an expected close moved to another month, given, taken away, and moved a day (in and across months)');

-- One statement changing many fields of many deals, some changes cancelling out.
update :"omega_schema".deals
   set owner_id = case owner_id when :'o_admin'::uuid then :'o_sales'::uuid when :'o_sales'::uuid then :'o_admin'::uuid else owner_id end,
       amount = amount + case when title like '%3' then 10 else 0 end,
       stage = case stage when 'lead' then 'qualified' when 'qualified' then 'lead' else stage end
 where title like 'Toplu%';
update :"omega_schema".deals set title = title || ' (düzeltildi)' where title like 'Toplu 2%';
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'one statement swapping owners and stages and changing amounts, and one changing titles only');
select is(pg_temp.forecast_check(), '"equal"'::jsonb, 'and the forecast still answers what the per-deal computation answers');

-- ---------------------------------------------------------------------------------
-- Soft delete, restore, delete, merge
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_o_admin');
select public.delete_deals(array[:'a1', :'a2']::uuid[]) ->> 'changed' as n \gset
select tests.reset_role();
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a soft delete');
select pg_temp.act(:'s_o_admin');
select public.restore_deals(array[:'a1']::uuid[]) ->> 'changed' as n \gset
select tests.reset_role();
update :"omega_schema".deals set deleted_at = null where title = 'Toplu 17';
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a restore (through the engine and of a deal inserted deleted)');
delete from :"omega_schema".deals where title in ('Toplu 5', 'Toplu 6', 'Toplu 34');
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a delete (a deal deleted before among them)');

-- Two customers merged: their deals move to the survivor (nothing the totals count changes).
insert into :"omega_schema".customers (id, name, owner_id, created_by) values
  ('e0000000-0000-4000-8000-000000000001', 'Bir', :'o_admin', :'o_admin'), ('e0000000-0000-4000-8000-000000000002', 'İki', :'o_admin', :'o_admin');
update :"omega_schema".deals set customer_id = 'e0000000-0000-4000-8000-000000000002' where title like 'Toplu 3%';
select pg_temp.act(:'s_o_admin');
select public.merge_customers('e0000000-0000-4000-8000-000000000001', 'e0000000-0000-4000-8000-000000000002') ->> 'success' as merged \gset
select tests.reset_role();
select is(:'merged'::text, 'true', 'two customers with deals merge');
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a merge of customers moving deals');

-- A record transfer moves a member's deals to another.
select pg_temp.act(:'s_o_admin');
select public.transfer_user_records(:'o_solo', :'o_sales', null, array['deals']) -> 'transferred' as moved \gset
select tests.reset_role();
select ok((:'moved'::jsonb ->> 'deals')::int > 0, 'a transfer moves deals');
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'a record transfer');
update :"omega_schema".deals set owner_id = :'o_solo' where title like 'Toplu%' and title like '%5%';
select is(pg_temp.forecast_check(), '"equal"'::jsonb, 'the forecast answers what the per-deal computation answers after all these writes');

-- ---------------------------------------------------------------------------------
-- A pipeline change in the settings
-- ---------------------------------------------------------------------------------
-- New probabilities for the open stages (deals without one of their own follow at once),
-- and proposal removed, its deals moved to a new open stage.
select pg_temp.act(:'s_o_admin');
select public.update_organization_settings(jsonb_build_object(
  'deal_stages', '[{"key": "lead", "name": "Aday", "probability": 15, "outcome": "open"},
                   {"key": "qualified", "name": "Nitelikli", "probability": 33.5, "outcome": "open"},
                   {"key": "demo", "name": "Demo", "probability": 60, "outcome": "open"},
                   {"key": "negotiation", "name": "Pazarlık", "probability": 80, "outcome": "open"},
                   {"key": "won", "name": "Kazanıldı", "probability": 100, "outcome": "won"},
                   {"key": "lost", "name": "Kaybedildi", "probability": 0, "outcome": "lost"}]'::jsonb,
  'deal_stage_moves', '{"proposal": "demo"}'::jsonb)) -> 'moved_deals' as moved \gset
select tests.reset_role();
select ok((:'moved'::jsonb ->> 'proposal')::int > 0, 'the pipeline changes, moving proposal''s deals to demo');
select is(pg_temp.forecast_drift(:'omega_schema'), '"equal"'::jsonb, 'the totals follow the deals moved off the removed stage');
select is(pg_temp.forecast_check(), '"equal"'::jsonb,
  'the forecast weighs deals without a probability of their own by their stage''s new one, as the per-deal computation does');
-- A stage that becomes closed leaves the forecast; one that reopens comes back.
update private.organization_settings
   set deal_stages = jsonb_set(deal_stages, '{3,outcome}', '"won"')
 where organization_id = :'omega';
select is(pg_temp.forecast_check(), '"equal"'::jsonb, 'a stage no longer open leaves the forecast as before');
select pg_temp.act(:'s_o_admin');
select (public.get_deal_forecast(12) #>> '{total,count}')::int as count_closed \gset
select tests.reset_role();
update private.organization_settings
   set deal_stages = jsonb_set(deal_stages, '{3,outcome}', '"open"')
 where organization_id = :'omega';
select pg_temp.act(:'s_o_admin');
select ok((public.get_deal_forecast(12) #>> '{total,count}')::int > :'count_closed'::int, 'and comes back when it opens again');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Scope: own deals only, another organization never
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_o_solo');
select public.get_deal_forecast(12) as solo_forecast \gset
select tests.reset_role();
select is((select array_agg(distinct o ->> 'owner_id') from jsonb_array_elements((:'solo_forecast'::jsonb) -> 'owners') o),
  array[:'o_solo'::text], 'an own-scope member''s forecast holds only their deals');
insert into :"sigma_schema".deals (title, amount, stage, expected_close_date, owner_id, created_by)
values ('Sigma', 5, 'lead', :'m0', :'s_admin', :'s_admin');
select pg_temp.act(:'s_s_admin');
select public.get_deal_forecast(12) #> '{total,count}' as sigma_count \gset
select tests.reset_role();
select is(:'sigma_count'::int, 1, 'another organization''s forecast holds only its own deal');
select is(pg_temp.forecast_drift(:'sigma_schema'), '"equal"'::jsonb, 'each organization keeps its own totals');

-- ---------------------------------------------------------------------------------
-- The board: each stage's newest cards, per scope, a stage with few deals too
-- ---------------------------------------------------------------------------------
insert into :"omega_schema".deals (title, amount, stage, owner_id, created_by, updated_at)
select 'Kalabalık ' || g, 1, 'lead', :'o_sales', :'o_sales', now() - make_interval(mins => g) from generate_series(1, 300) g;
create function pg_temp.expected_cards(p_schema text, p_owner uuid, p_limit integer, p_offset integer default 0)
returns jsonb language plpgsql as $$
declare
  cards jsonb;
begin
  execute format($q$
    select jsonb_object_agg(k.key, coalesce((select jsonb_agg(c.id order by c.updated_at desc, c.id desc)
                                               from (select t.id, t.updated_at from %I.deals t
                                                      where t.stage = k.key and t.deleted_at is null and ($1::uuid is null or t.owner_id = $1)
                                                      order by t.updated_at desc, t.id desc offset $3 limit $2) c), '[]'))
      from unnest(array['lead', 'qualified', 'demo', 'negotiation', 'won', 'lost']) k (key)$q$, p_schema)
    into cards using p_owner, p_limit, p_offset;
  return cards;
end;
$$;
select pg_temp.act(:'s_o_admin');
select public.get_deal_board(null, 7) as board_all \gset
select public.get_deal_board_stage('lead', null,
  (select s -> 'next_cursor' from jsonb_array_elements((:'board_all'::jsonb) -> 'stages') s where s ->> 'key' = 'lead'), 5) as lead_page \gset
select tests.reset_role();
select pg_temp.act(:'s_o_solo');
select public.get_deal_board(null, 4) as board_own \gset
select tests.reset_role();
select is((select jsonb_object_agg(s ->> 'key', (select coalesce(jsonb_agg(c -> 'id' order by n), '[]')
                                                   from jsonb_array_elements(s -> 'cards') with ordinality e (c, n)))
             from jsonb_array_elements((:'board_all'::jsonb) -> 'stages') s),
  pg_temp.expected_cards(:'omega_schema', null, 7),
  'the board: each stage''s newest cards, a crowded stage and a stage of one alike');
select is((select jsonb_agg(c -> 'id' order by n) from jsonb_array_elements((:'lead_page'::jsonb) -> 'cards') with ordinality e (c, n)),
  pg_temp.expected_cards(:'omega_schema', null, 5, 7) -> 'lead', 'further cards of a stage continue the order');
select is((select jsonb_object_agg(s ->> 'key', (select coalesce(jsonb_agg(c -> 'id' order by n), '[]')
                                                   from jsonb_array_elements(s -> 'cards') with ordinality e (c, n)))
             from jsonb_array_elements((:'board_own'::jsonb) -> 'stages') s),
  pg_temp.expected_cards(:'omega_schema', :'o_solo', 4), 'an own-scope member''s board holds only their newest cards');
select is((select (s ->> 'count')::int from jsonb_array_elements((:'board_all'::jsonb) -> 'stages') s where s ->> 'key' = 'lead'),
  (select count(*)::int from :"omega_schema".deals where stage = 'lead' and deleted_at is null), 'with each stage''s count');

-- ---------------------------------------------------------------------------------
-- Tasks: the totals through every kind of write; the dashboard's counts
-- ---------------------------------------------------------------------------------
-- Due earlier today and later today (UTC), yesterday, tomorrow, long ago, never.
select (now() at time zone 'UTC')::date::timestamp at time zone 'UTC' as today0 \gset
select pg_temp.act(:'s_o_admin');
select public.create_task('{"title": "Süresiz"}') #>> '{record,id}' as k1 \gset
select public.create_task(jsonb_build_object('title', 'Dün', 'due_at', now() - interval '1 day')) #>> '{record,id}' as k2 \gset
select public.create_task(jsonb_build_object('title', 'Bugün erken', 'due_at', greatest(:'today0'::timestamptz, now() - interval '1 second'),
                                             'status', 'in_progress')) #>> '{record,id}' as k3 \gset
select public.create_task(jsonb_build_object('title', 'Bugün geç', 'due_at', now() + interval '1 minute')) #>> '{record,id}' as k4 \gset
select public.create_task(jsonb_build_object('title', 'Yarın', 'due_at', now() + interval '1 day', 'owner_id', :'o_sales')) #>> '{record,id}' as k5 \gset
select tests.reset_role();
insert into :"omega_schema".tasks (title, status, completed_at, completed_by, due_at, owner_id, created_by, deleted_at, customer_id)
select 'Görev ' || g, (array['open', 'open', 'in_progress', 'done', 'cancelled'])[1 + g % 5]::private.task_status,
       case when g % 5 = 3 then now() end, case when g % 5 = 3 then :'o_admin'::uuid end,
       case when g % 7 = 0 then null else now() + make_interval(hours => (g % 97) - 60) end,
       (array[:'o_admin'::uuid, :'o_sales'::uuid, :'o_solo'::uuid])[1 + g % 3], :'o_admin',
       case when g % 13 = 0 then now() end,
       case when g % 4 = 0 then 'e0000000-0000-4000-8000-000000000001'::uuid end
  from generate_series(1, 200) g;
select is(pg_temp.task_drift(:'omega_schema'), '"equal"'::jsonb, 'tasks: after inserts the totals equal the live count');

select pg_temp.act(:'s_o_admin');
select public.complete_task(:'k2') ->> 'success' as ok \gset
select public.get_task(:'k4') #>> '{record,updated_at}' as at \gset
select public.update_task(:'k4', jsonb_build_object('due_at', now() - interval '3 days'), :'at') ->> 'success' as ok \gset
select public.get_task(:'k1') #>> '{record,updated_at}' as at \gset
select public.update_task(:'k1', '{"status": "in_progress"}', :'at') ->> 'success' as ok \gset
select public.bulk_update_tasks(array[:'k5']::uuid[], jsonb_build_object('owner_id', :'o_admin')) ->> 'updated' as n \gset
select public.delete_tasks(array[:'k3']::uuid[]) ->> 'changed' as n \gset
select tests.reset_role();
update :"omega_schema".tasks set status = 'open', completed_at = null, completed_by = null where title in ('Görev 3', 'Görev 8');
update :"omega_schema".tasks set due_at = due_at + interval '20 hours' where title like 'Görev 1%';
update :"omega_schema".tasks set owner_id = case owner_id when :'o_admin'::uuid then :'o_solo'::uuid else :'o_admin'::uuid end
 where title like 'Görev 2%';
select is(pg_temp.task_drift(:'omega_schema'), '"equal"'::jsonb,
  'tasks: completing, reopening, a due time moved (across days), a state, owners changed in one statement and alone, a soft delete');

select pg_temp.act(:'s_o_admin');
select public.restore_tasks(array[:'k3']::uuid[]) ->> 'changed' as n \gset
select tests.reset_role();
update :"omega_schema".tasks set deleted_at = null where title = 'Görev 13';
delete from :"omega_schema".tasks where title in ('Görev 5', 'Görev 6', 'Görev 26');
select private.notify_due_items(:'omega') ->> 'task_overdue' as overdue_told \gset
select ok(:'overdue_told'::int > 0, 'the due-items step marks overdue tasks');
insert into :"omega_schema".customers (id, name, owner_id, created_by) values ('e0000000-0000-4000-8000-000000000003', 'Üç', :'o_admin', :'o_admin');
select pg_temp.act(:'s_o_admin');
select public.merge_customers('e0000000-0000-4000-8000-000000000003', 'e0000000-0000-4000-8000-000000000001') ->> 'success' as merged \gset
select public.transfer_user_records(:'o_sales', :'o_solo', null, array['tasks']) -> 'transferred' ->> 'tasks' as moved \gset
select tests.reset_role();
select ok(:'moved'::int > 0 and :'merged'::boolean, 'a customer with tasks merged, a member''s tasks transferred');
select is(pg_temp.task_drift(:'omega_schema'), '"equal"'::jsonb,
  'tasks: restores, deletes, the due-items step, a merge of customers and a transfer');

select is(pg_temp.dashboard_counts(:'s_o_admin') - 'live', pg_temp.dashboard_counts(:'s_o_admin') -> 'live',
  'the dashboard''s open and overdue tasks are the live counts (tasks due earlier today among them)');
select is(pg_temp.dashboard_counts(:'s_o_solo') - 'live', pg_temp.dashboard_counts(:'s_o_solo') -> 'live',
  'for every member');
select ok((pg_temp.dashboard_counts(:'s_o_admin') #>> '{live,overdue}')::int > 0
          and (pg_temp.dashboard_counts(:'s_o_admin') #>> '{live,open}')::int > (pg_temp.dashboard_counts(:'s_o_admin') #>> '{live,overdue}')::int,
  'with overdue and not yet due tasks to count');

-- ---------------------------------------------------------------------------------
-- Truncate, and the scopes looked up at once
-- ---------------------------------------------------------------------------------
set local client_min_messages = warning;
truncate :"omega_schema".deals cascade;
set local client_min_messages = notice;
select is((select count(*)::int from :"omega_schema".deal_forecast_totals), 0, 'a truncate empties the forecast''s totals');
select is((select count(*)::int from :"omega_schema".task_due_totals), 0, 'and, cascading to the tasks, theirs');

create function pg_temp.scopes_agree() returns jsonb language plpgsql as $$
declare
  person record;
  action text;
  disagree jsonb := '[]';
begin
  for person in select s.session, p.email from sessions s join private.profiles p on p.id = s.person order by p.email loop
    perform tests.authenticate_as((select s.person from sessions s where s.session = person.session), person.session);
    perform set_config('role', 'postgres', true);
    foreach action in array array['view', 'create', 'edit', 'delete'] loop
      disagree := disagree || coalesce((select jsonb_agg(jsonb_build_array(person.email, action, s.module, s.scope,
                                                                           private.caller_scope(s.module, action)))
                                          from private.caller_scopes(action) s
                                         where s.scope is distinct from private.caller_scope(s.module, action)), '[]');
    end loop;
    perform tests.reset_role();
  end loop;
  return disagree;
end;
$$;
select is(pg_temp.scopes_agree(), '[]'::jsonb,
  'caller_scopes answers what caller_scope answers, module by module, for an admin, members of three roles and another organization');
select is((select count(*)::int from private.caller_scopes('view') where scope is not null), 0,
  'and no module without a signed-in, bound session');

select * from finish();
rollback;
