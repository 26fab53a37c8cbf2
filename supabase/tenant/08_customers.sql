-- Each organization's own tables: customers.
-- Runs as a template step runs (search_path = the organization's schema).

create table customers (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 300),
  kind text not null default 'company' check (kind in ('company', 'person')),
  tax_number text check (tax_number ~ '^[0-9]{10,11}$'),
  tax_office text check (char_length(tax_office) <= 100),
  sector text check (char_length(sector) <= 100),
  status text not null default 'lead' check (status in ('lead', 'active', 'passive')),
  phone text check (phone ~ '^\+[0-9]{8,15}$'),
  email text check (char_length(email) <= 254),
  website text check (char_length(website) <= 300),
  city text check (char_length(city) <= 60),
  district text check (char_length(district) <= 60),
  address text check (char_length(address) <= 1000),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  description text check (char_length(description) <= 10000),
  merged_into uuid references customers (id),
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    name || ' ' || coalesce(tax_number, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')
    || ' ' || coalesce(city, ''))) stored
);

select private.add_record_columns(current_schema(), 'customers');

create index customers_search_idx on customers using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index customers_name_sort_idx on customers ((private.turkish_sort_key(name) collate "C"), id) where deleted_at is null;

create index customers_created_sort_idx on customers (created_at, id) where deleted_at is null;

create index customers_updated_sort_idx on customers (updated_at, id) where deleted_at is null;

create index customers_status_idx on customers (status, id) where deleted_at is null;

create index customers_tax_number_idx on customers (tax_number) where deleted_at is null;

create index customers_email_idx on customers (email) where deleted_at is null;

create index customers_phone_idx on customers (phone) where deleted_at is null;

-- merged_into points back into the table: without an index every hard delete of a
-- customer scans the whole table for rows merged into it (a bulk delete is quadratic).
create index customers_merged_into_idx on customers (merged_into) where merged_into is not null;

-- Named *_key so that the engine reports a clash as {"external_id": "duplicate"}.
create unique index customers_external_id_key on customers (external_id) where deleted_at is null and external_id is not null;

create trigger customers_assigned after insert on customers
  for each row execute function private.notify_assignment();

create trigger customers_reassigned after update of owner_id on customers
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();
