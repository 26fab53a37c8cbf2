-- "Şifremi unuttum" (issue 27 part 5, DESIGN.md D12): a reset link by e-mail, built here
-- rather than on Auth's /recover (which stays closed at the front). Only the anonymous
-- password-reset Edge Function calls these two RPCs, with the secret key: it passes the
-- client's address and whether the installation has mail of its own, sends the link, and
-- never logs it. The database keeps only the sha-256 of a link's token; a link is used
-- once, lives 30 minutes, and is throttled per e-mail and per address; a reset obeys the
-- account's lock, ends every session of the account, is logged as a sign-in (source
-- password_reset) and audited (user.password_reset_by_email). Admin resets
-- (simple_reset_password) stay as they are.

-- Every request for a link, whether the e-mail has an account or not (the throttles count
-- them all, so an unknown e-mail answers exactly like a real one). Hashes only: the e-mail
-- (normalized) and the client's address, each sha-256. Kept one day.
create table private.password_reset_requests (
  id bigint generated always as identity primary key,
  email_hash bytea not null check (octet_length(email_hash) = 32),
  address_hash bytea check (octet_length(address_hash) = 32),
  created_at timestamptz not null default now()
);

create index password_reset_requests_email_idx on private.password_reset_requests (email_hash, created_at desc);

create index password_reset_requests_address_idx on private.password_reset_requests (address_hash, created_at desc)
  where address_hash is not null;

create index password_reset_requests_created_idx on private.password_reset_requests (created_at);

alter table private.password_reset_requests enable row level security;

comment on table private.password_reset_requests is
  'Every password-reset request (hashed e-mail and address), for the per-e-mail and per-address throttles; kept one day.';

-- The links sent: the sha-256 of the token only (the token is in the e-mail, nowhere else).
create table private.password_reset_tokens (
  id uuid primary key default gen_random_uuid(),
  token_hash bytea not null unique check (octet_length(token_hash) = 32),
  user_id uuid not null references private.profiles (id) on delete cascade,
  -- The organization whose mail sent the link.
  organization_id uuid not null references private.organizations (id) on delete cascade,
  mail_id uuid references private.mail_log (id) on delete set null,
  requester_address_hash bytea check (octet_length(requester_address_hash) = 32),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- Set when the link was used, or when another link of the account was (or a new password set through one).
  used_at timestamptz
);

create index password_reset_tokens_open_idx on private.password_reset_tokens (user_id) where used_at is null;

create index password_reset_tokens_expires_idx on private.password_reset_tokens (expires_at);

alter table private.password_reset_tokens enable row level security;

comment on table private.password_reset_tokens is
  'Password-reset links: sha-256 of the token, the account, the sending organization, expiry and use (single use).';

/** How long a link lives, and the requests allowed an hour per e-mail and per client address. */
create function private.password_reset_policy(out minutes integer, out per_email_per_hour integer,
                                              out per_address_per_hour integer)
language sql
immutable
set search_path = ''
as $$
  select 30, 3, 10;
$$;

/** The client's address as the function passed it (text), or null when missing or not an address. */
create function private.inet_or_null(p_address text)
returns inet
language plpgsql
immutable
set search_path = ''
as $$
begin
  return nullif(btrim(p_address), '')::inet;
exception when others then
  return null;
end;
$$;

/** The sha-256 of a text (an e-mail, an address, a token), as kept in place of the text itself. */
create function private.sha256(p_text text)
returns bytea
language sql
immutable
set search_path = ''
as $$
  select extensions.digest(p_text, 'sha256');
$$;

/**
 * The password-reset function only (secret key): a request for a reset link for p_email from
 * the client address p_client_address, in p_language (tr, en). The same answer, {success:
 * true}, whether or not the e-mail has an account: over the throttles (per e-mail and per
 * address an hour, private.password_reset_policy, counted for every request) the answer is
 * too_many_attempts. A link is made only for an active account under no lock whose
 * organization has mail settings of its own, or any of its organizations when the
 * installation has mail (p_installation_mail): then the answer carries, for the function
 * alone, `mail` with the started mail (private.mail_start, kind password_reset, no body kept),
 * the token (kept only as its sha-256), the template to fill and its values.
 */
