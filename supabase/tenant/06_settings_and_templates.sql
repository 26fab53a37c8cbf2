-- Each organization's own tables: document templates.
-- Runs as a template step runs (search_path = the organization's schema).

create table document_templates (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('quote', 'contract')),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  body text not null default '' check (char_length(body) <= 200000),
  is_default boolean not null default false
);

select private.add_record_columns(current_schema(), 'document_templates');

create unique index document_templates_one_default_idx on document_templates (kind)
  where is_default and deleted_at is null;
