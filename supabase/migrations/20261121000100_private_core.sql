-- Control data: organizations, profiles and memberships.
-- It lives in the private schema, which the Data API does not expose; the public schema
-- only holds the RPC façade (DESIGN.md D4). Every function is security definer with an
-- empty search_path and grants exactly what it intends (D6).

create schema if not exists private;
revoke all on schema private from public;

-- No new function is executable by PUBLIC or the API roles unless a migration grants it.
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;

create table private.organizations (
  id uuid primary key default gen_random_uuid(),
  -- Spec section 5: letters, digits, underscore and hyphen.
  slug text not null unique check (slug ~ '^[A-Za-z0-9_-]{1,30}$'),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  subscription_plan text not null default 'basic',
  subscription_status text not null default 'active',
  is_active boolean not null default true,
  -- Part of the physical names of the organization's own tables (spec section 3).
  table_prefix_timestamp bigint not null default (extract(epoch from clock_timestamp()) * 1000)::bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table private.organizations is 'Tenants. Physical table names derive from slug + table_prefix_timestamp.';

create table private.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null unique check (email = lower(btrim(email)) and email like '%_@_%'),
  first_name text not null default '' check (first_name = btrim(first_name)),
  last_name text not null default '' check (last_name = btrim(last_name)),
  -- Global role (spec section 6): super_admin works across organizations.
  role text not null default 'user' check (role in ('super_admin', 'admin', 'user')),
  is_active boolean not null default true,
  failed_login_attempts integer not null default 0 check (failed_login_attempts >= 0),
  last_failed_attempt timestamptz,
  locked_until timestamptz,
  locked_by_admin boolean not null default false,
  last_login_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table private.profiles is 'One row per Auth user: names, global role and lockout state.';

create table private.memberships (
  user_id uuid not null references private.profiles (id) on delete cascade,
  organization_id uuid not null references private.organizations (id) on delete cascade,
  -- Organization role: admin or an ordinary role (user by default; manager, sales, ...).
  role text not null default 'user' check (role ~ '^[a-z][a-z0-9_]{0,39}$'),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  primary key (user_id, organization_id)
);
create index memberships_organization_id_idx on private.memberships (organization_id);
comment on table private.memberships is 'Which organizations a user may work in, and with which organization role.';

-- Defence in depth: nothing in private is granted to the API roles, and even if a grant
-- slipped in, row level security without policies would still return nothing.
alter table private.organizations enable row level security;
alter table private.profiles enable row level security;
alter table private.memberships enable row level security;

/**
 * The signed-in user's name and role, the organizations they may work in, and the one
 * they work in now (the first available one until session binding decides otherwise).
 */
create function public.get_current_user_context()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  caller_profile private.profiles;
  available jsonb;
begin
  if caller is null then
    return jsonb_build_object('success', false, 'error', 'Authentication required');
  end if;

  select * into caller_profile from private.profiles where id = caller and is_active;
  if not found then
    return jsonb_build_object('success', false, 'error', 'User not found');
  end if;

  select coalesce(jsonb_agg(jsonb_build_object(
           'id', o.id, 'slug', o.slug, 'name', o.name, 'role', m.role)
           order by m.created_at, o.name), '[]'::jsonb)
    into available
    from private.memberships m
    join private.organizations o on o.id = m.organization_id
   where m.user_id = caller and m.is_active and o.is_active;

  return jsonb_build_object(
    'success', true,
    'user', jsonb_build_object(
      'id', caller_profile.id,
      'email', caller_profile.email,
      'first_name', caller_profile.first_name,
      'last_name', caller_profile.last_name,
      'role', caller_profile.role),
    'organization', case when jsonb_array_length(available) > 0
                         then (available -> 0) - 'role' end,
    'organizations', available);
end;
$$;

revoke execute on function public.get_current_user_context() from public, anon, authenticated;
grant execute on function public.get_current_user_context() to authenticated;
