-- Tasks (type, priority, status, reminder, related records) and notifications: who is
-- told what, preferences, the due-items step, the bell and realtime broadcasts.

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
  -- The e-mail digest (22_notification_digests.sql): wanted or not; the notifications made
  -- after digest_from are due in the next one; the last one was sent at last_digest_at.
  email_digest boolean not null default false,
  digest_from timestamptz,
  last_digest_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (user_id, organization_id)
);

alter table private.notification_preferences enable row level security;

comment on table private.notification_preferences is
  'Which notification kinds a member wants in an organization (default: all), and whether by e-mail digest too (default: no).';

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
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select exists (select 1 from private.memberships m
                    where m.user_id = p_user_id and m.organization_id = p_organization_id and m.is_active)
       and coalesce((select p_kind = any (p.kinds) from private.notification_preferences p
                      where p.user_id = p_user_id and p.organization_id = p_organization_id), true));
end;
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
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select jsonb_build_object(
      'id', p_notification.id, 'kind', p_notification.kind, 'module', p_notification.module,
      'record_id', p_notification.record_id, 'title', p_notification.title, 'actor_id', p_notification.actor_id,
      'actor_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                       from private.profiles p where p.id = p_notification.actor_id),
      'created_at', p_notification.created_at, 'read_at', p_notification.read_at));
end;
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
language plpgsql
security definer
set search_path = ''
as $$
declare
  created uuid;
begin
  insert into private.notifications (organization_id, user_id, kind, module, record_id, title, actor_id)
  select p_organization_id, p_user_id, p_kind, p_module, p_record_id, left(p_title, 300), p_actor
   where private.wants_notification(p_organization_id, p_user_id, p_kind)
  returning id into created;
  return created;
end;
$$;

/**
 * Trigger of tasks, deals and customers: a record created for, or given
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
 * A task's own rules (its title, at most 200 characters, and description, 10,000, are their
 * declared types'): a type from the organization's task_types (invalid_type); priority and status from
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
  foreach field in array array['type', 'priority', 'status'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

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

select private.register_module(
  p_key => 'tasks', p_position => 7, p_table_name => 'tasks', p_entity_type => 'task',
  p_fields => jsonb_build_array(
    private.field_declaration('title', 'text', 'Başlık', 'Title', '{required,listed,sortable,own_ui}', 200,
                              p_import_names => '{Görev,"Görev Adı",Konu,İş,Task,Subject}'),
    private.field_declaration('description', 'long_text', 'Açıklama', 'Description', '{own_ui}', 10000),
    -- The built-in types; an organization adds its own (organization_settings.task_types), so
    -- prepare_task holds the rule and an import takes a type outside these as written.
    private.field_declaration('type', 'choice', 'Tür', 'Type', '{listed,filterable,own_rule,own_ui}',
                              p_options => '{call,Arama,Call,meeting,Toplantı,Meeting,email,E-posta,Email,visit,Ziyaret,Visit,other,Diğer,Other}',
                              p_import_names => '{Tip,"Görev Türü","Task type"}',
                              p_option_import_names => '{"call": ["Telefon", "Phone call"], "meeting": ["Görüşme"], "email": ["Mail"]}'),
    private.field_declaration('priority', 'choice', 'Öncelik', 'Priority', '{listed,sortable,filterable,own_rule,own_ui}',
                              p_options => '{low,Düşük,Low,normal,Normal,Normal,high,Yüksek,High,urgent,Acil,Urgent}',
                              p_import_names => '{Önem}',
                              p_option_import_names => '{"normal": ["Orta", "Medium"], "urgent": ["Kritik", "Critical"]}'),
    private.field_declaration('status', 'choice', 'Durum', 'Status', '{listed,sortable,filterable,own_rule,own_ui}',
                              p_options => '{open,Açık,Open,in_progress,Devam ediyor,In progress,done,Tamamlandı,Done,cancelled,İptal,Cancelled}',
                              p_option_import_names => '{"open": ["Yeni", "New"], "in_progress": ["Sürüyor"],
                                                         "done": ["Bitti", "Yapıldı", "Completed"], "cancelled": ["İptal edildi", "Canceled"]}'),
    private.field_declaration('due_at', 'datetime', 'Son tarih', 'Due', '{listed,sortable,filterable,own_rule,own_ui}',
                              p_import_names => '{"Bitiş Tarihi",Termin,"Due date",Deadline}'),
    private.field_declaration('remind_at', 'datetime', 'Hatırlatma', 'Reminder', '{listed,own_rule,own_ui}',
                              p_import_names => '{"Hatırlatma Tarihi","Remind at"}'),
    private.field_declaration('completed_at', 'datetime', 'Tamamlanma', 'Completed', '{readonly,listed,filterable,own_ui}'),
    private.field_declaration('customer_id', 'link', 'Müşteri', 'Customer', '{listed,sortable,filterable,own_rule,own_ui}', p_link_module => 'customers'),
    private.field_declaration('contact_id', 'link', 'Kişi', 'Contact', '{listed,sortable,filterable,own_rule,own_ui}', p_link_module => 'contacts',
                              p_import_names => '{"İlgili Kişi","Kişi Adı","Contact name"}'),
    private.field_declaration('deal_id', 'link', 'Fırsat', 'Deal', '{listed,sortable,filterable,own_rule,own_ui}', p_link_module => 'deals',
                              p_import_names => '{"Fırsat Adı",Opportunity}'),
    private.field_declaration('external_id', 'text', 'Harici kod', 'External code', '{own_rule,own_ui}',
                              p_import_names => '{"Görev Kodu","Task code"}')),
  p_default_sort => 'due_at', p_default_descending => false, p_searchable => true,
  p_prepare_function => 'prepare_task', p_transfer_kind => 'tasks', p_transfer_default => true);

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
revoke all on function public.complete_task(p_id uuid, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.complete_task(p_id uuid, p_updated_at timestamp with time zone) to authenticated;

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
revoke all on function public.get_task_views() from public, anon, authenticated;
grant execute on function public.get_task_views() to authenticated;

/**
 * The scheduled step in one organization (every minute, in each organization:
 * private.scheduled_jobs): open and in-progress tasks whose reminder time has come
 * (task_reminder), that fall due within the next hour (task_due) or whose due time has
 * passed (task_overdue) tell their owner, once per task and kind: the bookkeeping column is
 * set in the same statement, so concurrent runs cannot repeat one, and a member who turned
 * the kind off is skipped (still marked). Returns how many notifications of each kind were
 * made; nothing for an organization without its tables.
 */
