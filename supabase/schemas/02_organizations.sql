-- Organizations and their own tables (DESIGN.md D4): the organization rows, the tenant
-- template runner (steps, per-organization migrations, sealing, drift and security
-- checks; the tables themselves are in supabase/tenant/), provisioning, the
-- super admin's organization console, the database view and switcher, and the logo.

revoke all on schema private from public;

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

create table private.organizations (
  id uuid primary key default gen_random_uuid(),
  -- Spec section 5: letters, digits, underscore and hyphen.
  slug text not null unique check (slug ~ '^[A-Za-z0-9_-]{1,30}$')
    constraint organizations_slug_check_words check (private.is_valid_slug(slug)),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  subscription_plan text not null default 'basic',
  subscription_status text not null default 'active',
  is_active boolean not null default true,
  -- Part of the physical names of the organization's own tables (spec section 3).
  table_prefix_timestamp bigint not null default (extract(epoch from clock_timestamp()) * 1000)::bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The schema of the organization's own tables (DESIGN.md D4).
  schema_name text generated always as (
    'org_' || lower(replace(slug, '-', '_')) || '_' || table_prefix_timestamp::text) stored
    constraint organizations_schema_name_key unique
    constraint organizations_schema_name_check check (private.is_safe_identifier(schema_name)),
  -- The template version this organization's schema has reached (0: not provisioned).
  template_version integer not null default 0,
  last_migration_error text,
  last_migrated_at timestamptz
);

comment on table private.organizations is 'Tenants. Physical table names derive from slug + table_prefix_timestamp.';

-- Defence in depth: nothing in private is granted to the API roles, and even if a grant
-- slipped in, row level security without policies would still return nothing.
alter table private.organizations enable row level security;

-- Slugs are unique the way they appear in table names (lowercase, hyphen as underscore),
-- so 'Demo', 'demo' or 'acme-co' and 'acme_co' cannot both exist: their tables would
-- otherwise be told apart by the timestamp alone.
create unique index organizations_slug_lower_key on private.organizations (lower(replace(slug, '-', '_')));

/** A slug and the timestamp name the organization's tables, so they never change. */
create function private.keep_organization_names()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.slug is distinct from old.slug or new.table_prefix_timestamp is distinct from old.table_prefix_timestamp then
    raise exception 'an organization''s slug and table_prefix_timestamp cannot change'
      using errcode = 'check_violation';
  end if;
  return new;
end;
$$;

create trigger keep_organization_names
  before update of slug, table_prefix_timestamp on private.organizations
  for each row execute function private.keep_organization_names();

/** Every new organization starts with its default roles and settings. */
create function private.on_organization_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.create_default_roles(new.id);
  insert into private.organization_settings (organization_id) values (new.id);
  return null;
end;
$$;

create trigger organization_defaults
  after insert on private.organizations
  for each row execute function private.on_organization_created();

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

/** The newest template version. */
create function private.latest_template_version()
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(max(version), 0) from private.tenant_template_steps);
end;
$$;

/**
 * Seals a tenant schema after its steps: row level security on every table, nothing for
 * PUBLIC or the API roles. Tenant data is reached only through security definer RPCs.
 * The schema's tables, views and sequences are found through their dependency on the
 * schema (pg_depend's index), never by a scan of pg_class by schema (no index: a scan of
 * the whole catalogue, which grows by ~220 relations with every organization). A relation
 * whose ACL is null has the owner's privileges only, so only relations with an ACL are
 * revoked from; tenant schemas hold no function (private.tenant_security_findings).
 */
