-- Signing in and sessions (spec sections 7 and 9): the sign-in log, lockout and
-- throttles, common passwords, the Auth password hook and direct Auth gate, the session's
-- binding to one organization, request-forgery tokens, password changes and repairs, and
-- the hourly clean-up.

/**
 * The signed-in user, the organization this session works in (null until bound) and the
 * organizations on offer.
 */
create function public.get_current_user_context()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context();
  caller uuid := context.user_id;
  current_id uuid := context.organization_id;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if not context.usable then
    return private.failure('User not found', 'user_not_found');
  end if;
  return jsonb_build_object(
    'success', true,
    'user', private.user_json(caller),
    'organization', (select jsonb_build_object('id', o.id, 'slug', o.slug, 'name', o.name,
                                                'table_prefix_timestamp', o.table_prefix_timestamp)
                       from private.organizations o where o.id = current_id),
    'organizations', (select coalesce(jsonb_agg(to_jsonb(a)), '[]') from private.available_organizations(caller) a));
end;
$$;
revoke all on function public.get_current_user_context() from public, anon, authenticated;
grant execute on function public.get_current_user_context() to authenticated;

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
    'invalid_credentials', 'account_locked', 'admin_locked', 'account_disabled', 'no_organization',
    'throttled', 'password_too_long', 'sign_in_method_refused', 'reset_link_invalid')),
  -- Where the attempt was checked. login: the login RPC; auth_hook: the Auth password hook;
  -- auth: a direct Auth sign-in reported by the local stack's front; password_change: the
  -- current password checked by change_my_password; repair: a login-flow repair RPC
  -- (create_auth_user_admin, sync_user_password); session: an Auth session binding to an
  -- organization (bind_session_organization); password_reset: a new password set through an
  -- e-mailed reset link (password_reset_complete, 21_password_reset.sql).
  source text not null default 'login'
    check (source in ('login', 'auth_hook', 'auth', 'password_change', 'repair', 'session', 'password_reset')),
  created_at timestamptz not null default now(),
  -- Who is asking: the client's address, when known.
  client_address inet,
  -- The Auth session's sign-in method (the JWT's amr), when known.
  method text check (char_length(method) <= 40),
  check (success = (failure_reason is null))
);

create index login_attempts_email_created_at_idx on private.login_attempts (email, created_at desc);

create index login_attempts_user_id_created_at_idx on private.login_attempts (user_id, created_at desc);

comment on table private.login_attempts is 'Every sign-in attempt, newest read first (spec section 7).';

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

comment on table private.login_proofs is 'Proof, valid one minute, that a login flow verified this password; lets that flow repair its Auth user.';

alter table private.login_attempts enable row level security;

alter table private.session_organizations enable row level security;

alter table private.login_proofs enable row level security;

/**
 * True when the user is active and under no lock, temporary or an administrator's, and,
 * for the caller, when the request's session was signed in by an allowed method. Every
 * session check goes through here (current_organization_id, admin and super admin
 * status, request tokens, self-service), so a locked account's sessions, and a session
 * made by a code, can do nothing.
 */
create function private.is_account_usable(p_user_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select exists (
      select 1 from private.profiles p
       where p.id = p_user_id and p.is_active and not coalesce(p.locked_until > now(), false))
       and (p_user_id is distinct from auth.uid() or private.session_method_allowed()));
end;
$$;

