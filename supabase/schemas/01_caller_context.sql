-- The caller: the Auth session of the request, the organization that session is bound
-- to, and what the caller is (super admin, an organization's admin, a member with a
-- module scope). private.caller_context is the one guard: every RPC of the other files
-- asks it who calls and whether they may, and refuses with its answer or private.refusal's
-- (each refusal text is written there and nowhere else).
--
-- Every private function is plpgsql, not SQL (here, and in every later file), except an
-- immutable expression that reads nothing (private.failure, fold_search, turkish_sort_key):
-- PostgreSQL 15 plans a SQL function's body again on every call when it cannot inline it,
-- and a function with SET search_path or SECURITY DEFINER (every one here) is never
-- inlined; plpgsql keeps its plans for the session. get_current_user_context in SQL:
-- 3.5 → 1.6 ms (issue 28). pgTAP request_plans.sql holds the rule in the catalogue.

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
 * True when the request's Auth session (private.current_session_id) is still a row of
 * auth.sessions and belongs to the caller: a token that outlived its sign-out, or one
 * naming another user's session, is not live. False for an anonymous request.
 */
create function private.has_live_session()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select exists (select 1 from auth.sessions s
                    where s.id = private.current_session_id() and s.user_id = auth.uid()));
end;
$$;

/**
 * Super admin status: global role super_admin only (spec section 6), on a usable account.
 * Asked about the caller (auth.uid()), the request's Auth session must also still exist:
 * a token that outlived a sign-out is no longer a super admin's.
 */
create function private.is_super_admin(p_user_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin')
       and private.is_account_usable(p_user_id)
       and (p_user_id is distinct from auth.uid() or private.has_live_session()));
end;
$$;

/**
 * Admin status in one organization (spec section 6): super admin, or an active member
 * whose global role is admin or whose organization role is admin.
 */
create function private.is_admin_of(p_user_id uuid, p_organization_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select private.is_account_usable(p_user_id) and (
      private.is_super_admin(p_user_id)
      or exists (
        select 1
          from private.memberships m
          join private.profiles p on p.id = m.user_id
          join private.organizations o on o.id = m.organization_id and o.is_active
         where m.user_id = p_user_id and m.organization_id = p_organization_id and m.is_active
           and (m.role = 'admin' or p.role = 'admin'))));
end;
$$;

/** True when the user may work in the organization: an active member, or a super admin. */
create function private.can_work_in(p_user_id uuid, p_organization_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select private.is_account_usable(p_user_id)
       and exists (select 1 from private.organizations o where o.id = p_organization_id and o.is_active)
       and (private.is_super_admin(p_user_id)
            or exists (select 1 from private.memberships m
                        where m.user_id = p_user_id and m.organization_id = p_organization_id and m.is_active)));
end;
$$;

/**
 * The organization the caller's Auth session is bound to, or null when the session is
 * not bound, the account is unusable or the caller may no longer work there. Every
 * tenant RPC takes its organization from here and nowhere else.
 */
create function private.current_organization_id()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select b.organization_id
      from private.session_organizations b
     where b.session_id = private.current_session_id()
       and b.user_id = auth.uid()
       and private.can_work_in(b.user_id, b.organization_id));
end;
$$;

/**
 * The guard's refusal answers (private.failure), one text per refusal: every "who may
 * call" refusal of the database is answered here, so each text is written once. Codes:
 * authentication_required and sign_in_method_refused ('Authentication required');
 * organization_context_required, organization_required and organization_not_available
 * ('Organization context required'); permission_denied ('Permission denied');
 * admin_required, super_admin_required and shared_account ('Admin privileges required');
 * tables_not_found ('Required tables not found': the organization has no tables yet).
 * p_language 'tr' gives the Turkish texts of spec section 5's user creation: admin_required
 * and super_admin_required ('Admin yetkisi gerekli'), organization_required ('Şirket
 * bilgisi gerekli'). p_extra is merged into the answer. Another code is a programming
 * error and raises.
 */
