-- One module engine (issue 11, DESIGN.md D9):
-- * private.modules is the one list of sales modules: table, actions, the columns a
--   client may write, sort and filter on, the list projection, search, the transfer kind
--   and the module's own rules (a prepare function). Permissions, default roles, the
--   roles matrix and the transfer kinds read it.
-- * private.module_context(module, action) is the one guard of every tenant record RPC:
--   the caller, the session's organization, its schema, the module's table and the
--   own/all scope the role grants, or the refusal.
-- * The record engine (private.record_*) lists, reads, creates, updates (refusing a stale
--   updated_at), soft-deletes, restores and bulk-edits records, writes <module>.<action>
--   to the audit log and each changed field to the record's field history.
-- * Template v2 gives customers and contacts their real columns, a Turkish-folded search
--   column with a trigram index, and every organization a field history.
-- * A thin typed public façade per module action, installed from the registry.

create extension if not exists pg_trgm with schema extensions;

-- ---------------------------------------------------------------------------------
-- The registry
-- ---------------------------------------------------------------------------------

create table private.module_actions (
  key text primary key check (key ~ '^[a-z]{1,20}$'),
  position integer not null unique
);
insert into private.module_actions (key, position)
values ('view', 1), ('create', 2), ('edit', 3), ('delete', 4), ('export', 5), ('import', 6);
alter table private.module_actions enable row level security;
comment on table private.module_actions is 'What a role may do in a module (the columns of the roles matrix).';

create table private.modules (
  key text primary key check (key ~ '^[a-z][a-z_]{0,39}$'),
  position integer not null unique,
  -- The tenant table holding the records (template columns: id, owner_id, created_by,
  -- created_at, updated_at, deleted_at).
  table_name text not null unique check (private.is_safe_identifier(table_name)),
  -- What notes and the timeline call a record of this module.
  entity_type text not null unique check (entity_type ~ '^[a-z_]{1,40}$'),
  -- Columns a client may set (owner_id is handled by the engine for every module).
  writable_columns text[] not null,
  sortable_columns text[] not null default '{created_at,updated_at}',
  filterable_columns text[] not null default '{}',
  -- Columns a list row carries besides id, owner_id, owner_name, created_at, updated_at.
  list_columns text[] not null,
  default_sort text not null default 'created_at',
  default_descending boolean not null default true,
  -- True when the table has a Turkish-folded search_text column with a trigram index.
  searchable boolean not null default false,
  -- The transfer option (spec section 3) that moves this module's records, and its default.
  transfer_kind text check (transfer_kind in ('deals', 'customers', 'tasks', 'contracts', 'quotes', 'templates')),
  transfer_default boolean not null default false,
  -- The module's own rules: private.<name>(p_values jsonb, p_existing jsonb) returns
  -- {"values": normalised values, "errors": {column: code}}.
  prepare_function text check (prepare_function ~ '^[a-z_]{1,60}$'),
  check (default_sort = any (sortable_columns))
);
alter table private.modules enable row level security;
comment on table private.modules is 'The sales modules: one row each; permissions, roles, transfer and the record engine read it.';

insert into private.modules (key, position, table_name, entity_type, writable_columns, sortable_columns,
                             filterable_columns, list_columns, default_sort, default_descending, searchable,
                             transfer_kind, transfer_default, prepare_function)
values
  ('customers', 1, 'customers', 'customer',
   '{name,kind,tax_number,tax_office,sector,status,phone,email,website,city,district,address,tags,description}',
   '{name,status,city,created_at,updated_at}', '{status,kind,city,sector,tags}',
   '{name,kind,tax_number,status,sector,phone,email,city,district,tags}', 'name', false, true,
   'customers', true, 'prepare_customer'),
  ('contacts', 2, 'contacts', 'contact',
   '{customer_id,first_name,last_name,title,emails,phones,tags,description,kvkk_consent,kvkk_consent_channel,kvkk_consent_at,kvkk_consent_source,iys_consent}',
   '{last_name,first_name,created_at,updated_at}', '{customer_id,tags,kvkk_consent}',
   '{customer_id,first_name,last_name,title,emails,phones,tags,kvkk_consent}', 'last_name', false, true,
   'customers', true, 'prepare_contact'),
  ('deals', 3, 'deals', 'deal', '{title,customer_id}', '{title,created_at,updated_at}', '{customer_id}',
   '{title,customer_id}', 'created_at', true, false, 'deals', true, null),
  ('quotes', 4, 'quotes', 'quote', '{customer_id,deal_id,quote_number}', '{quote_number,created_at,updated_at}',
   '{customer_id,deal_id}', '{quote_number,customer_id,deal_id}', 'created_at', true, false, 'quotes', false, null),
  ('contracts', 5, 'contracts', 'contract', '{title,customer_id}', '{title,created_at,updated_at}', '{customer_id}',
   '{title,customer_id}', 'created_at', true, false, 'contracts', false, null),
  ('documents', 6, 'documents', 'document', '{title}', '{title,created_at,updated_at}', '{}',
   '{title}', 'created_at', true, false, null, false, null),
  ('tasks', 7, 'tasks', 'task', '{title,due_at,completed_at}', '{title,due_at,created_at,updated_at}', '{}',
   '{title,due_at,completed_at}', 'created_at', true, false, 'tasks', true, null);

-- The matrix refers to the registry instead of repeating it.
alter table private.role_permissions drop constraint role_permissions_module_check;
alter table private.role_permissions drop constraint role_permissions_action_check;
alter table private.role_permissions
  add constraint role_permissions_module_fkey foreign key (module) references private.modules (key) on delete cascade,
  add constraint role_permissions_action_fkey foreign key (action) references private.module_actions (key);

/** The modules as the app lists them: key, entity type and the actions, in menu order. */
create function private.modules_json()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(m.key order by m.position), '[]') from private.modules m;
$$;

