-- Sign-in, second pass (issue 23):
-- 1. A session made by a code (the JWT's amr names otp, magiclink, recovery, …, not
--    password) reaches no data: binding refuses it and logs it as a refused sign-in with
--    its method, and the caller's account counts as unusable for that session. Which
--    methods may sign in is a setting (security_settings.session_sign_in_methods), so a
--    later issue can allow a code-based session: it then passes the same lock and is
--    logged as a sign-in when it binds.
-- 2. auth.users.encrypted_password changes only through the product's own password
--    functions (a transaction-local marker set by private.repair_auth_user): Auth's
--    PUT /auth/v1/user, which skips the current password, is refused in the database.
-- 3. Any membership, active or suspended, makes an account shared (check_account_admin).
-- 4. bcrypt is bounded on every path: at most one live login proof per account, looked up
--    by account (a repair call costs at most one bcrypt and a wrong one burns the proof and
--    counts as a failure of the address); right-password sign-ins are limited per account;
--    no bcrypt while a lock answers whatever the password.
-- 5. The throttle slows the attacker, not the users: a known account's sign-in meets only
--    its own lock (and its own rate of right-password sign-ins); the per-address and global
--    failure limits apply to unknown emails, answered exactly like a wrong password (the
--    shadow count, no bcrypt while throttled). The local stack's direct Auth route takes the
--    same decision (private.auth_sign_in_gate).
-- 6. The lock answer is the same for unknown emails on the direct Auth route, and an
--    unknown email costs the same bcrypt there as a real one.
-- 7. An admin refused acting on a member of another organization leaves an audit entry
--    (user.access_refused) in every organization of that member.

-- ---------------------------------------------------------------------------------
-- Settings, sign-in log and proofs
-- ---------------------------------------------------------------------------------

