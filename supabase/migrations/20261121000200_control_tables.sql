-- The rest of the control data: organization roles and their permissions, settings,
-- login attempts, the audit log, the session-to-organization binding and short-lived
-- login proofs; plus the small helpers every RPC uses to find out who is calling.
-- Everything stays in the private schema (DESIGN.md D4); the API roles reach it only
-- through the public RPCs of the later migrations.

/** Spec section 5: a simple address pattern (something@something.something, no spaces). */
create function private.is_valid_email(p_email text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_email is not null
     and char_length(p_email) <= 254
     and p_email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$';
$$;

/** Emails are compared and stored lowercased and trimmed (spec section 5). */
create function private.normalize_email(p_email text)
returns text
language sql
immutable
set search_path = ''
as $$
  select nullif(lower(btrim(p_email)), '');
$$;

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
  module text not null check (module in ('customers', 'contacts', 'deals', 'quotes', 'contracts', 'documents', 'tasks')),
  action text not null check (action in ('view', 'create', 'edit', 'delete', 'export', 'import')),
  -- own: only records the member owns; all: every record of the organization.
  scope text not null check (scope in ('own', 'all')),
  primary key (organization_id, role_key, module, action),
  foreign key (organization_id, role_key) references private.organization_roles (organization_id, key)
    on delete cascade on update cascade
);
comment on table private.role_permissions is 'Permission matrix: what each organization role may do in each module; a missing row means not allowed.';

-- Existing memberships get their organization's roles before the foreign key below.
insert into private.organization_roles (organization_id, key, name, is_system)
select distinct m.organization_id, m.role, initcap(m.role), m.role = 'admin'
  from private.memberships m
on conflict do nothing;

alter table private.memberships
  add constraint memberships_role_fkey foreign key (organization_id, role)
  references private.organization_roles (organization_id, key) on update cascade;
create index memberships_organization_role_idx on private.memberships (organization_id, role);

/**
 * Gives a new organization its default roles and permission matrix. Admins edit both
 * later; only the admin role is fixed.
 */
create function private.create_default_roles(p_organization_id uuid)
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
  select p_organization_id, grants.role_key, modules.module, grants.action, grants.scope
    from unnest(array['customers', 'contacts', 'deals', 'quotes', 'contracts', 'documents', 'tasks']) as modules (module)
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

-- ---------------------------------------------------------------------------------
-- Settings
-- ---------------------------------------------------------------------------------

create table private.organization_settings (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  logo_path text check (char_length(logo_path) <= 500),
  default_currency text not null default 'TRY' check (default_currency ~ '^[A-Z]{3}$'),
  -- KDV (Turkish VAT) in percent.
  default_vat_rate numeric(5, 2) not null default 20 check (default_vat_rate between 0 and 100),
  locale text not null default 'tr-TR' check (locale in ('tr-TR', 'en-US')),
  time_zone text not null default 'Europe/Istanbul' check (char_length(time_zone) between 1 and 64),
  -- Deal pipeline: [{key, name, probability, outcome: open|won|lost}] in order.
  deal_stages jsonb not null default '[
    {"key": "lead", "name": "Aday", "probability": 10, "outcome": "open"},
    {"key": "qualified", "name": "Nitelikli", "probability": 25, "outcome": "open"},
    {"key": "proposal", "name": "Teklif", "probability": 50, "outcome": "open"},
    {"key": "negotiation", "name": "Pazarlık", "probability": 75, "outcome": "open"},
    {"key": "won", "name": "Kazanıldı", "probability": 100, "outcome": "won"},
    {"key": "lost", "name": "Kaybedildi", "probability": 0, "outcome": "lost"}
  ]' check (jsonb_typeof(deal_stages) = 'array'),
  task_types jsonb not null default '["call", "meeting", "email", "visit", "other"]'
    check (jsonb_typeof(task_types) = 'array'),
  quote_number_pattern text not null default 'TKL-{YYYY}-{SEQ:5}' check (char_length(quote_number_pattern) between 1 and 60),
  quote_validity_days integer not null default 30 check (quote_validity_days between 1 and 365),
  updated_at timestamptz not null default now(),
  updated_by uuid
);
comment on table private.organization_settings is 'One row per organization: general and operations settings.';

insert into private.organization_settings (organization_id)
select id from private.organizations
on conflict do nothing;
select private.create_default_roles(id) from private.organizations;

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

-- ---------------------------------------------------------------------------------
-- Login attempts and audit log
-- ---------------------------------------------------------------------------------

create table private.login_attempts (
  id bigint generated always as identity primary key,
  email text not null check (char_length(email) <= 320),
  -- Set when the email belongs to an account; unknown emails are logged too.
  user_id uuid references private.profiles (id) on delete set null,
  success boolean not null,
  failure_reason text check (failure_reason in (
    'invalid_credentials', 'account_locked', 'admin_locked', 'account_disabled', 'no_organization')),
  -- Where the attempt was checked: the login RPC or the Auth password hook.
  source text not null default 'login' check (source in ('login', 'auth_hook')),
  created_at timestamptz not null default now(),
  check (success = (failure_reason is null))
);
create index login_attempts_email_created_at_idx on private.login_attempts (email, created_at desc);
create index login_attempts_user_id_created_at_idx on private.login_attempts (user_id, created_at desc);
comment on table private.login_attempts is 'Every sign-in attempt, newest read first (spec section 7).';