create function private.seal_tenant_schema(p_schema text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  relation record;
begin
  execute format('revoke all on schema %I from public, anon, authenticated', p_schema);
  for relation in
    select c.relname, c.relkind, c.relacl is not null as has_acl,
           c.relkind in ('r', 'p') and not c.relrowsecurity as needs_rls
      from pg_catalog.pg_depend d
      join pg_catalog.pg_class c on c.oid = d.objid
     where d.refclassid = 'pg_catalog.pg_namespace'::regclass and d.refobjid = p_schema::regnamespace
       and d.classid = 'pg_catalog.pg_class'::regclass and d.objsubid = 0
       and (c.relacl is not null or (c.relkind in ('r', 'p') and not c.relrowsecurity))
  loop
    if relation.has_acl then
      execute format('revoke all on %s %I.%I from public, anon, authenticated',
                     case when relation.relkind = 'S' then 'sequence' else 'table' end, p_schema, relation.relname);
    end if;
    if relation.needs_rls then
      execute format('alter table %I.%I enable row level security', p_schema, relation.relname);
    end if;
  end loop;
end;
$$;

/**
 * Applies every template step above p_from_version to the existing schema p_schema in
 * version order (search path = the schema), then seals it once. Returns each applied
 * step's duration in ms as {"<version>": ms}. The one way steps are applied: to an
 * organization's schema (private.migrate_tenant) and to a spare (private.build_tenant_spare).
 */
create function private.apply_tenant_steps(p_schema text, p_from_version integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  step private.tenant_template_steps;
  started timestamptz;
  durations jsonb := '{}';
begin
  if not private.is_safe_identifier(p_schema) then
    raise exception 'unsafe schema name %', p_schema;
  end if;
  for step in
    select * from private.tenant_template_steps where version > p_from_version order by version
  loop
    started := clock_timestamp();
    perform pg_catalog.set_config('search_path', pg_catalog.format('%I, pg_catalog', p_schema), true);
    execute step.ddl;
    perform pg_catalog.set_config('search_path', '', true);
    durations := durations || jsonb_build_object(step.version::text,
                                                 round(extract(epoch from clock_timestamp() - started) * 1000, 3));
  end loop;
  if durations <> '{}' then
    perform private.seal_tenant_schema(p_schema);
  end if;
  return durations;
end;
$$;

-- Spare organization schemas (issue 28): built ahead from the newest template by
-- private.refill_tenant_spares (pg_cron, the local stack's timer), claimed by a rename when
-- an organization is created, so creating one costs a rename instead of ~200 relations.
-- A spare is sealed like any tenant schema, registered here (private.tenant_security_findings
-- knows it) and named so that no organization's schema can ever have its name: an
-- organization's schema ends with its timestamp's digits, a spare's with "_spare".
create table private.tenant_spares (
  schema_name text primary key
    check (schema_name ~ '^org_pool_[0-9a-f]{12}_spare$'),
  template_version integer not null check (template_version > 0),
  -- Each step's duration when the spare was built or migrated, {"<version>": ms}: copied into
  -- private.tenant_migrations by the organization that claims it.
  step_durations jsonb not null default '{}' check (jsonb_typeof(step_durations) = 'object'),
  created_at timestamptz not null default now()
);

comment on table private.tenant_spares is 'Spare organization schemas built ahead from the template, claimed by create_organization.';

alter table private.tenant_spares enable row level security;

/** How many spare organization schemas private.refill_tenant_spares keeps ready. */
create function private.tenant_spare_pool_size()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 3;
$$;

/** Builds one spare schema from the newest template, registers it and returns its name. */
create function private.build_tenant_spare()
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  spare_name text := 'org_pool_' || substr(md5(gen_random_uuid()::text), 1, 12) || '_spare';
  durations jsonb;
begin
  execute format('create schema %I', spare_name);
  durations := private.apply_tenant_steps(spare_name, 0);
  insert into private.tenant_spares (schema_name, template_version, step_durations)
  values (spare_name, private.latest_template_version(), durations);
  return spare_name;
end;
$$;

/**
 * Brings every spare behind the template to the newest version, as organizations are
 * (db:migrate-tenants and the stack's start call it after them). A spare whose step fails
 * is dropped (it holds no data); a spare being claimed or migrated elsewhere is skipped.
 * Returns how many were migrated.
 */
create function private.migrate_tenant_spares()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  spare private.tenant_spares;
  latest integer := private.latest_template_version();
  migrated integer := 0;
begin
  for spare in
    select * from private.tenant_spares s where s.template_version < latest
     order by s.created_at for update skip locked
  loop
    begin
      update private.tenant_spares
         set template_version = latest,
             step_durations = step_durations || private.apply_tenant_steps(spare.schema_name, spare.template_version)
       where schema_name = spare.schema_name;
      migrated := migrated + 1;
    exception when others then
      execute format('drop schema if exists %I cascade', spare.schema_name);
      delete from private.tenant_spares where schema_name = spare.schema_name;
    end;
  end loop;
  return migrated;
end;
$$;

/**
 * Keeps private.tenant_spare_pool_size() spares ready: migrates spares behind the template,
 * then builds the missing ones, at most p_limit in this call (all when null). One refill at a
 * time (an advisory lock; a second concurrent call returns 0). Returns how many it built.
 * Run every minute by pg_cron on hosted Supabase and by the local stack's timer.
 */
create function private.refill_tenant_spares(p_limit integer default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  missing integer;
  built integer := 0;
begin
  if not pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('private.refill_tenant_spares')) then
    return 0;
  end if;
  perform private.migrate_tenant_spares();
  missing := private.tenant_spare_pool_size() - (select count(*) from private.tenant_spares);
  missing := least(missing, coalesce(p_limit, missing));
  while built < missing loop
    perform private.build_tenant_spare();
    built := built + 1;
  end loop;
  return built;
end;
$$;

-- Every minute (private.scheduled_jobs).
insert into private.scheduled_jobs (name, schedule, function_name)
values ('crm-refill-tenant-spares', '* * * * *', 'refill_tenant_spares');


/**
 * Gives an organization a spare as its schema: takes the newest spare nobody else is taking,
 * renames it to p_schema and records its steps for the organization. Returns the template
 * version the spare had reached, or null when no spare is ready.
 */
create function private.claim_tenant_spare(p_organization_id uuid, p_schema text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  spare private.tenant_spares;
begin
  loop
    delete from private.tenant_spares s
     where s.schema_name = (select x.schema_name from private.tenant_spares x
                             where x.template_version <= private.latest_template_version()
                             order by x.template_version desc, x.created_at, x.schema_name
                             limit 1 for update skip locked)
    returning * into spare;
    if not found then
      return null;
    end if;
    -- A registered spare whose schema is gone (dropped by hand) is forgotten; the next one is taken.
    exit when exists (select 1 from pg_catalog.pg_namespace n where n.nspname = spare.schema_name);
  end loop;
  execute format('alter schema %I rename to %I', spare.schema_name, p_schema);
  insert into private.tenant_migrations (organization_id, version, duration_ms)
  select p_organization_id, d.key::integer, d.value::numeric
    from jsonb_each_text(spare.step_durations) as d
  on conflict (organization_id, version) do update set applied_at = now(), duration_ms = excluded.duration_ms;
  return spare.template_version;
end;
$$;

/**
 * Brings one organization's schema to the newest template version: when the schema is
 * missing, claims a spare (private.claim_tenant_spare) or else creates it empty; applies
 * every step above the recorded version in order, records each.
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
  durations jsonb;
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
    organization.template_version := private.claim_tenant_spare(organization.id, organization.schema_name);
    if organization.template_version is null then
      execute format('create schema %I', organization.schema_name);
      organization.template_version := 0;
    end if;
  end if;

  durations := private.apply_tenant_steps(organization.schema_name, organization.template_version);
  insert into private.tenant_migrations (organization_id, version, duration_ms)
  select organization.id, d.key::integer, d.value::numeric
    from jsonb_each_text(durations) as d
  on conflict (organization_id, version) do update set applied_at = now(), duration_ms = excluded.duration_ms;

  update private.organizations
     set template_version = private.latest_template_version(),
         last_migration_error = null,
         last_migrated_at = now(),
         updated_at = now()
   where id = organization.id;
  return private.latest_template_version();
end;
$$;

/** Organizations whose tables are behind the template (or missing), oldest first. */
create function private.organizations_behind_template()
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select o.id from private.organizations o
     where o.template_version < private.latest_template_version()
        or not exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name)
     order by o.created_at, o.id;
end;
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
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select o.schema_name from private.organizations o
     where o.id = p_organization_id and o.template_version > 0
       and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name));
end;
$$;

/**
 * A description of a tenant schema's structure with the schema's own name left out:
 * columns, constraints, indexes, triggers and row level security. Two schemas built
 * from the same template have the same description. The organization's custom fields
 * (cf_ columns, 18_custom_fields.sql) and their indexes are its own, not the template's:
 * left out.
 */
create function private.tenant_schema_signature(p_schema text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select string_agg(line, E'\n' order by line)
      from (
        select format('column %s.%s %s %s default %s', c.relname, a.attname,
                      pg_catalog.format_type(a.atttypid, a.atttypmod),
                      case when a.attnotnull then 'not null' else 'null' end,
                      coalesce(pg_catalog.pg_get_expr(d.adbin, d.adrelid), '-')) as line
          from pg_catalog.pg_class c
          join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
         where c.relnamespace = p_schema::regnamespace and c.relkind = 'r' and a.attname !~ '^cf_'
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
           and not exists (select 1 from pg_catalog.pg_depend dep
                             join pg_catalog.pg_attribute a on a.attrelid = dep.refobjid and a.attnum = dep.refobjsubid
                            where dep.classid = 'pg_catalog.pg_class'::regclass and dep.objid = i.indexrelid
                              and a.attname ~ '^cf_')
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
      ) as parts);
end;
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
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    with tenant_schemas as (
      select n.oid, n.nspname
        from pg_catalog.pg_namespace n
       where n.nspname in (select o.schema_name from private.organizations o)
          or n.nspname like 'org\_%'
    )
    select s.nspname::text, null::text, 'schema is not registered to an organization'
      from tenant_schemas s
     where s.nspname not in (select o.schema_name from private.organizations o)
       and s.nspname not in (select t.schema_name from private.tenant_spares t)
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
end;
$$;

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
revoke all on function public.validate_organization_slug(org_slug text) from public, anon, authenticated;
grant execute on function public.validate_organization_slug(org_slug text) to authenticated;

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
  caller private.caller_context := private.caller_context();
  organization private.organizations;
  schema_name text;
begin
  select * into organization from private.organizations o
   where lower(o.slug) = lower(org_slug) and o.is_active;
  if caller.problem is not null or not found
     or not (caller.is_super_admin or organization.id is not distinct from caller.bound_organization_id)
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
revoke all on function public.resolve_table_name_bypass(org_slug text, base_table_name text) from public, anon, authenticated;
grant execute on function public.resolve_table_name_bypass(org_slug text, base_table_name text) to authenticated;

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
  caller private.caller_context := private.caller_context(p_organization_slug => org_slug);
  organization private.organizations;
  reached integer;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  -- A super admin names any organization; an admin only the one their session is bound to.
  select * into organization from private.organizations o where o.id = caller.organization_id;
  if org_slug is null or not found or not caller.is_admin then
    return private.refusal('admin_required');
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
revoke all on function public.create_organization_tables(org_slug text) from public, anon, authenticated;
grant execute on function public.create_organization_tables(org_slug text) to authenticated;

/**
 * A slug from a company name, within spec section 5's letters: Turkish and other accented
 * letters folded to their base letter ("Işık Yazılım" gives isik-yazilim), every other run of
 * characters one hyphen, a trailing company form (A.Ş., Ltd. Şti., Ltd., Inc., GmbH) dropped,
 * at most 30 characters. The organization manager derives the same as the name is typed
 * (src/features/admin/organizations/utils/slug.ts, slugFromName); the result is still checked
 * by private.is_valid_slug (SQL words, emptiness).
 */
create function private.slug_from_name(p_name text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  slug text := btrim(regexp_replace(lower(translate(coalesce(p_name, ''),
    'ÇĞİIÖŞÜçğıöşüÂÎÛâîûÀÁÄÃÅÈÉÊËÌÍÏÒÓÔÕÙÚÑàáäãåèéêëìíïòóôõùúñ',
    'CGIIOSUcgiosuAIUaiuAAAAAEEEEIIIOOOOUUNaaaaaeeeeiiioooouun')), '[^a-z0-9]+', '-', 'g'), '-');
  shorter text;
begin
  loop
    shorter := regexp_replace(slug, '-(a-s|as|ltd-sti|ltd|sti|inc|llc|gmbh)$', '');
    exit when shorter = slug;
    slug := shorter;
  end loop;
  return btrim(left(slug, 30), '-');
end;
$$;
revoke all on function private.slug_from_name(p_name text) from public, anon, authenticated;

/**
 * Super admin: registers an organization and provisions its tables in one transaction
 * (one organization per call; many in one transaction would exhaust lock memory). With no
 * slug, the slug comes from the name (private.slug_from_name). With a first admin's email,
 * that admin is created in the same transaction (private.create_user_secure, role admin):
 * if the admin is refused (email in use, weak password, ...), nothing is created and the
 * refusal is returned with `first_admin: true`.
 */
create function private.create_organization(p_slug text, p_name text, p_subscription_plan text default 'basic',
                                            p_admin_email text default null, p_admin_password text default null,
                                            p_admin_first_name text default null, p_admin_last_name text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('super_admin');
  created private.organizations;
  clean_name text := btrim(p_name);
  wanted_slug text := case when p_slug is null or p_slug = '' then private.slug_from_name(p_name) else p_slug end;
  admin_result jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if not private.is_valid_slug(wanted_slug) then
    return private.failure('Organization slug may contain only letters, digits, underscore and hyphen (at most 30), and no SQL words.', 'invalid_slug');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 200 then
    return private.failure('Organization name is required (at most 200 characters)', 'invalid_name');
  end if;
  if coalesce(p_subscription_plan, '') !~ '^[a-z][a-z0-9_]{0,29}$' then
    return private.failure('Invalid subscription plan', 'invalid_plan');
  end if;
  if exists (select 1 from private.organizations o
              where lower(replace(o.slug, '-', '_')) = lower(replace(wanted_slug, '-', '_'))) then
    return private.failure('Organization slug is already in use', 'slug_taken');
  end if;

  begin
    insert into private.organizations (slug, name, subscription_plan)
    values (wanted_slug, clean_name, p_subscription_plan)
    returning * into created;
    perform private.migrate_tenant(created.id);
    perform private.write_audit(created.id, 'organization.created', 'organization', created.id::text,
                                jsonb_build_object('slug', created.slug, 'name', created.name));
    if p_admin_email is not null then
      admin_result := private.create_user_secure(p_admin_email, p_admin_password, created.id,
                                                 p_admin_first_name, p_admin_last_name, 'admin');
      if not coalesce((admin_result->>'success')::boolean, false) then
        -- Undoes the organization, its tables and its audit entry with the block.
        raise exception using errcode = 'CRMFA', message = 'first admin refused';
      end if;
    end if;
  exception when sqlstate 'CRMFA' then
    return admin_result || jsonb_build_object('first_admin', true);
  end;

  return jsonb_build_object('success', true, 'message', 'Organization created',
    'organization', jsonb_build_object('id', created.id, 'slug', created.slug, 'name', created.name,
      'subscription_plan', created.subscription_plan, 'subscription_status', created.subscription_status,
      'is_active', created.is_active, 'table_prefix_timestamp', created.table_prefix_timestamp,
      'template_version', private.latest_template_version()))
    || case when admin_result is null then '{}'::jsonb else jsonb_build_object('first_admin', admin_result->'user') end;
end;
$$;

/** An organization as the organization manager shows it. */
create function private.organization_json(p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select jsonb_build_object(
      'id', o.id, 'slug', o.slug, 'name', o.name, 'subscription_plan', o.subscription_plan,
      'subscription_status', o.subscription_status, 'is_active', o.is_active,
      'table_prefix_timestamp', o.table_prefix_timestamp, 'template_version', o.template_version,
      'latest_template_version', private.latest_template_version(),
      'last_migration_error', o.last_migration_error, 'created_at', o.created_at,
      'member_count', (select count(*) from private.memberships m where m.organization_id = o.id),
      'active_member_count', (select count(*) from private.memberships m
                               where m.organization_id = o.id and m.is_active))
      from private.organizations o
     where o.id = p_organization_id);
end;
$$;

/** Super admin: every organization with its member counts and table status. */
create function private.list_organizations()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('super_admin');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'organizations', (
    select coalesce(jsonb_agg(private.organization_json(o.id) order by private.turkish_sort_key(o.name) collate "C", o.slug), '[]')
      from private.organizations o));
end;
$$;

/**
 * Super admin: changes an organization's name, plan, subscription status or activity. A
 * deactivated organization's members stop working in it at once (their bindings go).
 */
create function private.update_organization(p_organization_id uuid, p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('super_admin');
  unknown_field text;
  clean_name text := btrim(p_changes ->> 'name');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if not exists (select 1 from private.organizations o where o.id = p_organization_id) then
    return private.failure('Organization not found', 'organization_not_found');
  end if;
  if jsonb_typeof(p_changes) is distinct from 'object' then
    return private.failure('Invalid organization change', 'invalid_input');
  end if;
  select key into unknown_field from jsonb_object_keys(p_changes) as keys (key)
   where key not in ('name', 'subscription_plan', 'subscription_status', 'is_active') limit 1;
  if unknown_field is not null
     or (p_changes ? 'name' and (jsonb_typeof(p_changes -> 'name') <> 'string'
                                 or char_length(clean_name) not between 1 and 200))
     or (p_changes ? 'subscription_plan' and (jsonb_typeof(p_changes -> 'subscription_plan') <> 'string'
                                              or (p_changes ->> 'subscription_plan') !~ '^[a-z][a-z0-9_]{0,29}$'))
     or (p_changes ? 'subscription_status' and coalesce(p_changes #>> '{subscription_status}', '') not in ('active', 'trial', 'past_due', 'suspended', 'cancelled'))
     or (p_changes ? 'is_active' and jsonb_typeof(p_changes -> 'is_active') <> 'boolean') then
    return private.failure('Invalid organization change', 'invalid_input');
  end if;

  update private.organizations
     set name = coalesce(clean_name, name),
         subscription_plan = coalesce(p_changes ->> 'subscription_plan', subscription_plan),
         subscription_status = coalesce(p_changes ->> 'subscription_status', subscription_status),
         is_active = coalesce((p_changes ->> 'is_active')::boolean, is_active),
         updated_at = now()
   where id = p_organization_id;
  if (p_changes ->> 'is_active')::boolean is false then
    delete from private.session_organizations s where s.organization_id = p_organization_id;
  end if;
  perform private.write_audit(p_organization_id, 'organization.updated', 'organization', p_organization_id::text, p_changes);
  return jsonb_build_object('success', true, 'organization', private.organization_json(p_organization_id));
end;
$$;

/** Admin: the organization's tables (row counts and sizes) and where its template stands. */
create function public.get_organization_tables(p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
  target_org uuid := caller.organization_id;
  organization private.organizations;
  schema_name text;
  tables jsonb := '[]';
  table_name text;
  row_count bigint;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  select * into organization from private.organizations where id = target_org;
  schema_name := private.tenant_schema(target_org);

  if schema_name is not null then
    for table_name in
      select c.relname from pg_catalog.pg_class c
       where c.relnamespace = schema_name::regnamespace and c.relkind = 'r' order by c.relname
    loop
      execute format('select count(*) from %I.%I', schema_name, table_name) into row_count;
      tables := tables || jsonb_build_array(jsonb_build_object(
        'name', table_name, 'row_count', row_count,
        'total_bytes', pg_catalog.pg_total_relation_size(format('%I.%I', schema_name, table_name)::regclass)));
    end loop;
  end if;

  return jsonb_build_object('success', true,
    'schema_name', organization.schema_name,
    'provisioned', schema_name is not null,
    'template_version', organization.template_version,
    'latest_template_version', private.latest_template_version(),
    'last_migrated_at', organization.last_migrated_at,
    'last_migration_error', organization.last_migration_error,
    'needs_provisioning', schema_name is null or organization.template_version < private.latest_template_version(),
    'tables', tables);
end;
$$;
revoke all on function public.get_organization_tables(p_organization_slug text) from public, anon, authenticated;
grant execute on function public.get_organization_tables(p_organization_slug text) to authenticated;

/**
 * Super admin: moves this Auth session to another active organization. The previous
 * binding ends and the new one is recorded in the audit logs of both organizations. A
 * lock refuses it as it refuses binding.
 */
create function public.super_admin_switch_organization(p_organization_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('live_session');
  caller uuid := context.user_id;
  session uuid := context.session_id;
  previous uuid;
  target private.organizations;
  problem jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  -- A lock answers as a lock, before the super admin question (a locked account is none).
  problem := private.lock_problem(caller);
  if problem is not null then
    return problem;
  end if;
  if not context.is_super_admin then
    return private.refusal('super_admin_required');
  end if;
  select * into target from private.organizations where id = p_organization_id and is_active;
  if not found then
    return private.failure('Organization not found', 'organization_not_found');
  end if;

  delete from private.session_organizations where session_id = session returning organization_id into previous;
  insert into private.session_organizations (session_id, user_id, organization_id) values (session, caller, target.id);
  if previous is not null and previous <> target.id then
    perform private.write_audit(previous, 'session.super_admin_left', 'organization', target.id::text);
  end if;
  perform private.write_audit(target.id, 'session.super_admin_switched', 'organization', target.id::text,
                              jsonb_build_object('from_organization_id', previous));
  return jsonb_build_object('success', true,
    'organization', jsonb_build_object('id', target.id, 'slug', target.slug, 'name', target.name, 'role', 'admin'));
end;
$$;
revoke all on function public.super_admin_switch_organization(p_organization_id uuid) from public, anon, authenticated;
grant execute on function public.super_admin_switch_organization(p_organization_id uuid) to authenticated;

/**
 * The organization an admin RPC acts in and its schema, or in problem the failure to
 * answer: private.caller_context's need 'admin' (the session's organization; a super admin
 * may name another by p_organization_slug), then the organization's tables.
 */
create function private.admin_tenant_schema(p_organization_slug text default null,
                                            out organization_id uuid, out schema_name text, out problem jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
begin
  problem := caller.problem;
  if problem is null then
    organization_id := caller.organization_id;
    schema_name := private.tenant_schema(organization_id);
    if schema_name is null then
      problem := private.refusal('tables_not_found');
    end if;
  end if;
end;
$$;

-- The organization's logo, kept in the database: a PNG, JPEG or WebP image of at most
-- 256 KB, checked by its first bytes. (lite's Storage has no access rules yet, and a logo
-- this small travels well inside an RPC answer.) It replaces the free-text logo_path.
create table private.organization_logos (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
  image bytea not null check (octet_length(image) between 1 and 262144),
  updated_at timestamptz not null default now(),
  updated_by uuid
);

comment on table private.organization_logos is 'Each organization''s logo image (at most one; 256 KB at most).';

alter table private.organization_logos enable row level security;

/**
 * Admin: sets the organization's logo from base64 text. Refused: another type than PNG,
 * JPEG or WebP (SVG can carry scripts), bytes that are not that type, more than 256 KB.
 */
create function public.set_organization_logo(p_content_type text, p_image_base64 text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  image bytea;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if coalesce(p_content_type, '') not in ('image/png', 'image/jpeg', 'image/webp') then
    return private.failure('Unsupported logo format', 'invalid_logo_type');
  end if;
  -- 256 KB is at most 349,528 base64 characters (some room for line breaks).
  if char_length(coalesce(p_image_base64, '')) > 360000 then
    return private.failure('Logo is too large', 'logo_too_large', jsonb_build_object('max_bytes', 262144));
  end if;
  begin
    image := decode(p_image_base64, 'base64');
  exception when others then
    return private.failure('Invalid logo image', 'invalid_logo');
  end;
  if octet_length(image) > 262144 then
    return private.failure('Logo is too large', 'logo_too_large', jsonb_build_object('max_bytes', 262144));
  end if;
  if not coalesce(private.is_image_of_type(image, p_content_type), false) then
    return private.failure('Invalid logo image', 'invalid_logo');
  end if;

  insert into private.organization_logos (organization_id, content_type, image, updated_by)
  values (target_org, p_content_type, image, auth.uid())
  on conflict (organization_id) do update
    set content_type = excluded.content_type, image = excluded.image, updated_at = now(), updated_by = excluded.updated_by;
  perform private.write_audit(target_org, 'settings.logo_updated', 'organization', target_org::text,
                              jsonb_build_object('content_type', p_content_type, 'bytes', octet_length(image)));
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;
revoke all on function public.set_organization_logo(p_content_type text, p_image_base64 text) from public, anon, authenticated;
grant execute on function public.set_organization_logo(p_content_type text, p_image_base64 text) to authenticated;

/** Admin: removes the organization's logo. */
create function public.remove_organization_logo()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  delete from private.organization_logos where organization_id = target_org;
  if found then
    perform private.write_audit(target_org, 'settings.logo_removed', 'organization', target_org::text);
  end if;
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;
revoke all on function public.remove_organization_logo() from public, anon, authenticated;
grant execute on function public.remove_organization_logo() to authenticated;

/** The logo of the caller's organization as base64 with its type (null when it has none); members read it. */
create function public.get_organization_logo()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'logo',
    (select jsonb_build_object('content_type', l.content_type, 'data_base64', translate(encode(l.image, 'base64'), E'\n', ''),
                               'updated_at', l.updated_at)
       from private.organization_logos l where l.organization_id = target_org));
end;
$$;
revoke all on function public.get_organization_logo() from public, anon, authenticated;
grant execute on function public.get_organization_logo() to authenticated;

/** The organization a tenant schema belongs to (triggers know only their schema). */
create function private.schema_organization(p_schema text)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select o.id from private.organizations o where o.schema_name = p_schema);
end;
$$;

/**
 * Super admin: every organization with its member counts and table status. Only with a live
 * request token of the caller's session (admin-organizations).
 */
create function public.list_organizations()
returns jsonb language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.list_organizations();
end;
$$;
revoke all on function public.list_organizations() from public, anon, authenticated;
grant execute on function public.list_organizations() to authenticated;

/**
 * Super admin: registers an organization and provisions its tables in one transaction, with
 * its first admin when an email is given (private.create_organization). Only with a live
 * request token of the caller's session (admin-organizations).
 */
create function public.create_organization(p_slug text, p_name text, p_subscription_plan text default 'basic',
                                           p_admin_email text default null, p_admin_password text default null,
                                           p_admin_first_name text default null, p_admin_last_name text default null)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.create_organization(p_slug, p_name, p_subscription_plan,
                                     p_admin_email, p_admin_password, p_admin_first_name, p_admin_last_name);
end;
$$;
revoke all on function public.create_organization(p_slug text, p_name text, p_subscription_plan text, p_admin_email text, p_admin_password text, p_admin_first_name text, p_admin_last_name text) from public, anon, authenticated;
grant execute on function public.create_organization(p_slug text, p_name text, p_subscription_plan text, p_admin_email text, p_admin_password text, p_admin_first_name text, p_admin_last_name text) to authenticated;

/**
 * Super admin: changes an organization's name, plan, subscription status or activity. Only
 * with a live request token of the caller's session (admin-organizations).
 */
create function public.update_organization(p_organization_id uuid, p_changes jsonb)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.update_organization(p_organization_id, p_changes);
end;
$$;
revoke all on function public.update_organization(p_organization_id uuid, p_changes jsonb) from public, anon, authenticated;
grant execute on function public.update_organization(p_organization_id uuid, p_changes jsonb) to authenticated;
