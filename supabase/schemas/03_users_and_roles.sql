-- People and what they may do: profiles, memberships, each organization's roles and
-- permission matrix, user administration (create, edit, lock, delete, reset), record
-- transfer between users, a user's own profile, and the member lists.

create table private.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null unique check (email = lower(btrim(email)) and email like '%_@_%'),
  first_name text not null default '' check (first_name = btrim(first_name)),
  last_name text not null default '' check (last_name = btrim(last_name)),
  -- The member's own phone (E.164, as private.normalize_phone gives it): the sender's phone in e-mails.
  phone text check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  -- Global role (spec section 6): super_admin works across organizations.
  role text not null default 'user' check (role in ('super_admin', 'admin', 'user')),
  is_active boolean not null default true,
  failed_login_attempts integer not null default 0 check (failed_login_attempts >= 0),
  last_failed_attempt timestamptz,
  locked_until timestamptz,
  locked_by_admin boolean not null default false,
  last_login_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- When the user first accepted the terms (accept_terms).
  terms_accepted_at timestamptz
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

alter table private.profiles enable row level security;

alter table private.memberships enable row level security;

-- ---------------------------------------------------------------------------------
-- Roles and permissions
-- ---------------------------------------------------------------------------------
create table private.organization_roles (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  key text not null check (key ~ '^[a-z][a-z0-9_]{0,39}$'),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  -- The admin role gives admin status (spec section 6) and cannot be removed.
  is_system boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, key)
);

comment on table private.organization_roles is 'Roles an organization gives its members: admin plus ordinary roles (user, manager, sales, viewer, ...).';