create function private.notify_due_items(p_organization_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  schema_name text := private.tenant_schema(p_organization_id);
  made integer;
  counts jsonb := '{"task_reminder": 0, "task_due": 0, "task_overdue": 0}';
  step record;
begin
  if schema_name is null or to_regclass(format('%I.tasks', schema_name)) is null then
    return counts;
  end if;
  for step in
    select * from (values
      ('task_reminder', 'reminded_at', 't.remind_at <= now() and t.reminded_at is null'),
      ('task_overdue', 'overdue_notified_at', 't.due_at <= now() and t.overdue_notified_at is null'),
      ('task_due', 'due_notified_at', 't.due_at > now() and t.due_at <= now() + interval ''1 hour'' and t.due_notified_at is null')
    ) as s (kind, bookkeeping, due_condition)
  loop
    -- Marks only: the tasks' updated_at stays (private.touch_updated_at), so a save begun before stays valid.
    perform pg_catalog.set_config('crm.bookkeeping_update', 'on', true);
    execute format($query$
      with announced as (
        update %1$I.tasks t set %2$I = now()
         where %3$s and t.deleted_at is null and t.status in ('open', 'in_progress')
        returning t.id, t.owner_id, t.title)
      select count(private.notify($1, a.owner_id, $2, 'tasks', a.id, a.title, null)) from announced a$query$,
      schema_name, step.bookkeeping, step.due_condition)
      into made using p_organization_id, step.kind;
    perform pg_catalog.set_config('crm.bookkeeping_update', 'off', true);
    counts := counts || jsonb_build_object(step.kind, made);
  end loop;
  return counts;
end;
$$;

-- Every minute (private.scheduled_jobs).
insert into private.scheduled_jobs (name, schedule, function_name, in_each_organization)
values ('crm-notify-due-items', '* * * * *', 'notify_due_items', true);

/** How many unread notifications the member has in the organization. */
create function private.unread_notifications(p_user_id uuid, p_organization_id uuid)
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select count(*)::integer from private.notifications n
     where n.user_id = p_user_id and n.organization_id = p_organization_id and n.read_at is null);
end;
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
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
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
revoke all on function public.get_notifications(p_limit integer, p_before timestamp with time zone, p_unread_only boolean) from public, anon, authenticated;
grant execute on function public.get_notifications(p_limit integer, p_before timestamp with time zone, p_unread_only boolean) to authenticated;