create table private.audit_log (
  id bigint generated always as identity primary key,
  organization_id uuid references private.organizations (id) on delete cascade,
  actor_id uuid,
  action text not null check (action ~ '^[a-z][a-z0-9_.]{0,63}$'),
  target_type text,
  target_id text,
  details jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index audit_log_organization_id_created_at_idx on private.audit_log (organization_id, created_at desc);
comment on table private.audit_log is 'Who did what, when, in which organization (admin actions).';

-- ---------------------------------------------------------------------------------
-- Session binding and login proofs
-- ---------------------------------------------------------------------------------

create table private.session_organizations (
  -- The Auth session (the JWT's session_id); the binding ends with the session.
  session_id uuid primary key references auth.sessions (id) on delete cascade,
  user_id uuid not null references private.profiles (id) on delete cascade,
  organization_id uuid not null references private.organizations (id) on delete cascade,
  bound_at timestamptz not null default now()
);
create index session_organizations_user_id_idx on private.session_organizations (user_id);
create index session_organizations_organization_id_idx on private.session_organizations (organization_id);
comment on table private.session_organizations is 'The one organization each Auth session works in, set once server-side.';

create table private.login_proofs (
  id bigint generated always as identity primary key,
  user_id uuid not null references private.profiles (id) on delete cascade,
  -- A bcrypt hash of the password that secure_login_prepare_auth just verified.
  password_hash text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index login_proofs_user_id_idx on private.login_proofs (user_id, expires_at desc);
comment on table private.login_proofs is 'Proof, valid one minute, that a login flow verified this password; lets that flow repair its Auth user.';

alter table private.organization_roles enable row level security;
alter table private.role_permissions enable row level security;
alter table private.organization_settings enable row level security;
alter table private.login_attempts enable row level security;
alter table private.audit_log enable row level security;
alter table private.session_organizations enable row level security;
alter table private.login_proofs enable row level security;

-- ---------------------------------------------------------------------------------
-- Who is calling
-- ---------------------------------------------------------------------------------

/** The Auth session of the request (JWT claim session_id), or null. */
create function private.current_session_id()
returns uuid
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'session_id';
exception when invalid_text_representation then
  return null;
end;
$$;

/** True when the user is active and not locked by an administrator. */
create function private.is_account_usable(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.profiles p
     where p.id = p_user_id and p.is_active
       and not (p.locked_by_admin and coalesce(p.locked_until > now(), false)));
$$;

/** Super admin status: global role super_admin only (spec section 6). */
create function private.is_super_admin(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin')
     and private.is_account_usable(p_user_id);
$$;

/**
 * Admin status in one organization (spec section 6): super admin, or an active member
 * whose global role is admin or whose organization role is admin.
 */
create function private.is_admin_of(p_user_id uuid, p_organization_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_account_usable(p_user_id) and (
    private.is_super_admin(p_user_id)
    or exists (
      select 1
        from private.memberships m
        join private.profiles p on p.id = m.user_id
        join private.organizations o on o.id = m.organization_id and o.is_active
       where m.user_id = p_user_id and m.organization_id = p_organization_id and m.is_active
         and (m.role = 'admin' or p.role = 'admin')));
$$;

/** True when the user may work in the organization: an active member, or a super admin. */
create function private.can_work_in(p_user_id uuid, p_organization_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_account_usable(p_user_id)
     and exists (select 1 from private.organizations o where o.id = p_organization_id and o.is_active)
     and (private.is_super_admin(p_user_id)
          or exists (select 1 from private.memberships m
                      where m.user_id = p_user_id and m.organization_id = p_organization_id and m.is_active));
$$;

/**
 * The organization the caller's Auth session is bound to, or null when the session is
 * not bound, the account is unusable or the caller may no longer work there. Every
 * tenant RPC takes its organization from here and nowhere else.
 */
create function private.current_organization_id()
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select b.organization_id
    from private.session_organizations b
   where b.session_id = private.current_session_id()
     and b.user_id = auth.uid()
     and private.can_work_in(b.user_id, b.organization_id);
$$;

/** True only when the caller's session is bound to this organization (never null). */
create function private.is_bound_to(p_organization_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.current_organization_id() = p_organization_id, false);
$$;

/** The failure answer every RPC gives: the catalogue text plus a code the app translates. */
create function private.failure(p_error text, p_code text, p_extra jsonb default '{}')
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('success', false, 'error', p_error, 'code', p_code) || p_extra;
$$;

/** Records an admin action for the organization's audit trail. */
create function private.write_audit(p_organization_id uuid, p_action text, p_target_type text,
                                    p_target_id text, p_details jsonb default '{}')
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  values (p_organization_id, auth.uid(), p_action, p_target_type, p_target_id, coalesce(p_details, '{}'));
$$;

/** Ends every Auth session of a user (refresh tokens and organization bindings go with them). */
create function private.end_sessions(p_user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from auth.sessions where user_id = p_user_id;
$$;

/** The user's public shape in RPC answers (spec section 3, User). */
create function private.user_json(p_user_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id, 'email', p.email, 'first_name', p.first_name, 'last_name', p.last_name,
    'role', p.role, 'is_active', p.is_active, 'created_at', p.created_at,
    'last_login_at', p.last_login_at,
    'failed_login_attempts', p.failed_login_attempts, 'last_failed_attempt', p.last_failed_attempt,
    'locked_until', p.locked_until, 'locked_by_admin', p.locked_by_admin,
    'organization_role', coalesce((
      select jsonb_object_agg(m.organization_id, m.role)
        from private.memberships m where m.user_id = p.id and m.is_active), '{}'::jsonb))
    from private.profiles p
   where p.id = p_user_id;
$$;

-- None of the helpers is for the API roles.
revoke execute on all functions in schema private from public, anon, authenticated;
