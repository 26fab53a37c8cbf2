-- Sign-in (spec sections 4, 7, 9): the password check before Auth, lockout, the login
-- log, repairs of an Auth user, the Auth password-verification hook; and the session's
-- organization, bound once per Auth session (DESIGN.md D5).

-- Lock state for emails that have no usable account, so that an unknown email answers
-- exactly like a real one (the same messages after the same number of tries).
create table private.login_throttles (
  email text primary key check (char_length(email) <= 320),
  failed_attempts integer not null default 0,
  locked_until timestamptz
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
language sql
volatile
set search_path = ''
as $$
  select greatest(1, ceil(extract(epoch from p_until - clock_timestamp()) / 60)::integer);
$$;

create function private.locked_answer(p_until timestamptz)
returns jsonb
language sql
volatile
set search_path = ''
as $$
  select private.failure(format('Account is locked for %s minutes', private.minutes_left(p_until)),
                         'account_locked', jsonb_build_object('locked_minutes', private.minutes_left(p_until)));
$$;

create function private.log_login_attempt(p_email text, p_user_id uuid, p_failure_reason text,
                                          p_source text default 'login')
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.login_attempts (email, user_id, success, failure_reason, source)
  values (left(p_email, 320), p_user_id, p_failure_reason is null, p_failure_reason, p_source);
$$;

/**
 * A failed password for an email without a usable account (or one under an admin
 * lock): counted like a real account's failures, in login_throttles.
 */
create function private.count_shadow_failure(p_email text, p_user_id uuid)
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
    perform private.log_login_attempt(p_email, p_user_id, 'account_locked');
    return private.locked_answer(throttle.locked_until);
  end if;

  update private.login_throttles
     set failed_attempts = case when locked_until is null then failed_attempts + 1 else 1 end,
         locked_until = case when (case when locked_until is null then failed_attempts + 1 else 1 end) >= policy.max_failures
                             then now() + policy.lock_duration end
   where email = p_email
  returning * into throttle;
  perform private.log_login_attempt(p_email, p_user_id, 'invalid_credentials');
  if throttle.locked_until is not null then
    return private.locked_answer(throttle.locked_until);
  end if;
  return private.failure('Invalid login credentials', 'invalid_credentials');
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
language sql
stable
security definer
set search_path = ''
as $$
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
   order by offered.offered_since, offered.name, offered.id;
$$;

/**
 * The login flow's first step (spec section 7): verifies the password in the database,
 * applies the lockout (5 failures lock for 30 minutes; an admin lock lasts 365 days),
 * logs the attempt and names the organization to sign in to. An unknown email and a
 * wrong password get the same answer after the same bcrypt work.
 */
create function public.secure_login_prepare_auth(p_email text, p_password text, p_organization_slug text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  login_email text := private.normalize_email(p_email);
  account private.profiles;
  stored_hash text;
  password_ok boolean;
  organization record;
  -- A bcrypt hash of a random string: compared against when there is no account, so
  -- the answer takes as long as for a real one.
  dummy_hash constant text := '$2a$10$uo9IqxWIHP.fppZKsjh7HuP9SAwuBcC7C1H3ZhATFdDfKttbecfv2';
begin
  if login_email is null or coalesce(p_password, '') = ''
     or char_length(login_email) > 320 or octet_length(p_password) > 1024 then
    return private.failure('Invalid login credentials', 'invalid_credentials');
  end if;

  -- One attempt per email at a time: concurrent tries are counted one after another.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('login:' || login_email, 0));

  select p.* into account from private.profiles p where p.email = login_email for update;
  if found then
    select u.encrypted_password into stored_hash from auth.users u where u.id = account.id;
  end if;
  if stored_hash is null or stored_hash !~ '^\$2[aby]\$' then
    stored_hash := null;
  end if;
  -- GoTrue writes $2b$ hashes (e.g. after a password change); pgcrypto reads only $2a$,
  -- which is the same algorithm under an older name.
  stored_hash := regexp_replace(stored_hash, '^\$2[by]\$', '$2a$');
  password_ok := extensions.crypt(p_password, coalesce(stored_hash, dummy_hash)) = stored_hash;
  password_ok := coalesce(password_ok, false);

  if account.id is null then
    return private.count_shadow_failure(login_email, null);
  end if;

  -- Admin lock: told only to someone who knows the password; other tries count as if
  -- the account did not exist, so the lock cannot be probed.
  if account.locked_by_admin and account.locked_until > now() then
    -- While the shadow count has locked the email, even the right password gets that
    -- lock's answer: guessing on gains nothing.
    if password_ok and not exists (select 1 from private.login_throttles t
                                    where t.email = login_email and t.locked_until > now()) then
      perform private.log_login_attempt(login_email, account.id, 'admin_locked');
      return private.failure('Account is locked by administrator', 'admin_locked');
    end if;
    return private.count_shadow_failure(login_email, account.id);
  end if;

  -- Temporary lock: the same answer whatever the password, so it cannot be guessed.
  if account.locked_until > now() then
    perform private.log_login_attempt(login_email, account.id, 'account_locked');
    return private.locked_answer(account.locked_until);
  end if;

  if not password_ok then
    account := private.count_password_failure(account.id);
    perform private.log_login_attempt(login_email, account.id, 'invalid_credentials');
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
    perform private.log_login_attempt(login_email, account.id, 'account_disabled');
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
    perform private.log_login_attempt(login_email, account.id, 'no_organization');
    return private.failure(format('User not found: Unable to determine organization for %s', login_email),
                           'no_organization');
  end if;

  delete from private.login_proofs where user_id = account.id and expires_at < now();
  insert into private.login_proofs (user_id, password_hash, expires_at)
  values (account.id, extensions.crypt(p_password, extensions.gen_salt('bf', 6)), now() + interval '1 minute');
  perform private.log_login_attempt(login_email, account.id, null);

  return jsonb_build_object(
    'success', true,
    'message', 'Authentication prepared',
    'user', private.user_json(account.id),
    'organization', jsonb_build_object('id', organization.id, 'slug', organization.slug, 'name', organization.name,
                                       'role', organization.role, 'table_prefix_timestamp', organization.table_prefix_timestamp),
    'organizations', (select coalesce(jsonb_agg(to_jsonb(a)), '[]') from private.available_organizations(account.id) a));
end;
$$;

/**
 * Who may repair or set an account's Auth password: an admin of an organization the
 * account belongs to (their session's), a super admin, or the login flow that has just
 * proven this very password (a login proof less than a minute old).
 */
create function private.may_set_auth_password(p_user_id uuid, p_password text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  target_organization uuid := private.current_organization_id();
begin
  if caller is not null and caller <> p_user_id and (
       private.is_super_admin(caller)
       or (private.is_admin_of(caller, target_organization)
           and exists (select 1 from private.memberships m
                        where m.user_id = p_user_id and m.organization_id = target_organization))) then
    return not private.is_super_admin(p_user_id) or private.is_super_admin(caller);
  end if;
  update private.login_proofs
     set used_at = now()
   where id = (select lp.id from private.login_proofs lp
                where lp.user_id = p_user_id and lp.used_at is null and lp.expires_at > now()
                  and extensions.crypt(p_password, lp.password_hash) = lp.password_hash
                order by lp.expires_at desc limit 1);
  return found;
end;
$$;

/**
 * Makes an account's Auth user complete and sign-in ready: the password hash in the
 * format Auth and pgcrypto share, a confirmed email, no NULL token columns (GoTrue
 * cannot read them) and an email identity.
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
  insert into auth.identities (id, provider, provider_id, user_id, identity_data, created_at, updated_at)
  select gen_random_uuid(), 'email', account.id::text, account.id,
         jsonb_build_object('sub', account.id::text, 'email', account.email, 'email_verified', true), now(), now()
   where not exists (select 1 from auth.identities i where i.user_id = account.id and i.provider = 'email');
end;
$$;

/**
 * The account a repair RPC may act on for this email and password, or null: the
 * password meets the minimum and the caller may set it (private.may_set_auth_password).
 */
create function private.account_to_repair(p_email text, p_password text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_id uuid;
begin
  select p.id into account_id from private.profiles p where p.email = private.normalize_email(p_email);
  if account_id is null or char_length(coalesce(p_password, '')) < 6
     or not private.may_set_auth_password(account_id, p_password) then
    return null;
  end if;
  return account_id;
end;
$$;

/**
 * Login-flow repair (spec section 7): when Auth refuses a password that
 * secure_login_prepare_auth accepted, completes the account's Auth user. Acts only for
 * the flow that just proved this password, or for an admin; answers every other
 * caller with the same failure.
 */
create function public.create_auth_user_admin(p_email text, p_password text, p_first_name text default null,
                                              p_last_name text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_id uuid := private.account_to_repair(p_email, p_password);
begin
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
  return jsonb_build_object('success', true, 'message', 'Auth user ready', 'user', private.user_json(account_id));
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
  account_id uuid := private.account_to_repair(p_email, p_password);
begin
  if account_id is null then
    return private.failure('Password sync failed', 'password_sync_failed');
  end if;
  perform private.repair_auth_user(account_id, p_password);
  return jsonb_build_object('success', true, 'message', 'Password synchronised');
end;
$$;

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
  caller uuid := auth.uid();
  account private.profiles;
begin
  select * into account from private.profiles where email = private.normalize_email(user_email);
  if caller is null or not found
     or not (caller = account.id
             or private.is_super_admin(caller)
             or (private.is_admin_of(caller, private.current_organization_id())
                 and exists (select 1 from private.memberships m
                              where m.user_id = account.id and m.organization_id = private.current_organization_id()))) then
    return private.failure('User not found', 'user_not_found');
  end if;
  return jsonb_build_object('success', true, 'user', private.user_json(account.id));
end;
$$;

/** Records the caller's sign-in time; a user can only record their own. */
create function public.update_user_last_login(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if p_user_id is distinct from caller then
    return private.failure('User not found', 'user_not_found');
  end if;
  update private.profiles set last_login_at = now(), updated_at = now() where id = caller;
  return jsonb_build_object('success', true, 'user', private.user_json(caller));
end;
$$;

/** Diagnostic: what the database sees as the caller (null when anonymous). */
create function public.test_auth_uid()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object('success', true, 'user_id', auth.uid(), 'role', auth.role());
$$;

/**
 * Binds the caller's Auth session to an organization, once: the one named (a member's
 * organization; for a super admin any active one) or else the first available. Binding
 * the same organization again is harmless; a different one is refused (spec section 2).
 */
create function public.bind_session_organization(p_organization_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  session uuid := private.current_session_id();
  account private.profiles;
  bound private.session_organizations;
  target record;
begin
  if caller is null or session is null
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  select * into account from private.profiles where id = caller;
  if not found or not account.is_active then
    return private.failure('User not found', 'user_not_found');
  end if;
  -- A new session cannot start work while any lock holds, so a direct Auth sign-in
  -- (where no hook runs, as on lite) gains nothing. Sessions bound before a temporary
  -- lock keep working: other people's failed attempts must not throw a user out.
  if account.locked_by_admin and account.locked_until > now() then
    return private.failure('Account is locked by administrator', 'admin_locked');
  end if;
  if account.locked_until > now() then
    return private.locked_answer(account.locked_until);
  end if;

  if p_organization_id is null then
    select a.id, a.slug, a.name, a.role into target from private.available_organizations(caller) a limit 1;
  else
    select a.id, a.slug, a.name, a.role into target from private.available_organizations(caller) a
     where a.id = p_organization_id;
    if not found and private.is_super_admin(caller) then
      select o.id, o.slug, o.name, 'admin' as role into target
        from private.organizations o where o.id = p_organization_id and o.is_active;
    end if;
  end if;
  if target.id is null then
    return private.failure('Organization context required', 'organization_not_available');
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
    if not exists (select 1 from private.memberships m where m.user_id = caller and m.organization_id = target.id) then
      perform private.write_audit(target.id, 'session.super_admin_entered', 'user', caller::text);
    end if;
  end if;

  return jsonb_build_object('success', true,
    'organization', jsonb_build_object('id', target.id, 'slug', target.slug, 'name', target.name, 'role', target.role));
end;
$$;

/** The organizations the caller may work in, with the one the session is bound to. */
create function public.get_my_organizations()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  current_id uuid := private.current_organization_id();
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  return jsonb_build_object('success', true, 'current_organization_id', current_id,
    'organizations', (select coalesce(jsonb_agg(to_jsonb(a) || jsonb_build_object('is_current', coalesce(a.id = current_id, false))), '[]')
                        from private.available_organizations(caller) a));
end;
$$;

/**
 * The signed-in user, the organization this session works in (null until bound) and the
 * organizations on offer.
 */
create or replace function public.get_current_user_context()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  current_id uuid := private.current_organization_id();
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if not private.is_account_usable(caller) then
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

/**
 * Login attempts, newest first (20 by default, at most 100): the caller's own, or for an
 * admin those of a member of their session's organization.
 */
create function public.get_login_attempts(p_user_id uuid default null, p_limit integer default 20)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  target uuid := coalesce(p_user_id, caller);
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if target <> caller and not (
       private.is_super_admin(caller)
       or (private.is_admin_of(caller, private.current_organization_id())
           and exists (select 1 from private.memberships m
                        where m.user_id = target and m.organization_id = private.current_organization_id()))) then
    return private.failure('Admin privileges required', 'admin_required');
  end if;
  return jsonb_build_object('success', true, 'attempts', (
    select coalesce(jsonb_agg(jsonb_build_object('email', a.email, 'success', a.success,
                                                 'failure_reason', a.failure_reason, 'source', a.source,
                                                 'created_at', a.created_at) order by a.created_at desc, a.id desc), '[]')
      from (select * from private.login_attempts la where la.user_id = target
             order by la.created_at desc, la.id desc
             limit least(greatest(coalesce(p_limit, 20), 1), 100)) a));
end;
$$;

/**
 * Supabase Auth's password-verification hook (enabled in supabase/config.toml): the
 * same lock rule on hosted Supabase even when someone calls Auth directly.
 * Input {user_id, valid}; output {decision: continue|reject, message}.
 */
create function private.hook_password_verification_attempt(event jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account private.profiles;
  valid boolean := coalesce((event ->> 'valid')::boolean, false);
begin
  select * into account from private.profiles where id = (event ->> 'user_id')::uuid for update;
  if not found then
    return jsonb_build_object('decision', 'continue');
  end if;
  -- As in secure_login_prepare_auth: an admin lock or a disabled account is told only to
  -- the right password; a wrong one is left to Auth's own "invalid credentials".
  if account.locked_by_admin and account.locked_until > now() then
    perform private.log_login_attempt(account.email, account.id, case when valid then 'admin_locked' else 'invalid_credentials' end, 'auth_hook');
    if not valid then
      return jsonb_build_object('decision', 'continue');
    end if;
    return jsonb_build_object('decision', 'reject', 'message', 'Account is locked by administrator',
                              'should_logout_user', true);
  end if;
  if valid and not account.is_active then
    perform private.log_login_attempt(account.email, account.id, 'account_disabled', 'auth_hook');
    return jsonb_build_object('decision', 'reject', 'message', 'User not found', 'should_logout_user', true);
  end if;
  if account.locked_until > now() then
    perform private.log_login_attempt(account.email, account.id, 'account_locked', 'auth_hook');
    return jsonb_build_object('decision', 'reject', 'should_logout_user', true,
      'message', format('Account is locked for %s minutes', private.minutes_left(account.locked_until)));
  end if;
  if valid then
    update private.profiles set failed_login_attempts = 0, locked_until = null, locked_by_admin = false
     where id = account.id and (failed_login_attempts > 0 or locked_until is not null);
    return jsonb_build_object('decision', 'continue');
  end if;

  account := private.count_password_failure(account.id);
  perform private.log_login_attempt(account.email, account.id, 'invalid_credentials', 'auth_hook');
  if account.locked_until is not null then
    return jsonb_build_object('decision', 'reject', 'should_logout_user', true,
      'message', format('Account is locked for %s minutes', private.minutes_left(account.locked_until)));
  end if;
  return jsonb_build_object('decision', 'continue');
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
-- Supabase Auth runs the hook as supabase_auth_admin.
grant usage on schema private to supabase_auth_admin;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;

revoke execute on function public.secure_login_prepare_auth(text, text, text) from public, anon, authenticated;
revoke execute on function public.create_auth_user_admin(text, text, text, text) from public, anon, authenticated;
revoke execute on function public.sync_user_password(text, text) from public, anon, authenticated;
revoke execute on function public.get_user_info_by_email(text) from public, anon, authenticated;
revoke execute on function public.update_user_last_login(uuid) from public, anon, authenticated;
revoke execute on function public.test_auth_uid() from public, anon, authenticated;
revoke execute on function public.bind_session_organization(uuid) from public, anon, authenticated;
revoke execute on function public.get_my_organizations() from public, anon, authenticated;
revoke execute on function public.get_login_attempts(uuid, integer) from public, anon, authenticated;

-- Called before sign-in, so anonymous visitors may call the login steps.
grant execute on function public.secure_login_prepare_auth(text, text, text) to anon, authenticated;
grant execute on function public.create_auth_user_admin(text, text, text, text) to anon, authenticated;
grant execute on function public.sync_user_password(text, text) to anon, authenticated;
grant execute on function public.get_user_info_by_email(text) to anon, authenticated;
grant execute on function public.test_auth_uid() to anon, authenticated;
grant execute on function public.update_user_last_login(uuid) to authenticated;
grant execute on function public.bind_session_organization(uuid) to authenticated;
grant execute on function public.get_my_organizations() to authenticated;
grant execute on function public.get_login_attempts(uuid, integer) to authenticated;
