-- What a hosted Supabase project already has before the first project migration runs,
-- and what @supabase/lite does not create. Applied by the local stack (and the test
-- databases) only; it is never a migration. Idempotent.

do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin nologin noinherit;
  end if;
end
$$;

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

grant usage on schema extensions, public, auth to anon, authenticated, service_role;
grant usage on schema auth to supabase_auth_admin;

-- Hosted Supabase lets the API roles execute every new function in public by default
-- (advisor lints 0028/0029 exist because of it). Reproduce that so the migrations'
-- explicit revokes are exercised locally exactly as they will be on hosted Supabase.
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;

-- Storage: hosted Supabase grants the API roles the storage schema and its tables (RLS
-- decides what each may see); lite creates the schema (ensureSystemSchema) but not the grants.
do $$
begin
  if exists (select from pg_namespace where nspname = 'storage') then
    grant usage on schema storage to anon, authenticated, service_role;
    grant all on all tables in schema storage to anon, authenticated, service_role;
  end if;
end
$$;
