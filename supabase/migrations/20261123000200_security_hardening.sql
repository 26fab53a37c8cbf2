-- Security hardening (issue 10):
-- 1. An admin's power over an account ends at their organization's border: whatever acts
--    on the account as a whole (password, global lock and unlock, global role, names and
--    email, deleting the account) is a super admin's, or an organization admin's only when
--    every active membership of the account is in that admin's organization. The repair
--    RPCs set a password only for the sign-in in progress of that very account.
-- 2. The lockout holds on every path: a locked account's session can do nothing; direct
--    Auth sign-ins count (the hook on hosted Supabase, the stack's front locally); the
--    anonymous login RPCs are throttled per client address and globally before any bcrypt
--    work; sign-in logs, throttles and request tokens are pruned.
-- 3. Passwords: a change needs the current password, checked here; more than 72 bytes is
--    refused everywhere, and the most common passwords on create, reset and change.
-- 4. Audit: every password written by someone else, actions on a member shared by several
--    organizations in each of their logs, old and new values of role and email changes;
--    the log is append-only.
-- 5. A statement timeout for the API roles.
-- 6. create_user_secure requires an organization (spec section 5).

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
  updated_at timestamptz not null default now()
);
insert into private.security_settings default values;
alter table private.security_settings enable row level security;
comment on table private.security_settings is 'One row: sign-in throttle limits and retention of sign-in records.';

/** The one row of private.security_settings. */
create function private.security_settings()
returns private.security_settings
language sql
stable
security definer
set search_path = ''
as $$
  select * from private.security_settings;
$$;

-- ---------------------------------------------------------------------------------
-- Who is asking: the client address
-- ---------------------------------------------------------------------------------

alter table private.login_attempts add column client_address inet;
alter table private.login_attempts drop constraint login_attempts_failure_reason_check;
alter table private.login_attempts add constraint login_attempts_failure_reason_check check (failure_reason in (
  'invalid_credentials', 'account_locked', 'admin_locked', 'account_disabled', 'no_organization',
  'throttled', 'password_too_long'));
alter table private.login_attempts drop constraint login_attempts_source_check;
-- auth: a direct Auth sign-in reported by the local stack's front; password_change: the
-- current password checked by change_my_password.
alter table private.login_attempts add constraint login_attempts_source_check
  check (source in ('login', 'auth_hook', 'auth', 'password_change'));
create index login_attempts_client_failures_idx on private.login_attempts (client_address, created_at desc)
  where not success and failure_reason <> 'throttled';
create index login_attempts_failures_idx on private.login_attempts (created_at desc)
  where not success and failure_reason <> 'throttled';
create index login_attempts_created_at_idx on private.login_attempts (created_at);

/**
 * The client's address as the API gateway saw it: Cloudflare's cf-connecting-ip on hosted
 * Supabase (a client cannot set it), else the first X-Forwarded-For entry (the local
 * stack's front writes that header itself). Null when unknown or not an address.
 */
create function private.client_address()
returns inet
language plpgsql
stable
set search_path = ''
as $$
declare
  headers jsonb;
begin
  headers := nullif(current_setting('request.headers', true), '')::jsonb;
  return nullif(btrim(coalesce(headers ->> 'cf-connecting-ip',
                               split_part(headers ->> 'x-forwarded-for', ',', 1))), '')::inet;
exception when others then
  return null;
end;
$$;

drop function private.log_login_attempt(text, uuid, text, text);
/** One row of the sign-in log, with the client's address. */
create function private.log_login_attempt(p_email text, p_user_id uuid, p_failure_reason text,
                                          p_source text default 'login',
                                          p_client_address inet default private.client_address())
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.login_attempts (email, user_id, success, failure_reason, source, client_address)
  values (left(coalesce(p_email, ''), 320), p_user_id, p_failure_reason is null, p_failure_reason, p_source,
          p_client_address);
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

-- ---------------------------------------------------------------------------------
-- Locks: one answer, and a locked account's sessions do nothing
-- ---------------------------------------------------------------------------------

