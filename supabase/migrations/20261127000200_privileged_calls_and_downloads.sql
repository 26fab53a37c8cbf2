-- Privileged calls and downloads (issue 23, items 10, 12 and 7).
--
-- * Item 10: the privileged admin RPCs (user administration, record transfer, the
--   organization manager) check the request-forgery token themselves. Each one moved to
--   the private schema unchanged (no grants there); a public façade of the same name and
--   signature refuses (invalid_request_token) unless the request's x-csrf-token header holds
--   a live token of the caller's own Auth session (private.has_request_token: the same test
--   as verify_request_token), then calls it. The Edge Functions forward the header with
--   their RPC calls and keep their own early check; a direct call on the Data API without
--   the header, with another session's token or an expired one changes nothing. PostgREST
--   and lite both hand request headers to SQL as request.headers, so this holds on hosted
--   Supabase too.
-- * Item 12: private.is_super_admin, asked about the caller, also requires the caller's
--   Auth session (JWT session_id) to be live in auth.sessions: after a sign-out (global or
--   not) the old access token of a super admin is refused everywhere a super admin is
--   trusted, as an admin's already is (admins work through their session's binding).
-- * Item 7: signed download URLs are made only by the documents Edge Function (service role,
--   60 seconds) after public.sign_document_download, run as the caller, allowed the object
--   and recorded the signing (private.document_downloads: who, which session, which
--   object, until when, the token's hash). Storage RLS no longer lets a member read or sign
--   objects of the documents bucket with their own JWT. The local stack's front asks
--   private.document_download_allowed before serving a signed download: the link is
--   refused when the document is deleted or its signer lost access since.

-- ---------------------------------------------------------------------------------
-- Item 12: a super admin is trusted only in a live Auth session
-- ---------------------------------------------------------------------------------

/**
 * Super admin status: global role super_admin only (spec section 6), on a usable account.
 * Asked about the caller (auth.uid()), the request's Auth session must also still exist:
 * a token that outlived a sign-out is no longer a super admin's.
 */
create or replace function private.is_super_admin(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin')
     and private.is_account_usable(p_user_id)
     and (p_user_id is distinct from auth.uid()
          or exists (select 1 from auth.sessions s
                      where s.id = private.current_session_id() and s.user_id = p_user_id));
$$;

-- ---------------------------------------------------------------------------------
-- Item 10: the database checks the request-forgery token of privileged calls
-- ---------------------------------------------------------------------------------

/**
 * True when the request's x-csrf-token header (request.headers, set by PostgREST and lite)
 * holds a live request-forgery token of the caller's own Auth session on a usable account:
 * the test of public.verify_request_token. False for a missing, oversized or unreadable header.
 */
create function private.has_request_token()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  token text;
begin
  begin
    token := btrim(nullif(current_setting('request.headers', true), '')::jsonb ->> 'x-csrf-token');
  exception when others then
    return false;
  end;
  if token is null or token = '' or char_length(token) > 256 then
    return false;
  end if;
  return public.verify_request_token(token);
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

alter function public.create_user_secure(text, text, uuid, text, text, text) set schema private;
alter function public.update_user_secure(uuid, jsonb, text) set schema private;
alter function public.delete_user_secure(uuid, uuid) set schema private;
alter function public.lock_user_secure(uuid) set schema private;
alter function public.unlock_user_secure(uuid) set schema private;
alter function public.simple_reset_password(uuid, text) set schema private;
alter function public.analyze_user_records(uuid, text) set schema private;
alter function public.get_users_for_transfer(text, uuid) set schema private;
alter function public.transfer_user_records(uuid, uuid, text, boolean, boolean, boolean, boolean, boolean, boolean) set schema private;
alter function public.list_organizations() set schema private;
alter function public.create_organization(text, text, text) set schema private;
alter function public.update_organization(uuid, jsonb) set schema private;

-- In private they keep no grant but their owner's (the Data API's roles had EXECUTE in public).
do $$
declare
  moved regprocedure;
  grantee text;
begin
  for moved in
    select p.oid::regprocedure from pg_catalog.pg_proc p
     where p.pronamespace = 'private'::regnamespace
       and p.proname in ('create_user_secure', 'update_user_secure', 'delete_user_secure', 'lock_user_secure',
                         'unlock_user_secure', 'simple_reset_password', 'analyze_user_records', 'get_users_for_transfer',
                         'transfer_user_records', 'list_organizations', 'create_organization', 'update_organization')
  loop
    execute format('revoke all on function %s from public', moved);
    foreach grantee in array array['anon', 'authenticated', 'service_role'] loop
      if exists (select 1 from pg_catalog.pg_roles r where r.rolname = grantee) then
        execute format('revoke all on function %s from %I', moved, grantee);
      end if;
    end loop;
  end loop;
end
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

/**
 * Moves the chosen kinds of records from one member to another, all or nothing (defaults:
 * deals, customers and tasks on; contracts, quotes and templates off). Only with a live
 * request token of the caller's session (admin-transfer).
 */
create function public.transfer_user_records(
  from_user_id uuid, to_user_id uuid, organization_slug text default null,
  transfer_deals boolean default true, transfer_customers boolean default true,
  transfer_tasks boolean default true, transfer_contracts boolean default false,
  transfer_quotes boolean default false, transfer_templates boolean default false)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.transfer_user_records(from_user_id, to_user_id, organization_slug, transfer_deals, transfer_customers,
                                       transfer_tasks, transfer_contracts, transfer_quotes, transfer_templates);
end;
$$;

/**
 * Super admin: every organization with its member counts and table status. Only with a live
 * request token of the caller's session (admin-organizations).
 */
create function public.list_organizations()
returns jsonb language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.list_organizations();
end;
$$;

/**
 * Super admin: registers an organization and provisions its tables in one transaction. Only
 * with a live request token of the caller's session (admin-organizations).
 */
create function public.create_organization(p_slug text, p_name text, p_subscription_plan text default 'basic')
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.create_organization(p_slug, p_name, p_subscription_plan);
end;
$$;

/**
 * Super admin: changes an organization's name, plan, subscription status or activity. Only
 * with a live request token of the caller's session (admin-organizations).
 */
create function public.update_organization(p_organization_id uuid, p_changes jsonb)
returns jsonb language plpgsql security definer set search_path = ''
as $$
begin
  if not private.has_request_token() then
    return private.invalid_request_token();
  end if;
  return private.update_organization(p_organization_id, p_changes);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Item 7: signed downloads are the documents function's, short and recorded
-- ---------------------------------------------------------------------------------

-- Members no longer read or sign objects of the documents bucket with their own JWT: only
-- the documents Edge Function signs (service role), after sign_document_download.
drop policy if exists documents_select on storage.objects;

create table private.document_downloads (
  token_hash bytea primary key,
  user_id uuid not null references private.profiles (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  organization_id uuid not null references private.organizations (id) on delete cascade,
  object_path text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index document_downloads_user_id_idx on private.document_downloads (user_id, expires_at);
create index document_downloads_session_id_idx on private.document_downloads (session_id);
create index document_downloads_organization_id_idx on private.document_downloads (organization_id);
alter table private.document_downloads enable row level security;
comment on table private.document_downloads is
  'Signed download URLs of the documents bucket: who signed (user, Auth session, organization), which object, until when, sha-256 of the URL''s token.';

/** The longest life of a signed download URL: 60 seconds (the app asks for exactly that). */
create function private.document_download_seconds()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 60;
$$;

/**
 * The documents Edge Function's question, asked as the caller, before it hands out a signed
 * URL it made for the object: may the caller read this object now (session bound to its
 * organization, documents view permission in scope, the document not deleted and holding that
 * version: public.document_object_readable)? When yes, the signing is recorded (who, which
 * session and object, until when, the sha-256 of the URL's token, hex) for p_seconds (at most
 * 60); the caller's expired records go. Another organization's or a deleted document's object
 * is not_found, like one that does not exist.
 */
create function public.sign_document_download(p_object_path text, p_token_hash text, p_seconds integer default 60)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  session uuid := private.current_session_id();
  organization_id uuid := private.current_organization_id();
  expires timestamptz;
begin
  if caller is null or session is null or not private.is_account_usable(caller)
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if organization_id is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  if p_object_path is null or char_length(p_object_path) > 200 or coalesce(p_token_hash, '') !~ '^[0-9a-f]{64}$'
     or p_seconds is null or p_seconds < 1 or p_seconds > private.document_download_seconds() then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if not public.document_object_readable(p_object_path) then
    return private.failure('Record not found', 'not_found');
  end if;
  expires := now() + make_interval(secs => p_seconds);
  delete from private.document_downloads d where d.user_id = caller and d.expires_at < now();
  insert into private.document_downloads (token_hash, user_id, session_id, organization_id, object_path, expires_at)
  values (decode(p_token_hash, 'hex'), caller, session, organization_id, p_object_path, expires)
  on conflict (token_hash) do nothing;
  -- Storage's token names only the object and its times: two signings of one object in the
  -- same second with the same life are the same token. It is recorded for its first signer
  -- only; the function signs again with a shorter life (another token).
  if not found then
    return private.failure('This link is already given out; sign again', 'token_in_use');
  end if;
  return jsonb_build_object('success', true, 'expires_at', expires);
end;
$$;

/**
 * The local stack front's question before it serves a signed download of the documents
 * bucket (GET /storage/v1/object/sign/documents/…): is this URL token one the documents
 * function recorded, still within its recorded life, and may its signer still read the
 * object now? The last is public.document_object_readable asked as the signer in the
 * session they signed in: false once the document is deleted, the signer is deactivated,
 * locked, no longer an active member, without documents view permission, or signed out.
 */
create function private.document_download_allowed(p_token text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  download private.document_downloads;
  previous_claims text := current_setting('request.jwt.claims', true);
  previous_sub text := current_setting('request.jwt.claim.sub', true);
  readable boolean;
begin
  if p_token is null or char_length(p_token) > 4096 then
    return false;
  end if;
  select * into download from private.document_downloads d
   where d.token_hash = extensions.digest(p_token, 'sha256') and d.expires_at > now();
  if not found then
    return false;
  end if;
  perform set_config('request.jwt.claim.sub', download.user_id::text, true);
  perform set_config('request.jwt.claims', jsonb_build_object('sub', download.user_id, 'role', 'authenticated',
                                                              'session_id', download.session_id)::text, true);
  readable := split_part(download.object_path, '/', 1) = download.organization_id::text
              and public.document_object_readable(download.object_path);
  perform set_config('request.jwt.claim.sub', coalesce(previous_sub, ''), true);
  perform set_config('request.jwt.claims', coalesce(previous_claims, ''), true);
  return coalesce(readable, false);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
do $$
declare
  facade regprocedure;
begin
  for facade in
    select p.oid::regprocedure from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and p.proname in ('create_user_secure', 'update_user_secure', 'delete_user_secure', 'lock_user_secure',
                         'unlock_user_secure', 'simple_reset_password', 'analyze_user_records', 'get_users_for_transfer',
                         'transfer_user_records', 'list_organizations', 'create_organization', 'update_organization',
                         'sign_document_download')
  loop
    execute format('revoke execute on function %s from public, anon, authenticated', facade);
    execute format('grant execute on function %s to authenticated', facade);
  end loop;
end
$$;