create function private.refusal(p_code text, p_language text default 'en', p_extra jsonb default '{}')
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  message text := case
    when p_language = 'en' and p_code in ('authentication_required', 'sign_in_method_refused') then 'Authentication required'
    when p_language = 'en' and p_code in ('organization_context_required', 'organization_required', 'organization_not_available')
      then 'Organization context required'
    when p_language = 'en' and p_code = 'permission_denied' then 'Permission denied'
    when p_language = 'en' and p_code in ('admin_required', 'super_admin_required', 'shared_account') then 'Admin privileges required'
    when p_language = 'en' and p_code = 'tables_not_found' then 'Required tables not found'
    when p_language = 'en' and p_code = 'not_record_owner' then 'This record belongs to another user'
    when p_language = 'tr' and p_code in ('admin_required', 'super_admin_required') then 'Admin yetkisi gerekli'
    when p_language = 'tr' and p_code = 'organization_required' then 'Şirket bilgisi gerekli'
  end;
begin
  if message is null then
    raise exception 'no refusal % in language %', p_code, p_language using errcode = 'invalid_parameter_value';
  end if;
  return private.failure(message, p_code, p_extra);
end;
$$;

/**
 * What private.caller_context knows about the caller (every field is filled, whatever the
 * need asked; false and null for an anonymous request).
 */
create type private.caller_context as (
  -- auth.uid(): null when nobody is signed in.
  user_id uuid,
  -- The request's Auth session (private.current_session_id), or null.
  session_id uuid,
  -- That session is still a row of auth.sessions of this user (private.has_live_session).
  live_session boolean,
  -- The session's sign-in method may work (private.session_method_allowed: not a code, unless allowed).
  method_allowed boolean,
  -- The account is active, under no lock, and method_allowed (private.is_account_usable).
  usable boolean,
  -- Global role super_admin on a usable account with a live session (private.is_super_admin).
  is_super_admin boolean,
  -- The organization the session is bound to and the caller may still work in
  -- (private.current_organization_id): a member's, or any for a super admin; null when unbound.
  bound_organization_id uuid,
  -- The organization the call acts in: the bound one. Only a super admin may name another
  -- (p_organization_slug, p_organization_id); anyone else naming another one, or a slug
  -- that names none, gets null: an admin's power ends at their session's organization.
  organization_id uuid,
  -- Admin of organization_id (private.is_admin_of: its admins and super admins); false without one.
  is_admin boolean,
  -- With p_module: what the caller may do for p_action in organization_id, 'all', 'own'
  -- or null (private.scope_in).
  scope text,
  -- The refusal for the need asked, or null when the call may go on.
  problem jsonb
);

/**
 * The one guard (as basejump's has_role_on_account): who calls, whether their session is
 * bound and to which organization, what they are there, and, in problem, the refusal for
 * what the caller of the guard needs (null when the call may go on). Needs, each checked
 * in this order after "signed in at all" (authentication_required):
 * - 'signed_in': nothing more.
 * - 'allowed_method': a session whose sign-in method may work (authentication_required).
 * - 'usable': a usable account: active, no lock, an allowed method (authentication_required).
 * - 'live_session': a live Auth session of the caller (authentication_required).
 * - 'usable_session': both of the above (authentication_required).
 * - 'organization': a session bound to an organization (organization_context_required).
 * - 'module': p_module and p_action registered (unknown_module), a bound session
 *   (organization_context_required) and a scope for them (permission_denied).
 * - 'admin': an organization to act in (organization_context_required; see organization_id
 *   for naming one) and admin of it (admin_required).
 * - 'super_admin': a super admin with a live session (super_admin_required).
 * Checks with another order or answer read the fields and answer with private.refusal.
 */