/**
 * True when the user is active and under no lock, temporary or an administrator's. Every
 * session check goes through here (current_organization_id, admin status, request
 * tokens), so a locked account's sessions can do nothing until the lock ends.
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
     where p.id = p_user_id and p.is_active and not coalesce(p.locked_until > now(), false));
$$;

/** The lock answer for an account under a lock (the administrator's first), else null. */
create function private.lock_problem(p_user_id uuid)
returns jsonb
language sql
volatile
security definer
set search_path = ''
as $$
  select case
    when p.locked_by_admin and p.locked_until > now() then private.failure('Account is locked by administrator', 'admin_locked')
    when p.locked_until > now() then private.locked_answer(p.locked_until)
  end
    from private.profiles p
   where p.id = p_user_id;
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

-- ---------------------------------------------------------------------------------
-- Password rules
-- ---------------------------------------------------------------------------------

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

/** A new password (create, reset, change): the length rules and not a common password. */
create or replace function private.check_password(p_password text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.check_password_length(p_password),
                  case when private.is_common_password(p_password)
                       then private.failure('Bu şifre çok yaygın; daha güçlü bir şifre seçin', 'password_common') end);
$$;

-- ---------------------------------------------------------------------------------
-- Audit: append-only, in every organization of the person acted on
-- ---------------------------------------------------------------------------------

/** The audit log is append-only: no update, no delete, no truncate. */
create function private.refuse_audit_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'the audit log is append-only' using errcode = 'insufficient_privilege';
end;
$$;

create trigger audit_log_append_only
  before update or delete on private.audit_log
  for each row execute function private.refuse_audit_change();
create trigger audit_log_no_truncate
  before truncate on private.audit_log
  for each statement execute function private.refuse_audit_change();

/**
 * Records an action on a person in the log of the organization it was done in and of
 * every organization the person belongs to, so each of their admins sees what happened
 * to their member (with no organization at all, one row without one).
 */
create function private.write_user_audit(p_target uuid, p_action text, p_details jsonb default '{}',
                                         p_acting_organization uuid default private.current_organization_id())
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  select organizations.id, auth.uid(), p_action, 'user', p_target::text, coalesce(p_details, '{}')
    from (select p_acting_organization as id where p_acting_organization is not null
          union
          select m.organization_id from private.memberships m where m.user_id = p_target
          union
          select null where p_acting_organization is null
                        and not exists (select 1 from private.memberships m where m.user_id = p_target)) organizations;
$$;

-- ---------------------------------------------------------------------------------
-- Who may act on an account
-- ---------------------------------------------------------------------------------

/**
 * May the caller act on this account as a whole: its password, global lock and unlock,
 * global role, names and email, deleting it? Null when yes, otherwise the failure to
 * answer. A super admin may; an admin of the session's organization only when every
 * active membership of the account is in that organization. Organization-scoped actions
 * (membership role and status) need only private.check_user_admin.
 */
create function private.check_account_admin(p_target uuid)
returns jsonb
language plpgsql
stable
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
              where m.user_id = p_target and m.is_active and m.organization_id <> bound_organization) then
    return private.failure('Admin privileges required', 'shared_account');
  end if;
  return null;
end;
$$;

/**
 * The user's public shape in RPC answers (spec section 3, User). organization_role lists
 * the memberships the caller may know of: all of them for the user themselves, a super
 * admin, or the sign-in that has just proven the password (p_all_memberships); an admin
 * sees only the membership in their session's organization.
 */
drop function private.user_json(uuid);
create function private.user_json(p_user_id uuid, p_all_memberships boolean default false)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id, 'email', p.email, 'first_name', p.first_name, 'last_name', p.last_name,
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
   where p.id = p_user_id;
$$;

-- ---------------------------------------------------------------------------------
-- Sign-in
-- ---------------------------------------------------------------------------------

/**
 * The login flow's first step (spec section 7): verifies the password in the database,
 * applies the lockout (5 failures lock for 30 minutes; an admin lock lasts 365 days),
 * logs the attempt with the client's address and names the organization to sign in to.
 * A client over the throttle is answered before any bcrypt work. An unknown email and a
 * wrong password get the same answer after the same bcrypt work.
 */
