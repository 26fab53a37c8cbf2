-- Per-organization tables (DESIGN.md D4). Each organization gets its own schema,
-- named only from the registry (org_<slug>_<table_prefix_timestamp>), built from ONE
-- template: the ordered steps in private.tenant_template_steps. Provisioning a new
-- organization and upgrading an existing one run the same steps, one organization per
-- transaction, recording the version reached; the tenant-migration runner
-- (npm run db:migrate-tenants, and the local stack at start) applies a template change
-- everywhere and can be re-run after a failure.

/**
 * The spec's table-name guard (section 5): letters, digits and underscore, lowercase,
 * at most 50 characters, and none of the SQL words that could turn a name into a
 * statement (checked as whole words between underscores).
 */
create function private.is_safe_identifier(p_name text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_name is not null
     and p_name ~ '^[a-z_][a-z0-9_]{0,49}$'
     and not (string_to_array(p_name, '_') && array[
       'drop', 'delete', 'select', 'insert', 'update', 'truncate', 'alter', 'create', 'grant',
       'revoke', 'union', 'exec', 'execute', 'copy', 'pg', 'information', 'schema']);
$$;

/** Spec section 5: a slug allows only letters, digits, underscore and hyphen. */
create function private.is_valid_slug(p_slug text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_slug is not null
     and p_slug ~ '^[A-Za-z0-9_-]{1,30}$'
     and private.is_safe_identifier('org_' || lower(replace(p_slug, '-', '_')) || '_0');
$$;

alter table private.organizations
  add column schema_name text generated always as (
    'org_' || lower(replace(slug, '-', '_')) || '_' || table_prefix_timestamp::text) stored,
  -- The template version this organization's schema has reached (0: not provisioned).
  add column template_version integer not null default 0,
  add column last_migration_error text,
  add column last_migrated_at timestamptz;
alter table private.organizations
  add constraint organizations_schema_name_key unique (schema_name),
  add constraint organizations_schema_name_check check (private.is_safe_identifier(schema_name)),
  add constraint organizations_slug_check_words check (private.is_valid_slug(slug));

create table private.tenant_template_steps (
  version integer primary key check (version > 0),
  description text not null,
  -- Runs with search_path set to the organization's schema: unqualified names land
  -- there. Never edit a shipped step; add a new version instead.
  ddl text not null
);
comment on table private.tenant_template_steps is 'The single definition of every tenant table, applied in version order.';

create table private.tenant_migrations (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  version integer not null references private.tenant_template_steps (version),
  applied_at timestamptz not null default now(),
  duration_ms numeric(12, 3) not null,
  primary key (organization_id, version)
);
create index tenant_migrations_version_idx on private.tenant_migrations (version);
comment on table private.tenant_migrations is 'Which template version was applied to which organization, when, and how long it took.';

alter table private.tenant_template_steps enable row level security;
alter table private.tenant_migrations enable row level security;

/** Keeps updated_at current on every tenant table. */
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

/**
 * The columns, indexes and trigger every tenant record table shares: owner, creator,
 * timestamps and soft delete. Template steps call it with current_schema(), the tenant
 * schema migrate_tenant selected.
 * Shipped steps depend on it: change it only together with a new template step.
 */
create function private.add_record_columns(p_schema text, p_table text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if not private.is_safe_identifier(p_table) or not private.is_safe_identifier(p_schema) then
    raise exception 'unsafe identifier %.%', p_schema, p_table;
  end if;
  execute format($ddl$
    alter table %1$I.%2$I
      add column owner_id uuid not null,
      add column created_by uuid not null,
      add column created_at timestamptz not null default now(),
      add column updated_at timestamptz not null default now(),
      add column deleted_at timestamptz;
    create index %3$I on %1$I.%2$I (owner_id);
    create index %4$I on %1$I.%2$I (created_at desc) where deleted_at is null;
    create trigger touch_updated_at before update on %1$I.%2$I
      for each row execute function private.touch_updated_at();
  $ddl$, p_schema, p_table, p_table || '_owner_id_idx', p_table || '_created_at_idx');
end;
$$;

insert into private.tenant_template_steps (version, description, ddl) values (1,
'Sales records: customers, contacts, deals, quotes and items, contracts, documents, tasks, notes, document templates',
$template$
create table customers (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 300)
);
select private.add_record_columns(current_schema(), 'customers');

create table contacts (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  first_name text not null default '' check (char_length(first_name) <= 100),
  last_name text not null default '' check (char_length(last_name) <= 100)
);
select private.add_record_columns(current_schema(), 'contacts');
create index contacts_customer_id_idx on contacts (customer_id);

create table deals (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  title text not null check (char_length(btrim(title)) between 1 and 300)
);
select private.add_record_columns(current_schema(), 'deals');
create index deals_customer_id_idx on deals (customer_id);

create table quotes (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  quote_number text check (char_length(quote_number) <= 60)
);
select private.add_record_columns(current_schema(), 'quotes');
create index quotes_customer_id_idx on quotes (customer_id);
create index quotes_deal_id_idx on quotes (deal_id);

create table quote_items (
  id uuid primary key default gen_random_uuid(),
  quote_id uuid not null references quotes (id) on delete cascade,
  position integer not null default 0,
  description text not null default '' check (char_length(description) <= 2000),
  quantity numeric(14, 3) not null default 1,
  unit_price numeric(14, 2) not null default 0
);
select private.add_record_columns(current_schema(), 'quote_items');
create index quote_items_quote_id_idx on quote_items (quote_id, position);

create table contracts (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  title text not null check (char_length(btrim(title)) between 1 and 300)
);
select private.add_record_columns(current_schema(), 'contracts');
create index contracts_customer_id_idx on contracts (customer_id);

create table documents (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  storage_path text check (char_length(storage_path) <= 1000)
);
select private.add_record_columns(current_schema(), 'documents');

create table tasks (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  due_at timestamptz,
  completed_at timestamptz
);
select private.add_record_columns(current_schema(), 'tasks');

create table notes (
  id uuid primary key default gen_random_uuid(),
  entity_type text not null check (entity_type in ('customer', 'contact', 'deal', 'quote', 'contract', 'task')),
  entity_id uuid not null,
  body text not null check (char_length(body) between 1 and 20000)
);
select private.add_record_columns(current_schema(), 'notes');
create index notes_entity_idx on notes (entity_type, entity_id);

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
$template$);

/** The newest template version. */
create function private.latest_template_version()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(max(version), 0) from private.tenant_template_steps;
$$;

/**
 * Seals a tenant schema after any step: row level security on every table, nothing for
 * PUBLIC or the API roles. Tenant data is reached only through security definer RPCs.
 */
create function private.seal_tenant_schema(p_schema text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  table_name text;
begin
  execute format('revoke all on schema %I from public, anon, authenticated', p_schema);
  execute format('revoke all on all tables in schema %I from public, anon, authenticated', p_schema);
  execute format('revoke all on all sequences in schema %I from public, anon, authenticated', p_schema);
  execute format('revoke all on all functions in schema %I from public, anon, authenticated', p_schema);
  for table_name in
    select c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
  loop
    execute format('alter table %I.%I enable row level security', p_schema, table_name);
  end loop;
end;
$$;

/**
 * Brings one organization's schema to the newest template version: creates the schema
 * when missing, applies every step above the recorded version in order, records each.
 * Idempotent; runs in the caller's transaction (one organization per transaction).
 */
create function private.migrate_tenant(p_organization_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization private.organizations;
  step private.tenant_template_steps;
  started timestamptz;
begin
  -- The row lock serialises concurrent runs for the same organization.
  select * into organization from private.organizations where id = p_organization_id for update;
  if not found then
    raise exception 'organization % not found', p_organization_id;
  end if;
  if not private.is_safe_identifier(organization.schema_name) then
    raise exception 'unsafe schema name %', organization.schema_name;
  end if;

  if not exists (select 1 from pg_catalog.pg_namespace where nspname = organization.schema_name) then
    execute format('create schema %I', organization.schema_name);
    organization.template_version := 0;
  end if;

  for step in
    select * from private.tenant_template_steps where version > organization.template_version order by version
  loop
    started := clock_timestamp();
    perform pg_catalog.set_config('search_path', pg_catalog.format('%I, pg_catalog', organization.schema_name), true);
    execute step.ddl;
    perform pg_catalog.set_config('search_path', '', true);
    perform private.seal_tenant_schema(organization.schema_name);
    insert into private.tenant_migrations (organization_id, version, duration_ms)
    values (organization.id, step.version, extract(epoch from clock_timestamp() - started) * 1000)
    on conflict (organization_id, version) do update set applied_at = now(), duration_ms = excluded.duration_ms;
    organization.template_version := step.version;
  end loop;

  update private.organizations
     set template_version = organization.template_version,
         last_migration_error = null,
         last_migrated_at = now(),
         updated_at = now()
   where id = organization.id;
  return organization.template_version;
end;
$$;

/** Organizations whose tables are behind the template (or missing), oldest first. */
create function private.organizations_behind_template()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select o.id from private.organizations o
   where o.template_version < private.latest_template_version()
      or not exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name)
   order by o.created_at, o.id;
$$;

/**
 * migrate_tenant for a runner that calls it once per organization, each call its own
 * transaction (scripts/stack/tenant-migrations.ts): a failure is recorded in
 * last_migration_error and returned instead of raised, so the run goes on, and the next
 * run resumes from the recorded version.
 */
create function private.try_migrate_tenant(p_organization_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.migrate_tenant(p_organization_id);
  return null;
exception when others then
  update private.organizations set last_migration_error = sqlerrm where id = p_organization_id;
  return sqlerrm;
end;
$$;

/** The physical schema of a provisioned organization, or null. */
create function private.tenant_schema(p_organization_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select o.schema_name from private.organizations o
   where o.id = p_organization_id and o.template_version > 0
     and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name);
$$;

/**
 * A description of a tenant schema's structure with the schema's own name left out:
 * columns, constraints, indexes, triggers and row level security. Two schemas built
 * from the same template have the same description.
 */
create function private.tenant_schema_signature(p_schema text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select string_agg(line, E'\n' order by line)
    from (
      select format('column %s.%s %s %s default %s', c.relname, a.attname,
                    pg_catalog.format_type(a.atttypid, a.atttypmod),
                    case when a.attnotnull then 'not null' else 'null' end,
                    coalesce(pg_catalog.pg_get_expr(d.adbin, d.adrelid), '-')) as line
        from pg_catalog.pg_class c
        join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
       where c.relnamespace = p_schema::regnamespace and c.relkind = 'r'
      union all
      select format('table %s rls %s', c.relname, c.relrowsecurity)
        from pg_catalog.pg_class c
       where c.relnamespace = p_schema::regnamespace and c.relkind = 'r'
      union all
      select format('constraint %s %s %s', c.relname, k.conname,
                    replace(pg_catalog.pg_get_constraintdef(k.oid), quote_ident(p_schema) || '.', '@.'))
        from pg_catalog.pg_constraint k
        join pg_catalog.pg_class c on c.oid = k.conrelid
       where c.relnamespace = p_schema::regnamespace
      union all
      select format('index %s', replace(pg_catalog.pg_get_indexdef(i.indexrelid), quote_ident(p_schema) || '.', '@.'))
        from pg_catalog.pg_index i
        join pg_catalog.pg_class c on c.oid = i.indrelid
       where c.relnamespace = p_schema::regnamespace
      union all
      select format('trigger %s', replace(pg_catalog.pg_get_triggerdef(t.oid), quote_ident(p_schema) || '.', '@.'))
        from pg_catalog.pg_trigger t
        join pg_catalog.pg_class c on c.oid = t.tgrelid
       where c.relnamespace = p_schema::regnamespace and not t.tgisinternal
      union all
      select format('policy %s %s', c.relname, p.polname)
        from pg_catalog.pg_policy p
        join pg_catalog.pg_class c on c.oid = p.polrelid
       where c.relnamespace = p_schema::regnamespace
    ) as parts;
$$;

/**
 * Drift check: compares every provisioned organization's schema with a reference built
 * from the template right now (in a scratch schema dropped again before returning).
 */
create function private.tenant_schema_drift()
returns table (organization_id uuid, slug text, template_version integer, matches_template boolean)
language plpgsql
security definer
set search_path = ''
set client_min_messages = warning
as $$
declare
  reference_schema text := 'tenant_reference_' || pg_catalog.txid_current();
  reference text;
  step private.tenant_template_steps;
begin
  execute format('create schema %I', reference_schema);
  for step in select * from private.tenant_template_steps order by version loop
    perform pg_catalog.set_config('search_path', pg_catalog.format('%I, pg_catalog', reference_schema), true);
    execute step.ddl;
    perform pg_catalog.set_config('search_path', '', true);
  end loop;
  perform private.seal_tenant_schema(reference_schema);
  reference := private.tenant_schema_signature(reference_schema);
  execute format('drop schema %I cascade', reference_schema);

  return query
    select o.id, o.slug, o.template_version,
           private.tenant_schema_signature(o.schema_name) is not distinct from reference
      from private.organizations o
     where private.tenant_schema(o.id) is not null
     order by o.created_at, o.id;
end;
$$;

/**
 * The security advisors' table, grant and function checks, run over the tenant schemas
 * (the advisors only scan exposed schemas). Empty when everything is sealed.
 */
create function private.tenant_security_findings()
returns table (schema_name text, object_name text, finding text)
language sql
stable
security definer
set search_path = ''
as $$
  with tenant_schemas as (
    select n.oid, n.nspname
      from pg_catalog.pg_namespace n
     where n.nspname in (select o.schema_name from private.organizations o)
        or n.nspname like 'org\_%'
  )
  select s.nspname, null::text, 'schema is not registered to an organization'
    from tenant_schemas s
   where s.nspname not in (select o.schema_name from private.organizations o)
  union all
  select s.nspname, null, 'API role can use the schema'
    from tenant_schemas s
   where has_schema_privilege('anon', s.oid, 'usage') or has_schema_privilege('authenticated', s.oid, 'usage')
  union all
  select s.nspname, c.relname, 'row level security is off'
    from tenant_schemas s join pg_catalog.pg_class c on c.relnamespace = s.oid
   where c.relkind in ('r', 'p') and not c.relrowsecurity
  union all
  select s.nspname, c.relname, 'API role has a privilege on the table'
    from tenant_schemas s join pg_catalog.pg_class c on c.relnamespace = s.oid
   where c.relkind in ('r', 'p', 'v', 'm', 'S')
     and exists (select 1 from unnest(array['anon', 'authenticated']) as r (role_name)
                  where has_table_privilege(r.role_name, c.oid, 'select, insert, update, delete, truncate, references, trigger'))
  union all
  select s.nspname, c.relname, 'view without security_invoker'
    from tenant_schemas s join pg_catalog.pg_class c on c.relnamespace = s.oid
   where c.relkind = 'v' and not coalesce(c.reloptions @> array['security_invoker=true'], false)
  union all
  select s.nspname, p.proname, 'function in a tenant schema'
    from tenant_schemas s join pg_catalog.pg_proc p on p.pronamespace = s.oid
  union all
  select s.nspname, c.relname || '.' || pol.polname, 'policy that always allows'
    from tenant_schemas s
    join pg_catalog.pg_class c on c.relnamespace = s.oid
    join pg_catalog.pg_policy pol on pol.polrelid = c.oid
   where pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) = 'true'
      or pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid) = 'true';
$$;

-- ---------------------------------------------------------------------------------
-- Public RPCs (spec section 7)
-- ---------------------------------------------------------------------------------

/** Checks a slug against spec section 5; {success, valid, error?}. */
create function public.validate_organization_slug(org_slug text)
returns jsonb
language sql
immutable
security definer
set search_path = ''
as $$
  select case
    when private.is_valid_slug(org_slug) then jsonb_build_object('success', true, 'valid', true)
    else jsonb_build_object('success', true, 'valid', false, 'code', 'invalid_slug',
      'error', 'Organization slug may contain only letters, digits, underscore and hyphen (at most 30), and no SQL words.')
  end;
$$;

/**
 * Resolves a template table of the caller's organization to its physical name. Super
 * admins may name any active organization; everyone else only the organization their
 * session is bound to. Anything else gets the same single answer.
 */
create function public.resolve_table_name_bypass(org_slug text, base_table_name text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  organization private.organizations;
  schema_name text;
begin
  select * into organization from private.organizations o
   where lower(o.slug) = lower(org_slug) and o.is_active;
  if caller is null or not found
     or not (private.is_super_admin(caller) or private.is_bound_to(organization.id))
     or not private.is_safe_identifier(base_table_name) then
    return private.failure('Table resolution failed for requested resource.', 'table_not_found');
  end if;

  schema_name := private.tenant_schema(organization.id);
  if schema_name is null or not exists (
       select 1 from pg_catalog.pg_class c
        where c.relnamespace = schema_name::regnamespace and c.relname = base_table_name and c.relkind = 'r') then
    return private.failure('Table resolution failed for requested resource.', 'table_not_found');
  end if;

  return jsonb_build_object('success', true, 'schema_name', schema_name, 'table_name', base_table_name,
                            'qualified_name', format('%I.%I', schema_name, base_table_name));
end;
$$;

/**
 * Creates (or completes) the organization's own tables from the template. For a super
 * admin, any organization; for an admin, the organization of their session.
 */
create function public.create_organization_tables(org_slug text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  organization private.organizations;
  reached integer;
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  select * into organization from private.organizations o where lower(o.slug) = lower(org_slug);
  if not found or not (private.is_super_admin(caller)
                       or (private.is_bound_to(organization.id) and private.is_admin_of(caller, organization.id))) then
    return private.failure('Admin privileges required', 'admin_required');
  end if;

  reached := private.migrate_tenant(organization.id);
  perform private.write_audit(organization.id, 'organization.tables_provisioned', 'organization',
                              organization.id::text, jsonb_build_object('template_version', reached));
  return jsonb_build_object(
    'success', true, 'message', 'Organization tables are ready',
    'schema_name', organization.schema_name, 'template_version', reached,
    'tables', (select jsonb_agg(c.relname order by c.relname) from pg_catalog.pg_class c
                where c.relnamespace = organization.schema_name::regnamespace and c.relkind = 'r'));
end;
$$;

/**
 * Super admin: registers an organization and provisions its tables in one transaction
 * (one organization per call; many in one transaction would exhaust lock memory).
 */
create function public.create_organization(p_slug text, p_name text, p_subscription_plan text default 'basic')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  created private.organizations;
  clean_name text := btrim(p_name);
begin
  if caller is null or not private.is_super_admin(caller) then
    return private.failure('Admin privileges required', 'super_admin_required');
  end if;
  if not private.is_valid_slug(p_slug) then
    return private.failure('Organization slug may contain only letters, digits, underscore and hyphen (at most 30), and no SQL words.', 'invalid_slug');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 200 then
    return private.failure('Organization name is required (at most 200 characters)', 'invalid_name');
  end if;
  if coalesce(p_subscription_plan, '') !~ '^[a-z][a-z0-9_]{0,29}$' then
    return private.failure('Invalid subscription plan', 'invalid_plan');
  end if;
  if exists (select 1 from private.organizations o
              where lower(replace(o.slug, '-', '_')) = lower(replace(p_slug, '-', '_'))) then
    return private.failure('Organization slug is already in use', 'slug_taken');
  end if;

  insert into private.organizations (slug, name, subscription_plan)
  values (p_slug, clean_name, p_subscription_plan)
  returning * into created;
  perform private.migrate_tenant(created.id);
  perform private.write_audit(created.id, 'organization.created', 'organization', created.id::text,
                              jsonb_build_object('slug', created.slug, 'name', created.name));

  return jsonb_build_object('success', true, 'message', 'Organization created',
    'organization', jsonb_build_object('id', created.id, 'slug', created.slug, 'name', created.name,
      'subscription_plan', created.subscription_plan, 'subscription_status', created.subscription_status,
      'is_active', created.is_active, 'table_prefix_timestamp', created.table_prefix_timestamp,
      'template_version', private.latest_template_version()));
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.validate_organization_slug(text) from public, anon, authenticated;
revoke execute on function public.resolve_table_name_bypass(text, text) from public, anon, authenticated;
revoke execute on function public.create_organization_tables(text) from public, anon, authenticated;
revoke execute on function public.create_organization(text, text, text) from public, anon, authenticated;
grant execute on function public.validate_organization_slug(text) to authenticated;
grant execute on function public.resolve_table_name_bypass(text, text) to authenticated;
grant execute on function public.create_organization_tables(text) to authenticated;
grant execute on function public.create_organization(text, text, text) to authenticated;