/** Ends every Auth session of a user (refresh tokens and organization bindings go with them). */
create function private.end_sessions(p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from auth.sessions where user_id = p_user_id;
end;
$$;

-- Lock state for emails that have no usable account, so that an unknown email answers
-- exactly like a real one (the same messages after the same number of tries).
create table private.login_throttles (
  email text primary key check (char_length(email) <= 320),
  failed_attempts integer not null default 0,
  locked_until timestamptz,
  -- The counters' last change: stale ones are pruned (login_throttles_retention).
  updated_at timestamptz not null default now()
);

alter table private.login_throttles enable row level security;

comment on table private.login_throttles is 'Lockout counters for emails without a usable account (anti-enumeration).';

/** Spec section 9: failures before a lock, and how long the lock lasts. */
create function private.lockout_policy(out max_failures integer, out lock_duration interval)
language sql
immutable
set search_path = ''
as $$
  select 5, interval '30 minutes';
$$;

/**
 * Whole minutes left until a lock ends, at least 1. The wall clock, not now(): an attempt
 * that waited for a concurrent one started before that one set the lock.
 */
create function private.minutes_left(p_until timestamptz)
returns integer
language plpgsql
volatile
set search_path = ''
as $$
begin
  return (select greatest(1, ceil(extract(epoch from p_until - clock_timestamp()) / 60)::integer));
end;
$$;

create function private.locked_answer(p_until timestamptz)
returns jsonb
language plpgsql
volatile
set search_path = ''
as $$
begin
  return (select private.failure(format('Account is locked for %s minutes', private.minutes_left(p_until)),
                                 'account_locked', jsonb_build_object('locked_minutes', private.minutes_left(p_until))));
end;
$$;

/**
 * A wrong password for an account (not under a running lock): one more failure, the lock
 * from the fifth on; a lock that has run out starts the count again. Returns the profile.
 */
create function private.count_password_failure(p_user_id uuid)
returns private.profiles
language plpgsql
security definer
set search_path = ''
as $$
declare
  policy record := private.lockout_policy();
  account private.profiles;
begin
  update private.profiles
     set failed_login_attempts = case when locked_until is null then failed_login_attempts + 1 else 1 end,
         last_failed_attempt = now(),
         locked_by_admin = false,
         locked_until = case when (case when locked_until is null then failed_login_attempts + 1 else 1 end) >= policy.max_failures
                             then now() + policy.lock_duration end,
         updated_at = now()
   where id = p_user_id
  returning * into account;
  return account;
end;
$$;

/**
 * Organizations the user may sign in to, in the order they are offered: active
 * memberships of active organizations; a super admin without any gets every active one.
 */
create function private.available_organizations(p_user_id uuid)
returns table (id uuid, slug text, name text, role text, table_prefix_timestamp bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select offered.id, offered.slug, offered.name, offered.role, offered.table_prefix_timestamp
      from (
        select o.id, o.slug, o.name, m.role, o.table_prefix_timestamp, m.created_at as offered_since
          from private.memberships m
          join private.organizations o on o.id = m.organization_id and o.is_active
         where m.user_id = p_user_id and m.is_active
        union all
        select o.id, o.slug, o.name, 'admin', o.table_prefix_timestamp, o.created_at
          from private.organizations o
         where o.is_active and private.is_super_admin(p_user_id)
           and not exists (select 1 from private.memberships m
                             join private.organizations mo on mo.id = m.organization_id and mo.is_active
                            where m.user_id = p_user_id and m.is_active)
      ) as offered
     order by offered.offered_since, private.turkish_sort_key(offered.name) collate "C", offered.id;
end;
$$;

/**
 * The login flow's first step (spec section 7): verifies the password in the database,
 * applies the lockout (5 failures lock for 30 minutes; an admin lock lasts 365 days),
 * logs the attempt with the client's address and names the organization to sign in to.
 * A known account meets only its own lock and its own rate of right-password sign-ins:
 * what other addresses or unknown emails do never stops it. An unknown email meets the
 * per-address and global failure limits, and is answered like a wrong password whatever
 * happens (the shadow count): the same bcrypt work, none while throttled. No bcrypt
 * while a lock answers whatever the password.
 */
create function public.secure_login_prepare_auth(p_email text, p_password text, p_organization_slug text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  login_email text := private.normalize_email(p_email);
  address inet := private.client_address();
  account private.profiles;
  stored_hash text;
  password_ok boolean;
  organization record;
  problem jsonb;
  lock_ends timestamptz;
begin
  if login_email is null or coalesce(p_password, '') = '' or char_length(login_email) > 320 then
    return private.failure('Invalid login credentials', 'invalid_credentials');
  end if;

  -- One attempt per email at a time: concurrent tries are counted one after another.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('login:' || login_email, 0));
  select p.* into account from private.profiles p where p.email = login_email for update;

  if account.id is null then
    -- Unknown email: over the address's or everyone's failure limit it is answered like a
    -- wrong password with no bcrypt work (and logged as throttled).
    if private.login_throttle(address) is not null then
      return private.count_shadow_failure(login_email, null, 'login', address, 'throttled');
    end if;
  else
    problem := private.account_sign_in_throttle(account.id);
    if problem is not null then
      perform private.log_login_attempt(login_email, account.id, 'throttled', 'login', address);
      return problem;
    end if;
  end if;

  -- bcrypt reads 72 bytes: a longer password is never one that was set.
  if octet_length(p_password) > 72 then
    perform private.log_login_attempt(login_email, account.id, 'password_too_long', 'login', address);
    return private.check_password_length(p_password);
  end if;

  -- A lock that answers whatever the password: no bcrypt.
  lock_ends := private.password_free_lock(login_email, account);
  if lock_ends is not null then
    perform private.log_login_attempt(login_email, account.id, 'account_locked', 'login', address);
    return private.locked_answer(lock_ends);
  end if;

  if account.id is not null then
    select u.encrypted_password into stored_hash from auth.users u where u.id = account.id;
  end if;
  password_ok := private.password_matches(stored_hash, p_password);

  if account.id is null then
    return private.count_shadow_failure(login_email, null, 'login', address);
  end if;

  -- Admin lock: told only to someone who knows the password; other tries count as if
  -- the account did not exist, so the lock cannot be probed.
  if account.locked_by_admin and account.locked_until > now() then
    if password_ok then
      perform private.log_login_attempt(login_email, account.id, 'admin_locked', 'login', address);
      return private.failure('Account is locked by administrator', 'admin_locked');
    end if;
    return private.count_shadow_failure(login_email, account.id, 'login', address);
  end if;

  if not password_ok then
    account := private.count_password_failure(account.id);
    perform private.log_login_attempt(login_email, account.id, 'invalid_credentials', 'login', address);
    if account.locked_until is not null then
      return private.locked_answer(account.locked_until);
    end if;
    return private.failure('Invalid login credentials', 'invalid_credentials');
  end if;

  -- The password is right: an expired lock and the failure count end here.
  update private.profiles
     set failed_login_attempts = 0, locked_until = null, locked_by_admin = false, updated_at = now()
   where id = account.id;

  if not account.is_active then
    perform private.log_login_attempt(login_email, account.id, 'account_disabled', 'login', address);
    return private.failure('User not found', 'account_disabled');
  end if;

  select a.* into organization
    from private.available_organizations(account.id) a
   where p_organization_slug is null or lower(a.slug) = lower(p_organization_slug)
   limit 1;
  if not found and p_organization_slug is not null and private.is_super_admin(account.id) then
    select o.id, o.slug, o.name, 'admin' as role, o.table_prefix_timestamp into organization
      from private.organizations o where lower(o.slug) = lower(p_organization_slug) and o.is_active;
  end if;
  if organization.id is null then
    perform private.log_login_attempt(login_email, account.id, 'no_organization', 'login', address);
    return private.failure(format('User not found: Unable to determine organization for %s', login_email),
                           'no_organization');
  end if;

  -- One live proof per account, replaced by each sign-in (a repair call checks only it).
  insert into private.login_proofs (user_id, password_hash, expires_at)
  values (account.id, extensions.crypt(p_password, extensions.gen_salt('bf', 6)), now() + interval '1 minute')
  on conflict (user_id) do update
    set password_hash = excluded.password_hash, expires_at = excluded.expires_at, used_at = null;
  perform private.log_login_attempt(login_email, account.id, null, 'login', address);

  return jsonb_build_object(
    'success', true,
    'message', 'Authentication prepared',
    'user', private.user_json(account.id, true),
    'organization', jsonb_build_object('id', organization.id, 'slug', organization.slug, 'name', organization.name,
                                       'role', organization.role, 'table_prefix_timestamp', organization.table_prefix_timestamp),
    'organizations', (select coalesce(jsonb_agg(to_jsonb(a)), '[]') from private.available_organizations(account.id) a));
end;
$$;
revoke all on function public.secure_login_prepare_auth(p_email text, p_password text, p_organization_slug text) from public, anon, authenticated;
grant execute on function public.secure_login_prepare_auth(p_email text, p_password text, p_organization_slug text) to anon, authenticated;

/**
 * Who may repair an account's Auth password: only the sign-in in progress of that very
 * account, which has just proven this password to secure_login_prepare_auth (the
 * account's one login proof, less than a minute old, used once). Nobody signed in as
 * someone else. Costs at most one bcrypt (none without a live proof); a wrong password
 * burns the proof.
 */
create function private.may_set_auth_password(p_user_id uuid, p_password text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  proof private.login_proofs;
begin
  if auth.uid() is not null and auth.uid() <> p_user_id then
    return false;
  end if;
  select * into proof from private.login_proofs lp
   where lp.user_id = p_user_id and lp.used_at is null and lp.expires_at > now()
   for update;
  if not found then
    return false;
  end if;
  if extensions.crypt(p_password, proof.password_hash) = proof.password_hash then
    update private.login_proofs set used_at = now() where id = proof.id;
    return true;
  end if;
  delete from private.login_proofs where id = proof.id;
  return false;
end;
$$;

/**
 * Makes an account's Auth user complete and sign-in ready: the password hash in the
 * format Auth and pgcrypto share, a confirmed email, no NULL token columns (GoTrue
 * cannot read them) and an email identity. The one writer of a password: it marks the
 * account for auth.users' password guard for its own update only.
 */
create function private.repair_auth_user(p_user_id uuid, p_password text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  account private.profiles;
begin
  select * into account from private.profiles where id = p_user_id;
  perform pg_catalog.set_config('crm.password_write_for', p_user_id::text, true);
  update auth.users
     set email = account.email,
         encrypted_password = extensions.crypt(p_password, extensions.gen_salt('bf', 10)),
         email_confirmed_at = coalesce(email_confirmed_at, now()),
         aud = coalesce(aud, 'authenticated'),
         role = coalesce(role, 'authenticated'),
         confirmation_token = coalesce(confirmation_token, ''),
         recovery_token = coalesce(recovery_token, ''),
         email_change_token_new = coalesce(email_change_token_new, ''),
         email_change = coalesce(email_change, ''),
         raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || '{"provider":"email","providers":["email"]}',
         updated_at = now()
   where id = p_user_id;
  perform pg_catalog.set_config('crm.password_write_for', '', true);
  insert into auth.identities (id, provider, provider_id, user_id, identity_data, created_at, updated_at)
  select gen_random_uuid(), 'email', account.id::text, account.id,
         jsonb_build_object('sub', account.id::text, 'email', account.email, 'email_verified', true), now(), now()
   where not exists (select 1 from auth.identities i where i.user_id = account.id and i.provider = 'email');
exception when others then
  perform pg_catalog.set_config('crm.password_write_for', '', true);
  raise;
end;
$$;

/**
 * The account a repair RPC may act on for this email and password, or null: the password
 * keeps the length rules and is the one the account's sign-in in progress has just proven.
 * A refused call is logged as a failure of the client's address (source repair), so it
 * counts toward the address's throttle.
 */
create function private.account_to_repair(p_email text, p_password text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  login_email text := private.normalize_email(p_email);
  account_id uuid;
begin
  select p.id into account_id from private.profiles p where p.email = login_email;
  if account_id is null or private.check_password_length(p_password) is not null
     or not private.may_set_auth_password(account_id, p_password) then
    perform private.log_login_attempt(coalesce(login_email, ''), account_id, 'invalid_credentials', 'repair');
    return null;
  end if;
  return account_id;
end;
$$;

/** Login-flow repair: writes the proven password into Auth again (same rules as above). */
create function public.sync_user_password(p_email text, p_password text)
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
    return private.failure('Password sync failed', 'password_sync_failed');
  end if;
  perform private.repair_auth_user(account_id, p_password);
  perform private.write_user_audit(account_id, 'user.password_synced', '{"step": "sync_password"}', null);
  return jsonb_build_object('success', true, 'message', 'Password synchronised');
end;
$$;
revoke all on function public.sync_user_password(p_email text, p_password text) from public, anon, authenticated;
grant execute on function public.sync_user_password(p_email text, p_password text) to anon, authenticated;

/**
 * An account's details by email, for the account itself or an admin of its
 * organization. Everyone else, whether the email exists or not, gets 'User not found'.
 */
create function public.get_user_info_by_email(user_email text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context();
  account private.profiles;
begin
  select * into account from private.profiles where email = private.normalize_email(user_email);
  if caller.problem is not null or not found
     or not (caller.user_id = account.id
             or caller.is_super_admin
             or (caller.is_admin
                 and exists (select 1 from private.memberships m
                              where m.user_id = account.id and m.organization_id = caller.organization_id))) then
    return private.failure('User not found', 'user_not_found');
  end if;
  return jsonb_build_object('success', true, 'user', private.user_json(account.id));
end;
$$;
revoke all on function public.get_user_info_by_email(user_email text) from public, anon, authenticated;
grant execute on function public.get_user_info_by_email(user_email text) to anon, authenticated;

/** Records the caller's sign-in time; a user can only record their own (not from a code session). */
create function public.update_user_last_login(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('allowed_method');
  caller uuid := context.user_id;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_user_id is distinct from caller then
    return private.failure('User not found', 'user_not_found');
  end if;
  update private.profiles set last_login_at = now(), updated_at = now() where id = caller;
  return jsonb_build_object('success', true, 'user', private.user_json(caller));
end;
$$;
revoke all on function public.update_user_last_login(p_user_id uuid) from public, anon, authenticated;
grant execute on function public.update_user_last_login(p_user_id uuid) to authenticated;

/** Diagnostic: what the database sees as the caller, and the statement timeout it runs under. */
create function public.test_auth_uid()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object('success', true, 'user_id', auth.uid(), 'role', auth.role(),
                            'statement_timeout', current_setting('statement_timeout'));
$$;
revoke all on function public.test_auth_uid() from public, anon, authenticated;
grant execute on function public.test_auth_uid() to anon, authenticated;

/**
 * Binds the caller's Auth session to an organization, once: the one named (a member's
 * organization; for a super admin any active one) or else the first available. Binding
 * the same organization again is harmless; a different one is refused (spec section 2).
 * Nothing is bound while a lock holds, nor for a session signed in by a method that may
 * not work (a code: sign_in_method_refused, logged as a refused sign-in with its method).
 * A session of an allowed code method passes the same lock and is logged as a sign-in.
 */
create function public.bind_session_organization(p_organization_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('live_session');
  caller uuid := context.user_id;
  session uuid := context.session_id;
  method text := private.session_sign_in_method();
  bound private.session_organizations;
  target record;
  problem jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if not context.method_allowed then
    perform private.log_login_attempt((select p.email from private.profiles p where p.id = caller), caller,
                                      'sign_in_method_refused', 'session', private.client_address(), method);
    return private.refusal('sign_in_method_refused', p_extra => jsonb_build_object('method', method));
  end if;
  if not exists (select 1 from private.profiles p where p.id = caller and p.is_active) then
    return private.failure('User not found', 'user_not_found');
  end if;
  problem := private.lock_problem(caller);
  if problem is not null then
    if method <> 'password' then
      perform private.log_login_attempt((select p.email from private.profiles p where p.id = caller), caller,
                                        problem ->> 'code', 'session', private.client_address(), method);
    end if;
    return problem;
  end if;

  if p_organization_id is null then
    select a.id, a.slug, a.name, a.role into target from private.available_organizations(caller) a limit 1;
  else
    select a.id, a.slug, a.name, a.role into target from private.available_organizations(caller) a
     where a.id = p_organization_id;
    if not found and context.is_super_admin then
      select o.id, o.slug, o.name, 'admin' as role into target
        from private.organizations o where o.id = p_organization_id and o.is_active;
    end if;
  end if;
  if target.id is null then
    return private.refusal('organization_not_available');
  end if;

  select * into bound from private.session_organizations where session_id = session for update;
  if found and bound.organization_id <> target.id then
    return private.failure(
      'Changing organization is disabled for security. Please log in with the correct organization.',
      'organization_switch_disabled');
  end if;
  if not found then
    insert into private.session_organizations (session_id, user_id, organization_id)
    values (session, caller, target.id);
    -- A code session (when allowed) is a sign-in of its own: logged when it first binds.
    if method <> 'password' then
      perform private.log_login_attempt((select p.email from private.profiles p where p.id = caller), caller,
                                        null, 'session', private.client_address(), method);
    end if;
    if not exists (select 1 from private.memberships m where m.user_id = caller and m.organization_id = target.id) then
      perform private.write_audit(target.id, 'session.super_admin_entered', 'user', caller::text);
    end if;
  end if;

  return jsonb_build_object('success', true,
    'organization', jsonb_build_object('id', target.id, 'slug', target.slug, 'name', target.name, 'role', target.role));
end;
$$;
revoke all on function public.bind_session_organization(p_organization_id uuid) from public, anon, authenticated;
grant execute on function public.bind_session_organization(p_organization_id uuid) to authenticated;

/** The organizations the caller may work in, with the one the session is bound to. */
create function public.get_my_organizations()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('allowed_method');
  caller uuid := context.user_id;
  current_id uuid := context.organization_id;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  return jsonb_build_object('success', true, 'current_organization_id', current_id,
    'organizations', (select coalesce(jsonb_agg(to_jsonb(a) || jsonb_build_object('is_current', coalesce(a.id = current_id, false))), '[]')
                        from private.available_organizations(caller) a));
end;
$$;
revoke all on function public.get_my_organizations() from public, anon, authenticated;
grant execute on function public.get_my_organizations() to authenticated;

/**
 * Login attempts, newest first (20 by default, at most 100), with the client's address
 * and the session method where one was recorded: the caller's own, or for an admin those
 * of a member of their session's organization. Not for a session made by a code.
 */
create function public.get_login_attempts(p_user_id uuid default null, p_limit integer default 20)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('allowed_method');
  caller uuid := context.user_id;
  target uuid := coalesce(p_user_id, caller);
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if target <> caller and not (
       context.is_super_admin
       or (context.is_admin
           and exists (select 1 from private.memberships m
                        where m.user_id = target and m.organization_id = context.organization_id))) then
    return private.refusal('admin_required');
  end if;
  return jsonb_build_object('success', true, 'attempts', (
    select coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object('method', a.method)) || jsonb_build_object(
                                                 'email', a.email, 'success', a.success,
                                                 'failure_reason', a.failure_reason, 'source', a.source,
                                                 'client_address', host(a.client_address),
                                                 'created_at', a.created_at) order by a.created_at desc, a.id desc), '[]')
      from (select * from private.login_attempts la where la.user_id = target
             order by la.created_at desc, la.id desc
             limit least(greatest(coalesce(p_limit, 20), 1), 100)) a));
end;
$$;
revoke all on function public.get_login_attempts(p_user_id uuid, p_limit integer) from public, anon, authenticated;
grant execute on function public.get_login_attempts(p_user_id uuid, p_limit integer) to authenticated;

/**
 * Supabase Auth's password-verification hook (enabled in supabase/config.toml): the same
 * lock rule on hosted Supabase even when someone calls Auth directly.
 * Input {user_id, valid}; output {decision: continue|reject, message}.
 */
create function private.hook_password_verification_attempt(event jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  return private.password_check_decision((event ->> 'user_id')::uuid, (event ->> 'valid')::boolean, 'auth_hook');
exception when invalid_text_representation then
  return jsonb_build_object('decision', 'continue');
end;
$$;
grant execute on function private.hook_password_verification_attempt(event jsonb) to supabase_auth_admin;

-- Supabase Auth runs the hook as supabase_auth_admin.
grant usage on schema private to supabase_auth_admin;

-- The request-forgery token (spec section 9: 32 random bytes, valid 1 hour) is issued by
-- the database and bound to the Auth session, so an Edge Function can check that a call
-- comes from the app session that asked for it. Only a hash is stored.
create table private.request_tokens (
  token_hash bytea primary key,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  user_id uuid not null references private.profiles (id) on delete cascade,
  expires_at timestamptz not null
);

create index request_tokens_session_id_idx on private.request_tokens (session_id);

create index request_tokens_user_id_idx on private.request_tokens (user_id);

alter table private.request_tokens enable row level security;

comment on table private.request_tokens is 'Request-forgery tokens: sha-256 of the token, its Auth session and expiry.';

/**
 * Issues a request-forgery token for the caller's Auth session, valid one hour. The
 * token itself is returned once; only its hash is kept. A user keeps at most
 * request_tokens_per_user live tokens.
 */
create function public.issue_request_token()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('usable_session');
  caller uuid := context.user_id;
  session uuid := context.session_id;
  token text := translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/=', '-_');
  expires timestamptz := now() + interval '1 hour';
begin
  if context.problem is not null then
    return context.problem;
  end if;
  insert into private.request_tokens (token_hash, session_id, user_id, expires_at)
  values (extensions.digest(token, 'sha256'), session, caller, expires);
  perform private.prune_request_tokens(caller);
  return jsonb_build_object('success', true, 'token', token, 'expires_at', expires);
end;
$$;
revoke all on function public.issue_request_token() from public, anon, authenticated;
grant execute on function public.issue_request_token() to authenticated;

/**
 * Is this a live request-forgery token of the caller's own Auth session? Edge Functions
 * ask this with the caller's JWT before doing anything privileged.
 */
create function public.verify_request_token(p_token text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.request_tokens t
     where t.token_hash = extensions.digest(coalesce(p_token, ''), 'sha256')
       and t.session_id = private.current_session_id()
       and t.user_id = auth.uid()
       and t.expires_at > now())
     and private.is_account_usable(auth.uid());
$$;
revoke all on function public.verify_request_token(p_token text) from public, anon, authenticated;
grant execute on function public.verify_request_token(p_token text) to authenticated;

-- Common passwords that no account may take (private.is_common_password).
--
-- Source: the npm package @zxcvbn-ts/language-common 4.1.3 (MIT), file src/passwords.json: zxcvbn's
-- common-password dictionary, Mark Burnett's ten-million-password sample (xato.net, 2015)
-- lowercased and ranked by frequency, without what zxcvbn's patterns already find (sequences,
-- repeats). Kept: its first 4000 entries of 6 to 72 bytes, in rank order. Then 312
-- common Turkish passwords written for this project (teams, cities, names, religious and patriotic
-- words, simple keyboard and number runs), with and without Turkish letters; 4259 in all.
--
-- The package's licence:
-- Copyright (c) 2012-2016 Dan Wheeler and Dropbox, Inc.
-- Copyright (c) 2021 @zxcvbn-ts
--
-- Permission is hereby granted, free of charge, to any person obtaining
-- a copy of this software and associated documentation files (the
-- "Software"), to deal in the Software without restriction, including
-- without limitation the rights to use, copy, modify, merge, publish,
-- distribute, sublicense, and/or sell copies of the Software, and to
-- permit persons to whom the Software is furnished to do so, subject to
-- the following conditions:
--
-- The above copyright notice and this permission notice shall be
-- included in all copies or substantial portions of the Software.
--
-- THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
-- EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
-- MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
-- NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE
-- LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION
-- OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
-- WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
create table private.common_passwords (
  password text primary key check (password = lower(password))
);

comment on table private.common_passwords is 'Common passwords, lowercase: no account may take one.';

alter table private.common_passwords enable row level security;

insert into private.common_passwords (password) values
  ('123456'), ('password'), ('12345678'), ('qwerty'), ('123456789'), ('111111'), ('1234567'), ('dragon'), ('123123'),
  ('baseball'), ('abc123'), ('football'), ('monkey'), ('letmein'), ('shadow'), ('master'), ('696969'), ('michael'),
  ('mustang'), ('666666'), ('qwertyuiop'), ('123321'), ('1234567890'), ('superman'), ('1qaz2wsx'), ('7777777'),
  ('fuckyou'), ('jordan'), ('qazwsx'), ('jennifer'), ('123qwe'), ('000000'), ('killer'), ('trustno1'), ('hunter'),
  ('harley'), ('zxcvbnm'), ('asdfgh'), ('buster'), ('andrew'), ('batman'), ('soccer'), ('tigger'), ('charlie'),
  ('robert'), ('sunshine'), ('thomas'), ('iloveyou'), ('fuckme'), ('ranger'), ('daniel'), ('hockey'), ('george'),
  ('computer'), ('michelle'), ('jessica'), ('starwars'), ('asshole'), ('pepper'), ('klaster'), ('112233'), ('zxcvbn'),
  ('freedom'), ('princess'), ('joshua'), ('maggie'), ('ginger'), ('11111111'), ('131313'), ('amanda'), ('ashley'),
  ('cheese'), ('159753'), ('nicole'), ('summer'), ('matthew'), ('chelsea'), ('dallas'), ('biteme'), ('matrix'),
  ('william'), ('yankees'), ('taylor'), ('corvette'), ('austin'), ('access'), ('martin'), ('heather'), ('thunder'),
  ('merlin'), ('secret'), ('diamond'), ('anthony'), ('hammer'), ('fucker'), ('1234qwer'), ('silver'), ('gfhjkm'),
  ('justin'), ('patrick'), ('richard'), ('bailey'), ('internet'), ('samantha'), ('golfer'), ('scooter'), ('orange'),
  ('cookie'), ('q1w2e3r4t5'), ('maverick'), ('jackson'), ('sparky'), ('mickey'), ('phoenix'), ('bigdog'), ('snoopy'),
  ('guitar'), ('whatever'), ('chicken'), ('morgan'), ('andrea'), ('camaro'), ('mercedes'), ('peanut'), ('ferrari'),
  ('cowboy'), ('falcon'), ('welcome'), ('samsung'), ('steelers'), ('joseph'), ('smokey'), ('dakota'), ('melissa'),
  ('arsenal'), ('boomer'), ('eagles'), ('tigers'), ('marina'), ('nascar'), ('booboo'), ('gateway'), ('porsche'),
  ('yellow'), ('monster'), ('spider'), ('diablo'), ('hannah'), ('bulldog'), ('junior'), ('london'), ('purple'),
  ('compaq'), ('lakers'), ('iceman'), ('qwer1234'), ('hardcore'), ('cowboys'), ('banana'), ('ncc1701'), ('boston'),
  ('brandon'), ('tennis'), ('johnny'), ('miller'), ('q1w2e3r4'), ('coffee'), ('scooby'), ('123654'), ('edward'),
  ('nikita'), ('mother'), ('yamaha'), ('brandy'), ('barney'), ('chester'), ('fuckoff'), ('oliver'), ('charles'),
  ('player'), ('knight'), ('forever'), ('steven'), ('rangers'), ('midnight'), ('chicago'), ('bigdaddy'), ('redsox'),
  ('victoria'), ('badboy'), ('please'), ('fender'), ('jasper'), ('slayer'), ('rabbit'), ('natasha'), ('rachel'),
  ('bigdick'), ('marine'), ('wizard'), ('marlboro'), ('raiders'), ('prince'), ('casper'), ('fishing'), ('flower'),
  ('crystal'), ('jasmine'), ('panties'), ('iwantu'), ('adidas'), ('winner'), ('winter'), ('gandalf'), ('password1'),
  ('ghbdtn'), ('1q2w3e4r'), ('angela'), ('golden'), ('lauren'), ('cocacola'), ('jordan23'), ('winston'), ('madison'),
  ('angels'), ('blowme'), ('panther'), ('sexsex'), ('bigtits'), ('spanky'), ('shannon'), ('sophie'), ('johnson'),
  ('asdfasdf'), ('thx1138'), ('toyota'), ('murphy'), ('canada'), ('danielle'), ('12344321'), ('blowjob'), ('8675309'),
  ('jonathan'), ('liverpoo'), ('muffin'), ('cooper'), ('apples'), ('jackie'), ('dennis'), ('qwerty123'), ('passw0rd'),
  ('abcd1234'), ('sandra'), ('pokemon'), ('123abc'), ('slipknot'), ('carlos'), ('qazxsw'), ('123456a'), ('scorpion'),
  ('qwaszx'), ('nathan'), ('butter'), ('startrek'), ('rainbow'), ('asdfghjkl'), ('redskins'), ('newyork'), ('gemini'),
  ('cameron'), ('qazwsxedc'), ('florida'), ('liverpool'), ('turtle'), ('nicholas'), ('viking'), ('booger'), ('wilson'),
  ('sierra'), ('butthead'), ('doctor'), ('rocket'), ('159357'), ('victor'), ('dolphins'), ('captain'), ('bandit'),
  ('jaguar'), ('packers'), ('pookie'), ('peaches'), ('789456'), ('dolphin'), ('helpme'), ('tucker'), ('theman'),
  ('tiffany'), ('maxwell'), ('jeremy'), ('qwertyui'), ('shithead'), ('debbie'), ('albert'), ('maddog'), ('lovers'),
  ('monica'), ('united'), ('giants'), ('nirvana'), ('metallic'), ('hotdog'), ('rosebud'), ('mountain'), ('benjamin'),
  ('warrior'), ('stupid'), ('elephant'), ('suckit'), ('success'), ('bond007'), ('jackass'), ('bonnie'), ('alexis'),
  ('scorpio'), ('samson'), ('q1w2e3'), ('rush2112'), ('azerty'), ('freddy'), ('driver'), ('willie'), ('calvin'),
  ('1q2w3e4r5t'), ('sydney'), ('gators'), ('dexter'), ('red123'), ('12345a'), ('123456q'), ('creative'), ('voodoo'),
  ('arthur'), ('trouble'), ('america'), ('nissan'), ('gunner'), ('rebecca'), ('stella'), ('garfield'), ('gordon'),
  ('jessie'), ('bullshit'), ('parker'), ('asdfghjk'), ('fucking'), ('apollo'), ('1qazxsw2'), ('eminem'), ('december'),
  ('legend'), ('airborne'), ('beavis'), ('august'), ('brooklyn'), ('godzilla'), ('skippy'), ('4815162342'), ('kitten'),
  ('shelby'), ('beaver'), ('phantom'), ('nothing'), ('asdasd'), ('williams'), ('xavier'), ('braves'), ('darkness'),
  ('blink182'), ('travis'), ('copper'), ('tomcat'), ('platinum'), ('qweqwe'), ('01012011'), ('bigboy'), ('102030'),
  ('animal'), ('police'), ('11223344'), ('online'), ('voyager'), ('lifehack'), ('12qwaszx'), ('sniper'), ('315475'),
  ('trinity'), ('walter'), ('blazer'), ('heaven'), ('snowball'), ('playboy'), ('bubbles'), ('loveme'), ('hooters'),
  ('cricket'), ('marvin'), ('willow'), ('donkey'), ('topgun'), ('nintendo'), ('saturn'), ('family'), ('november'),
  ('gabriel'), ('destiny'), ('pakistan'), ('pumpkin'), ('digital'), ('sergey'), ('chance'), ('explorer'), ('redwings'),
  ('private'), ('therock'), ('runner'), ('789456123'), ('lasvegas'), ('guinness'), ('beatles'), ('cassie'), ('christin'),
  ('qwerty1'), ('asdf1234'), ('celtic'), ('broncos'), ('andrey'), ('007007'), ('babygirl'), ('nelson'), ('donald'),
  ('eclipse'), ('cartman'), ('fluffy'), ('louise'), ('michigan'), ('testing'), ('carolina'), ('little'), ('samuel'),
  ('alexande'), ('birdie'), ('cherry'), ('pantera'), ('sharon'), ('gibson'), ('vampire'), ('mexico'), ('dickhead'),
  ('buffalo'), ('montana'), ('genius'), ('flyers'), ('maximus'), ('school'), ('minecraft'), ('lovely'), ('stalker'),
  ('metallica'), ('doggie'), ('carter'), ('kristina'), ('kimberly'), ('spencer'), ('speedy'), ('barbara'), ('snickers'),
  ('sabrina'), ('carmen'), ('marcus'), ('bronco'), ('yankee'), ('friends'), ('paradise'), ('lol123'), ('dreams'),
  ('magnum'), ('horses'), ('caroline'), ('147258369'), ('lacrosse'), ('goober'), ('member'), ('qwertyu'), ('enigma'),
  ('scotty'), ('pimpin'), ('bollocks'), ('surfer'), ('genesis'), ('poohbear'), ('asd123'), ('qweasdzxc'), ('racing'),
  ('friend'), ('hello1'), ('hawaii'), ('eagle1'), ('october'), ('vanessa'), ('poopoo'), ('einstein'), ('boobies'),
  ('stanley'), ('12345q'), ('walker'), ('bitches'), ('drowssap'), ('stephen'), ('courtney'), ('simple'), ('alaska'),
  ('badger'), ('action'), ('denise'), ('jester'), ('111222'), ('spitfire'), ('drummer'), ('forest'), ('patricia'),
  ('maryjane'), ('champion'), ('diesel'), ('svetlana'), ('friday'), ('gregory'), ('pamela'), ('hotrod'), ('147258'),
  ('anderson'), ('lucky1'), ('douglas'), ('westside'), ('security'), ('google'), ('badass'), ('shorty'), ('tester'),
  ('thumper'), ('hitman'), ('mozart'), ('general'), ('reddog'), ('zaq12wsx'), ('010203'), ('lizard'), ('alexander'),
  ('melanie'), ('a123456'), ('ruslan'), ('123456789a'), ('vincent'), ('1232323q'), ('teresa'), ('scarface'), ('147852'),
  ('qwerty12'), ('a12345'), ('marshall'), ('olivia'), ('veronica'), ('buddha'), ('spirit'), ('frankie'), ('money1'),
  ('stargate'), ('antonio'), ('liberty'), ('natalie'), ('mercury'), ('naruto'), ('qwe123'), ('12345qwert'), ('suzuki'),
  ('semperfi'), ('popcorn'), ('spooky'), ('marley'), ('system'), ('brittany'), ('claudia'), ('scotland'), ('cherokee'),
  ('vikings'), ('simpsons'), ('leslie'), ('rascal'), ('qweasd'), ('loveyou'), ('hummer'), ('michael1'), ('allison'),
  ('patches'), ('russia'), ('adrian'), ('jupiter'), ('penguin'), ('cumshot'), ('howard'), ('passion'), ('vfhbyf'),
  ('vladimir'), ('franklin'), ('sandman'), ('123789'), ('infinity'), ('bastard'), ('raider'), ('passport'), ('assman'),
  ('sucker'), ('fantasy'), ('bulldogs'), ('1234554321'), ('horney'), ('domino'), ('budlight'), ('ironman'), ('disney'),
  ('norman'), ('usuckballz1'), ('softball'), ('bishop'), ('francis'), ('brutus'), ('redrum'), ('brooke'), ('bigred'),
  ('jeffrey'), ('fktrcfylh'), ('karina'), ('marines'), ('kawasaki'), ('digger'), ('ireland'), ('oksana'), ('fireman'),
  ('cougar'), ('college'), ('alicia'), ('russell'), ('houston'), ('monday'), ('bradley'), ('nigger'), ('justice'),
  ('wildcats'), ('tinker'), ('duncan'), ('dancer'), ('logitech'), ('avalon'), ('swordfis'), ('everton'), ('reggie'),
  ('motorola'), ('alexandr'), ('timothy'), ('hentai'), ('pussy1'), ('claire'), ('patriots'), ('madonna'), ('colorado'),
  ('eugene'), ('ducati'), ('kermit'), ('juventus'), ('indian'), ('connor'), ('galore'), ('freeuser'), ('smooth'),
  ('titanic'), ('boogie'), ('simpson'), ('warcraft'), ('wolverin'), ('elizabet'), ('arizona'), ('saints'), ('valentin'),
  ('georgia'), ('test123'), ('accord'), ('baxter'), ('denver'), ('mitchell'), ('christ'), ('password123'), ('yfnfif'),
  ('stinky'), ('zachary'), ('roland'), ('naughty'), ('ncc1701d'), ('spiderma'), ('chopper'), ('brenda'), ('hello123'),
  ('extreme'), ('virginia'), ('skyline'), ('zombie'), ('pearljam'), ('froggy'), ('pirate'), ('fylhtq'), ('vision'),
  ('123qweasd'), ('awesome'), ('alyssa'), ('dreamer'), ('predator'), ('bullet'), ('empire'), ('charlie1'), ('kirill'),
  ('123123a'), ('people'), ('panthers'), ('skipper'), ('nemesis'), ('peekaboo'), ('rasdzv3'), ('alison'), ('rolltide'),
  ('american'), ('cardinal'), ('arnold'), ('chevelle'), ('psycho'), ('happy1'), ('danger'), ('mookie'), ('wanker'),
  ('manutd'), ('9379992'), ('hobbes'), ('vegeta'), ('goblue'), ('852456'), ('burton'), ('fyfcnfcbz'), ('picard'),
  ('159951'), ('windows'), ('loverboy'), ('lovelove'), ('vfrcbv'), ('victory'), ('123654789'), ('bambam'), ('turkey'),
  ('serega'), ('tweety'), ('hiphop'), ('galina'), ('changeme'), ('rooster'), ('polina'), ('berlin'), ('suckme'),
  ('taurus'), ('electric'), ('ronald'), ('avatar'), ('134679'), ('raptor'), ('alpha1'), ('maksim'), ('spring'),
  ('brazil'), ('bigcock'), ('newport'), ('kenneth'), ('hendrix'), ('madmax'), ('england'), ('a1b2c3'), ('sublime'),
  ('britney'), ('france'), ('darkside'), ('bigman'), ('hercules'), ('lawrence'), ('wolfpack'), ('classic'), ('letmein1'),
  ('lincoln'), ('ronaldo'), ('741852963'), ('spiderman'), ('1q2w3e'), ('blizzard'), ('cheyenne'), ('123456789q'),
  ('wombat'), ('bubba1'), ('tiger1'), ('cjkysirj'), ('raymond'), ('brother'), ('kristen'), ('pandora'), ('devils'),
  ('zxc123'), ('simone'), ('holiday'), ('wildcat'), ('kramer'), ('147852369'), ('buddy1'), ('sterling'), ('caesar'),
  ('alabama'), ('carrie'), ('bondage'), ('basketball'), ('sports'), ('pussycat'), ('pickle'), ('catch22'), ('leather'),
  ('shaggy'), ('a1b2c3d4'), ('chronic'), ('flowers'), ('qaz123'), ('qqq111'), ('robbie'), ('gracie'), ('freepass'),
  ('airplane'), ('perfect'), ('kodiak'), ('billybob'), ('katana'), ('sunset'), ('stingray'), ('snowman'), ('angel1'),
  ('chocolat'), ('zeppelin'), ('garcia'), ('detroit'), ('wolves'), ('pontiac'), ('firebird'), ('vagina'), ('gundam'),
  ('panzer'), ('outlaw'), ('pretty'), ('fisher'), ('connie'), ('business'), ('trevor'), ('redhead'), ('hardon'),
  ('greenday'), ('tarheels'), ('01011980'), ('nastya'), ('hellfire'), ('engineer'), ('dragon1'), ('savage'), ('service'),
  ('serenity'), ('michele'), ('lickme'), ('fireball'), ('1029384756'), ('remember'), ('darkstar'), ('miranda'),
  ('mustang1'), ('124578'), ('harvey'), ('strike'), ('freddie'), ('pavilion'), ('beauty'), ('bobafett'), ('01012000'),
  ('dbrnjhbz'), ('bigmac'), ('chris1'), ('clinton'), ('bowling'), ('natali'), ('future'), ('harrison'), ('wallace'),
  ('welcome1'), ('swimming'), ('apache'), ('pyramid'), ('dodgers'), ('whynot'), ('fuckit'), ('defender'), ('morris'),
  ('trooper'), ('135790'), ('cancer'), ('precious'), ('packard'), ('lucifer'), ('popeye'), ('weasel'), ('142536'),
  ('icecream'), ('stewart'), ('tanner'), ('swordfish'), ('blonde'), ('presario'), ('rockstar'), ('viktor'), ('manager'),
  ('cheryl'), ('norton'), ('james1'), ('control'), ('wutang'), ('airforce'), ('julian'), ('atlanta'), ('thailand'),
  ('looking'), ('casino'), ('741852'), ('21122112'), ('lennon'), ('456123'), ('bluebird'), ('theone'), ('hawkeye'),
  ('hacker'), ('dustin'), ('elaine'), ('nfnmzyf'), ('sailor'), ('catfish'), ('goldfish'), ('maxima'), ('tattoo'),
  ('barbie'), ('design'), ('pervert'), ('machine'), ('herman'), ('wrangler'), ('trucks'), ('nipples'), ('roscoe'),
  ('tornado'), ('lights'), ('bubble'), ('cadillac'), ('666999'), ('madman'), ('orlando'), ('pegasus'), ('target'),
  ('longhorn'), ('philip'), ('browns'), ('stefan'), ('cannon'), ('dilbert'), ('baller'), ('microsoft'), ('winnie'),
  ('christia'), ('qazwsx123'), ('shooter'), ('xfiles'), ('qazqaz'), ('lesbian'), ('street'), ('seattle'), ('corona'),
  ('amateur'), ('cthutq'), ('prelude'), ('246810'), ('malibu'), ('freaky'), ('assassin'), ('integra'), ('atlantis'),
  ('123qweasdzxc'), ('pussies'), ('dragons'), ('iloveu'), ('monkey1'), ('unicorn'), ('lonewolf'), ('regina'), ('753951'),
  ('stealth'), ('kristin'), ('peewee'), ('openup'), ('bobcat'), ('stacey'), ('software'), ('newton'), ('leonardo'),
  ('student'), ('srinivas'), ('angelina'), ('valentina'), ('trigger'), ('zaqwsx'), ('lolita'), ('athena'), ('shotgun'),
  ('coyote'), ('bruins'), ('veronika'), ('dollar'), ('country'), ('rocky1'), ('babydoll'), ('lestat'), ('wordpass'),
  ('hottie'), ('smiley'), ('potter'), ('random'), ('sweety'), ('butterfly'), ('chipper'), ('samurai'), ('maddie'),
  ('devildog'), ('valerie'), ('mistress'), ('flipper'), ('freedom1'), ('express'), ('powers'), ('soso123aljg'),
  ('cessna'), ('teacher'), ('goldie'), ('polaris'), ('piglet'), ('cookies'), ('montreal'), ('hjvfirf'), ('ladies'),
  ('wolfgang'), ('fatboy'), ('scully'), ('father'), ('single'), ('wicked'), ('fetish'), ('foobar'), ('castle'),
  ('tickle'), ('transam'), ('dfvgbh'), ('31415926'), ('oicu812'), ('impala'), ('sunday'), ('hotstuff'), ('ronnie'),
  ('jasmin'), ('gambit'), ('toshiba'), ('basketba'), ('lancer'), ('birthday'), ('stephani'), ('jessica1'), ('hooker'),
  ('knicks'), ('314159'), ('roberto'), ('stinger'), ('testtest'), ('fuckyou2'), ('kathleen'), ('savannah'), ('shamrock'),
  ('benson'), ('squirt'), ('deftones'), ('trucker'), ('redneck'), ('goldberg'), ('alfred'), ('blaster'), ('siemens'),
  ('shelly'), ('renegade'), ('manson'), ('subaru'), ('ibanez'), ('blondie'), ('hamilton'), ('swinger'), ('reaper'),
  ('cristina'), ('minnie'), ('mylove'), ('galaxy'), ('lindsay'), ('dudley'), ('farmer'), ('gloria'), ('special'),
  ('blahblah'), ('enterpri'), ('1234abcd'), ('travel'), ('babylon5'), ('bigone'), ('sweetpea'), ('skeeter'), ('fucked'),
  ('indiana'), ('ficken'), ('trfnthbyf'), ('master1'), ('freeman'), ('curtis'), ('smitty'), ('marino'), ('joanne'),
  ('bigfoot'), ('escort'), ('larisa'), ('trumpet'), ('tristan'), ('spartan'), ('babylon'), ('asdfghj'), ('sister'),
  ('valera'), ('stormy'), ('paladin'), ('andreas'), ('cavalier'), ('marathon'), ('hamlet'), ('aardvark'), ('butterfl'),
  ('bigboobs'), ('mister'), ('manchester'), ('yankees1'), ('napoleon'), ('indigo'), ('hornet'), ('skater'), ('jerome'),
  ('pierre'), ('wonder'), ('toronto'), ('indians'), ('karate'), ('buckeyes'), ('01011990'), ('hesoyam'), ('fredfred'),
  ('charger'), ('highland'), ('sweetie'), ('holland'), ('1qaz2wsx3edc'), ('chiefs'), ('diamonds'), ('buckeye'),
  ('aurora'), ('hotsex'), ('campbell'), ('griffin'), ('brandi'), ('redman'), ('passwor'), ('chandler'), ('drpepper'),
  ('monika'), ('maiden'), ('elizabeth'), ('leonard'), ('bernie'), ('pornstar'), ('garden'), ('autumn'), ('12345678910'),
  ('thuglife'), ('millie'), ('jungle'), ('pencil'), ('tomtom'), ('insane'), ('timber'), ('jesus1'), ('sherlock'),
  ('mariah'), ('audrey'), ('david1'), ('1a2b3c'), ('hamster'), ('aragorn'), ('pioneer'), ('techno'), ('catdog'),
  ('lollol'), ('triumph'), ('sidney'), ('141627'), ('321654'), ('fktrctq'), ('sophia'), ('morpheus'), ('island'),
  ('wetpussy'), ('hobbit'), ('blabla'), ('erotic'), ('shadow1'), ('pascal'), ('sampson'), ('consumer'), ('justme'),
  ('marion'), ('stones'), ('chrissy'), ('nadine'), ('goforit'), ('burger'), ('pitbull'), ('kelsey'), ('adgjmptw'),
  ('spartak'), ('german'), ('kissme'), ('hunting'), ('kaiser'), ('martha'), ('colors'), ('artist'), ('harold'),
  ('italia'), ('sammie'), ('barcelona'), ('nicolas'), ('virgin'), ('pebbles'), ('sundance'), ('isabella'), ('overlord'),
  ('emerald'), ('callie'), ('racecar'), ('isabelle'), ('germany'), ('1478963'), ('goddess'), ('change'), ('wesley'),
  ('nipple'), ('basket'), ('joejoe'), ('poison'), ('zipper'), ('alpine'), ('shirley'), ('element'), ('huskers'),
  ('marcel'), ('christy'), ('pussys'), ('sakura'), ('chichi'), ('inside'), ('ultimate'), ('nicola'), ('ncc1701e'),
  ('blackie'), ('q12345'), ('watson'), ('rommel'), ('matthew1'), ('geronimo'), ('caserta'), ('trojan'), ('123qwe123'),
  ('philips'), ('sergio'), ('nugget'), ('sammy1'), ('tarzan'), ('bassman'), ('warren'), ('trixie'), ('chicks'),
  ('aleksandr'), ('webster'), ('sherry'), ('manuel'), ('portugal'), ('dodger'), ('anakin'), ('bobbob'), ('bomber'),
  ('michel'), ('madness'), ('superfly'), ('q1w2e3r4t5y6'), ('123asd'), ('florence'), ('yvonne'), ('fatcat'), ('global'),
  ('ybrbnf'), ('energy'), ('desire'), ('wrinkle1'), ('soldier'), ('bianca'), ('sexual'), ('warlock'), ('martina'),
  ('951753'), ('11235813'), ('51505150'), ('andrei'), ('seminole'), ('alejandr'), ('westham'), ('concrete'),
  ('access14'), ('harris'), ('margaret'), ('hector'), ('christop'), ('ladybug'), ('letmein2'), ('network'), ('bernard'),
  ('tintin'), ('qazxswedc'), ('trombone'), ('pleasure'), ('rhbcnbyf'), ('history'), ('bluesky'), ('sherman'),
  ('january'), ('onelove'), ('cotton'), ('christian'), ('cdtnkfyf'), ('archie'), ('holden'), ('brianna'), ('vfvjxrf'),
  ('titans'), ('stallion'), ('lindsey'), ('singer'), ('hansolo'), ('angelo'), ('joanna'), ('natalia'), ('beagle'),
  ('phillip'), ('panama'), ('smiles'), ('blue22'), ('qawsed'), ('inferno'), ('mongoose'), ('connect'), ('kingkong'),
  ('snatch'), ('flatron'), ('sex4me'), ('bluemoon'), ('rocker'), ('personal'), ('blessed'), ('snakes'), ('dominic'),
  ('forget'), ('finger'), ('beetle'), ('jamaica'), ('alberto'), ('a1234567'), ('mulder'), ('fuckyou1'), ('immortal'),
  ('passat'), ('plastic'), ('123454321'), ('dietcoke'), ('spunky'), ('anthony1'), ('whiskey'), ('monitor'), ('giovanni'),
  ('cactus'), ('ripper'), ('spyder'), ('markus'), ('planet'), ('magic1'), ('patton'), ('exigen'), ('sticky'), ('waters'),
  ('nolimit'), ('daniela'), ('hollywoo'), ('abigail'), ('apple1'), ('morrison'), ('katrina'), ('trunks'), ('1234321'),
  ('assass'), ('always'), ('deedee'), ('14789632'), ('clifford'), ('mission'), ('pickles'), ('million'), ('sailing'),
  ('holmes'), ('bonehead'), ('fernando'), ('ghbdtnbr'), ('112358'), ('911911'), ('charlott'), ('yomama'), ('darren'),
  ('rubber'), ('newman'), ('molly1'), ('1123581321'), ('faster'), ('cumming'), ('bertha'), ('memphis'), ('sylvia'),
  ('ilovesex'), ('maurice'), ('william1'), ('hongkong'), ('jumper'), ('unreal'), ('geheim'), ('rodney'), ('nylons'),
  ('sebastia'), ('pentium'), ('legion'), ('shalom'), ('kennedy'), ('555666'), ('brooks'), ('graham'), ('sprite'),
  ('curious'), ('pacific'), ('loulou'), ('funtime'), ('philly'), ('ferret'), ('niners'), ('werewolf'), ('milton'),
  ('cantona'), ('kingdom'), ('africa'), ('office'), ('boeing'), ('gilbert'), ('abgrtyu'), ('pirates'), ('super123'),
  ('sheila'), ('french'), ('sweets'), ('cooldude'), ('palmer'), ('eternity'), ('lollipop'), ('tottenha'), ('green1'),
  ('stocking'), ('monique'), ('anything'), ('foster'), ('jackoff'), ('7895123'), ('biscuit'), ('drizzt'), ('camera'),
  ('columbia'), ('fossil'), ('moomoo'), ('makaveli'), ('tracey'), ('colt45'), ('robinson'), ('isabel'), ('martini'),
  ('salmon'), ('shasta'), ('jersey'), ('verbatim'), ('maniac'), ('snapper'), ('satan666'), ('solomon'), ('patriot'),
  ('standard'), ('shaved'), ('blackcat'), ('asdzxc'), ('punkrock'), ('raistlin'), ('infantry'), ('qwerty12345'),
  ('dillon'), ('gerald'), ('twister'), ('ricardo'), ('waterloo'), ('cjkywt'), ('clayton'), ('crimson'), ('serena'),
  ('01012010'), ('oxford'), ('maxmax'), ('flight'), ('condor'), ('seinfeld'), ('silvia'), ('biggie'), ('maxine'),
  ('musicman'), ('ravens'), ('colleen'), ('wolfman'), ('sharks'), ('megadeth'), ('cosmos'), ('velvet'), ('keeper'),
  ('foxtrot'), ('garrett'), ('black1'), ('damien'), ('sesame'), ('skywalke'), ('gn56gn56'), ('banshee'), ('squirrel'),
  ('wolverine'), ('sunrise'), ('western'), ('grendel'), ('roxanne'), ('privet'), ('legolas'), ('marlin'), ('herbert'),
  ('lvbnhbq'), ('qazwsxed'), ('carrot'), ('blades'), ('frosty'), ('stardust'), ('121314'), ('helena'), ('brownie'),
  ('groovy'), ('butler'), ('coolio'), ('twilight'), ('daytona'), ('licker'), ('peanuts'), ('intrepid'), ('pikachu'),
  ('trains'), ('mollie'), ('vanhalen'), ('jericho'), ('hershey'), ('strider'), ('lobster'), ('punisher'), ('zaq123'),
  ('bottom'), ('1234567a'), ('murray'), ('kansas'), ('shogun'), ('goblin'), ('search'), ('neptune'), ('showtime'),
  ('darwin'), ('amadeus'), ('suzanne'), ('fuckfuck'), ('seven7'), ('jason1'), ('111222333'), ('oldman'), ('showme'),
  ('getsome'), ('muscle'), ('obiwan'), ('support'), ('rfrfirf'), ('skittles'), ('ekaterina'), ('whitney'), ('maestro'),
  ('tanker'), ('english'), ('tarheel'), ('fighter'), ('thanks'), ('blue123'), ('hannibal'), ('capital'), ('newlife'),
  ('anubis'), ('gothic'), ('sabine'), ('thunder1'), ('preston'), ('princes'), ('brendan'), ('123456z'), ('evelyn'),
  ('python'), ('richie'), ('tequila'), ('chelsea1'), ('clover'), ('delete'), ('mirage'), ('surfing'), ('1q2w3e4r5t6y'),
  ('bentley'), ('portland'), ('potato'), ('baggins'), ('review'), ('porter'), ('chubby'), ('panasonic'), ('sandiego'),
  ('sooners'), ('derrick'), ('penelope'), ('blackdog'), ('harmony'), ('fusion'), ('mature'), ('malcolm'), ('buttons'),
  ('1a2b3c4d'), ('californ'), ('safety'), ('playtime'), ('dagger'), ('moscow'), ('swallow'), ('warriors'), ('byteme'),
  ('stimpy'), ('gangster'), ('christine'), ('turner'), ('iverson'), ('lester'), ('chargers'), ('liquid'), ('asdf123'),
  ('mushroom'), ('cracker'), ('dingdong'), ('lucky7'), ('nymets'), ('456852'), ('bigguy'), ('mobile'), ('tazman'),
  ('nimrod'), ('newpass'), ('crusader'), ('bugger'), ('stranger'), ('dkflbvbh'), ('anastasia'), ('volume'), ('masters'),
  ('monroe'), ('miguel'), ('doodle'), ('collins'), ('powder'), ('archer'), ('gotcha'), ('battle'), ('dublin'),
  ('slapshot'), ('guardian'), ('147896325'), ('janice'), ('charly'), ('septembe'), ('photos'), ('knights'), ('woody1'),
  ('angelica'), ('nookie'), ('milano'), ('pepsi1'), ('scarlett'), ('stuart'), ('damian'), ('grizzly'), ('123098'),
  ('123321123'), ('camille'), ('scruffy'), ('brasil'), ('latino'), ('kittycat'), ('poopie'), ('munchkin'), ('lorenzo'),
  ('rammstein'), ('1passwor'), ('bananas'), ('barcelon'), ('santiago'), ('thegame'), ('robert1'), ('gerard'),
  ('picasso'), ('viper1'), ('walnut'), ('kolobok'), ('blackman'), ('wisdom'), ('trance'), ('starcraft'), ('parrot'),
  ('quality'), ('auburn'), ('goodluck'), ('eatshit'), ('dorothy'), ('engine'), ('coltrane'), ('gorilla'), ('wheels'),
  ('katerina'), ('tamara'), ('postal'), ('fuck_inside'), ('luther'), ('ranger1'), ('pass123'), ('cassidy'), ('discover'),
  ('oakland'), ('andrew1'), ('spanking'), ('osiris'), ('dumbass'), ('shaney14'), ('192837465'), ('lonestar'), ('bridge'),
  ('bender'), ('stonecol'), ('dookie'), ('meridian'), ('megaman'), ('heather1'), ('25802580'), ('racerx'), ('rjntyjr'),
  ('sirius'), ('firefly'), ('richard1'), ('alexandra'), ('madrid'), ('griffey'), ('phoebe'), ('zaq1xsw2'), ('weezer'),
  ('beautiful'), ('violet'), ('ledzep'), ('lowrider'), ('gangsta'), ('ghjcnj'), ('paradox'), ('tacobell'), ('123698745'),
  ('loving'), ('catalina'), ('vertigo'), ('halflife'), ('carson'), ('sergei'), ('shiloh'), ('johnjohn'), ('sobaka'),
  ('buffett'), ('aliens'), ('chucky'), ('bonjour'), ('kangaroo'), ('thompson'), ('sinner'), ('socrates'), ('soccer1'),
  ('keyboard'), ('0.0.000'), ('stevie'), ('trebor'), ('finish'), ('sprint'), ('shazam'), ('national'), ('celica'),
  ('sarah1'), ('scarlet'), ('formula1'), ('hoover'), ('sommer'), ('frances'), ('hotboy'), ('cynthia'), ('qwerasdf'),
  ('12369874'), ('penguins'), ('formula'), ('rebels'), ('fuckface'), ('elwood'), ('melvin'), ('honda1'), ('vacation'),
  ('ragnarok'), ('bollox'), ('lexmark'), ('asshole1'), ('mailcreated5240'), ('lorraine'), ('258456'), ('claude'),
  ('rockon'), ('dodgeram'), ('tacoma'), ('wookie'), ('prodigy'), ('tempest'), ('vfhecz'), ('flames'), ('sebastian'),
  ('colombia'), ('kitkat'), ('oblivion'), ('mystery'), ('sithlord'), ('server'), ('molson'), ('mustangs'), ('incubus'),
  ('smoker'), ('123qaz'), ('window'), ('scoobydo'), ('rescue'), ('bigballs'), ('zxcv1234'), ('carpet'), ('titleist'),
  ('richmond'), ('director'), ('lawyer'), ('magnolia'), ('celeste'), ('melinda'), ('wright'), ('jimbob'), ('golfing'),
  ('bobbie'), ('xanadu'), ('tardis'), ('blueeyes'), ('hearts'), ('pussy69'), ('pooper'), ('shaman'), ('mersedes'),
  ('102938'), ('12312312'), ('springer'), ('imagine'), ('janine'), ('patrick1'), ('kenwood'), ('123zxc'), ('garbage'),
  ('martinez'), ('topper'), ('cowboys1'), ('roberts'), ('lizzie'), ('ashton'), ('elliott'), ('oracle'), ('sheena'),
  ('nuttertools'), ('mallard'), ('123987'), ('1122334455'), ('analsex'), ('shemale'), ('gateway1'), ('asterix'),
  ('monkeys'), ('imperial'), ('cooler'), ('grateful'), ('gillian'), ('peterpan'), ('kingston'), ('yourmom'), ('sleepy'),
  ('gremlin'), ('printer'), ('hudson'), ('pa55word'), ('freckles'), ('birdman'), ('frank1'), ('aussie'), ('esther'),
  ('defiant'), ('margarita'), ('445566'), ('deadhead'), ('tatyana'), ('jackal'), ('frogger'), ('bridget'), ('research'),
  ('tobias'), ('mariners'), ('rootbeer'), ('blondes'), ('donnie'), ('katrin'), ('weather'), ('aspirine'), ('frederic'),
  ('parola'), ('children'), ('account'), ('israel'), ('stephanie'), ('shaolin'), ('noodles'), ('celine'), ('willis'),
  ('forgot'), ('scooter1'), ('thomas1'), ('11112222'), ('rogers'), ('palace'), ('santos'), ('ohyeah'), ('magnus'),
  ('laurie'), ('creampie'), ('amazon'), ('kisses'), ('ludwig'), ('fatass'), ('plymouth'), ('justdoit'), ('assfuck'),
  ('nellie'), ('1234567q'), ('987456'), ('6751520'), ('putter'), ('broken'), ('nopass'), ('letsgo'), ('harley1'),
  ('tatiana'), ('champs'), ('lightnin'), ('massive'), ('camelot'), ('deanna'), ('gizmodo'), ('spidey'), ('caliente'),
  ('aezakmi'), ('456654'), ('goodtime'), ('mypass'), ('roller'), ('catherin'), ('active'), ('payton'), ('lonely'),
  ('redalert'), ('brucelee'), ('smokin'), ('porkchop'), ('astros'), ('aquarius'), ('raiders1'), ('thankyou'), ('kevin1'),
  ('atomic'), ('fletcher'), ('shopping'), ('a1s2d3f4'), ('rusty1'), ('marian'), ('vanilla'), ('hunter1'), ('unknown'),
  ('sapphire'), ('temple'), ('qwert123'), ('marvel'), ('beckham'), ('qazwsxedcrfv'), ('kaktus'), ('753159'), ('myself'),
  ('sooner'), ('blacky'), ('elvis1'), ('hastings'), ('buster1'), ('power1'), ('blackjac'), ('aggies'), ('scream'),
  ('picture'), ('123321q'), ('judith'), ('iforgot'), ('kasper'), ('cxfcnmt'), ('bangkok'), ('01012001'), ('shitty'),
  ('spectrum'), ('eduard'), ('jammer'), ('painter'), ('primus'), ('veritas'), ('ernest'), ('kristi'), ('chevrole'),
  ('amber1'), ('amsterdam'), ('slappy'), ('valley'), ('horny1'), ('hitler'), ('clancy'), ('spankme'), ('granny'),
  ('avenger'), ('sasha1'), ('usa123'), ('diamond1'), ('rosemary'), ('husker'), ('candyman'), ('beatrice'), ('scrappy'),
  ('john316'), ('falcons'), ('front242'), ('harder'), ('atlantic'), ('labrador'), ('123456qwerty'), ('smudge'),
  ('syracuse'), ('southern'), ('melody'), ('elijah'), ('center'), ('darling'), ('throat'), ('fatman'), ('krishna'),
  ('sanchez'), ('pancho'), ('pacman'), ('commando'), ('delta1'), ('vulcan'), ('clitoris'), ('lemons'), ('8j4ye3uz'),
  ('odessa'), ('barkley'), ('monopoly'), ('method'), ('kelley'), ('punkin'), ('pineappl'), ('celtics'), ('lesbians'),
  ('223344'), ('gangbang'), ('bennett'), ('area51'), ('flyboy'), ('hamburg'), ('aaa111'), ('spartans'), ('tricky'),
  ('romashka'), ('123456aa'), ('snuggles'), ('phoenix1'), ('infiniti'), ('anders'), ('billie'), ('homer1'), ('hermes'),
  ('jeremiah'), ('vivian'), ('annette'), ('homerun'), ('forrest'), ('carolyn'), ('1234567890q'), ('topcat'), ('hayden'),
  ('cosworth'), ('vectra'), ('grover'), ('goodbye'), ('charlotte'), ('cuddles'), ('bossman'), ('horndog'), ('doberman'),
  ('telefon'), ('qawsedrf'), ('ivanov'), ('durango'), ('peugeot'), ('killer1'), ('franco'), ('plumber'), ('rbhbkk'),
  ('pauline'), ('exigent'), ('brandon1'), ('laguna'), ('emmanuel'), ('webmaster'), ('bowler'), ('leopard'), ('strong'),
  ('theking'), ('redbull'), ('viktoria'), ('porsche9'), ('breeze'), ('topdog'), ('starbuck'), ('omega1'), ('dalton'),
  ('fuckers'), ('oscar1'), ('hungry'), ('beefcake'), ('reality'), ('gjkbyf'), ('speaker'), ('shelley'), ('godsmack'),
  ('clarence'), ('writer'), ('loveit'), ('kingpin'), ('valhalla'), ('starfish'), ('anarchy'), ('herbie'), ('blacks'),
  ('content'), ('906090'), ('sailboat'), ('desert'), ('fitness'), ('brando'), ('bohica'), ('achilles'), ('tractor'),
  ('jordan1'), ('ncc1701a'), ('hidden'), ('kicker'), ('arsenal1'), ('labtec'), ('napass'), ('pa55w0rd'), ('amelia'),
  ('tuesday'), ('frontier'), ('swingers'), ('jimmy1'), ('caitlin'), ('muppet'), ('terror'), ('legacy'), ('farside'),
  ('terminator'), ('matilda'), ('kentucky'), ('jackson1'), ('doughboy'), ('ramona'), ('butthole'), ('phillies'),
  ('jrcfyf'), ('789654'), ('camels'), ('dannyboy'), ('oakley'), ('daniel1'), ('nebraska'), ('double'), ('qwertyuio'),
  ('sabbath'), ('pinkfloy'), ('homers'), ('striker'), ('looker'), ('fallen'), ('maryland'), ('luckydog'), ('azamat'),
  ('september'), ('iguana'), ('oklahoma'), ('moloko'), ('qwerty123456'), ('agent007'), ('vfrcbvrf'), ('javier'),
  ('daniil'), ('command'), ('rhonda'), ('studio'), ('pistol'), ('skiing'), ('franky'), ('stoner'), ('conrad'),
  ('select'), ('houses'), ('elliot'), ('charmed'), ('vladik'), ('nathalie'), ('whocares'), ('666777'), ('maynard'),
  ('vkontakte'), ('ihateyou'), ('puppies'), ('zidane'), ('eileen'), ('dilligaf'), ('mandingo'), ('moneys'), ('tyrone'),
  ('nevada'), ('kotenok'), ('mystic'), ('california'), ('123457'), ('budman'), ('church'), ('carlton'), ('rafael'),
  ('technics'), ('golfball'), ('rookie'), ('laptop'), ('01011991'), ('jennie'), ('triton'), ('trojans'), ('bunghole'),
  ('zvezda'), ('132435'), ('15426378'), ('hurrican'), ('central'), ('stripper'), ('filter'), ('jethro'), ('gustav'),
  ('escape'), ('gizmo1'), ('aberdeen'), ('lespaul'), ('rfnthbyf'), ('enterprise'), ('dthjybrf'), ('963852'), ('1366613'),
  ('cutter'), ('splash'), ('handsome'), ('oilers'), ('randall'), ('nofear'), ('cupcake'), ('excalibu'), ('batman1'),
  ('momoney'), ('gbpltw'), ('bigger'), ('belinda'), ('svetik'), ('possum'), ('moocow'), ('brothers'), ('bethany'),
  ('keystone'), ('babyboy'), ('flamingo'), ('super1'), ('firefox'), ('bogdan'), ('ccbill'), ('passwort'), ('soleil'),
  ('lancelot'), ('melissa1'), ('vipers'), ('marilyn'), ('tdutybq'), ('juliet'), ('leader'), ('madden'), ('russian'),
  ('australia'), ('sabina'), ('coolman'), ('babies'), ('skinny'), ('zaphod'), ('raven1'), ('kamikaze'), ('verona'),
  ('noodle'), ('doobie'), ('designer'), ('deadman'), ('attack'), ('vortex'), ('killme'), ('dogman'), ('pokemon1'),
  ('gopher'), ('somethin'), ('danila'), ('reagan'), ('apollo13'), ('chevy1'), ('cancel'), ('torres'), ('000007'),
  ('freaks'), ('azsxdc'), ('dracula'), ('poncho'), ('bearbear'), ('engage'), ('steve1'), ('deskjet'), ('bradford'),
  ('bitch1'), ('hammers'), ('deeznuts'), ('warhammer'), ('rangers1'), ('justine'), ('fabian'), ('casey1'), ('summer1'),
  ('blueblue'), ('marissa'), ('oregon'), ('bubbas'), ('sinatra'), ('hilton'), ('meatball'), ('mailman'), ('dawson'),
  ('columbus'), ('manchest'), ('cthulhu'), ('macdaddy'), ('mighty'), ('michaela'), ('grandma'), ('sterlin'), ('cartoon'),
  ('summit'), ('123456789z'), ('sentinel'), ('tolkien'), ('bicycle'), ('peter1'), ('beverly'), ('breast'), ('lickit'),
  ('crazy1'), ('meghan'), ('universe'), ('capone'), ('julius'), ('bryant'), ('truelove'), ('123456k'), ('eatpussy'),
  ('hailey'), ('kitty1'), ('daisy1'), ('362436'), ('bowser'), ('kathryn'), ('sexygirl'), ('fernand'), ('eleven'),
  ('rockets'), ('billyboy'), ('military'), ('jamesbon'), ('iloveyo'), ('texas1'), ('traffic'), ('daddy1'), ('redhot'),
  ('microsof'), ('miracle'), ('microlab'), ('gofish'), ('pantyhos'), ('lifetime'), ('mayday'), ('aikido'), ('star69'),
  ('01011985'), ('conner'), ('cutlass'), ('thekid'), ('gordon24'), ('theodore'), ('titties'), ('sweden'), ('function'),
  ('polska'), ('73501505'), ('market'), ('scotch'), ('lansing'), ('elvira'), ('bloody'), ('hustler'), ('anfield'),
  ('catman'), ('bonita'), ('1234qwe'), ('passwor1'), ('irish1'), ('cheers'), ('tinman'), ('airbus'), ('peters'),
  ('azsxdcfv'), ('santana'), ('hayley'), ('station'), ('gabrie'), ('scottie'), ('orioles'), ('jenny1'), ('01011970'),
  ('charlton'), ('fortuna'), ('dfkthbz'), ('rustam'), ('warlord'), ('retard'), ('fatima'), ('ultima'), ('bigmoney'),
  ('4runner'), ('rotten'), ('grumpy'), ('oranges'), ('kelly1'), ('superstar'), ('fordf150'), ('asdfjkl'), ('boxing'),
  ('xtreme'), ('denali'), ('selena'), ('zxcasd'), ('huskies'), ('128500'), ('terminal'), ('wilbur'), ('kristy'),
  ('wildfire'), ('vladislav'), ('bikini'), ('hollywood'), ('mayhem'), ('sultan'), ('gretchen'), ('figaro'), ('sixers'),
  ('sparta'), ('saratoga'), ('321654987'), ('running'), ('01011981'), ('cloud9'), ('music1'), ('models'), ('greenbay'),
  ('cancun'), ('marlene'), ('trinidad'), ('chewie'), ('number1'), ('billy1'), ('crunch'), ('bigbird'), ('mellon'),
  ('chicken1'), ('bigtime'), ('fashion'), ('piccolo'), ('789123'), ('rjirfrgbde'), ('rovers'), ('meatloaf'),
  ('hyperion'), ('sandro'), ('rightnow'), ('jarhead'), ('armani'), ('treasure'), ('miriam'), ('hansen'), ('natural'),
  ('01011986'), ('lisalisa'), ('bizkit'), ('chester1'), ('jasmine1'), ('maradona'), ('sayang'), ('charli'), ('rfhbyf'),
  ('utopia'), ('anaconda'), ('japanese'), ('camilla'), ('coconut'), ('govols'), ('emerson'), ('memory'), ('catherine'),
  ('cruise'), ('dragoon'), ('woofwoof'), ('giorgi'), ('packer'), ('pass1234'), ('poontang'), ('emily1'), ('illini'),
  ('christopher'), ('davids'), ('zaqxsw'), ('sandy1'), ('sticks'), ('revenge'), ('exodus'), ('reebok'), ('chanel'),
  ('albatros'), ('cabbage'), ('beaner'), ('quincy'), ('greens'), ('tomato'), ('richards'), ('turkey50'), ('adriana'),
  ('kenworth'), ('happy123'), ('deborah'), ('cooter'), ('dinosaur'), ('holyshit'), ('eeyore'), ('movies'), ('lionking'),
  ('creamy'), ('poodle'), ('tsunami'), ('happyday'), ('321123'), ('knopka'), ('tommy1'), ('bogart'), ('corrado'),
  ('volley'), ('tyler1'), ('chickens'), ('orgasm'), ('whisper'), ('flying'), ('chocolate'), ('walleye'), ('hopper'),
  ('katie1'), ('twisted'), ('chaser'), ('pepper1'), ('memorex'), ('ericsson'), ('100000'), ('jensen'), ('positive'),
  ('crazybab'), ('science'), ('frisco'), ('romance'), ('sherwood'), ('shania'), ('rereirf'), ('sausage'), ('milana'),
  ('vfvekz'), ('profit'), ('zenith'), ('fugazi'), ('junebug'), ('clemson'), ('polniypizdec0211'), ('tootsie'),
  ('fktrcfylhf'), ('comics'), ('zxcasdqwe'), ('vfczyz'), ('150781'), ('werner'), ('aspire'), ('hardrock'), ('condom'),
  ('rachael'), ('gringo'), ('anhyeuem'), ('madeline'), ('february'), ('abc12345'), ('harper'), ('justin1'), ('stocks'),
  ('marcos'), ('samsung1'), ('clapton'), ('roberta'), ('coleman'), ('applepie'), ('skywalker'), ('theresa'), ('koshka'),
  ('tundra'), ('vitalik'), ('gmoney'), ('bigsexy'), ('ingrid'), ('pillow'), ('gandalf1'), ('lucky13'), ('fingers'),
  ('samiam'), ('davidson'), ('skorpion'), ('candle'), ('nobody'), ('hellyeah'), ('better'), ('australi'), ('rockhard'),
  ('sparkle'), ('johanna'), ('everest'), ('rfrnec'), ('hedgehog'), ('13243546'), ('wolfie'), ('bobby1'), ('yosemite'),
  ('marisa'), ('voyeur'), ('baddog'), ('jazzman'), ('cheetah'), ('1qa2ws3ed'), ('slacker'), ('steele'), ('mikemike'),
  ('pooppoop'), ('america1'), ('barsik'), ('valeria'), ('deniska'), ('br0d3r'), ('fright'), ('karolina'), ('kirsten'),
  ('vfksirf'), ('kenshin'), ('bootie'), ('cyclone'), ('starship'), ('balloon'), ('maxell'), ('rupert'), ('0.0.0.000'),
  ('milena'), ('bonsai'), ('salvador'), ('greatone'), ('vernon'), ('50cent'), ('slider'), ('lillian'), ('admiral'),
  ('cecilia'), ('stolen'), ('albion'), ('midget'), ('fuckin'), ('freeporn'), ('nikola'), ('amanda1'), ('hithere'),
  ('football1'), ('222333'), ('78945612'), ('damnit'), ('dinamo'), ('francois'), ('calico'), ('duchess'), ('scratch'),
  ('powell'), ('packers1'), ('stefano'), ('fortune'), ('nyjets'), ('artemis'), ('robotech'), ('roadkill'), ('backdoor'),
  ('rastaman'), ('fiesta'), ('felicia'), ('alliance'), ('fletch'), ('jerkoff'), ('killbill'), ('goliath'), ('cinnamon'),
  ('rambler'), ('malaka'), ('tekken'), ('sojdlg123aljg'), ('321456'), ('18436572'), ('963852741'), ('carrera'),
  ('bangbang'), ('jeanette'), ('ramses'), ('operator'), ('duster'), ('wibble'), ('alibaba'), ('mechanic'), ('keywest'),
  ('amsterda'), ('hal9000'), ('bristol'), ('pingpong'), ('rasputin'), ('marianne'), ('hooter'), ('rctybz'), ('sanders'),
  ('faggot'), ('krista'), ('presto'), ('majestic'), ('332211'), ('nguyen'), ('fowler'), ('passwords'), ('buttman'),
  ('snake1'), ('pompey'), ('trident'), ('viagra'), ('qwert1'), ('brian1'), ('kipper'), ('kingfish'), ('zxcvbnm1'),
  ('gotohell'), ('garage'), ('mattie'), ('slutty'), ('isaiah'), ('steeler'), ('wrestlin'), ('pooter'), ('divine'),
  ('route66'), ('clipper'), ('charley'), ('macross'), ('railroad'), ('lineage2'), ('420247'), ('seamus'), ('swimmer'),
  ('ne1469'), ('jokers'), ('thursday'), ('a123456789'), ('solnce'), ('kimber'), ('guiness'), ('pussie'), ('mathew'),
  ('nature'), ('matador'), ('sparks'), ('typhoon'), ('secret1'), ('retired'), ('subway'), ('ivanova'), ('ghetto'),
  ('florian'), ('love69'), ('vermont'), ('ktyjxrf'), ('lolipop'), ('moose1'), ('spears'), ('yzerman'), ('peterson'),
  ('magick'), ('phillips'), ('cinder'), ('nwo4life'), ('flash1'), ('shearer'), ('pupsik'), ('charles1'), ('dfkthf'),
  ('allsop'), ('162534'), ('456321'), ('000001'), ('qwer123'), ('grapes'), ('123123q'), ('pippen'), ('kcj9wx5n'),
  ('sex123'), ('dammit'), ('caveman'), ('critter'), ('underdog'), ('r2d2c3po'), ('skydive'), ('renault'), ('onlyme'),
  ('george1'), ('murder'), ('snoopdog'), ('jayhawk'), ('hotshot'), ('caramel'), ('broadway'), ('theboss'), ('fuckher'),
  ('umbrella'), ('feather'), ('credit'), ('splinter'), ('depeche'), ('seeker'), ('fuckthis'), ('respect'), ('crysis'),
  ('direct'), ('animals'), ('chemical'), ('cyclops'), ('122333'), ('135246'), ('789987'), ('123789456'), ('chivas'),
  ('jamesbond'), ('blackhaw'), ('passpass'), ('sinclair'), ('megapass'), ('beanie'), ('translator'), ('helloo'),
  ('magicman'), ('fishes'), ('supersta'), ('giuseppe'), ('caligula'), ('shannon1'), ('juggalo'), ('frozen'), ('quattro'),
  ('meredith'), ('wassup'), ('bullseye'), ('saturday'), ('pornos'), ('cohiba'), ('ashley1'), ('floppy'), ('alucard'),
  ('deacon'), ('tabitha'), ('kristine'), ('nicole1'), ('tunafish'), ('great1'), ('gfhjkm123'), ('dallas1'), ('xbox360'),
  ('dkflbckfd'), ('kickass'), ('p0015123'), ('200000'), ('7753191'), ('12131415'), ('vietnam'), ('kendall'), ('safari'),
  ('crawford'), ('bob123'), ('klingon'), ('jacob1'), ('looser'), ('goalie'), ('damage'), ('maureen'), ('tazmania'),
  ('cigars'), ('facial'), ('cobra1'), ('deepthroat'), ('malina'), ('silence'), ('samara'), ('dfktynbyf'), ('cruiser'),
  ('vector'), ('tommyboy'), ('banker'), ('horizon'), ('chainsaw'), ('button'), ('bigbear'), ('forfun'), ('abraham'),
  ('123456r'), ('astrid'), ('carole'), ('andres'), ('sharky'), ('enter1'), ('vh5150'), ('royals'), ('christina'),
  ('misfit'), ('yousuck'), ('fallout'), ('marino13'), ('scania'), ('nudist'), ('getmoney'), ('budweise'), ('qazwsx12'),
  ('believe'), ('brighton'), ('absolut'), ('kungfu'), ('kostya'), ('monaco'), ('death1'), ('gunners'), ('vfhufhbnf'),
  ('mamapapa'), ('minime'), ('blueboy'), ('penthous'), ('chrisbln'), ('whitey'), ('europa'), ('bertie'), ('daphne'),
  ('groucho'), ('mirror'), ('village'), ('trader'), ('stroke'), ('walrus'), ('susanne'), ('number'), ('sabres'),
  ('nipper'), ('snowboar'), ('undertaker'), ('flounder'), ('moneyman'), ('bottle'), ('love123'), ('kahuna'),
  ('canadian'), ('wolf359'), ('viewsonic'), ('coolguy'), ('downtown'), ('wagner'), ('strange'), ('fabric'), ('trisha'),
  ('italian'), ('ybrjkfq'), ('cypress'), ('01011989'), ('qwerty1234'), ('eastside'), ('sneakers'), ('passme'),
  ('topher'), ('taylor1'), ('golfgolf'), ('barber'), ('sinbad'), ('panasoni'), ('mybaby'), ('skidoo'), ('chicago1'),
  ('massimo'), ('jillian'), ('cat123'), ('q123456'), ('sparrow'), ('senior'), ('dalejr'), ('thecat'), ('fucku2'),
  ('snapple'), ('mondeo'), ('leanne'), ('emmitt'), ('thanatos'), ('z1x2c3'), ('ghjcnjnfr'), ('maximum'), ('smegma'),
  ('thesims'), ('whitesox'), ('778899'), ('2128506'), ('bonkers'), ('poseidon'), ('musica'), ('johannes'), ('gargoyle'),
  ('olivier'), ('hambone'), ('bluedog'), ('intruder'), ('sunnyday'), ('compute'), ('smelly'), ('wapbbs'), ('answer'),
  ('studly'), ('ferrari1'), ('simona'), ('solution'), ('madison1'), ('newcastl'), ('adonis'), ('goodman'), ('sexxxx'),
  ('europe'), ('goldstar'), ('quantum'), ('buckshot'), ('static'), ('turbo1'), ('dollars'), ('01011988'), ('titanium'),
  ('holly1'), ('danzig'), ('sadie1'), ('jabroni'), ('library'), ('journey'), ('beastie'), ('chrono'), ('555777'),
  ('edwards'), ('test1234'), ('gunnar'), ('federico'), ('custom'), ('1qwerty'), ('assholes'), ('daewoo'), ('briana'),
  ('watcher'), ('superman1'), ('albina'), ('sunflowe'), ('dorian'), ('babyblue'), ('premier'), ('staples'), ('stereo'),
  ('westwood'), ('apple123'), ('mouse1'), ('usnavy'), ('boomboom'), ('florida1'), ('sasuke'), ('dharma'), ('pisces'),
  ('motherlode'), ('multiplelo'), ('sapper'), ('scanner'), ('marius'), ('callaway'), ('bayern'), ('lamont'), ('rivers'),
  ('walmart'), ('micheal'), ('starfire'), ('theend'), ('tigger1'), ('erotica'), ('aaliyah'), ('doogie'), ('paintbal'),
  ('winston1'), ('sexy69'), ('123qwerty'), ('joshua1'), ('newbie'), ('knickers'), ('lokomotiv'), ('112211'), ('192837'),
  ('hotred'), ('ufkbyf'), ('panther1'), ('dodge1'), ('laurel'), ('12345z'), ('wasser'), ('scott1'), ('jessic'),
  ('thirteen'), ('rjycnfynby'), ('avalanch'), ('outkast'), ('truman'), ('magpie'), ('philippe'), ('poetry'), ('martin1'),
  ('havefun'), ('michell'), ('cubbies'), ('losers'), ('hotpussy'), ('deejay'), ('fghtkm'), ('droopy'), ('blossom'),
  ('333666'), ('777888'), ('allmine'), ('01011984'), ('zerocool'), ('tomorrow'), ('godfather'), ('greece'), ('second'),
  ('reading'), ('greene'), ('sascha'), ('busted'), ('bimmer'), ('original'), ('cbr600'), ('builder'), ('demons'),
  ('nitram'), ('pudding'), ('bounce'), ('donuts'), ('01011987'), ('newyork1'), ('jeanne'), ('idontknow'), ('audia4'),
  ('aleksey'), ('vfvfgfgf'), ('leonid'), ('smokes'), ('mylife'), ('beerbeer'), ('redfish'), ('harry1'), ('working'),
  ('rodman'), ('beaches'), ('1x2zkg8w'), ('contact'), ('prissy'), ('123456s'), ('gegcbr'), ('tights'), ('insert'),
  ('beretta'), ('francesc'), ('jewels'), ('searay'), ('padres'), ('celeron'), ('mittens'), ('quartz'), ('diehard'),
  ('micron'), ('syncmaster'), ('cornell'), ('christie'), ('stunner'), ('hockey1'), ('simon1'), ('rtyuehe'), ('hoosier'),
  ('zxasqw12'), ('peyton'), ('cheese1'), ('orange1'), ('paintball'), ('monalisa'), ('queens'), ('terrapin'), ('a1s2d3'),
  ('spongebob'), ('attitude'), ('backup'), ('whisky'), ('clevelan'), ('cedric'), ('barefoot'), ('chuckles'), ('barrett'),
  ('meathead'), ('bigass'), ('ou8122'), ('spike1'), ('gretzky'), ('02071986'), ('kosmos'), ('cfitymrf'), ('biggles'),
  ('cambiami'), ('12345678q'), ('03082006'), ('thongs'), ('blessing'), ('aleksandra'), ('ginger1'), ('twinkle'),
  ('gladiator'), ('gollum'), ('southpark'), ('rabota'), ('mazafaka'), ('336699'), ('goodboy'), ('carbon'), ('stoney'),
  ('weaver'), ('footbal'), ('pianoman'), ('gaston'), ('casanova'), ('traveler'), ('stumpy'), ('hawkeyes'), ('clarinet'),
  ('looney'), ('maggot'), ('felipe'), ('bucket'), ('eduardo'), ('freeze'), ('sexyman'), ('johnboy'), ('snapon'),
  ('deeznutz'), ('warthog'), ('rooney'), ('honey1'), ('futbol'), ('filthy'), ('carina'), ('10203040'), ('123aaa'),
  ('mustard'), ('boricua'), ('meowmeow'), ('mellow'), ('abc1234'), ('sunshin'), ('bengals'), ('combat'), ('whatsup'),
  ('sauron'), ('krystal'), ('lover1'), ('monster1'), ('prophet'), ('joker1'), ('lovesex'), ('triangle'), ('booker'),
  ('reefer'), ('nickel'), ('venice'), ('xander'), ('valencia'), ('01011910'), ('rhiannon'), ('crystal1'), ('smeghead'),
  ('valeri'), ('andromeda'), ('12qwas'), ('12345679'), ('cerberus'), ('james007'), ('sputnik'), ('groove'), ('lambert'),
  ('usarmy'), ('tiberius'), ('zigzag'), ('abcd123'), ('welder'), ('gabriell'), ('candice'), ('salamander'), ('eternal'),
  ('silver1'), ('bunny1'), ('motley'), ('resident'), ('hayabusa'), ('marcia'), ('together'), ('rainman'), ('poochie'),
  ('purdue'), ('redwood'), ('ripple'), ('buzzard'), ('redwing'), ('boobie'), ('juliette'), ('hokies'), ('1q2w3e4r5'),
  ('crjhgbjy'), ('jagger'), ('nokia6300'), ('rockford'), ('goldwing'), ('brewster'), ('bermuda'), ('thegreat'),
  ('confused'), ('badgirl'), ('bacardi'), ('sweet1'), ('whiskers'), ('spaceman'), ('starman'), ('rebecca1'), ('claudio'),
  ('12qw34er'), ('allstar'), ('carolin'), ('gesperrt'), ('swords'), ('wildman'), ('nikolay'), ('slinky'), ('wrestling'),
  ('jamie1'), ('mohammed'), ('pinhead'), ('hacked'), ('logan1'), ('sersolution'), ('penny1'), ('overkill'), ('rhfcjnrf'),
  ('mishka'), ('montgom240'), ('123451'), ('banane'), ('bulldog1'), ('person'), ('public'), ('fester'), ('something'),
  ('12345qwe'), ('helmet'), ('buffy1'), ('ripken'), ('frisky'), ('changed'), ('higgins'), ('trapper'), ('windsor'),
  ('supreme'), ('ib6ub9'), ('kaylee'), ('athens'), ('norway'), ('runescape'), ('hurley'), ('lightning'), ('dbrnjh'),
  ('235689'), ('784512'), ('14725836'), ('19411945'), ('edward1'), ('darius'), ('midway'), ('hoosiers'), ('vinnie'),
  ('recovery'), ('cicero'), ('napster'), ('lionel'), ('amazing'), ('tracker'), ('01011992'), ('adrienne'), ('roadking'),
  ('menace'), ('secure'), ('stoned'), ('thedog'), ('sacred'), ('squash'), ('smoking'), ('illusion'), ('01091989'),
  ('woohoo'), ('rachel1'), ('medicine'), ('antoine'), ('leavemealone'), ('bagira'), ('megatron'), ('787898'),
  ('5551212'), ('orchid'), ('reader'), ('company'), ('doghouse'), ('12345678a'), ('buddah'), ('jaybird'), ('chuckie'),
  ('maria1'), ('morning'), ('chuang'), ('mortgage'), ('heineken'), ('saleen'), ('rulezzz'), ('fishing1'), ('massage'),
  ('sonics'), ('moonlight'), ('motherfucker'), ('02071982'), ('pobeda'), ('benfica'), ('kashmir'), ('realmadrid'),
  ('balloons'), ('optimus'), ('chunky'), ('gsxr750'), ('tinkerbell'), ('135792468'), ('common'), ('starter'), ('brewer'),
  ('babyface'), ('gregor'), ('dogfood'), ('hardcock'), ('deluxe'), ('bigmike'), ('01011975'), ('blackbir'), ('bookworm'),
  ('hampton'), ('jeffery'), ('salomon'), ('godfathe'), ('meister'), ('seahawks'), ('eagles1'), ('talisman'),
  ('blackjack'), ('eraser'), ('collin'), ('pissing'), ('hawaiian'), ('7779311'), ('michae'), ('berger'), ('alphabet'),
  ('tricia'), ('beautifu'), ('maryann'), ('123456654321'), ('xxx123'), ('really'), ('sally1'), ('mortimer'), ('tongue'),
  ('gator1'), ('century'), ('sancho'), ('remote'), ('darkman'), ('buddie'), ('roadrunn'), ('pizzas'), ('password2'),
  ('medusa'), ('health'), ('stalin'), ('toledo'), ('cubswin'), ('beowulf'), ('charlene'), ('willia'), ('christmas'),
  ('handyman'), ('pacers'), ('unique'), ('eleanor'), ('digital1'), ('missy1'), ('clouds'), ('tiffany1'), ('cgfhnfr'),
  ('breasts'), ('chinook'), ('just4me'), ('01011993'), ('wedding'), ('calgary'), ('dutchess'), ('gfhjkm1'), ('heckfy'),
  ('max123'), ('ludmila'), ('12301230'), ('because'), ('cheater'), ('famous'), ('delphi'), ('wareagle'), ('martine'),
  ('gromit'), ('sponge'), ('ashlee'), ('valkyrie'), ('teddy1'), ('passwd'), ('idontkno'), ('smiths'), ('mohamed'),
  ('teddybea'), ('killers'), ('boxster'), ('dragonball'), ('beast1'), ('babybaby'), ('mermaid'), ('qazwsx1'), ('satana'),
  ('dolphin1'), ('bhbirf'), ('foryou'), ('misty1'), ('nasty1'), ('qazzaq'), ('puddin'), ('inuyasha'), ('stanford'),
  ('peacock'), ('assword'), ('misery'), ('desiree'), ('barnes'), ('sullivan'), ('beamer'), ('diggler'), ('medical'),
  ('1pussy'), ('wishbone'), ('circle'), ('property'), ('ripley'), ('thedude'), ('fisting'), ('austin1'), ('alexia'),
  ('beemer'), ('jayden'), ('gameover'), ('sparky1'), ('redline'), ('venera'), ('linda1'), ('salsero'), ('fuckoff1'),
  ('adam12'), ('fytxrf'), ('kittykat'), ('spanish'), ('sinister'), ('vedder'), ('gonavy'), ('manowar'), ('02021987'),
  ('novell'), ('colonel'), ('rancid'), ('147369'), ('dragon12'), ('chrome'), ('friendly'), ('aa123456'), ('destroy'),
  ('titten'), ('electra'), ('geoffrey'), ('newpass6'), ('bella1'), ('eureka'), ('onetime'), ('katherine'), ('lakota'),
  ('claymore'), ('hotbox'), ('banner'), ('madina'), ('02011985'), ('manuela'), ('bitchass'), ('sporting'), ('bartman'),
  ('matthews'), ('checkers'), ('playing'), ('01011977'), ('02041986'), ('carmel'), ('gabriela'), ('dfcbkbq'), ('nimbus'),
  ('wrestle'), ('02081988'), ('jktymrf'), ('alexalex'), ('preacher'), ('gamecube'), ('02051986'), ('mustafa'),
  ('svoboda'), ('123321a'), ('circus'), ('armagedon'), ('alenka'), ('playstation'), ('z1x2c3v4'), ('02091987'),
  ('12011987'), ('magical'), ('claudi'), ('marine1'), ('rhtdtlrj'), ('thumbs'), ('camper'), ('doitnow'), ('goaway'),
  ('subzero'), ('charity'), ('hootie'), ('pissoff'), ('jammin'), ('blackout'), ('darrell'), ('cocaine'), ('bcfields'),
  ('skylar'), ('rolling'), ('loaded'), ('milkman'), ('davide'), ('bigbutt'), ('electron'), ('johann'), ('devil666'),
  ('12345t'), ('cheeks'), ('silverad'), ('lighter'), ('02021988'), ('hassan'), ('02031986'), ('pothead'), ('oliver1'),
  ('gobucks'), ('123456qw'), ('squall'), ('thunderb'), ('02101985'), ('courage'), ('pippin'), ('ghostrider'), ('antoni'),
  ('kaitlyn'), ('654123'), ('794613'), ('reynolds'), ('cannabis'), ('xerxes'), ('ipswich'), ('ninjas'), ('farley'),
  ('lucille'), ('jimmie'), ('dieter'), ('annika'), ('southpar'), ('marika'), ('jackson5'), ('dickie'), ('jetski'),
  ('finance'), ('tdutybz'), ('dianne'), ('forward'), ('jenkins'), ('bright'), ('absolute'), ('morgan1'), ('musashi'),
  ('ferris'), ('iamgod'), ('lipstick'), ('1234567890a'), ('laurence'), ('02061985'), ('02011987'), ('mandarin'),
  ('baseball1'), ('tottenham'), ('adults'), ('yfnfkmz'), ('kleopatra'), ('tulips'), ('zhuang'), ('dirtbike'), ('111333'),
  ('369963'), ('1236987'), ('1357924680'), ('pickup'), ('dwayne'), ('othello'), ('katherin'), ('12qw12'), ('a11111'),
  ('warner'), ('northern'), ('cinema'), ('cameltoe'), ('petrov'), ('bluefish'), ('pheonix'), ('iscool'), ('secrets'),
  ('02021986'), ('modena'), ('marsha'), ('slippery'), ('kissing'), ('caravan'), ('divorce'), ('beatle'), ('sanfran'),
  ('01011983'), ('1qaz2ws'), ('cheech'), ('000111'), ('badman'), ('02091986'), ('samtron'), ('paloma'), ('dolores'),
  ('qweasd123'), ('shadows'), ('mollydog'), ('annabell'), ('starcraf'), ('ghblehjr'), ('vasilisa'), ('jameson'),
  ('scorpio1'), ('illinois'), ('warning'), ('jockey'), ('deadpool'), ('hillary'), ('bearcat'), ('caprice'), ('farscape'),
  ('bigtit'), ('lassie'), ('sander'), ('sunflower'), ('hopeless'), ('sheriff'), ('carpedie'), ('love12'), ('asdfzxcv'),
  ('sherri'), ('bingo1'), ('slave1'), ('barton'), ('shepherd'), ('02021984'), ('gatorade'), ('keegan'), ('cameron1'),
  ('guitar1'), ('toolman'), ('barker'), ('spectre'), ('pussey'), ('nuggets'), ('borussia'), ('mantis'), ('01011982'),
  ('banzai'), ('ariana'), ('flexible'), ('chloe1'), ('mullet'), ('graphics'), ('fyutkbyf'), ('123qq123'), ('mancity'),
  ('templar'), ('stories'), ('yfcntymrf'), ('02081984'), ('02081987'), ('fergie'), ('records'), ('thedoors'),
  ('7ugd5hip2j'), ('gawker'), ('pussyman'), ('skyler'), ('elizaveta'), ('colton'), ('02061986'), ('moritz'),
  ('strength'), ('cowboy1'), ('susana'), ('sonoma'), ('spinner'), ('keller'), ('webmaste'), ('sifre1'), ('sifre12'),
  ('sifre123'), ('sifre1234'), ('sifre12345'), ('sifre123456'), ('şifre1'), ('şifre12'), ('şifre123'), ('şifre1234'),
  ('şifre12345'), ('sifrem'), ('sifrem1'), ('sifrem123'), ('şifrem'), ('şifrem123'), ('sifresiz'), ('sifreyok'),
  ('şifreyok'), ('yenisifre'), ('yenisifre123'), ('yenişifre'), ('yenişifre123'), ('sifresifre'), ('parola1'),
  ('parola123'), ('parola1234'), ('parolam'), ('gizli123'), ('giris123'), ('giriş123'), ('girisyap'), ('girişyap'),
  ('yonetici'), ('yönetici'), ('yonetici123'), ('yönetici123'), ('kullanici'), ('kullanıcı'), ('kullanici123'),
  ('kullanıcı123'), ('sistem123'), ('admin123'), ('admin1234'), ('admin12345'), ('administrator123'), ('galatasaray'),
  ('galatasaray1'), ('galatasaray123'), ('galatasaray1905'), ('gs1905'), ('gsgsgs'), ('cimbom'), ('cimbom1905'),
  ('cimbombom'), ('aslanlar'), ('ultraslan'), ('fenerbahce'), ('fenerbahce1'), ('fenerbahce123'), ('fenerbahce1907'),
  ('fenerbahçe'), ('fenerbahçe1907'), ('fener1907'), ('fenerbahcem'), ('kanarya'), ('sarılacivert'), ('sarilacivert'),
  ('besiktas'), ('besiktas1'), ('besiktas123'), ('besiktas1903'), ('beşiktaş'), ('beşiktaş1903'), ('bjk1903'),
  ('karakartal'), ('kartal1903'), ('carsi1903'), ('çarşı1903'), ('trabzonspor'), ('trabzonspor61'), ('trabzonspor1967'),
  ('trabzon61'), ('bordomavi'), ('karadeniz'), ('karadeniz61'), ('bursaspor'), ('bursaspor16'), ('goztepe'), ('göztepe'),
  ('sampiyon'), ('şampiyon'), ('sampiyon1905'), ('19031903'), ('19051905'), ('19071907'), ('19671967'), ('ankara'),
  ('ankara06'), ('ankara123'), ('istanbul'), ('istanbul34'), ('istanbul123'), ('izmir35'), ('izmir123'), ('bursa16'),
  ('antalya07'), ('konya42'), ('adana01'), ('adana0101'), ('kayseri38'), ('samsun55'), ('trabzon'), ('hatay31'),
  ('diyarbakir21'), ('eskisehir26'), ('mersin33'), ('gaziantep27'), ('erzurum25'), ('sivas58'), ('kocaeli41'),
  ('türkiye'), ('turkiye'), ('turkiye1'), ('turkiye123'), ('türkiye123'), ('turkiye1923'), ('türkiye1923'), ('turkiyem'),
  ('türkiyem'), ('cumhuriyet'), ('cumhuriyet1923'), ('29ekim1923'), ('19231923'), ('19191919'), ('ataturk'), ('atatürk'),
  ('ataturk1881'), ('atatürk1881'), ('ataturk1938'), ('atatürk1938'), ('mustafakemal'), ('mustafakemal1881'),
  ('ayyildiz'), ('ayyıldız'), ('yildiz'), ('yıldız'), ('yildizim'), ('yıldızım'), ('vatan1923'), ('bayrak1923'),
  ('turkbayragi'), ('türkbayrağı'), ('bismillah'), ('bismillah123'), ('bismillahirrahmanirrahim'), ('allah1'),
  ('allah123'), ('allahuekber'), ('elhamdulillah'), ('elhamdülillah'), ('masallah'), ('maşallah'), ('insallah'),
  ('inşallah'), ('subhanallah'), ('muhammed'), ('muhammed123'), ('mevlana'), ('askim1'), ('askim123'), ('aşkım123'),
  ('askimsin'), ('aşkımsın'), ('seniseviyorum'), ('seviyorum'), ('seviyorum123'), ('sevgilim'), ('sevgilim123'),
  ('canim123'), ('canım123'), ('bebegim'), ('bebeğim'), ('bebegim123'), ('hayatim'), ('hayatım'), ('hayatim123'),
  ('birtanem'), ('birtanem123'), ('kalbim'), ('annem123'), ('annemm'), ('babam123'), ('annebaba'), ('kardesim'),
  ('kardeşim'), ('kardesim123'), ('ailem123'), ('prenses'), ('prenses123'), ('melegim'), ('meleğim'), ('mehmet'),
  ('mehmet123'), ('ahmet123'), ('mustafa123'), ('ayse123'), ('ayşe123'), ('fatma123'), ('emine123'), ('zeynep123'),
  ('elif123'), ('emre123'), ('murat123'), ('ali12345'), ('huseyin'), ('hüseyin'), ('hasan123'), ('ibrahim123'),
  ('yusuf123'), ('ismail123'), ('osman123'), ('omer123'), ('ömer123'), ('hakan123'), ('burak123'), ('serkan123'),
  ('kemal123'), ('merhaba'), ('merhaba123'), ('selam123'), ('selamlar'), ('gunaydin'), ('günaydın'), ('iyigunler'),
  ('hosgeldin'), ('hoşgeldin'), ('deneme'), ('deneme1'), ('deneme123'), ('deneme1234'), ('asdasd123'), ('aaaaaa'),
  ('aaaaaaaa'), ('abcdef'), ('abcdefg'), ('a12345678'), ('123123123'), ('121212'), ('654321'), ('987654321'),
  ('0123456789'), ('00000000'), ('222222'), ('333333'), ('555555'), ('777777'), ('888888'), ('999999');

/** Whether the password, in any letter case, is one of the common passwords. */
create function private.is_common_password(p_password text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select exists (select 1 from private.common_passwords c where c.password = lower(p_password)));
end;
$$;

-- ---------------------------------------------------------------------------------
-- Settings of the defences
-- ---------------------------------------------------------------------------------
create table private.security_settings (
  -- One row: the primary key can only be true.
  id boolean primary key default true check (id),
  -- Failed sign-ins from one client address within the window before it must wait.
  client_failure_limit integer not null default 20 check (client_failure_limit between 1 and 100000),
  client_window interval not null default '15 minutes' check (client_window > interval '0'),
  -- Failed sign-ins from all addresses together within the window (a spoofed or rotating
  -- address cannot burn the database's CPU with bcrypt beyond this).
  global_failure_limit integer not null default 1000 check (global_failure_limit between 1 and 10000000),
  global_window interval not null default '1 minute' check (global_window > interval '0'),
  -- Retention of sign-in records.
  login_attempts_retention interval not null default '180 days' check (login_attempts_retention >= interval '1 day'),
  login_throttles_retention interval not null default '1 day' check (login_throttles_retention >= interval '1 hour'),
  -- Live request-forgery tokens a user may hold (older ones are dropped first).
  request_tokens_per_user integer not null default 20 check (request_tokens_per_user between 1 and 1000),
  -- Right-password sign-ins of one account within the window before it must wait: through
  -- the login RPC (two bcrypt runs each) and straight to Auth (one; the app's own Auth
  -- sign-in after the login RPC is not counted twice). The login RPC and the local stack's
  -- direct Auth route both answer it. A person never signs in 120 times in 5 minutes (one
  -- every 2.5 seconds; the end-to-end suite and the bench stay under it too).
  account_success_limit integer not null default 120 check (account_success_limit between 1 and 100000),
  account_success_window interval not null default '5 minutes' check (account_success_window > interval '0'),
  -- The Auth session methods (the JWT's amr) that may work in an organization. A later
  -- issue may add a code method (recovery, otp); such a session then passes the lock and
  -- is logged as a sign-in when it binds.
  session_sign_in_methods text[] not null default '{password}'
    check (session_sign_in_methods <@ array['password', 'otp', 'magiclink', 'recovery', 'email/signup', 'invite']),
  updated_at timestamptz not null default now()
);

insert into private.security_settings default values;

alter table private.security_settings enable row level security;

comment on table private.security_settings is 'One row: sign-in throttle limits and retention of sign-in records.';

/** The one row of private.security_settings. */
create function private.security_settings()
returns private.security_settings
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  settings private.security_settings;
begin
  select * into settings from private.security_settings;
  return settings;
end;
$$;

-- ---------------------------------------------------------------------------------
-- Who is asking: the client address
-- ---------------------------------------------------------------------------------
create index login_attempts_client_failures_idx on private.login_attempts (client_address, created_at desc)
  where not success and failure_reason <> 'throttled';

create index login_attempts_failures_idx on private.login_attempts (created_at desc)
  where not success and failure_reason <> 'throttled';

create index login_attempts_created_at_idx on private.login_attempts (created_at);

/**
 * The client's address as the API gateway saw it: Cloudflare's cf-connecting-ip on hosted
 * Supabase (a client cannot set it), else the LAST X-Forwarded-For entry, the one the
 * nearest proxy appended (Kong and nginx append the peer's address to what the client
 * sent; the local stack's front writes the header itself, from the socket or a trusted
 * proxy). The first entry is whatever the client wrote and is never taken. Null when
 * unknown or not an address.
 */
create function private.client_address()
returns inet
language plpgsql
stable
set search_path = ''
as $$
declare
  headers jsonb;
  forwarded text[];
begin
  headers := nullif(current_setting('request.headers', true), '')::jsonb;
  forwarded := string_to_array(headers ->> 'x-forwarded-for', ',');
  return nullif(btrim(coalesce(headers ->> 'cf-connecting-ip',
                               forwarded[cardinality(forwarded)])), '')::inet;
exception when others then
  return null;
end;
$$;

/**
 * The throttle in front of every anonymous sign-in step: null while the address (and
 * everyone together) stays under the failure limits of private.security_settings,
 * otherwise the answer to give at once, before any bcrypt work. The wait ends when the
 * oldest of the counted failures leaves its window.
 */
create function private.login_throttle(p_address inet)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  settings private.security_settings := private.security_settings();
  counted integer;
  oldest timestamptz;
  wait_until timestamptz;
begin
  if p_address is not null then
    select count(*), min(recent.created_at) into counted, oldest
      from (select a.created_at from private.login_attempts a
             where a.client_address = p_address and not a.success and a.failure_reason <> 'throttled'
               and a.created_at > now() - settings.client_window
             order by a.created_at desc
             limit settings.client_failure_limit) recent;
    if counted >= settings.client_failure_limit then
      wait_until := oldest + settings.client_window;
    end if;
  end if;
  if wait_until is null then
    select count(*), min(recent.created_at) into counted, oldest
      from (select a.created_at from private.login_attempts a
             where not a.success and a.failure_reason <> 'throttled'
               and a.created_at > now() - settings.global_window
             order by a.created_at desc
             limit settings.global_failure_limit) recent;
    if counted >= settings.global_failure_limit then
      wait_until := oldest + settings.global_window;
    end if;
  end if;
  if wait_until is null then
    return null;
  end if;
  return private.failure(
    format('Too many sign-in attempts. Please wait %s minutes and try again.', private.minutes_left(wait_until)),
    'too_many_attempts',
    jsonb_build_object('retry_after_seconds', greatest(1, ceil(extract(epoch from wait_until - clock_timestamp())))::integer));
end;
$$;

/** The lock answer for an account under a lock (the administrator's first), else null. */
create function private.lock_problem(p_user_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return (select case
            when p.locked_by_admin and p.locked_until > now() then private.failure('Account is locked by administrator', 'admin_locked')
            when p.locked_until > now() then private.locked_answer(p.locked_until)
          end
            from private.profiles p
           where p.id = p_user_id);
end;
$$;

/**
 * Does the password match the bcrypt hash? Compares against a dummy hash when there is
 * none, so the answer takes as long either way. GoTrue writes $2b$ hashes (e.g. after a
 * password change); pgcrypto reads only $2a$, the same algorithm under an older name.
 */
create function private.password_matches(p_hash text, p_password text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  dummy_hash constant text := '$2a$10$uo9IqxWIHP.fppZKsjh7HuP9SAwuBcC7C1H3ZhATFdDfKttbecfv2';
  usable_hash text := case when p_hash ~ '^\$2[aby]\$' then regexp_replace(p_hash, '^\$2[by]\$', '$2a$') end;
begin
  return coalesce(extensions.crypt(coalesce(p_password, ''), coalesce(usable_hash, dummy_hash)) = usable_hash, false);
end;
$$;

/** Spec section 5's minimum and bcrypt's 72-byte limit (every path); null when fine. */
create function private.check_password_length(p_password text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when char_length(coalesce(p_password, '')) < 6 then private.failure('Şifre en az 6 karakter olmalı', 'password_too_short')
    when octet_length(p_password) > 72 then private.failure('Şifre en fazla 72 bayt olabilir', 'password_too_long')
  end;
$$;

/**
 * What the Auth password check decides for an account (hosted: the hook; local stack:
 * the front, after lite answered): the same lock rule as secure_login_prepare_auth.
 * A right password ends an expired lock and the failure count; a wrong one counts.
 * Returns {decision: continue|reject, message, should_logout_user}.
 */
create function private.password_check_decision(p_user_id uuid, p_valid boolean, p_source text,
                                                p_client_address inet default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account private.profiles;
  valid boolean := coalesce(p_valid, false);
  reject_with constant jsonb := '{"decision": "reject", "should_logout_user": true}';
begin
  select * into account from private.profiles where id = p_user_id for update;
  if not found then
    return jsonb_build_object('decision', 'continue');
  end if;
  -- As in secure_login_prepare_auth: an admin lock or a disabled account is told only to
  -- the right password; a wrong one is left to Auth's own "invalid credentials".
  if account.locked_by_admin and account.locked_until > now() then
    perform private.log_login_attempt(account.email, account.id,
                                      case when valid then 'admin_locked' else 'invalid_credentials' end,
                                      p_source, p_client_address);
    if not valid then
      return jsonb_build_object('decision', 'continue');
    end if;
    return reject_with || jsonb_build_object('message', 'Account is locked by administrator');
  end if;
  if valid and not account.is_active then
    perform private.log_login_attempt(account.email, account.id, 'account_disabled', p_source, p_client_address);
    return reject_with || jsonb_build_object('message', 'User not found');
  end if;
  if account.locked_until > now() then
    perform private.log_login_attempt(account.email, account.id, 'account_locked', p_source, p_client_address);
    return reject_with || jsonb_build_object('message', private.locked_answer(account.locked_until) ->> 'error');
  end if;
  if valid then
    update private.profiles set failed_login_attempts = 0, locked_until = null, locked_by_admin = false
     where id = account.id and (failed_login_attempts > 0 or locked_until is not null);
    return jsonb_build_object('decision', 'continue');
  end if;

  account := private.count_password_failure(account.id);
  perform private.log_login_attempt(account.email, account.id, 'invalid_credentials', p_source, p_client_address);
  if account.locked_until is not null then
    return reject_with || jsonb_build_object('message', private.locked_answer(account.locked_until) ->> 'error');
  end if;
  return jsonb_build_object('decision', 'continue');
end;
$$;

/**
 * The local stack's stand-in for the hook (lite runs none): its front reports each
 * password sign-in Auth answered, with the client's address. An unknown email is counted
 * in its shadow count and answers like a real account (the lock's message from the fifth
 * failure); a rejection ends the account's sessions, as should_logout_user does on
 * hosted Supabase; a success that did not follow the login RPC (no live login proof to
 * take) is logged as a sign-in. Called by the stack only.
 */
create function private.auth_password_attempt(p_email text, p_valid boolean, p_client_address inet)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  login_email text := private.normalize_email(p_email);
  account_id uuid;
  decision jsonb;
  answer jsonb;
begin
  select p.id into account_id from private.profiles p where p.email = login_email;
  if account_id is null then
    if p_valid then
      -- An Auth user without a profile: not the product's account; logged as it was.
      perform private.log_login_attempt(login_email, null, null, 'auth', p_client_address);
      return jsonb_build_object('decision', 'continue');
    end if;
    answer := private.count_shadow_failure(coalesce(login_email, ''), null, 'auth', p_client_address);
    if answer ->> 'code' = 'account_locked' then
      return jsonb_build_object('decision', 'reject', 'should_logout_user', true, 'message', answer ->> 'error');
    end if;
    return jsonb_build_object('decision', 'continue');
  end if;
  decision := private.password_check_decision(account_id, p_valid, 'auth', p_client_address);
  if decision ->> 'decision' = 'reject' then
    perform private.end_sessions(account_id);
  elsif p_valid then
    -- The app's sign-in follows the login RPC, whose success is logged with a login proof:
    -- Auth's success takes that proof. Any other direct sign-in is logged here, so it shows
    -- in the account's sign-in log.
    update private.login_proofs set used_at = now()
     where user_id = account_id and used_at is null and expires_at > now();
    if not found then
      perform private.log_login_attempt(login_email, account_id, null, 'auth', p_client_address);
    end if;
  end if;
  return decision;
end;
$$;

/**
 * The caller changes their own password. The current one is checked here (a wrong one
 * counts toward the lockout like a failed sign-in); the new one keeps the password rules
 * and differs from it. The caller's other sessions end; the change is audited.
 */
create function public.change_my_password(p_current_password text, p_new_password text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('live_session');
  caller uuid := context.user_id;
  session uuid := context.session_id;
  account private.profiles;
  problem jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  -- A disabled account answers as no session; a lock answers as a lock (below).
  select * into account from private.profiles where id = caller;
  if not found or not account.is_active then
    return private.refusal('authentication_required');
  end if;
  -- Counted one after another with the sign-ins of the same email.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('login:' || account.email, 0));
  problem := private.lock_problem(caller);
  if problem is not null then
    return problem;
  end if;

  if octet_length(coalesce(p_current_password, '')) > 72
     or not private.password_matches((select u.encrypted_password from auth.users u where u.id = caller),
                                     p_current_password) then
    account := private.count_password_failure(caller);
    perform private.log_login_attempt(account.email, caller, 'invalid_credentials', 'password_change');
    if account.locked_until is not null then
      return private.locked_answer(account.locked_until);
    end if;
    return private.failure('Mevcut şifre hatalı', 'invalid_credentials');
  end if;
  problem := private.check_password(p_new_password);
  if problem is not null then
    return problem;
  end if;
  if p_new_password = p_current_password then
    return private.failure('Yeni şifre mevcut şifreden farklı olmalı', 'password_same');
  end if;

  perform private.repair_auth_user(caller, p_new_password);
  delete from auth.sessions s where s.user_id = caller and s.id <> session;
  update private.profiles set failed_login_attempts = 0, updated_at = now() where id = caller;
  perform private.write_user_audit(caller, 'user.password_changed');
  return jsonb_build_object('success', true, 'message', 'Şifre değiştirildi');
end;
$$;
revoke all on function public.change_my_password(p_current_password text, p_new_password text) from public, anon, authenticated;
grant execute on function public.change_my_password(p_current_password text, p_new_password text) to authenticated;

-- ---------------------------------------------------------------------------------
-- Retention
-- ---------------------------------------------------------------------------------
/** Keeps the shadow lock counters' last change, so stale ones can be pruned. */
create function private.touch_login_throttle()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create trigger login_throttles_touch
  before update of failed_attempts, locked_until on private.login_throttles
  for each row execute function private.touch_login_throttle();

/**
 * Drops request-forgery tokens that have expired and, per user, all but the newest
 * request_tokens_per_user (one user's, or everyone's when p_user_id is null).
 */
create function private.prune_request_tokens(p_user_id uuid default null)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  keep integer := (private.security_settings()).request_tokens_per_user;
  pruned integer;
begin
  delete from private.request_tokens t
   where (p_user_id is null or t.user_id = p_user_id)
     and (t.expires_at < now()
          or t.token_hash in (select ranked.token_hash
                                from (select r.token_hash,
                                             row_number() over (partition by r.user_id order by r.expires_at desc) as position
                                        from private.request_tokens r
                                       where p_user_id is null or r.user_id = p_user_id) ranked
                               where ranked.position > keep));
  get diagnostics pruned = row_count;
  return pruned;
end;
$$;

/**
 * The periodic clean-up (pg_cron on hosted Supabase, a timer on the local stack): sign-in
 * log entries older than their retention, shadow lock counters no longer locked and
 * untouched for a day, expired or surplus request tokens, used or expired login proofs,
 * and notifications read and older than 90 days. Returns how many rows each lost.
 */
create function private.run_maintenance()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.security_settings := private.security_settings();
  attempts integer;
  throttles integer;
  proofs integer;
  notifications integer;
begin
  delete from private.login_attempts a where a.created_at < now() - settings.login_attempts_retention;
  get diagnostics attempts = row_count;
  delete from private.login_throttles t
   where t.updated_at < now() - settings.login_throttles_retention
     and (t.locked_until is null or t.locked_until < now());
  get diagnostics throttles = row_count;
  delete from private.login_proofs p where p.expires_at < now() or p.used_at is not null;
  get diagnostics proofs = row_count;
  delete from private.notifications n where n.read_at is not null and n.created_at < now() - interval '90 days';
  get diagnostics notifications = row_count;
  return jsonb_build_object('login_attempts', attempts, 'login_throttles', throttles,
                            'request_tokens', private.prune_request_tokens(), 'login_proofs', proofs,
                            'notifications', notifications);
end;
$$;

-- Hourly, at minute 17 (private.scheduled_jobs).
insert into private.scheduled_jobs (name, schedule, function_name)
values ('crm-maintenance', '17 * * * *', 'run_maintenance');

create index login_attempts_user_successes_idx on private.login_attempts (user_id, created_at desc)
  where success;

create unique index login_proofs_user_id_key on private.login_proofs (user_id);

/** One row of the sign-in log, with the client's address and the session's sign-in method when known. */
create function private.log_login_attempt(p_email text, p_user_id uuid, p_failure_reason text,
                                          p_source text default 'login',
                                          p_client_address inet default private.client_address(),
                                          p_method text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.login_attempts (email, user_id, success, failure_reason, source, client_address, method)
  values (left(coalesce(p_email, ''), 320), p_user_id, p_failure_reason is null, p_failure_reason, p_source,
          p_client_address, left(p_method, 40));
end;
$$;

/**
 * How the request's Auth session was signed in, from the JWT's amr claim (signed by
 * Auth): 'password' when any entry names password, else the first method named
 * ('unknown' for an empty or unreadable list). A token without amr (the local stack's
 * lite, which signs in by password only and writes no amr; tokens of the tests) counts
 * as password. Null without a session.
 */
create function private.session_sign_in_method()
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  claims jsonb;
  amr jsonb;
begin
  claims := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  if claims is null or claims ->> 'session_id' is null then
    return null;
  end if;
  amr := claims -> 'amr';
  if amr is null or jsonb_typeof(amr) = 'null' then
    return 'password';
  end if;
  if jsonb_typeof(amr) <> 'array' or jsonb_array_length(amr) = 0 then
    return 'unknown';
  end if;
  if exists (select 1 from jsonb_array_elements(amr) e
              where (jsonb_typeof(e) = 'object' and e ->> 'method' = 'password')
                 or (jsonb_typeof(e) = 'string' and e #>> '{}' = 'password')) then
    return 'password';
  end if;
  return coalesce(left(case jsonb_typeof(amr -> 0) when 'object' then amr -> 0 ->> 'method'
                                                   when 'string' then amr ->> 0 end, 40), 'unknown');
exception when others then
  return 'unknown';
end;
$$;

/**
 * True unless the request's session was signed in by a method that may not work in an
 * organization: no session or a password session always may (without reading the
 * settings: this runs in every session check); a code method only when listed in
 * security_settings.session_sign_in_methods.
 */
create function private.session_method_allowed()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select case when signed_in.method is null or signed_in.method = 'password' then true
                else signed_in.method = any ((private.security_settings()).session_sign_in_methods) end
      from (select private.session_sign_in_method() as method) signed_in);
end;
$$;

/**
 * Refuses a change of auth.users.encrypted_password unless the product's own password
 * code (private.repair_auth_user: change_my_password, simple_reset_password, the login
 * repairs) marked this very account for this transaction first. Auth's own password
 * change (PUT /auth/v1/user, which asks no current password) is refused here, on hosted
 * Supabase as locally. Other columns (Auth's sign-in times, tokens) are untouched.
 */
create function private.guard_auth_password()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.encrypted_password is distinct from old.encrypted_password
     and coalesce(current_setting('crm.password_write_for', true), '') <> new.id::text then
    raise exception 'password changes go through change_my_password'
      using errcode = 'insufficient_privilege', hint = 'Use the change_my_password RPC.';
  end if;
  return new;
end;
$$;

create trigger guard_password_change
  before update of encrypted_password on auth.users
  for each row execute function private.guard_auth_password();

/**
 * Records, in every organization the target belongs to, that an admin was refused acting
 * on them (user.access_refused: the attempted action, the refusal's code, the actor's
 * organization). The attempted action is the outermost public RPC on the call stack.
 * Skipped silently where nothing may be written (a read-only transaction).
 */
create function private.record_refused_access(p_target uuid, p_code text, p_actor_organization uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  stack text;
  attempted text;
begin
  get diagnostics stack = pg_context;
  select m[1] into attempted
    from regexp_matches(stack, 'function public\.([a-z0-9_]+)\(', 'g') with ordinality as found (m, position)
   order by position desc limit 1;
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  select m.organization_id, auth.uid(), 'user.access_refused', 'user', p_target::text,
         jsonb_build_object('attempted_action', coalesce(attempted, 'unknown'), 'code', p_code,
                            'actor_organization_id', p_actor_organization)
    from private.memberships m
   where m.user_id = p_target;
exception when read_only_sql_transaction then
  null;
end;
$$;

/**
 * A failed password for an email without a usable account (or one under an admin
 * lock): counted like a real account's failures, in login_throttles, so that it answers
 * exactly like a real account (the same messages after the same number of tries).
 * p_logged_reason 'throttled' logs a try answered without any password check.
 */
create function private.count_shadow_failure(p_email text, p_user_id uuid, p_source text default 'login',
                                             p_client_address inet default private.client_address(),
                                             p_logged_reason text default 'invalid_credentials')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  throttle private.login_throttles;
  policy record := private.lockout_policy();
begin
  insert into private.login_throttles (email) values (p_email) on conflict (email) do nothing;
  select * into throttle from private.login_throttles where email = p_email for update;
  if throttle.locked_until > now() then
    perform private.log_login_attempt(p_email, p_user_id, 'account_locked', p_source, p_client_address);
    return private.locked_answer(throttle.locked_until);
  end if;

  update private.login_throttles
     set failed_attempts = case when locked_until is null then failed_attempts + 1 else 1 end,
         locked_until = case when (case when locked_until is null then failed_attempts + 1 else 1 end) >= policy.max_failures
                             then now() + policy.lock_duration end
   where email = p_email
  returning * into throttle;
  perform private.log_login_attempt(p_email, p_user_id, p_logged_reason, p_source, p_client_address);
  if throttle.locked_until is not null then
    return private.locked_answer(throttle.locked_until);
  end if;
  return private.failure('Invalid login credentials', 'invalid_credentials');
end;
$$;

/**
 * The rate of right-password sign-ins of one account, through the login RPC (two bcrypt
 * runs each) and straight to Auth on the local stack (one; logged as source auth only when
 * it did not follow the login RPC): null while under security_settings.account_success_limit
 * within its window, otherwise the too-many-attempts answer. Only someone who knows the
 * password can raise it. Hosted, direct Auth sign-ins also meet Auth's own per-address limit
 * ([auth.rate_limit] sign_in_sign_ups).
 */
create function private.account_sign_in_throttle(p_user_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  settings private.security_settings := private.security_settings();
  counted integer;
  oldest timestamptz;
  wait_until timestamptz;
begin
  select count(*), min(recent.created_at) into counted, oldest
    from (select a.created_at from private.login_attempts a
           where a.user_id = p_user_id and a.success and a.source in ('login', 'auth')
             and a.created_at > now() - settings.account_success_window
           order by a.created_at desc
           limit settings.account_success_limit) recent;
  if counted < settings.account_success_limit then
    return null;
  end if;
  wait_until := oldest + settings.account_success_window;
  return private.failure(
    format('Too many sign-in attempts. Please wait %s minutes and try again.', private.minutes_left(wait_until)),
    'too_many_attempts',
    jsonb_build_object('retry_after_seconds', greatest(1, ceil(extract(epoch from wait_until - clock_timestamp())))::integer));
end;
$$;

/**
 * The answer a running lock gives whatever the password, or null: the shadow lock of the
 * email (an unknown email, or an admin-locked account guessed at), or an account's
 * temporary lock. No bcrypt is spent on such a try. (An administrator's lock is told only
 * to the right password, so it needs the check.)
 */
create function private.password_free_lock(p_email text, p_account private.profiles)
returns timestamptz
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select case
      when (p_account.id is null or (p_account.locked_by_admin and p_account.locked_until > now()))
           then (select t.locked_until from private.login_throttles t where t.email = p_email and t.locked_until > now())
      when not p_account.locked_by_admin and p_account.locked_until > now() then p_account.locked_until
    end);
end;
$$;

/**
 * The local stack's front asks this before a direct Auth password sign-in reaches Auth
 * (the same decision as secure_login_prepare_auth). Returns {gate: 'open'} to let Auth
 * check the password, or {gate: 'answered', status, message} to answer at once:
 * 429 for a known account over its rate of right-password sign-ins; 400 with the lock's
 * message while a lock answers whatever the password (no bcrypt); for an unknown email
 * over the failure limits, the wrong-password answer (counted in its shadow count, no
 * bcrypt). An unknown email under the limits costs the same bcrypt as a real account, so
 * the answer takes as long. Called by the stack only.
 */
create function private.auth_sign_in_gate(p_email text, p_password text, p_client_address inet)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  login_email text := private.normalize_email(p_email);
  account private.profiles;
  answer jsonb;
  lock_ends timestamptz;
  open constant jsonb := '{"gate": "open"}';
begin
  if login_email is null or char_length(login_email) > 320 then
    return open;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('login:' || login_email, 0));
  select p.* into account from private.profiles p where p.email = login_email;
  if account.id is null then
    if private.login_throttle(p_client_address) is not null then
      answer := private.count_shadow_failure(login_email, null, 'auth', p_client_address, 'throttled');
      return jsonb_build_object('gate', 'answered', 'status', 400, 'message', answer ->> 'error');
    end if;
  else
    answer := private.account_sign_in_throttle(account.id);
    if answer is not null then
      perform private.log_login_attempt(login_email, account.id, 'throttled', 'auth', p_client_address);
      return jsonb_build_object('gate', 'answered', 'status', 429, 'message', answer ->> 'error',
                                'retry_after_seconds', answer -> 'retry_after_seconds');
    end if;
  end if;
  lock_ends := private.password_free_lock(login_email, account);
  if lock_ends is not null then
    perform private.log_login_attempt(login_email, account.id, 'account_locked', 'auth', p_client_address);
    return jsonb_build_object('gate', 'answered', 'status', 400, 'message', private.locked_answer(lock_ends) ->> 'error');
  end if;
  if account.id is null then
    -- Auth answers an unknown email without bcrypt; the same work here hides which it was.
    perform private.password_matches(null, p_password);
  end if;
  return open;
end;
$$;

/** The answer of a privileged RPC called without a live request token of the caller's session. */
create function private.invalid_request_token()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select private.failure('Invalid request token', 'invalid_request_token');
$$;

/**
 * Spec section 5: creates a user with an Auth account and a membership in the named
 * organization. Only with a live request token of the caller's session (admin-users).
 */
create function public.create_user_secure(p_email text, p_password text, p_organization_id uuid,
                                          p_first_name text default null, p_last_name text default null,
                                          p_role text default 'user')
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.create_user_secure(p_email, p_password, p_organization_id, p_first_name, p_last_name, p_role);
end;
$$;
revoke all on function public.create_user_secure(p_email text, p_password text, p_organization_id uuid, p_first_name text, p_last_name text, p_role text) from public, anon, authenticated;
grant execute on function public.create_user_secure(p_email text, p_password text, p_organization_id uuid, p_first_name text, p_last_name text, p_role text) to authenticated;

/**
 * Updates a user: first_name, last_name, email, role (organization role) and is_active
 * (membership in the organization); old and new values go to the audit log. Only with a
 * live request token of the caller's session (admin-users).
 */
create function public.update_user_secure(p_user_id uuid, p_user_data jsonb, p_organization_slug text default null)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.update_user_secure(p_user_id, p_user_data, p_organization_slug);
end;
$$;
revoke all on function public.update_user_secure(p_user_id uuid, p_user_data jsonb, p_organization_slug text) from public, anon, authenticated;
grant execute on function public.update_user_secure(p_user_id uuid, p_user_data jsonb, p_organization_slug text) to authenticated;

/**
 * Spec section 5: deletes a user (or only their membership when they belong elsewhere too).
 * Only with a live request token of the caller's session (admin-users).
 */
create function public.delete_user_secure(p_user_id uuid, p_organization_id uuid default null)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.delete_user_secure(p_user_id, p_organization_id);
end;
$$;
revoke all on function public.delete_user_secure(p_user_id uuid, p_organization_id uuid) from public, anon, authenticated;
grant execute on function public.delete_user_secure(p_user_id uuid, p_organization_id uuid) to authenticated;

/**
 * An administrator's lock of the account: one year; the user's sessions end now. Only with
 * a live request token of the caller's session (admin-users).
 */
create function public.lock_user_secure(p_user_id uuid)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.lock_user_secure(p_user_id);
end;
$$;
revoke all on function public.lock_user_secure(p_user_id uuid) from public, anon, authenticated;
grant execute on function public.lock_user_secure(p_user_id uuid) to authenticated;

/**
 * Ends any lock of the account and clears the failure count. Only with a live request token
 * of the caller's session (admin-users).
 */
create function public.unlock_user_secure(p_user_id uuid)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.unlock_user_secure(p_user_id);
end;
$$;
revoke all on function public.unlock_user_secure(p_user_id uuid) from public, anon, authenticated;
grant execute on function public.unlock_user_secure(p_user_id uuid) to authenticated;

/**
 * An admin sets a user's password (the account as a whole); the user's sessions end. Only
 * with a live request token of the caller's session (admin-users).
 */
create function public.simple_reset_password(p_user_id uuid, p_new_password text)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.simple_reset_password(p_user_id, p_new_password);
end;
$$;
revoke all on function public.simple_reset_password(p_user_id uuid, p_new_password text) from public, anon, authenticated;
grant execute on function public.simple_reset_password(p_user_id uuid, p_new_password text) to authenticated;

/**
 * What a member owns of each transfer kind, plus the detail per table. Only with a live
 * request token of the caller's session (admin-transfer).
 */
create function public.analyze_user_records(target_user_id uuid, organization_slug text default null)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.analyze_user_records(target_user_id, organization_slug);
end;
$$;
revoke all on function public.analyze_user_records(target_user_id uuid, organization_slug text) from public, anon, authenticated;
grant execute on function public.analyze_user_records(target_user_id uuid, organization_slug text) to authenticated;

/**
 * Active members who can receive records, without the one giving them. Only with a live
 * request token of the caller's session (admin-transfer).
 */
create function public.get_users_for_transfer(organization_slug text default null, exclude_user_id uuid default null)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.get_users_for_transfer(organization_slug, exclude_user_id);
end;
$$;
revoke all on function public.get_users_for_transfer(organization_slug text, exclude_user_id uuid) from public, anon, authenticated;
grant execute on function public.get_users_for_transfer(organization_slug text, exclude_user_id uuid) to authenticated;

/**
 * Moves the chosen kinds of records from one member to another, all or nothing (no kinds:
 * the kinds on by default, deals, customers and tasks). Only with a live request token of
 * the caller's session (admin-transfer).
 */
create function public.transfer_user_records(
  from_user_id uuid, to_user_id uuid, organization_slug text default null, kinds text[] default null)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.transfer_user_records(from_user_id, to_user_id, organization_slug, kinds);
end;
$$;
revoke all on function public.transfer_user_records(from_user_id uuid, to_user_id uuid, organization_slug text, kinds text[]) from public, anon, authenticated;
grant execute on function public.transfer_user_records(from_user_id uuid, to_user_id uuid, organization_slug text, kinds text[]) to authenticated;