create or replace function public.secure_login_prepare_auth(p_email text, p_password text, p_organization_slug text default null)
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
  problem jsonb;
begin
  if login_email is null or coalesce(p_password, '') = '' or char_length(login_email) > 320 then
    return private.failure('Invalid login credentials', 'invalid_credentials');
  end if;
  problem := private.login_throttle(private.client_address());
  if problem is not null then
    perform private.log_login_attempt(login_email, (select p.id from private.profiles p where p.email = login_email),
                                      'throttled');
    return problem;
  end if;
  -- bcrypt reads 72 bytes: a longer password is never one that was set.
  if octet_length(p_password) > 72 then
    perform private.log_login_attempt(login_email, (select p.id from private.profiles p where p.email = login_email),
                                      'password_too_long');
    return private.check_password_length(p_password);
  end if;

  -- One attempt per email at a time: concurrent tries are counted one after another.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('login:' || login_email, 0));

  select p.* into account from private.profiles p where p.email = login_email for update;
  if found then
    select u.encrypted_password into stored_hash from auth.users u where u.id = account.id;
  end if;
  password_ok := private.password_matches(stored_hash, p_password);

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
    'user', private.user_json(account.id, true),
    'organization', jsonb_build_object('id', organization.id, 'slug', organization.slug, 'name', organization.name,
                                       'role', organization.role, 'table_prefix_timestamp', organization.table_prefix_timestamp),
    'organizations', (select coalesce(jsonb_agg(to_jsonb(a)), '[]') from private.available_organizations(account.id) a));
end;
$$;

/**
 * Who may repair an account's Auth password: only the sign-in in progress of that very
 * account, which has just proven this password to secure_login_prepare_auth (a login
 * proof less than a minute old, used once). Nobody signed in as someone else.
 */
