-- Each organization's own tables: deals, their contacts, stage history and board and forecast totals.
-- Runs as a template step runs (search_path = the organization's schema).

create table deals (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  title text not null check (char_length(btrim(title)) between 1 and 300),
  amount numeric(16, 2) not null default 0 check (amount >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  stage text not null check (stage ~ '^[a-z][a-z0-9_]{0,39}$'),
  probability integer check (probability between 0 and 100),
  expected_close_date date,
  source text check (char_length(source) <= 100),
  description text check (char_length(description) <= 10000),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  lost_reason text check (char_length(lost_reason) <= 500),
  closed_at timestamptz,
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    title || ' ' || coalesce(source, ''))) stored
);

select private.add_record_columns(current_schema(), 'deals');

create index deals_customer_id_idx on deals (customer_id);

create index deals_search_idx on deals using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

-- The board: a stage's cards, most recently changed first (all, or one owner's).
create index deals_board_idx on deals (stage, updated_at desc, id desc) where deleted_at is null;

create index deals_owner_board_idx on deals (owner_id, stage, updated_at desc, id desc) where deleted_at is null;

-- The forecast (open deals by expected close, read from the index alone) and the lists' sorts.
create index deals_expected_close_idx on deals (expected_close_date, id)
  include (stage, owner_id, currency, amount, probability) where deleted_at is null;

create index deals_title_sort_idx on deals ((private.turkish_sort_key(title) collate "C"), id) where deleted_at is null;

create index deals_stage_sort_idx on deals ((private.turkish_sort_key(stage) collate "C"), id) where deleted_at is null;

create index deals_amount_sort_idx on deals (amount, id) where deleted_at is null;

create index deals_created_sort_idx on deals (created_at, id) where deleted_at is null;

create index deals_updated_sort_idx on deals (updated_at, id) where deleted_at is null;

create index deals_customer_live_idx on deals (customer_id) where deleted_at is null;

-- The home dashboard: deals won or lost since the quarter began (from the index alone).
create index deals_closed_idx on deals (closed_at) include (stage, currency, amount, owner_id)
  where deleted_at is null and closed_at is not null;

create unique index deals_external_id_key on deals (external_id) where deleted_at is null and external_id is not null;

create trigger deal_defaults before insert on deals for each row execute function private.deal_fill_defaults();

create trigger deals_assigned after insert on deals
  for each row execute function private.notify_assignment();

create trigger deals_reassigned after update of owner_id on deals
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();

create trigger deals_board_broadcast after insert or update or delete on deals
  for each statement execute function private.broadcast_deal_change();

create table deal_contacts (
  deal_id uuid not null references deals (id) on delete cascade,
  contact_id uuid not null references contacts (id) on delete cascade,
  created_by uuid,
  created_at timestamptz not null default now(),
  primary key (deal_id, contact_id)
);

create index deal_contacts_contact_idx on deal_contacts (contact_id);

create trigger merge_link before update on deal_contacts
  for each row execute function private.deal_contacts_merge_link();

create table deal_stage_history (
  id bigint generated always as identity primary key,
  deal_id uuid not null references deals (id) on delete cascade,
  from_stage text check (char_length(from_stage) <= 40),
  to_stage text not null check (char_length(to_stage) <= 40),
  changed_by uuid,
  changed_at timestamptz not null default now()
);

create index deal_stage_history_deal_idx on deal_stage_history (deal_id, changed_at, id);

-- The board's counts and totals of live deals per owner, stage and currency, kept by the
-- triggers below (counting 200,000 deals on every board load would not be fast).
create table deal_stage_totals (
  owner_id uuid not null,
  stage text not null,
  currency text not null,
  deal_count bigint not null default 0,
  amount numeric(20, 2) not null default 0,
  primary key (owner_id, stage, currency)
);

create trigger after_insert after insert on deals
  referencing new table as new_deals
  for each statement execute function private.deal_after_write();

create trigger after_update after update on deals
  referencing old table as old_deals new table as new_deals
  for each statement execute function private.deal_after_write();

create trigger after_delete after delete on deals
  referencing old table as old_deals
  for each statement execute function private.deal_after_write();

create trigger after_truncate after truncate on deals
  for each statement execute function private.deal_after_truncate();

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