/** How many unread notifications the caller has in their session's organization: {success, unread}. */
create function public.get_unread_notification_count()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true,
                            'unread', private.unread_notifications(auth.uid(), caller.organization_id));
end;
$$;
revoke all on function public.get_unread_notification_count() from public, anon, authenticated;
grant execute on function public.get_unread_notification_count() to authenticated;

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
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
  updated integer;
begin
  if caller.problem is not null then
    return caller.problem;
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
revoke all on function public.mark_notifications_read(p_ids uuid[]) from public, anon, authenticated;
grant execute on function public.mark_notifications_read(p_ids uuid[]) to authenticated;

/** Marks every notification of the caller in their session's organization read: {success, updated, unread}. */
create function public.mark_all_notifications_read()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
  updated integer;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  update private.notifications n set read_at = now()
   where n.user_id = auth.uid() and n.organization_id = target_org and n.read_at is null;
  get diagnostics updated = row_count;
  return jsonb_build_object('success', true, 'updated', updated, 'unread', 0);
end;
$$;
revoke all on function public.mark_all_notifications_read() from public, anon, authenticated;
grant execute on function public.mark_all_notifications_read() to authenticated;

/** The caller's preferences in this organization: {kinds (wanted), available (every kind), email_digest}. */
create function private.notification_preferences_json(p_user_id uuid, p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select jsonb_build_object('success', true,
      'kinds', to_jsonb(coalesce((select array(select k from unnest(private.notification_kinds()) with ordinality as a (k, position)
                                                where k = any (p.kinds) order by a.position)
                                    from private.notification_preferences p
                                   where p.user_id = p_user_id and p.organization_id = p_organization_id),
                                 private.notification_kinds())),
      'available', to_jsonb(private.notification_kinds()),
      'email_digest', coalesce((select p.email_digest from private.notification_preferences p
                                 where p.user_id = p_user_id and p.organization_id = p_organization_id), false)));
end;
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
  caller private.caller_context := private.caller_context('organization');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return private.notification_preferences_json(auth.uid(), caller.organization_id);
end;
$$;
revoke all on function public.get_notification_preferences() from public, anon, authenticated;
grant execute on function public.get_notification_preferences() to authenticated;

/**
 * Saves which notification kinds the caller wants in their session's organization (an
 * empty list: none) and, when p_email_digest is given, whether they also want them by
 * e-mail, at most one digest an hour (22_notification_digests.sql; turning it on counts the
 * notifications made from then on). An unknown kind refuses the change (invalid_fields,
 * kinds: invalid). {success, kinds, available, email_digest}.
 */
create function public.save_notification_preferences(p_kinds text[], p_email_digest boolean default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if p_kinds is null or cardinality(p_kinds) > 50 or not (p_kinds <@ private.notification_kinds()) then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"kinds": "invalid"}}');
  end if;
  insert into private.notification_preferences as p (user_id, organization_id, kinds, email_digest, digest_from)
  values (auth.uid(), caller.organization_id, (select coalesce(array_agg(distinct k), '{}') from unnest(p_kinds) k),
          coalesce(p_email_digest, false), case when p_email_digest then now() end)
  on conflict (user_id, organization_id) do update
    set kinds = excluded.kinds,
        email_digest = coalesce(p_email_digest, p.email_digest),
        -- Turned on now: what was made before is not mailed afterwards.
        digest_from = case when p_email_digest and not p.email_digest then now() else p.digest_from end,
        updated_at = now();
  return private.notification_preferences_json(auth.uid(), caller.organization_id);
end;
$$;
revoke all on function public.save_notification_preferences(p_kinds text[], p_email_digest boolean) from public, anon, authenticated;
grant execute on function public.save_notification_preferences(p_kinds text[], p_email_digest boolean) to authenticated;

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
  select caller.problem is null
     and p_topic in (format('org:%s', caller.organization_id), format('user:%s:%s', caller.organization_id, caller.user_id))
    from private.caller_context('organization') caller;
$$;
revoke all on function public.can_receive_realtime_topic(p_topic text) from public, anon, authenticated;
grant execute on function public.can_receive_realtime_topic(p_topic text) to authenticated;

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

/**
 * Trigger (after insert, update and delete on tasks, per statement, with the transition
 * tables new_tasks and old_tasks): task_due_totals counts the live open and
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

/** Trigger (after truncate on tasks): the tasks' totals empty too. */
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
