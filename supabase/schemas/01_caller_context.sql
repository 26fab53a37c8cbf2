-- The caller: the Auth session of the request, the organization that session is bound
-- to, and what the caller is (super admin, an organization's admin, a member with a
-- module scope). Every guard of the other files asks these functions.

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

/**
 * What the caller may do in a module of their session's organization: 'all' records,
 * 'own' records, or null (not allowed). Admins and super admins may do everything.
 * PL/pgSQL around the same query, so that its plan is kept for the session: as an SQL
 * function it was planned again on every call (1-1.5 ms, on every module request).
 */
create or replace function private.caller_scope(p_module text, p_action text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- The session's organization is looked up once: this runs on every module request.
  return (
    select case
      when bound.organization_id is null then null
      when private.is_admin_of(auth.uid(), bound.organization_id) then 'all'
      else (select rp.scope
              from private.memberships m
              join private.role_permissions rp on rp.organization_id = m.organization_id and rp.role_key = m.role
             where m.user_id = auth.uid() and m.organization_id = bound.organization_id
               and m.is_active and rp.module = p_module and rp.action = p_action)
    end
      from (select private.current_organization_id() as organization_id) as bound);
end;
$$;

/**
 * private.caller_scope for every module of the registry at once: one row (module, scope)
 * per module, scope 'all', 'own' or null by the same rules, with the session's
 * organization and the caller's admin rights looked up once for all of them (the
 * dashboard asked seven times). Keep in step with private.caller_scope.
 */
create function private.caller_scopes(p_action text)
returns table (module text, scope text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  bound uuid := private.current_organization_id();
  is_admin boolean := bound is not null and private.is_admin_of(auth.uid(), bound);
begin
  return query
    select m.key,
           case
             when bound is null then null
             when is_admin then 'all'
             else (select rp.scope
                     from private.memberships ms
                     join private.role_permissions rp on rp.organization_id = ms.organization_id and rp.role_key = ms.role
                    where ms.user_id = auth.uid() and ms.organization_id = bound
                      and ms.is_active and rp.module = m.key and rp.action = p_action)
           end
      from private.modules m;
end;
$$;

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
