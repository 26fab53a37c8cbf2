-- Custom fields (DESIGN.md D11): an organization's own typed fields on a sales module, each a
-- declaration here and a real column of the organization's table (its key is the column's
-- name, always cf_…, so that it can never meet a standard field the product adds later).
-- The record engine (private.prepare_record, private.record_page) reads these declarations
-- beside the module's standard columns; the admin manages them with the RPCs below.

create table private.custom_fields (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  module text not null references private.modules (key) on delete cascade,
  key text not null check (key ~ '^cf_[a-z][a-z0-9_]{0,39}$'),
  type text not null check (type in ('text', 'long_text', 'number', 'money', 'percent', 'date', 'datetime', 'boolean',
                                     'choice', 'multi_choice', 'email', 'phone', 'url', 'link')),
  label_tr text not null check (char_length(btrim(label_tr)) between 1 and 60),
  label_en text check (char_length(btrim(label_en)) between 1 and 60),
  required boolean not null default false,
  -- A choice field's options, in order: [{"value", "label_tr", "label_en", "color"}]; [] for other types.
  options jsonb not null default '[]' check (jsonb_typeof(options) = 'array'),
  -- A money field's currency; null for other types.
  currency text check (currency ~ '^[A-Z]{3}$'),
  -- A link field's module; null for other types.
  link_module text references private.modules (key) on delete cascade,
  position integer not null,
  hidden boolean not null default false,
  listed boolean not null default false,
  filterable boolean not null default false,
  searchable boolean not null default false,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, module, key),
  check ((type = 'money') = (currency is not null)),
  check ((type = 'link') = (link_module is not null)),
  check (type in ('choice', 'multi_choice') or options = '[]'),
  check (not searchable or type in ('text', 'long_text', 'email', 'phone', 'url'))
);

alter table private.custom_fields enable row level security;

comment on table private.custom_fields is
  'Each organization''s custom fields of a sales module: one declaration per field, the field itself a column (key) of the organization''s table.';