create function private.caller_context(p_need text default 'signed_in', p_module text default null,
                                       p_action text default null, p_organization_slug text default null,
                                       p_organization_id uuid default null)
returns private.caller_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.caller_context;
  named uuid := p_organization_id;
begin
  if p_need is null or p_need not in ('signed_in', 'allowed_method', 'usable', 'live_session', 'usable_session',
                                      'organization', 'module', 'admin', 'super_admin') then
    raise exception 'unknown caller need %', p_need using errcode = 'invalid_parameter_value';
  end if;
  context.user_id := auth.uid();
  context.session_id := private.current_session_id();
  context.live_session := private.has_live_session();
  context.method_allowed := private.session_method_allowed();
  context.usable := context.user_id is not null and private.is_account_usable(context.user_id);
  context.is_super_admin := context.user_id is not null and private.is_super_admin(context.user_id);
  context.bound_organization_id := private.current_organization_id();
  if p_organization_slug is not null then
    select o.id into named from private.organizations o where lower(o.slug) = lower(p_organization_slug);
  end if;
  context.organization_id := case
    when p_organization_slug is not null and named is null then null
    when context.is_super_admin then coalesce(named, context.bound_organization_id)
    when named is distinct from context.bound_organization_id and named is not null then null
    else context.bound_organization_id
  end;
  context.is_admin := context.organization_id is not null and private.is_admin_of(context.user_id, context.organization_id);
  if p_module is not null then
    context.scope := private.scope_in(context, p_module, p_action);
  end if;

  context.problem := case
    when context.user_id is null
      or (p_need = 'allowed_method' and not context.method_allowed)
      or (p_need in ('usable', 'usable_session') and not context.usable)
      or (p_need in ('live_session', 'usable_session') and not context.live_session)
      then private.refusal('authentication_required')
    when p_need = 'module' and not (exists (select 1 from private.modules m where m.key = p_module)
                                    and exists (select 1 from private.module_actions a where a.key = p_action))
      then private.failure('Unknown module', 'unknown_module')
    when p_need in ('organization', 'module', 'admin') and context.organization_id is null
      then private.refusal('organization_context_required')
    when p_need = 'module' and context.scope is null then private.refusal('permission_denied')
    when p_need = 'admin' and not context.is_admin then private.refusal('admin_required')
    when p_need = 'super_admin' and not context.is_super_admin then private.refusal('super_admin_required')
  end;
  return context;
end;
$$;

/**
 * What the caller, as private.caller_context describes them, may do for a module's action
 * in the organization they act in: null without one, 'all' for its admins (super admins
 * included), else the scope their active membership's role grants ('all', 'own', or null:
 * not allowed). PL/pgSQL, so that the query's plan is kept for the session.
 */
create function private.scope_in(p_caller private.caller_context, p_module text, p_action text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if p_caller.organization_id is null then
    return null;
  end if;
  if p_caller.is_admin then
    return 'all';
  end if;
  return (select rp.scope
            from private.memberships m
            join private.role_permissions rp on rp.organization_id = m.organization_id and rp.role_key = m.role
           where m.user_id = p_caller.user_id and m.organization_id = p_caller.organization_id
             and m.is_active and rp.module = p_module and rp.action = p_action);
end;
$$;

/**
 * What the caller may do in a module of their session's organization: 'all' records,
 * 'own' records, or null (not allowed). Admins and super admins may do everything
 * (private.scope_in, through private.caller_context).
 */
create function private.caller_scope(p_module text, p_action text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (private.caller_context('signed_in', p_module, p_action)).scope;
end;
$$;

/**
 * private.caller_scope for every module of the registry at once: one row (module, scope)
 * per module, with the caller (their organization and admin rights) looked up once for
 * all of them (the dashboard asks for seven).
 */
create function private.caller_scopes(p_action text)
returns table (module text, scope text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context();
begin
  return query select m.key, private.scope_in(caller, m.key, p_action) from private.modules m;
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