create function public.password_reset_begin(p_email text, p_client_address text, p_language text,
                                            p_installation_mail boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  policy record := private.password_reset_policy();
  login_email text := private.normalize_email(p_email);
  mail_language text := case when p_language = 'en' then 'en' else 'tr' end;
  requester_hash bytea := private.sha256(host(private.inet_or_null(p_client_address)));
  login_hash bytea;
  oldest timestamptz;
  counted integer;
  account private.profiles;
  sender record;
  started jsonb;
  token text;
  template jsonb;
begin
  if login_email is null or not private.is_valid_email(login_email) then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"email": "invalid_email"}}');
  end if;
  login_hash := private.sha256(login_email);
  -- Requests of one e-mail, and of one address, one after another: two at once cannot both pass a limit.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('password_reset:' || encode(login_hash, 'hex'), 0));
  if requester_hash is not null then
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('password_reset:' || encode(requester_hash, 'hex'), 0));
  end if;
  delete from private.password_reset_requests r where r.created_at < now() - interval '1 day';
  delete from private.password_reset_tokens t where t.expires_at < now() - interval '1 day';

  select count(*), min(r.created_at) into counted, oldest
    from (select q.created_at from private.password_reset_requests q
           where q.address_hash = requester_hash and q.created_at > now() - interval '1 hour'
           order by q.created_at desc limit policy.per_address_per_hour) r;
  if counted < policy.per_address_per_hour then
    select count(*), min(r.created_at) into counted, oldest
      from (select q.created_at from private.password_reset_requests q
             where q.email_hash = login_hash and q.created_at > now() - interval '1 hour'
             order by q.created_at desc limit policy.per_email_per_hour) r;
    if counted < policy.per_email_per_hour then
      oldest := null;
    end if;
  end if;
  if oldest is not null then
    return private.failure(
      format('Too many password reset requests. Please wait %s minutes and try again.', private.minutes_left(oldest + interval '1 hour')),
      'too_many_attempts',
      jsonb_build_object('retry_after_seconds',
                         greatest(1, ceil(extract(epoch from oldest + interval '1 hour' - clock_timestamp())))::integer));
  end if;
  insert into private.password_reset_requests (email_hash, address_hash) values (login_hash, requester_hash);

  -- No link (and the same answer) for an unknown, disabled or locked account, or without mail.
  select * into account from private.profiles p where p.email = login_email;
  if account.id is null or not account.is_active or private.lock_problem(account.id) is not null then
    return jsonb_build_object('success', true);
  end if;
  select o.id, o.name into sender
    from private.available_organizations(account.id) with ordinality as o (id, slug, name, role, table_prefix_timestamp, position)
    left join private.mail_settings s on s.organization_id = o.id
   where s.organization_id is not null or coalesce(p_installation_mail, false)
   order by s.organization_id is null, o.position
   limit 1;
  if sender.id is null then
    return jsonb_build_object('success', true);
  end if;

  template := private.mail_template(sender.id, 'password_reset', mail_language);
  -- The subject as written (a link placed in it by an organization's template would stay a placeholder here); no body.
  started := private.mail_start(jsonb_populate_record(null::private.mail_log, jsonb_build_object(
    'organization_id', sender.id, 'kind', 'password_reset', 'recipients', array[login_email],
    'subject', template ->> 'subject', 'created_by', account.id)));
  if not (started ->> 'success')::boolean then
    return jsonb_build_object('success', true);
  end if;
  token := translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/=', '-_');
  insert into private.password_reset_tokens (token_hash, user_id, organization_id, mail_id, requester_address_hash, expires_at)
  values (private.sha256(token), account.id, sender.id, (started ->> 'mail_id')::uuid, requester_hash,
          now() + make_interval(mins => policy.minutes));
  return jsonb_build_object('success', true, 'mail', jsonb_build_object(
    'mail_id', started ->> 'mail_id', 'to', login_email, 'token', token,
    'subject', template ->> 'subject', 'body', template ->> 'body',
    'values', jsonb_build_object('user.name', coalesce(private.profile_name(account.id), login_email),
                                 'organization.name', sender.name, 'reset.minutes', policy.minutes::text)));
end;
$$;

revoke all on function public.password_reset_begin(p_email text, p_client_address text, p_language text, p_installation_mail boolean) from public, anon, authenticated;
grant execute on function public.password_reset_begin(p_email text, p_client_address text, p_language text, p_installation_mail boolean) to service_role;

/**
 * The password-reset function only (secret key): sets a new password with a link's token,
 * for the client address p_client_address. Refused while the address is over the sign-in
 * throttle (too_many_attempts); an unknown, used or expired link is reset_link_invalid
 * (logged as a failed sign-in of the address, so guesses meet the throttle); a disabled
 * account account_disabled; an account under a lock gets the lock's answer (account_locked,
 * admin_locked) and stays locked; a password against the rules its rule's code (the link
 * stays usable). Otherwise the password is set as an admin's reset sets it, every session
 * of the account ends, every open link of the account is used up, and the reset is logged
 * as a sign-in (source password_reset) and audited (user.password_reset_by_email).
 */
create function public.password_reset_complete(p_token text, p_password text, p_client_address text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  address inet := private.inet_or_null(p_client_address);
  problem jsonb;
  link private.password_reset_tokens;
  account private.profiles;
begin
  problem := private.login_throttle(address);
  if problem is not null then
    return problem;
  end if;
  if char_length(p_token) between 1 and 100 then
    select * into link from private.password_reset_tokens t where t.token_hash = private.sha256(p_token) for update;
  end if;
  select * into account from private.profiles p where p.id = link.user_id;
  if link.id is null or link.used_at is not null or link.expires_at <= now() or account.id is null then
    perform private.log_login_attempt(coalesce(account.email, ''), account.id, 'reset_link_invalid', 'password_reset', address);
    return private.failure('This link is invalid or has expired', 'reset_link_invalid');
  end if;
  -- Counted one after another with the sign-ins of the same e-mail.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('login:' || account.email, 0));
  if not account.is_active then
    perform private.log_login_attempt(account.email, account.id, 'account_disabled', 'password_reset', address);
    return private.failure('User not found', 'account_disabled');
  end if;
  problem := private.lock_problem(account.id);
  if problem is not null then
    perform private.log_login_attempt(account.email, account.id, problem ->> 'code', 'password_reset', address);
    return problem;
  end if;
  problem := private.check_password(p_password);
  if problem is not null then
    return problem;
  end if;

  update private.password_reset_tokens t set used_at = now() where t.user_id = account.id and t.used_at is null;
  perform private.repair_auth_user(account.id, p_password);
  perform private.end_sessions(account.id);
  update private.profiles set failed_login_attempts = 0, updated_at = now() where id = account.id;
  perform private.log_login_attempt(account.email, account.id, null, 'password_reset', address);
  perform private.write_user_audit(account.id, 'user.password_reset_by_email', '{}', null);
  return jsonb_build_object('success', true, 'message', 'Şifre yenilendi');
end;
$$;

revoke all on function public.password_reset_complete(p_token text, p_password text, p_client_address text) from public, anon, authenticated;
grant execute on function public.password_reset_complete(p_token text, p_password text, p_client_address text) to service_role;
