-- Tasks, notifications and the home dashboard (issue 12):
-- * Template v4: tasks get description, type (one of the organization's task_types),
--   priority and status (enums, so the engine sorts them in their natural order),
--   a reminder, completion by whom, related customer / contact / deal (foreign keys the
--   generic merge moves), reminder bookkeeping, Turkish-folded search and the indexes of
--   the task views; tasks, deals and customers notify a new owner; deals broadcast board
--   changes.
-- * private.prepare_task: the task rules; public.complete_task: quick completion through
--   the engine; public.get_task_views: the standard views' filters in the organization's
--   time zone.
-- * Notifications live in private (organization + recipient): the bell, the unread count
--   and the due-items step are each one indexed query, across every organization, and
--   the retention clean-up is one delete. Preferences per user and organization.
-- * private.notify_due_items: reminders, tasks due within the hour and overdue tasks,
--   each once per task (pg_cron every minute on hosted Supabase; a timer locally).
-- * Realtime (hosted Supabase only): private topics org:<organization_id> and
--   user:<organization_id>:<user_id>, guarded so nothing runs where realtime is absent.
-- * public.get_dashboard: pipeline, won and lost, my tasks and recent activity.

-- ---------------------------------------------------------------------------------
-- Types the tenant tables share
-- ---------------------------------------------------------------------------------

-- Enums rather than text with a check: the record engine sorts a non-text column by its
-- value, so sorting by priority or status gives low < normal < high < urgent and
-- open < in_progress < done < cancelled instead of the alphabet. JSON sees plain strings.
create type private.task_priority as enum ('low', 'normal', 'high', 'urgent');
create type private.task_status as enum ('open', 'in_progress', 'done', 'cancelled');
comment on type private.task_priority is 'A task''s priority, in increasing urgency.';
comment on type private.task_status is 'A task''s state, in workflow order.';

-- ---------------------------------------------------------------------------------
-- Notifications
-- ---------------------------------------------------------------------------------

create table private.notifications (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references private.organizations (id) on delete cascade,
  -- The recipient.
  user_id uuid not null references private.profiles (id) on delete cascade,
  kind text not null check (kind in ('task_assigned', 'task_due', 'task_overdue', 'task_reminder', 'deal_assigned',
                                     'customer_assigned', 'contract_renewal')),
  -- The record it is about: its module (private.modules key) and id, and its title when
  -- the notification was made.
  module text check (module ~ '^[a-z][a-z_]{0,39}$'),
  record_id uuid,
  title text check (char_length(title) <= 300),
  -- Who caused it (null for the scheduled due-items step).
  actor_id uuid references private.profiles (id) on delete set null,
  -- clock_timestamp: notifications made in one transaction still page apart.
  created_at timestamptz not null default clock_timestamp(),
  read_at timestamptz
);
create index notifications_recipient_idx on private.notifications (user_id, organization_id, created_at desc, id desc);
create index notifications_unread_idx on private.notifications (user_id, organization_id) where read_at is null;
create index notifications_read_created_idx on private.notifications (created_at) where read_at is not null;
create index notifications_actor_idx on private.notifications (actor_id) where actor_id is not null;
alter table private.notifications enable row level security;
comment on table private.notifications is
  'What a member is told about, per organization: assignments, reminders, due and overdue tasks. Made by the database only.';

create table private.notification_preferences (
  user_id uuid not null references private.profiles (id) on delete cascade,
  organization_id uuid not null references private.organizations (id) on delete cascade,
  -- The kinds the member wants; no row means every kind.
  kinds text[] not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, organization_id)
);
alter table private.notification_preferences enable row level security;
comment on table private.notification_preferences is 'Which notification kinds a member wants in an organization (default: all).';

/** Every notification kind, in the order the preferences list them. */
create function private.notification_kinds()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['task_assigned', 'task_due', 'task_overdue', 'task_reminder', 'deal_assigned', 'customer_assigned',
               'contract_renewal'];
$$;

/** True when the member is active in the organization and wants this kind of notification. */
create function private.wants_notification(p_organization_id uuid, p_user_id uuid, p_kind text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.memberships m
                  where m.user_id = p_user_id and m.organization_id = p_organization_id and m.is_active)
     and coalesce((select p_kind = any (p.kinds) from private.notification_preferences p
                    where p.user_id = p_user_id and p.organization_id = p_organization_id), true);
$$;

