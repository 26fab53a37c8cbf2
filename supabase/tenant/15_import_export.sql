-- Each organization's own tables: imports, their batches and rows, and saved mappings.
-- Runs as a template step runs (search_path = the organization's schema).

create table imports (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind ~ '^[a-z][a-z_]{0,39}$'),
  file_name text not null check (char_length(file_name) between 1 and 255),
  file_size bigint not null check (file_size >= 1),
  -- sha256 of the file: a resumed import is the same file.
  file_hash text not null check (file_hash ~ '^[0-9a-f]{64}$'),
  mode text not null check (mode in ('create', 'upsert', 'update')),
  match_key text check (match_key ~ '^[a-z][a-z_]{0,39}$'),
  -- {"<header>": "<field>"} as the person chose it.
  mapping jsonb not null default '{}' check (jsonb_typeof(mapping) = 'object'),
  status text not null default 'running' check (status in ('running', 'completed', 'cancelled', 'reverted')),
  total_rows integer not null check (total_rows >= 1),
  created integer not null default 0,
  updated integer not null default 0,
  skipped integer not null default 0,
  failed integer not null default 0,
  created_by uuid not null,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  reverted_at timestamptz,
  reverted_by uuid,
  check (mode = 'create' or match_key is not null)
);

create index imports_created_at_idx on imports (created_at desc, id);

create index imports_created_by_idx on imports (created_by, created_at desc);

-- Each applied batch and its answer: the same batch again gets this answer and changes nothing.
create table import_batches (
  import_id uuid not null references imports (id) on delete cascade,
  batch integer not null check (batch >= 0),
  result jsonb not null,
  created_at timestamptz not null default now(),
  primary key (import_id, batch)
);

-- Every record an import created or updated, the old values of the columns it changed,
-- and the record's updated_at after the import wrote it (the undo refuses a record
-- changed since).
create table import_rows (
  import_id uuid not null references imports (id) on delete cascade,
  record_id uuid not null,
  action text not null check (action in ('created', 'updated')),
  previous jsonb check (jsonb_typeof(previous) = 'object'),
  written_at timestamptz not null,
  primary key (import_id, record_id)
);

create table import_mappings (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind ~ '^[a-z][a-z_]{0,39}$'),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  mapping jsonb not null check (jsonb_typeof(mapping) = 'object' and octet_length(mapping::text) <= 65536)
);

select private.add_record_columns(current_schema(), 'import_mappings');

create unique index import_mappings_name_key on import_mappings (owner_id, kind, name) where deleted_at is null;
