-- Each organization's own tables: contacts.
-- Runs as a template step runs (search_path = the organization's schema).

create table contacts (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  first_name text not null default '' check (char_length(first_name) <= 100),
  last_name text not null default '' check (char_length(last_name) <= 100),
  title text check (char_length(title) <= 100),
  emails jsonb not null default '[]' check (jsonb_typeof(emails) = 'array' and jsonb_array_length(emails) <= 10),
  phones jsonb not null default '[]' check (jsonb_typeof(phones) = 'array' and jsonb_array_length(phones) <= 10),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  description text check (char_length(description) <= 10000),
  kvkk_consent boolean not null default false,
  kvkk_consent_channel text check (kvkk_consent_channel in ('form', 'email', 'phone', 'in_person', 'other')),
  kvkk_consent_at timestamptz,
  kvkk_consent_source text check (char_length(kvkk_consent_source) <= 200),
  iys_consent jsonb not null default '{"call": false, "sms": false, "email": false}'
    check (jsonb_typeof(iys_consent) = 'object'),
  anonymized_at timestamptz,
  merged_into uuid references contacts (id),
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    first_name || ' ' || last_name || ' ' || coalesce(title, '') || ' ' || emails::text || ' ' || phones::text)) stored,
  constraint contacts_kvkk_consent_complete check (not kvkk_consent or (kvkk_consent_channel is not null and kvkk_consent_at is not null))
);

select private.add_record_columns(current_schema(), 'contacts');

create index contacts_customer_id_idx on contacts (customer_id);

create index contacts_search_idx on contacts using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index contacts_name_sort_idx on contacts ((private.turkish_sort_key(last_name) collate "C"), id) where deleted_at is null;

create index contacts_first_name_sort_idx on contacts ((private.turkish_sort_key(first_name) collate "C"), id) where deleted_at is null;

create index contacts_created_sort_idx on contacts (created_at, id) where deleted_at is null;

create index contacts_updated_sort_idx on contacts (updated_at, id) where deleted_at is null;

create index contacts_merged_into_idx on contacts (merged_into) where merged_into is not null;

create unique index contacts_external_id_key on contacts (external_id) where deleted_at is null and external_id is not null;
