-- Each organization's own tables: products, quotes and quote lines.
-- Runs as a template step runs (search_path = the organization's schema).

create table products (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  unit text check (char_length(unit) <= 20),
  unit_price numeric(16, 4) not null default 0 check (unit_price >= 0),
  currency text not null default 'TRY' check (currency ~ '^[A-Z]{3}$'),
  vat_rate numeric(5, 2) not null default 20 check (vat_rate between 0 and 100),
  description text check (char_length(description) <= 2000),
  active boolean not null default true,
  external_id text check (char_length(external_id) between 1 and 100)
);

select private.add_record_columns(current_schema(), 'products');

create index products_name_idx on products ((private.turkish_sort_key(name) collate "C"), id) where deleted_at is null;

create unique index products_external_id_key on products (external_id) where deleted_at is null and external_id is not null;

create table quotes (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  quote_number text check (char_length(quote_number) <= 60),
  revision integer not null default 1 check (revision between 1 and 999),
  root_quote_id uuid references quotes (id) on delete set null,
  superseded_by uuid references quotes (id) on delete set null,
  contact_id uuid references contacts (id) on delete set null,
  status text not null default 'draft' check (status in ('draft', 'sent', 'accepted', 'rejected', 'expired')),
  quote_date date not null,
  valid_until date not null,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  exchange_rate numeric(18, 6) check (exchange_rate > 0),
  exchange_rate_date date,
  exchange_rate_manual boolean not null default false,
  prices_include_vat boolean not null default false,
  document_discount_type text check (document_discount_type in ('percent', 'amount')),
  document_discount_value numeric(16, 2) not null default 0 check (document_discount_value >= 0),
  payment_terms text check (char_length(payment_terms) <= 2000),
  notes text check (char_length(notes) <= 10000),
  sent_at timestamptz,
  accepted_at timestamptz,
  rejected_at timestamptz,
  rejection_reason text check (char_length(rejection_reason) <= 1000),
  gross_total numeric(18, 2) not null default 0,
  line_discount_total numeric(18, 2) not null default 0,
  document_discount_total numeric(18, 2) not null default 0,
  net_total numeric(18, 2) not null default 0,
  vat_total numeric(18, 2) not null default 0,
  withholding_total numeric(18, 2) not null default 0,
  grand_total numeric(18, 2) not null default 0,
  grand_total_try numeric(18, 2),
  is_latest boolean generated always as (superseded_by is null) stored,
  search_text text generated always as (private.fold_search(coalesce(quote_number, ''))) stored,
  constraint quotes_valid_until_check check (valid_until >= quote_date),
  constraint quotes_exchange_rate_required_check check (status = 'draft' or exchange_rate is not null)
);

select private.add_record_columns(current_schema(), 'quotes');

create index quotes_customer_id_idx on quotes (customer_id);

create index quotes_deal_id_idx on quotes (deal_id);

create index quotes_search_idx on quotes using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create unique index quotes_number_revision_idx on quotes (quote_number, revision) where quote_number is not null;

create index quotes_root_idx on quotes (root_quote_id) where root_quote_id is not null;

create index quotes_number_sort_idx on quotes ((private.turkish_sort_key(quote_number) collate "C"), id) where deleted_at is null;

create index quotes_date_sort_idx on quotes (quote_date, id) where deleted_at is null;

create index quotes_valid_until_sort_idx on quotes (valid_until, id) where deleted_at is null;

create index quotes_total_sort_idx on quotes (grand_total, id) where deleted_at is null;

create index quotes_updated_sort_idx on quotes (updated_at, id) where deleted_at is null;

create index quotes_status_idx on quotes (status, id) where deleted_at is null;

create index quotes_contact_id_idx on quotes (contact_id);

-- The expiry step: sent quotes by their last valid day.
create index quotes_sent_expiry_idx on quotes (valid_until) where status = 'sent' and deleted_at is null;

create trigger quote_before_write before insert or update on quotes
  for each row execute function private.quote_before_write();

create table quote_items (
  id uuid primary key default gen_random_uuid(),
  quote_id uuid not null references quotes (id) on delete cascade,
  position integer not null default 0,
  description text not null default '' check (char_length(description) <= 2000),
  quantity numeric(14, 3) not null default 1,
  unit_price numeric(16, 4) not null default 0,
  product_id uuid references products (id) on delete set null,
  unit text check (char_length(unit) <= 20),
  discount_type text check (discount_type in ('percent', 'amount')),
  discount_value numeric(16, 2) not null default 0 check (discount_value >= 0),
  vat_rate numeric(5, 2) not null default 20 check (vat_rate between 0 and 100),
  vat_exemption_reason text check (char_length(vat_exemption_reason) <= 200),
  withholding_rate text check (withholding_rate in ('2/10', '3/10', '4/10', '5/10', '7/10', '9/10', '10/10'))
);

select private.add_record_columns(current_schema(), 'quote_items');

create index quote_items_quote_id_idx on quote_items (quote_id, position);

create index quote_items_product_id_idx on quote_items (product_id) where product_id is not null;
