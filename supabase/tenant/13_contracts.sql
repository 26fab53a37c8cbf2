-- Each organization's own tables: contracts.
-- Runs as a template step runs (search_path = the organization's schema).

create table contracts (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  title text not null check (char_length(btrim(title)) between 1 and 300),
  contract_number text check (char_length(contract_number) <= 60),
  contact_id uuid references contacts (id) on delete set null,
  quote_id uuid references quotes (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  contract_type text not null default 'service'
    check (contract_type in ('service', 'sales', 'maintenance', 'license', 'nda', 'other')),
  start_date date,
  end_date date,
  value numeric(18, 2) not null default 0 check (value >= 0),
  -- Whether value includes KDV (false: value is the net, KDV on top) and the KDV amount
  -- when it is known (a contract from a quote: the quote's KDV total, exact).
  value_includes_vat boolean not null default false,
  vat_amount numeric(18, 2) check (vat_amount >= 0),
  -- The part of the stated KDV withheld (tevkifat) and its ratio ("7/10") when one ratio
  -- applies (a contract from a quote: the quote's withholding total, exact); the customer
  -- pays the value with its KDV less this.
  withholding_amount numeric(18, 2) check (withholding_amount >= 0),
  withholding_rate text check (withholding_rate in ('2/10', '3/10', '4/10', '5/10', '7/10', '9/10', '10/10')),
  currency text not null default 'TRY' check (currency ~ '^[A-Z]{3}$'),
  status private.contract_status not null default 'draft',
  customer_signed_on date,
  company_signed_on date,
  auto_renew boolean not null default false,
  renewal_notice_days integer not null default 30 check (renewal_notice_days between 0 and 365),
  renewal_term_months integer not null default 12 check (renewal_term_months between 1 and 120),
  previous_contract_id uuid references contracts (id) on delete set null,
  terminated_at timestamptz,
  termination_reason text check (char_length(termination_reason) <= 1000),
  notes text check (char_length(notes) <= 10000),
  -- When the owner was told the renewal notice date had come (once; a new end date or
  -- notice period clears it).
  renewal_notified_at timestamptz,
  search_text text generated always as (private.fold_search(
    coalesce(contract_number, '') || ' ' || title)) stored,
  constraint contracts_end_date_check check (end_date >= start_date),
  constraint contracts_dates_check check (status in ('draft', 'terminated') or (start_date is not null and end_date is not null)),
  constraint contracts_vat_check check (not value_includes_vat or vat_amount is null or vat_amount <= value),
  constraint contracts_withholding_check check (withholding_amount is null or withholding_amount <= vat_amount),
  constraint contracts_terminated_check check ((status = 'terminated') = (terminated_at is not null))
);

select private.add_record_columns(current_schema(), 'contracts');

create index contracts_customer_id_idx on contracts (customer_id);

create unique index contracts_number_idx on contracts (contract_number);

-- One next term per contract: a terminated or deleted draft renewal leaves room for another.
create unique index contracts_previous_idx on contracts (previous_contract_id)
  where deleted_at is null and status <> 'terminated';

create index contracts_contact_id_idx on contracts (contact_id);

create index contracts_quote_id_idx on contracts (quote_id);

create index contracts_deal_id_idx on contracts (deal_id);

create index contracts_search_idx on contracts using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index contracts_title_sort_idx on contracts ((private.turkish_sort_key(title) collate "C"), id) where deleted_at is null;

create index contracts_number_sort_idx on contracts ((private.turkish_sort_key(contract_number) collate "C"), id) where deleted_at is null;

create index contracts_start_sort_idx on contracts (start_date, id) where deleted_at is null;

create index contracts_end_sort_idx on contracts (end_date, id) where deleted_at is null;

create index contracts_value_sort_idx on contracts (value, id) where deleted_at is null;

create index contracts_status_sort_idx on contracts (status, id) where deleted_at is null;

create index contracts_created_sort_idx on contracts (created_at, id) where deleted_at is null;

create index contracts_updated_sort_idx on contracts (updated_at, id) where deleted_at is null;

-- Active contracts by end date: the ending-soon list, expiry and the renewal notices.
create index contracts_active_end_idx on contracts (end_date) where deleted_at is null and status = 'active';

create trigger contract_number before insert on contracts
  for each row execute function private.contract_fill_number();

-- A next term once active marks the term it renews renewed (a draft renewal does not yet).
create trigger contract_renews after insert or update of status on contracts
  for each row when (new.status = 'active' and new.previous_contract_id is not null)
  execute function private.contract_mark_renewed();