create table private.role_permissions (
  organization_id uuid not null,
  role_key text not null,
  -- A module and an action of the registry (foreign keys added in 07_module_engine.sql,
  -- after the registry's tables).
  module text not null,
  action text not null,
  -- own: only records the member owns; all: every record of the organization.
  scope text not null check (scope in ('own', 'all')),
  primary key (organization_id, role_key, module, action),
  foreign key (organization_id, role_key) references private.organization_roles (organization_id, key)
    on delete cascade on update cascade
);

comment on table private.role_permissions is 'Permission matrix: what each organization role may do in each module; a missing row means not allowed.';

alter table private.memberships
  add constraint memberships_role_fkey foreign key (organization_id, role)
  references private.organization_roles (organization_id, key) on update cascade;

create index memberships_organization_role_idx on private.memberships (organization_id, role);

/**
 * What each default role may do in every module: admin and manager
 * everything on all records; sales sees, creates, edits, deletes and exports only its
 * own records; user sees all records and creates, edits and deletes its own; viewer only
 * sees.
 */
create function private.default_role_grants()
returns table (role_key text, action text, scope text)
language sql
immutable
set search_path = ''
as $$
  values
    ('admin', 'view', 'all'), ('admin', 'create', 'all'), ('admin', 'edit', 'all'),
    ('admin', 'delete', 'all'), ('admin', 'export', 'all'), ('admin', 'import', 'all'),
    ('manager', 'view', 'all'), ('manager', 'create', 'all'), ('manager', 'edit', 'all'),
    ('manager', 'delete', 'all'), ('manager', 'export', 'all'), ('manager', 'import', 'all'),
    ('sales', 'view', 'own'), ('sales', 'create', 'own'), ('sales', 'edit', 'own'),
    ('sales', 'delete', 'own'), ('sales', 'export', 'own'),
    ('user', 'view', 'all'), ('user', 'create', 'own'), ('user', 'edit', 'own'),
    ('user', 'delete', 'own'),
    ('viewer', 'view', 'all');
$$;

/**
 * Gives an organization's default roles (those it still has) their default permissions
 * (private.default_role_grants) in one module, or in every registered module when p_module
 * is null, where the organization has no permission in that module yet: a module it
 * already has rows for keeps them as its admins left them, so a removed row never comes
 * back. New organizations get their matrix so; a module registered later reaches the
 * organizations that exist (private.register_module).
 */
create function private.grant_default_permissions(p_organization_id uuid, p_module text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select p_organization_id, grants.role_key, m.key, grants.action, grants.scope
    from private.modules m
   cross join private.default_role_grants() grants
    join private.organization_roles r on r.organization_id = p_organization_id and r.key = grants.role_key
   where (p_module is null or m.key = p_module)
     and not exists (select 1 from private.role_permissions rp
                      where rp.organization_id = p_organization_id and rp.module = m.key)
  on conflict do nothing;
end;
$$;

/**
 * Gives a new organization its default roles and their permission matrix over every
 * module of the registry. Admins edit both later; only the admin role is fixed.
 */
create function private.create_default_roles(p_organization_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.organization_roles (organization_id, key, name, is_system)
  values (p_organization_id, 'admin', 'Yönetici', true),
         (p_organization_id, 'manager', 'Satış Müdürü', false),
         (p_organization_id, 'sales', 'Satış Temsilcisi', false),
         (p_organization_id, 'user', 'Kullanıcı', false),
         (p_organization_id, 'viewer', 'İzleyici', false)
  on conflict do nothing;

  perform private.grant_default_permissions(p_organization_id, null);
end;
$$;

alter table private.organization_roles enable row level security;

alter table private.role_permissions enable row level security;

/**
 * Login-flow repair (spec section 7): when Auth refuses a password that
 * secure_login_prepare_auth accepted, completes the account's Auth user. Acts only for
 * the sign-in in progress that just proved this password; answers every other caller
 * with the same failure. Audited in the account's organizations.
 */
create function public.create_auth_user_admin(p_email text, p_password text, p_first_name text default null,
                                                         p_last_name text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_id uuid;
begin
  -- No throttle answer here: an unknown email or an account without a live proof costs
  -- no bcrypt, a proof at most one (a wrong call burns it); refusals count toward the
  -- address's failures, and an unknown email answers like a real one.
  account_id := private.account_to_repair(p_email, p_password);
  if account_id is null then
    return private.failure('Auth user creation failed', 'auth_user_creation_failed');
  end if;
  begin
    perform private.repair_auth_user(account_id, p_password);
    update auth.users
       set raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || jsonb_strip_nulls(jsonb_build_object(
             'first_name', nullif(btrim(p_first_name), ''), 'last_name', nullif(btrim(p_last_name), '')))
     where id = account_id;
  exception when others then
    return private.failure('Auth user creation error', 'auth_user_creation_error');
  end;
  perform private.write_user_audit(account_id, 'user.password_synced', '{"step": "create_auth_user"}', null);
  return jsonb_build_object('success', true, 'message', 'Auth user ready', 'user', private.user_json(account_id, true));
end;
$$;
revoke all on function public.create_auth_user_admin(p_email text, p_password text, p_first_name text, p_last_name text) from public, anon, authenticated;
grant execute on function public.create_auth_user_admin(p_email text, p_password text, p_first_name text, p_last_name text) to anon, authenticated;

/**
 * May the caller, as private.caller_context described them (p_caller: its organization_id
 * is the one the RPC acts in), administer this user there? Returns null when yes,
 * otherwise the failure to answer. A super admin may act on anyone; an admin only on
 * members of their session's organization who are not super admins. When an admin is
 * refused on an account that exists (a member of other organizations only, or a super
 * admin), the refusal goes to the audit log of each of the account's organizations; the
 * caller's answer stays the same.
 */
create function private.check_user_admin(p_caller private.caller_context, p_target uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_caller.user_id is null then
    return private.refusal('authentication_required');
  end if;
  if not (p_caller.is_super_admin or p_caller.is_admin) then
    return private.refusal('admin_required');
  end if;
  if not exists (select 1 from private.profiles p where p.id = p_target) then
    return private.failure('User not found', 'user_not_found');
  end if;
  if p_caller.is_super_admin then
    return null;
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = p_target and m.organization_id = p_caller.organization_id) then
    perform private.record_refused_access(p_target, 'user_not_found', p_caller.organization_id);
    return private.failure('User not found', 'user_not_found');
  end if;
  if exists (select 1 from private.profiles p where p.id = p_target and p.role = 'super_admin') then
    perform private.record_refused_access(p_target, 'super_admin_required', p_caller.organization_id);
    return private.refusal('super_admin_required');
  end if;
  return null;
end;
$$;

/** A new password (create, reset, change): the length rules and not a common password. */
create function private.check_password(p_password text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(private.check_password_length(p_password),
                    case when private.is_common_password(p_password)
                         then private.failure('Bu şifre çok yaygın; daha güçlü bir şifre seçin', 'password_common') end));
end;
$$;

/** Names are trimmed and at most 100 characters; null when fine. */
create function private.check_names(p_first_name text, p_last_name text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when char_length(btrim(coalesce(p_first_name, ''))) > 100 or char_length(btrim(coalesce(p_last_name, ''))) > 100
      then private.failure('Ad ve soyad en fazla 100 karakter olabilir', 'name_too_long')
  end;
$$;

/**
 * The transfer kinds of spec section 3 and the tenant tables each one moves, in the
 * registry's order: each module's table under its transfer kind, then its further
 * transfer tables (a quote's items), and last the document templates, a kind of their own
 * that belongs to no module. The first table of a kind (is_primary) is the one its count
 * refers to; is_default marks the kinds a transfer moves when none are named (the
 * transfer_default of the module the kind is named after).
 */
create function private.transfer_kinds()
returns table (kind text, table_name text, is_primary boolean, is_default boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  return query
    select kinds.kind, kinds.table_name, kinds.is_primary, kinds.is_default
      from (select m.position, 0 as part, m.transfer_kind as kind, m.table_name, m.key = m.transfer_kind as is_primary,
                   named.transfer_default as is_default
              from private.modules m join private.modules named on named.key = m.transfer_kind
            union all
            select m.position, extra.part, m.transfer_kind, extra.table_name, false, named.transfer_default
              from private.modules m
              join private.modules named on named.key = m.transfer_kind
             cross join unnest(m.transfer_tables) with ordinality extra (table_name, part)
            union all
            select null, 0, 'templates', 'document_templates', true, false) kinds
     order by kinds.position nulls last, kinds.part;
end;
$$;

/**
 * How many rows the user owns in each table a transfer can move (documents and notes
 * stay with their author and do not hold a deletion back).
 */
create function private.owned_record_counts(p_schema text, p_user_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  table_name text;
  row_count bigint;
  counts jsonb := '{}';
begin
  if p_schema is null then
    return counts;
  end if;
  for table_name in
    select k.table_name from private.transfer_kinds() k
     where exists (select 1 from pg_catalog.pg_class c
                    where c.relnamespace = p_schema::regnamespace and c.relname = k.table_name and c.relkind = 'r')
     order by k.table_name
  loop
    execute format('select count(*) from %I.%I where owner_id = $1', p_schema, table_name) into row_count using p_user_id;
    counts := counts || jsonb_build_object(table_name, row_count);
  end loop;
  return counts;
end;
$$;

/** Spec section 5: creates a user with an Auth account and a membership in the named organization. */
create function private.create_user_secure(p_email text, p_password text, p_organization_id uuid,
                                                     p_first_name text default null, p_last_name text default null,
                                                     p_role text default 'user')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context();
  caller_is_super boolean := caller.is_super_admin;
  login_email text := private.normalize_email(p_email);
  organization_role text := coalesce(nullif(btrim(p_role), ''), 'user');
  new_id uuid := gen_random_uuid();
  problem jsonb;
begin
  -- Spec section 5 answers in Turkish; anyone but an admin of the session's organization
  -- (or a super admin) gets the same refusal, signed in or not.
  if not (caller_is_super or caller.is_admin) then
    return private.refusal('admin_required', 'tr');
  end if;
  if not private.is_valid_email(login_email) then
    return private.failure('Geçerli bir email adresi girin', 'invalid_email');
  end if;
  problem := private.check_password(p_password);
  if problem is not null then
    return problem;
  end if;
  if p_organization_id is null
     or not exists (select 1 from private.organizations o where o.id = p_organization_id and o.is_active) then
    return private.refusal('organization_required', 'tr');
  end if;
  if not caller_is_super and p_organization_id is distinct from caller.organization_id then
    return private.refusal('admin_required', 'tr');
  end if;
  problem := private.check_names(p_first_name, p_last_name);
  if problem is not null then
    return problem;
  end if;
  if organization_role = 'super_admin' and not caller_is_super then
    return private.refusal('super_admin_required', 'tr');
  end if;
  if organization_role <> 'super_admin' and not exists (
       select 1 from private.organization_roles r where r.organization_id = p_organization_id
                                                    and r.key = organization_role) then
    return private.failure('Geçersiz rol', 'invalid_role');
  end if;
  if exists (select 1 from private.profiles p where p.email = login_email)
     or exists (select 1 from auth.users u where lower(u.email) = login_email) then
    return private.failure('Bu email adresi zaten kullanımda', 'email_in_use');
  end if;

  begin
    insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                            confirmation_token, recovery_token, email_change_token_new, email_change,
                            raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
    values (new_id, 'authenticated', 'authenticated', login_email,
            extensions.crypt(p_password, extensions.gen_salt('bf', 10)), now(), '', '', '', '',
            '{"provider":"email","providers":["email"]}',
            jsonb_build_object('first_name', btrim(coalesce(p_first_name, '')), 'last_name', btrim(coalesce(p_last_name, ''))),
            now(), now());
    insert into auth.identities (id, provider, provider_id, user_id, identity_data, created_at, updated_at)
    values (gen_random_uuid(), 'email', new_id::text, new_id,
            jsonb_build_object('sub', new_id::text, 'email', login_email, 'email_verified', true), now(), now());
    insert into private.profiles (id, email, first_name, last_name, role)
    values (new_id, login_email, btrim(coalesce(p_first_name, '')), btrim(coalesce(p_last_name, '')),
            case when organization_role = 'super_admin' then 'super_admin' else 'user' end);
    insert into private.memberships (user_id, organization_id, role)
    values (new_id, p_organization_id, case when organization_role = 'super_admin' then 'admin' else organization_role end);
  exception when unique_violation then
    return private.failure('Bu email adresi zaten kullanımda', 'email_in_use');
  end;

  perform private.write_audit(p_organization_id, 'user.created', 'user', new_id::text,
                              jsonb_build_object('email', login_email, 'role', organization_role));
  return jsonb_build_object('success', true, 'message', 'Kullanıcı oluşturuldu', 'user', private.user_json(new_id));
end;
$$;

/**
 * Updates a user: first_name, last_name, email, role (organization role) and is_active
 * (membership in the organization). Names, email and a change of the global role act on
 * the account as a whole (private.check_account_admin); role and status of the
 * membership are the organization admin's. Old and new values go to the audit log of
 * every organization the user belongs to.
 */
create function private.update_user_secure(p_user_id uuid, p_user_data jsonb, p_organization_slug text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context(p_organization_slug => p_organization_slug);
  caller uuid := context.user_id;
  caller_is_super boolean := context.is_super_admin;
  target_org uuid := context.organization_id;
  target private.profiles;
  membership private.memberships;
  unknown_field text;
  new_email text;
  new_role text := nullif(btrim(p_user_data ->> 'role'), '');
  new_global_role text;
  changes jsonb := '{}';
  problem jsonb;
begin
  problem := private.check_user_admin(context, p_user_id);
  if problem is not null then
    return problem;
  end if;
  if jsonb_typeof(p_user_data) is distinct from 'object' then
    return private.failure('User update failed', 'invalid_input');
  end if;
  select key into unknown_field from jsonb_object_keys(p_user_data) as keys (key)
   where key not in ('first_name', 'last_name', 'email', 'role', 'is_active') limit 1;
  if unknown_field is not null then
    return private.failure(format('User update failed: unknown field %s', left(unknown_field, 40)), 'invalid_input');
  end if;
  select * into target from private.profiles where id = p_user_id for update;
  select * into membership from private.memberships m where m.user_id = p_user_id and m.organization_id = target_org;

  if p_user_id = caller and (p_user_data ? 'role' or p_user_data ? 'is_active') then
    return private.failure('Kendi rolünüzü veya durumunuzu değiştiremezsiniz', 'self_action');
  end if;
  -- Global role: super_admin only by a super admin; a global admin given an ordinary
  -- role loses the global admin status with it.
  new_global_role := case when new_role = 'super_admin' then 'super_admin'
                          when new_role is not null and new_role <> 'admin' and target.role in ('admin', 'super_admin') then 'user'
                          else target.role end;
  if (p_user_data ? 'first_name' or p_user_data ? 'last_name' or p_user_data ? 'email'
      or new_global_role is distinct from target.role) and not caller_is_super then
    problem := private.check_account_admin(p_user_id);
    if problem is not null then
      return problem;
    end if;
  end if;
  problem := private.check_names(p_user_data ->> 'first_name', p_user_data ->> 'last_name');
  if problem is not null then
    return problem;
  end if;
  if p_user_data ? 'email' then
    new_email := private.normalize_email(p_user_data ->> 'email');
    if not private.is_valid_email(new_email) then
      return private.failure('Geçerli bir email adresi girin', 'invalid_email');
    end if;
    if new_email <> target.email and (
         exists (select 1 from private.profiles p where p.email = new_email)
         or exists (select 1 from auth.users u where lower(u.email) = new_email)) then
      return private.failure('Bu email adresi zaten kullanımda', 'email_in_use');
    end if;
  end if;
  if p_user_data ? 'is_active' and jsonb_typeof(p_user_data -> 'is_active') <> 'boolean' then
    return private.failure('User update failed', 'invalid_input');
  end if;
  if new_role is not null then
    if (new_role = 'super_admin' or target.role = 'super_admin') and not caller_is_super then
      return private.refusal('super_admin_required');
    end if;
    if new_role <> 'super_admin' and not exists (
         select 1 from private.organization_roles r where r.organization_id = target_org and r.key = new_role) then
      return private.failure('Geçersiz rol', 'invalid_role');
    end if;
  end if;
  if (new_role is not null or p_user_data ? 'is_active') then
    if target_org is null then
      return private.refusal('organization_required');
    end if;
    if membership.user_id is null then
      return private.failure('User not found', 'user_not_found');
    end if;
  end if;

  -- What changes, old and new (for the audit log).
  changes := jsonb_strip_nulls(jsonb_build_object(
    'first_name', case when btrim(p_user_data ->> 'first_name') is distinct from target.first_name and p_user_data ? 'first_name'
                       then jsonb_build_object('old', target.first_name, 'new', btrim(p_user_data ->> 'first_name')) end,
    'last_name', case when btrim(p_user_data ->> 'last_name') is distinct from target.last_name and p_user_data ? 'last_name'
                      then jsonb_build_object('old', target.last_name, 'new', btrim(p_user_data ->> 'last_name')) end,
    'email', case when new_email is distinct from target.email and new_email is not null
                  then jsonb_build_object('old', target.email, 'new', new_email) end,
    'role', case when new_role is not null
                      and (case when new_role = 'super_admin' then 'admin' else new_role end) is distinct from membership.role
                 then jsonb_build_object('old', membership.role, 'new', case when new_role = 'super_admin' then 'admin' else new_role end) end,
    'global_role', case when new_global_role is distinct from target.role
                        then jsonb_build_object('old', target.role, 'new', new_global_role) end,
    'is_active', case when p_user_data ? 'is_active' and (p_user_data ->> 'is_active')::boolean is distinct from membership.is_active
                      then jsonb_build_object('old', membership.is_active, 'new', (p_user_data ->> 'is_active')::boolean) end));

  begin
    update private.profiles
       set first_name = coalesce(btrim(p_user_data ->> 'first_name'), first_name),
           last_name = coalesce(btrim(p_user_data ->> 'last_name'), last_name),
           email = coalesce(new_email, email),
           role = new_global_role,
           updated_at = now()
     where id = p_user_id;
    if new_email is not null and new_email <> target.email then
      update auth.users set email = new_email, updated_at = now() where id = p_user_id;
      update auth.identities
         set identity_data = identity_data || jsonb_build_object('email', new_email), updated_at = now()
       where user_id = p_user_id and provider = 'email';
    end if;
    if target_org is not null and (new_role is not null or p_user_data ? 'is_active') then
      update private.memberships
         set role = case when new_role = 'super_admin' then 'admin' else coalesce(new_role, role) end,
             is_active = coalesce((p_user_data ->> 'is_active')::boolean, is_active)
       where user_id = p_user_id and memberships.organization_id = target_org;
    end if;
    -- A deactivated member stops working in the organization at once.
    if (p_user_data ->> 'is_active')::boolean is false then
      delete from private.session_organizations s
       where s.user_id = p_user_id and s.organization_id = target_org;
    end if;
  exception when others then
    return private.failure('User update failed', 'update_failed');
  end;

  perform private.write_user_audit(p_user_id, 'user.updated',
    jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p_user_data) k), 'changes', changes),
    target_org);
  return jsonb_build_object('success', true, 'message', 'Kullanıcı güncellendi', 'user', private.user_json(p_user_id));
end;
$$;

/**
 * Spec section 5: deletes a user. Nobody deletes themselves; only a super admin deletes
 * a super admin; an admin only members of their own organization. Someone who still
 * owns records must have them transferred first; someone who also belongs to another
 * organization is only removed from this one. Deleting the account itself is recorded
 * in the log of every organization it belonged to.
 */
create function private.delete_user_secure(p_user_id uuid, p_organization_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context(p_organization_id => p_organization_id);
  caller uuid := context.user_id;
  -- A super admin removes from the organization named, or deletes the whole account when
  -- none is named; an admin always acts in their session's organization (naming another: null).
  target_org uuid := case when context.is_super_admin then p_organization_id else context.organization_id end;
  member_of uuid;
  counts jsonb;
  problem jsonb;
begin
  if caller is not null and p_user_id = caller then
    return private.failure('Kendi hesabınızı silemezsiniz', 'self_delete');
  end if;
  if caller is not null and not context.is_super_admin
     and exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin') then
    return private.failure('Only a super admin can delete a super admin', 'super_admin_required');
  end if;
  problem := private.check_user_admin(context, p_user_id);
  if problem is not null then
    return problem;
  end if;
  if target_org is not null
     and not exists (select 1 from private.memberships m where m.user_id = p_user_id and m.organization_id = target_org) then
    return private.failure('User not found', 'user_not_found');
  end if;

  -- Every organization whose records the deletion would leave without an owner.
  for member_of in
    select m.organization_id from private.memberships m
     where m.user_id = p_user_id and (target_org is null or m.organization_id = target_org)
  loop
    counts := private.owned_record_counts(private.tenant_schema(member_of), p_user_id);
    if exists (select 1 from jsonb_each_text(counts) c where c.value::bigint > 0) then
      return private.failure('Kullanıcının kayıtları var; önce kayıtlarını başka bir kullanıcıya aktarın',
                             'has_records', jsonb_build_object('records', counts));
    end if;
  end loop;

  if target_org is not null and exists (
       select 1 from private.memberships m where m.user_id = p_user_id and m.organization_id <> target_org) then
    perform private.write_user_audit(p_user_id, 'user.removed', '{}', target_org);
    delete from private.memberships m where m.user_id = p_user_id and m.organization_id = target_org;
    delete from private.session_organizations s where s.user_id = p_user_id and s.organization_id = target_org;
    return jsonb_build_object('success', true, 'message', 'Kullanıcı şirketten çıkarıldı');
  end if;

  problem := private.check_account_admin(p_user_id);
  if problem is not null then
    return problem;
  end if;
  perform private.write_user_audit(p_user_id, 'user.deleted',
    jsonb_build_object('email', (select p.email from private.profiles p where p.id = p_user_id)), target_org);
  delete from auth.users where id = p_user_id;
  return jsonb_build_object('success', true, 'message', 'Kullanıcı silindi');
end;
$$;

/** An admin sets a user's password (the account as a whole); the user's sessions end. */
create function private.simple_reset_password(p_user_id uuid, p_new_password text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem jsonb;
begin
  if p_user_id = auth.uid() then
    return private.failure('Password reset error: change your own password on your profile', 'self_action');
  end if;
  problem := coalesce(private.check_account_admin(p_user_id), private.check_password(p_new_password));
  if problem is not null then
    return problem;
  end if;
  begin
    perform private.repair_auth_user(p_user_id, p_new_password);
    perform private.end_sessions(p_user_id);
  exception when others then
    return private.failure('Password reset error', 'password_reset_failed');
  end;
  perform private.write_user_audit(p_user_id, 'user.password_reset');
  return jsonb_build_object('success', true, 'message', 'Şifre sıfırlandı');
end;
$$;

/** An administrator's lock of the account: one year (locked_by_admin); the user's sessions end now. */
create function private.lock_user_secure(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem jsonb;
begin
  if p_user_id = auth.uid() then
    return private.failure('Kendi hesabınızı kilitleyemezsiniz', 'self_action');
  end if;
  problem := private.check_account_admin(p_user_id);
  if problem is not null then
    return problem;
  end if;
  update private.profiles
     set locked_by_admin = true, locked_until = now() + interval '365 days', updated_at = now()
   where id = p_user_id;
  perform private.end_sessions(p_user_id);
  perform private.write_user_audit(p_user_id, 'user.locked');
  return jsonb_build_object('success', true, 'message', 'Kullanıcı kilitlendi', 'user', private.user_json(p_user_id));
end;
$$;

/** Ends any lock of the account, temporary or an administrator's, and clears the failure count. */
create function private.unlock_user_secure(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  problem jsonb := private.check_account_admin(p_user_id);
begin
  if problem is not null then
    return problem;
  end if;
  update private.profiles
     set locked_by_admin = false, locked_until = null, failed_login_attempts = 0, updated_at = now()
   where id = p_user_id;
  delete from private.login_throttles t where t.email = (select p.email from private.profiles p where p.id = p_user_id);
  perform private.write_user_audit(p_user_id, 'user.unlocked');
  return jsonb_build_object('success', true, 'message', 'Kullanıcının kilidi açıldı', 'user', private.user_json(p_user_id));
end;
$$;

/** What a member owns of each transfer kind, plus the detail per table. */
create function private.analyze_user_records(target_user_id uuid, organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  access record := private.admin_tenant_schema(organization_slug);
  per_table jsonb;
begin
  if access.problem is not null then
    return access.problem;
  end if;
  if not exists (select 1 from private.memberships m
                  where m.user_id = target_user_id and m.organization_id = access.organization_id) then
    return private.failure('User not found', 'user_not_found');
  end if;
  begin
    per_table := private.owned_record_counts(access.schema_name, target_user_id);
  exception when others then
    return private.failure('Analysis error', 'analysis_failed');
  end;
  return jsonb_build_object('success', true, 'user_id', target_user_id,
    'counts', (select jsonb_object_agg(k.kind, coalesce((per_table ->> k.table_name)::bigint, 0))
                 from private.transfer_kinds() k where k.is_primary),
    'tables', per_table,
    'total', (select coalesce(sum(value::bigint), 0) from jsonb_each_text(per_table)));
end;
$$;

/** Active members who can receive records, without the one giving them. */
create function private.get_users_for_transfer(organization_slug text default null, exclude_user_id uuid default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => organization_slug);
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'users', (
    select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'email', p.email, 'first_name', p.first_name,
                                                 'last_name', p.last_name, 'role', m.role)
                              order by private.turkish_sort_key(p.first_name || ' ' || p.last_name) collate "C", p.email), '[]')
      from private.memberships m
      join private.profiles p on p.id = m.user_id
     where m.organization_id = caller.organization_id
       and m.is_active and private.is_account_usable(p.id)
       and p.id is distinct from exclude_user_id));
end;
$$;

/**
 * Moves the chosen kinds of records (private.transfer_kinds) from one member to another,
 * all or nothing. Without kinds, the kinds whose default is on (spec section 9: deals,
 * customers and tasks; contracts, quotes and templates off); an unknown kind is refused
 * (invalid_transfer_kind). Tasks keep their reminder and due times, so what is still to be
 * announced goes to the new owner. The new owner gets no notification per record
 * (crm.quiet_assignments): the transfer is one audited admin action.
 */
create function private.transfer_user_records(
  from_user_id uuid, to_user_id uuid, organization_slug text default null, kinds text[] default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  access record := private.admin_tenant_schema(organization_slug);
  target_org uuid;
  schema_name text;
  chosen text[];
  kind_table record;
  moved bigint;
  transferred jsonb := '{}';
begin
  if access.problem is not null then
    return access.problem;
  end if;
  target_org := access.organization_id;
  schema_name := access.schema_name;
  if from_user_id is null or to_user_id is null or from_user_id = to_user_id then
    return private.failure('Transfer error: choose two different users', 'invalid_users');
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = from_user_id and m.organization_id = target_org)
     or not exists (select 1 from private.memberships m
                     where m.user_id = to_user_id and m.organization_id = target_org and m.is_active)
     or not private.is_account_usable(to_user_id) then
    return private.failure('User not found', 'user_not_found');
  end if;

  if exists (select 1 from unnest(kinds) named
              where not exists (select 1 from private.transfer_kinds() k where k.kind = named)) then
    return private.failure('Unknown transfer kind', 'invalid_transfer_kind');
  end if;
  chosen := array(select k.kind from private.transfer_kinds() k
                   where k.is_primary and case when kinds is null then k.is_default else k.kind = any (kinds) end);

  begin
    perform pg_catalog.set_config('crm.quiet_assignments', 'on', true);
    for kind_table in select * from private.transfer_kinds() k where k.kind = any (chosen) loop
      execute format('update %I.%I set owner_id = $1 where owner_id = $2', schema_name, kind_table.table_name)
        using to_user_id, from_user_id;
      get diagnostics moved = row_count;
      if kind_table.is_primary then
        transferred := transferred || jsonb_build_object(kind_table.kind, moved);
      end if;
    end loop;
    perform pg_catalog.set_config('crm.quiet_assignments', 'off', true);
  exception when others then
    -- The block's changes are rolled back: nothing moved.
    perform pg_catalog.set_config('crm.quiet_assignments', 'off', true);
    return private.failure('Transfer error', 'transfer_failed');
  end;

  perform private.write_audit(target_org, 'user.records_transferred', 'user', from_user_id::text,
                              jsonb_build_object('to_user_id', to_user_id, 'transferred', transferred));
  return jsonb_build_object('success', true, 'message', 'Kayıtlar aktarıldı', 'kinds', to_jsonb(chosen),
                            'transferred', transferred);
end;
$$;

-- What a signed-in user does for themselves (spec sections 3 and 7): accept the terms
-- (kept in the browser per email, and recorded here), edit their own name, and obtain
-- the request-forgery token that privileged Edge Function calls carry.
/** Records that the caller accepted the terms (the first time only). */
create function public.accept_terms()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('usable');
  caller uuid := context.user_id;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  update private.profiles set terms_accepted_at = coalesce(terms_accepted_at, now()) where id = caller;
  return jsonb_build_object('success', true, 'user', private.user_json(caller));
end;
$$;
revoke all on function public.accept_terms() from public, anon, authenticated;
grant execute on function public.accept_terms() to authenticated;

/**
 * The caller changes their own first and last name (trimmed, at most 100 characters) and,
 * when p_phone is given, their phone ('' clears it; else kept in E.164 as
 * private.normalize_phone gives it, invalid_phone when it is not a phone number).
 */
create function public.update_my_profile(p_first_name text, p_last_name text, p_phone text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('usable');
  caller uuid := context.user_id;
  problem jsonb := private.check_names(p_first_name, p_last_name);
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if problem is not null then
    return problem;
  end if;
  if char_length(btrim(coalesce(p_first_name, ''))) = 0 then
    return private.failure('Ad gerekli', 'first_name_required');
  end if;
  if btrim(p_phone) <> '' and private.normalize_phone(p_phone) is null then
    return private.failure('Geçerli bir telefon numarası girin', 'invalid_phone');
  end if;
  update private.profiles
     set first_name = btrim(p_first_name), last_name = btrim(coalesce(p_last_name, '')),
         phone = case when p_phone is null then phone else private.normalize_phone(nullif(btrim(p_phone), '')) end,
         updated_at = now()
   where id = caller;
  update auth.users
     set raw_user_meta_data = coalesce(raw_user_meta_data, '{}')
           || jsonb_build_object('first_name', btrim(p_first_name), 'last_name', btrim(coalesce(p_last_name, '')))
   where id = caller;
  return jsonb_build_object('success', true, 'message', 'Profil güncellendi', 'user', private.user_json(caller));
end;
$$;
revoke all on function public.update_my_profile(p_first_name text, p_last_name text, p_phone text) from public, anon, authenticated;
grant execute on function public.update_my_profile(p_first_name text, p_last_name text, p_phone text) to authenticated;

/**
 * The members of the caller's organization (an admin's session organization; a super admin
 * may name one by slug), searched by name or email, filtered by organization role and by
 * status (active, inactive, locked), sorted, one page at a time.
 */
create function public.get_organization_users(
  p_search text default null, p_role text default null, p_status text default null,
  p_sort text default 'name', p_descending boolean default false,
  p_limit integer default 25, p_offset integer default 0, p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
  target_org uuid := caller.organization_id;
  sort_key text := coalesce(p_sort, 'name');
  descending boolean := coalesce(p_descending, false);
  status_filter text := coalesce(p_status, 'all');
  -- LIKE's wildcards in the search are meant literally.
  pattern text := '%' || replace(replace(replace(private.fold_search(btrim(coalesce(p_search, ''))), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if status_filter not in ('all', 'active', 'inactive', 'locked')
     or sort_key not in ('name', 'email', 'role', 'last_login_at', 'created_at') then
    return private.failure('Failed to fetch users', 'invalid_input');
  end if;

  return (
    with matching as (
      select p.*, m.role as organization_role, m.is_active as membership_active,
             coalesce(p.locked_until > now(), false) as locked
        from private.memberships m
        join private.profiles p on p.id = m.user_id
       where m.organization_id = target_org
         and (p_role is null or m.role = p_role)
         and (private.fold_search(p.email) like pattern
              or private.fold_search(p.first_name || ' ' || p.last_name) like pattern)
         and case status_filter
               when 'active' then m.is_active and p.is_active and not coalesce(p.locked_until > now(), false)
               when 'inactive' then not (m.is_active and p.is_active)
               when 'locked' then coalesce(p.locked_until > now(), false)
               else true end
    ),
    page as (
      select matching.*,
             row_number() over (order by
               case when not descending then case sort_key when 'email' then matching.email when 'role' then matching.organization_role
                 when 'name' then private.turkish_sort_key(matching.first_name || ' ' || matching.last_name) collate "C" end end asc,
               case when descending then case sort_key when 'email' then matching.email when 'role' then matching.organization_role
                 when 'name' then private.turkish_sort_key(matching.first_name || ' ' || matching.last_name) collate "C" end end desc,
               case when not descending then case sort_key when 'last_login_at' then matching.last_login_at
                 when 'created_at' then matching.created_at end end asc nulls last,
               case when descending then case sort_key when 'last_login_at' then matching.last_login_at
                 when 'created_at' then matching.created_at end end desc nulls last,
               matching.email) as position
        from matching
    )
    select jsonb_build_object(
      'success', true,
      'total', (select count(*) from matching),
      'users', coalesce((
        select jsonb_agg(private.user_json(page.id) || jsonb_build_object(
                 'organization_role', page.organization_role,
                 'membership_active', page.membership_active,
                 'locked', page.locked) order by page.position)
          from page
         where page.position > greatest(coalesce(p_offset, 0), 0)
           and page.position <= greatest(coalesce(p_offset, 0), 0) + page_size), '[]')));
end;
$$;
revoke all on function public.get_organization_users(p_search text, p_role text, p_status text, p_sort text, p_descending boolean, p_limit integer, p_offset integer, p_organization_slug text) from public, anon, authenticated;
grant execute on function public.get_organization_users(p_search text, p_role text, p_status text, p_sort text, p_descending boolean, p_limit integer, p_offset integer, p_organization_slug text) to authenticated;

/** The permission matrix of one role as {module: {action: scope}}. */
create function private.role_permissions_json(p_organization_id uuid, p_role text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_object_agg(per_module.module, per_module.actions), '{}')
      from (select rp.module, jsonb_object_agg(rp.action, rp.scope) as actions
              from private.role_permissions rp
             where rp.organization_id = p_organization_id and rp.role_key = p_role
             group by rp.module) per_module);
end;
$$;

/** The roles of the caller's organization with their matrices and member counts (members may read). */
create function public.get_roles()
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
revoke all on function public.get_roles() from public, anon, authenticated;
grant execute on function public.get_roles() to authenticated;

/**
 * An admin saves a role (not the admin role) with its matrix; every entry names a registered
 * module and action. The audit entry has the name and matrix saved and, under "old", the
 * role's name and matrix before (null for a new role).
 */
create function public.save_role(p_key text, p_name text, p_permissions jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  clean_name text := btrim(p_name);
  bad_entry text;
  before_role jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
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

  select jsonb_build_object('name', r.name, 'permissions', private.role_permissions_json(target_org, r.key)) into before_role
    from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  insert into private.organization_roles (organization_id, key, name)
  values (target_org, p_key, clean_name)
  on conflict (organization_id, key) do update set name = excluded.name, updated_at = now();
  delete from private.role_permissions where organization_id = target_org and role_key = p_key;
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select target_org, p_key, modules.key, actions.key, actions.value #>> '{}'
    from jsonb_each(p_permissions) modules, jsonb_each(modules.value) actions;

  perform private.write_audit(target_org, 'role.saved', 'role', p_key,
                              jsonb_build_object('name', clean_name, 'permissions', private.role_permissions_json(target_org, p_key),
                                                 'old', before_role));
  return jsonb_build_object('success', true, 'role', jsonb_build_object(
    'key', p_key, 'name', clean_name, 'is_system', false,
    'permissions', private.role_permissions_json(target_org, p_key)));
end;
$$;
revoke all on function public.save_role(p_key text, p_name text, p_permissions jsonb) from public, anon, authenticated;
grant execute on function public.save_role(p_key text, p_name text, p_permissions jsonb) to authenticated;

/** Admin: removes a role nobody holds; admin and user (the default) stay. The audit entry keeps the role's name and matrix. */
create function public.delete_role(p_key text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  holders bigint;
  before_role jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if p_key in ('admin', 'user') then
    return private.failure('This role cannot be removed', 'system_role');
  end if;
  if not exists (select 1 from private.organization_roles r where r.organization_id = target_org and r.key = p_key) then
    return private.failure('Role not found', 'role_not_found');
  end if;
  select count(*) into holders from private.memberships m where m.organization_id = target_org and m.role = p_key;
  if holders > 0 then
    return private.failure('The role still has members', 'role_in_use', jsonb_build_object('member_count', holders));
  end if;
  select jsonb_build_object('name', r.name, 'permissions', private.role_permissions_json(target_org, r.key)) into before_role
    from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  delete from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  perform private.write_audit(target_org, 'role.deleted', 'role', p_key, jsonb_build_object('old', before_role));
  return jsonb_build_object('success', true);
end;
$$;
revoke all on function public.delete_role(p_key text) from public, anon, authenticated;
grant execute on function public.delete_role(p_key text) to authenticated;

/** The caller's permission matrix in their session's organization: {module: {action: scope}}. */
create function public.get_my_permissions()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
  caller_is_admin boolean := caller.is_admin;
  permissions jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;

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
revoke all on function public.get_my_permissions() from public, anon, authenticated;
grant execute on function public.get_my_permissions() to authenticated;

/**
 * May the caller act on this account as a whole: its password, global lock and unlock,
 * global role, names and email, deleting it? Null when yes, otherwise the failure to
 * answer. A super admin may; an admin of the session's organization only when every
 * membership of the account, active or suspended, is in that organization (a suspended
 * membership elsewhere still belongs to that organization: reinstated, it would sign in
 * with what this admin set). A refusal for a shared account is audited in each of its
 * organizations. Organization-scoped actions (membership role and status) need only
 * private.check_user_admin.
 */
create function private.check_account_admin(p_target uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context();
  problem jsonb := private.check_user_admin(caller, p_target);
begin
  if problem is not null or caller.is_super_admin then
    return problem;
  end if;
  if exists (select 1 from private.memberships m
              where m.user_id = p_target and m.organization_id <> caller.organization_id) then
    perform private.record_refused_access(p_target, 'shared_account', caller.organization_id);
    return private.refusal('shared_account');
  end if;
  return null;
end;
$$;

create function private.user_json(p_user_id uuid, p_all_memberships boolean default false)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select jsonb_build_object(
      'id', p.id, 'email', p.email, 'first_name', p.first_name, 'last_name', p.last_name, 'phone', p.phone,
      'role', p.role, 'is_active', p.is_active, 'created_at', p.created_at,
      'last_login_at', p.last_login_at, 'terms_accepted_at', p.terms_accepted_at,
      'failed_login_attempts', p.failed_login_attempts, 'last_failed_attempt', p.last_failed_attempt,
      'locked_until', p.locked_until, 'locked_by_admin', p.locked_by_admin,
      'organization_role', coalesce((
        select jsonb_object_agg(m.organization_id, m.role)
          from private.memberships m
         where m.user_id = p.id and m.is_active
           and (p_all_memberships or p.id = auth.uid() or private.is_super_admin(auth.uid())
                or m.organization_id = private.current_organization_id())), '{}'::jsonb))
      from private.profiles p
     where p.id = p_user_id);
end;
$$;

/**
 * The active, usable members of the caller's bound organization: id, names, email and
 * membership role, by name. Any active member may read it; another organization's
 * members are never listed.
 */
create function public.list_organization_members()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  organization uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'members', (
    select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'email', p.email, 'first_name', p.first_name,
                                                 'last_name', p.last_name, 'role', m.role)
                              order by private.turkish_sort_key(p.first_name || ' ' || p.last_name) collate "C", p.email), '[]')
      from private.memberships m
      join private.profiles p on p.id = m.user_id
     where m.organization_id = organization and m.is_active and private.is_account_usable(p.id)));
end;
$$;
revoke all on function public.list_organization_members() from public, anon, authenticated;
grant execute on function public.list_organization_members() to authenticated;

/** A profile's display name, or null. */
create function private.profile_name(p_user uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') from private.profiles p where p.id = p_user);
end;
$$;
