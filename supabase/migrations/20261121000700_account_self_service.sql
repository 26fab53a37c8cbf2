-- What a signed-in user does for themselves (spec sections 3 and 7): accept the terms
-- (kept in the browser per email, and recorded here), edit their own name, and obtain
-- the request-forgery token that privileged Edge Function calls carry.

alter table private.profiles add column terms_accepted_at timestamptz;

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

create or replace function private.user_json(p_user_id uuid)
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
        from private.memberships m where m.user_id = p.id and m.is_active), '{}'::jsonb))
    from private.profiles p
   where p.id = p_user_id;
$$;

/** Records that the caller accepted the terms (the first time only). */
create function public.accept_terms()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
begin
  if caller is null or not private.is_account_usable(caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  update private.profiles set terms_accepted_at = coalesce(terms_accepted_at, now()) where id = caller;
  return jsonb_build_object('success', true, 'user', private.user_json(caller));
end;
$$;

/** The caller changes their own first and last name (trimmed, at most 100 characters). */
create function public.update_my_profile(p_first_name text, p_last_name text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  problem jsonb := private.check_names(p_first_name, p_last_name);
begin
  if caller is null or not private.is_account_usable(caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if problem is not null then
    return problem;
  end if;
  if char_length(btrim(coalesce(p_first_name, ''))) = 0 then
    return private.failure('Ad gerekli', 'first_name_required');
  end if;
  update private.profiles
     set first_name = btrim(p_first_name), last_name = btrim(coalesce(p_last_name, '')), updated_at = now()
   where id = caller;
  update auth.users
     set raw_user_meta_data = coalesce(raw_user_meta_data, '{}')
           || jsonb_build_object('first_name', btrim(p_first_name), 'last_name', btrim(coalesce(p_last_name, '')))
   where id = caller;
  return jsonb_build_object('success', true, 'message', 'Profil güncellendi', 'user', private.user_json(caller));
end;
$$;

/**
 * Issues a request-forgery token for the caller's Auth session, valid one hour. The
 * token itself is returned once; only its hash is kept.
 */
create function public.issue_request_token()
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
  delete from private.request_tokens where session_id = session and expires_at < now();
  insert into private.request_tokens (token_hash, session_id, user_id, expires_at)
  values (extensions.digest(token, 'sha256'), session, caller, expires);
  return jsonb_build_object('success', true, 'token', token, 'expires_at', expires);
end;
$$;

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

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.accept_terms() from public, anon, authenticated;
revoke execute on function public.update_my_profile(text, text) from public, anon, authenticated;
revoke execute on function public.issue_request_token() from public, anon, authenticated;
revoke execute on function public.verify_request_token(text) from public, anon, authenticated;
grant execute on function public.accept_terms() to authenticated;
grant execute on function public.update_my_profile(text, text) to authenticated;
grant execute on function public.issue_request_token() to authenticated;
grant execute on function public.verify_request_token(text) to authenticated;
