-- Each organization's own tables: tasks and their due totals.
-- Runs as a template step runs (search_path = the organization's schema).

create table tasks (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  due_at timestamptz,
  completed_at timestamptz,
  description text check (char_length(description) <= 10000),
  type text check (char_length(type) between 1 and 40),
  priority private.task_priority not null default 'normal',
  status private.task_status not null default 'open',
  remind_at timestamptz,
  completed_by uuid,
  customer_id uuid references customers (id) on delete set null,
  contact_id uuid references contacts (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  -- When the reminder, the due-soon and the overdue notification went out (once each;
  -- a new remind_at or due_at clears its own).
  reminded_at timestamptz,
  due_notified_at timestamptz,
  overdue_notified_at timestamptz,
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    title || ' ' || coalesce(left(description, 2000), ''))) stored,
  constraint tasks_completed_at_check check ((status = 'done') = (completed_at is not null)),
  constraint tasks_remind_at_check check (remind_at <= due_at)
);

select private.add_record_columns(current_schema(), 'tasks');

create index tasks_search_idx on tasks using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index tasks_open_due_idx on tasks (due_at) where deleted_at is null and status in ('open', 'in_progress');

-- Whole-table indexes: the merge and on delete set null look up deleted tasks too.
create index tasks_customer_id_idx on tasks (customer_id);

create index tasks_contact_id_idx on tasks (contact_id);

create index tasks_deal_id_idx on tasks (deal_id);

create index tasks_updated_sort_idx on tasks (updated_at, id) where deleted_at is null;

create index tasks_created_sort_idx on tasks (created_at, id) where deleted_at is null;

create index tasks_due_sort_idx on tasks (due_at, id) where deleted_at is null;

create index tasks_title_sort_idx on tasks ((private.turkish_sort_key(title) collate "C"), id) where deleted_at is null;

create index tasks_priority_sort_idx on tasks (priority, id) where deleted_at is null;

create index tasks_status_sort_idx on tasks (status, id) where deleted_at is null;

create index tasks_owner_updated_idx on tasks (owner_id, updated_at desc) where deleted_at is null;

-- An owner's open and in-progress tasks in due order (the dashboard's next five read five
-- rows, and the tasks falling due earlier today).
create index tasks_owner_status_due_id_idx on tasks (owner_id, status, due_at, id) where deleted_at is null;

-- What the due-items step has still to announce (each shrinks as it does).
create index tasks_remind_pending_idx on tasks (remind_at)
  where reminded_at is null and deleted_at is null and status in ('open', 'in_progress');

create index tasks_due_pending_idx on tasks (due_at)
  where due_notified_at is null and deleted_at is null and status in ('open', 'in_progress');

create index tasks_overdue_pending_idx on tasks (due_at)
  where overdue_notified_at is null and deleted_at is null and status in ('open', 'in_progress');

create unique index tasks_external_id_key on tasks (external_id) where deleted_at is null and external_id is not null;

create trigger tasks_assigned after insert on tasks
  for each row execute function private.notify_assignment();

create trigger tasks_reassigned after update of owner_id on tasks
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();

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
