-- Each organization's own tables: documents and their versions.
-- Runs as a template step runs (search_path = the organization's schema).

create table documents (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  file_name text check (char_length(file_name) between 1 and 255),
  mime_type text check (char_length(mime_type) <= 200),
  size_bytes bigint not null default 0 check (size_bytes >= 0),
  current_version integer not null default 0 check (current_version >= 0),
  customer_id uuid references customers (id) on delete set null,
  contact_id uuid references contacts (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  quote_id uuid references quotes (id) on delete set null,
  contract_id uuid references contracts (id) on delete set null,
  search_text text generated always as (private.fold_search(
    title || ' ' || coalesce(file_name, ''))) stored,
  constraint documents_link_check check (num_nonnulls(customer_id, contact_id, deal_id, quote_id, contract_id) <= 1)
);

select private.add_record_columns(current_schema(), 'documents');

create index documents_search_idx on documents using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index documents_title_sort_idx on documents ((private.turkish_sort_key(title) collate "C"), id) where deleted_at is null;

create index documents_size_sort_idx on documents (size_bytes, id) where deleted_at is null;

create index documents_created_sort_idx on documents (created_at, id) where deleted_at is null;

create index documents_updated_sort_idx on documents (updated_at, id) where deleted_at is null;

-- A record's documents (and the foreign keys' on delete set null).
create index documents_customer_idx on documents (customer_id, updated_at desc) where customer_id is not null;

create index documents_contact_idx on documents (contact_id, updated_at desc) where contact_id is not null;

create index documents_deal_idx on documents (deal_id, updated_at desc) where deal_id is not null;

create index documents_quote_idx on documents (quote_id, updated_at desc) where quote_id is not null;

create index documents_contract_idx on documents (contract_id, updated_at desc) where contract_id is not null;

create table document_versions (
  id bigint generated always as identity primary key,
  document_id uuid not null references documents (id) on delete cascade,
  version integer not null check (version >= 1),
  object_path text not null unique check (char_length(object_path) <= 300),
  file_name text not null check (char_length(file_name) between 1 and 255),
  size_bytes bigint not null check (size_bytes between 1 and 26214400),
  mime_type text not null check (char_length(mime_type) <= 200),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  uploaded_by uuid not null,
  uploaded_at timestamptz not null default now(),
  unique (document_id, version)
);