-- Right-password sign-ins of one account within the window before it must wait: through
-- the login RPC (two bcrypt runs each) and straight to Auth (one; the app's own Auth
-- sign-in after the login RPC is not counted twice). The login RPC and the local stack's
-- direct Auth route both answer it. A person never signs in 120 times in 5 minutes (one
-- every 2.5 seconds; the end-to-end suite and the bench stay under it too).
alter table private.security_settings
  add column account_success_limit integer not null default 120 check (account_success_limit between 1 and 100000),
  add column account_success_window interval not null default '5 minutes' check (account_success_window > interval '0'),
  -- The Auth session methods (the JWT's amr) that may work in an organization. A later
  -- issue may add a code method (recovery, otp); such a session then passes the lock and
  -- is logged as a sign-in when it binds.
  add column session_sign_in_methods text[] not null default '{password}'
    check (session_sign_in_methods <@ array['password', 'otp', 'magiclink', 'recovery', 'email/signup', 'invite']);

alter table private.login_attempts add column method text check (char_length(method) <= 40);
alter table private.login_attempts drop constraint login_attempts_failure_reason_check;
alter table private.login_attempts add constraint login_attempts_failure_reason_check check (failure_reason in (
  'invalid_credentials', 'account_locked', 'admin_locked', 'account_disabled', 'no_organization',
  'throttled', 'password_too_long', 'sign_in_method_refused'));
alter table private.login_attempts drop constraint login_attempts_source_check;
-- repair: a login-flow repair RPC (create_auth_user_admin, sync_user_password); session:
-- an Auth session binding to an organization (bind_session_organization).
alter table private.login_attempts add constraint login_attempts_source_check
  check (source in ('login', 'auth_hook', 'auth', 'password_change', 'repair', 'session'));
create index login_attempts_user_successes_idx on private.login_attempts (user_id, created_at desc)
  where success;

-- One live proof per account: a new sign-in replaces the old proof.
delete from private.login_proofs p
 where exists (select 1 from private.login_proofs newer
                where newer.user_id = p.user_id and (newer.expires_at, newer.id) > (p.expires_at, p.id));
drop index private.login_proofs_user_id_idx;
create unique index login_proofs_user_id_key on private.login_proofs (user_id);

drop function private.log_login_attempt(text, uuid, text, text, inet);
/** One row of the sign-in log, with the client's address and the session's sign-in method when known. */
create function private.log_login_attempt(p_email text, p_user_id uuid, p_failure_reason text,
                                          p_source text default 'login',
                                          p_client_address inet default private.client_address(),
                                          p_method text default null)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.login_attempts (email, user_id, success, failure_reason, source, client_address, method)
  values (left(coalesce(p_email, ''), 320), p_user_id, p_failure_reason is null, p_failure_reason, p_source,
          p_client_address, left(p_method, 40));
$$;

-- ---------------------------------------------------------------------------------
-- 1. Sessions made by a code
-- ---------------------------------------------------------------------------------

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
language sql
stable
security definer
set search_path = ''
as $$
  select case when signed_in.method is null or signed_in.method = 'password' then true
              else signed_in.method = any ((private.security_settings()).session_sign_in_methods) end
    from (select private.session_sign_in_method() as method) signed_in;
$$;

/**
 * True when the user is active and under no lock, temporary or an administrator's, and,
 * for the caller, when the request's session was signed in by an allowed method. Every
 * session check goes through here (current_organization_id, admin and super admin
 * status, request tokens, self-service), so a locked account's sessions, and a session
 * made by a code, can do nothing.
 */
create or replace function private.is_account_usable(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from private.profiles p
     where p.id = p_user_id and p.is_active and not coalesce(p.locked_until > now(), false))
     and (p_user_id is distinct from auth.uid() or private.session_method_allowed());
$$;

/**
 * Binds the caller's Auth session to an organization, once: the one named (a member's
 * organization; for a super admin any active one) or else the first available. Binding
 * the same organization again is harmless; a different one is refused (spec section 2).
 * Nothing is bound while a lock holds, nor for a session signed in by a method that may
 * not work (a code: sign_in_method_refused, logged as a refused sign-in with its method).
 * A session of an allowed code method passes the same lock and is logged as a sign-in.
 */
create or replace function public.bind_session_organization(p_organization_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  session uuid := private.current_session_id();
  method text := private.session_sign_in_method();
  bound private.session_organizations;
  target record;
  problem jsonb;
begin
  if caller is null or session is null
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if not private.session_method_allowed() then
    perform private.log_login_attempt((select p.email from private.profiles p where p.id = caller), caller,
                                      'sign_in_method_refused', 'session', private.client_address(), method);
    return private.failure('Authentication required', 'sign_in_method_refused', jsonb_build_object('method', method));
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

/** The organizations the caller may work in, with the one the session is bound to. */
create or replace function public.get_my_organizations()
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
  if caller is null or not private.session_method_allowed() then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  return jsonb_build_object('success', true, 'current_organization_id', current_id,
    'organizations', (select coalesce(jsonb_agg(to_jsonb(a) || jsonb_build_object('is_current', coalesce(a.id = current_id, false))), '[]')
                        from private.available_organizations(caller) a));
end;
$$;

/** Records the caller's sign-in time; a user can only record their own (not from a code session). */
create or replace function public.update_user_last_login(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
begin
  if caller is null or not private.session_method_allowed() then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if p_user_id is distinct from caller then
    return private.failure('User not found', 'user_not_found');
  end if;
  update private.profiles set last_login_at = now(), updated_at = now() where id = caller;
  return jsonb_build_object('success', true, 'user', private.user_json(caller));
end;
$$;

/**
 * Login attempts, newest first (20 by default, at most 100), with the client's address
 * and the session method where one was recorded: the caller's own, or for an admin those
 * of a member of their session's organization. Not for a session made by a code.
 */
create or replace function public.get_login_attempts(p_user_id uuid default null, p_limit integer default 20)
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
  if caller is null or not private.session_method_allowed() then
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

-- ---------------------------------------------------------------------------------
-- 2. Passwords change only through the product's functions
-- ---------------------------------------------------------------------------------

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
 * Makes an account's Auth user complete and sign-in ready: the password hash in the
 * format Auth and pgcrypto share, a confirmed email, no NULL token columns (GoTrue
 * cannot read them) and an email identity. The one writer of a password: it marks the
 * account for auth.users' password guard for its own update only.
 */
create or replace function private.repair_auth_user(p_user_id uuid, p_password text)
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

-- ---------------------------------------------------------------------------------
-- 3 and 7. Who may act on an account; refusals seen by the target's organizations
-- ---------------------------------------------------------------------------------

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
 * May the caller administer this user in this organization? Returns null when yes,
 * otherwise the failure to answer. A super admin may act on anyone; an admin only on
 * members of their session's organization who are not super admins. When an admin is
 * refused on an account that exists (a member of other organizations only, or a super
 * admin), the refusal goes to the audit log of each of the account's organizations; the
 * caller's answer stays the same.
 */
create or replace function private.check_user_admin(p_target uuid, p_organization_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if not (private.is_super_admin(caller)
          or (private.is_bound_to(p_organization_id) and private.is_admin_of(caller, p_organization_id))) then
    return private.failure('Admin privileges required', 'admin_required');
  end if;
  if not exists (select 1 from private.profiles p where p.id = p_target) then
    return private.failure('User not found', 'user_not_found');
  end if;
  if private.is_super_admin(caller) then
    return null;
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = p_target and m.organization_id = p_organization_id) then
    perform private.record_refused_access(p_target, 'user_not_found', p_organization_id);
    return private.failure('User not found', 'user_not_found');
  end if;
  if exists (select 1 from private.profiles p where p.id = p_target and p.role = 'super_admin') then
    perform private.record_refused_access(p_target, 'super_admin_required', p_organization_id);
    return private.failure('Admin privileges required', 'super_admin_required');
  end if;
  return null;
end;
$$;

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
create or replace function private.check_account_admin(p_target uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  bound_organization uuid := private.current_organization_id();
  problem jsonb := private.check_user_admin(p_target, bound_organization);
begin
  if problem is not null or private.is_super_admin(auth.uid()) then
    return problem;
  end if;
  if exists (select 1 from private.memberships m
              where m.user_id = p_target and m.organization_id <> bound_organization) then
    perform private.record_refused_access(p_target, 'shared_account', bound_organization);
    return private.failure('Admin privileges required', 'shared_account');
  end if;
  return null;
end;
$$;

-- ---------------------------------------------------------------------------------
-- 4, 5 and 6. The sign-in throttle and the bcrypt paths
-- ---------------------------------------------------------------------------------

drop function private.count_shadow_failure(text, uuid);
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
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when (p_account.id is null or (p_account.locked_by_admin and p_account.locked_until > now()))
         then (select t.locked_until from private.login_throttles t where t.email = p_email and t.locked_until > now())
    when not p_account.locked_by_admin and p_account.locked_until > now() then p_account.locked_until
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
create or replace function public.secure_login_prepare_auth(p_email text, p_password text, p_organization_slug text default null)
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

/**
 * Who may repair an account's Auth password: only the sign-in in progress of that very
 * account, which has just proven this password to secure_login_prepare_auth (the
 * account's one login proof, less than a minute old, used once). Nobody signed in as
 * someone else. Costs at most one bcrypt (none without a live proof); a wrong password
 * burns the proof.
 */
create or replace function private.may_set_auth_password(p_user_id uuid, p_password text)
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
 * The account a repair RPC may act on for this email and password, or null: the password
 * keeps the length rules and is the one the account's sign-in in progress has just proven.
 * A refused call is logged as a failure of the client's address (source repair), so it
 * counts toward the address's throttle.
 */
create or replace function private.account_to_repair(p_email text, p_password text)
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

/**
 * Login-flow repair (spec section 7): when Auth refuses a password that
 * secure_login_prepare_auth accepted, completes the account's Auth user. Acts only for
 * the sign-in in progress that just proved this password; answers every other caller
 * with the same failure. Audited in the account's organizations.
 */
create or replace function public.create_auth_user_admin(p_email text, p_password text, p_first_name text default null,
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

/** Login-flow repair: writes the proven password into Auth again (same rules as above). */
create or replace function public.sync_user_password(p_email text, p_password text)
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

/**
 * The local stack's stand-in for the hook (lite runs none): its front reports each
 * password sign-in Auth answered, with the client's address. An unknown email is counted
 * in its shadow count and answers like a real account (the lock's message from the fifth
 * failure); a rejection ends the account's sessions, as should_logout_user does on
 * hosted Supabase; a success that did not follow the login RPC (no live login proof to
 * take) is logged as a sign-in. Called by the stack only.
 */
create or replace function private.auth_password_attempt(p_email text, p_valid boolean, p_client_address inet)
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

-- ---------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