/** The organization a tenant schema belongs to (triggers know only their schema). */
create function private.schema_organization(p_schema text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select o.id from private.organizations o where o.schema_name = p_schema;
$$;

/** What a notification or an activity entry calls a record: its name, title or number. */
create function private.record_title(p_module text, p_row jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select left(case p_module
    when 'customers' then p_row ->> 'name'
    when 'contacts' then nullif(btrim(concat_ws(' ', p_row ->> 'first_name', p_row ->> 'last_name')), '')
    when 'quotes' then p_row ->> 'quote_number'
    else p_row ->> 'title' end, 300);
$$;

/**
 * Sends a Realtime broadcast on a private topic where Supabase Realtime exists (hosted);
 * does nothing elsewhere. A lost broadcast never fails the write that caused it.
 */
create function private.broadcast(p_topic text, p_event text, p_payload jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is null then
    return;
  end if;
  begin
    execute 'select realtime.send($1, $2, $3, true)' using p_payload, p_event, p_topic;
  exception when others then
    null;
  end;
end;
$$;

/** A notification as the RPCs answer it. */
create function private.notification_json(p_notification private.notifications)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_notification.id, 'kind', p_notification.kind, 'module', p_notification.module,
    'record_id', p_notification.record_id, 'title', p_notification.title, 'actor_id', p_notification.actor_id,
    'actor_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                     from private.profiles p where p.id = p_notification.actor_id),
    'created_at', p_notification.created_at, 'read_at', p_notification.read_at);
$$;

/** Broadcasts a new notification to its recipient's topic user:<organization_id>:<user_id> (event 'notification'). */
create function private.on_notification_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.broadcast(format('user:%s:%s', new.organization_id, new.user_id), 'notification',
                            private.notification_json(new));
  return null;
end;
$$;

create trigger notifications_broadcast
  after insert on private.notifications
  for each row execute function private.on_notification_created();

/**
 * Notifies a member about a record, when they are an active member who wants this kind.
 * Returns the notification's id, or null when none was made.
 */
create function private.notify(p_organization_id uuid, p_user_id uuid, p_kind text, p_module text,
                               p_record_id uuid, p_title text, p_actor uuid)
returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into private.notifications (organization_id, user_id, kind, module, record_id, title, actor_id)
  select p_organization_id, p_user_id, p_kind, p_module, p_record_id, left(p_title, 300), p_actor
   where private.wants_notification(p_organization_id, p_user_id, p_kind)
  returning id;
$$;

/**
 * Trigger of tasks, deals and customers (template v4): a record created for, or given
 * to, someone other than the person making the change tells its new owner
 * (task_assigned, deal_assigned, customer_assigned). Nothing without a signed-in actor
 * (seed, scheduled work) and nothing during a record transfer (crm.quiet_assignments).
 */
create function private.notify_assignment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := auth.uid();
begin
  if actor is null or new.owner_id = actor or new.deleted_at is not null
     or coalesce(current_setting('crm.quiet_assignments', true), '') = 'on' then
    return null;
  end if;
  perform private.notify(private.schema_organization(tg_table_schema), new.owner_id,
                         case tg_table_name when 'tasks' then 'task_assigned' when 'deals' then 'deal_assigned'
                                            else 'customer_assigned' end,
                         tg_table_name, new.id, private.record_title(tg_table_name, to_jsonb(new)), actor);
  return null;
end;
$$;

/**
 * Statement trigger of deals (template v4): tells the organization's board topic
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

-- ---------------------------------------------------------------------------------
-- Template v4: tasks with their fields; assignment notices; deal board broadcasts
-- ---------------------------------------------------------------------------------

insert into private.tenant_template_steps (version, description, ddl) values (4,
'Tasks with type, priority, status, reminder, related customer, contact and deal, search and view indexes; owners told of assignments; deal board broadcasts',
$template$
alter table tasks
  add column description text check (char_length(description) <= 10000),
  add column type text check (char_length(type) between 1 and 40),
  add column priority private.task_priority not null default 'normal',
  add column status private.task_status not null default 'open',
  add column remind_at timestamptz,
  add column completed_by uuid,
  add column customer_id uuid references customers (id) on delete set null,
  add column contact_id uuid references contacts (id) on delete set null,
  add column deal_id uuid references deals (id) on delete set null,
  -- When the reminder, the due-soon and the overdue notification went out (once each;
  -- a new remind_at or due_at clears its own).
  add column reminded_at timestamptz,
  add column due_notified_at timestamptz,
  add column overdue_notified_at timestamptz;

-- Tasks from before v4: a completed one is done; one already overdue is not announced
-- as overdue now. updated_at stays as it was.
alter table tasks disable trigger touch_updated_at;
update tasks set status = 'done', completed_by = created_by where completed_at is not null;
update tasks set overdue_notified_at = now(), due_notified_at = now() where completed_at is null and due_at < now();
alter table tasks enable trigger touch_updated_at;

alter table tasks
  add constraint tasks_completed_at_check check ((status = 'done') = (completed_at is not null)),
  add constraint tasks_remind_at_check check (remind_at <= due_at);
alter table tasks add column search_text text generated always as (private.fold_search(
  title || ' ' || coalesce(left(description, 2000), ''))) stored;

create index tasks_search_idx on tasks using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;
create index tasks_owner_status_due_idx on tasks (owner_id, status, due_at) where deleted_at is null;
create index tasks_open_due_idx on tasks (due_at) where deleted_at is null and status in ('open', 'in_progress');
-- Whole-table indexes: the merge and on delete set null look up deleted tasks too.
create index tasks_customer_id_idx on tasks (customer_id);
create index tasks_contact_id_idx on tasks (contact_id);
create index tasks_deal_id_idx on tasks (deal_id);
create index tasks_updated_sort_idx on tasks (updated_at, id) where deleted_at is null;
create index tasks_created_sort_idx on tasks (created_at, id) where deleted_at is null;
create index tasks_due_sort_idx on tasks (due_at, id) where deleted_at is null;
create index tasks_title_sort_idx on tasks (private.fold_search(title), id) where deleted_at is null;
create index tasks_priority_sort_idx on tasks (priority, id) where deleted_at is null;
create index tasks_status_sort_idx on tasks (status, id) where deleted_at is null;
create index tasks_owner_updated_idx on tasks (owner_id, updated_at desc) where deleted_at is null;
-- What the due-items step has still to announce (each shrinks as it does).
create index tasks_remind_pending_idx on tasks (remind_at)
  where reminded_at is null and deleted_at is null and status in ('open', 'in_progress');
create index tasks_due_pending_idx on tasks (due_at)
  where due_notified_at is null and deleted_at is null and status in ('open', 'in_progress');
create index tasks_overdue_pending_idx on tasks (due_at)
  where overdue_notified_at is null and deleted_at is null and status in ('open', 'in_progress');

create trigger tasks_assigned after insert on tasks
  for each row execute function private.notify_assignment();
create trigger tasks_reassigned after update of owner_id on tasks
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();
create trigger deals_assigned after insert on deals
  for each row execute function private.notify_assignment();
create trigger deals_reassigned after update of owner_id on deals
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();
create trigger customers_assigned after insert on customers
  for each row execute function private.notify_assignment();
create trigger customers_reassigned after update of owner_id on customers
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();
create trigger deals_board_broadcast after insert or update or delete on deals
  for each statement execute function private.broadcast_deal_change();

-- The home dashboard: deals won or lost since the quarter began (from the index alone).
create index deals_closed_idx on deals (closed_at) include (stage, currency, amount, owner_id)
  where deleted_at is null and closed_at is not null;
$template$);

-- ---------------------------------------------------------------------------------
-- Task rules
-- ---------------------------------------------------------------------------------

/** A JSON string as a timestamp; null when it is not one. */
create function private.try_timestamptz(p_value jsonb)
returns timestamptz
language plpgsql
stable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' then
    return null;
  end if;
  return (p_value #>> '{}')::timestamptz;
exception when others then
  return null;
end;
$$;

/** A JSON string as a uuid; null when it is not one. */
create function private.try_uuid(p_value jsonb)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' then
    return null;
  end if;
  return (p_value #>> '{}')::uuid;
exception when others then
  return null;
end;
$$;

/** True when the caller may see this record of the module (not deleted, within their view scope). */
create function private.record_visible(p_module text, p_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  visible boolean;
begin
  if context.problem is not null or p_id is null then
    return false;
  end if;
  execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3))',
                 context.schema_name, context.table_name)
    into visible using p_id, context.scope, context.caller;
  return visible;
end;
$$;

/**
 * A task's rules: a title (at most 200 characters); a description (at most 10,000);
 * a type from the organization's task_types (invalid_type); priority and status from
 * their lists; due_at and remind_at as timestamps, the reminder not after the due time
 * (after_due); related customer, contact and deal that the caller can see (not_found).
 * Becoming done records completed_at and completed_by; leaving done clears them. A new
 * due_at or remind_at lets its notifications go out again. Returns {"values", "errors"}.
 */
create function private.prepare_task(p_values jsonb, p_existing jsonb)
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
  due timestamptz;
  remind timestamptz;
  old_status text := p_existing ->> 'status';
begin
  foreach field in array array['title', 'description', 'type', 'priority', 'status'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

  if (p_existing is null or p_values ? 'title') and result ->> 'title' is null and not errors ? 'title' then
    errors := errors || '{"title": "required"}';
  elsif char_length(result ->> 'title') > 200 then
    errors := errors || '{"title": "too_long"}';
  end if;
  if char_length(result ->> 'description') > 10000 then
    errors := errors || '{"description": "too_long"}';
  end if;
  if result ->> 'type' is not null and not errors ? 'type'
     and not exists (select 1 from private.organization_settings s, jsonb_array_elements_text(s.task_types) t (type)
                      where s.organization_id = private.current_organization_id() and t.type = result ->> 'type') then
    errors := errors || '{"type": "invalid_type"}';
  end if;
  if p_values ? 'priority' and not errors ? 'priority' then
    result := result || jsonb_build_object('priority', coalesce(result ->> 'priority', 'normal'));
    if not (result ->> 'priority' = any (enum_range(null::private.task_priority)::text[])) then
      errors := errors || '{"priority": "invalid"}';
    end if;
  end if;

  -- Status, and the completion that goes with it.
  if p_values ? 'status' and not errors ? 'status' then
    result := result || jsonb_build_object('status', coalesce(result ->> 'status', 'open'));
    if not (result ->> 'status' = any (enum_range(null::private.task_status)::text[])) then
      errors := errors || '{"status": "invalid"}';
    elsif result ->> 'status' = old_status then
      result := result - 'status';
    elsif result ->> 'status' = 'done' then
      result := result || jsonb_build_object('completed_at', now(), 'completed_by', auth.uid());
    elsif old_status = 'done' then
      result := result || '{"completed_at": null, "completed_by": null}';
    end if;
  end if;

  -- When: timestamps, or null (an empty string clears).
  foreach field in array array['due_at', 'remind_at'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      elsif private.try_timestamptz(p_values -> field) is null then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.try_timestamptz(p_values -> field));
      end if;
    end if;
  end loop;
  if not (errors ? 'due_at' or errors ? 'remind_at') and (p_values ? 'due_at' or p_values ? 'remind_at') then
    due := case when p_values ? 'due_at' then (result ->> 'due_at')::timestamptz else (p_existing ->> 'due_at')::timestamptz end;
    remind := case when p_values ? 'remind_at' then (result ->> 'remind_at')::timestamptz
                   else (p_existing ->> 'remind_at')::timestamptz end;
    if remind > due then
      errors := errors || '{"remind_at": "after_due"}';
    end if;
    if p_existing is not null and p_values ? 'due_at' and due is distinct from (p_existing ->> 'due_at')::timestamptz then
      result := result || '{"due_notified_at": null, "overdue_notified_at": null}';
    end if;
    if p_existing is not null and p_values ? 'remind_at' and remind is distinct from (p_existing ->> 'remind_at')::timestamptz then
      result := result || '{"reminded_at": null}';
    end if;
  end if;

  -- Related records: the caller must be able to see them in this organization.
  foreach field in array array['customer_id', 'contact_id', 'deal_id'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      else
        related := private.try_uuid(p_values -> field);
        if related is null then
          errors := errors || jsonb_build_object(field, 'not_found');
        elsif related::text is distinct from p_existing ->> field
              and not private.record_visible(case field when 'customer_id' then 'customers'
                                                        when 'contact_id' then 'contacts' else 'deals' end, related) then
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

update private.modules
   set writable_columns = '{title,description,type,priority,status,due_at,remind_at,customer_id,contact_id,deal_id}',
       sortable_columns = '{title,due_at,priority,status,created_at,updated_at}',
       filterable_columns = '{status,priority,type,due_at,completed_at,customer_id,contact_id,deal_id}',
       list_columns = '{title,type,priority,status,due_at,remind_at,completed_at,customer_id,contact_id,deal_id}',
       default_sort = 'due_at',
       default_descending = false,
       searchable = true,
       prepare_function = 'prepare_task'
 where key = 'tasks';
select private.install_module_facade('tasks');

/**
 * Marks a task done from a list (edit scope, through the engine: the field history and
 * the audit log record it). With p_updated_at, a task changed since is refused as stale.
 * A task already done is answered as it is. {success, record} or the engine's refusal.
 */
create function public.complete_task(p_id uuid, p_updated_at timestamptz default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('tasks', 'edit');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  return private.record_write('tasks', context, p_id, '{"status": "done"}', p_updated_at, p_updated_at is not null);
end;
$$;

/**
 * The standard task views as list_tasks filters, their day and week boundaries in the
 * organization's time zone (from inclusive, to exclusive): open, mine, overdue, today,
 * this_week, upcoming, completed. {success, time_zone, views: {name: {filters, sort, descending}}}.
 */
create function public.get_task_views()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('tasks', 'view');
  zone text;
  today_start timestamptz;
  tomorrow_start timestamptz;
  week_end timestamptz;
  open_states jsonb := '["open", "in_progress"]';
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select s.time_zone into zone from private.organization_settings s where s.organization_id = context.organization_id;
  zone := coalesce(zone, 'Europe/Istanbul');
  today_start := date_trunc('day', now() at time zone zone) at time zone zone;
  tomorrow_start := (date_trunc('day', now() at time zone zone) + interval '1 day') at time zone zone;
  week_end := (date_trunc('week', now() at time zone zone) + interval '1 week') at time zone zone;
  return jsonb_build_object('success', true, 'time_zone', zone, 'views', jsonb_build_object(
    'open', jsonb_build_object('filters', jsonb_build_object('status', open_states), 'sort', 'due_at', 'descending', false),
    'mine', jsonb_build_object('filters', jsonb_build_object('status', open_states, 'owner_id', 'me'),
                               'sort', 'due_at', 'descending', false),
    'overdue', jsonb_build_object('filters', jsonb_build_object('status', open_states, 'due_at', jsonb_build_object('to', now())),
                                  'sort', 'due_at', 'descending', false),
    'today', jsonb_build_object('filters', jsonb_build_object('status', open_states,
                                  'due_at', jsonb_build_object('from', today_start, 'to', tomorrow_start)),
                                'sort', 'due_at', 'descending', false),
    'this_week', jsonb_build_object('filters', jsonb_build_object('status', open_states,
                                      'due_at', jsonb_build_object('from', today_start, 'to', week_end)),
                                    'sort', 'due_at', 'descending', false),
    'upcoming', jsonb_build_object('filters', jsonb_build_object('status', open_states,
                                     'due_at', jsonb_build_object('from', tomorrow_start)),
                                   'sort', 'due_at', 'descending', false),
    'completed', jsonb_build_object('filters', jsonb_build_object('status', '["done"]'::jsonb), 'sort', 'updated_at', 'descending', true)));
end;
$$;

-- ---------------------------------------------------------------------------------
-- Due items: reminders, due within the hour, overdue
-- ---------------------------------------------------------------------------------

/**
 * The scheduled step (every minute: pg_cron on hosted Supabase, a timer on the local
 * stack): in every organization at template v4 or later, open and in-progress tasks
 * whose reminder time has come (task_reminder), that fall due within the next hour
 * (task_due) or whose due time has passed (task_overdue) tell their owner, once per task
 * and kind: the bookkeeping column is set in the same statement, so concurrent runs
 * cannot repeat one, and a member who turned the kind off is skipped (still marked).
 * Returns how many notifications of each kind were made.
 */
create function private.notify_due_items()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization record;
  made integer;
  reminders integer := 0;
  due_soon integer := 0;
  overdue integer := 0;
  step record;
begin
  for organization in
    select o.id, o.schema_name from private.organizations o
     where o.is_active and o.template_version >= 4
       and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name)
     order by o.created_at, o.id
  loop
    for step in
      select * from (values
        ('task_reminder', 'reminded_at', 't.remind_at <= now() and t.reminded_at is null'),
        ('task_overdue', 'overdue_notified_at', 't.due_at <= now() and t.overdue_notified_at is null'),
        ('task_due', 'due_notified_at', 't.due_at > now() and t.due_at <= now() + interval ''1 hour'' and t.due_notified_at is null')
      ) as s (kind, bookkeeping, due_condition)
    loop
      execute format($query$
        with announced as (
          update %1$I.tasks t set %2$I = now()
           where %3$s and t.deleted_at is null and t.status in ('open', 'in_progress')
          returning t.id, t.owner_id, t.title)
        select count(private.notify($1, a.owner_id, $2, 'tasks', a.id, a.title, null)) from announced a$query$,
        organization.schema_name, step.bookkeeping, step.due_condition)
        into made using organization.id, step.kind;
      case step.kind
        when 'task_reminder' then reminders := reminders + made;
        when 'task_overdue' then overdue := overdue + made;
        else due_soon := due_soon + made;
      end case;
    end loop;
  end loop;
  return jsonb_build_object('task_reminder', reminders, 'task_due', due_soon, 'task_overdue', overdue);
end;
$$;

-- pg_cron on hosted Supabase (the local stack runs it from scripts/stack/scheduled-jobs.ts).
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    perform cron.schedule('crm-notify-due-items', '* * * * *', 'select private.notify_due_items()');
  end if;
end
$$;

/**
 * The periodic clean-up (pg_cron on hosted Supabase, a timer on the local stack): sign-in
 * log entries older than their retention, shadow lock counters no longer locked and
 * untouched for a day, expired or surplus request tokens, used or expired login proofs,
 * and notifications read and older than 90 days. Returns how many rows each lost.
 */
create or replace function private.run_maintenance()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.security_settings := private.security_settings();
  attempts integer;
  throttles integer;
  proofs integer;
  notifications integer;
begin
  delete from private.login_attempts a where a.created_at < now() - settings.login_attempts_retention;
  get diagnostics attempts = row_count;
  delete from private.login_throttles t
   where t.updated_at < now() - settings.login_throttles_retention
     and (t.locked_until is null or t.locked_until < now());
  get diagnostics throttles = row_count;
  delete from private.login_proofs p where p.expires_at < now() or p.used_at is not null;
  get diagnostics proofs = row_count;
  delete from private.notifications n where n.read_at is not null and n.created_at < now() - interval '90 days';
  get diagnostics notifications = row_count;
  return jsonb_build_object('login_attempts', attempts, 'login_throttles', throttles,
                            'request_tokens', private.prune_request_tokens(), 'login_proofs', proofs,
                            'notifications', notifications);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Notification RPCs: the caller's own, in their session's organization only
-- ---------------------------------------------------------------------------------

/** The refusal for a notification RPC (not signed in, or no bound organization), or null. */
create function private.notification_problem()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case when auth.uid() is null then private.failure('Authentication required', 'authentication_required')
              when private.current_organization_id() is null
                then private.failure('Organization context required', 'organization_context_required') end;
$$;

/** How many unread notifications the member has in the organization. */
create function private.unread_notifications(p_user_id uuid, p_organization_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from private.notifications n
   where n.user_id = p_user_id and n.organization_id = p_organization_id and n.read_at is null;
$$;

/**
 * The caller's notifications in their session's organization, newest first: at most
 * p_limit (1 to 100), older than p_before when given, only unread ones on request.
 * {success, notifications: [{id, kind, module, record_id, title, actor_id, actor_name,
 * created_at, read_at}], unread}.
 */
create function public.get_notifications(p_limit integer default 20, p_before timestamptz default null,
                                         p_unread_only boolean default false)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.notification_problem();
  target_org uuid := private.current_organization_id();
begin
  if problem is not null then
    return problem;
  end if;
  return jsonb_build_object('success', true,
    'notifications', (select coalesce(jsonb_agg(private.notification_json(page) order by page.created_at desc, page.id desc), '[]')
                        from (select * from private.notifications n
                               where n.user_id = auth.uid() and n.organization_id = target_org
                                 and (p_before is null or n.created_at < p_before)
                                 and (not coalesce(p_unread_only, false) or n.read_at is null)
                               order by n.created_at desc, n.id desc
                               limit least(greatest(coalesce(p_limit, 20), 1), 100)) page),
    'unread', private.unread_notifications(auth.uid(), target_org));
end;
$$;

/** How many unread notifications the caller has in their session's organization: {success, unread}. */
create function public.get_unread_notification_count()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.notification_problem();
begin
  if problem is not null then
    return problem;
  end if;
  return jsonb_build_object('success', true,
                            'unread', private.unread_notifications(auth.uid(), private.current_organization_id()));
end;
$$;

/**
 * Marks some of the caller's notifications read (1 to 500 ids; ids that are not the
 * caller's in this organization, or already read, change nothing). {success, updated, unread}.
 */
create function public.mark_notifications_read(p_ids uuid[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.notification_problem();
  target_org uuid := private.current_organization_id();
  updated integer;
begin
  if problem is not null then
    return problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  update private.notifications n set read_at = now()
   where n.id = any (p_ids) and n.user_id = auth.uid() and n.organization_id = target_org and n.read_at is null;
  get diagnostics updated = row_count;
  return jsonb_build_object('success', true, 'updated', updated,
                            'unread', private.unread_notifications(auth.uid(), target_org));
end;
$$;

/** Marks every notification of the caller in their session's organization read: {success, updated, unread}. */
create function public.mark_all_notifications_read()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.notification_problem();
  target_org uuid := private.current_organization_id();
  updated integer;
begin
  if problem is not null then
    return problem;
  end if;
  update private.notifications n set read_at = now()
   where n.user_id = auth.uid() and n.organization_id = target_org and n.read_at is null;
  get diagnostics updated = row_count;
  return jsonb_build_object('success', true, 'updated', updated, 'unread', 0);
end;
$$;

/** The caller's preferences in this organization: {kinds (wanted), available (every kind)}. */
create function private.notification_preferences_json(p_user_id uuid, p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('success', true,
    'kinds', to_jsonb(coalesce((select array(select k from unnest(private.notification_kinds()) with ordinality as a (k, position)
                                              where k = any (p.kinds) order by a.position)
                                  from private.notification_preferences p
                                 where p.user_id = p_user_id and p.organization_id = p_organization_id),
                               private.notification_kinds())),
    'available', to_jsonb(private.notification_kinds()));
$$;

/** Which notification kinds the caller wants in their session's organization: {success, kinds, available}. */
create function public.get_notification_preferences()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.notification_problem();
begin
  if problem is not null then
    return problem;
  end if;
  return private.notification_preferences_json(auth.uid(), private.current_organization_id());
end;
$$;

/**
 * Saves which notification kinds the caller wants in their session's organization (an
 * empty list: none). An unknown kind refuses the change (invalid_fields, kinds: invalid).
 * {success, kinds, available}.
 */
create function public.save_notification_preferences(p_kinds text[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.notification_problem();
begin
  if problem is not null then
    return problem;
  end if;
  if p_kinds is null or cardinality(p_kinds) > 50 or not (p_kinds <@ private.notification_kinds()) then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"kinds": "invalid"}}');
  end if;
  insert into private.notification_preferences (user_id, organization_id, kinds)
  values (auth.uid(), private.current_organization_id(), (select coalesce(array_agg(distinct k), '{}') from unnest(p_kinds) k))
  on conflict (user_id, organization_id) do update set kinds = excluded.kinds, updated_at = now();
  return private.notification_preferences_json(auth.uid(), private.current_organization_id());
end;
$$;

-- ---------------------------------------------------------------------------------
-- Record transfer: moves tasks with their pending reminders, tells nobody per record
-- ---------------------------------------------------------------------------------

/**
 * Moves the chosen kinds of records from one member to another, all or nothing.
 * Defaults (spec section 9): deals, customers and tasks on; contracts, quotes and
 * templates off. Tasks keep their reminder and due times, so what is still to be
 * announced goes to the new owner. The new owner gets no notification per record
 * (crm.quiet_assignments): the transfer is one audited admin action.
 */
create or replace function public.transfer_user_records(
  from_user_id uuid, to_user_id uuid, organization_slug text default null,
  transfer_deals boolean default true, transfer_customers boolean default true,
  transfer_tasks boolean default true, transfer_contracts boolean default false,
  transfer_quotes boolean default false, transfer_templates boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  access jsonb := private.check_transfer_access(organization_slug);
  target_org uuid;
  schema_name text;
  chosen text[];
  kind_table record;
  moved bigint;
  transferred jsonb := '{}';
begin
  if not (access ->> 'success')::boolean then
    return access;
  end if;
  target_org := (access ->> 'organization_id')::uuid;
  schema_name := access ->> 'schema_name';
  if from_user_id is null or to_user_id is null or from_user_id = to_user_id then
    return private.failure('Transfer error: choose two different users', 'invalid_users');
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = from_user_id and m.organization_id = target_org)
     or not exists (select 1 from private.memberships m
                     where m.user_id = to_user_id and m.organization_id = target_org and m.is_active)
     or not private.is_account_usable(to_user_id) then
    return private.failure('User not found', 'user_not_found');
  end if;

  chosen := array_remove(array[
    case when coalesce(transfer_deals, true) then 'deals' end,
    case when coalesce(transfer_customers, true) then 'customers' end,
    case when coalesce(transfer_tasks, true) then 'tasks' end,
    case when coalesce(transfer_contracts, false) then 'contracts' end,
    case when coalesce(transfer_quotes, false) then 'quotes' end,
    case when coalesce(transfer_templates, false) then 'templates' end], null);

  begin
    perform pg_catalog.set_config('crm.quiet_assignments', 'on', true);
    for kind_table in select * from private.transfer_kinds() k where k.kind = any (chosen) loop
      execute format('update %I.%I set owner_id = $1 where owner_id = $2', schema_name, kind_table.table_name)
        using to_user_id, from_user_id;
      get diagnostics moved = row_count;
      if kind_table.is_primary then
        transferred := transferred || jsonb_build_object(kind_table.kind, moved);
      end if;
    end loop;
    perform pg_catalog.set_config('crm.quiet_assignments', 'off', true);
  exception when others then
    -- The block's changes are rolled back: nothing moved.
    perform pg_catalog.set_config('crm.quiet_assignments', 'off', true);
    return private.failure('Transfer error', 'transfer_failed');
  end;

  perform private.write_audit(target_org, 'user.records_transferred', 'user', from_user_id::text,
                              jsonb_build_object('to_user_id', to_user_id, 'transferred', transferred));
  return jsonb_build_object('success', true, 'message', 'Kayıtlar aktarıldı', 'kinds', to_jsonb(chosen),
                            'transferred', transferred);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Realtime (hosted Supabase): who may receive which private topic
-- ---------------------------------------------------------------------------------

/**
 * True when the caller may receive broadcasts on a Realtime topic: their session's
 * organization's board topic org:<organization_id>, or their own notification topic
 * user:<organization_id>:<user_id>. Read by the realtime.messages policy.
 */
create function public.can_receive_realtime_topic(p_topic text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select auth.uid() is not null and bound.organization_id is not null
     and p_topic in (format('org:%s', bound.organization_id), format('user:%s:%s', bound.organization_id, auth.uid()))
    from (select private.current_organization_id() as organization_id) bound;
$$;

do $$
begin
  if to_regnamespace('realtime') is not null and to_regclass('realtime.messages') is not null
     and to_regprocedure('realtime.topic()') is not null then
    execute 'drop policy if exists crm_receive_own_topics on realtime.messages';
    execute $policy$
      create policy crm_receive_own_topics on realtime.messages for select to authenticated
        using (realtime.messages.extension = 'broadcast' and public.can_receive_realtime_topic((select realtime.topic())))
    $policy$;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------
-- The home dashboard
-- ---------------------------------------------------------------------------------

-- A record's audit entries, newest first (the dashboard's recent activity and the record
-- timeline look entries up by their target).
create index audit_log_target_idx on private.audit_log (organization_id, target_type, target_id, created_at desc);

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
 * its record). [{action, module, record_id, title, actor_id, actor_name, at}].
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
     where private.caller_scope(m.key, 'view') is not null order by m.position
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
 */
create function public.get_dashboard()
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
  tenant text := private.tenant_schema(private.current_organization_id());
  settings private.organization_settings;
  deals_scope text := private.caller_scope('deals', 'view');
  tasks_scope text := private.caller_scope('tasks', 'view');
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
        'open', (select count(*) from %1$I.tasks t
                  where t.owner_id = $1 and t.deleted_at is null and t.status in ('open', 'in_progress')),
        'overdue', (select count(*) from %1$I.tasks t
                     where t.owner_id = $1 and t.deleted_at is null and t.status in ('open', 'in_progress') and t.due_at < now()),
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
      into tasks using caller;
  end if;

  return jsonb_build_object('success', true, 'currency', settings.default_currency, 'time_zone', settings.time_zone,
    'deals_scope', deals_scope, 'tasks_scope', tasks_scope,
    'pipeline', pipeline, 'won', won, 'lost', lost, 'tasks', tasks,
    'recent_activity', private.recent_activity(target_org, tenant, caller));
end;
$$;

-- ---------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
do $$
declare
  facade regprocedure;
begin
  for facade in
    select p.oid::regprocedure from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and p.proname in ('complete_task', 'get_task_views', 'get_notifications', 'get_unread_notification_count',
                         'mark_notifications_read', 'mark_all_notifications_read', 'get_notification_preferences',
                         'save_notification_preferences', 'can_receive_realtime_topic', 'transfer_user_records',
                         'get_dashboard')
  loop
    execute format('revoke execute on function %s from public, anon, authenticated', facade);
    execute format('grant execute on function %s to authenticated', facade);
  end loop;
end
$$;
