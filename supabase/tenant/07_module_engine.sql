-- Each organization's own tables: notes, field history and saved views.
-- Runs as a template step runs (search_path = the organization's schema).

create table notes (
  id uuid primary key default gen_random_uuid(),
  -- A registered module's entity type (private.modules.entity_type, which the engine writes).
  entity_type text not null check (entity_type ~ '^[a-z_]{1,40}$'),
  entity_id uuid not null,
  body text not null check (char_length(body) between 1 and 20000)
);

select private.add_record_columns(current_schema(), 'notes');

create index notes_entity_idx on notes (entity_type, entity_id);

create table field_history (
  id bigint generated always as identity primary key,
  entity_type text not null check (char_length(entity_type) <= 40),
  record_id uuid not null,
  field text not null check (char_length(field) <= 63),
  old_value jsonb,
  new_value jsonb,
  changed_by uuid,
  changed_at timestamptz not null default now()
);

create index field_history_record_idx on field_history (record_id, changed_at desc);

create table saved_views (
  id uuid primary key default gen_random_uuid(),
  module text not null check (module ~ '^[a-z][a-z_]{0,39}$'),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  owner_id uuid not null,
  is_shared boolean not null default false,
  -- {search, filters, sort, descending, columns}, checked against the module's registry row.
  definition jsonb not null default '{}' check (jsonb_typeof(definition) = 'object' and octet_length(definition::text) <= 10000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index saved_views_module_idx on saved_views (module, owner_id);

create trigger touch_updated_at before update on saved_views for each row execute function private.touch_updated_at();