create or replace function private.may_set_auth_password(p_user_id uuid, p_password text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is not null and auth.uid() <> p_user_id then
    return false;
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
 * The account a repair RPC may act on for this email and password, or null: the password
 * keeps the length rules and is the one the account's sign-in in progress has just proven.
 */
create or replace function private.account_to_repair(p_email text, p_password text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_id uuid;
begin
  select p.id into account_id from private.profiles p where p.email = private.normalize_email(p_email);
  if account_id is null or private.check_password_length(p_password) is not null
     or not private.may_set_auth_password(account_id, p_password) then
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
  throttled jsonb := private.login_throttle(private.client_address());
  account_id uuid;
begin
  if throttled is not null then
    return throttled;
  end if;
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
  throttled jsonb := private.login_throttle(private.client_address());
  account_id uuid;
begin
  if throttled is not null then
    return throttled;
  end if;
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
 * Supabase Auth's password-verification hook (enabled in supabase/config.toml): the same
 * lock rule on hosted Supabase even when someone calls Auth directly.
 * Input {user_id, valid}; output {decision: continue|reject, message}.
 */
create or replace function private.hook_password_verification_attempt(event jsonb)
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

/**
 * The local stack's stand-in for the hook (lite runs none): its front reports each
 * password sign-in Auth answered, with the client's address. An unknown email is logged
 * (it counts toward the address's throttle); a rejection ends the account's sessions,
 * as should_logout_user does on hosted Supabase. Called by the stack only.
 */
create function private.auth_password_attempt(p_email text, p_valid boolean, p_client_address inet)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  account_id uuid;
  decision jsonb;
begin
  select p.id into account_id from private.profiles p where p.email = private.normalize_email(p_email);
  if account_id is null then
    perform private.log_login_attempt(private.normalize_email(p_email), null,
                                      case when p_valid then null else 'invalid_credentials' end, 'auth', p_client_address);
    return jsonb_build_object('decision', 'continue');
  end if;
  decision := private.password_check_decision(account_id, p_valid, 'auth', p_client_address);
  if decision ->> 'decision' = 'reject' then
    perform private.end_sessions(account_id);
  end if;
  return decision;
end;
$$;

/**
 * Binds the caller's Auth session to an organization, once: the one named (a member's
 * organization; for a super admin any active one) or else the first available. Binding
 * the same organization again is harmless; a different one is refused (spec section 2).
 * Nothing is bound while a lock holds.
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
  bound private.session_organizations;
  target record;
  problem jsonb;
begin
  if caller is null or session is null
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if not exists (select 1 from private.profiles p where p.id = caller and p.is_active) then
    return private.failure('User not found', 'user_not_found');
  end if;
  problem := private.lock_problem(caller);
  if problem is not null then
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
    if not exists (select 1 from private.memberships m where m.user_id = caller and m.organization_id = target.id) then
      perform private.write_audit(target.id, 'session.super_admin_entered', 'user', caller::text);
    end if;
  end if;

  return jsonb_build_object('success', true,
    'organization', jsonb_build_object('id', target.id, 'slug', target.slug, 'name', target.name, 'role', target.role));
end;
$$;

/**
 * Super admin: moves this Auth session to another active organization. The previous
 * binding ends and the new one is recorded in the audit logs of both organizations. A
 * lock refuses it as it refuses binding.
 */
create or replace function public.super_admin_switch_organization(p_organization_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  session uuid := private.current_session_id();
  previous uuid;
  target private.organizations;
  problem jsonb;
begin
  if caller is null or session is null
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  problem := private.lock_problem(caller);
  if problem is not null then
    return problem;
  end if;
  if not private.is_super_admin(caller) then
    return private.failure('Admin privileges required', 'super_admin_required');
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

/**
 * Login attempts, newest first (20 by default, at most 100), with the client's address:
 * the caller's own, or for an admin those of a member of their session's organization.
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
                                                 'client_address', host(a.client_address),
                                                 'created_at', a.created_at) order by a.created_at desc, a.id desc), '[]')
      from (select * from private.login_attempts la where la.user_id = target
             order by la.created_at desc, la.id desc
             limit least(greatest(coalesce(p_limit, 20), 1), 100)) a));
end;
$$;

/** Diagnostic: what the database sees as the caller, and the statement timeout it runs under. */
create or replace function public.test_auth_uid()
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object('success', true, 'user_id', auth.uid(), 'role', auth.role(),
                            'statement_timeout', current_setting('statement_timeout'));
$$;

-- ---------------------------------------------------------------------------------
-- Password change: the current password, checked here
-- ---------------------------------------------------------------------------------

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
  caller uuid := auth.uid();
  session uuid := private.current_session_id();
  account private.profiles;
  problem jsonb;
begin
  if caller is null or session is null
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  select * into account from private.profiles where id = caller;
  if not found or not account.is_active then
    return private.failure('Authentication required', 'authentication_required');
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

-- ---------------------------------------------------------------------------------
-- User administration under the border rule
-- ---------------------------------------------------------------------------------

/** Spec section 5: creates a user with an Auth account and a membership in the named organization. */
create or replace function public.create_user_secure(p_email text, p_password text, p_organization_id uuid,
                                                     p_first_name text default null, p_last_name text default null,
                                                     p_role text default 'user')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  caller_is_super boolean := private.is_super_admin(caller);
  login_email text := private.normalize_email(p_email);
  organization_role text := coalesce(nullif(btrim(p_role), ''), 'user');
  new_id uuid := gen_random_uuid();
  problem jsonb;
begin
  if caller is null or not (caller_is_super or private.is_admin_of(caller, private.current_organization_id())) then
    return private.failure('Admin yetkisi gerekli', 'admin_required');
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
    return private.failure('Şirket bilgisi gerekli', 'organization_required');
  end if;
  if not caller_is_super and not private.is_bound_to(p_organization_id) then
    return private.failure('Admin yetkisi gerekli', 'admin_required');
  end if;
  problem := private.check_names(p_first_name, p_last_name);
  if problem is not null then
    return problem;
  end if;
  if organization_role = 'super_admin' and not caller_is_super then
    return private.failure('Admin yetkisi gerekli', 'super_admin_required');
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
create or replace function public.update_user_secure(p_user_id uuid, p_user_data jsonb, p_organization_slug text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  caller_is_super boolean := private.is_super_admin(caller);
  target_org uuid := private.admin_organization(p_organization_slug);
  target private.profiles;
  membership private.memberships;
  unknown_field text;
  new_email text;
  new_role text := nullif(btrim(p_user_data ->> 'role'), '');
  new_global_role text;
  changes jsonb := '{}';
  problem jsonb;
begin
  problem := private.check_user_admin(p_user_id, target_org);
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
      return private.failure('Admin privileges required', 'super_admin_required');
    end if;
    if new_role <> 'super_admin' and not exists (
         select 1 from private.organization_roles r where r.organization_id = target_org and r.key = new_role) then
      return private.failure('Geçersiz rol', 'invalid_role');
    end if;
  end if;
  if (new_role is not null or p_user_data ? 'is_active') then
    if target_org is null then
      return private.failure('Organization context required', 'organization_required');
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
create or replace function public.delete_user_secure(p_user_id uuid, p_organization_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  -- A super admin removes from the organization named, or deletes the whole account when
  -- none is named; an admin always acts in their session's organization.
  target_org uuid := case when private.is_super_admin(caller) then p_organization_id
                          else private.admin_organization(null, p_organization_id) end;
  member_of uuid;
  counts jsonb;
  problem jsonb;
begin
  if caller is not null and p_user_id = caller then
    return private.failure('Kendi hesabınızı silemezsiniz', 'self_delete');
  end if;
  if caller is not null and not private.is_super_admin(caller)
     and exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin') then
    return private.failure('Only a super admin can delete a super admin', 'super_admin_required');
  end if;
  problem := private.check_user_admin(p_user_id, target_org);
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
create or replace function public.simple_reset_password(p_user_id uuid, p_new_password text)
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
create or replace function public.lock_user_secure(p_user_id uuid)
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
create or replace function public.unlock_user_secure(p_user_id uuid)
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

-- ---------------------------------------------------------------------------------
-- Retention
-- ---------------------------------------------------------------------------------

alter table private.login_throttles add column updated_at timestamptz not null default now();

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
 * untouched for a day, expired or surplus request tokens, used or expired login proofs.
 * Returns how many rows each lost.
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
begin
  delete from private.login_attempts a where a.created_at < now() - settings.login_attempts_retention;
  get diagnostics attempts = row_count;
  delete from private.login_throttles t
   where t.updated_at < now() - settings.login_throttles_retention
     and (t.locked_until is null or t.locked_until < now());
  get diagnostics throttles = row_count;
  delete from private.login_proofs p where p.expires_at < now() or p.used_at is not null;
  get diagnostics proofs = row_count;
  return jsonb_build_object('login_attempts', attempts, 'login_throttles', throttles,
                            'request_tokens', private.prune_request_tokens(), 'login_proofs', proofs);
end;
$$;

/**
 * Issues a request-forgery token for the caller's Auth session, valid one hour. The
 * token itself is returned once; only its hash is kept. A user keeps at most
 * request_tokens_per_user live tokens.
 */
create or replace function public.issue_request_token()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  session uuid := private.current_session_id();
  token text := translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/=', '-_');
  expires timestamptz := now() + interval '1 hour';
begin
  if caller is null or session is null or not private.is_account_usable(caller)
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  insert into private.request_tokens (token_hash, session_id, user_id, expires_at)
  values (extensions.digest(token, 'sha256'), session, caller, expires);
  perform private.prune_request_tokens(caller);
  return jsonb_build_object('success', true, 'token', token, 'expires_at', expires);
end;
$$;

-- On hosted Supabase the clean-up runs hourly through pg_cron where it is enabled.
do $$
begin
  if exists (select 1 from pg_catalog.pg_namespace where nspname = 'cron') then
    perform cron.schedule('crm-maintenance', '17 * * * *', 'select private.run_maintenance()');
  end if;
end
$$;

-- ---------------------------------------------------------------------------------
-- No request holds a connection without end
-- ---------------------------------------------------------------------------------

-- PostgREST applies role settings to each request; the local stack reads these and
-- applies them to the connection lite serves requests on.
alter role anon set statement_timeout = '8s';
alter role authenticated set statement_timeout = '8s';

-- ---------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
revoke execute on function public.change_my_password(text, text) from public, anon, authenticated;
grant execute on function public.change_my_password(text, text) to authenticated;