/** The actions as the roles matrix lists them. */
create function private.module_actions_json()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(a.key order by a.position), '[]') from private.module_actions a;
$$;

/**
 * Gives a new organization its default roles and permission matrix, over every module of
 * the registry. Admins edit both later; only the admin role is fixed.
 */
create or replace function private.create_default_roles(p_organization_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.organization_roles (organization_id, key, name, is_system)
  values (p_organization_id, 'admin', 'Yönetici', true),
         (p_organization_id, 'manager', 'Satış Müdürü', false),
         (p_organization_id, 'sales', 'Satış Temsilcisi', false),
         (p_organization_id, 'user', 'Kullanıcı', false),
         (p_organization_id, 'viewer', 'İzleyici', false)
  on conflict do nothing;

  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select p_organization_id, grants.role_key, modules.key, grants.action, grants.scope
    from private.modules modules
   cross join (values
     ('admin', 'view', 'all'), ('admin', 'create', 'all'), ('admin', 'edit', 'all'),
     ('admin', 'delete', 'all'), ('admin', 'export', 'all'), ('admin', 'import', 'all'),
     ('manager', 'view', 'all'), ('manager', 'create', 'all'), ('manager', 'edit', 'all'),
     ('manager', 'delete', 'all'), ('manager', 'export', 'all'), ('manager', 'import', 'all'),
     ('sales', 'view', 'all'), ('sales', 'create', 'own'), ('sales', 'edit', 'own'),
     ('sales', 'delete', 'own'), ('sales', 'export', 'own'),
     ('user', 'view', 'all'), ('user', 'create', 'own'), ('user', 'edit', 'own'),
     ('user', 'delete', 'own'),
     ('viewer', 'view', 'all')
   ) as grants (role_key, action, scope)
  on conflict do nothing;
$$;

/**
 * The transfer kinds of spec section 3 and the tenant tables each one moves: the
 * registry's modules, plus the tables that belong to no module (quote items move with
 * their quotes; document templates are a kind of their own). The first table of a kind
 * is the one its count refers to.
 */
create or replace function private.transfer_kinds()
returns table (kind text, table_name text, is_primary boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select m.transfer_kind, m.table_name, m.key = m.transfer_kind
    from private.modules m
   where m.transfer_kind is not null
  union all
  values ('quotes', 'quote_items', false), ('templates', 'document_templates', true);
$$;

/** The roles of the caller's organization with their matrices and member counts (members may read). */
create or replace function public.get_roles()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
begin
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  return jsonb_build_object('success', true,
    'modules', private.modules_json(),
    'actions', private.module_actions_json(),
    'roles', (select coalesce(jsonb_agg(jsonb_build_object(
                'key', r.key, 'name', r.name, 'is_system', r.is_system,
                'member_count', (select count(*) from private.memberships m
                                  where m.organization_id = target_org and m.role = r.key),
                'permissions', private.role_permissions_json(target_org, r.key))
                order by r.is_system desc, r.key), '[]')
                from private.organization_roles r where r.organization_id = target_org));
end;
$$;

/** An admin saves a role (not the admin role) with its matrix; every entry names a registered module and action. */
create or replace function public.save_role(p_key text, p_name text, p_permissions jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  clean_name text := btrim(p_name);
  bad_entry text;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  if coalesce(p_key, '') !~ '^[a-z][a-z0-9_]{0,39}$' or p_key = 'super_admin' then
    return private.failure('Invalid role key', 'invalid_role_key');
  end if;
  if p_key = 'admin' then
    return private.failure('The admin role cannot be changed', 'system_role');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 100 then
    return private.failure('Invalid role name', 'invalid_role_name');
  end if;
  if jsonb_typeof(p_permissions) is distinct from 'object' then
    return private.failure('Invalid permissions', 'invalid_permissions');
  end if;
  select format('%s.%s', modules.key, actions.key) into bad_entry
    from jsonb_each(p_permissions) modules
    left join lateral jsonb_each(case when jsonb_typeof(modules.value) = 'object' then modules.value else '{"": null}' end) actions on true
   where not exists (select 1 from private.modules m where m.key = modules.key)
      or actions.key is null
      or not exists (select 1 from private.module_actions a where a.key = actions.key)
      or actions.value not in ('"own"', '"all"')
   limit 1;
  if bad_entry is not null then
    return private.failure(format('Invalid permission %s', left(bad_entry, 80)), 'invalid_permissions');
  end if;

  insert into private.organization_roles (organization_id, key, name)
  values (target_org, p_key, clean_name)
  on conflict (organization_id, key) do update set name = excluded.name, updated_at = now();
  delete from private.role_permissions where organization_id = target_org and role_key = p_key;
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select target_org, p_key, modules.key, actions.key, actions.value #>> '{}'
    from jsonb_each(p_permissions) modules, jsonb_each(modules.value) actions;

  perform private.write_audit(target_org, 'role.saved', 'role', p_key,
                              jsonb_build_object('name', clean_name, 'permissions', p_permissions));
  return jsonb_build_object('success', true, 'role', jsonb_build_object(
    'key', p_key, 'name', clean_name, 'is_system', false,
    'permissions', private.role_permissions_json(target_org, p_key)));
end;
$$;

/** The caller's permission matrix in their session's organization: {module: {action: scope}}. */
create or replace function public.get_my_permissions()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  caller_is_admin boolean;
  permissions jsonb;
begin
  if auth.uid() is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;

  caller_is_admin := private.is_admin_of(auth.uid(), target_org);
  if caller_is_admin then
    -- Admins may do everything, whatever their role's stored matrix says (as caller_scope).
    select jsonb_object_agg(m.key, (select jsonb_object_agg(a.key, 'all') from private.module_actions a))
      into permissions
      from private.modules m;
  else
    select private.role_permissions_json(target_org, m.role) into permissions
      from private.memberships m
     where m.user_id = auth.uid() and m.organization_id = target_org and m.is_active;
  end if;

  return jsonb_build_object('success', true, 'organization_id', target_org, 'is_admin', caller_is_admin,
                            'permissions', coalesce(permissions, '{}'));
end;
$$;

-- ---------------------------------------------------------------------------------
-- The one guard
-- ---------------------------------------------------------------------------------

/** What the guard hands a module RPC (see private.module_context). */
create type private.module_context as (
  caller uuid,
  organization_id uuid,
  schema_name text,
  table_name text,
  -- 'own' or 'all' records.
  scope text,
  -- The refusal to answer; null when the call may go on.
  problem jsonb
);

/**
 * The guard of every tenant record RPC: who calls, the organization their session is
 * bound to, its schema, the module's table and the scope the role grants for the action
 * ('own' or 'all'); or, in problem, the refusal to answer.
 */
create function private.module_context(p_module text, p_action text)
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
begin
  context.caller := auth.uid();
  if context.caller is null then
    context.problem := private.failure('Authentication required', 'authentication_required');
    return context;
  end if;
  select m.table_name into context.table_name from private.modules m where m.key = p_module;
  if context.table_name is null or not exists (select 1 from private.module_actions a where a.key = p_action) then
    context.problem := private.failure('Unknown module', 'unknown_module');
    return context;
  end if;
  context.organization_id := private.current_organization_id();
  if context.organization_id is null then
    context.problem := private.failure('Organization context required', 'organization_context_required');
    return context;
  end if;
  context.scope := private.caller_scope(p_module, p_action);
  if context.scope is null then
    context.problem := private.failure('Permission denied', 'permission_denied');
    return context;
  end if;
  context.schema_name := private.tenant_schema(context.organization_id);
  if context.schema_name is null then
    context.problem := private.failure('Required tables not found', 'tables_not_found');
  end if;
  return context;
end;
$$;

-- ---------------------------------------------------------------------------------
-- Template v2: customers and contacts get their real columns; a field history
-- ---------------------------------------------------------------------------------

insert into private.tenant_template_steps (version, description, ddl) values (2,
'Customers and contacts with their fields, Turkish-folded trigram search, sort indexes; field history; saved views',
$template$
alter table customers
  add column kind text not null default 'company' check (kind in ('company', 'person')),
  add column tax_number text check (tax_number ~ '^[0-9]{10,11}$'),
  add column tax_office text check (char_length(tax_office) <= 100),
  add column sector text check (char_length(sector) <= 100),
  add column status text not null default 'lead' check (status in ('lead', 'active', 'passive')),
  add column phone text check (phone ~ '^\+[0-9]{8,15}$'),
  add column email text check (char_length(email) <= 254),
  add column website text check (char_length(website) <= 300),
  add column city text check (char_length(city) <= 60),
  add column district text check (char_length(district) <= 60),
  add column address text check (char_length(address) <= 1000),
  add column tags text[] not null default '{}' check (cardinality(tags) <= 20),
  add column description text check (char_length(description) <= 10000),
  add column merged_into uuid references customers (id);
alter table customers add column search_text text generated always as (private.fold_search(
  name || ' ' || coalesce(tax_number, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')
  || ' ' || coalesce(city, ''))) stored;
create index customers_search_idx on customers using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;
create index customers_name_sort_idx on customers (private.fold_search(name), id) where deleted_at is null;
create index customers_created_sort_idx on customers (created_at, id) where deleted_at is null;
create index customers_updated_sort_idx on customers (updated_at, id) where deleted_at is null;
create index customers_status_idx on customers (status, id) where deleted_at is null;
create index customers_tax_number_idx on customers (tax_number) where deleted_at is null;
create index customers_email_idx on customers (email) where deleted_at is null;
create index customers_phone_idx on customers (phone) where deleted_at is null;
-- merged_into points back into the table: without an index every hard delete of a
-- customer scans the whole table for rows merged into it (a bulk delete is quadratic).
create index customers_merged_into_idx on customers (merged_into) where merged_into is not null;

alter table contacts
  add column title text check (char_length(title) <= 100),
  add column emails jsonb not null default '[]' check (jsonb_typeof(emails) = 'array' and jsonb_array_length(emails) <= 10),
  add column phones jsonb not null default '[]' check (jsonb_typeof(phones) = 'array' and jsonb_array_length(phones) <= 10),
  add column tags text[] not null default '{}' check (cardinality(tags) <= 20),
  add column description text check (char_length(description) <= 10000),
  add column kvkk_consent boolean not null default false,
  add column kvkk_consent_channel text check (kvkk_consent_channel in ('form', 'email', 'phone', 'in_person', 'other')),
  add column kvkk_consent_at timestamptz,
  add column kvkk_consent_source text check (char_length(kvkk_consent_source) <= 200),
  add column iys_consent jsonb not null default '{"call": false, "sms": false, "email": false}'
    check (jsonb_typeof(iys_consent) = 'object'),
  add column anonymized_at timestamptz,
  add column merged_into uuid references contacts (id),
  add constraint contacts_kvkk_consent_complete check (not kvkk_consent or (kvkk_consent_channel is not null and kvkk_consent_at is not null));
alter table contacts add column search_text text generated always as (private.fold_search(
  first_name || ' ' || last_name || ' ' || coalesce(title, '') || ' ' || emails::text || ' ' || phones::text)) stored;
create index contacts_search_idx on contacts using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;
create index contacts_name_sort_idx on contacts (private.fold_search(last_name), id) where deleted_at is null;
create index contacts_first_name_sort_idx on contacts (private.fold_search(first_name), id) where deleted_at is null;
create index contacts_created_sort_idx on contacts (created_at, id) where deleted_at is null;
create index contacts_updated_sort_idx on contacts (updated_at, id) where deleted_at is null;
create index contacts_merged_into_idx on contacts (merged_into) where merged_into is not null;

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
$template$);

-- ---------------------------------------------------------------------------------
-- Module rules
-- ---------------------------------------------------------------------------------

/** Tags: at most 20 distinct strings of 1 to 40 characters, trimmed; null when invalid. */
create function private.clean_tags(p_tags jsonb)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case
    when p_tags is null or jsonb_typeof(p_tags) = 'null' then '{}'::text[]
    when jsonb_typeof(p_tags) <> 'array' or jsonb_array_length(p_tags) > 20
         or exists (select 1 from jsonb_array_elements(p_tags) t
                     where jsonb_typeof(t) <> 'string' or char_length(btrim(t #>> '{}')) not between 1 and 40) then null
    else (select coalesce(array_agg(distinct btrim(t #>> '{}')), '{}') from jsonb_array_elements(p_tags) t)
  end;
$$;

/** Trimmed text, null when empty or not a JSON string (a number or boolean is refused by the caller). */
create function private.clean_text(p_value jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_value) = 'string' then nullif(btrim(p_value #>> '{}'), '') end;
$$;

/**
 * A customer's rules: a name; company (VKN, 10 digits) or person (TCKN, 11 digits) with
 * the checksum; status; phone normalised to +90…; email; website; tags. Returns
 * {"values": normalised values, "errors": {column: code}}.
 */
create function private.prepare_customer(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  kind text := coalesce(private.clean_text(p_values -> 'kind'), p_existing ->> 'kind', 'company');
  tax_number text;
  cleaned text;
begin
  -- Free-text fields: strings only, trimmed, empty as null.
  foreach field in array array['name', 'kind', 'tax_number', 'tax_office', 'sector', 'status', 'phone', 'email',
                                'website', 'city', 'district', 'address', 'description'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

  if (p_existing is null or p_values ? 'name') and result ->> 'name' is null then
    errors := errors || '{"name": "required"}';
  end if;
  if p_values ? 'kind' and coalesce(result ->> 'kind', '') not in ('company', 'person') then
    errors := errors || '{"kind": "invalid"}';
  end if;
  if p_values ? 'status' and coalesce(result ->> 'status', '') not in ('lead', 'active', 'passive') then
    errors := errors || '{"status": "invalid"}';
  end if;
  -- The tax number follows the kind: checked again when either changes.
  if p_values ? 'tax_number' or p_values ? 'kind' then
    tax_number := case when p_values ? 'tax_number' then regexp_replace(coalesce(result ->> 'tax_number', ''), '\s', '', 'g')
                       else p_existing ->> 'tax_number' end;
    if nullif(tax_number, '') is null then
      result := result || '{"tax_number": null}';
    elsif kind = 'company' and not private.is_valid_vkn(tax_number) then
      errors := errors || '{"tax_number": "invalid_vkn"}';
    elsif kind = 'person' and not private.is_valid_tckn(tax_number) then
      errors := errors || '{"tax_number": "invalid_tckn"}';
    else
      result := result || jsonb_build_object('tax_number', tax_number);
    end if;
  end if;
  if result ->> 'phone' is not null then
    cleaned := private.normalize_phone(result ->> 'phone');
    if cleaned is null then
      errors := errors || '{"phone": "invalid_phone"}';
    else
      result := result || jsonb_build_object('phone', cleaned);
    end if;
  end if;
  if result ->> 'email' is not null then
    cleaned := private.normalize_email(result ->> 'email');
    if not private.is_valid_email(cleaned) then
      errors := errors || '{"email": "invalid_email"}';
    else
      result := result || jsonb_build_object('email', cleaned);
    end if;
  end if;
  if result ->> 'website' is not null and not private.is_valid_website(result ->> 'website') then
    errors := errors || '{"website": "invalid_website"}';
  end if;
  if p_values ? 'tags' then
    if private.clean_tags(p_values -> 'tags') is null then
      errors := errors || '{"tags": "invalid_tags"}';
    else
      result := result || jsonb_build_object('tags', to_jsonb(private.clean_tags(p_values -> 'tags')));
    end if;
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

/**
 * Labelled emails or phones of a contact: [{label, value}], labels work/home/mobile/other,
 * values checked (and phones normalised). Null when any entry is invalid.
 */
create function private.clean_contact_channels(p_entries jsonb, p_kind text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  entry jsonb;
  value text;
  cleaned jsonb := '[]';
begin
  if p_entries is null or jsonb_typeof(p_entries) = 'null' then
    return '[]';
  end if;
  if jsonb_typeof(p_entries) <> 'array' or jsonb_array_length(p_entries) > 10 then
    return null;
  end if;
  for entry in select e from jsonb_array_elements(p_entries) e loop
    if jsonb_typeof(entry) <> 'object' or coalesce(entry ->> 'label', 'other') not in ('work', 'home', 'mobile', 'other') then
      return null;
    end if;
    value := case p_kind when 'email' then private.normalize_email(entry ->> 'value')
                         else private.normalize_phone(entry ->> 'value') end;
    if value is null or (p_kind = 'email' and not private.is_valid_email(value)) then
      return null;
    end if;
    cleaned := cleaned || jsonb_build_array(jsonb_build_object('label', coalesce(entry ->> 'label', 'other'), 'value', value));
  end loop;
  return cleaned;
end;
$$;

/**
 * A contact's rules: a first or last name; labelled emails and phones; KVKK consent with
 * its channel and date (the date defaults to now); İYS consent per channel (call, sms,
 * email) as booleans. Returns {"values", "errors"} like private.prepare_customer.
 */
create function private.prepare_contact(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  cleaned jsonb;
  consent boolean;
begin
  foreach field in array array['first_name', 'last_name', 'title', 'description', 'kvkk_consent_channel', 'kvkk_consent_source'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, coalesce(private.clean_text(p_values -> field),
                                                               case when field in ('first_name', 'last_name') then '' end));
      end if;
    end if;
  end loop;
  if coalesce(result ->> 'first_name', p_existing ->> 'first_name', '') = ''
     and coalesce(result ->> 'last_name', p_existing ->> 'last_name', '') = '' then
    errors := errors || '{"first_name": "required"}';
  end if;
  foreach field in array array['emails', 'phones'] loop
    if p_values ? field then
      cleaned := private.clean_contact_channels(p_values -> field, case field when 'emails' then 'email' else 'phone' end);
      if cleaned is null then
        errors := errors || jsonb_build_object(field, case field when 'emails' then 'invalid_email' else 'invalid_phone' end);
      else
        result := result || jsonb_build_object(field, cleaned);
      end if;
    end if;
  end loop;
  if p_values ? 'tags' then
    if private.clean_tags(p_values -> 'tags') is null then
      errors := errors || '{"tags": "invalid_tags"}';
    else
      result := result || jsonb_build_object('tags', to_jsonb(private.clean_tags(p_values -> 'tags')));
    end if;
  end if;
  if p_values ? 'kvkk_consent' then
    if jsonb_typeof(p_values -> 'kvkk_consent') <> 'boolean' then
      errors := errors || '{"kvkk_consent": "invalid"}';
    else
      consent := (p_values ->> 'kvkk_consent')::boolean;
      if consent then
        if coalesce(result ->> 'kvkk_consent_channel', p_existing ->> 'kvkk_consent_channel') is null
           or coalesce(result ->> 'kvkk_consent_channel', p_existing ->> 'kvkk_consent_channel')
              not in ('form', 'email', 'phone', 'in_person', 'other') then
          errors := errors || '{"kvkk_consent_channel": "required"}';
        end if;
        if coalesce(result ->> 'kvkk_consent_at', p_existing ->> 'kvkk_consent_at') is null then
          result := result || jsonb_build_object('kvkk_consent_at', now());
        end if;
      else
        result := result || '{"kvkk_consent_channel": null, "kvkk_consent_at": null, "kvkk_consent_source": null}';
      end if;
    end if;
  end if;
  if p_values ? 'iys_consent' then
    if jsonb_typeof(p_values -> 'iys_consent') <> 'object'
       or exists (select 1 from jsonb_each(p_values -> 'iys_consent') c
                   where c.key not in ('call', 'sms', 'email') or jsonb_typeof(c.value) <> 'boolean') then
      errors := errors || '{"iys_consent": "invalid"}';
    else
      result := result || jsonb_build_object('iys_consent',
        '{"call": false, "sms": false, "email": false}'::jsonb || coalesce(p_existing -> 'iys_consent', '{}') || (p_values -> 'iys_consent'));
    end if;
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The record engine
-- ---------------------------------------------------------------------------------

/** A record answer: the row without its search column, with the owner's name. */
create function private.record_json(p_row jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select (p_row - 'search_text') || jsonb_build_object('owner_name', (
    select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
      from private.profiles p where p.id = (p_row ->> 'owner_id')::uuid));
$$;

/**
 * What a write may set: the module's writable columns (and owner_id), checked and
 * normalised by the module's prepare function. Returns {"values"} or, in "problem", the
 * refusal: unknown fields or field errors ({"fields": {column: code}}). An owner must be
 * an active member of the organization; with scope 'own' only the caller.
 */
create function private.prepare_record(p_module text, p_values jsonb, p_existing jsonb,
                                       p_caller uuid, p_organization_id uuid, p_scope text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  module private.modules;
  prepared jsonb;
  errors jsonb := '{}';
  unknown text;
  owner uuid;
begin
  select * into module from private.modules m where m.key = p_module;
  if jsonb_typeof(p_values) is distinct from 'object' then
    return jsonb_build_object('problem', private.failure('Invalid input', 'invalid_input'));
  end if;
  select k into unknown from jsonb_object_keys(p_values) k
   where not (k = any (module.writable_columns) or k = 'owner_id') limit 1;
  if unknown is not null then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields',
      jsonb_build_object('fields', jsonb_build_object(left(unknown, 63), 'unknown_field'))));
  end if;

  if module.prepare_function is not null then
    execute format('select private.%I($1, $2)', module.prepare_function) into prepared using p_values, p_existing;
    errors := prepared -> 'errors';
    prepared := prepared -> 'values';
  else
    prepared := p_values;
  end if;

  if p_values ? 'owner_id' then
    begin
      owner := (p_values ->> 'owner_id')::uuid;
    exception when invalid_text_representation then
      owner := null;
    end;
    if owner is null or not exists (select 1 from private.memberships m
                                     where m.user_id = owner and m.organization_id = p_organization_id and m.is_active) then
      errors := errors || '{"owner_id": "invalid_owner"}';
    elsif p_scope = 'own' and owner <> p_caller then
      return jsonb_build_object('problem', private.failure('Permission denied', 'permission_denied'));
    end if;
  end if;
  if errors <> '{}' then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', errors)));
  end if;
  return jsonb_build_object('values', prepared);
end;
$$;

/** A refused write's constraint error as a field error: {"fields": {column: code}}. */
create function private.constraint_failure(p_table text, p_column text, p_constraint text, p_sqlstate text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(
    coalesce(nullif(p_column, ''),
             substring(p_constraint from '^' || p_table || '_(.*)_(check|fkey|key)$'),
             'record'),
    case p_sqlstate when '23502' then 'required' when '23503' then 'not_found' when '23505' then 'duplicate'
                    else 'invalid' end)));
$$;

/**
 * Lists a module's records the caller may see (scope own: their own), not deleted:
 * Turkish-folded search (trigram index), filters on the module's filterable columns
 * ({column: value | [values]}, "me" for owner_id), a sortable column (text sorts folded),
 * one page. The total is exact up to 10,000 matches and "at least 10,000" beyond, so no
 * page waits on a count of a million rows.
 */
create function private.record_list(p_module text, p_search text, p_filters jsonb, p_sort text,
                                    p_descending boolean, p_limit integer, p_offset integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  module private.modules;
  relation regclass;
  sort_key text;
  sort_type text;
  sort_expression text;
  direction text;
  filters jsonb := coalesce(p_filters, '{}');
  filter_key text;
  filter_type text;
  conditions text := 't.deleted_at is null and ($1 = ''all'' or t.owner_id = $2)';
  folded text := private.fold_search(btrim(coalesce(p_search, '')));
  projection text;
  pattern text;
  source text;
  page jsonb;
  counted bigint;
  count_cap constant integer := 10000;
begin
  context := private.module_context(p_module, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  select * into module from private.modules m where m.key = p_module;
  relation := format('%I.%I', context.schema_name, context.table_name)::regclass;
  sort_key := coalesce(nullif(p_sort, ''), module.default_sort);
  direction := case when coalesce(p_descending, module.default_descending and p_sort is null) then 'desc' else 'asc' end;
  if not (sort_key = any (module.sortable_columns)) or coalesce(p_offset, 0) < 0
     or jsonb_typeof(filters) <> 'object' or (folded <> '' and not module.searchable) then
    return private.failure('Invalid list request', 'invalid_input');
  end if;

  -- Text sorts folded (Ç beside C, İ beside I): PGlite has no ICU collations to ask.
  select pg_catalog.format_type(a.atttypid, a.atttypmod) into sort_type
    from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = sort_key;
  sort_expression := case when sort_type = 'text' then format('private.fold_search(t.%I)', sort_key)
                          else format('t.%I', sort_key) end;

  for filter_key in select k from jsonb_object_keys(filters) k loop
    if not (filter_key = any (module.filterable_columns) or filter_key = 'owner_id') then
      return private.failure('Invalid list request', 'invalid_input');
    end if;
    select pg_catalog.format_type(a.atttypid, a.atttypmod) into filter_type
      from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = filter_key;
    if jsonb_typeof(filters -> filter_key) <> 'array' then
      filters := jsonb_set(filters, array[filter_key], jsonb_build_array(filters -> filter_key));
    end if;
    if filter_key = 'owner_id' then
      filters := jsonb_set(filters, '{owner_id}', (
        select jsonb_agg(case when v = '"me"' then to_jsonb(context.caller) else v end)
          from jsonb_array_elements(filters -> 'owner_id') v));
    end if;
    -- Values are parameters; the column and its type come from the registry and the catalog.
    conditions := conditions || case
      when filter_type like '%[]' then format(' and t.%I && array(select jsonb_array_elements_text($3 -> %L))::%s',
                                              filter_key, filter_key, filter_type)
      else format(' and t.%I = any(array(select jsonb_array_elements_text($3 -> %L))::%s[])',
                  filter_key, filter_key, filter_type) end;
  end loop;
  if folded <> '' then
    conditions := conditions || ' and t.search_text like $4';
  end if;

  select string_agg(format('%L, r.%I', c, c), ', ') into projection from unnest(module.list_columns) c;
  pattern := '%' || replace(replace(replace(folded, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  begin
    execute format('select count(*) from (select 1 from %s t where %s limit %s) capped', relation, conditions, count_cap + 1)
      into counted using context.scope, context.caller, filters, pattern;
    -- A search matching at most count_cap rows: fetch its matches through the trigram index,
    -- then sort them (the planner, misjudging a pattern, may walk the whole sort index
    -- instead: 190 ms at a million rows). Denser matches: the sort index finds a page fast.
    if folded <> '' and counted <= count_cap then
      source := format('(select * from %s t where %s offset 0)', relation, conditions);
    else
      source := relation::text;
    end if;
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'owner_id', r.owner_id, 'owner_name', r.owner_name,
                                                   'created_at', r.created_at, 'updated_at', r.updated_at, %1$s)
                                order by r.position), '[]')
        from (select t.*, nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') as owner_name,
                     row_number() over (order by %2$s %3$s, t.id %3$s) as position
                from %4$s t
                left join private.profiles p on p.id = t.owner_id
               where %5$s
               order by %2$s %3$s, t.id %3$s
               limit $5 offset $6) r$query$,
      projection, sort_expression, direction, source, conditions)
      into page
      using context.scope, context.caller, filters, pattern,
            least(greatest(coalesce(p_limit, 50), 1), 200), coalesce(p_offset, 0);
  exception when invalid_text_representation or invalid_datetime_format or datatype_mismatch then
    return private.failure('Invalid list request', 'invalid_input');
  end;

  return jsonb_build_object('success', true, 'scope', context.scope, 'records', page,
                            'total', least(counted, count_cap), 'total_exact', counted <= count_cap);
end;
$$;

/** One record the caller may see (not deleted), with its owner's name; another organization's id is simply not found. */
create function private.record_get(p_module text, p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  found_row jsonb;
begin
  context := private.module_context(p_module, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select to_jsonb(t) from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3)',
                 context.schema_name, context.table_name)
    into found_row using p_id, context.scope, context.caller;
  if found_row is null then
    return private.failure('Record not found', 'not_found');
  end if;
  return jsonb_build_object('success', true, 'record', private.record_json(found_row));
end;
$$;

/** Creates a record owned by the caller (or, with scope all, by the member named); audited. */
create function private.record_create(p_module text, p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  prepared jsonb;
  columns text[];
  created jsonb;
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  context := private.module_context(p_module, 'create');
  if context.problem is not null then
    return context.problem;
  end if;
  prepared := private.prepare_record(p_module, p_values, null, context.caller, context.organization_id, context.scope);
  if prepared ? 'problem' then
    return prepared -> 'problem';
  end if;
  prepared := (prepared -> 'values') || jsonb_build_object('owner_id', coalesce(prepared #>> '{values,owner_id}', context.caller::text),
                                                           'created_by', context.caller);
  select array_agg(k) into columns from jsonb_object_keys(prepared) k;
  begin
    execute format('insert into %1$I.%2$I as t (%3$s) select %4$s from jsonb_populate_record(null::%1$I.%2$I, $1) r returning to_jsonb(t)',
                   context.schema_name, context.table_name,
                   (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                   (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
      into created using prepared;
  exception when integrity_constraint_violation or data_exception then
    get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
    return private.constraint_failure(context.table_name, failed_column, failed_constraint, failed_state);
  end;
  perform private.write_audit(context.organization_id, p_module || '.create', p_module, created ->> 'id');
  return jsonb_build_object('success', true, 'record', private.record_json(created));
end;
$$;

/**
 * Writes changes to one record the caller may edit, inside a module RPC: each changed
 * field goes to the field history, the change to the audit log. With p_expected set, a
 * record changed since (another updated_at) is refused as stale, never overwritten.
 */
create function private.record_write(p_module text, p_context private.module_context, p_id uuid, p_values jsonb,
                                     p_expected timestamptz, p_check_stale boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing jsonb;
  prepared jsonb;
  columns text[];
  changed jsonb;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  execute format('select to_jsonb(t) from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 p_context.schema_name, p_context.table_name)
    into existing using p_id, p_context.scope, p_context.caller;
  if existing is null then
    return private.failure('Record not found', 'not_found');
  end if;
  if p_check_stale and (p_expected is null or (existing ->> 'updated_at')::timestamptz <> p_expected) then
    return private.failure('The record was changed by someone else', 'stale_record',
                           jsonb_build_object('record', private.record_json(existing)));
  end if;
  prepared := private.prepare_record(p_module, p_values, existing, p_context.caller, p_context.organization_id, p_context.scope);
  if prepared ? 'problem' then
    return prepared -> 'problem';
  end if;
  prepared := prepared -> 'values';
  select array_agg(k) into columns from jsonb_object_keys(prepared) k;
  if columns is null then
    return jsonb_build_object('success', true, 'record', private.record_json(existing));
  end if;
  begin
    execute format('update %1$I.%2$I as t set (%3$s) = (select %4$s from jsonb_populate_record(null::%1$I.%2$I, $1) r) where t.id = $2 returning to_jsonb(t)',
                   p_context.schema_name, p_context.table_name,
                   (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                   (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
      into changed using prepared, p_id;
  exception when integrity_constraint_violation or data_exception then
    get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
    return private.constraint_failure(p_context.table_name, failed_column, failed_constraint, failed_state);
  end;
  execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                  select $1, $2, c, $3 -> c, $4 -> c, $5 from unnest($6::text[]) c where ($3 -> c) is distinct from ($4 -> c)',
                 p_context.schema_name)
    using entity, p_id, existing, changed, p_context.caller, columns;
  perform private.write_audit(p_context.organization_id, p_module || '.update', p_module, p_id::text,
    jsonb_build_object('fields', (select coalesce(jsonb_agg(c), '[]') from unnest(columns) c
                                   where (existing -> c) is distinct from (changed -> c))));
  return jsonb_build_object('success', true, 'record', private.record_json(changed));
end;
$$;

/** Updates one record; p_updated_at must be the updated_at the caller read (stale writes are refused). */
create function private.record_update(p_module text, p_id uuid, p_values jsonb, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  return private.record_write(p_module, context, p_id, p_values, p_updated_at, true);
end;
$$;

/**
 * The same change for up to 500 records; each is checked and written like a single
 * update (scope, rules, history, audit). Records the caller may not edit, or that do not
 * exist, are counted as skipped; a field error refuses the whole batch.
 */
create function private.record_bulk_update(p_module text, p_ids uuid[], p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  record_id uuid;
  answer jsonb;
  updated integer := 0;
  skipped integer := 0;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  foreach record_id in array (select array_agg(distinct i) from unnest(p_ids) i) loop
    answer := private.record_write(p_module, context, record_id, p_values, null, false);
    if (answer ->> 'success')::boolean then
      updated := updated + 1;
    elsif answer ->> 'code' = 'not_found' then
      skipped := skipped + 1;
    else
      -- Field errors are the same for every record: refuse the batch, change nothing.
      raise exception using errcode = 'P0001', message = answer::text;
    end if;
  end loop;
  return jsonb_build_object('success', true, 'updated', updated, 'skipped', skipped);
exception when sqlstate 'P0001' then
  return sqlerrm::jsonb;
end;
$$;

/**
 * Soft-deletes (p_deleted true) or restores (false) records the caller may delete; each
 * is audited. Returns how many changed; ids out of scope or already in that state are
 * skipped.
 */
create function private.record_set_deleted(p_module text, p_ids uuid[], p_deleted boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  changed uuid[];
begin
  context := private.module_context(p_module, 'delete');
  if context.problem is not null then
    return context.problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  execute format('with changed as (update %I.%I t set deleted_at = case when $4 then now() end
                    where t.id = any($1) and (t.deleted_at is null) = $4 and ($2 = ''all'' or t.owner_id = $3)
                    returning t.id) select array_agg(id) from changed',
                 context.schema_name, context.table_name)
    into changed using p_ids, context.scope, context.caller, p_deleted;
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id)
  select context.organization_id, context.caller, p_module || case when p_deleted then '.delete' else '.restore' end,
         p_module, c::text
    from unnest(changed) c;
  return jsonb_build_object('success', true, 'changed', coalesce(cardinality(changed), 0),
                            'skipped', cardinality(p_ids) - coalesce(cardinality(changed), 0));
end;
$$;

/**
 * A record's timeline, newest first: its notes, its field history and the audit entries
 * about it, for someone who may see the record.
 */
create function private.record_timeline(p_module text, p_id uuid, p_limit integer default 100)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get(p_module, p_id);
  context private.module_context;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  entries jsonb;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context(p_module, 'view');
  execute format($query$
    select coalesce(jsonb_agg(newest.e order by newest.e ->> 'at' desc), '[]') from (
     select everything.e from (
      select jsonb_build_object('kind', 'note', 'id', n.id, 'body', n.body, 'by', n.created_by, 'at', n.created_at) as e
        from %1$I.notes n where n.entity_type = $1 and n.entity_id = $2 and n.deleted_at is null
      union all
      select jsonb_build_object('kind', 'change', 'field', h.field, 'old', h.old_value, 'new', h.new_value,
                                'by', h.changed_by, 'at', h.changed_at)
        from %1$I.field_history h where h.record_id = $2 and h.entity_type = $1
      union all
      select jsonb_build_object('kind', 'event', 'action', a.action, 'by', a.actor_id, 'at', a.created_at)
        from private.audit_log a where a.organization_id = $3 and a.target_type = $4 and a.target_id = $2::text
     ) everything(e)
     order by everything.e ->> 'at' desc limit $5) newest$query$, context.schema_name)
    into entries using entity, p_id, context.organization_id, p_module, least(greatest(coalesce(p_limit, 100), 1), 500);
  return jsonb_build_object('success', true, 'entries', (
    select coalesce(jsonb_agg(e || jsonb_build_object('by_name', (
             select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') from private.profiles p
              where p.id = (e ->> 'by')::uuid)) order by e ->> 'at' desc), '[]')
      from jsonb_array_elements(entries) e));
end;
$$;

/** Adds a note to a record the caller may edit (1 to 20,000 characters). */
create function private.record_add_note(p_module text, p_id uuid, p_body text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  visible boolean;
  note jsonb;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  if char_length(btrim(coalesce(p_body, ''))) not between 1 and 20000 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"body": "required"}}');
  end if;
  execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3))',
                 context.schema_name, context.table_name)
    into visible using p_id, context.scope, context.caller;
  if not visible then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('insert into %I.notes as n (entity_type, entity_id, body, owner_id, created_by) values ($1, $2, $3, $4, $4) returning to_jsonb(n)',
                 context.schema_name)
    into note using entity, p_id, btrim(p_body), context.caller;
  perform private.write_audit(context.organization_id, p_module || '.note', p_module, p_id::text);
  return jsonb_build_object('success', true, 'note', note);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The public façade: one short typed function per module action
-- ---------------------------------------------------------------------------------

drop function public.list_customers(text, text, boolean, integer, integer);

/**
 * Installs a module's public façade from its registry row: list_<key>, get_<entity>,
 * create_<entity>, update_<entity>, bulk_update_<key>, delete_<key> and restore_<key>, each
 * a one-line call into the record engine (security definer, empty search_path) with a
 * comment and its own grant to authenticated. So registering a module gives it its API;
 * the generated types name every call with its arguments.
 */
create function private.install_module_facade(p_module text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  module private.modules;
  facade record;
begin
  select * into module from private.modules m where m.key = p_module;
  if not found or module.entity_type !~ '^[a-z][a-z_]{0,39}$' then
    raise exception 'no module %', p_module;
  end if;
  for facade in
    select * from (values
      ('list_' || module.key,
       'p_search text default null, p_filters jsonb default null, p_sort text default null, '
       || 'p_descending boolean default null, p_limit integer default 50, p_offset integer default 0',
       'stable', format('private.record_list(%L, p_search, p_filters, p_sort, p_descending, p_limit, p_offset)', module.key),
       format('The %s the caller may see: search, filters, sort, one page.', module.key)),
      ('get_' || module.entity_type, 'p_id uuid', 'stable', format('private.record_get(%L, p_id)', module.key),
       format('One %s the caller may see.', module.entity_type)),
      ('create_' || module.entity_type, 'p_values jsonb', 'volatile', format('private.record_create(%L, p_values)', module.key),
       format('Creates a %s.', module.entity_type)),
      ('update_' || module.entity_type, 'p_id uuid, p_values jsonb, p_updated_at timestamptz', 'volatile',
       format('private.record_update(%L, p_id, p_values, p_updated_at)', module.key),
       format('Updates a %s read at p_updated_at (a stale read is refused).', module.entity_type)),
      ('bulk_update_' || module.key, 'p_ids uuid[], p_values jsonb', 'volatile',
       format('private.record_bulk_update(%L, p_ids, p_values)', module.key), format('The same change for many %s.', module.key)),
      ('delete_' || module.key, 'p_ids uuid[]', 'volatile', format('private.record_set_deleted(%L, p_ids, true)', module.key),
       format('Soft-deletes %s.', module.key)),
      ('restore_' || module.key, 'p_ids uuid[]', 'volatile', format('private.record_set_deleted(%L, p_ids, false)', module.key),
       format('Restores deleted %s.', module.key))
    ) as f (name, arguments, volatility, body, doc)
  loop
    execute format('create or replace function public.%I(%s) returns jsonb language sql %s security definer set search_path = %L '
                   'as $facade$ select %s; $facade$', facade.name, facade.arguments, facade.volatility, '', facade.body);
    execute format('comment on function public.%I is %L', facade.name, facade.doc);
    execute format('revoke execute on function public.%I from public, anon, authenticated', facade.name);
    execute format('grant execute on function public.%I to authenticated', facade.name);
  end loop;
end;
$$;

select private.install_module_facade(m.key) from private.modules m order by m.position;

/** A record's timeline (notes, field history, audit) in any registered module. */
create function public.get_record_timeline(p_module text, p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_timeline(p_module, p_id); $$;

/** Adds a note to a record of any registered module. */
create function public.add_record_note(p_module text, p_id uuid, p_body text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_add_note(p_module, p_id, p_body); $$;

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
do $$
declare
  facade regprocedure;
begin
  for facade in
    select p.oid::regprocedure from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and p.proname in ('get_record_timeline', 'add_record_note')
  loop
    execute format('revoke execute on function %s from public, anon, authenticated', facade);
    execute format('grant execute on function %s to authenticated', facade);
  end loop;
end
$$;
