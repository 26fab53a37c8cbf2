-- Foundation: the schemas, the default privileges every later file relies on (nothing
-- in public is callable by the API roles unless a file grants it), the API roles'
-- statement timeout, and the small helpers every concern shares (identifier and e-mail
-- checks, Turkish-folded search text, clean text and tags, tolerant casts).
--
-- The files of supabase/schemas/ are the current text of the database, one concern per
-- file, applied in name order on an empty database (npm run db:diff compares them with
-- supabase/migrations/). Functions are created without checking their bodies (as
-- pg_dump restores do), so a function may read a table another file creates later;
-- anything evaluated while a file is applied (defaults, checks, calls) must come after
-- what it uses. Functions are written `create function`, never `or replace`: a second
-- definition of one anywhere in these files fails to apply (and so npm test fails).

set local check_function_bodies = off;

-- Control data: organizations, profiles and memberships.
-- It lives in the private schema, which the Data API does not expose; the public schema
-- only holds the RPC façade (DESIGN.md D4). Every function is security definer with an
-- empty search_path and grants exactly what it intends (D6).
create schema if not exists private;

-- No new function is executable by PUBLIC or the API roles unless a migration grants it.
alter default privileges revoke execute on functions from public;

alter default privileges in schema public revoke execute on functions from anon, authenticated;

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

/** The failure answer every RPC gives: the catalogue text plus a code the app translates. */
create function private.failure(p_error text, p_code text, p_extra jsonb default '{}')
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('success', false, 'error', p_error, 'code', p_code) || p_extra;
$$;

/**
 * The spec's table-name guard (section 5): letters, digits and underscore, lowercase,
 * at most 50 characters, and none of the SQL words that could turn a name into a
 * statement (checked as whole words between underscores).
 */
create function private.is_safe_identifier(p_name text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_name is not null
     and p_name ~ '^[a-z_][a-z0-9_]{0,49}$'
     and not (string_to_array(p_name, '_') && array[
       'drop', 'delete', 'select', 'insert', 'update', 'truncate', 'alter', 'create', 'grant',
       'revoke', 'union', 'exec', 'execute', 'copy', 'pg', 'information', 'schema']);
$$;

/** Keeps updated_at current on every tenant table. */
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

/**
 * Turkish-aware search folding (DESIGN.md D7): İ/I/ı/i, Ş/ş, Ğ/ğ, Ü/ü, Ö/ö and Ç/ç fold to
 * their plain Latin letters and everything is lowercased, so "isik", "Işık" and "IŞIK"
 * compare equal whatever the database collation.
 */
create function private.fold_search(p_text text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select lower(translate(p_text, 'İIıŞşĞğÜüÖöÇç', 'iiiSsGgUuOoCc'));
$$;

/** Whether these bytes start with the file signature of this image type. */
create function private.is_image_of_type(p_image bytea, p_content_type text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case p_content_type
    when 'image/png' then substring(p_image from 1 for 8) = '\x89504e470d0a1a0a'::bytea
    when 'image/jpeg' then substring(p_image from 1 for 3) = '\xffd8ff'::bytea
    when 'image/webp' then substring(p_image from 1 for 4) = '\x52494646'::bytea
                       and substring(p_image from 9 for 4) = '\x57454250'::bytea
    else false
  end;
$$;

-- PostgREST applies role settings to each request; the local stack reads these and
-- applies them to the connection lite serves requests on.
alter role anon set statement_timeout = '8s';

alter role authenticated set statement_timeout = '8s';

-- Trigram indexes on the Turkish-folded search columns of every organization's tables.
create extension if not exists pg_trgm with schema extensions;

/**
 * Tags: at most 20 distinct strings of 1 to 40 characters, trimmed (sorted); null when
 * invalid. (The same rules as before, without a query per call: the rules of every import
 * row run it.)
 */
create function private.clean_tags(p_tags jsonb)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  value text;
  cleaned text[] := '{}';
  position integer;
begin
  if p_tags is null or jsonb_typeof(p_tags) = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(p_tags) <> 'array' or jsonb_array_length(p_tags) > 20 then
    return null;
  end if;
  for i in 0 .. jsonb_array_length(p_tags) - 1 loop
    if jsonb_typeof(p_tags -> i) <> 'string' then
      return null;
    end if;
    value := btrim(p_tags ->> i);
    if char_length(value) not between 1 and 40 then
      return null;
    end if;
    -- Kept sorted and distinct, as array_agg(distinct) would give them.
    position := 1;
    while position <= cardinality(cleaned) and cleaned[position] < value loop
      position := position + 1;
    end loop;
    if position > cardinality(cleaned) or cleaned[position] <> value then
      cleaned := cleaned[1:position - 1] || value || cleaned[position:];
    end if;
  end loop;
  return cleaned;
end;
$$;

/** Trimmed text, null when empty or not a JSON string (a number or boolean is refused by the caller). */
create function private.clean_text(p_value jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_value) = 'string' then nullif(btrim(p_value #>> '{}'), '') end;
$$;

/** A refused write's constraint error as a field error: {"fields": {column: code}}. */
create function private.constraint_failure(p_table text, p_column text, p_constraint text, p_sqlstate text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(
    coalesce(nullif(p_column, ''),
             substring(p_constraint from '^' || p_table || '_(.*)_(check|fkey|key)$'),
             'record'),
    case p_sqlstate when '23502' then 'required' when '23503' then 'not_found' when '23505' then 'duplicate'
                    else 'invalid' end)));
$$;

/** A JSON array of ids as uuid[]; null for anything else (no filter). */
create function private.uuid_array(p_ids jsonb)
returns uuid[]
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_ids) = 'array' then array(select jsonb_array_elements_text(p_ids))::uuid[] end;
$$;

/** A JSON string as a timestamp; null when it is not one. */
create function private.try_timestamptz(p_value jsonb)
returns timestamptz
language plpgsql
stable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' then
    return null;
  end if;
  return (p_value #>> '{}')::timestamptz;
exception when others then
  return null;
end;
$$;

/** A JSON string as a uuid; null when it is not one. */
create function private.try_uuid(p_value jsonb)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' then
    return null;
  end if;
  return (p_value #>> '{}')::uuid;
exception when others then
  return null;
end;
$$;

/** A JSON number, or a string holding a plain decimal number, as numeric; null otherwise. */
create function private.json_numeric(p_value jsonb)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_value) = 'number' then (p_value #>> '{}')::numeric
              when jsonb_typeof(p_value) = 'string' and btrim(p_value #>> '{}') ~ '^-?\d{1,15}(\.\d{1,8})?$'
                then btrim(p_value #>> '{}')::numeric end;
$$;

/** A JSON string 'YYYY-MM-DD' of the years 2000-2999 as a date; null when it is not one. */
create function private.try_calendar_date(p_value jsonb)
returns date
language plpgsql
immutable
set search_path = ''
as $$
declare
  parsed date;
begin
  if jsonb_typeof(p_value) is distinct from 'string' or (p_value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$' then
    return null;
  end if;
  parsed := (p_value #>> '{}')::date;
  return case when extract(year from parsed) between 2000 and 2999 then parsed end;
exception when others then
  return null;
end;
$$;

/**
 * private.clean_text for many fields at once: of p_values' fields named in p_fields, the
 * strings trimmed (empty as null) and the nulls under "values", any other JSON type under
 * "errors" as invalid. One call for all of a row's text fields.
 */
create function private.clean_text_fields(p_values jsonb, p_fields text[])
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  field text;
  value jsonb;
  keys text[] := '{}';
  texts text[] := '{}';
  errors jsonb := '{}';
begin
  foreach field in array p_fields loop
    value := p_values -> field;
    continue when value is null;
    case jsonb_typeof(value)
      when 'string' then
        keys := keys || field;
        texts := texts || nullif(btrim(value #>> '{}'), '');
      when 'null' then
        keys := keys || field;
        texts := texts || null::text;
      else
        errors := errors || jsonb_build_object(field, 'invalid');
    end case;
  end loop;
  return jsonb_build_object('values', jsonb_object(keys, texts), 'errors', errors);
end;
$$;

/** A text as a regular expression that matches exactly that text (every character that is not a letter, digit or space escaped). */
create function private.regex_literal(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select regexp_replace(p_text, '([^[:alnum:][:space:]])', '\\\1', 'g');
$$;

-- The caller: the Auth session of the request, the organization that session is bound
-- to, and what the caller is (super admin, an organization's admin, a member with a
-- module scope). private.caller_context is the one guard: every RPC of the other files
-- asks it who calls and whether they may, and refuses with its answer or private.refusal's
-- (each refusal text is written there and nowhere else).

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
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from auth.sessions s
                  where s.id = private.current_session_id() and s.user_id = auth.uid());
$$;

/**
 * Super admin status: global role super_admin only (spec section 6), on a usable account.
 * Asked about the caller (auth.uid()), the request's Auth session must also still exist:
 * a token that outlived a sign-out is no longer a super admin's.
 */
create function private.is_super_admin(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin')
     and private.is_account_usable(p_user_id)
     and (p_user_id is distinct from auth.uid() or private.has_live_session());
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

-- Organizations and their own tables (DESIGN.md D4): the organization rows, the tenant
-- template runner (steps, per-organization migrations, sealing, drift and security
-- checks; the tables themselves are in supabase/tenant/), provisioning, the
-- super admin's organization console, the database view and switcher, and the logo.

revoke all on schema private from public;

/** Spec section 5: a slug allows only letters, digits, underscore and hyphen. */
create function private.is_valid_slug(p_slug text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_slug is not null
     and p_slug ~ '^[A-Za-z0-9_-]{1,30}$'
     and private.is_safe_identifier('org_' || lower(replace(p_slug, '-', '_')) || '_0');
$$;

create table private.organizations (
  id uuid primary key default gen_random_uuid(),
  -- Spec section 5: letters, digits, underscore and hyphen.
  slug text not null unique check (slug ~ '^[A-Za-z0-9_-]{1,30}$')
    constraint organizations_slug_check_words check (private.is_valid_slug(slug)),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  subscription_plan text not null default 'basic',
  subscription_status text not null default 'active',
  is_active boolean not null default true,
  -- Part of the physical names of the organization's own tables (spec section 3).
  table_prefix_timestamp bigint not null default (extract(epoch from clock_timestamp()) * 1000)::bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The schema of the organization's own tables (DESIGN.md D4).
  schema_name text generated always as (
    'org_' || lower(replace(slug, '-', '_')) || '_' || table_prefix_timestamp::text) stored
    constraint organizations_schema_name_key unique
    constraint organizations_schema_name_check check (private.is_safe_identifier(schema_name)),
  -- The template version this organization's schema has reached (0: not provisioned).
  template_version integer not null default 0,
  last_migration_error text,
  last_migrated_at timestamptz
);

comment on table private.organizations is 'Tenants. Physical table names derive from slug + table_prefix_timestamp.';

-- Defence in depth: nothing in private is granted to the API roles, and even if a grant
-- slipped in, row level security without policies would still return nothing.
alter table private.organizations enable row level security;

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

create table private.tenant_template_steps (
  version integer primary key check (version > 0),
  description text not null,
  -- Runs with search_path set to the organization's schema: unqualified names land
  -- there. Never edit a shipped step; add a new version instead.
  ddl text not null
);

comment on table private.tenant_template_steps is 'The single definition of every tenant table, applied in version order.';

create table private.tenant_migrations (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  version integer not null references private.tenant_template_steps (version),
  applied_at timestamptz not null default now(),
  duration_ms numeric(12, 3) not null,
  primary key (organization_id, version)
);

create index tenant_migrations_version_idx on private.tenant_migrations (version);

comment on table private.tenant_migrations is 'Which template version was applied to which organization, when, and how long it took.';

alter table private.tenant_template_steps enable row level security;

alter table private.tenant_migrations enable row level security;

/**
 * The columns, indexes and trigger every tenant record table shares: owner, creator,
 * timestamps and soft delete. Template steps call it with current_schema(), the tenant
 * schema migrate_tenant selected.
 * Shipped steps depend on it: change it only together with a new template step.
 */
create function private.add_record_columns(p_schema text, p_table text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  if not private.is_safe_identifier(p_table) or not private.is_safe_identifier(p_schema) then
    raise exception 'unsafe identifier %.%', p_schema, p_table;
  end if;
  execute format($ddl$
    alter table %1$I.%2$I
      add column owner_id uuid not null,
      add column created_by uuid not null,
      add column created_at timestamptz not null default now(),
      add column updated_at timestamptz not null default now(),
      add column deleted_at timestamptz;
    create index %3$I on %1$I.%2$I (owner_id);
    create index %4$I on %1$I.%2$I (created_at desc) where deleted_at is null;
    create trigger touch_updated_at before update on %1$I.%2$I
      for each row execute function private.touch_updated_at();
  $ddl$, p_schema, p_table, p_table || '_owner_id_idx', p_table || '_created_at_idx');
end;
$$;

/** The newest template version. */
create function private.latest_template_version()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(max(version), 0) from private.tenant_template_steps;
$$;

/**
 * Seals a tenant schema after any step: row level security on every table, nothing for
 * PUBLIC or the API roles. Tenant data is reached only through security definer RPCs.
 */
create function private.seal_tenant_schema(p_schema text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  table_name text;
begin
  execute format('revoke all on schema %I from public, anon, authenticated', p_schema);
  execute format('revoke all on all tables in schema %I from public, anon, authenticated', p_schema);
  execute format('revoke all on all sequences in schema %I from public, anon, authenticated', p_schema);
  execute format('revoke all on all functions in schema %I from public, anon, authenticated', p_schema);
  for table_name in
    select c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
  loop
    execute format('alter table %I.%I enable row level security', p_schema, table_name);
  end loop;
end;
$$;

/**
 * Brings one organization's schema to the newest template version: creates the schema
 * when missing, applies every step above the recorded version in order, records each.
 * Idempotent; runs in the caller's transaction (one organization per transaction).
 */
create function private.migrate_tenant(p_organization_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization private.organizations;
  step private.tenant_template_steps;
  started timestamptz;
begin
  -- The row lock serialises concurrent runs for the same organization.
  select * into organization from private.organizations where id = p_organization_id for update;
  if not found then
    raise exception 'organization % not found', p_organization_id;
  end if;
  if not private.is_safe_identifier(organization.schema_name) then
    raise exception 'unsafe schema name %', organization.schema_name;
  end if;

  if not exists (select 1 from pg_catalog.pg_namespace where nspname = organization.schema_name) then
    execute format('create schema %I', organization.schema_name);
    organization.template_version := 0;
  end if;

  for step in
    select * from private.tenant_template_steps where version > organization.template_version order by version
  loop
    started := clock_timestamp();
    perform pg_catalog.set_config('search_path', pg_catalog.format('%I, pg_catalog', organization.schema_name), true);
    execute step.ddl;
    perform pg_catalog.set_config('search_path', '', true);
    perform private.seal_tenant_schema(organization.schema_name);
    insert into private.tenant_migrations (organization_id, version, duration_ms)
    values (organization.id, step.version, extract(epoch from clock_timestamp() - started) * 1000)
    on conflict (organization_id, version) do update set applied_at = now(), duration_ms = excluded.duration_ms;
    organization.template_version := step.version;
  end loop;

  update private.organizations
     set template_version = organization.template_version,
         last_migration_error = null,
         last_migrated_at = now(),
         updated_at = now()
   where id = organization.id;
  return organization.template_version;
end;
$$;

/** Organizations whose tables are behind the template (or missing), oldest first. */
create function private.organizations_behind_template()
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  select o.id from private.organizations o
   where o.template_version < private.latest_template_version()
      or not exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name)
   order by o.created_at, o.id;
$$;

/**
 * migrate_tenant for a runner that calls it once per organization, each call its own
 * transaction (scripts/stack/tenant-migrations.ts): a failure is recorded in
 * last_migration_error and returned instead of raised, so the run goes on, and the next
 * run resumes from the recorded version.
 */
create function private.try_migrate_tenant(p_organization_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.migrate_tenant(p_organization_id);
  return null;
exception when others then
  update private.organizations set last_migration_error = sqlerrm where id = p_organization_id;
  return sqlerrm;
end;
$$;

/** The physical schema of a provisioned organization, or null. */
create function private.tenant_schema(p_organization_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select o.schema_name from private.organizations o
   where o.id = p_organization_id and o.template_version > 0
     and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name);
$$;

/**
 * A description of a tenant schema's structure with the schema's own name left out:
 * columns, constraints, indexes, triggers and row level security. Two schemas built
 * from the same template have the same description.
 */
create function private.tenant_schema_signature(p_schema text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select string_agg(line, E'\n' order by line)
    from (
      select format('column %s.%s %s %s default %s', c.relname, a.attname,
                    pg_catalog.format_type(a.atttypid, a.atttypmod),
                    case when a.attnotnull then 'not null' else 'null' end,
                    coalesce(pg_catalog.pg_get_expr(d.adbin, d.adrelid), '-')) as line
        from pg_catalog.pg_class c
        join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
       where c.relnamespace = p_schema::regnamespace and c.relkind = 'r'
      union all
      select format('table %s rls %s', c.relname, c.relrowsecurity)
        from pg_catalog.pg_class c
       where c.relnamespace = p_schema::regnamespace and c.relkind = 'r'
      union all
      select format('constraint %s %s %s', c.relname, k.conname,
                    replace(pg_catalog.pg_get_constraintdef(k.oid), quote_ident(p_schema) || '.', '@.'))
        from pg_catalog.pg_constraint k
        join pg_catalog.pg_class c on c.oid = k.conrelid
       where c.relnamespace = p_schema::regnamespace
      union all
      select format('index %s', replace(pg_catalog.pg_get_indexdef(i.indexrelid), quote_ident(p_schema) || '.', '@.'))
        from pg_catalog.pg_index i
        join pg_catalog.pg_class c on c.oid = i.indrelid
       where c.relnamespace = p_schema::regnamespace
      union all
      select format('trigger %s', replace(pg_catalog.pg_get_triggerdef(t.oid), quote_ident(p_schema) || '.', '@.'))
        from pg_catalog.pg_trigger t
        join pg_catalog.pg_class c on c.oid = t.tgrelid
       where c.relnamespace = p_schema::regnamespace and not t.tgisinternal
      union all
      select format('policy %s %s', c.relname, p.polname)
        from pg_catalog.pg_policy p
        join pg_catalog.pg_class c on c.oid = p.polrelid
       where c.relnamespace = p_schema::regnamespace
    ) as parts;
$$;

/**
 * Drift check: compares every provisioned organization's schema with a reference built
 * from the template right now (in a scratch schema dropped again before returning).
 */
create function private.tenant_schema_drift()
returns table (organization_id uuid, slug text, template_version integer, matches_template boolean)
language plpgsql
security definer
set search_path = ''
set client_min_messages = warning
as $$
declare
  reference_schema text := 'tenant_reference_' || pg_catalog.txid_current();
  reference text;
  step private.tenant_template_steps;
begin
  execute format('create schema %I', reference_schema);
  for step in select * from private.tenant_template_steps order by version loop
    perform pg_catalog.set_config('search_path', pg_catalog.format('%I, pg_catalog', reference_schema), true);
    execute step.ddl;
    perform pg_catalog.set_config('search_path', '', true);
  end loop;
  perform private.seal_tenant_schema(reference_schema);
  reference := private.tenant_schema_signature(reference_schema);
  execute format('drop schema %I cascade', reference_schema);

  return query
    select o.id, o.slug, o.template_version,
           private.tenant_schema_signature(o.schema_name) is not distinct from reference
      from private.organizations o
     where private.tenant_schema(o.id) is not null
     order by o.created_at, o.id;
end;
$$;

/**
 * The security advisors' table, grant and function checks, run over the tenant schemas
 * (the advisors only scan exposed schemas). Empty when everything is sealed.
 */
create function private.tenant_security_findings()
returns table (schema_name text, object_name text, finding text)
language sql
stable
security definer
set search_path = ''
as $$
  with tenant_schemas as (
    select n.oid, n.nspname
      from pg_catalog.pg_namespace n
     where n.nspname in (select o.schema_name from private.organizations o)
        or n.nspname like 'org\_%'
  )
  select s.nspname, null::text, 'schema is not registered to an organization'
    from tenant_schemas s
   where s.nspname not in (select o.schema_name from private.organizations o)
  union all
  select s.nspname, null, 'API role can use the schema'
    from tenant_schemas s
   where has_schema_privilege('anon', s.oid, 'usage') or has_schema_privilege('authenticated', s.oid, 'usage')
  union all
  select s.nspname, c.relname, 'row level security is off'
    from tenant_schemas s join pg_catalog.pg_class c on c.relnamespace = s.oid
   where c.relkind in ('r', 'p') and not c.relrowsecurity
  union all
  select s.nspname, c.relname, 'API role has a privilege on the table'
    from tenant_schemas s join pg_catalog.pg_class c on c.relnamespace = s.oid
   where c.relkind in ('r', 'p', 'v', 'm', 'S')
     and exists (select 1 from unnest(array['anon', 'authenticated']) as r (role_name)
                  where has_table_privilege(r.role_name, c.oid, 'select, insert, update, delete, truncate, references, trigger'))
  union all
  select s.nspname, c.relname, 'view without security_invoker'
    from tenant_schemas s join pg_catalog.pg_class c on c.relnamespace = s.oid
   where c.relkind = 'v' and not coalesce(c.reloptions @> array['security_invoker=true'], false)
  union all
  select s.nspname, p.proname, 'function in a tenant schema'
    from tenant_schemas s join pg_catalog.pg_proc p on p.pronamespace = s.oid
  union all
  select s.nspname, c.relname || '.' || pol.polname, 'policy that always allows'
    from tenant_schemas s
    join pg_catalog.pg_class c on c.relnamespace = s.oid
    join pg_catalog.pg_policy pol on pol.polrelid = c.oid
   where pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) = 'true'
      or pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid) = 'true';
$$;

/** Checks a slug against spec section 5; {success, valid, error?}. */
create function public.validate_organization_slug(org_slug text)
returns jsonb
language sql
immutable
security definer
set search_path = ''
as $$
  select case
    when private.is_valid_slug(org_slug) then jsonb_build_object('success', true, 'valid', true)
    else jsonb_build_object('success', true, 'valid', false, 'code', 'invalid_slug',
      'error', 'Organization slug may contain only letters, digits, underscore and hyphen (at most 30), and no SQL words.')
  end;
$$;
revoke all on function public.validate_organization_slug(org_slug text) from public, anon, authenticated;
grant execute on function public.validate_organization_slug(org_slug text) to authenticated;

/**
 * Resolves a template table of the caller's organization to its physical name. Super
 * admins may name any active organization; everyone else only the organization their
 * session is bound to. Anything else gets the same single answer.
 */
create function public.resolve_table_name_bypass(org_slug text, base_table_name text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context();
  organization private.organizations;
  schema_name text;
begin
  select * into organization from private.organizations o
   where lower(o.slug) = lower(org_slug) and o.is_active;
  if caller.problem is not null or not found
     or not (caller.is_super_admin or organization.id is not distinct from caller.bound_organization_id)
     or not private.is_safe_identifier(base_table_name) then
    return private.failure('Table resolution failed for requested resource.', 'table_not_found');
  end if;

  schema_name := private.tenant_schema(organization.id);
  if schema_name is null or not exists (
       select 1 from pg_catalog.pg_class c
        where c.relnamespace = schema_name::regnamespace and c.relname = base_table_name and c.relkind = 'r') then
    return private.failure('Table resolution failed for requested resource.', 'table_not_found');
  end if;

  return jsonb_build_object('success', true, 'schema_name', schema_name, 'table_name', base_table_name,
                            'qualified_name', format('%I.%I', schema_name, base_table_name));
end;
$$;
revoke all on function public.resolve_table_name_bypass(org_slug text, base_table_name text) from public, anon, authenticated;
grant execute on function public.resolve_table_name_bypass(org_slug text, base_table_name text) to authenticated;

/**
 * Creates (or completes) the organization's own tables from the template. For a super
 * admin, any organization; for an admin, the organization of their session.
 */
create function public.create_organization_tables(org_slug text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context(p_organization_slug => org_slug);
  organization private.organizations;
  reached integer;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  -- A super admin names any organization; an admin only the one their session is bound to.
  select * into organization from private.organizations o where o.id = caller.organization_id;
  if org_slug is null or not found or not caller.is_admin then
    return private.refusal('admin_required');
  end if;

  reached := private.migrate_tenant(organization.id);
  perform private.write_audit(organization.id, 'organization.tables_provisioned', 'organization',
                              organization.id::text, jsonb_build_object('template_version', reached));
  return jsonb_build_object(
    'success', true, 'message', 'Organization tables are ready',
    'schema_name', organization.schema_name, 'template_version', reached,
    'tables', (select jsonb_agg(c.relname order by c.relname) from pg_catalog.pg_class c
                where c.relnamespace = organization.schema_name::regnamespace and c.relkind = 'r'));
end;
$$;
revoke all on function public.create_organization_tables(org_slug text) from public, anon, authenticated;
grant execute on function public.create_organization_tables(org_slug text) to authenticated;

/**
 * Super admin: registers an organization and provisions its tables in one transaction
 * (one organization per call; many in one transaction would exhaust lock memory).
 */
create function private.create_organization(p_slug text, p_name text, p_subscription_plan text default 'basic')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('super_admin');
  created private.organizations;
  clean_name text := btrim(p_name);
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if not private.is_valid_slug(p_slug) then
    return private.failure('Organization slug may contain only letters, digits, underscore and hyphen (at most 30), and no SQL words.', 'invalid_slug');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 200 then
    return private.failure('Organization name is required (at most 200 characters)', 'invalid_name');
  end if;
  if coalesce(p_subscription_plan, '') !~ '^[a-z][a-z0-9_]{0,29}$' then
    return private.failure('Invalid subscription plan', 'invalid_plan');
  end if;
  if exists (select 1 from private.organizations o
              where lower(replace(o.slug, '-', '_')) = lower(replace(p_slug, '-', '_'))) then
    return private.failure('Organization slug is already in use', 'slug_taken');
  end if;

  insert into private.organizations (slug, name, subscription_plan)
  values (p_slug, clean_name, p_subscription_plan)
  returning * into created;
  perform private.migrate_tenant(created.id);
  perform private.write_audit(created.id, 'organization.created', 'organization', created.id::text,
                              jsonb_build_object('slug', created.slug, 'name', created.name));

  return jsonb_build_object('success', true, 'message', 'Organization created',
    'organization', jsonb_build_object('id', created.id, 'slug', created.slug, 'name', created.name,
      'subscription_plan', created.subscription_plan, 'subscription_status', created.subscription_status,
      'is_active', created.is_active, 'table_prefix_timestamp', created.table_prefix_timestamp,
      'template_version', private.latest_template_version()));
end;
$$;

/** An organization as the organization manager shows it. */
create function private.organization_json(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', o.id, 'slug', o.slug, 'name', o.name, 'subscription_plan', o.subscription_plan,
    'subscription_status', o.subscription_status, 'is_active', o.is_active,
    'table_prefix_timestamp', o.table_prefix_timestamp, 'template_version', o.template_version,
    'latest_template_version', private.latest_template_version(),
    'last_migration_error', o.last_migration_error, 'created_at', o.created_at,
    'member_count', (select count(*) from private.memberships m where m.organization_id = o.id),
    'active_member_count', (select count(*) from private.memberships m
                             where m.organization_id = o.id and m.is_active))
    from private.organizations o
   where o.id = p_organization_id;
$$;

/** Super admin: every organization with its member counts and table status. */
create function private.list_organizations()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('super_admin');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'organizations', (
    select coalesce(jsonb_agg(private.organization_json(o.id) order by o.name, o.slug), '[]')
      from private.organizations o));
end;
$$;

/**
 * Super admin: changes an organization's name, plan, subscription status or activity. A
 * deactivated organization's members stop working in it at once (their bindings go).
 */
create function private.update_organization(p_organization_id uuid, p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('super_admin');
  unknown_field text;
  clean_name text := btrim(p_changes ->> 'name');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if not exists (select 1 from private.organizations o where o.id = p_organization_id) then
    return private.failure('Organization not found', 'organization_not_found');
  end if;
  if jsonb_typeof(p_changes) is distinct from 'object' then
    return private.failure('Invalid organization change', 'invalid_input');
  end if;
  select key into unknown_field from jsonb_object_keys(p_changes) as keys (key)
   where key not in ('name', 'subscription_plan', 'subscription_status', 'is_active') limit 1;
  if unknown_field is not null
     or (p_changes ? 'name' and (jsonb_typeof(p_changes -> 'name') <> 'string'
                                 or char_length(clean_name) not between 1 and 200))
     or (p_changes ? 'subscription_plan' and (jsonb_typeof(p_changes -> 'subscription_plan') <> 'string'
                                              or (p_changes ->> 'subscription_plan') !~ '^[a-z][a-z0-9_]{0,29}$'))
     or (p_changes ? 'subscription_status' and coalesce(p_changes #>> '{subscription_status}', '') not in ('active', 'trial', 'past_due', 'suspended', 'cancelled'))
     or (p_changes ? 'is_active' and jsonb_typeof(p_changes -> 'is_active') <> 'boolean') then
    return private.failure('Invalid organization change', 'invalid_input');
  end if;

  update private.organizations
     set name = coalesce(clean_name, name),
         subscription_plan = coalesce(p_changes ->> 'subscription_plan', subscription_plan),
         subscription_status = coalesce(p_changes ->> 'subscription_status', subscription_status),
         is_active = coalesce((p_changes ->> 'is_active')::boolean, is_active),
         updated_at = now()
   where id = p_organization_id;
  if (p_changes ->> 'is_active')::boolean is false then
    delete from private.session_organizations s where s.organization_id = p_organization_id;
  end if;
  perform private.write_audit(p_organization_id, 'organization.updated', 'organization', p_organization_id::text, p_changes);
  return jsonb_build_object('success', true, 'organization', private.organization_json(p_organization_id));
end;
$$;

/** Admin: the organization's tables (row counts and sizes) and where its template stands. */
create function public.get_organization_tables(p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
  target_org uuid := caller.organization_id;
  organization private.organizations;
  schema_name text;
  tables jsonb := '[]';
  table_name text;
  row_count bigint;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  select * into organization from private.organizations where id = target_org;
  schema_name := private.tenant_schema(target_org);

  if schema_name is not null then
    for table_name in
      select c.relname from pg_catalog.pg_class c
       where c.relnamespace = schema_name::regnamespace and c.relkind = 'r' order by c.relname
    loop
      execute format('select count(*) from %I.%I', schema_name, table_name) into row_count;
      tables := tables || jsonb_build_array(jsonb_build_object(
        'name', table_name, 'row_count', row_count,
        'total_bytes', pg_catalog.pg_total_relation_size(format('%I.%I', schema_name, table_name)::regclass)));
    end loop;
  end if;

  return jsonb_build_object('success', true,
    'schema_name', organization.schema_name,
    'provisioned', schema_name is not null,
    'template_version', organization.template_version,
    'latest_template_version', private.latest_template_version(),
    'last_migrated_at', organization.last_migrated_at,
    'last_migration_error', organization.last_migration_error,
    'needs_provisioning', schema_name is null or organization.template_version < private.latest_template_version(),
    'tables', tables);
end;
$$;
revoke all on function public.get_organization_tables(p_organization_slug text) from public, anon, authenticated;
grant execute on function public.get_organization_tables(p_organization_slug text) to authenticated;

/**
 * Super admin: moves this Auth session to another active organization. The previous
 * binding ends and the new one is recorded in the audit logs of both organizations. A
 * lock refuses it as it refuses binding.
 */
create function public.super_admin_switch_organization(p_organization_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('live_session');
  caller uuid := context.user_id;
  session uuid := context.session_id;
  previous uuid;
  target private.organizations;
  problem jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  -- A lock answers as a lock, before the super admin question (a locked account is none).
  problem := private.lock_problem(caller);
  if problem is not null then
    return problem;
  end if;
  if not context.is_super_admin then
    return private.refusal('super_admin_required');
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
revoke all on function public.super_admin_switch_organization(p_organization_id uuid) from public, anon, authenticated;
grant execute on function public.super_admin_switch_organization(p_organization_id uuid) to authenticated;

/**
 * The organization an admin RPC acts in and its schema, or in problem the failure to
 * answer: private.caller_context's need 'admin' (the session's organization; a super admin
 * may name another by p_organization_slug), then the organization's tables.
 */
create function private.admin_tenant_schema(p_organization_slug text default null,
                                            out organization_id uuid, out schema_name text, out problem jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
begin
  problem := caller.problem;
  if problem is null then
    organization_id := caller.organization_id;
    schema_name := private.tenant_schema(organization_id);
    if schema_name is null then
      problem := private.refusal('tables_not_found');
    end if;
  end if;
end;
$$;

-- The organization's logo, kept in the database: a PNG, JPEG or WebP image of at most
-- 256 KB, checked by its first bytes. (lite's Storage has no access rules yet, and a logo
-- this small travels well inside an RPC answer.) It replaces the free-text logo_path.
create table private.organization_logos (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
  image bytea not null check (octet_length(image) between 1 and 262144),
  updated_at timestamptz not null default now(),
  updated_by uuid
);

comment on table private.organization_logos is 'Each organization''s logo image (at most one; 256 KB at most).';

alter table private.organization_logos enable row level security;

/**
 * Admin: sets the organization's logo from base64 text. Refused: another type than PNG,
 * JPEG or WebP (SVG can carry scripts), bytes that are not that type, more than 256 KB.
 */
create function public.set_organization_logo(p_content_type text, p_image_base64 text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  image bytea;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if coalesce(p_content_type, '') not in ('image/png', 'image/jpeg', 'image/webp') then
    return private.failure('Unsupported logo format', 'invalid_logo_type');
  end if;
  -- 256 KB is at most 349,528 base64 characters (some room for line breaks).
  if char_length(coalesce(p_image_base64, '')) > 360000 then
    return private.failure('Logo is too large', 'logo_too_large', jsonb_build_object('max_bytes', 262144));
  end if;
  begin
    image := decode(p_image_base64, 'base64');
  exception when others then
    return private.failure('Invalid logo image', 'invalid_logo');
  end;
  if octet_length(image) > 262144 then
    return private.failure('Logo is too large', 'logo_too_large', jsonb_build_object('max_bytes', 262144));
  end if;
  if not coalesce(private.is_image_of_type(image, p_content_type), false) then
    return private.failure('Invalid logo image', 'invalid_logo');
  end if;

  insert into private.organization_logos (organization_id, content_type, image, updated_by)
  values (target_org, p_content_type, image, auth.uid())
  on conflict (organization_id) do update
    set content_type = excluded.content_type, image = excluded.image, updated_at = now(), updated_by = excluded.updated_by;
  perform private.write_audit(target_org, 'settings.logo_updated', 'organization', target_org::text,
                              jsonb_build_object('content_type', p_content_type, 'bytes', octet_length(image)));
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;
revoke all on function public.set_organization_logo(p_content_type text, p_image_base64 text) from public, anon, authenticated;
grant execute on function public.set_organization_logo(p_content_type text, p_image_base64 text) to authenticated;

/** Admin: removes the organization's logo. */
create function public.remove_organization_logo()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  delete from private.organization_logos where organization_id = target_org;
  if found then
    perform private.write_audit(target_org, 'settings.logo_removed', 'organization', target_org::text);
  end if;
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;
revoke all on function public.remove_organization_logo() from public, anon, authenticated;
grant execute on function public.remove_organization_logo() to authenticated;

/** The logo of the caller's organization as base64 with its type (null when it has none); members read it. */
create function public.get_organization_logo()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'logo',
    (select jsonb_build_object('content_type', l.content_type, 'data_base64', translate(encode(l.image, 'base64'), E'\n', ''),
                               'updated_at', l.updated_at)
       from private.organization_logos l where l.organization_id = target_org));
end;
$$;
revoke all on function public.get_organization_logo() from public, anon, authenticated;
grant execute on function public.get_organization_logo() to authenticated;

/** The organization a tenant schema belongs to (triggers know only their schema). */
create function private.schema_organization(p_schema text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select o.id from private.organizations o where o.schema_name = p_schema;
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
revoke all on function public.list_organizations() from public, anon, authenticated;
grant execute on function public.list_organizations() to authenticated;

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
revoke all on function public.create_organization(p_slug text, p_name text, p_subscription_plan text) from public, anon, authenticated;
grant execute on function public.create_organization(p_slug text, p_name text, p_subscription_plan text) to authenticated;

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
revoke all on function public.update_organization(p_organization_id uuid, p_changes jsonb) from public, anon, authenticated;
grant execute on function public.update_organization(p_organization_id uuid, p_changes jsonb) to authenticated;

-- People and what they may do: profiles, memberships, each organization's roles and
-- permission matrix, user administration (create, edit, lock, delete, reset), record
-- transfer between users, a user's own profile, and the member lists.

create table private.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null unique check (email = lower(btrim(email)) and email like '%_@_%'),
  first_name text not null default '' check (first_name = btrim(first_name)),
  last_name text not null default '' check (last_name = btrim(last_name)),
  -- Global role (spec section 6): super_admin works across organizations.
  role text not null default 'user' check (role in ('super_admin', 'admin', 'user')),
  is_active boolean not null default true,
  failed_login_attempts integer not null default 0 check (failed_login_attempts >= 0),
  last_failed_attempt timestamptz,
  locked_until timestamptz,
  locked_by_admin boolean not null default false,
  last_login_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- When the user first accepted the terms (accept_terms).
  terms_accepted_at timestamptz
);

comment on table private.profiles is 'One row per Auth user: names, global role and lockout state.';

create table private.memberships (
  user_id uuid not null references private.profiles (id) on delete cascade,
  organization_id uuid not null references private.organizations (id) on delete cascade,
  -- Organization role: admin or an ordinary role (user by default; manager, sales, ...).
  role text not null default 'user' check (role ~ '^[a-z][a-z0-9_]{0,39}$'),
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  primary key (user_id, organization_id)
);

create index memberships_organization_id_idx on private.memberships (organization_id);

comment on table private.memberships is 'Which organizations a user may work in, and with which organization role.';

alter table private.profiles enable row level security;

alter table private.memberships enable row level security;

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
  -- A module and an action of the registry (foreign keys added in 07_module_engine.sql,
  -- after the registry's tables).
  module text not null,
  action text not null,
  -- own: only records the member owns; all: every record of the organization.
  scope text not null check (scope in ('own', 'all')),
  primary key (organization_id, role_key, module, action),
  foreign key (organization_id, role_key) references private.organization_roles (organization_id, key)
    on delete cascade on update cascade
);

comment on table private.role_permissions is 'Permission matrix: what each organization role may do in each module; a missing row means not allowed.';

alter table private.memberships
  add constraint memberships_role_fkey foreign key (organization_id, role)
  references private.organization_roles (organization_id, key) on update cascade;

create index memberships_organization_role_idx on private.memberships (organization_id, role);

/**
 * What each default role may do in every module: admin and manager
 * everything on all records; sales sees all records and creates, edits, deletes and
 * exports its own; user the same without export; viewer only sees.
 */
create function private.default_role_grants()
returns table (role_key text, action text, scope text)
language sql
immutable
set search_path = ''
as $$
  values
    ('admin', 'view', 'all'), ('admin', 'create', 'all'), ('admin', 'edit', 'all'),
    ('admin', 'delete', 'all'), ('admin', 'export', 'all'), ('admin', 'import', 'all'),
    ('manager', 'view', 'all'), ('manager', 'create', 'all'), ('manager', 'edit', 'all'),
    ('manager', 'delete', 'all'), ('manager', 'export', 'all'), ('manager', 'import', 'all'),
    ('sales', 'view', 'all'), ('sales', 'create', 'own'), ('sales', 'edit', 'own'),
    ('sales', 'delete', 'own'), ('sales', 'export', 'own'),
    ('user', 'view', 'all'), ('user', 'create', 'own'), ('user', 'edit', 'own'),
    ('user', 'delete', 'own'),
    ('viewer', 'view', 'all');
$$;

/**
 * Gives an organization's default roles (those it still has) their default permissions
 * (private.default_role_grants) in one module, or in every registered module when p_module
 * is null, where the organization has no permission in that module yet: a module it
 * already has rows for keeps them as its admins left them, so a removed row never comes
 * back. New organizations get their matrix so; a module registered later reaches the
 * organizations that exist (private.register_module).
 */
create function private.grant_default_permissions(p_organization_id uuid, p_module text)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select p_organization_id, grants.role_key, m.key, grants.action, grants.scope
    from private.modules m
   cross join private.default_role_grants() grants
    join private.organization_roles r on r.organization_id = p_organization_id and r.key = grants.role_key
   where (p_module is null or m.key = p_module)
     and not exists (select 1 from private.role_permissions rp
                      where rp.organization_id = p_organization_id and rp.module = m.key)
  on conflict do nothing;
$$;

/**
 * Gives a new organization its default roles and their permission matrix over every
 * module of the registry. Admins edit both later; only the admin role is fixed.
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

  select private.grant_default_permissions(p_organization_id, null);
$$;

alter table private.organization_roles enable row level security;

alter table private.role_permissions enable row level security;

/**
 * Login-flow repair (spec section 7): when Auth refuses a password that
 * secure_login_prepare_auth accepted, completes the account's Auth user. Acts only for
 * the sign-in in progress that just proved this password; answers every other caller
 * with the same failure. Audited in the account's organizations.
 */
create function public.create_auth_user_admin(p_email text, p_password text, p_first_name text default null,
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
revoke all on function public.create_auth_user_admin(p_email text, p_password text, p_first_name text, p_last_name text) from public, anon, authenticated;
grant execute on function public.create_auth_user_admin(p_email text, p_password text, p_first_name text, p_last_name text) to anon, authenticated;

/**
 * May the caller, as private.caller_context described them (p_caller: its organization_id
 * is the one the RPC acts in), administer this user there? Returns null when yes,
 * otherwise the failure to answer. A super admin may act on anyone; an admin only on
 * members of their session's organization who are not super admins. When an admin is
 * refused on an account that exists (a member of other organizations only, or a super
 * admin), the refusal goes to the audit log of each of the account's organizations; the
 * caller's answer stays the same.
 */
create function private.check_user_admin(p_caller private.caller_context, p_target uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_caller.user_id is null then
    return private.refusal('authentication_required');
  end if;
  if not (p_caller.is_super_admin or p_caller.is_admin) then
    return private.refusal('admin_required');
  end if;
  if not exists (select 1 from private.profiles p where p.id = p_target) then
    return private.failure('User not found', 'user_not_found');
  end if;
  if p_caller.is_super_admin then
    return null;
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = p_target and m.organization_id = p_caller.organization_id) then
    perform private.record_refused_access(p_target, 'user_not_found', p_caller.organization_id);
    return private.failure('User not found', 'user_not_found');
  end if;
  if exists (select 1 from private.profiles p where p.id = p_target and p.role = 'super_admin') then
    perform private.record_refused_access(p_target, 'super_admin_required', p_caller.organization_id);
    return private.refusal('super_admin_required');
  end if;
  return null;
end;
$$;

/** A new password (create, reset, change): the length rules and not a common password. */
create function private.check_password(p_password text)
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

/** Names are trimmed and at most 100 characters; null when fine. */
create function private.check_names(p_first_name text, p_last_name text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when char_length(btrim(coalesce(p_first_name, ''))) > 100 or char_length(btrim(coalesce(p_last_name, ''))) > 100
      then private.failure('Ad ve soyad en fazla 100 karakter olabilir', 'name_too_long')
  end;
$$;

/**
 * The transfer kinds of spec section 3 and the tenant tables each one moves, in the
 * registry's order: each module's table under its transfer kind, then its further
 * transfer tables (a quote's items), and last the document templates, a kind of their own
 * that belongs to no module. The first table of a kind (is_primary) is the one its count
 * refers to; is_default marks the kinds a transfer moves when none are named (the
 * transfer_default of the module the kind is named after).
 */
create function private.transfer_kinds()
returns table (kind text, table_name text, is_primary boolean, is_default boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select kinds.kind, kinds.table_name, kinds.is_primary, kinds.is_default
    from (select m.position, 0 as part, m.transfer_kind as kind, m.table_name, m.key = m.transfer_kind as is_primary,
                 named.transfer_default as is_default
            from private.modules m join private.modules named on named.key = m.transfer_kind
          union all
          select m.position, extra.part, m.transfer_kind, extra.table_name, false, named.transfer_default
            from private.modules m
            join private.modules named on named.key = m.transfer_kind
           cross join unnest(m.transfer_tables) with ordinality extra (table_name, part)
          union all
          select null, 0, 'templates', 'document_templates', true, false) kinds
   order by kinds.position nulls last, kinds.part;
$$;

/**
 * How many rows the user owns in each table a transfer can move (documents and notes
 * stay with their author and do not hold a deletion back).
 */
create function private.owned_record_counts(p_schema text, p_user_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  table_name text;
  row_count bigint;
  counts jsonb := '{}';
begin
  if p_schema is null then
    return counts;
  end if;
  for table_name in
    select k.table_name from private.transfer_kinds() k
     where exists (select 1 from pg_catalog.pg_class c
                    where c.relnamespace = p_schema::regnamespace and c.relname = k.table_name and c.relkind = 'r')
     order by k.table_name
  loop
    execute format('select count(*) from %I.%I where owner_id = $1', p_schema, table_name) into row_count using p_user_id;
    counts := counts || jsonb_build_object(table_name, row_count);
  end loop;
  return counts;
end;
$$;

/** Spec section 5: creates a user with an Auth account and a membership in the named organization. */
create function private.create_user_secure(p_email text, p_password text, p_organization_id uuid,
                                                     p_first_name text default null, p_last_name text default null,
                                                     p_role text default 'user')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context();
  caller_is_super boolean := caller.is_super_admin;
  login_email text := private.normalize_email(p_email);
  organization_role text := coalesce(nullif(btrim(p_role), ''), 'user');
  new_id uuid := gen_random_uuid();
  problem jsonb;
begin
  -- Spec section 5 answers in Turkish; anyone but an admin of the session's organization
  -- (or a super admin) gets the same refusal, signed in or not.
  if not (caller_is_super or caller.is_admin) then
    return private.refusal('admin_required', 'tr');
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
    return private.refusal('organization_required', 'tr');
  end if;
  if not caller_is_super and p_organization_id is distinct from caller.organization_id then
    return private.refusal('admin_required', 'tr');
  end if;
  problem := private.check_names(p_first_name, p_last_name);
  if problem is not null then
    return problem;
  end if;
  if organization_role = 'super_admin' and not caller_is_super then
    return private.refusal('super_admin_required', 'tr');
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
create function private.update_user_secure(p_user_id uuid, p_user_data jsonb, p_organization_slug text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context(p_organization_slug => p_organization_slug);
  caller uuid := context.user_id;
  caller_is_super boolean := context.is_super_admin;
  target_org uuid := context.organization_id;
  target private.profiles;
  membership private.memberships;
  unknown_field text;
  new_email text;
  new_role text := nullif(btrim(p_user_data ->> 'role'), '');
  new_global_role text;
  changes jsonb := '{}';
  problem jsonb;
begin
  problem := private.check_user_admin(context, p_user_id);
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
      return private.refusal('super_admin_required');
    end if;
    if new_role <> 'super_admin' and not exists (
         select 1 from private.organization_roles r where r.organization_id = target_org and r.key = new_role) then
      return private.failure('Geçersiz rol', 'invalid_role');
    end if;
  end if;
  if (new_role is not null or p_user_data ? 'is_active') then
    if target_org is null then
      return private.refusal('organization_required');
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
create function private.delete_user_secure(p_user_id uuid, p_organization_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context(p_organization_id => p_organization_id);
  caller uuid := context.user_id;
  -- A super admin removes from the organization named, or deletes the whole account when
  -- none is named; an admin always acts in their session's organization (naming another: null).
  target_org uuid := case when context.is_super_admin then p_organization_id else context.organization_id end;
  member_of uuid;
  counts jsonb;
  problem jsonb;
begin
  if caller is not null and p_user_id = caller then
    return private.failure('Kendi hesabınızı silemezsiniz', 'self_delete');
  end if;
  if caller is not null and not context.is_super_admin
     and exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin') then
    return private.failure('Only a super admin can delete a super admin', 'super_admin_required');
  end if;
  problem := private.check_user_admin(context, p_user_id);
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
create function private.simple_reset_password(p_user_id uuid, p_new_password text)
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
create function private.lock_user_secure(p_user_id uuid)
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
create function private.unlock_user_secure(p_user_id uuid)
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

/** What a member owns of each transfer kind, plus the detail per table. */
create function private.analyze_user_records(target_user_id uuid, organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  access record := private.admin_tenant_schema(organization_slug);
  per_table jsonb;
begin
  if access.problem is not null then
    return access.problem;
  end if;
  if not exists (select 1 from private.memberships m
                  where m.user_id = target_user_id and m.organization_id = access.organization_id) then
    return private.failure('User not found', 'user_not_found');
  end if;
  begin
    per_table := private.owned_record_counts(access.schema_name, target_user_id);
  exception when others then
    return private.failure('Analysis error', 'analysis_failed');
  end;
  return jsonb_build_object('success', true, 'user_id', target_user_id,
    'counts', (select jsonb_object_agg(k.kind, coalesce((per_table ->> k.table_name)::bigint, 0))
                 from private.transfer_kinds() k where k.is_primary),
    'tables', per_table,
    'total', (select coalesce(sum(value::bigint), 0) from jsonb_each_text(per_table)));
end;
$$;

/** Active members who can receive records, without the one giving them. */
create function private.get_users_for_transfer(organization_slug text default null, exclude_user_id uuid default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => organization_slug);
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'users', (
    select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'email', p.email, 'first_name', p.first_name,
                                                 'last_name', p.last_name, 'role', m.role)
                              order by p.first_name, p.last_name, p.email), '[]')
      from private.memberships m
      join private.profiles p on p.id = m.user_id
     where m.organization_id = caller.organization_id
       and m.is_active and private.is_account_usable(p.id)
       and p.id is distinct from exclude_user_id));
end;
$$;

/**
 * Moves the chosen kinds of records (private.transfer_kinds) from one member to another,
 * all or nothing. Without kinds, the kinds whose default is on (spec section 9: deals,
 * customers and tasks; contracts, quotes and templates off); an unknown kind is refused
 * (invalid_transfer_kind). Tasks keep their reminder and due times, so what is still to be
 * announced goes to the new owner. The new owner gets no notification per record
 * (crm.quiet_assignments): the transfer is one audited admin action.
 */
create function private.transfer_user_records(
  from_user_id uuid, to_user_id uuid, organization_slug text default null, kinds text[] default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  access record := private.admin_tenant_schema(organization_slug);
  target_org uuid;
  schema_name text;
  chosen text[];
  kind_table record;
  moved bigint;
  transferred jsonb := '{}';
begin
  if access.problem is not null then
    return access.problem;
  end if;
  target_org := access.organization_id;
  schema_name := access.schema_name;
  if from_user_id is null or to_user_id is null or from_user_id = to_user_id then
    return private.failure('Transfer error: choose two different users', 'invalid_users');
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = from_user_id and m.organization_id = target_org)
     or not exists (select 1 from private.memberships m
                     where m.user_id = to_user_id and m.organization_id = target_org and m.is_active)
     or not private.is_account_usable(to_user_id) then
    return private.failure('User not found', 'user_not_found');
  end if;

  if exists (select 1 from unnest(kinds) named
              where not exists (select 1 from private.transfer_kinds() k where k.kind = named)) then
    return private.failure('Unknown transfer kind', 'invalid_transfer_kind');
  end if;
  chosen := array(select k.kind from private.transfer_kinds() k
                   where k.is_primary and case when kinds is null then k.is_default else k.kind = any (kinds) end);

  begin
    perform pg_catalog.set_config('crm.quiet_assignments', 'on', true);
    for kind_table in select * from private.transfer_kinds() k where k.kind = any (chosen) loop
      execute format('update %I.%I set owner_id = $1 where owner_id = $2', schema_name, kind_table.table_name)
        using to_user_id, from_user_id;
      get diagnostics moved = row_count;
      if kind_table.is_primary then
        transferred := transferred || jsonb_build_object(kind_table.kind, moved);
      end if;
    end loop;
    perform pg_catalog.set_config('crm.quiet_assignments', 'off', true);
  exception when others then
    -- The block's changes are rolled back: nothing moved.
    perform pg_catalog.set_config('crm.quiet_assignments', 'off', true);
    return private.failure('Transfer error', 'transfer_failed');
  end;

  perform private.write_audit(target_org, 'user.records_transferred', 'user', from_user_id::text,
                              jsonb_build_object('to_user_id', to_user_id, 'transferred', transferred));
  return jsonb_build_object('success', true, 'message', 'Kayıtlar aktarıldı', 'kinds', to_jsonb(chosen),
                            'transferred', transferred);
end;
$$;

-- What a signed-in user does for themselves (spec sections 3 and 7): accept the terms
-- (kept in the browser per email, and recorded here), edit their own name, and obtain
-- the request-forgery token that privileged Edge Function calls carry.
/** Records that the caller accepted the terms (the first time only). */
create function public.accept_terms()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('usable');
  caller uuid := context.user_id;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  update private.profiles set terms_accepted_at = coalesce(terms_accepted_at, now()) where id = caller;
  return jsonb_build_object('success', true, 'user', private.user_json(caller));
end;
$$;
revoke all on function public.accept_terms() from public, anon, authenticated;
grant execute on function public.accept_terms() to authenticated;

/** The caller changes their own first and last name (trimmed, at most 100 characters). */
create function public.update_my_profile(p_first_name text, p_last_name text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('usable');
  caller uuid := context.user_id;
  problem jsonb := private.check_names(p_first_name, p_last_name);
begin
  if context.problem is not null then
    return context.problem;
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
revoke all on function public.update_my_profile(p_first_name text, p_last_name text) from public, anon, authenticated;
grant execute on function public.update_my_profile(p_first_name text, p_last_name text) to authenticated;

/**
 * The members of the caller's organization (an admin's session organization; a super admin
 * may name one by slug), searched by name or email, filtered by organization role and by
 * status (active, inactive, locked), sorted, one page at a time.
 */
create function public.get_organization_users(
  p_search text default null, p_role text default null, p_status text default null,
  p_sort text default 'name', p_descending boolean default false,
  p_limit integer default 25, p_offset integer default 0, p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
  target_org uuid := caller.organization_id;
  sort_key text := coalesce(p_sort, 'name');
  descending boolean := coalesce(p_descending, false);
  status_filter text := coalesce(p_status, 'all');
  -- LIKE's wildcards in the search are meant literally.
  pattern text := '%' || replace(replace(replace(private.fold_search(btrim(coalesce(p_search, ''))), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if status_filter not in ('all', 'active', 'inactive', 'locked')
     or sort_key not in ('name', 'email', 'role', 'last_login_at', 'created_at') then
    return private.failure('Failed to fetch users', 'invalid_input');
  end if;

  return (
    with matching as (
      select p.*, m.role as organization_role, m.is_active as membership_active,
             coalesce(p.locked_until > now(), false) as locked
        from private.memberships m
        join private.profiles p on p.id = m.user_id
       where m.organization_id = target_org
         and (p_role is null or m.role = p_role)
         and (private.fold_search(p.email) like pattern
              or private.fold_search(p.first_name || ' ' || p.last_name) like pattern)
         and case status_filter
               when 'active' then m.is_active and p.is_active and not coalesce(p.locked_until > now(), false)
               when 'inactive' then not (m.is_active and p.is_active)
               when 'locked' then coalesce(p.locked_until > now(), false)
               else true end
    ),
    page as (
      select matching.*,
             row_number() over (order by
               case when not descending then case sort_key when 'email' then matching.email when 'role' then matching.organization_role
                 when 'name' then private.fold_search(matching.first_name || ' ' || matching.last_name) end end asc,
               case when descending then case sort_key when 'email' then matching.email when 'role' then matching.organization_role
                 when 'name' then private.fold_search(matching.first_name || ' ' || matching.last_name) end end desc,
               case when not descending then case sort_key when 'last_login_at' then matching.last_login_at
                 when 'created_at' then matching.created_at end end asc nulls last,
               case when descending then case sort_key when 'last_login_at' then matching.last_login_at
                 when 'created_at' then matching.created_at end end desc nulls last,
               matching.email) as position
        from matching
    )
    select jsonb_build_object(
      'success', true,
      'total', (select count(*) from matching),
      'users', coalesce((
        select jsonb_agg(private.user_json(page.id) || jsonb_build_object(
                 'organization_role', page.organization_role,
                 'membership_active', page.membership_active,
                 'locked', page.locked) order by page.position)
          from page
         where page.position > greatest(coalesce(p_offset, 0), 0)
           and page.position <= greatest(coalesce(p_offset, 0), 0) + page_size), '[]')));
end;
$$;
revoke all on function public.get_organization_users(p_search text, p_role text, p_status text, p_sort text, p_descending boolean, p_limit integer, p_offset integer, p_organization_slug text) from public, anon, authenticated;
grant execute on function public.get_organization_users(p_search text, p_role text, p_status text, p_sort text, p_descending boolean, p_limit integer, p_offset integer, p_organization_slug text) to authenticated;

/** The permission matrix of one role as {module: {action: scope}}. */
create function private.role_permissions_json(p_organization_id uuid, p_role text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(per_module.module, per_module.actions), '{}')
    from (select rp.module, jsonb_object_agg(rp.action, rp.scope) as actions
            from private.role_permissions rp
           where rp.organization_id = p_organization_id and rp.role_key = p_role
           group by rp.module) per_module;
$$;

/** The roles of the caller's organization with their matrices and member counts (members may read). */
create function public.get_roles()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true,
    'modules', private.modules_json(),
    'actions', private.module_actions_json(),
    'roles', (select coalesce(jsonb_agg(jsonb_build_object(
                'key', r.key, 'name', r.name, 'is_system', r.is_system,
                'member_count', (select count(*) from private.memberships m
                                  where m.organization_id = target_org and m.role = r.key),
                'permissions', private.role_permissions_json(target_org, r.key))
                order by r.is_system desc, r.key), '[]')
                from private.organization_roles r where r.organization_id = target_org));
end;
$$;
revoke all on function public.get_roles() from public, anon, authenticated;
grant execute on function public.get_roles() to authenticated;

/**
 * An admin saves a role (not the admin role) with its matrix; every entry names a registered
 * module and action. The audit entry has the name and matrix saved and, under "old", the
 * role's name and matrix before (null for a new role).
 */
create function public.save_role(p_key text, p_name text, p_permissions jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  clean_name text := btrim(p_name);
  bad_entry text;
  before_role jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if coalesce(p_key, '') !~ '^[a-z][a-z0-9_]{0,39}$' or p_key = 'super_admin' then
    return private.failure('Invalid role key', 'invalid_role_key');
  end if;
  if p_key = 'admin' then
    return private.failure('The admin role cannot be changed', 'system_role');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 100 then
    return private.failure('Invalid role name', 'invalid_role_name');
  end if;
  if jsonb_typeof(p_permissions) is distinct from 'object' then
    return private.failure('Invalid permissions', 'invalid_permissions');
  end if;
  select format('%s.%s', modules.key, actions.key) into bad_entry
    from jsonb_each(p_permissions) modules
    left join lateral jsonb_each(case when jsonb_typeof(modules.value) = 'object' then modules.value else '{"": null}' end) actions on true
   where not exists (select 1 from private.modules m where m.key = modules.key)
      or actions.key is null
      or not exists (select 1 from private.module_actions a where a.key = actions.key)
      or actions.value not in ('"own"', '"all"')
   limit 1;
  if bad_entry is not null then
    return private.failure(format('Invalid permission %s', left(bad_entry, 80)), 'invalid_permissions');
  end if;

  select jsonb_build_object('name', r.name, 'permissions', private.role_permissions_json(target_org, r.key)) into before_role
    from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  insert into private.organization_roles (organization_id, key, name)
  values (target_org, p_key, clean_name)
  on conflict (organization_id, key) do update set name = excluded.name, updated_at = now();
  delete from private.role_permissions where organization_id = target_org and role_key = p_key;
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select target_org, p_key, modules.key, actions.key, actions.value #>> '{}'
    from jsonb_each(p_permissions) modules, jsonb_each(modules.value) actions;

  perform private.write_audit(target_org, 'role.saved', 'role', p_key,
                              jsonb_build_object('name', clean_name, 'permissions', private.role_permissions_json(target_org, p_key),
                                                 'old', before_role));
  return jsonb_build_object('success', true, 'role', jsonb_build_object(
    'key', p_key, 'name', clean_name, 'is_system', false,
    'permissions', private.role_permissions_json(target_org, p_key)));
end;
$$;
revoke all on function public.save_role(p_key text, p_name text, p_permissions jsonb) from public, anon, authenticated;
grant execute on function public.save_role(p_key text, p_name text, p_permissions jsonb) to authenticated;

/** Admin: removes a role nobody holds; admin and user (the default) stay. The audit entry keeps the role's name and matrix. */
create function public.delete_role(p_key text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  holders bigint;
  before_role jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if p_key in ('admin', 'user') then
    return private.failure('This role cannot be removed', 'system_role');
  end if;
  if not exists (select 1 from private.organization_roles r where r.organization_id = target_org and r.key = p_key) then
    return private.failure('Role not found', 'role_not_found');
  end if;
  select count(*) into holders from private.memberships m where m.organization_id = target_org and m.role = p_key;
  if holders > 0 then
    return private.failure('The role still has members', 'role_in_use', jsonb_build_object('member_count', holders));
  end if;
  select jsonb_build_object('name', r.name, 'permissions', private.role_permissions_json(target_org, r.key)) into before_role
    from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  delete from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  perform private.write_audit(target_org, 'role.deleted', 'role', p_key, jsonb_build_object('old', before_role));
  return jsonb_build_object('success', true);
end;
$$;
revoke all on function public.delete_role(p_key text) from public, anon, authenticated;
grant execute on function public.delete_role(p_key text) to authenticated;

/** The caller's permission matrix in their session's organization: {module: {action: scope}}. */
create function public.get_my_permissions()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
  caller_is_admin boolean := caller.is_admin;
  permissions jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;

  if caller_is_admin then
    -- Admins may do everything, whatever their role's stored matrix says (as caller_scope).
    select jsonb_object_agg(m.key, (select jsonb_object_agg(a.key, 'all') from private.module_actions a))
      into permissions
      from private.modules m;
  else
    select private.role_permissions_json(target_org, m.role) into permissions
      from private.memberships m
     where m.user_id = auth.uid() and m.organization_id = target_org and m.is_active;
  end if;

  return jsonb_build_object('success', true, 'organization_id', target_org, 'is_admin', caller_is_admin,
                            'permissions', coalesce(permissions, '{}'));
end;
$$;
revoke all on function public.get_my_permissions() from public, anon, authenticated;
grant execute on function public.get_my_permissions() to authenticated;

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
create function private.check_account_admin(p_target uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context();
  problem jsonb := private.check_user_admin(caller, p_target);
begin
  if problem is not null or caller.is_super_admin then
    return problem;
  end if;
  if exists (select 1 from private.memberships m
              where m.user_id = p_target and m.organization_id <> caller.organization_id) then
    perform private.record_refused_access(p_target, 'shared_account', caller.organization_id);
    return private.refusal('shared_account');
  end if;
  return null;
end;
$$;

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

/**
 * The active, usable members of the caller's bound organization: id, names, email and
 * membership role, by name. Any active member may read it; another organization's
 * members are never listed.
 */
create function public.list_organization_members()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  organization uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'members', (
    select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'email', p.email, 'first_name', p.first_name,
                                                 'last_name', p.last_name, 'role', m.role)
                              order by p.first_name, p.last_name, p.email), '[]')
      from private.memberships m
      join private.profiles p on p.id = m.user_id
     where m.organization_id = organization and m.is_active and private.is_account_usable(p.id)));
end;
$$;
revoke all on function public.list_organization_members() from public, anon, authenticated;
grant execute on function public.list_organization_members() to authenticated;

/** A profile's display name, or null. */
create function private.profile_name(p_user uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') from private.profiles p where p.id = p_user;
$$;

-- The audit log: append-only (no update, delete or truncate), written by every admin
-- action with what changed, and read by the organization's admin.

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

alter table private.audit_log enable row level security;

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

/** The organization's audit trail, newest first (admins of it; a super admin names one by slug). */
create function public.get_audit_log(p_limit integer default 50, p_before_id bigint default null,
                                     p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'entries', (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', a.id, 'action', a.action, 'target_type', a.target_type, 'target_id', a.target_id,
             'details', a.details, 'created_at', a.created_at,
             'actor', jsonb_build_object('id', a.actor_id, 'email', p.email,
                                         'first_name', p.first_name, 'last_name', p.last_name))
             order by a.id desc), '[]')
      from (select * from private.audit_log l
             where l.organization_id = target_org and (p_before_id is null or l.id < p_before_id)
             order by l.id desc
             limit least(greatest(coalesce(p_limit, 50), 1), 200)) a
      left join private.profiles p on p.id = a.actor_id));
end;
$$;
revoke all on function public.get_audit_log(p_limit integer, p_before_id bigint, p_organization_slug text) from public, anon, authenticated;
grant execute on function public.get_audit_log(p_limit integer, p_before_id bigint, p_organization_slug text) to authenticated;

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

-- A record's audit entries, newest first (the dashboard's recent activity and the record
-- timeline look entries up by their target).
create index audit_log_target_idx on private.audit_log (organization_id, target_type, target_id, created_at desc);

/**
 * The fields of p_new whose value differs from p_old, each as {"old", "new"} (a field
 * either lacks is null there); a secret setting's values (private.is_secret_setting) are
 * "***", with "changed" true.
 */
create function private.audit_changes(p_old jsonb, p_new jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(k.key, case
           when private.is_secret_setting(k.key) then '{"old": "***", "new": "***", "changed": true}'::jsonb
           else jsonb_build_object('old', coalesce(p_old, '{}') -> k.key, 'new', coalesce(p_new, '{}') -> k.key) end), '{}')
    from (select jsonb_object_keys(coalesce(p_old, '{}')) as key
          union select jsonb_object_keys(coalesce(p_new, '{}'))) k
   where (coalesce(p_old, '{}') -> k.key) is distinct from (coalesce(p_new, '{}') -> k.key);
$$;

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
    'throttled', 'password_too_long', 'sign_in_method_refused')),
  -- Where the attempt was checked. login: the login RPC; auth_hook: the Auth password hook;
  -- auth: a direct Auth sign-in reported by the local stack's front; password_change: the
  -- current password checked by change_my_password; repair: a login-flow repair RPC
  -- (create_auth_user_admin, sync_user_password); session: an Auth session binding to an
  -- organization (bind_session_organization).
  source text not null default 'login'
    check (source in ('login', 'auth_hook', 'auth', 'password_change', 'repair', 'session')),
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

/** Ends every Auth session of a user (refresh tokens and organization bindings go with them). */
create function private.end_sessions(p_user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from auth.sessions where user_id = p_user_id;
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
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.common_passwords c where c.password = lower(p_password));
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

-- On hosted Supabase the clean-up runs hourly through pg_cron where it is enabled.
do $$
begin
  if exists (select 1 from pg_catalog.pg_namespace where nspname = 'cron') then
    perform cron.schedule('crm-maintenance', '17 * * * *', 'select private.run_maintenance()');
  end if;
end
$$;

create index login_attempts_user_successes_idx on private.login_attempts (user_id, created_at desc)
  where success;

create unique index login_proofs_user_id_key on private.login_proofs (user_id);

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

-- An organization's settings (currency, KDV, pipeline, task types, numbering patterns,
-- exchange rates and their history), document numbers, and document templates.

-- ---------------------------------------------------------------------------------
-- Settings
-- ---------------------------------------------------------------------------------
/** True when a numbering pattern holds exactly the known tokens and at least one {SEQ} or {SEQ:n} (n 1..9). */
create function private.is_valid_number_pattern(p_pattern text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_pattern is not null
     and char_length(p_pattern) between 1 and 60
     and p_pattern ~ '\{SEQ(:[1-9])?\}';
$$;

create table private.organization_settings (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
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
  -- The settings RPC already refuses a quote pattern without {SEQ}; the named constraint
  -- keeps any other writer honest too.
  quote_number_pattern text not null default 'TKL-{YYYY}-{SEQ:5}' check (char_length(quote_number_pattern) between 1 and 60)
    constraint organization_settings_quote_number_pattern_seq check (private.is_valid_number_pattern(quote_number_pattern)),
  quote_validity_days integer not null default 30 check (quote_validity_days between 1 and 365),
  updated_at timestamptz not null default now(),
  updated_by uuid,
  -- 1 unit of the currency is this many units of the default currency: {"USD": 41.2}.
  exchange_rates jsonb not null default '{}' check (jsonb_typeof(exchange_rates) = 'object'),
  contract_number_pattern text not null default 'SZL-{YYYY}-{SEQ:5}'
    constraint organization_settings_contract_number_pattern_check
    check (private.is_valid_number_pattern(contract_number_pattern))
);

comment on table private.organization_settings is 'One row per organization: general and operations settings.';

alter table private.organization_settings enable row level security;

/**
 * The settings of one organization, with its name and when its logo last changed (null:
 * none). exchange_rates is there once any rate is set (absent: none), and
 * contract_number_pattern once it differs from the default SZL-{YYYY}-{SEQ:5} (absent:
 * the default), so the answer stays as it was for organizations that set neither.
 */
create function private.settings_json(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select (to_jsonb(s) - 'organization_id' - 'updated_by')
         - case when s.exchange_rates = '{}'::jsonb then 'exchange_rates' else '' end
         - case when s.contract_number_pattern = 'SZL-{YYYY}-{SEQ:5}' then 'contract_number_pattern' else '' end
         || jsonb_build_object('name', o.name, 'logo_updated_at', l.updated_at)
    from private.organization_settings s
    join private.organizations o on o.id = s.organization_id
    left join private.organization_logos l on l.organization_id = s.organization_id
   where s.organization_id = p_organization_id;
$$;

/** The caller's organization settings (every member reads them: currency, KDV, stages...). */
create function public.get_organization_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;
revoke all on function public.get_organization_settings() from public, anon, authenticated;
grant execute on function public.get_organization_settings() to authenticated;

/** Are these deal stages a usable pipeline: unique keys, probabilities 0-100, a won and a lost stage? */
create function private.is_valid_pipeline(p_stages jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(p_stages) = 'array'
     and jsonb_array_length(p_stages) between 2 and 30
     and not exists (
       select 1 from jsonb_array_elements(p_stages) stage
        where jsonb_typeof(stage) <> 'object'
           or coalesce(stage ->> 'key', '') !~ '^[a-z][a-z0-9_]{0,39}$'
           or char_length(btrim(coalesce(stage ->> 'name', ''))) not between 1 and 60
           or coalesce(jsonb_typeof(stage -> 'probability'), '') <> 'number'
           or (stage ->> 'probability')::numeric not between 0 and 100
           or coalesce(stage ->> 'outcome', '') not in ('open', 'won', 'lost'))
     and (select count(distinct stage ->> 'key') = count(*) from jsonb_array_elements(p_stages) stage)
     and exists (select 1 from jsonb_array_elements(p_stages) stage where stage ->> 'outcome' = 'won')
     and exists (select 1 from jsonb_array_elements(p_stages) stage where stage ->> 'outcome' = 'lost');
$$;

/**
 * Admin: changes the organization's settings. Fields: name, default_currency,
 * default_vat_rate, locale, time_zone, deal_stages, task_types, quote_number_pattern,
 * quote_validity_days, contract_number_pattern (private.is_valid_number_pattern: 1-60 characters
 * with a {SEQ:n} token),
 * exchange_rates ({"USD": 41.2}: one unit is that many of the default currency). Any
 * invalid field refuses the whole change. A deal_stages change that removes stages still
 * holding deals is refused (stage_in_use, with {"stages": [{key, count}]}) unless
 * deal_stage_moves ({old key: new key}) says where they go; they move in the same
 * transaction. Deals may only be moved into a lost stage with a lost reason
 * (lost_reason_required). The audit entry names the changed fields and, under "changes",
 * each changed field's old and new value (private.audit_changes: secret-typed settings
 * masked).
 */
create function public.update_organization_settings(p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_org uuid := caller.organization_id;
  invalid_field text;
  tenant text;
  new_stages jsonb;
  removed text[] := '{}';
  moves jsonb := coalesce(p_changes -> 'deal_stage_moves', '{}');
  in_use jsonb;
  moved jsonb;
  before_settings jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if jsonb_typeof(p_changes) is distinct from 'object' then
    return private.failure('Invalid settings', 'invalid_input');
  end if;

  select key into invalid_field
    from jsonb_each(p_changes) as change (key, value)
   where not case key
     when 'name' then jsonb_typeof(value) = 'string' and char_length(btrim(value #>> '{}')) between 1 and 200
     when 'default_currency' then coalesce(value #>> '{}', '') ~ '^[A-Z]{3}$'
     when 'default_vat_rate' then jsonb_typeof(value) = 'number' and (value #>> '{}')::numeric between 0 and 100
     when 'locale' then coalesce(value #>> '{}', '') in ('tr-TR', 'en-US')
     when 'time_zone' then exists (select 1 from pg_catalog.pg_timezone_names z where z.name = value #>> '{}')
     when 'deal_stages' then private.is_valid_pipeline(value)
     when 'task_types' then jsonb_typeof(value) = 'array' and jsonb_array_length(value) between 1 and 30
                            and not exists (select 1 from jsonb_array_elements(value) t
                                             where jsonb_typeof(t) <> 'string' or char_length(btrim(t #>> '{}')) not between 1 and 40)
     when 'quote_number_pattern' then char_length(coalesce(value #>> '{}', '')) between 1 and 60
                                      and (value #>> '{}') ~ '\{SEQ(:[1-9])?\}'
     when 'quote_validity_days' then jsonb_typeof(value) = 'number' and (value #>> '{}') ~ '^\d+$'
                                     and (value #>> '{}')::numeric between 1 and 365
     when 'contract_number_pattern' then jsonb_typeof(value) = 'string' and private.is_valid_number_pattern(value #>> '{}')
     when 'exchange_rates' then private.is_valid_exchange_rates(value)
     -- Where the deals of removed stages go: only with deal_stages, stage keys both ways.
     when 'deal_stage_moves' then p_changes ? 'deal_stages' and jsonb_typeof(value) = 'object'
                                  and not exists (select 1 from jsonb_each(value) m
                                                   where m.key !~ '^[a-z][a-z0-9_]{0,39}$' or jsonb_typeof(m.value) <> 'string')
     else false end
   limit 1;
  if invalid_field is not null then
    return private.failure(format('Invalid setting: %s', left(invalid_field, 40)), 'invalid_setting',
                           jsonb_build_object('field', left(invalid_field, 40)));
  end if;

  if p_changes ? 'deal_stages' then
    new_stages := p_changes -> 'deal_stages';
    removed := array(select old.stage ->> 'key'
                       from private.organization_settings s, jsonb_array_elements(s.deal_stages) old (stage)
                      where s.organization_id = target_org
                        and private.deal_stage(new_stages, old.stage ->> 'key') is null);
    -- Each move takes a removed stage to a stage of the new pipeline.
    if exists (select 1 from jsonb_each_text(moves) m
                where not (m.key = any (removed)) or private.deal_stage(new_stages, m.value) is null) then
      return private.failure('Invalid setting: deal_stage_moves', 'invalid_setting', '{"field": "deal_stage_moves"}');
    end if;
    tenant := private.tenant_schema(target_org);
    if tenant is not null and cardinality(removed) > 0 then
      execute format('select jsonb_agg(jsonb_build_object(''key'', g.stage, ''count'', g.n) order by g.stage)
                        from (select t.stage, count(*) as n from %I.deals t
                               where t.stage = any ($1) and t.deleted_at is null group by t.stage) g', tenant)
        into in_use using array(select r from unnest(removed) r where not moves ? r);
      if in_use is not null then
        return private.failure('Deal stages still hold deals', 'stage_in_use',
                               jsonb_build_object('field', 'deal_stages', 'stages', in_use));
      end if;
      execute format('select jsonb_agg(jsonb_build_object(''key'', g.stage, ''count'', g.n) order by g.stage)
                        from (select t.stage, count(*) as n from %I.deals t
                               where t.stage = any ($1) and t.deleted_at is null and t.lost_reason is null group by t.stage) g', tenant)
        into in_use
        using array(select m.key from jsonb_each_text(moves) m where private.deal_stage(new_stages, m.value) ->> 'outcome' = 'lost');
      if in_use is not null then
        return private.failure('Deals moved to a lost stage need a lost reason', 'lost_reason_required',
                               jsonb_build_object('field', 'deal_stage_moves', 'stages', in_use));
      end if;
    end if;
  end if;

  before_settings := private.settings_audit_json(target_org);
  if p_changes ? 'name' then
    update private.organizations set name = btrim(p_changes ->> 'name'), updated_at = now() where id = target_org;
  end if;
  update private.organization_settings
     set default_currency = coalesce(p_changes ->> 'default_currency', default_currency),
         default_vat_rate = coalesce((p_changes ->> 'default_vat_rate')::numeric, default_vat_rate),
         locale = coalesce(p_changes ->> 'locale', locale),
         time_zone = coalesce(p_changes ->> 'time_zone', time_zone),
         deal_stages = coalesce(p_changes -> 'deal_stages', deal_stages),
         task_types = coalesce(p_changes -> 'task_types', task_types),
         quote_number_pattern = coalesce(p_changes ->> 'quote_number_pattern', quote_number_pattern),
         quote_validity_days = coalesce((p_changes ->> 'quote_validity_days')::integer, quote_validity_days),
         contract_number_pattern = coalesce(p_changes ->> 'contract_number_pattern', contract_number_pattern),
         exchange_rates = coalesce(p_changes -> 'exchange_rates', exchange_rates),
         updated_at = now(),
         updated_by = auth.uid()
   where organization_id = target_org;
  if tenant is not null and moves <> '{}' then
    moved := private.move_deals_off_stages(target_org, tenant, moves, new_stages);
  end if;
  perform private.write_audit(target_org, 'settings.updated', 'organization', target_org::text,
                              jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p_changes) k),
                                                 'changes', private.audit_changes(before_settings, private.settings_audit_json(target_org)))
                              || case when moved is not null then jsonb_build_object('moved_deals', moved) else '{}' end);
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org))
         || case when moved is not null then jsonb_build_object('moved_deals', moved) else '{}' end;
end;
$$;
revoke all on function public.update_organization_settings(p_changes jsonb) from public, anon, authenticated;
grant execute on function public.update_organization_settings(p_changes jsonb) to authenticated;

/** The organization's quote and contract templates (not deleted), defaults first. */
create function public.list_document_templates()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  templates jsonb;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', t.id, 'kind', t.kind, 'name', t.name, 'body', t.body, 'is_default', t.is_default,
             'owner_id', t.owner_id, 'created_at', t.created_at, 'updated_at', t.updated_at)
             order by t.kind, t.is_default desc, t.name), '[]')
      from %I.document_templates t where t.deleted_at is null$query$, target.schema_name)
    into templates;
  return jsonb_build_object('success', true, 'templates', templates);
end;
$$;
revoke all on function public.list_document_templates() from public, anon, authenticated;
grant execute on function public.list_document_templates() to authenticated;

/**
 * Creates (p_id null) or changes a template. Kind quote or contract; a name; a body of at
 * most 200,000 characters (kept as text: the app renders it escaped). Making one the
 * default of its kind takes the flag from the previous default in the same transaction.
 */
create function public.save_document_template(p_id uuid, p_kind text, p_name text, p_body text, p_is_default boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  clean_name text := btrim(p_name);
  saved_id uuid;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  if coalesce(p_kind, '') not in ('quote', 'contract') then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 200 then
    return private.failure('Template name is required (at most 200 characters)', 'invalid_name');
  end if;
  if char_length(coalesce(p_body, '')) > 200000 then
    return private.failure('Template body is too long', 'body_too_long');
  end if;

  if coalesce(p_is_default, false) then
    execute format('update %I.document_templates set is_default = false
                     where kind = $1 and is_default and deleted_at is null and id is distinct from $2', target.schema_name)
      using p_kind, p_id;
  end if;
  if p_id is null then
    execute format('insert into %I.document_templates (kind, name, body, is_default, owner_id, created_by)
                    values ($1, $2, $3, $4, $5, $5) returning id', target.schema_name)
      into saved_id using p_kind, clean_name, coalesce(p_body, ''), coalesce(p_is_default, false), auth.uid();
  else
    execute format('update %I.document_templates set kind = $2, name = $3, body = $4, is_default = $5
                     where id = $1 and deleted_at is null returning id', target.schema_name)
      into saved_id using p_id, p_kind, clean_name, coalesce(p_body, ''), coalesce(p_is_default, false);
    if saved_id is null then
      return private.failure('Template not found', 'template_not_found');
    end if;
  end if;

  perform private.write_audit(private.current_organization_id(), 'template.saved', 'document_template', saved_id::text,
                              jsonb_build_object('kind', p_kind, 'name', clean_name, 'is_default', coalesce(p_is_default, false)));
  return jsonb_build_object('success', true, 'id', saved_id);
end;
$$;
revoke all on function public.save_document_template(p_id uuid, p_kind text, p_name text, p_body text, p_is_default boolean) from public, anon, authenticated;
grant execute on function public.save_document_template(p_id uuid, p_kind text, p_name text, p_body text, p_is_default boolean) to authenticated;

/** Moves a template to the trash (soft delete). */
create function public.delete_document_template(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  deleted_id uuid;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  execute format('update %I.document_templates set deleted_at = now(), is_default = false
                   where id = $1 and deleted_at is null returning id', target.schema_name)
    into deleted_id using p_id;
  if deleted_id is null then
    return private.failure('Template not found', 'template_not_found');
  end if;
  perform private.write_audit(private.current_organization_id(), 'template.deleted', 'document_template', p_id::text);
  return jsonb_build_object('success', true);
end;
$$;
revoke all on function public.delete_document_template(p_id uuid) from public, anon, authenticated;
grant execute on function public.delete_document_template(p_id uuid) to authenticated;

-- ---------------------------------------------------------------------------------
-- Settings: exchange rates
-- ---------------------------------------------------------------------------------
/** Exchange rates as a setting: an object of at most 50 three-letter upper-case codes, each a positive number. */
create function private.is_valid_exchange_rates(p_rates jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_rates) is distinct from 'object' then false
              else (select count(*) from jsonb_object_keys(p_rates)) <= 50
                   and not exists (select 1 from jsonb_each(p_rates) rate
                                    where rate.key !~ '^[A-Z]{3}$'
                                       or jsonb_typeof(rate.value) <> 'number'
                                       or (rate.value #>> '{}')::numeric <= 0
                                       or (rate.value #>> '{}')::numeric >= 1000000000) end;
$$;

-- Document numbers: quotes and contracts get gapless numbers per organization,
-- kind and year from one row-locked counter (private.document_counters). The counter is
-- taken inside the caller's transaction (insert … on conflict do update … returning), so
-- concurrent creators wait for each other and a rolled-back create gives its number back.
-- Patterns: {YYYY}, {YY}, {MM}, {SEQ:n} (n 1..9, zero padded; {SEQ} unpadded); anything
-- else is literal. A quote number pattern without {SEQ…} is refused by the settings RPC
-- and, as a last line, by a check constraint on private.organization_settings.
create table private.document_counters (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  kind text not null check (kind in ('quote', 'contract')),
  year integer not null check (year between 1900 and 9999),
  last_value bigint not null check (last_value >= 0),
  primary key (organization_id, kind, year)
);

alter table private.document_counters enable row level security;

comment on table private.document_counters is
  'The last number given per organization, document kind and year (gapless: taken in the creating transaction).';

/**
 * A document number from a pattern: {YYYY} the four-digit year, {YY} its last two digits,
 * {MM} the two-digit month (all of p_on), {SEQ:n} the sequence zero padded to n digits
 * (a longer sequence is never cut), {SEQ} the sequence as is. Anything else is literal.
 */
create function private.render_document_number(p_pattern text, p_on date, p_sequence bigint)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  result text := p_pattern;
  token text[];
  width integer;
begin
  result := replace(result, '{YYYY}', to_char(p_on, 'YYYY'));
  result := replace(result, '{YY}', to_char(p_on, 'YY'));
  result := replace(result, '{MM}', to_char(p_on, 'MM'));
  for token in select regexp_matches(p_pattern, '\{SEQ(?::([1-9]))?\}', 'g') loop
    width := coalesce(token[1]::integer, 1);
    result := replace(result, '{SEQ' || coalesce(':' || token[1], '') || '}',
                      lpad(p_sequence::text, greatest(width, char_length(p_sequence::text)), '0'));
  end loop;
  return result;
end;
$$;

/**
 * The next number of a kind ('quote' or 'contract') for an organization in the year of
 * p_on, rendered with p_pattern. Gapless: the counter row is locked until the caller's
 * transaction ends, and a rollback gives the number back. Numbers restart at 1 each year.
 * Raises invalid_parameter_value for an unknown kind or a pattern without {SEQ}.
 */
create function private.next_document_number(p_organization_id uuid, p_kind text, p_pattern text, p_on date)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  sequence bigint;
begin
  if p_kind is null or p_kind not in ('quote', 'contract') then
    raise exception 'Unknown document kind: %', p_kind using errcode = 'invalid_parameter_value';
  end if;
  if not private.is_valid_number_pattern(p_pattern) then
    raise exception 'A number pattern needs {SEQ}: %', p_pattern using errcode = 'invalid_parameter_value';
  end if;
  insert into private.document_counters as c (organization_id, kind, year, last_value)
  values (p_organization_id, p_kind, extract(year from coalesce(p_on, current_date))::integer, 1)
  on conflict (organization_id, kind, year) do update set last_value = c.last_value + 1
  returning c.last_value into sequence;
  return private.render_document_number(p_pattern, coalesce(p_on, current_date), sequence);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Exchange rates per day
-- ---------------------------------------------------------------------------------
create table private.exchange_rate_history (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  -- The day (in the organization's time zone) the rate was set in the settings.
  rate_date date not null,
  -- 1 unit of the currency is this many units of the organization's currency.
  rate numeric(18, 6) not null check (rate > 0),
  primary key (organization_id, currency, rate_date)
);

alter table private.exchange_rate_history enable row level security;

comment on table private.exchange_rate_history is
  'Each organization''s exchange rates by the day they were set; quotes take the rate of their date.';

/** Trigger (after insert or update of exchange_rates on organization_settings): today's rates go to the history. */
create function private.record_exchange_rates()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and new.exchange_rates is not distinct from old.exchange_rates then
    return null;
  end if;
  insert into private.exchange_rate_history as h (organization_id, currency, rate_date, rate)
  select new.organization_id, r.key, (now() at time zone new.time_zone)::date, round((r.value #>> '{}')::numeric, 6)
    from jsonb_each(new.exchange_rates) r
   where jsonb_typeof(r.value) = 'number' and (r.value #>> '{}')::numeric > 0
  on conflict (organization_id, currency, rate_date) do update set rate = excluded.rate;
  return null;
end;
$$;

create trigger record_exchange_rates
  after insert or update of exchange_rates on private.organization_settings
  for each row execute function private.record_exchange_rates();

/** Today in the organization's time zone. */
create function private.organization_today(p_organization_id uuid)
returns date
language sql
stable
security definer
set search_path = ''
as $$
  select (now() at time zone coalesce((select s.time_zone from private.organization_settings s
                                        where s.organization_id = p_organization_id), 'Europe/Istanbul'))::date;
$$;

-- ---------------------------------------------------------------------------------
-- Settings: the contract number pattern
-- ---------------------------------------------------------------------------------
/** The caller's organization's default currency (TRY when it has none). */
create function private.organization_currency()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.default_currency from private.organization_settings s
                    where s.organization_id = private.current_organization_id()), 'TRY');
$$;

/**
 * The organization's default template of a kind ('quote' or 'contract'), for a member with
 * view permission on quotes or contracts in the session's organization:
 * {success, template: {id, name, body, updated_at} | null} (null: no default, the app uses
 * its built-in body). The body is plain text; the app fills its placeholders from a fixed list.
 */
create function public.get_default_document_template(p_kind text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  template jsonb;
begin
  if coalesce(p_kind, '') not in ('quote', 'contract') then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  context := private.module_context(case p_kind when 'quote' then 'quotes' else 'contracts' end, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  execute format($query$
    select jsonb_build_object('id', t.id, 'name', t.name, 'body', t.body, 'updated_at', t.updated_at)
      from %I.document_templates t
     where t.kind = $1 and t.is_default and t.deleted_at is null
     order by t.updated_at desc
     limit 1$query$, context.schema_name)
    into template using p_kind;
  return jsonb_build_object('success', true, 'template', template);
end;
$$;
revoke all on function public.get_default_document_template(p_kind text) from public, anon, authenticated;
grant execute on function public.get_default_document_template(p_kind text) to authenticated;

/**
 * Whether a setting's value is a secret that the audit log must not show (a password, a
 * token, an API or private key, a credential): by its name. No setting is one today; one
 * added later with such a name is masked without a change here.
 */
create function private.is_secret_setting(p_key text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_key, '') ~* '(secret|password|passwd|token|api_?key|private_?key|credential)';
$$;

/** An organization's settings as the audit compares them: every setting and the name, not who or when. */
create function private.settings_audit_json(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select (to_jsonb(s) - 'organization_id' - 'updated_by' - 'updated_at' - 'created_at') || jsonb_build_object('name', o.name)
    from private.organization_settings s
    join private.organizations o on o.id = s.organization_id
   where s.organization_id = p_organization_id;
$$;

-- The module engine (DESIGN.md D8): the registry of sales modules, each module's guard
-- and scope (module_context), the generic record operations (list, get, create, update,
-- bulk update, delete and restore, timeline and notes, duplicates and merge, saved
-- views, links between records) and the public façade generated per module.

-- ---------------------------------------------------------------------------------
-- The registry
-- ---------------------------------------------------------------------------------
create table private.module_actions (
  key text primary key check (key ~ '^[a-z]{1,20}$'),
  position integer not null unique
);

insert into private.module_actions (key, position)
values ('view', 1), ('create', 2), ('edit', 3), ('delete', 4), ('export', 5), ('import', 6);

alter table private.module_actions enable row level security;

comment on table private.module_actions is 'What a role may do in a module (the columns of the roles matrix).';

create table private.modules (
  key text primary key check (key ~ '^[a-z][a-z_]{0,39}$'),
  position integer not null unique,
  -- The tenant table holding the records (template columns: id, owner_id, created_by,
  -- created_at, updated_at, deleted_at).
  table_name text not null unique check (private.is_safe_identifier(table_name)),
  -- What notes and the timeline call a record of this module.
  entity_type text not null unique check (entity_type ~ '^[a-z_]{1,40}$'),
  -- Columns a client may set (owner_id is handled by the engine for every module).
  writable_columns text[] not null,
  sortable_columns text[] not null default '{created_at,updated_at}',
  filterable_columns text[] not null default '{}',
  -- Columns a list row carries besides id, owner_id, owner_name, created_at, updated_at.
  list_columns text[] not null,
  default_sort text not null default 'created_at',
  default_descending boolean not null default true,
  -- True when the table has a Turkish-folded search_text column with a trigram index.
  searchable boolean not null default false,
  -- What a notification or an activity entry calls a record: these columns' values, joined by a space.
  title_columns text[] not null default '{title}' check (cardinality(title_columns) between 1 and 5),
  -- The transfer kind (spec section 3) that moves this module's records: a module's key (its
  -- own, or another's it moves with, as contacts with customers), and the kind's default.
  transfer_kind text references private.modules (key),
  transfer_default boolean not null default false,
  -- Further tenant tables whose rows move with this module's records (a quote's items).
  transfer_tables text[] not null default '{}',
  -- The column of the documents table that links a document to one of this module's
  -- records; null when documents cannot belong to its records.
  document_link text unique check (document_link is null or private.is_safe_identifier(document_link)),
  -- The module's own rules: private.<name>(p_values jsonb, p_existing jsonb) returns
  -- {"values": normalised values, "errors": {column: code}}.
  prepare_function text check (prepare_function ~ '^[a-z_]{1,60}$'),
  check (default_sort = any (sortable_columns)),
  check (transfer_kind is not null or (not transfer_default and transfer_tables = '{}'))
);

alter table private.modules enable row level security;

comment on table private.modules is
  'The sales modules, one row each, written by private.register_module: permissions, roles, transfer, notes, document links and the record engine read it.';

alter table private.role_permissions
  add constraint role_permissions_module_fkey foreign key (module) references private.modules (key) on delete cascade,
  add constraint role_permissions_action_fkey foreign key (action) references private.module_actions (key);

/** The modules as the app lists them: key, entity type and the actions, in menu order. */
create function private.modules_json()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(m.key order by m.position), '[]') from private.modules m;
$$;

/** The actions as the roles matrix lists them. */
create function private.module_actions_json()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(a.key order by a.position), '[]') from private.module_actions a;
$$;

/** What the guard hands a module RPC (see private.module_context). */
create type private.module_context as (
  caller uuid,
  organization_id uuid,
  schema_name text,
  table_name text,
  -- 'own' or 'all' records.
  scope text,
  -- The refusal to answer; null when the call may go on.
  problem jsonb
);

/**
 * The guard of every tenant record RPC: who calls, the organization their session is
 * bound to, its schema, the module's table and the scope the role grants for the action
 * ('own' or 'all'); or, in problem, the refusal to answer (private.caller_context's need
 * 'module', then the organization's tables).
 */
create function private.module_context(p_module text, p_action text)
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('module', p_module, p_action);
  context private.module_context;
begin
  context.caller := caller.user_id;
  context.organization_id := caller.organization_id;
  context.scope := caller.scope;
  context.problem := caller.problem;
  if context.problem is not null then
    return context;
  end if;
  select m.table_name into context.table_name from private.modules m where m.key = p_module;
  context.schema_name := private.tenant_schema(context.organization_id);
  if context.schema_name is null then
    context.problem := private.refusal('tables_not_found');
  end if;
  return context;
end;
$$;

/** A record answer: the row without its search column, with the owner's name. */
create function private.record_json(p_row jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select (p_row - 'search_text') || jsonb_build_object('owner_name', (
    select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
      from private.profiles p where p.id = (p_row ->> 'owner_id')::uuid));
$$;

/**
 * What a write may set: the module's writable columns (and owner_id), checked and
 * normalised by the module's prepare function; an external id trimmed (empty clears it).
 * Returns {"values"} or, in "problem", the refusal: unknown fields or field errors
 * ({"fields": {column: code}}). An owner must be an active member of the organization;
 * with scope 'own' only the caller. A link to another module's record (a deal's customer, a
 * task's contact, a document's quote, …: private.link_errors) must be one the caller may see,
 * else it is not_found, as a record that does not exist.
 */
create function private.prepare_record(p_module text, p_values jsonb, p_existing jsonb,
                                                  p_caller uuid, p_organization_id uuid, p_scope text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  module private.modules;
  prepared jsonb;
  errors jsonb := '{}';
  unknown text;
  owner uuid;
  external_id text;
begin
  select * into module from private.modules m where m.key = p_module;
  if jsonb_typeof(p_values) is distinct from 'object' then
    return jsonb_build_object('problem', private.failure('Invalid input', 'invalid_input'));
  end if;
  select k into unknown from jsonb_object_keys(p_values) k
   where not (k = any (module.writable_columns) or k = 'owner_id') limit 1;
  if unknown is not null then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields',
      jsonb_build_object('fields', jsonb_build_object(left(unknown, 63), 'unknown_field'))));
  end if;

  if module.prepare_function is not null then
    execute format('select private.%I($1, $2)', module.prepare_function) into prepared using p_values, p_existing;
    errors := prepared -> 'errors';
    prepared := prepared -> 'values';
  else
    prepared := p_values;
  end if;

  -- Links to other modules' records: within the caller's view scope of that module.
  errors := private.link_errors(p_module, p_values, p_existing, private.tenant_schema(p_organization_id)) || errors;

  if p_values ? 'external_id' then
    external_id := private.clean_external_id(p_values -> 'external_id');
    if external_id is null then
      errors := errors || '{"external_id": "invalid"}';
    else
      prepared := prepared || jsonb_build_object('external_id', nullif(external_id, ''));
    end if;
  end if;

  if p_values ? 'owner_id' then
    begin
      owner := (p_values ->> 'owner_id')::uuid;
    exception when invalid_text_representation then
      owner := null;
    end;
    if owner is null or not exists (select 1 from private.memberships m
                                     where m.user_id = owner and m.organization_id = p_organization_id and m.is_active) then
      errors := errors || '{"owner_id": "invalid_owner"}';
    elsif p_scope = 'own' and owner <> p_caller then
      return jsonb_build_object('problem', private.refusal('permission_denied'));
    end if;
  end if;
  if errors <> '{}' then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', errors)));
  end if;
  return jsonb_build_object('values', prepared);
end;
$$;

/**
 * Lists a module's records the caller may see: one page of private.record_page for the
 * view permission, at most 200 list rows (the façade list_<module>).
 */
create function private.record_list(p_module text, p_search text, p_filters jsonb, p_sort text,
                                               p_descending boolean, p_limit integer, p_offset integer)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.record_page(p_module, 'view', p_search, p_filters, p_sort, p_descending, p_limit, p_offset, 200, false);
$$;

/** One record the caller may see (not deleted), with its owner's name; another organization's id is simply not found. */
create function private.record_get(p_module text, p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  found_row jsonb;
begin
  context := private.module_context(p_module, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select to_jsonb(t) from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3)',
                 context.schema_name, context.table_name)
    into found_row using p_id, context.scope, context.caller;
  if found_row is null then
    return private.failure('Record not found', 'not_found');
  end if;
  return jsonb_build_object('success', true, 'record', private.record_json(found_row));
end;
$$;

/** Creates a record owned by the caller (or, with scope all, by the member named); audited. */
create function private.record_create(p_module text, p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  prepared jsonb;
  columns text[];
  created jsonb;
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  context := private.module_context(p_module, 'create');
  if context.problem is not null then
    return context.problem;
  end if;
  prepared := private.prepare_record(p_module, p_values, null, context.caller, context.organization_id, context.scope);
  if prepared ? 'problem' then
    return prepared -> 'problem';
  end if;
  prepared := (prepared -> 'values') || jsonb_build_object('owner_id', coalesce(prepared #>> '{values,owner_id}', context.caller::text),
                                                           'created_by', context.caller);
  select array_agg(k) into columns from jsonb_object_keys(prepared) k;
  begin
    execute format('insert into %1$I.%2$I as t (%3$s) select %4$s from jsonb_populate_record(null::%1$I.%2$I, $1) r returning to_jsonb(t)',
                   context.schema_name, context.table_name,
                   (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                   (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
      into created using prepared;
  exception when integrity_constraint_violation or data_exception then
    get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
    return private.constraint_failure(context.table_name, failed_column, failed_constraint, failed_state);
  end;
  perform private.write_audit(context.organization_id, p_module || '.create', p_module, created ->> 'id');
  return jsonb_build_object('success', true, 'record', private.record_json(created));
end;
$$;

/**
 * Writes changes to one record the caller may edit, inside a module RPC: each changed
 * field goes to the field history, the change to the audit log. With p_expected set, a
 * record changed since (another updated_at) is refused as stale, never overwritten.
 */
create function private.record_write(p_module text, p_context private.module_context, p_id uuid, p_values jsonb,
                                     p_expected timestamptz, p_check_stale boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing jsonb;
  prepared jsonb;
  columns text[];
  changed jsonb;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  execute format('select to_jsonb(t) from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 p_context.schema_name, p_context.table_name)
    into existing using p_id, p_context.scope, p_context.caller;
  if existing is null then
    return private.failure('Record not found', 'not_found');
  end if;
  if p_check_stale and (p_expected is null or (existing ->> 'updated_at')::timestamptz <> p_expected) then
    return private.failure('The record was changed by someone else', 'stale_record',
                           jsonb_build_object('record', private.record_json(existing)));
  end if;
  prepared := private.prepare_record(p_module, p_values, existing, p_context.caller, p_context.organization_id, p_context.scope);
  if prepared ? 'problem' then
    return prepared -> 'problem';
  end if;
  prepared := prepared -> 'values';
  select array_agg(k) into columns from jsonb_object_keys(prepared) k;
  if columns is null then
    return jsonb_build_object('success', true, 'record', private.record_json(existing));
  end if;
  begin
    execute format('update %1$I.%2$I as t set (%3$s) = (select %4$s from jsonb_populate_record(null::%1$I.%2$I, $1) r) where t.id = $2 returning to_jsonb(t)',
                   p_context.schema_name, p_context.table_name,
                   (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                   (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
      into changed using prepared, p_id;
  exception when integrity_constraint_violation or data_exception then
    get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
    return private.constraint_failure(p_context.table_name, failed_column, failed_constraint, failed_state);
  end;
  execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                  select $1, $2, c, $3 -> c, $4 -> c, $5 from unnest($6::text[]) c where ($3 -> c) is distinct from ($4 -> c)',
                 p_context.schema_name)
    using entity, p_id, existing, changed, p_context.caller, columns;
  perform private.write_audit(p_context.organization_id, p_module || '.update', p_module, p_id::text,
    jsonb_build_object('fields', (select coalesce(jsonb_agg(c), '[]') from unnest(columns) c
                                   where (existing -> c) is distinct from (changed -> c))));
  return jsonb_build_object('success', true, 'record', private.record_json(changed));
end;
$$;

/** Updates one record; p_updated_at must be the updated_at the caller read (stale writes are refused). */
create function private.record_update(p_module text, p_id uuid, p_values jsonb, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  return private.record_write(p_module, context, p_id, p_values, p_updated_at, true);
end;
$$;

/**
 * The same change for up to 500 records; each is checked and written like a single
 * update (scope, rules, history, audit). Records the caller may not edit, or that do not
 * exist, are counted as skipped; a field error refuses the whole batch.
 */
create function private.record_bulk_update(p_module text, p_ids uuid[], p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  record_id uuid;
  answer jsonb;
  updated integer := 0;
  skipped integer := 0;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  foreach record_id in array (select array_agg(distinct i) from unnest(p_ids) i) loop
    answer := private.record_write(p_module, context, record_id, p_values, null, false);
    if (answer ->> 'success')::boolean then
      updated := updated + 1;
    elsif answer ->> 'code' = 'not_found' then
      skipped := skipped + 1;
    else
      -- Field errors are the same for every record: refuse the batch, change nothing.
      raise exception using errcode = 'P0001', message = answer::text;
    end if;
  end loop;
  return jsonb_build_object('success', true, 'updated', updated, 'skipped', skipped);
exception when sqlstate 'P0001' then
  return sqlerrm::jsonb;
end;
$$;

/**
 * Soft-deletes (p_deleted true) or restores (false) records the caller may delete; each
 * is audited. Returns how many changed; ids out of scope or already in that state are
 * skipped.
 */
create function private.record_set_deleted(p_module text, p_ids uuid[], p_deleted boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  changed uuid[];
begin
  context := private.module_context(p_module, 'delete');
  if context.problem is not null then
    return context.problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  execute format('with changed as (update %I.%I t set deleted_at = case when $4 then now() end
                    where t.id = any($1) and (t.deleted_at is null) = $4 and ($2 = ''all'' or t.owner_id = $3)
                    returning t.id) select array_agg(id) from changed',
                 context.schema_name, context.table_name)
    into changed using p_ids, context.scope, context.caller, p_deleted;
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id)
  select context.organization_id, context.caller, p_module || case when p_deleted then '.delete' else '.restore' end,
         p_module, c::text
    from unnest(changed) c;
  return jsonb_build_object('success', true, 'changed', coalesce(cardinality(changed), 0),
                            'skipped', cardinality(p_ids) - coalesce(cardinality(changed), 0));
end;
$$;

/**
 * A record's timeline, newest first: its notes, its field history and the audit entries
 * about it, for someone who may see the record.
 */
create function private.record_timeline(p_module text, p_id uuid, p_limit integer default 100)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get(p_module, p_id);
  context private.module_context;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  entries jsonb;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context(p_module, 'view');
  execute format($query$
    select coalesce(jsonb_agg(newest.e order by newest.e ->> 'at' desc), '[]') from (
     select everything.e from (
      select jsonb_build_object('kind', 'note', 'id', n.id, 'body', n.body, 'by', n.created_by, 'at', n.created_at) as e
        from %1$I.notes n where n.entity_type = $1 and n.entity_id = $2 and n.deleted_at is null
      union all
      select jsonb_build_object('kind', 'change', 'field', h.field, 'old', h.old_value, 'new', h.new_value,
                                'by', h.changed_by, 'at', h.changed_at)
        from %1$I.field_history h where h.record_id = $2 and h.entity_type = $1
      union all
      select jsonb_build_object('kind', 'event', 'action', a.action, 'by', a.actor_id, 'at', a.created_at)
        from private.audit_log a where a.organization_id = $3 and a.target_type = $4 and a.target_id = $2::text
     ) everything(e)
     order by everything.e ->> 'at' desc limit $5) newest$query$, context.schema_name)
    into entries using entity, p_id, context.organization_id, p_module, least(greatest(coalesce(p_limit, 100), 1), 500);
  return jsonb_build_object('success', true, 'entries', (
    select coalesce(jsonb_agg(e || jsonb_build_object('by_name', (
             select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') from private.profiles p
              where p.id = (e ->> 'by')::uuid)) order by e ->> 'at' desc), '[]')
      from jsonb_array_elements(entries) e));
end;
$$;

/** Adds a note to a record the caller may edit (1 to 20,000 characters). */
create function private.record_add_note(p_module text, p_id uuid, p_body text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  visible boolean;
  note jsonb;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  if char_length(btrim(coalesce(p_body, ''))) not between 1 and 20000 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"body": "required"}}');
  end if;
  execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3))',
                 context.schema_name, context.table_name)
    into visible using p_id, context.scope, context.caller;
  if not visible then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('insert into %I.notes as n (entity_type, entity_id, body, owner_id, created_by) values ($1, $2, $3, $4, $4) returning to_jsonb(n)',
                 context.schema_name)
    into note using entity, p_id, btrim(p_body), context.caller;
  perform private.write_audit(context.organization_id, p_module || '.note', p_module, p_id::text);
  return jsonb_build_object('success', true, 'note', note);
end;
$$;

/**
 * Installs a module's public façade from its registry row: list_<key>, get_<entity>,
 * create_<entity>, update_<entity>, bulk_update_<key>, delete_<key> and restore_<key>, each
 * a one-line call into the record engine (security definer, empty search_path) with a
 * comment and its own grant to authenticated. So registering a module gives it its API;
 * the generated types name every call with its arguments.
 */
create function private.install_module_facade(p_module text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  module private.modules;
  facade record;
begin
  select * into module from private.modules m where m.key = p_module;
  if not found or module.entity_type !~ '^[a-z][a-z_]{0,39}$' then
    raise exception 'no module %', p_module;
  end if;
  for facade in
    select * from (values
      ('list_' || module.key,
       'p_search text default null, p_filters jsonb default null, p_sort text default null, '
       || 'p_descending boolean default null, p_limit integer default 50, p_offset integer default 0',
       'stable', format('private.record_list(%L, p_search, p_filters, p_sort, p_descending, p_limit, p_offset)', module.key),
       format('The %s the caller may see: search, filters, sort, one page.', module.key)),
      ('get_' || module.entity_type, 'p_id uuid', 'stable', format('private.record_get(%L, p_id)', module.key),
       format('One %s the caller may see.', module.entity_type)),
      ('create_' || module.entity_type, 'p_values jsonb', 'volatile', format('private.record_create(%L, p_values)', module.key),
       format('Creates a %s.', module.entity_type)),
      ('update_' || module.entity_type, 'p_id uuid, p_values jsonb, p_updated_at timestamptz', 'volatile',
       format('private.record_update(%L, p_id, p_values, p_updated_at)', module.key),
       format('Updates a %s read at p_updated_at (a stale read is refused).', module.entity_type)),
      ('bulk_update_' || module.key, 'p_ids uuid[], p_values jsonb', 'volatile',
       format('private.record_bulk_update(%L, p_ids, p_values)', module.key), format('The same change for many %s.', module.key)),
      ('delete_' || module.key, 'p_ids uuid[]', 'volatile', format('private.record_set_deleted(%L, p_ids, true)', module.key),
       format('Soft-deletes %s.', module.key)),
      ('restore_' || module.key, 'p_ids uuid[]', 'volatile', format('private.record_set_deleted(%L, p_ids, false)', module.key),
       format('Restores deleted %s.', module.key))
    ) as f (name, arguments, volatility, body, doc)
  loop
    execute format('create or replace function public.%I(%s) returns jsonb language sql %s security definer set search_path = %L '
                   'as $facade$ select %s; $facade$', facade.name, facade.arguments, facade.volatility, '', facade.body);
    execute format('comment on function public.%I is %L', facade.name, facade.doc);
    execute format('revoke execute on function public.%I from public, anon, authenticated', facade.name);
    execute format('grant execute on function public.%I to authenticated', facade.name);
  end loop;
end;
$$;

/** p_first followed by the values of p_second it does not hold yet, in their order. */
create function private.array_union(p_first text[], p_second text[])
returns text[]
language sql
immutable
set search_path = ''
as $$
  select p_first || array(select v.value from unnest(p_second) with ordinality v (value, position)
                           where not v.value = any (p_first) order by v.position);
$$;

/**
 * Registers a sales module, or updates its registration: the one call a module's concern
 * file makes (its tenant table is a template step, its rules its own p_prepare_function).
 * Writes its registry row (private.modules; each parameter is the column of that name),
 * installs its public façade (private.install_module_facade), and gives the roles of every
 * existing organization the default permissions in it (private.grant_default_permissions:
 * an organization that already has permission rows in the module keeps them as its admins
 * left them, so a removed row is never restored). With p_document_link, that column of the
 * documents table becomes a column the documents module writes, filters and lists; the
 * documents module (key documents), when it registers, takes the links of the modules
 * registered before it. Notes, the transfer kinds, the import kinds and the document links
 * read the registry, so nothing else names the module.
 */
create function private.register_module(
  p_key text, p_position integer, p_table_name text, p_entity_type text,
  p_writable_columns text[], p_list_columns text[],
  p_sortable_columns text[] default '{created_at,updated_at}', p_filterable_columns text[] default '{}',
  p_default_sort text default 'created_at', p_default_descending boolean default true,
  p_searchable boolean default false, p_title_columns text[] default '{title}', p_prepare_function text default null,
  p_transfer_kind text default null, p_transfer_default boolean default false, p_transfer_tables text[] default '{}',
  p_document_link text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  links text[];
begin
  if exists (select 1 from unnest(p_transfer_tables) t where not private.is_safe_identifier(t)) then
    raise exception 'Module %: every transfer table must be a plain table name', p_key;
  end if;
  insert into private.modules (key, position, table_name, entity_type, writable_columns, list_columns, sortable_columns,
                               filterable_columns, default_sort, default_descending, searchable, title_columns,
                               prepare_function, transfer_kind, transfer_default, transfer_tables, document_link)
  values (p_key, p_position, p_table_name, p_entity_type, p_writable_columns, p_list_columns, p_sortable_columns,
          p_filterable_columns, p_default_sort, p_default_descending, p_searchable, p_title_columns,
          p_prepare_function, p_transfer_kind, p_transfer_default, p_transfer_tables, p_document_link)
  on conflict (key) do update
    set position = excluded.position, table_name = excluded.table_name, entity_type = excluded.entity_type,
        writable_columns = excluded.writable_columns, list_columns = excluded.list_columns,
        sortable_columns = excluded.sortable_columns, filterable_columns = excluded.filterable_columns,
        default_sort = excluded.default_sort, default_descending = excluded.default_descending,
        searchable = excluded.searchable, title_columns = excluded.title_columns,
        prepare_function = excluded.prepare_function, transfer_kind = excluded.transfer_kind,
        transfer_default = excluded.transfer_default, transfer_tables = excluded.transfer_tables,
        document_link = excluded.document_link;

  perform private.install_module_facade(p_key);
  perform private.grant_default_permissions(o.id, p_key) from private.organizations o;

  -- The document links this registration brings: its own, or every module's for documents.
  links := array(select m.document_link from private.modules m
                  where m.document_link is not null and (m.key = p_key or p_key = 'documents') order by m.position);
  update private.modules d
     set writable_columns = private.array_union(d.writable_columns, links),
         filterable_columns = private.array_union(d.filterable_columns, links),
         list_columns = private.array_union(d.list_columns, links)
   where d.key = 'documents' and links <> '{}';
end;
$$;

/** A record's timeline (notes, field history, audit) in any registered module. */
create function public.get_record_timeline(p_module text, p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_timeline(p_module, p_id); $$;
revoke all on function public.get_record_timeline(p_module text, p_id uuid) from public, anon, authenticated;
grant execute on function public.get_record_timeline(p_module text, p_id uuid) to authenticated;

/** Adds a note to a record of any registered module. */
create function public.add_record_note(p_module text, p_id uuid, p_body text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_add_note(p_module, p_id, p_body); $$;
revoke all on function public.add_record_note(p_module text, p_id uuid, p_body text) from public, anon, authenticated;
grant execute on function public.add_record_note(p_module text, p_id uuid, p_body text) to authenticated;

/**
 * A view definition the module can show: only search, filters (the module's filterable
 * columns and owner_id), sort (a sortable column), descending and columns (list columns).
 * Null when it fits, else the refusal.
 */
create function private.check_view_definition(p_module text, p_definition jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case when jsonb_typeof(p_definition) is distinct from 'object'
                or exists (select 1 from jsonb_object_keys(p_definition) k
                            where k not in ('search', 'filters', 'sort', 'descending', 'columns'))
                or (p_definition ? 'sort' and not (p_definition ->> 'sort' = any (m.sortable_columns)))
                or (p_definition ? 'filters' and (jsonb_typeof(p_definition -> 'filters') <> 'object'
                    or exists (select 1 from jsonb_object_keys(p_definition -> 'filters') f
                                where not (f = any (m.filterable_columns) or f = 'owner_id'))))
                or (p_definition ? 'columns' and (jsonb_typeof(p_definition -> 'columns') <> 'array'
                    or exists (select 1 from jsonb_array_elements_text(p_definition -> 'columns') c
                                where not (c = any (m.list_columns) or c in ('owner_name', 'created_at', 'updated_at')))))
              then private.failure('Invalid fields', 'invalid_fields', '{"fields": {"definition": "invalid"}}') end
    from private.modules m where m.key = p_module;
$$;

/** The caller's own saved views of a module and those shared in the organization, by name. */
create function public.list_saved_views(p_module text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  views jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select coalesce(jsonb_agg(to_jsonb(v) || jsonb_build_object(''is_mine'', v.owner_id = $2) order by v.name, v.id), ''[]'')
                    from %I.saved_views v where v.module = $1 and (v.owner_id = $2 or v.is_shared)', context.schema_name)
    into views using p_module, context.caller;
  return jsonb_build_object('success', true, 'views', views);
end;
$$;
revoke all on function public.list_saved_views(p_module text) from public, anon, authenticated;
grant execute on function public.list_saved_views(p_module text) to authenticated;

/**
 * Saves a view (p_id null: a new one). Anyone who may view the module keeps views of
 * their own and may share them; only the view's owner or an admin changes a saved one.
 */
create function public.save_saved_view(p_id uuid, p_module text, p_name text, p_definition jsonb, p_is_shared boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  problem jsonb;
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if char_length(btrim(coalesce(p_name, ''))) not between 1 and 100 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"name": "required"}}');
  end if;
  problem := private.check_view_definition(p_module, p_definition);
  if problem is not null then
    return problem;
  end if;
  if p_id is null then
    execute format('insert into %I.saved_views as v (module, name, owner_id, is_shared, definition)
                    values ($1, $2, $3, $4, $5) returning to_jsonb(v)', context.schema_name)
      into saved using p_module, btrim(p_name), context.caller, coalesce(p_is_shared, false), p_definition;
  else
    execute format('update %I.saved_views as v set name = $2, is_shared = $4, definition = $5
                     where v.id = $6 and v.module = $1 and (v.owner_id = $3 or $7) returning to_jsonb(v)', context.schema_name)
      into saved using p_module, btrim(p_name), context.caller, coalesce(p_is_shared, false), p_definition, p_id,
                       private.is_admin_of(context.caller, context.organization_id);
    if saved is null then
      return private.failure('Record not found', 'not_found');
    end if;
  end if;
  return jsonb_build_object('success', true, 'view', saved);
end;
$$;
revoke all on function public.save_saved_view(p_id uuid, p_module text, p_name text, p_definition jsonb, p_is_shared boolean) from public, anon, authenticated;
grant execute on function public.save_saved_view(p_id uuid, p_module text, p_name text, p_definition jsonb, p_is_shared boolean) to authenticated;

/** Deletes a saved view: its owner, or an admin for a shared one. */
create function public.delete_saved_view(p_module text, p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  deleted uuid;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('delete from %I.saved_views v where v.id = $1 and v.module = $2 and (v.owner_id = $3 or $4) returning v.id',
                 context.schema_name)
    into deleted using p_id, p_module, context.caller, private.is_admin_of(context.caller, context.organization_id);
  if deleted is null then
    return private.failure('Record not found', 'not_found');
  end if;
  return jsonb_build_object('success', true);
end;
$$;
revoke all on function public.delete_saved_view(p_module text, p_id uuid) from public, anon, authenticated;
grant execute on function public.delete_saved_view(p_module text, p_id uuid) to authenticated;

/**
 * Records of the module the caller may see that are likely the same as the values about
 * to be saved: the same tax number, email or phone, or a name whose Turkish-folded words
 * are similar (pg_trgm word similarity of at least 0.6). At most 10, each with its
 * reasons; p_exclude leaves out the record being edited.
 */
create function private.record_duplicates(p_module text, p_values jsonb, p_exclude uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  prepared jsonb;
  name_text text;
  emails text[];
  phones text[];
  matches jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_module not in ('customers', 'contacts') or jsonb_typeof(p_values) is distinct from 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  -- The values as they would be saved (normalised); invalid ones simply match nothing.
  execute format('select private.%I($1, null) -> ''values''',
                 (select m.prepare_function from private.modules m where m.key = p_module))
    into prepared using p_values;

  if p_module = 'customers' then
    name_text := private.fold_search(prepared ->> 'name');
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name, 'tax_number', c.tax_number, 'email', c.email,
                                                   'phone', c.phone, 'city', c.city, 'reasons', reasons.list)), '[]')
        from (select * from %I.customers t
               where t.deleted_at is null and t.id is distinct from $1 and ($2 = 'all' or t.owner_id = $3)
                 and ((t.tax_number = $4) or (t.email = $5) or (t.phone = $6)
                      or (char_length($7) >= 3 and $7 operator(extensions.<%%) t.search_text))
               limit 10) c,
             lateral (select jsonb_agg(r) as list from (
                        select 'tax_number' as r where c.tax_number = $4
                        union all select 'email' where c.email = $5
                        union all select 'phone' where c.phone = $6
                        union all select 'name' where char_length($7) >= 3
                                                 and extensions.word_similarity($7, private.fold_search(c.name)) >= 0.6) rs) reasons
       where reasons.list is not null$query$, context.schema_name)
      into matches
      using p_exclude, context.scope, context.caller, prepared ->> 'tax_number', prepared ->> 'email', prepared ->> 'phone',
            coalesce(name_text, '');
  else
    name_text := private.fold_search(btrim(concat_ws(' ', prepared ->> 'first_name', prepared ->> 'last_name')));
    -- (Lists the rules refused, such as a text for the emails, match nothing.)
    emails := array(select e ->> 'value' from jsonb_array_elements(case when jsonb_typeof(prepared -> 'emails') = 'array'
                                                                         then prepared -> 'emails' else '[]' end) e);
    phones := array(select e ->> 'value' from jsonb_array_elements(case when jsonb_typeof(prepared -> 'phones') = 'array'
                                                                         then prepared -> 'phones' else '[]' end) e);
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'first_name', c.first_name, 'last_name', c.last_name,
                                                   'customer_id', c.customer_id, 'emails', c.emails, 'phones', c.phones,
                                                   'reasons', reasons.list)), '[]')
        from (select * from %I.contacts t
               where t.deleted_at is null and t.id is distinct from $1 and ($2 = 'all' or t.owner_id = $3)
                 and (exists (select 1 from jsonb_array_elements(t.emails) e where e ->> 'value' = any ($4))
                      or exists (select 1 from jsonb_array_elements(t.phones) e where e ->> 'value' = any ($5))
                      or (char_length($6) >= 3 and $6 operator(extensions.<%%) t.search_text))
               limit 10) c,
             lateral (select jsonb_agg(r) as list from (
                        select 'email' as r where exists (select 1 from jsonb_array_elements(c.emails) e where e ->> 'value' = any ($4))
                        union all select 'phone' where exists (select 1 from jsonb_array_elements(c.phones) e where e ->> 'value' = any ($5))
                        union all select 'name' where char_length($6) >= 3 and extensions.word_similarity(
                                    $6, private.fold_search(c.first_name || ' ' || c.last_name)) >= 0.6) rs) reasons
       where reasons.list is not null$query$, context.schema_name)
      into matches
      using p_exclude, context.scope, context.caller, emails, phones, coalesce(name_text, '');
  end if;
  return jsonb_build_object('success', true, 'duplicates', matches);
end;
$$;

/**
 * Merges p_other into p_survivor (both records of the module the caller may edit): the
 * survivor takes p_values (the value chosen per field, checked like any update), every
 * reference to the other (foreign keys in the organization's tables, notes) moves to the
 * survivor, and the other is soft-deleted with merged_into set. Audited; one transaction.
 */
create function private.record_merge(p_module text, p_survivor uuid, p_other uuid, p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'edit');
  module private.modules;
  editable integer;
  reference record;
  written jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select * into module from private.modules m where m.key = p_module;
  if p_survivor is null or p_other is null or p_survivor = p_other then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  -- Both must be records the caller may edit (locked for the merge).
  execute format('select count(*) from (select 1 from %I.%I t where t.id = any($1) and t.deleted_at is null
                    and ($2 = ''all'' or t.owner_id = $3) for update) editable', context.schema_name, context.table_name)
    into editable using array[p_survivor, p_other], context.scope, context.caller;
  if editable <> 2 then
    return private.failure('Record not found', 'not_found');
  end if;

  written := private.record_write(p_module, context, p_survivor, coalesce(p_values, '{}'), null, false);
  if not (written ->> 'success')::boolean then
    return written;
  end if;

  -- Every foreign key in the organization's schema that points at the module's table
  -- (records merged into the other earlier follow it to the survivor too).
  for reference in
    select c.conrelid::regclass as referencing, a.attname as column_name
      from pg_catalog.pg_constraint c
      join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where c.contype = 'f' and c.confrelid = format('%I.%I', context.schema_name, context.table_name)::regclass
       and cardinality(c.conkey) = 1
  loop
    execute format('update %s set %I = $1 where %I = $2', reference.referencing, reference.column_name, reference.column_name)
      using p_survivor, p_other;
  end loop;
  execute format('update %I.notes set entity_id = $1 where entity_type = $3 and entity_id = $2', context.schema_name)
    using p_survivor, p_other, module.entity_type;
  execute format('update %I.%I set deleted_at = now(), merged_into = $1 where id = $2', context.schema_name, context.table_name)
    using p_survivor, p_other;
  perform private.write_audit(context.organization_id, p_module || '.merge', p_module, p_survivor::text,
                              jsonb_build_object('merged', p_other));
  perform private.write_audit(context.organization_id, p_module || '.merged_away', p_module, p_other::text,
                              jsonb_build_object('into', p_survivor));
  return private.record_get(p_module, p_survivor);
end;
$$;

/**
 * The planner's estimate of the rows a list query of the record engine matches (its
 * parameters as record_list passes them). Volatile only because PostgreSQL allows EXPLAIN
 * in volatile functions alone; it reads nothing and writes nothing.
 */
create function private.estimated_list_rows(p_query text, p_scope text, p_caller uuid, p_filters jsonb, p_pattern text)
returns numeric
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  plan jsonb;
begin
  execute 'explain (format json) ' || p_query into plan using p_scope, p_caller, p_filters, p_pattern;
  return (plan #>> '{0,Plan,Plan Rows}')::numeric;
end;
$$;

/**
 * What a notification or an activity entry calls a record: the values of its module's
 * title columns (a name, a title, a number, a person's first and last name) joined by a
 * space, at most 300 characters; null when they are all empty.
 */
create function private.record_title(p_module text, p_row jsonb)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select left(nullif(btrim(array_to_string(array(select p_row ->> c from unnest(m.title_columns) with ordinality t (c, n)
                                                  order by t.n), ' ')), ''), 300)
    from private.modules m where m.key = p_module;
$$;

/** True when the caller may see this record of the module (not deleted, within their view scope). */
create function private.record_visible(p_module text, p_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  visible boolean;
begin
  if context.problem is not null or p_id is null then
    return false;
  end if;
  execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3))',
                 context.schema_name, context.table_name)
    into visible using p_id, context.scope, context.caller;
  return visible;
end;
$$;

/**
 * The columns by which a module's records link to another module's records, from the
 * catalogue: the module's writable columns with a foreign key to a registered module's
 * table in the organization's schema (a deal's customer_id, a document's quote_id, …). A
 * module or link added later is covered without a change here.
 */
create function private.module_links(p_module text, p_schema text)
returns table (column_name text, target_module text)
language sql
stable
security definer
set search_path = ''
as $$
  select a.attname::text, target.key
    from private.modules m
    join pg_catalog.pg_namespace n on n.nspname = p_schema
    join pg_catalog.pg_class source on source.relnamespace = n.oid and source.relname = m.table_name
    join pg_catalog.pg_constraint c on c.conrelid = source.oid and c.contype = 'f' and cardinality(c.conkey) = 1
    join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    join pg_catalog.pg_class referenced on referenced.oid = c.confrelid and referenced.relnamespace = n.oid
    join private.modules target on target.table_name = referenced.relname
   where m.key = p_module and a.attname = any (m.writable_columns);
$$;

/**
 * The links of p_values (private.module_links) the caller may not set: each id that is
 * new (not the value p_existing holds) and names no record the caller may see in its
 * module (private.record_visible: not deleted, within their view scope) is not_found, the
 * answer for a record that does not exist, so a hidden record's existence never shows.
 * {column: "not_found"}; a value that is not an id is left to the module's rules.
 */
create function private.link_errors(p_module text, p_values jsonb, p_existing jsonb, p_schema text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  link record;
  linked uuid;
  errors jsonb := '{}';
begin
  if jsonb_typeof(p_values) is distinct from 'object' or p_schema is null then
    return errors;
  end if;
  for link in select l.column_name, l.target_module from private.module_links(p_module, p_schema) l
               where p_values ? l.column_name loop
    linked := private.try_uuid(p_values -> link.column_name);
    continue when linked is null or linked = private.try_uuid(p_existing -> link.column_name);
    if not private.record_visible(link.target_module, linked) then
      errors := errors || jsonb_build_object(link.column_name, 'not_found');
    end if;
  end loop;
  return errors;
end;
$$;

-- Customers: the Turkish identifiers (VKN, TCKN, phone, website) and the customer rules
-- built on them, duplicates and merging.

/**
 * Whether p is a Vergi Kimlik Numarası: exactly ten ASCII digits (no spaces), the last the
 * check digit of Gelir İdaresi's algorithm. For i = 1..9: tmp = (d_i + 10 - i) mod 10;
 * v = 9 when tmp = 9, else (tmp * 2^(10 - i)) mod 9; the check digit is
 * (10 - (sum of v) mod 10) mod 10. A first digit 0 is allowed. Null gives false.
 */
create function private.is_valid_vkn(p text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  tmp int;
  total int := 0;
begin
  if p is null or p !~ '^[0-9]{10}$' then
    return false;
  end if;
  for i in 1..9 loop
    tmp := (ascii(substr(p, i, 1)) - 48 + 10 - i) % 10;
    total := total + case when tmp = 9 then 9 else (tmp * (2 ^ (10 - i))::int) % 9 end;
  end loop;
  return (10 - total % 10) % 10 = ascii(substr(p, 10, 1)) - 48;
end;
$$;

/**
 * Whether p is a T.C. Kimlik No: exactly eleven ASCII digits, the first not 0;
 * d10 = ((d1+d3+d5+d7+d9)*7 - (d2+d4+d6+d8)) mod 10 (never negative) and
 * d11 = (d1 + … + d10) mod 10. Null gives false.
 */
create function private.is_valid_tckn(p text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  d int[];
  tenth int;
begin
  if p is null or p !~ '^[1-9][0-9]{10}$' then
    return false;
  end if;
  select array_agg(ascii(substr(p, i, 1)) - 48 order by i) into d from generate_series(1, 11) as i;
  tenth := (((d[1] + d[3] + d[5] + d[7] + d[9]) * 7 - (d[2] + d[4] + d[6] + d[8])) % 10 + 10) % 10;
  return d[10] = tenth
     and d[11] = (d[1] + d[2] + d[3] + d[4] + d[5] + d[6] + d[7] + d[8] + d[9] + d[10]) % 10;
end;
$$;

/**
 * p as an E.164 phone number, or null when it is not one. Whitespace, dashes, dots and
 * parentheses are dropped first. A Turkish number (ten national digits starting with 2–5
 * or 8) written 0XXXXXXXXXX, XXXXXXXXXX, +90XXXXXXXXXX or 0090XXXXXXXXXX becomes
 * +90XXXXXXXXXX; anything else starting with +90 or 0090 is null. Another country's number
 * written +<8 to 15 digits> or 00<8 to 15 digits> (the first not 0) is kept as +<digits>.
 */
create function private.normalize_phone(p text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  compact text := regexp_replace(p,
    '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff().-]', '', 'g');
  international text;
begin
  if compact is null then
    return null;
  end if;
  -- 0 and ten digits is a Turkish number dialled at home; 00 starts an international one.
  if compact ~ '^0[1-9][0-9]{9}$' then
    return case when compact ~ '^0[2-58]' then '+90' || substr(compact, 2) end;
  end if;
  if compact ~ '^[2-58][0-9]{9}$' then
    return '+90' || compact;
  end if;
  if left(compact, 1) = '+' then
    international := substr(compact, 2);
  elsif left(compact, 2) = '00' then
    international := substr(compact, 3);
  else
    return null;
  end if;
  if left(international, 2) = '90' then
    return case when international ~ '^90[2-58][0-9]{9}$' then '+' || international end;
  end if;
  return case when international ~ '^[1-9][0-9]{7,14}$' then '+' || international end;
end;
$$;

/**
 * Whether p is a website: at most 300 characters, no whitespace, an optional http:// or
 * https:// (any case), a host of dot-separated labels (ASCII and Turkish letters, digits,
 * hyphens inside; at most 63 characters each) ending in a top-level domain of 2–63 letters
 * or xn--…, an optional port, then an optional path, query or fragment. Null gives false.
 */
create function private.is_valid_website(p text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(char_length(p) <= 300 and p ~ (
    '^([Hh][Tt][Tt][Pp][Ss]?://)?'
    || '([0-9A-Za-zÇĞİÖŞÜçğıöşü]([0-9A-Za-zÇĞİÖŞÜçğıöşü-]{0,61}[0-9A-Za-zÇĞİÖŞÜçğıöşü])?\.)+'
    || '([A-Za-z]{2,63}|[Xx][Nn]--[0-9A-Za-z-]{1,59})'
    || '(:[0-9]{1,5})?'
    || '([/?#][^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*)?$'), false);
$$;

/**
 * A customer's rules: a name; company (VKN, 10 digits) or person (TCKN, 11 digits) with
 * the checksum; status; phone normalised to +90…; email; website; tags. Returns
 * {"values": normalised values, "errors": {column: code}}. (The same rules as before,
 * with the text fields cleaned in one pass and the result built once: twice as fast,
 * which an import of 100,000 customers feels.)
 */
create function private.prepare_customer(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  texts jsonb := private.clean_text_fields(p_values, '{name,kind,tax_number,tax_office,sector,status,phone,email,website,city,district,address,description}');
  result jsonb := p_values || (texts -> 'values');
  errors jsonb := texts -> 'errors';
  -- Values normalised further (tax number, phone, email, tags), added to the result at the end.
  changes jsonb := '{}';
  kind text := coalesce(texts #>> '{values,kind}', p_existing ->> 'kind', 'company');
  tax_number text;
  cleaned text;
  tags text[];
begin
  if (p_existing is null or p_values ? 'name') and result ->> 'name' is null then
    errors := errors || '{"name": "required"}';
  end if;
  if p_values ? 'kind' and coalesce(result ->> 'kind', '') not in ('company', 'person') then
    errors := errors || '{"kind": "invalid"}';
  end if;
  if p_values ? 'status' and coalesce(result ->> 'status', '') not in ('lead', 'active', 'passive') then
    errors := errors || '{"status": "invalid"}';
  end if;
  -- The tax number follows the kind: checked again when either changes.
  if p_values ? 'tax_number' or p_values ? 'kind' then
    tax_number := case when p_values ? 'tax_number' then regexp_replace(coalesce(result ->> 'tax_number', ''), '\s', '', 'g')
                       else p_existing ->> 'tax_number' end;
    if nullif(tax_number, '') is null then
      changes := changes || '{"tax_number": null}';
    elsif kind = 'company' and not private.is_valid_vkn(tax_number) then
      errors := errors || '{"tax_number": "invalid_vkn"}';
    elsif kind = 'person' and not private.is_valid_tckn(tax_number) then
      errors := errors || '{"tax_number": "invalid_tckn"}';
    else
      changes := changes || jsonb_build_object('tax_number', tax_number);
    end if;
  end if;
  if result ->> 'phone' is not null then
    cleaned := private.normalize_phone(result ->> 'phone');
    if cleaned is null then
      errors := errors || '{"phone": "invalid_phone"}';
    else
      changes := changes || jsonb_build_object('phone', cleaned);
    end if;
  end if;
  if result ->> 'email' is not null then
    cleaned := private.normalize_email(result ->> 'email');
    if not private.is_valid_email(cleaned) then
      errors := errors || '{"email": "invalid_email"}';
    else
      changes := changes || jsonb_build_object('email', cleaned);
    end if;
  end if;
  if result ->> 'website' is not null and not private.is_valid_website(result ->> 'website') then
    errors := errors || '{"website": "invalid_website"}';
  end if;
  if p_values ? 'tags' then
    tags := private.clean_tags(p_values -> 'tags');
    if tags is null then
      errors := errors || '{"tags": "invalid_tags"}';
    else
      changes := changes || jsonb_build_object('tags', to_jsonb(tags));
    end if;
  end if;
  return jsonb_build_object('values', result || changes, 'errors', errors);
end;
$$;

select private.register_module(
  p_key => 'customers', p_position => 1, p_table_name => 'customers', p_entity_type => 'customer',
  p_writable_columns => '{name,kind,tax_number,tax_office,sector,status,phone,email,website,city,district,address,tags,description,external_id}',
  p_list_columns => '{name,kind,tax_number,status,sector,phone,email,city,district,tags}',
  p_sortable_columns => '{name,status,city,created_at,updated_at}',
  p_filterable_columns => '{status,kind,city,sector,tags}',
  p_default_sort => 'name', p_default_descending => false, p_searchable => true,
  p_title_columns => '{name}', p_prepare_function => 'prepare_customer',
  p_transfer_kind => 'customers', p_transfer_default => true,
  p_document_link => 'customer_id');

/** Customers that are likely the same as the values about to be saved. */
create function public.find_customer_duplicates(p_values jsonb, p_exclude uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_duplicates('customers', p_values, p_exclude); $$;
revoke all on function public.find_customer_duplicates(p_values jsonb, p_exclude uuid) from public, anon, authenticated;
grant execute on function public.find_customer_duplicates(p_values jsonb, p_exclude uuid) to authenticated;

/** Merges one customer into another. */
create function public.merge_customers(p_survivor uuid, p_other uuid, p_values jsonb default '{}')
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_merge('customers', p_survivor, p_other, p_values); $$;
revoke all on function public.merge_customers(p_survivor uuid, p_other uuid, p_values jsonb) from public, anon, authenticated;
grant execute on function public.merge_customers(p_survivor uuid, p_other uuid, p_values jsonb) to authenticated;

-- Contacts: labelled e-mails and phones, the contact rules, duplicates and merging, and
-- a person's data under KVKK (export and erasure everywhere their values appear).

/**
 * Labelled emails or phones of a contact: [{label, value}], labels work/home/mobile/other,
 * values checked (and phones normalised). Null when any entry is invalid.
 */
create function private.clean_contact_channels(p_entries jsonb, p_kind text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  entry jsonb;
  value text;
  cleaned jsonb := '[]';
begin
  if p_entries is null or jsonb_typeof(p_entries) = 'null' then
    return '[]';
  end if;
  if jsonb_typeof(p_entries) <> 'array' or jsonb_array_length(p_entries) > 10 then
    return null;
  end if;
  for entry in select e from jsonb_array_elements(p_entries) e loop
    if jsonb_typeof(entry) <> 'object' or coalesce(entry ->> 'label', 'other') not in ('work', 'home', 'mobile', 'other') then
      return null;
    end if;
    value := case p_kind when 'email' then private.normalize_email(entry ->> 'value')
                         else private.normalize_phone(entry ->> 'value') end;
    if value is null or (p_kind = 'email' and not private.is_valid_email(value)) then
      return null;
    end if;
    cleaned := cleaned || jsonb_build_array(jsonb_build_object('label', coalesce(entry ->> 'label', 'other'), 'value', value));
  end loop;
  return cleaned;
end;
$$;

/**
 * A contact's rules: a first or last name; labelled emails and phones; KVKK consent with
 * its channel and date (the date defaults to now); İYS consent per channel (call, sms,
 * email) as booleans. Returns {"values", "errors"} like private.prepare_customer.
 */
create function private.prepare_contact(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  cleaned jsonb;
  consent boolean;
begin
  foreach field in array array['first_name', 'last_name', 'title', 'description', 'kvkk_consent_channel', 'kvkk_consent_source'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, coalesce(private.clean_text(p_values -> field),
                                                               case when field in ('first_name', 'last_name') then '' end));
      end if;
    end if;
  end loop;
  if coalesce(result ->> 'first_name', p_existing ->> 'first_name', '') = ''
     and coalesce(result ->> 'last_name', p_existing ->> 'last_name', '') = '' then
    errors := errors || '{"first_name": "required"}';
  end if;
  foreach field in array array['emails', 'phones'] loop
    if p_values ? field then
      cleaned := private.clean_contact_channels(p_values -> field, case field when 'emails' then 'email' else 'phone' end);
      if cleaned is null then
        errors := errors || jsonb_build_object(field, case field when 'emails' then 'invalid_email' else 'invalid_phone' end);
      else
        result := result || jsonb_build_object(field, cleaned);
      end if;
    end if;
  end loop;
  if p_values ? 'tags' then
    if private.clean_tags(p_values -> 'tags') is null then
      errors := errors || '{"tags": "invalid_tags"}';
    else
      result := result || jsonb_build_object('tags', to_jsonb(private.clean_tags(p_values -> 'tags')));
    end if;
  end if;
  if p_values ? 'kvkk_consent' then
    if jsonb_typeof(p_values -> 'kvkk_consent') <> 'boolean' then
      errors := errors || '{"kvkk_consent": "invalid"}';
    else
      consent := (p_values ->> 'kvkk_consent')::boolean;
      if consent then
        if coalesce(result ->> 'kvkk_consent_channel', p_existing ->> 'kvkk_consent_channel') is null
           or coalesce(result ->> 'kvkk_consent_channel', p_existing ->> 'kvkk_consent_channel')
              not in ('form', 'email', 'phone', 'in_person', 'other') then
          errors := errors || '{"kvkk_consent_channel": "required"}';
        end if;
        if coalesce(result ->> 'kvkk_consent_at', p_existing ->> 'kvkk_consent_at') is null then
          result := result || jsonb_build_object('kvkk_consent_at', now());
        end if;
      else
        result := result || '{"kvkk_consent_channel": null, "kvkk_consent_at": null, "kvkk_consent_source": null}';
      end if;
    end if;
  end if;
  if p_values ? 'iys_consent' then
    if jsonb_typeof(p_values -> 'iys_consent') <> 'object'
       or exists (select 1 from jsonb_each(p_values -> 'iys_consent') c
                   where c.key not in ('call', 'sms', 'email') or jsonb_typeof(c.value) <> 'boolean') then
      errors := errors || '{"iys_consent": "invalid"}';
    else
      result := result || jsonb_build_object('iys_consent',
        '{"call": false, "sms": false, "email": false}'::jsonb || coalesce(p_existing -> 'iys_consent', '{}') || (p_values -> 'iys_consent'));
    end if;
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- A contact's records move with its customers (the transfer kind customers).
select private.register_module(
  p_key => 'contacts', p_position => 2, p_table_name => 'contacts', p_entity_type => 'contact',
  p_writable_columns => '{customer_id,first_name,last_name,title,emails,phones,tags,description,kvkk_consent,kvkk_consent_channel,kvkk_consent_at,kvkk_consent_source,iys_consent,external_id}',
  p_list_columns => '{customer_id,first_name,last_name,title,emails,phones,tags,kvkk_consent}',
  p_sortable_columns => '{last_name,first_name,created_at,updated_at}',
  p_filterable_columns => '{customer_id,tags,kvkk_consent}',
  p_default_sort => 'last_name', p_default_descending => false, p_searchable => true,
  p_title_columns => '{first_name,last_name}', p_prepare_function => 'prepare_contact',
  p_transfer_kind => 'customers', p_document_link => 'contact_id');

/** The checks of a data-subject action: an admin of the session's organization, and the contact's schema. */
create function private.data_subject_context(p_contact uuid)
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contacts', 'view');
  known boolean;
begin
  if context.problem is not null then
    return context;
  end if;
  context.problem := (private.caller_context('admin')).problem;
  if context.problem is not null then
    return context;
  end if;
  execute format('select exists (select 1 from %I.contacts where id = $1 and anonymized_at is null)', context.schema_name)
    into known using p_contact;
  if not known then
    context.problem := private.failure('Record not found', 'not_found');
  end if;
  return context;
end;
$$;

/**
 * Everything the organization holds about a contact (KVKK right of access), for an admin:
 * the contact, its customer's name, notes, field history and audit entries. Audited.
 */
create function public.export_contact_data(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.data_subject_context(p_id);
  held jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format($query$
    select jsonb_build_object(
      'contact', (select to_jsonb(c) - 'search_text' from %1$I.contacts c where c.id = $1),
      'customer', (select jsonb_build_object('id', cu.id, 'name', cu.name) from %1$I.contacts c
                     join %1$I.customers cu on cu.id = c.customer_id where c.id = $1),
      'notes', (select coalesce(jsonb_agg(jsonb_build_object('body', n.body, 'created_at', n.created_at) order by n.created_at), '[]')
                  from %1$I.notes n where n.entity_type = 'contact' and n.entity_id = $1),
      'field_history', (select coalesce(jsonb_agg(jsonb_build_object('field', h.field, 'old', h.old_value, 'new', h.new_value,
                                                                     'changed_at', h.changed_at) order by h.changed_at), '[]')
                          from %1$I.field_history h where h.entity_type = 'contact' and h.record_id = $1),
      'audit', (select coalesce(jsonb_agg(jsonb_build_object('action', a.action, 'at', a.created_at) order by a.id), '[]')
                  from private.audit_log a where a.organization_id = $2 and a.target_type = 'contacts' and a.target_id = $1::text))$query$,
    context.schema_name)
    into held using p_id, context.organization_id;
  perform private.write_audit(context.organization_id, 'contacts.data_exported', 'contacts', p_id::text);
  return jsonb_build_object('success', true, 'exported_at', now(), 'data', held);
end;
$$;
revoke all on function public.export_contact_data(p_id uuid) from public, anon, authenticated;
grant execute on function public.export_contact_data(p_id uuid) to authenticated;

/**
 * Erases a contact (KVKK right to erasure), for an admin, with every copy of the person the
 * organization holds:
 * - the contact and every contact of its merge family (those merged into it, the one it was
 *   merged into, and theirs: a merge said they are one person) are anonymised and deleted,
 *   their rows kept so references hold; their notes and field history go, and the imports'
 *   old values of them are emptied (such an import can no longer be undone anyway);
 * - their names, e-mails and phones, as they are and as history and imports knew them, are
 *   replaced by *** wherever else the organization keeps text (private.erase_person_values:
 *   task titles and descriptions, notes, deals, quotes, contracts, documents' titles and
 *   file names, other records' history, imports, saved views, notifications): e-mails and
 *   phones everywhere, full names everywhere but in other contacts and customers (a
 *   namesake keeps their name), first and last names alone in the rows linked to the
 *   person (a task, quote, contract or document of theirs).
 * The audit log never holds a record's values (ids, field names, counts), so it keeps its
 * entries; the erasure's own entries name only the contacts' ids.
 * Files' contents in Storage are not read; delete a document that holds the person's data.
 */
create function public.erase_contact(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.data_subject_context(p_id);
  family uuid[];
  names text[];
  full_names text[];
  channels text[];
begin
  if context.problem is not null then
    return context.problem;
  end if;
  -- The merge family: merged into it, it into another, and so on both ways.
  execute format($query$
    with recursive family (id) as (
      select $1
      union
      select c.id from family f
        join %1$I.contacts me on me.id = f.id
        join %1$I.contacts c on c.merged_into = me.id or c.id = me.merged_into
    )
    select array_agg(f.id order by f.id) from family f$query$, context.schema_name)
    into family using p_id;
  execute format('select 1 from %I.contacts c where c.id = any ($1) for update', context.schema_name) using family;

  -- The person's values: as the rows hold them, as their history and the imports knew them.
  execute format($query$
    with person as (
      select c.first_name, c.last_name, c.emails, c.phones from %1$I.contacts c where c.id = any ($1)
    ), known (field, value) as (
      select 'first_name', to_jsonb(p.first_name) from person p
      union all select 'last_name', to_jsonb(p.last_name) from person p
      union all select 'emails', p.emails from person p
      union all select 'phones', p.phones from person p
      union all select 'full_name', to_jsonb(p.first_name || ' ' || p.last_name) from person p
       where btrim(p.first_name) <> '' and btrim(p.last_name) <> ''
      union all select h.field, v.value from %1$I.field_history h
                 cross join lateral (values (h.old_value), (h.new_value)) v (value)
       where h.entity_type = 'contact' and h.record_id = any ($1) and h.field in ('first_name', 'last_name', 'emails', 'phones')
      union all select p.key, p.value from %1$I.import_rows r cross join lateral jsonb_each(r.previous) p
       where r.record_id = any ($1) and p.key in ('first_name', 'last_name', 'emails', 'phones')
    ), flat (field, value) as (
      select k.field, btrim(k.value #>> '{}') from known k where jsonb_typeof(k.value) = 'string'
      union all select k.field, btrim(e ->> 'value') from known k cross join lateral jsonb_array_elements(k.value) e
       where jsonb_typeof(k.value) = 'array' and jsonb_typeof(e) = 'object'
    )
    select array(select distinct f.value from flat f where f.field in ('first_name', 'last_name') and char_length(f.value) >= 2),
           array(select distinct f.value from flat f where f.field = 'full_name' and char_length(f.value) >= 2),
           array(select distinct f.value from flat f where f.field in ('emails', 'phones') and char_length(f.value) >= 2)$query$,
    context.schema_name)
    into names, full_names, channels using family;

  -- The contacts themselves, their notes, history and imported old values.
  execute format($query$
    update %1$I.contacts
       set first_name = '', last_name = '', title = null, emails = '[]', phones = '[]', tags = '{}', description = null,
           external_id = null, kvkk_consent = false, kvkk_consent_channel = null, kvkk_consent_at = null,
           kvkk_consent_source = null, iys_consent = '{"call": false, "sms": false, "email": false}',
           anonymized_at = coalesce(anonymized_at, now()), deleted_at = coalesce(deleted_at, now())
     where id = any ($1)$query$, context.schema_name)
    using family;
  execute format('delete from %I.notes where entity_type = ''contact'' and entity_id = any ($1)', context.schema_name) using family;
  execute format('delete from %I.field_history where entity_type = ''contact'' and record_id = any ($1)', context.schema_name)
    using family;
  execute format('update %I.import_rows set previous = ''{}'' where record_id = any ($1) and previous is not null', context.schema_name)
    using family;

  -- Every other copy.
  perform private.erase_person_values(context.schema_name, context.organization_id, family, channels, full_names, names);

  perform private.write_audit(context.organization_id, 'contacts.erased', 'contacts', f::text,
                              case when f = p_id and cardinality(family) > 1
                                   then jsonb_build_object('with', (select jsonb_agg(o) from unnest(family) o where o <> p_id))
                                   else '{}' end)
     from unnest(family) f;
  return jsonb_build_object('success', true, 'erased', to_jsonb(family));
end;
$$;
revoke all on function public.erase_contact(p_id uuid) from public, anon, authenticated;
grant execute on function public.erase_contact(p_id uuid) to authenticated;

/** Contacts that are likely the same as the values about to be saved. */
create function public.find_contact_duplicates(p_values jsonb, p_exclude uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_duplicates('contacts', p_values, p_exclude); $$;
revoke all on function public.find_contact_duplicates(p_values jsonb, p_exclude uuid) from public, anon, authenticated;
grant execute on function public.find_contact_duplicates(p_values jsonb, p_exclude uuid) to authenticated;

/** Merges one contact into another. */
create function public.merge_contacts(p_survivor uuid, p_other uuid, p_values jsonb default '{}')
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_merge('contacts', p_survivor, p_other, p_values); $$;
revoke all on function public.merge_contacts(p_survivor uuid, p_other uuid, p_values jsonb) from public, anon, authenticated;
grant execute on function public.merge_contacts(p_survivor uuid, p_other uuid, p_values jsonb) to authenticated;

/** p_value with every match of p_pattern (case-insensitive) in its strings (not its keys) replaced by ***. */
create function private.scrub_jsonb(p_value jsonb, p_pattern text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case jsonb_typeof(p_value)
    when 'string' then to_jsonb(regexp_replace(p_value #>> '{}', p_pattern, '***', 'gi'))
    when 'array' then (select coalesce(jsonb_agg(private.scrub_jsonb(e.value, p_pattern) order by e.n), '[]')
                         from jsonb_array_elements(p_value) with ordinality e (value, n))
    when 'object' then (select coalesce(jsonb_object_agg(e.key, private.scrub_jsonb(e.value, p_pattern)), '{}')
                          from jsonb_each(p_value) e)
    else p_value end;
end;
$$;

/** p_values with every match of p_pattern (case-insensitive) replaced by ***. */
create function private.scrub_texts(p_values text[], p_pattern text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case when p_values is null then null
              else array(select regexp_replace(v.value, p_pattern, '***', 'gi')
                           from unnest(p_values) with ordinality v (value, n) order by v.n) end;
$$;

/**
 * Replaces a person's values wherever the organization keeps text: every text, text[] and
 * jsonb column (not generated ones, which follow) of every table of its schema, found in
 * the catalogue, so a table or column added later is covered; then its notifications'
 * titles and its upload reservations' titles and file names, case-insensitively: p_channels
 * (e-mails, phones) everywhere; p_full_names too except in other people's records (another
 * contact or customer may be a namesake); p_names (the first and last names alone, as
 * words) too in the rows linked to the person: their contacts (p_family), the rows
 * with a contact_id of theirs (a task, quote, contract, document, …), the imports that
 * wrote one of those, and the notes, history, imported rows, notifications and uploads of
 * any of them. A row whose new value
 * a constraint refuses has that column cleared instead (when it may be null). Returns how
 * many rows changed. A row is looked at once, all its text in one lower-cased string
 * (about 0.4 s for 200,000 rows), so the sweep costs roughly a second per 300,000 rows of
 * the organization.
 */
create function private.erase_person_values(p_schema text, p_organization_id uuid, p_family uuid[],
                                            p_channels text[], p_full_names text[], p_names text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  relation record;
  target record;
  linked text;
  row_pattern text;
  assignments text;
  conditions text;
  linked_ids uuid[] := p_family;
  found_ids uuid[];
  changed integer;
  total integer := 0;
  never constant text := 'a^';  -- (matches nothing: ^ only at the start)
  -- Other people's records: the person's e-mails and phones only.
  people constant text[] := '{customers,contacts}';
  channel_pattern text := coalesce((select string_agg(private.regex_literal(v), '|' order by char_length(v) desc)
                                      from unnest(p_channels) v where char_length(v) >= 2), never);
  pattern text := coalesce((select string_agg(private.regex_literal(v), '|' order by char_length(v) desc)
                              from unnest(p_channels || p_full_names) v where char_length(v) >= 2), never);
  linked_pattern text := coalesce(nullif(concat_ws('|', nullif(pattern, never),
    (select '\m(?:' || string_agg(private.regex_literal(n), '|' order by char_length(n) desc) || ')\M'
       from unnest(p_names) n where char_length(n) >= 2)), ''), never);
  -- The values as lower-cased LIKE patterns: one cheap look at each row's text.
  likes text[] := array(select '%' || replace(replace(replace(lower(v), '\', '\\'), '%', '\%'), '_', '\_') || '%'
                          from unnest(p_channels || p_full_names) v where char_length(v) >= 2);
  channel_likes text[] := array(select '%' || replace(replace(replace(lower(v), '\', '\\'), '%', '\%'), '_', '\_') || '%'
                                  from unnest(p_channels) v where char_length(v) >= 2);
  texts text;
begin
  -- The rows linked to the person: theirs, and those with a contact_id of theirs (tasks,
  -- quotes, contracts, documents, …).
  for relation in
    select c.oid, c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p')
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'contact_id'
                      and a.atttypid = 'uuid'::regtype and not a.attisdropped)
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'id'
                      and a.atttypid = 'uuid'::regtype and not a.attisdropped)
  loop
    execute format('select array_agg(t.id) from %I.%I t where t.contact_id = any ($1)', p_schema, relation.relname)
      into found_ids using p_family;
    linked_ids := linked_ids || coalesce(found_ids, '{}');
  end loop;
  -- And the imports that wrote one of them (their file names).
  if to_regclass(format('%I.import_rows', p_schema)) is not null then
    execute format('select array_agg(distinct r.import_id) from %I.import_rows r where r.record_id = any ($1)', p_schema)
      into found_ids using linked_ids;
    linked_ids := linked_ids || coalesce(found_ids, '{}');
  end if;

  for relation in
    select c.oid, c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p') order by c.relname
  loop
    -- A linked row: one of linked_ids ($3), or one hanging off one (any uuid column named
    -- *_id holds one of them: a note's entity_id, a history or imported row's record_id, a
    -- quote line's quote_id, a document version's document_id, a contact_id, …).
    select string_agg(format('t.%I = any ($3)', a.attname), ' or ' order by a.attnum) into linked
      from pg_catalog.pg_attribute a
     where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.atttypid = 'uuid'::regtype
       and (a.attname = 'id' or a.attname like '%\_id') and a.attname <> 'owner_id';
    linked := coalesce(nullif(linked, ''), 'false');
    row_pattern := format('(case when %s then $2 else $1 end)', linked);
    -- ($1 and $4: what unlinked rows of this table lose; $2 what linked rows lose.)
    select string_agg(format('%I = %s', a.attname, case
             when a.atttypid = 'jsonb'::regtype then format('private.scrub_jsonb(t.%I, %s)', a.attname, row_pattern)
             when a.atttypid = 'text[]'::regtype then format('private.scrub_texts(t.%I, %s)', a.attname, row_pattern)
             else format('regexp_replace(t.%I, %s, ''***'', ''gi'')', a.attname, row_pattern) end), ', '),
           format('lower(concat_ws(chr(1), %s)) like any ($4)', string_agg(format('t.%I::text', a.attname), ', '))
      into assignments, texts
      from pg_catalog.pg_attribute a
     where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
       and a.atttypid in ('text'::regtype, 'character varying'::regtype, 'text[]'::regtype, 'jsonb'::regtype);
    continue when assignments is null;
    conditions := format('(%s) or %s', linked, texts);
    begin
      execute format('with changed as (update %I.%I t set %s where %s returning 1) select count(*) from changed',
                     p_schema, relation.relname, assignments, conditions)
        into changed using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
      total := total + changed;
    exception when integrity_constraint_violation or data_exception then
      -- Column by column; a value the table refuses (a phone's format, a unique key) goes.
      for target in
        select a.attname, a.atttypid, a.attnotnull from pg_catalog.pg_attribute a
         where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
           and a.atttypid in ('text'::regtype, 'character varying'::regtype, 'text[]'::regtype, 'jsonb'::regtype)
      loop
        begin
          execute format('update %I.%I t set %I = %s where (%s) or lower(t.%I::text) like any ($4)', p_schema, relation.relname, target.attname,
                         case when target.atttypid = 'jsonb'::regtype then format('private.scrub_jsonb(t.%I, %s)', target.attname, row_pattern)
                              when target.atttypid = 'text[]'::regtype then format('private.scrub_texts(t.%I, %s)', target.attname, row_pattern)
                              else format('regexp_replace(t.%I, %s, ''***'', ''gi'')', target.attname, row_pattern) end,
                         linked, target.attname)
            using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
        exception when integrity_constraint_violation or data_exception then
          if not target.attnotnull then
            execute format('update %I.%I t set %I = null where t.%I::text ~* %s', p_schema, relation.relname, target.attname,
                           target.attname, row_pattern)
              using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
          end if;
        end;
      end loop;
    end;
  end loop;

  update private.notifications n
     set title = regexp_replace(n.title, case when n.record_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi')
   where n.organization_id = p_organization_id
     and n.title ~* case when n.record_id = any (linked_ids) then linked_pattern else pattern end;
  get diagnostics changed = row_count;
  total := total + changed;
  update private.document_uploads u
     set title = regexp_replace(u.title, case when u.link_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi'),
         file_name = regexp_replace(u.file_name, case when u.link_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi')
   where u.organization_id = p_organization_id
     and concat_ws(' ', u.title, u.file_name) ~* case when u.link_id = any (linked_ids) then linked_pattern else pattern end;
  get diagnostics changed = row_count;
  return total + changed;
end;
$$;

-- Deals: stages from the organization's pipeline, stage history, the board with totals
-- kept per owner, the forecast, a deal's contacts and details.

/** The stage a new deal starts at: the pipeline's first open stage (else its first stage). */
create function private.first_deal_stage(p_stages jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce((select stage from jsonb_array_elements(p_stages) with ordinality s (stage, position)
                    where stage ->> 'outcome' = 'open' order by position limit 1),
                  p_stages -> 0);
$$;

/** One stage of a pipeline by its key ({key, name, probability, outcome}), or null. */
create function private.deal_stage(p_stages jsonb, p_key text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select stage from jsonb_array_elements(p_stages) stage where stage ->> 'key' = p_key limit 1;
$$;

/**
 * What a deal written without a stage or currency gets in a tenant schema: the first
 * open stage of the owning organization's pipeline, its probability, the organization's
 * currency. (A schema no organization owns, like the drift check's reference, gets the
 * default pipeline's lead stage in TRY.)
 */
create function private.tenant_deal_defaults(p_schema text)
returns table (stage text, probability integer, currency text)
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(private.first_deal_stage(s.deal_stages) ->> 'key', 'lead'),
         coalesce((private.first_deal_stage(s.deal_stages) ->> 'probability')::numeric::integer, 10),
         coalesce(s.default_currency, 'TRY')
    from (select 1) one
    left join private.organizations o on o.schema_name = p_schema
    left join private.organization_settings s on s.organization_id = o.id;
$$;

/** Trigger (before insert on deals): a deal written without stage or currency gets the organization's defaults. */
create function private.deal_fill_defaults()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  defaults record;
begin
  if new.stage is null or new.currency is null then
    select * into defaults from private.tenant_deal_defaults(tg_table_schema);
    if new.stage is null then
      new.stage := defaults.stage;
      new.probability := coalesce(new.probability, defaults.probability);
    end if;
    new.currency := coalesce(new.currency, defaults.currency);
  end if;
  return new;
end;
$$;

/**
 * Trigger (after insert, update and delete on deals, per statement, with the transition
 * tables new_deals and old_deals): one stage history entry per new deal (at its creation,
 * by its creator unless a signed-in user wrote it) and per deal whose stage changed (now,
 * by the signed-in user); the board's totals per owner, stage and currency follow every
 * change of a live deal's owner, stage, currency, amount or deletion.
 */
create function private.deal_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changes text := case tg_op
    when 'INSERT' then 'select owner_id, stage, currency, 1 as n, amount from new_deals where deleted_at is null'
    when 'UPDATE' then 'select owner_id, stage, currency, 1 as n, amount from new_deals where deleted_at is null
                        union all select owner_id, stage, currency, -1, -amount from old_deals where deleted_at is null'
    else 'select owner_id, stage, currency, -1 as n, -amount as amount from old_deals where deleted_at is null' end;
begin
  if tg_op = 'INSERT' then
    execute format('insert into %I.deal_stage_history (deal_id, from_stage, to_stage, changed_by, changed_at)
                    select n.id, null, n.stage, coalesce(auth.uid(), n.created_by), n.created_at from new_deals n',
                   tg_table_schema);
  elsif tg_op = 'UPDATE' then
    execute format('insert into %I.deal_stage_history (deal_id, from_stage, to_stage, changed_by, changed_at)
                    select n.id, o.stage, n.stage, auth.uid(), now()
                      from new_deals n join old_deals o on o.id = n.id
                     where o.stage is distinct from n.stage',
                   tg_table_schema);
  end if;
  -- In key order, so that concurrent writers lock the totals rows in the same order.
  execute format('insert into %I.deal_stage_totals as s (owner_id, stage, currency, deal_count, amount)
                  select d.owner_id, d.stage, d.currency, sum(d.n), sum(d.amount) from (%s) d
                   group by d.owner_id, d.stage, d.currency
                  having sum(d.n) <> 0 or sum(d.amount) <> 0
                   order by d.owner_id, d.stage, d.currency
                  on conflict (owner_id, stage, currency) do update
                    set deal_count = s.deal_count + excluded.deal_count, amount = s.amount + excluded.amount',
                 tg_table_schema, changes);
  return null;
end;
$$;

/** Trigger (after truncate on deals): the board's totals empty too. */
create function private.deal_after_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  execute format('delete from %I.deal_stage_totals', tg_table_schema);
  return null;
end;
$$;

/**
 * Trigger (before update on deal_contacts): when a link is moved onto a deal and contact
 * already linked (merging two contacts on one deal, or two deals with one contact), the
 * link already there goes, so the moved one takes its place instead of a unique violation.
 */
create function private.deal_contacts_merge_link()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (new.deal_id, new.contact_id) is distinct from (old.deal_id, old.contact_id) then
    execute format('delete from %I.deal_contacts where deal_id = $1 and contact_id = $2', tg_table_schema)
      using new.deal_id, new.contact_id;
  end if;
  return new;
end;
$$;

/**
 * A deal's rules: a title (at most 200 characters); the stage a key of the organization's
 * pipeline (invalid_stage; a new deal starts at the first open stage); the probability
 * 0-100, the stage's own when the stage is set or changed and none is given; the currency
 * three letters, the organization's by default; an amount of at least 0; an existing,
 * not deleted customer of the organization; tags. Moving to a won or lost stage sets
 * closed_at; a lost stage needs a lost_reason; moving back to an open stage clears both.
 * Returns {"values", "errors"} like private.prepare_customer.
 */
create function private.prepare_deal(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  target_org uuid := private.current_organization_id();
  settings private.organization_settings;
  tenant text;
  old_stage jsonb;
  new_stage jsonb;
  stage_changed boolean;
  outcome text;
  number_value numeric;
  close_date date;
  customer uuid;
  customer_found boolean;
begin
  select * into settings from private.organization_settings s where s.organization_id = target_org;
  settings.deal_stages := coalesce(settings.deal_stages, '[]');

  -- Free-text fields: strings only, trimmed, empty as null.
  foreach field in array array['title', 'currency', 'stage', 'source', 'description', 'lost_reason'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

  if (p_existing is null or p_values ? 'title') and not errors ? 'title' then
    if result ->> 'title' is null then
      errors := errors || '{"title": "required"}';
    elsif char_length(result ->> 'title') > 200 then
      errors := errors || '{"title": "too_long"}';
    end if;
  end if;
  if char_length(result ->> 'source') > 100 and p_values ? 'source' then
    errors := errors || '{"source": "too_long"}';
  end if;
  if char_length(result ->> 'description') > 10000 and p_values ? 'description' then
    errors := errors || '{"description": "too_long"}';
  end if;
  if char_length(result ->> 'lost_reason') > 500 and p_values ? 'lost_reason' then
    errors := errors || '{"lost_reason": "too_long"}';
  end if;

  -- Amount: a number from 0 (null: 0), kept to the cent.
  if p_values ? 'amount' then
    if jsonb_typeof(p_values -> 'amount') = 'null' then
      result := result || '{"amount": 0}';
    elsif jsonb_typeof(p_values -> 'amount') <> 'number'
          or (p_values ->> 'amount')::numeric not between 0 and 99999999999999.99 then
      errors := errors || '{"amount": "invalid"}';
    else
      result := result || jsonb_build_object('amount', round((p_values ->> 'amount')::numeric, 2));
    end if;
  end if;

  -- Currency: three letters, the organization's when a new deal names none.
  if p_values ? 'currency' and not errors ? 'currency' then
    if result ->> 'currency' is null then
      if p_existing is null then
        result := result || jsonb_build_object('currency', settings.default_currency);
      else
        errors := errors || '{"currency": "required"}';
      end if;
    elsif upper(result ->> 'currency') !~ '^[A-Z]{3}$' then
      errors := errors || '{"currency": "invalid"}';
    else
      result := result || jsonb_build_object('currency', upper(result ->> 'currency'));
    end if;
  elsif p_existing is null then
    result := result || jsonb_build_object('currency', coalesce(settings.default_currency, 'TRY'));
  end if;

  if p_values ? 'probability' and jsonb_typeof(p_values -> 'probability') <> 'null' then
    if jsonb_typeof(p_values -> 'probability') <> 'number' then
      errors := errors || '{"probability": "invalid"}';
    else
      number_value := (p_values ->> 'probability')::numeric;
      if number_value not between 0 and 100 or number_value <> trunc(number_value) then
        errors := errors || '{"probability": "invalid"}';
      else
        result := result || jsonb_build_object('probability', number_value::integer);
      end if;
    end if;
  end if;

  if p_values ? 'expected_close_date' and jsonb_typeof(p_values -> 'expected_close_date') <> 'null' then
    begin
      if jsonb_typeof(p_values -> 'expected_close_date') <> 'string'
         or (p_values ->> 'expected_close_date') !~ '^\d{4}-\d{2}-\d{2}$' then
        raise invalid_datetime_format;
      end if;
      close_date := (p_values ->> 'expected_close_date')::date;
      if extract(year from close_date) not between 2000 and 2999 then
        raise invalid_datetime_format;
      end if;
      result := result || jsonb_build_object('expected_close_date', close_date);
    exception when invalid_datetime_format or datetime_field_overflow then
      errors := errors || '{"expected_close_date": "invalid"}';
    end;
  end if;

  if p_values ? 'tags' then
    if private.clean_tags(p_values -> 'tags') is null then
      errors := errors || '{"tags": "invalid_tags"}';
    else
      result := result || jsonb_build_object('tags', to_jsonb(private.clean_tags(p_values -> 'tags')));
    end if;
  end if;

  -- The customer: one of the organization's, not deleted.
  if p_values ? 'customer_id' and jsonb_typeof(p_values -> 'customer_id') <> 'null' then
    begin
      customer := (p_values ->> 'customer_id')::uuid;
      tenant := private.tenant_schema(target_org);
      execute format('select exists (select 1 from %I.customers c where c.id = $1 and c.deleted_at is null)', tenant)
        into customer_found using customer;
      if not coalesce(customer_found, false) then
        errors := errors || '{"customer_id": "not_found"}';
      end if;
    exception when invalid_text_representation then
      errors := errors || '{"customer_id": "invalid"}';
    end;
  end if;

  -- The stage and what moving there means.
  old_stage := private.deal_stage(settings.deal_stages, p_existing ->> 'stage');
  if p_values ? 'stage' and not errors ? 'stage' then
    if result ->> 'stage' is null and p_existing is null then
      new_stage := private.first_deal_stage(settings.deal_stages);
    else
      new_stage := private.deal_stage(settings.deal_stages, result ->> 'stage');
      if new_stage is null then
        errors := errors || '{"stage": "invalid_stage"}';
      end if;
    end if;
  elsif p_existing is null then
    new_stage := private.first_deal_stage(settings.deal_stages);
    if new_stage is null then
      errors := errors || '{"stage": "invalid_stage"}';
    end if;
  end if;
  stage_changed := new_stage is not null and (p_existing is null or new_stage ->> 'key' is distinct from p_existing ->> 'stage');

  if new_stage is not null then
    result := result || jsonb_build_object('stage', new_stage ->> 'key');
  end if;
  if stage_changed then
    outcome := new_stage ->> 'outcome';
    if not (p_values ? 'probability') or jsonb_typeof(p_values -> 'probability') = 'null' then
      result := result || jsonb_build_object('probability', (new_stage ->> 'probability')::numeric::integer);
    end if;
    if outcome = 'open' then
      result := result || '{"closed_at": null, "lost_reason": null}';
    else
      -- Closed now, unless it only moves between two stages of the same outcome.
      result := result || jsonb_build_object('closed_at',
        case when old_stage ->> 'outcome' = outcome and p_existing ->> 'closed_at' is not null
             then p_existing -> 'closed_at' else to_jsonb(now()) end);
    end if;
  elsif p_existing is not null then
    outcome := old_stage ->> 'outcome';
    if p_values ? 'probability' and jsonb_typeof(p_values -> 'probability') = 'null' then
      result := result || jsonb_build_object('probability', (old_stage ->> 'probability')::numeric::integer);
    end if;
  end if;
  -- A lost reason belongs to a lost deal only, and a lost deal has one.
  if outcome is distinct from 'lost' then
    if p_values ? 'lost_reason' or stage_changed then
      result := result || '{"lost_reason": null}';
    end if;
  elsif not errors ? 'lost_reason'
        and (case when p_values ? 'lost_reason' then result ->> 'lost_reason' else p_existing ->> 'lost_reason' end) is null then
    errors := errors || '{"lost_reason": "required"}';
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The registry row
-- ---------------------------------------------------------------------------------
select private.register_module(
  p_key => 'deals', p_position => 3, p_table_name => 'deals', p_entity_type => 'deal',
  p_writable_columns => '{title,customer_id,amount,currency,stage,probability,expected_close_date,source,description,tags,lost_reason,external_id}',
  p_list_columns => '{title,customer_id,stage,amount,currency,probability,expected_close_date,source,tags,closed_at}',
  p_sortable_columns => '{title,amount,expected_close_date,stage,created_at,updated_at}',
  p_filterable_columns => '{stage,customer_id,currency,source,tags,expected_close_date}',
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_prepare_function => 'prepare_deal', p_transfer_kind => 'deals', p_transfer_default => true,
  p_document_link => 'deal_id');

/**
 * Moves a deal the caller may edit to another stage through the record engine (the
 * deal's rules, stale check, field history, audit); p_lost_reason for a lost stage.
 */
create function private.deal_move(p_id uuid, p_stage text, p_updated_at timestamptz, p_lost_reason text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'edit');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  return private.record_write('deals', context, p_id,
    jsonb_build_object('stage', p_stage)
      || case when p_lost_reason is not null then jsonb_build_object('lost_reason', p_lost_reason) else '{}' end,
    p_updated_at, true);
end;
$$;

/**
 * The board's filters as query parameters: {"owner_id": id | "me" | [ids], "customer_id":
 * id | [ids], "search": text}. Returns {"owners": [ids] | null, "customers": [ids] | null,
 * "pattern": LIKE pattern over the folded search text | null}, or {"problem"}.
 */
create function private.deal_board_filters(p_filters jsonb, p_caller uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  filters jsonb := coalesce(p_filters, '{}');
  owners uuid[];
  customers uuid[];
  folded text;
  refused constant jsonb := jsonb_build_object('problem', private.failure('Invalid board request', 'invalid_input'));
begin
  if jsonb_typeof(filters) <> 'object' then
    return refused;
  end if;
  if exists (select 1 from jsonb_object_keys(filters) k where k not in ('owner_id', 'customer_id', 'search'))
     or jsonb_typeof(coalesce(filters -> 'search', 'null')) not in ('string', 'null') then
    return refused;
  end if;
  begin
    if jsonb_typeof(coalesce(filters -> 'owner_id', 'null')) <> 'null' then
      owners := array(select case when v #>> '{}' = 'me' then p_caller else (v #>> '{}')::uuid end
                        from jsonb_array_elements(case jsonb_typeof(filters -> 'owner_id') when 'array' then filters -> 'owner_id'
                                                       else jsonb_build_array(filters -> 'owner_id') end) v);
    end if;
    if jsonb_typeof(coalesce(filters -> 'customer_id', 'null')) <> 'null' then
      customers := array(select (v #>> '{}')::uuid
                           from jsonb_array_elements(case jsonb_typeof(filters -> 'customer_id') when 'array' then filters -> 'customer_id'
                                                          else jsonb_build_array(filters -> 'customer_id') end) v);
    end if;
  exception when invalid_text_representation then
    return refused;
  end;
  if cardinality(owners) > 100 or cardinality(customers) > 100 then
    return refused;
  end if;
  folded := private.fold_search(btrim(coalesce(filters ->> 'search', '')));
  return jsonb_build_object('owners', to_jsonb(owners), 'customers', to_jsonb(customers),
    'pattern', case when folded <> '' then '%' || replace(replace(replace(folded, '\', '\\'), '%', '\%'), '_', '\_') || '%' end);
end;
$$;

/**
 * The condition a board query puts on deals ($1 scope, $2 caller, $3 owners, $4
 * customers, $5 pattern), with only the filters given: one owner as an equality, so that
 * the owner's board index serves it.
 */
create function private.deal_board_condition(p_filters jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select 't.deleted_at is null and ($1 = ''all'' or t.owner_id = $2)'
         || case when jsonb_typeof(p_filters -> 'owners') <> 'array' then ''
                 when jsonb_array_length(p_filters -> 'owners') = 1 then ' and t.owner_id = ($3)[1]'
                 else ' and t.owner_id = any ($3)' end
         || case when jsonb_typeof(p_filters -> 'customers') <> 'array' then ''
                 when jsonb_array_length(p_filters -> 'customers') = 1 then ' and t.customer_id = ($4)[1]'
                 else ' and t.customer_id = any ($4)' end
         || case when p_filters ->> 'pattern' is null then '' else ' and t.search_text like $5' end;
$$;

/**
 * The cards of some stages as {stage key: [cards]}: p_limit deals from p_offset per stage,
 * most recently changed first, each with its customer's name (when the caller may see
 * that customer) and its owner's name.
 */
create function private.deal_board_cards(p_context private.module_context, p_filters jsonb, p_stages text[],
                                                    p_offset integer, p_limit integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  cards jsonb;
begin
  if p_limit <= 0 or cardinality(p_stages) = 0 then
    return (select coalesce(jsonb_object_agg(k, '[]'::jsonb), '{}') from unnest(p_stages) k);
  end if;
  execute format('select coalesce(jsonb_object_agg(c.key, coalesce(c.cards::jsonb, ''[]'')), ''{}'') from (%s) c',
                 private.deal_board_cards_query(p_context.schema_name, private.deal_board_condition(p_filters), p_stages))
    into cards
    using p_context.scope, p_context.caller, private.uuid_array(p_filters -> 'owners'),
          private.uuid_array(p_filters -> 'customers'), p_filters ->> 'pattern',
          p_stages, p_offset, p_limit, private.caller_scope('customers', 'view');
  return cards;
end;
$$;

/**
 * The board: every stage of the pipeline in order with its count, totals per currency
 * and first p_per_stage cards, within the caller's view scope and the filters; deals
 * whose stage is no longer in the pipeline follow as stages of their own ("unknown":
 * true), never hidden. The answer is built in one statement, as json text converted to
 * jsonb once (building it in jsonb copied the 300 cards three times).
 */
create function private.deal_board(p_filters jsonb, p_per_stage integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'view');
  filters jsonb;
  settings private.organization_settings;
  groups jsonb;
  stage_keys text[];
  answer jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  filters := private.deal_board_filters(p_filters, context.caller);
  if filters ? 'problem' then
    return filters -> 'problem';
  end if;
  select * into settings from private.organization_settings s where s.organization_id = context.organization_id;

  -- Counts and totals per stage and currency: kept per owner in deal_stage_totals; a
  -- customer or search filter counts its (fewer) deals.
  if filters -> 'customers' = 'null' and filters -> 'pattern' = 'null' then
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total)), '[]')
        from (select t.stage, t.currency, sum(t.deal_count) as n, sum(t.amount) as total
                from %1$I.deal_stage_totals t
               where ($1 = 'all' or t.owner_id = $2) and ($3::uuid[] is null or t.owner_id = any ($3))
               group by t.stage, t.currency having sum(t.deal_count) > 0) g$query$,
      context.schema_name)
      into groups
      using context.scope, context.caller, private.uuid_array(filters -> 'owners');
  else
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total)), '[]')
        from (select t.stage, t.currency, count(*) as n, sum(t.amount) as total
                from %1$I.deals t where %2$s group by t.stage, t.currency) g$query$,
      context.schema_name, private.deal_board_condition(filters))
      into groups
      using context.scope, context.caller, private.uuid_array(filters -> 'owners'), private.uuid_array(filters -> 'customers'),
            filters ->> 'pattern';
  end if;

  -- The pipeline's stages in order, then any stage key the deals hold that it lacks.
  stage_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) with ordinality e (s, n) order by n)
             || array(select distinct g ->> 'stage' from jsonb_array_elements(groups) g
                       where private.deal_stage(settings.deal_stages, g ->> 'stage') is null order by 1);

  execute format($query$
    select json_build_object('success', true, 'scope', $1, 'currency', $10,
      'stages', (
        select json_agg(json_build_object(
                 'key', k.key,
                 'name', st -> 'name',
                 'outcome', st -> 'outcome',
                 'probability', st -> 'probability',
                 'unknown', st is null,
                 'count', (select coalesce(sum((g ->> 'count')::bigint), 0) from jsonb_array_elements($11) g where g ->> 'stage' = k.key),
                 'totals', (select coalesce(jsonb_agg(jsonb_build_object('currency', g ->> 'currency', 'amount', (g ->> 'amount')::numeric)
                                                      order by g ->> 'currency' <> $10, g ->> 'currency'), '[]')
                              from jsonb_array_elements($11) g where g ->> 'stage' = k.key),
                 'cards', coalesce(c.cards, '[]'::json)) order by k.position)
          from unnest($6::text[]) with ordinality k (key, position)
          cross join lateral (select private.deal_stage($12, k.key) as st) stage
          left join (%s) c on c.key = k.key))::jsonb$query$,
    private.deal_board_cards_query(context.schema_name, private.deal_board_condition(filters), stage_keys))
    into answer
    using context.scope, context.caller, private.uuid_array(filters -> 'owners'), private.uuid_array(filters -> 'customers'),
          filters ->> 'pattern', stage_keys, 0, least(greatest(coalesce(p_per_stage, 50), 0), 200),
          private.caller_scope('customers', 'view'), settings.default_currency, groups, settings.deal_stages;
  return answer;
end;
$$;

/** More cards of one stage of the board (p_offset, p_limit up to 200), with the board's scope and filters. */
create function private.deal_board_stage(p_stage text, p_filters jsonb, p_offset integer, p_limit integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'view');
  filters jsonb;
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  cards jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  filters := private.deal_board_filters(p_filters, context.caller);
  if filters ? 'problem' then
    return filters -> 'problem';
  end if;
  if coalesce(p_stage, '') !~ '^[a-z][a-z0-9_]{0,39}$' or coalesce(p_offset, 0) < 0 then
    return private.failure('Invalid board request', 'invalid_input');
  end if;
  -- One card more than asked tells whether there are more.
  cards := private.deal_board_cards(context, filters, array[p_stage], coalesce(p_offset, 0), page_size + 1) -> p_stage;
  return jsonb_build_object('success', true, 'key', p_stage,
    'cards', coalesce((select jsonb_agg(c order by n) from jsonb_array_elements(cards) with ordinality e (c, n) where n <= page_size), '[]'),
    'has_more', jsonb_array_length(cards) > page_size);
end;
$$;

/**
 * One forecast summary of grouped open deals ([{currency, month, count, amount, weighted,
 * rate}], rate null when the currency has none): count, amount and weighted amount
 * converted to the organization's currency, per month of p_months, and the deals in a
 * currency without a rate per currency, unconverted.
 * PL/pgSQL, so that its plan is kept for the session: as an SQL function it was planned
 * again on every call (1.9 ms; the forecast calls it once, then once per owner).
 */
create function private.deal_forecast_summary(p_groups jsonb, p_months text[])
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return (
    with g as (
      select * from jsonb_to_recordset(p_groups) as g (currency text, month text, count bigint, amount numeric,
                                                       weighted numeric, rate numeric)
    )
    select jsonb_build_object(
      'count', (select coalesce(sum(g.count), 0) from g where g.rate is not null),
      'amount', (select round(coalesce(sum(g.amount * g.rate), 0), 2) from g where g.rate is not null),
      'weighted', (select round(coalesce(sum(g.weighted * g.rate), 0), 2) from g where g.rate is not null),
      'months', (select jsonb_agg(jsonb_build_object(
                          'month', m.month,
                          'count', (select coalesce(sum(g.count), 0) from g where g.rate is not null and g.month = m.month),
                          'amount', (select round(coalesce(sum(g.amount * g.rate), 0), 2) from g where g.rate is not null and g.month = m.month),
                          'weighted', (select round(coalesce(sum(g.weighted * g.rate), 0), 2) from g where g.rate is not null and g.month = m.month))
                        order by m.position)
                   from unnest(p_months) with ordinality m (month, position)),
      'unconverted', (select coalesce(jsonb_agg(jsonb_build_object(
                               'currency', c.currency,
                               'count', (select sum(g.count) from g where g.rate is null and g.currency = c.currency),
                               'amount', (select round(sum(g.amount), 2) from g where g.rate is null and g.currency = c.currency),
                               'weighted', (select round(sum(g.weighted), 2) from g where g.rate is null and g.currency = c.currency),
                               'months', (select jsonb_agg(jsonb_build_object(
                                                   'month', m.month,
                                                   'count', (select coalesce(sum(g.count), 0) from g
                                                              where g.rate is null and g.currency = c.currency and g.month = m.month),
                                                   'amount', (select round(coalesce(sum(g.amount), 0), 2) from g
                                                               where g.rate is null and g.currency = c.currency and g.month = m.month),
                                                   'weighted', (select round(coalesce(sum(g.weighted), 0), 2) from g
                                                                 where g.rate is null and g.currency = c.currency and g.month = m.month))
                                                 order by m.position)
                                            from unnest(p_months) with ordinality m (month, position)))
                             order by c.currency), '[]')
                        from (select distinct g.currency from g where g.rate is null) c)));
end;
$$;

/**
 * The weighted forecast: open deals the caller may see (p_owner: one owner's) by month of
 * expected close, from the organization's current month for p_months months (1-24):
 * amount and amount × probability / 100 (a deal's own probability, else its stage's in
 * the pipeline now), converted to the default currency with the organization's exchange
 * rates, in total and per owner. Deals in a currency without a rate are reported per
 * currency, unconverted (in "unconverted"), never summed. Read from deal_forecast_totals
 * a few hundred rows, whatever the number of deals.
 */
create function private.deal_forecast(p_months integer, p_owner uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'view');
  settings private.organization_settings;
  open_keys text[];
  first_month date;
  months text[];
  groups jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if coalesce(p_months, 6) not between 1 and 24 then
    return private.failure('Invalid forecast request', 'invalid_input');
  end if;
  select * into settings from private.organization_settings s where s.organization_id = context.organization_id;
  open_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'open');
  first_month := date_trunc('month', (now() at time zone settings.time_zone))::date;
  months := array(select to_char(first_month + make_interval(months => m), 'YYYY-MM')
                    from generate_series(0, coalesce(p_months, 6) - 1) m order by m);

  -- A stage's probability is its first entry's in the pipeline (private.deal_stage), 0 without one.
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('owner_id', g.owner_id, 'currency', g.currency, 'month', g.month,
                                                 'count', g.n, 'amount', g.amount, 'weighted', g.weighted,
                                                 'rate', case when g.currency = $6 then 1 else ($7 ->> g.currency)::numeric end)), '[]')
      from (select t.owner_id, t.currency, to_char(t.month, 'YYYY-MM') as month, sum(t.deal_count) as n, sum(t.amount) as amount,
                   sum(t.weighted + t.default_amount * coalesce(s.probability, 0) * 0.01) as weighted
              from %I.deal_forecast_totals t
              left join (select distinct on (e.stage ->> 'key') e.stage ->> 'key' as key,
                                (e.stage ->> 'probability')::numeric as probability
                           from jsonb_array_elements($8) with ordinality e (stage, position)
                          where e.stage ->> 'key' = any ($4)
                          order by e.stage ->> 'key', e.position) s on s.key = t.stage
             where ($1 = 'all' or t.owner_id = $2) and ($3::uuid is null or t.owner_id = $3)
               and t.stage = any ($4) and t.month >= $5 and t.month < $9
             group by t.owner_id, t.currency, t.month
            having sum(t.deal_count) > 0) g$query$,
    context.schema_name)
    into groups
    using context.scope, context.caller, p_owner, open_keys, first_month, settings.default_currency,
          settings.exchange_rates, settings.deal_stages, (first_month + make_interval(months => coalesce(p_months, 6)))::date;

  return jsonb_build_object('success', true, 'scope', context.scope, 'currency', settings.default_currency,
    'rates', settings.exchange_rates, 'months', to_jsonb(months),
    'total', private.deal_forecast_summary(groups, months),
    'owners', (select coalesce(jsonb_agg(
                 jsonb_build_object('owner_id', o.owner_id,
                                    'owner_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                                                     from private.profiles p where p.id = o.owner_id))
                 || private.deal_forecast_summary(
                      (select jsonb_agg(g) from jsonb_array_elements(groups) g where (g ->> 'owner_id')::uuid = o.owner_id), months)
                 order by o.owner_id), '[]')
                 from (select distinct (g ->> 'owner_id')::uuid as owner_id from jsonb_array_elements(groups) g) o));
end;
$$;

/**
 * A deal's stage history, oldest first (who by name, when, from → to with the stages'
 * names, how long it stayed: until the next change, or until now for the current stage)
 * and the time spent per stage: {"history": [...], "time_in_stage": [...]}.
 */
create function private.deal_stage_history_json(p_schema text, p_deal uuid, p_stages jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  history jsonb;
begin
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', h.id, 'from_stage', h.from_stage, 'from_stage_name', private.deal_stage($2, h.from_stage) ->> 'name',
             'to_stage', h.to_stage, 'to_stage_name', private.deal_stage($2, h.to_stage) ->> 'name',
             'changed_by', h.changed_by,
             'changed_by_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                                   from private.profiles p where p.id = h.changed_by),
             'changed_at', h.changed_at, 'left_at', h.left_at,
             'duration_seconds', floor(extract(epoch from coalesce(h.left_at, now()) - h.changed_at))::bigint)
             order by h.changed_at, h.id), '[]')
      from (select s.*, lead(s.changed_at) over (order by s.changed_at, s.id) as left_at
              from %I.deal_stage_history s where s.deal_id = $1) h$query$, p_schema)
    into history using p_deal, p_stages;
  return jsonb_build_object('history', history, 'time_in_stage', (
    select coalesce(jsonb_agg(jsonb_build_object('stage', t.stage, 'name', private.deal_stage(p_stages, t.stage) ->> 'name',
                                                 'seconds', t.seconds) order by t.first_entry), '[]')
      from (select e ->> 'to_stage' as stage, sum((e ->> 'duration_seconds')::bigint) as seconds, min(n) as first_entry
              from jsonb_array_elements(history) with ordinality h (e, n) group by e ->> 'to_stage') t));
end;
$$;

/** The stage history of a deal the caller may see: {"success", "history", "time_in_stage"}. */
create function private.deal_stage_history(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get('deals', p_id);
  context private.module_context;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context('deals', 'view');
  return jsonb_build_object('success', true) || private.deal_stage_history_json(context.schema_name, p_id,
    (select s.deal_stages from private.organization_settings s where s.organization_id = context.organization_id));
end;
$$;

/** The contacts of a deal the caller may see among contacts (not deleted), by name. */
create function private.deal_contacts_json(p_schema text, p_deal uuid, p_caller uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  contacts jsonb;
begin
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'first_name', c.first_name, 'last_name', c.last_name,
                                                 'name', btrim(concat_ws(' ', c.first_name, c.last_name)), 'title', c.title)
                              order by private.fold_search(c.first_name || ' ' || c.last_name), c.id), '[]')
      from %I.deal_contacts dc join %I.contacts c on c.id = dc.contact_id
     where dc.deal_id = $1 and c.deleted_at is null and ($2 = 'all' or ($2 = 'own' and c.owner_id = $3))$query$,
    p_schema, p_schema)
    into contacts using p_deal, private.caller_scope('contacts', 'view'), p_caller;
  return contacts;
end;
$$;

/**
 * A deal the caller may see with what its page shows: the record (with customer_name when
 * the caller may see that customer), its contacts, its stage history (stage_history) and
 * the time per stage (time_in_stage), as private.deal_stage_history gives them.
 */
create function private.deal_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get('deals', p_id);
  context private.module_context;
  customer_name text;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context('deals', 'view');
  execute format('select c.name from %I.customers c where c.id = $1 and c.deleted_at is null and ($2 = ''all'' or ($2 = ''own'' and c.owner_id = $3))',
                 context.schema_name)
    into customer_name using (found_record #>> '{record,customer_id}')::uuid, private.caller_scope('customers', 'view'), context.caller;
  return jsonb_build_object('success', true,
           'record', (found_record -> 'record') || jsonb_build_object('customer_name', customer_name),
           'contacts', private.deal_contacts_json(context.schema_name, p_id, context.caller))
         || (select jsonb_build_object('stage_history', h -> 'history', 'time_in_stage', h -> 'time_in_stage')
               from private.deal_stage_history_json(context.schema_name, p_id,
                      (select s.deal_stages from private.organization_settings s
                        where s.organization_id = context.organization_id)) h);
end;
$$;

/**
 * Sets the contacts of a deal the caller may edit (the list replaces the previous one; at
 * most 50; each an existing, not deleted contact of the organization, and each one added a
 * contact the caller may see: their view scope of contacts; a hidden one is not_found, as one
 * that does not exist). The change goes to the deal's field history (contact_ids) and the
 * audit log (deals.contacts).
 */
create function private.deal_set_contacts(p_id uuid, p_contact_ids uuid[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'edit');
  wanted uuid[];
  before uuid[];
  locked uuid;
  known integer;
  contact_scope text := private.caller_scope('contacts', 'view');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_contact_ids is null or array_position(p_contact_ids, null) is not null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  wanted := array(select distinct c from unnest(p_contact_ids) c order by c);
  if cardinality(wanted) > 50 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"contact_ids": "invalid"}}');
  end if;
  execute format('select t.id from %I.deals t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 context.schema_name)
    into locked using p_id, context.scope, context.caller;
  if locked is null then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('select array(select dc.contact_id from %I.deal_contacts dc where dc.deal_id = $1 order by dc.contact_id)',
                 context.schema_name)
    into before using p_id;
  -- Every contact live; the ones added also visible to the caller.
  execute format('select count(*) from %I.contacts c where c.id = any ($1) and c.deleted_at is null
                    and (c.id = any ($2) or $3 = ''all'' or ($3 = ''own'' and c.owner_id = $4))', context.schema_name)
    into known using wanted, before, contact_scope, context.caller;
  if known <> cardinality(wanted) then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"contact_ids": "not_found"}}');
  end if;

  if before is distinct from wanted then
    execute format('delete from %I.deal_contacts where deal_id = $1 and not (contact_id = any ($2))', context.schema_name)
      using p_id, wanted;
    execute format('insert into %I.deal_contacts (deal_id, contact_id, created_by) select $1, c, $3 from unnest($2) c on conflict do nothing',
                   context.schema_name)
      using p_id, wanted, context.caller;
    execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                    values (''deal'', $1, ''contact_ids'', $2, $3, $4)', context.schema_name)
      using p_id, to_jsonb(before), to_jsonb(wanted), context.caller;
    perform private.write_audit(context.organization_id, 'deals.contacts', 'deals', p_id::text, jsonb_build_object(
      'added', (select coalesce(jsonb_agg(c), '[]') from unnest(wanted) c where not (c = any (before))),
      'removed', (select coalesce(jsonb_agg(c), '[]') from unnest(before) c where not (c = any (wanted)))));
  end if;
  return jsonb_build_object('success', true, 'contacts', private.deal_contacts_json(context.schema_name, p_id, context.caller));
end;
$$;

/**
 * Moves the deals of removed stages ({old key: new key}) in one statement per stage, as
 * the deal's rules would (the new stage's probability; closed_at set for won and lost,
 * cleared for open; a lost reason only on lost deals), with field history, stage history
 * (the trigger) and one deals.update audit entry per deal. Returns {old key: moved}.
 */
create function private.move_deals_off_stages(p_organization_id uuid, p_schema text, p_moves jsonb, p_stages jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  move record;
  target jsonb;
  moved bigint;
  counts jsonb := '{}';
begin
  for move in select m.key, m.value as target_key from jsonb_each_text(p_moves) m order by m.key loop
    target := private.deal_stage(p_stages, move.target_key);
    execute format($query$
      with changed as (
        update %1$I.deals t
           set stage = $2,
               probability = $3,
               closed_at = case when $4 = 'open' then null else coalesce(t.closed_at, now()) end,
               lost_reason = case when $4 = 'lost' then t.lost_reason end
          from %1$I.deals o
         where o.id = t.id and t.stage = $1
        returning t.id, to_jsonb(o) as old_row, to_jsonb(t) as new_row
      ), fields as (
        select c.id, f.field, c.old_row -> f.field as old_value, c.new_row -> f.field as new_value
          from changed c, unnest(array['stage', 'probability', 'closed_at', 'lost_reason']) f (field)
         where (c.old_row -> f.field) is distinct from (c.new_row -> f.field)
      ), history as (
        insert into %1$I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
        select 'deal', f.id, f.field, f.old_value, f.new_value, $5 from fields f
      ), audit as (
        insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
        select $6, $5, 'deals.update', 'deals', c.id::text,
               jsonb_build_object('fields', (select coalesce(jsonb_agg(f.field), '[]') from fields f where f.id = c.id),
                                  'stage_removed', $1)
          from changed c
      )
      select count(*) from changed$query$, p_schema)
      into moved
      using move.key, move.target_key, (target ->> 'probability')::numeric::integer, target ->> 'outcome', auth.uid(),
            p_organization_id;
    counts := counts || jsonb_build_object(move.key, moved);
  end loop;
  return counts;
end;
$$;

/** Moves a deal to another stage (p_updated_at as read; p_lost_reason for a lost stage). */
create function public.move_deal(p_id uuid, p_stage text, p_updated_at timestamptz, p_lost_reason text default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.deal_move(p_id, p_stage, p_updated_at, p_lost_reason); $$;
revoke all on function public.move_deal(p_id uuid, p_stage text, p_updated_at timestamp with time zone, p_lost_reason text) from public, anon, authenticated;
grant execute on function public.move_deal(p_id uuid, p_stage text, p_updated_at timestamp with time zone, p_lost_reason text) to authenticated;

/** The deals board: every stage with its count, totals and first cards. */
create function public.get_deal_board(p_filters jsonb default null, p_per_stage integer default 50)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_board(p_filters, p_per_stage); $$;
revoke all on function public.get_deal_board(p_filters jsonb, p_per_stage integer) from public, anon, authenticated;
grant execute on function public.get_deal_board(p_filters jsonb, p_per_stage integer) to authenticated;

/** More cards of one stage of the deals board. */
create function public.get_deal_board_stage(p_stage text, p_filters jsonb default null, p_offset integer default 0,
                                            p_limit integer default 50)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_board_stage(p_stage, p_filters, p_offset, p_limit); $$;
revoke all on function public.get_deal_board_stage(p_stage text, p_filters jsonb, p_offset integer, p_limit integer) from public, anon, authenticated;
grant execute on function public.get_deal_board_stage(p_stage text, p_filters jsonb, p_offset integer, p_limit integer) to authenticated;

/** The weighted forecast of open deals by month of expected close, in the organization's currency. */
create function public.get_deal_forecast(p_months integer default 6, p_owner uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_forecast(p_months, p_owner); $$;
revoke all on function public.get_deal_forecast(p_months integer, p_owner uuid) from public, anon, authenticated;
grant execute on function public.get_deal_forecast(p_months integer, p_owner uuid) to authenticated;

/** A deal's stage history with the time spent in each stage. */
create function public.get_deal_stage_history(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_stage_history(p_id); $$;
revoke all on function public.get_deal_stage_history(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_deal_stage_history(p_id uuid) to authenticated;

/** A deal with its customer's name, contacts and stage history. */
create function public.get_deal_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.deal_details(p_id); $$;
revoke all on function public.get_deal_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_deal_details(p_id uuid) to authenticated;

/** Sets the contacts of a deal (the list replaces the previous one). */
create function public.set_deal_contacts(p_id uuid, p_contact_ids uuid[])
returns jsonb language sql security definer set search_path = ''
as $$ select private.deal_set_contacts(p_id, p_contact_ids); $$;
revoke all on function public.set_deal_contacts(p_id uuid, p_contact_ids uuid[]) from public, anon, authenticated;
grant execute on function public.set_deal_contacts(p_id uuid, p_contact_ids uuid[]) to authenticated;

/**
 * Statement trigger of deals: tells the organization's board topic
 * org:<organization_id> that deals changed (event 'deals_changed', payload {module,
 * operation}); clients reload through the RPCs, which apply each one's scope, so the
 * broadcast carries no deal data. One message per statement, however many rows.
 */
create function private.broadcast_deal_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is not null then
    perform private.broadcast(format('org:%s', private.schema_organization(tg_table_schema)), 'deals_changed',
                              jsonb_build_object('module', 'deals', 'operation', lower(tg_op)));
  end if;
  return null;
end;
$$;

/**
 * Trigger (after insert, update and delete on deals, per statement, with the transition
 * tables new_deals and old_deals): deal_forecast_totals follows every change
 * of a live deal's expected close, owner, stage, currency, amount, probability or
 * deletion. A deal with a probability of its own adds amount × probability / 100 to
 * weighted; one without adds its amount to default_amount (the stage's probability is
 * applied when the forecast is read). Deals without an expected close are not counted.
 */
create function private.deal_forecast_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  columns constant text := 'expected_close_date, owner_id, stage, currency, probability';
  changes text := case tg_op
    when 'INSERT' then format('select %s, 1 as n, amount from new_deals where deleted_at is null and expected_close_date is not null',
                              columns)
    when 'UPDATE' then format('select %1$s, 1 as n, amount from new_deals where deleted_at is null and expected_close_date is not null
                               union all
                               select %1$s, -1, -amount from old_deals where deleted_at is null and expected_close_date is not null',
                              columns)
    else format('select %s, -1 as n, -amount as amount from old_deals where deleted_at is null and expected_close_date is not null',
                columns) end;
begin
  -- In key order, so that concurrent writers lock the totals rows in the same order.
  execute format($query$
    insert into %I.deal_forecast_totals as f (month, owner_id, stage, currency, deal_count, amount, weighted, default_amount)
    select d.month, d.owner_id, d.stage, d.currency, sum(d.n), sum(d.amount), sum(d.weighted), sum(d.default_amount)
      from (select date_trunc('month', c.expected_close_date::timestamp)::date as month, c.owner_id, c.stage, c.currency, c.n,
                   c.amount,
                   case when c.probability is not null then c.amount * c.probability * 0.01 else 0 end as weighted,
                   case when c.probability is null then c.amount else 0 end as default_amount
              from (%s) c) d
     group by d.month, d.owner_id, d.stage, d.currency
    having sum(d.n) <> 0 or sum(d.amount) <> 0 or sum(d.weighted) <> 0 or sum(d.default_amount) <> 0
     order by d.month, d.owner_id, d.stage, d.currency
    on conflict (month, owner_id, stage, currency) do update
      set deal_count = f.deal_count + excluded.deal_count, amount = f.amount + excluded.amount,
          weighted = f.weighted + excluded.weighted, default_amount = f.default_amount + excluded.default_amount$query$,
    tg_table_schema, changes);
  return null;
end;
$$;

/** Trigger (after truncate on deals): the forecast's totals empty too. */
create function private.deal_forecast_after_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  execute format('delete from %I.deal_forecast_totals', tg_table_schema);
  return null;
end;
$$;

/**
 * The query of some stages' cards: one row (key, cards as a json array, null for none)
 * per stage of p_stages, each stage its own query, so that the board indexes (stage, or
 * owner and stage, then updated_at and id) give the page at once whatever the stage's
 * size. The stage is a range of one key and leads the order: as an equality the planner
 * dropped it from the order and walked the updated_at index of all deals instead, reading
 * every deal changed since the stage's last one (33,000 after a bulk move; all 200,000
 * for a stage of 10 deals). Parameters as private.deal_board_cards passes them: $1 scope,
 * $2 caller, $3 owners, $4 customers, $5 pattern, $7 offset, $8 limit, $9 the caller's
 * scope of customers; p_condition from private.deal_board_condition.
 */
create function private.deal_board_cards_query(p_schema text, p_condition text, p_stages text[])
returns text
language sql
immutable
set search_path = ''
as $$
  select coalesce(string_agg(format($query$
    select %1$L::text as key, (
      select json_agg(json_build_object(
               'id', d.id, 'title', d.title, 'amount', d.amount, 'currency', d.currency, 'probability', d.probability,
               'expected_close_date', d.expected_close_date, 'customer_id', d.customer_id,
               'customer_name', case when cu.deleted_at is null and ($9 = 'all' or ($9 = 'own' and cu.owner_id = $2))
                                     then cu.name end,
               'owner_id', d.owner_id,
               'owner_name', nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''),
               'updated_at', d.updated_at) order by d.updated_at desc, d.id desc)
        from (select t.id, t.title, t.amount, t.currency, t.probability, t.expected_close_date, t.customer_id,
                     t.owner_id, t.updated_at
                from %2$I.deals t
               where t.stage >= %1$L and t.stage <= %1$L and %3$s
               order by t.stage, t.updated_at desc, t.id desc
               offset $7 limit $8) d
        left join %2$I.customers cu on cu.id = d.customer_id
        left join private.profiles p on p.id = d.owner_id) as cards$query$, s.key, p_schema, p_condition),
    ' union all ' order by s.position), 'select null::text as key, null::json as cards where false')
    from unnest(p_stages) with ordinality s (key, position);
$$;

-- Tasks (type, priority, status, reminder, related records) and notifications: who is
-- told what, preferences, the due-items step, the bell and realtime broadcasts.

-- Enums rather than text with a check: the record engine sorts a non-text column by its
-- value, so sorting by priority or status gives low < normal < high < urgent and
-- open < in_progress < done < cancelled instead of the alphabet. JSON sees plain strings.
create type private.task_priority as enum ('low', 'normal', 'high', 'urgent');

create type private.task_status as enum ('open', 'in_progress', 'done', 'cancelled');

comment on type private.task_priority is 'A task''s priority, in increasing urgency.';

comment on type private.task_status is 'A task''s state, in workflow order.';

-- ---------------------------------------------------------------------------------
-- Notifications
-- ---------------------------------------------------------------------------------
create table private.notifications (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references private.organizations (id) on delete cascade,
  -- The recipient.
  user_id uuid not null references private.profiles (id) on delete cascade,
  kind text not null check (kind in ('task_assigned', 'task_due', 'task_overdue', 'task_reminder', 'deal_assigned',
                                     'customer_assigned', 'contract_renewal')),
  -- The record it is about: its module (private.modules key) and id, and its title when
  -- the notification was made.
  module text check (module ~ '^[a-z][a-z_]{0,39}$'),
  record_id uuid,
  title text check (char_length(title) <= 300),
  -- Who caused it (null for the scheduled due-items step).
  actor_id uuid references private.profiles (id) on delete set null,
  -- clock_timestamp: notifications made in one transaction still page apart.
  created_at timestamptz not null default clock_timestamp(),
  read_at timestamptz
);

create index notifications_recipient_idx on private.notifications (user_id, organization_id, created_at desc, id desc);

create index notifications_unread_idx on private.notifications (user_id, organization_id) where read_at is null;

create index notifications_read_created_idx on private.notifications (created_at) where read_at is not null;

create index notifications_actor_idx on private.notifications (actor_id) where actor_id is not null;

alter table private.notifications enable row level security;

comment on table private.notifications is
  'What a member is told about, per organization: assignments, reminders, due and overdue tasks. Made by the database only.';

create table private.notification_preferences (
  user_id uuid not null references private.profiles (id) on delete cascade,
  organization_id uuid not null references private.organizations (id) on delete cascade,
  -- The kinds the member wants; no row means every kind.
  kinds text[] not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, organization_id)
);

alter table private.notification_preferences enable row level security;

comment on table private.notification_preferences is 'Which notification kinds a member wants in an organization (default: all).';

/** Every notification kind, in the order the preferences list them. */
create function private.notification_kinds()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['task_assigned', 'task_due', 'task_overdue', 'task_reminder', 'deal_assigned', 'customer_assigned',
               'contract_renewal'];
$$;

/** True when the member is active in the organization and wants this kind of notification. */
create function private.wants_notification(p_organization_id uuid, p_user_id uuid, p_kind text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.memberships m
                  where m.user_id = p_user_id and m.organization_id = p_organization_id and m.is_active)
     and coalesce((select p_kind = any (p.kinds) from private.notification_preferences p
                    where p.user_id = p_user_id and p.organization_id = p_organization_id), true);
$$;

/**
 * Sends a Realtime broadcast on a private topic where Supabase Realtime exists (hosted);
 * does nothing elsewhere. A lost broadcast never fails the write that caused it.
 */
create function private.broadcast(p_topic text, p_event text, p_payload jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if to_regprocedure('realtime.send(jsonb, text, text, boolean)') is null then
    return;
  end if;
  begin
    execute 'select realtime.send($1, $2, $3, true)' using p_payload, p_event, p_topic;
  exception when others then
    null;
  end;
end;
$$;

/** A notification as the RPCs answer it. */
create function private.notification_json(p_notification private.notifications)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p_notification.id, 'kind', p_notification.kind, 'module', p_notification.module,
    'record_id', p_notification.record_id, 'title', p_notification.title, 'actor_id', p_notification.actor_id,
    'actor_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                     from private.profiles p where p.id = p_notification.actor_id),
    'created_at', p_notification.created_at, 'read_at', p_notification.read_at);
$$;

/** Broadcasts a new notification to its recipient's topic user:<organization_id>:<user_id> (event 'notification'). */
create function private.on_notification_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.broadcast(format('user:%s:%s', new.organization_id, new.user_id), 'notification',
                            private.notification_json(new));
  return null;
end;
$$;

create trigger notifications_broadcast
  after insert on private.notifications
  for each row execute function private.on_notification_created();

/**
 * Notifies a member about a record, when they are an active member who wants this kind.
 * Returns the notification's id, or null when none was made.
 */
create function private.notify(p_organization_id uuid, p_user_id uuid, p_kind text, p_module text,
                               p_record_id uuid, p_title text, p_actor uuid)
returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into private.notifications (organization_id, user_id, kind, module, record_id, title, actor_id)
  select p_organization_id, p_user_id, p_kind, p_module, p_record_id, left(p_title, 300), p_actor
   where private.wants_notification(p_organization_id, p_user_id, p_kind)
  returning id;
$$;

/**
 * Trigger of tasks, deals and customers: a record created for, or given
 * to, someone other than the person making the change tells its new owner
 * (task_assigned, deal_assigned, customer_assigned). Nothing without a signed-in actor
 * (seed, scheduled work) and nothing during a record transfer (crm.quiet_assignments).
 */
create function private.notify_assignment()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  actor uuid := auth.uid();
begin
  if actor is null or new.owner_id = actor or new.deleted_at is not null
     or coalesce(current_setting('crm.quiet_assignments', true), '') = 'on' then
    return null;
  end if;
  perform private.notify(private.schema_organization(tg_table_schema), new.owner_id,
                         case tg_table_name when 'tasks' then 'task_assigned' when 'deals' then 'deal_assigned'
                                            else 'customer_assigned' end,
                         tg_table_name, new.id, private.record_title(tg_table_name, to_jsonb(new)), actor);
  return null;
end;
$$;

/**
 * A task's rules: a title (at most 200 characters); a description (at most 10,000);
 * a type from the organization's task_types (invalid_type); priority and status from
 * their lists; due_at and remind_at as timestamps, the reminder not after the due time
 * (after_due); related customer, contact and deal that the caller can see (not_found).
 * Becoming done records completed_at and completed_by; leaving done clears them. A new
 * due_at or remind_at lets its notifications go out again. Returns {"values", "errors"}.
 */
create function private.prepare_task(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  related uuid;
  due timestamptz;
  remind timestamptz;
  old_status text := p_existing ->> 'status';
begin
  foreach field in array array['title', 'description', 'type', 'priority', 'status'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

  if (p_existing is null or p_values ? 'title') and result ->> 'title' is null and not errors ? 'title' then
    errors := errors || '{"title": "required"}';
  elsif char_length(result ->> 'title') > 200 then
    errors := errors || '{"title": "too_long"}';
  end if;
  if char_length(result ->> 'description') > 10000 then
    errors := errors || '{"description": "too_long"}';
  end if;
  if result ->> 'type' is not null and not errors ? 'type'
     and not exists (select 1 from private.organization_settings s, jsonb_array_elements_text(s.task_types) t (type)
                      where s.organization_id = private.current_organization_id() and t.type = result ->> 'type') then
    errors := errors || '{"type": "invalid_type"}';
  end if;
  if p_values ? 'priority' and not errors ? 'priority' then
    result := result || jsonb_build_object('priority', coalesce(result ->> 'priority', 'normal'));
    if not (result ->> 'priority' = any (enum_range(null::private.task_priority)::text[])) then
      errors := errors || '{"priority": "invalid"}';
    end if;
  end if;

  -- Status, and the completion that goes with it.
  if p_values ? 'status' and not errors ? 'status' then
    result := result || jsonb_build_object('status', coalesce(result ->> 'status', 'open'));
    if not (result ->> 'status' = any (enum_range(null::private.task_status)::text[])) then
      errors := errors || '{"status": "invalid"}';
    elsif result ->> 'status' = old_status then
      result := result - 'status';
    elsif result ->> 'status' = 'done' then
      result := result || jsonb_build_object('completed_at', now(), 'completed_by', auth.uid());
    elsif old_status = 'done' then
      result := result || '{"completed_at": null, "completed_by": null}';
    end if;
  end if;

  -- When: timestamps, or null (an empty string clears).
  foreach field in array array['due_at', 'remind_at'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      elsif private.try_timestamptz(p_values -> field) is null then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.try_timestamptz(p_values -> field));
      end if;
    end if;
  end loop;
  if not (errors ? 'due_at' or errors ? 'remind_at') and (p_values ? 'due_at' or p_values ? 'remind_at') then
    due := case when p_values ? 'due_at' then (result ->> 'due_at')::timestamptz else (p_existing ->> 'due_at')::timestamptz end;
    remind := case when p_values ? 'remind_at' then (result ->> 'remind_at')::timestamptz
                   else (p_existing ->> 'remind_at')::timestamptz end;
    if remind > due then
      errors := errors || '{"remind_at": "after_due"}';
    end if;
    if p_existing is not null and p_values ? 'due_at' and due is distinct from (p_existing ->> 'due_at')::timestamptz then
      result := result || '{"due_notified_at": null, "overdue_notified_at": null}';
    end if;
    if p_existing is not null and p_values ? 'remind_at' and remind is distinct from (p_existing ->> 'remind_at')::timestamptz then
      result := result || '{"reminded_at": null}';
    end if;
  end if;

  -- Related records: the caller must be able to see them in this organization.
  foreach field in array array['customer_id', 'contact_id', 'deal_id'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      else
        related := private.try_uuid(p_values -> field);
        if related is null then
          errors := errors || jsonb_build_object(field, 'not_found');
        elsif related::text is distinct from p_existing ->> field
              and not private.record_visible(case field when 'customer_id' then 'customers'
                                                        when 'contact_id' then 'contacts' else 'deals' end, related) then
          errors := errors || jsonb_build_object(field, 'not_found');
        else
          result := result || jsonb_build_object(field, related);
        end if;
      end if;
    end if;
  end loop;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

select private.register_module(
  p_key => 'tasks', p_position => 7, p_table_name => 'tasks', p_entity_type => 'task',
  p_writable_columns => '{title,description,type,priority,status,due_at,remind_at,customer_id,contact_id,deal_id,external_id}',
  p_list_columns => '{title,type,priority,status,due_at,remind_at,completed_at,customer_id,contact_id,deal_id}',
  p_sortable_columns => '{title,due_at,priority,status,created_at,updated_at}',
  p_filterable_columns => '{status,priority,type,due_at,completed_at,customer_id,contact_id,deal_id}',
  p_default_sort => 'due_at', p_default_descending => false, p_searchable => true,
  p_prepare_function => 'prepare_task', p_transfer_kind => 'tasks', p_transfer_default => true);

/**
 * Marks a task done from a list (edit scope, through the engine: the field history and
 * the audit log record it). With p_updated_at, a task changed since is refused as stale.
 * A task already done is answered as it is. {success, record} or the engine's refusal.
 */
create function public.complete_task(p_id uuid, p_updated_at timestamptz default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('tasks', 'edit');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  return private.record_write('tasks', context, p_id, '{"status": "done"}', p_updated_at, p_updated_at is not null);
end;
$$;
revoke all on function public.complete_task(p_id uuid, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.complete_task(p_id uuid, p_updated_at timestamp with time zone) to authenticated;

/**
 * The standard task views as list_tasks filters, their day and week boundaries in the
 * organization's time zone (from inclusive, to exclusive): open, mine, overdue, today,
 * this_week, upcoming, completed. {success, time_zone, views: {name: {filters, sort, descending}}}.
 */
create function public.get_task_views()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('tasks', 'view');
  zone text;
  today_start timestamptz;
  tomorrow_start timestamptz;
  week_end timestamptz;
  open_states jsonb := '["open", "in_progress"]';
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select s.time_zone into zone from private.organization_settings s where s.organization_id = context.organization_id;
  zone := coalesce(zone, 'Europe/Istanbul');
  today_start := date_trunc('day', now() at time zone zone) at time zone zone;
  tomorrow_start := (date_trunc('day', now() at time zone zone) + interval '1 day') at time zone zone;
  week_end := (date_trunc('week', now() at time zone zone) + interval '1 week') at time zone zone;
  return jsonb_build_object('success', true, 'time_zone', zone, 'views', jsonb_build_object(
    'open', jsonb_build_object('filters', jsonb_build_object('status', open_states), 'sort', 'due_at', 'descending', false),
    'mine', jsonb_build_object('filters', jsonb_build_object('status', open_states, 'owner_id', 'me'),
                               'sort', 'due_at', 'descending', false),
    'overdue', jsonb_build_object('filters', jsonb_build_object('status', open_states, 'due_at', jsonb_build_object('to', now())),
                                  'sort', 'due_at', 'descending', false),
    'today', jsonb_build_object('filters', jsonb_build_object('status', open_states,
                                  'due_at', jsonb_build_object('from', today_start, 'to', tomorrow_start)),
                                'sort', 'due_at', 'descending', false),
    'this_week', jsonb_build_object('filters', jsonb_build_object('status', open_states,
                                      'due_at', jsonb_build_object('from', today_start, 'to', week_end)),
                                    'sort', 'due_at', 'descending', false),
    'upcoming', jsonb_build_object('filters', jsonb_build_object('status', open_states,
                                     'due_at', jsonb_build_object('from', tomorrow_start)),
                                   'sort', 'due_at', 'descending', false),
    'completed', jsonb_build_object('filters', jsonb_build_object('status', '["done"]'::jsonb), 'sort', 'updated_at', 'descending', true)));
end;
$$;
revoke all on function public.get_task_views() from public, anon, authenticated;
grant execute on function public.get_task_views() to authenticated;

/**
 * The scheduled step (every minute: pg_cron on hosted Supabase, a timer on the local
 * stack): in every active organization with its tables, open and in-progress tasks
 * whose reminder time has come (task_reminder), that fall due within the next hour
 * (task_due) or whose due time has passed (task_overdue) tell their owner, once per task
 * and kind: the bookkeeping column is set in the same statement, so concurrent runs
 * cannot repeat one, and a member who turned the kind off is skipped (still marked).
 * Returns how many notifications of each kind were made.
 */
create function private.notify_due_items()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization record;
  made integer;
  reminders integer := 0;
  due_soon integer := 0;
  overdue integer := 0;
  step record;
begin
  for organization in
    select o.id, o.schema_name from private.organizations o
     where o.is_active and o.template_version > 0
       and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name)
     order by o.created_at, o.id
  loop
    for step in
      select * from (values
        ('task_reminder', 'reminded_at', 't.remind_at <= now() and t.reminded_at is null'),
        ('task_overdue', 'overdue_notified_at', 't.due_at <= now() and t.overdue_notified_at is null'),
        ('task_due', 'due_notified_at', 't.due_at > now() and t.due_at <= now() + interval ''1 hour'' and t.due_notified_at is null')
      ) as s (kind, bookkeeping, due_condition)
    loop
      execute format($query$
        with announced as (
          update %1$I.tasks t set %2$I = now()
           where %3$s and t.deleted_at is null and t.status in ('open', 'in_progress')
          returning t.id, t.owner_id, t.title)
        select count(private.notify($1, a.owner_id, $2, 'tasks', a.id, a.title, null)) from announced a$query$,
        organization.schema_name, step.bookkeeping, step.due_condition)
        into made using organization.id, step.kind;
      case step.kind
        when 'task_reminder' then reminders := reminders + made;
        when 'task_overdue' then overdue := overdue + made;
        else due_soon := due_soon + made;
      end case;
    end loop;
  end loop;
  return jsonb_build_object('task_reminder', reminders, 'task_due', due_soon, 'task_overdue', overdue);
end;
$$;

-- pg_cron on hosted Supabase (the local stack runs it from scripts/stack/scheduled-jobs.ts).
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    perform cron.schedule('crm-notify-due-items', '* * * * *', 'select private.notify_due_items()');
  end if;
end
$$;

/** How many unread notifications the member has in the organization. */
create function private.unread_notifications(p_user_id uuid, p_organization_id uuid)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from private.notifications n
   where n.user_id = p_user_id and n.organization_id = p_organization_id and n.read_at is null;
$$;

/**
 * The caller's notifications in their session's organization, newest first: at most
 * p_limit (1 to 100), older than p_before when given, only unread ones on request.
 * {success, notifications: [{id, kind, module, record_id, title, actor_id, actor_name,
 * created_at, read_at}], unread}.
 */
create function public.get_notifications(p_limit integer default 20, p_before timestamptz default null,
                                         p_unread_only boolean default false)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true,
    'notifications', (select coalesce(jsonb_agg(private.notification_json(page) order by page.created_at desc, page.id desc), '[]')
                        from (select * from private.notifications n
                               where n.user_id = auth.uid() and n.organization_id = target_org
                                 and (p_before is null or n.created_at < p_before)
                                 and (not coalesce(p_unread_only, false) or n.read_at is null)
                               order by n.created_at desc, n.id desc
                               limit least(greatest(coalesce(p_limit, 20), 1), 100)) page),
    'unread', private.unread_notifications(auth.uid(), target_org));
end;
$$;
revoke all on function public.get_notifications(p_limit integer, p_before timestamp with time zone, p_unread_only boolean) from public, anon, authenticated;
grant execute on function public.get_notifications(p_limit integer, p_before timestamp with time zone, p_unread_only boolean) to authenticated;

/** How many unread notifications the caller has in their session's organization: {success, unread}. */
create function public.get_unread_notification_count()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true,
                            'unread', private.unread_notifications(auth.uid(), caller.organization_id));
end;
$$;
revoke all on function public.get_unread_notification_count() from public, anon, authenticated;
grant execute on function public.get_unread_notification_count() to authenticated;

/**
 * Marks some of the caller's notifications read (1 to 500 ids; ids that are not the
 * caller's in this organization, or already read, change nothing). {success, updated, unread}.
 */
create function public.mark_notifications_read(p_ids uuid[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
  updated integer;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  update private.notifications n set read_at = now()
   where n.id = any (p_ids) and n.user_id = auth.uid() and n.organization_id = target_org and n.read_at is null;
  get diagnostics updated = row_count;
  return jsonb_build_object('success', true, 'updated', updated,
                            'unread', private.unread_notifications(auth.uid(), target_org));
end;
$$;
revoke all on function public.mark_notifications_read(p_ids uuid[]) from public, anon, authenticated;
grant execute on function public.mark_notifications_read(p_ids uuid[]) to authenticated;

/** Marks every notification of the caller in their session's organization read: {success, updated, unread}. */
create function public.mark_all_notifications_read()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  target_org uuid := caller.organization_id;
  updated integer;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  update private.notifications n set read_at = now()
   where n.user_id = auth.uid() and n.organization_id = target_org and n.read_at is null;
  get diagnostics updated = row_count;
  return jsonb_build_object('success', true, 'updated', updated, 'unread', 0);
end;
$$;
revoke all on function public.mark_all_notifications_read() from public, anon, authenticated;
grant execute on function public.mark_all_notifications_read() to authenticated;

/** The caller's preferences in this organization: {kinds (wanted), available (every kind)}. */
create function private.notification_preferences_json(p_user_id uuid, p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('success', true,
    'kinds', to_jsonb(coalesce((select array(select k from unnest(private.notification_kinds()) with ordinality as a (k, position)
                                              where k = any (p.kinds) order by a.position)
                                  from private.notification_preferences p
                                 where p.user_id = p_user_id and p.organization_id = p_organization_id),
                               private.notification_kinds())),
    'available', to_jsonb(private.notification_kinds()));
$$;

/** Which notification kinds the caller wants in their session's organization: {success, kinds, available}. */
create function public.get_notification_preferences()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return private.notification_preferences_json(auth.uid(), caller.organization_id);
end;
$$;
revoke all on function public.get_notification_preferences() from public, anon, authenticated;
grant execute on function public.get_notification_preferences() to authenticated;

/**
 * Saves which notification kinds the caller wants in their session's organization (an
 * empty list: none). An unknown kind refuses the change (invalid_fields, kinds: invalid).
 * {success, kinds, available}.
 */
create function public.save_notification_preferences(p_kinds text[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if p_kinds is null or cardinality(p_kinds) > 50 or not (p_kinds <@ private.notification_kinds()) then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"kinds": "invalid"}}');
  end if;
  insert into private.notification_preferences (user_id, organization_id, kinds)
  values (auth.uid(), caller.organization_id, (select coalesce(array_agg(distinct k), '{}') from unnest(p_kinds) k))
  on conflict (user_id, organization_id) do update set kinds = excluded.kinds, updated_at = now();
  return private.notification_preferences_json(auth.uid(), caller.organization_id);
end;
$$;
revoke all on function public.save_notification_preferences(p_kinds text[]) from public, anon, authenticated;
grant execute on function public.save_notification_preferences(p_kinds text[]) to authenticated;

/**
 * True when the caller may receive broadcasts on a Realtime topic: their session's
 * organization's board topic org:<organization_id>, or their own notification topic
 * user:<organization_id>:<user_id>. Read by the realtime.messages policy.
 */
create function public.can_receive_realtime_topic(p_topic text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select caller.problem is null
     and p_topic in (format('org:%s', caller.organization_id), format('user:%s:%s', caller.organization_id, caller.user_id))
    from private.caller_context('organization') caller;
$$;
revoke all on function public.can_receive_realtime_topic(p_topic text) from public, anon, authenticated;
grant execute on function public.can_receive_realtime_topic(p_topic text) to authenticated;

do $$
begin
  if to_regnamespace('realtime') is not null and to_regclass('realtime.messages') is not null
     and to_regprocedure('realtime.topic()') is not null then
    execute 'drop policy if exists crm_receive_own_topics on realtime.messages';
    execute $policy$
      create policy crm_receive_own_topics on realtime.messages for select to authenticated
        using (realtime.messages.extension = 'broadcast' and public.can_receive_realtime_topic((select realtime.topic())))
    $policy$;
  end if;
end
$$;

/**
 * Trigger (after insert, update and delete on tasks, per statement, with the transition
 * tables new_tasks and old_tasks): task_due_totals counts the live open and
 * in-progress tasks per owner, state and UTC day of due time ('infinity': none) through
 * every change of a task's owner, state, due time or deletion.
 */
create function private.task_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  counted constant text := 'deleted_at is null and status in (''open'', ''in_progress'')';
  changes text := case tg_op
    when 'INSERT' then format('select owner_id, status, due_at, 1 as n from new_tasks where %s', counted)
    when 'UPDATE' then format('select owner_id, status, due_at, 1 as n from new_tasks where %1$s
                               union all select owner_id, status, due_at, -1 from old_tasks where %1$s', counted)
    else format('select owner_id, status, due_at, -1 as n from old_tasks where %s', counted) end;
begin
  -- In key order, so that concurrent writers lock the totals rows in the same order.
  execute format($query$
    insert into %I.task_due_totals as s (owner_id, status, due_day, task_count)
    select c.owner_id, c.status, coalesce((c.due_at at time zone 'UTC')::date, 'infinity'::date), sum(c.n)
      from (%s) c
     group by 1, 2, 3
    having sum(c.n) <> 0
     order by 1, 2, 3
    on conflict (owner_id, status, due_day) do update set task_count = s.task_count + excluded.task_count$query$,
    tg_table_schema, changes);
  return null;
end;
$$;

/** Trigger (after truncate on tasks): the tasks' totals empty too. */
create function private.task_after_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  execute format('delete from %I.task_due_totals', tg_table_schema);
  return null;
end;
$$;

-- Quotes and products: KDV-correct lines and totals, the quote workflow (send, accept,
-- reject, revise, expire), frozen exchange rates, and the product list.

/**
 * The exchange rate of a currency for a quote dated p_on: 1 for TRY and the
 * organization's own currency; else the rate of the latest day on or before p_on, or,
 * for a date before any rate was set, the oldest rate known. No row when none is known.
 */
create function private.quote_exchange_rate(p_organization_id uuid, p_currency text, p_on date)
returns table (rate numeric, rate_date date)
language sql
stable
security definer
set search_path = ''
as $$
  select 1::numeric, p_on
   where p_currency = 'TRY'
      or p_currency = (select s.default_currency from private.organization_settings s where s.organization_id = p_organization_id)
  union all
  (select h.rate, h.rate_date
     from private.exchange_rate_history h
    where h.organization_id = p_organization_id and h.currency = p_currency
      and p_currency <> 'TRY'
      and p_currency <> (select s.default_currency from private.organization_settings s where s.organization_id = p_organization_id)
    order by h.rate_date <= p_on desc, case when h.rate_date <= p_on then h.rate_date end desc, h.rate_date
    limit 1);
$$;

/**
 * The KDV rates a quote line may use: 0, 1, 10 and 20, plus the organization's default
 * rate when it is another one (the settings hold no list of their own).
 */
create function private.quote_vat_rates(p_organization_id uuid)
returns numeric[]
language sql
stable
security definer
set search_path = ''
as $$
  select array(select distinct r from unnest(array[0, 1, 10, 20]::numeric[]
                                              || array(select s.default_vat_rate from private.organization_settings s
                                                        where s.organization_id = p_organization_id)) r
                order by r);
$$;

/**
 * A quote's totals by the Turkish invoice rules, from its header ({prices_include_vat,
 * document_discount_type, document_discount_value, exchange_rate}) and lines (each
 * {quantity, unit_price, discount_type, discount_value, vat_rate, withholding_rate}, in
 * order). Returns {"totals": {...}, "lines": [...]}, money as strings with two decimals.
 * - Line base = quantity × unit_price; when prices include KDV, the net base is
 *   base / (1 + rate / 100). The line's subtotal is that net base to the kuruş.
 * - Line discount: a percent of the line's subtotal, or an amount, off the net (kuruş).
 * - Document discount: a percent of (or an amount off) the sum of the lines after their
 *   discounts, spread over the lines in proportion to that amount, each share to the
 *   kuruş; the last line takes the rounding rest, so the shares add up exactly.
 * - Per line: net = subtotal − line discount − share; KDV = net × rate / 100 and
 *   withholding (tevkifat) = KDV × the ratio ("7/10"), each rounded to the kuruş (half
 *   away from zero) on the line; line gross = net + KDV.
 * - Totals: gross_total (the lines' subtotals), line_discount_total,
 *   document_discount_total, net_total, vat_breakdown per rate [{rate, base, vat,
 *   withholding}], vat_total, withholding_total, grand_total = net + KDV − withholding,
 *   grand_total_try = grand_total × exchange_rate to the kuruş (null without a rate);
 *   after_line_discounts (what the document discount may take at most).
 * Input is expected clean (see private.clean_quote_items); missing numbers count as 0.
 * PL/pgSQL around one query so that its plan is kept for the session.
 */
create function private.quote_totals(p_header jsonb, p_items jsonb)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return (
  with header as (
    select coalesce((p_header ->> 'prices_include_vat')::boolean, false) as included,
           p_header ->> 'document_discount_type' as discount_type,
           coalesce((p_header ->> 'document_discount_value')::numeric, 0) as discount_value,
           (p_header ->> 'exchange_rate')::numeric as rate
  ),
  line as (
    select i.position::integer - 1 as index,
           coalesce((i.item ->> 'vat_rate')::numeric, 0) as vat_rate,
           case when i.item ->> 'withholding_rate' ~ '^\d+/\d+$'
                then split_part(i.item ->> 'withholding_rate', '/', 1)::numeric
                     / nullif(split_part(i.item ->> 'withholding_rate', '/', 2)::numeric, 0)
                else 0 end as withholding_ratio,
           i.item ->> 'discount_type' as discount_type,
           coalesce((i.item ->> 'discount_value')::numeric, 0) as discount_value,
           round(case when h.included
                      then coalesce((i.item ->> 'quantity')::numeric, 0) * coalesce((i.item ->> 'unit_price')::numeric, 0)
                           / (1 + coalesce((i.item ->> 'vat_rate')::numeric, 0) / 100)
                      else coalesce((i.item ->> 'quantity')::numeric, 0) * coalesce((i.item ->> 'unit_price')::numeric, 0) end,
                 2) as subtotal
      from jsonb_array_elements(case when jsonb_typeof(p_items) = 'array' then p_items else '[]' end)
             with ordinality i (item, position),
           header h
  ),
  discounted as (
    select l.*,
           round(case l.discount_type when 'percent' then l.subtotal * l.discount_value / 100
                                      when 'amount' then l.discount_value else 0 end, 2) as line_discount
      from line l
  ),
  after_line as (
    select d.*, d.subtotal - d.line_discount as after_discount,
           sum(d.subtotal - d.line_discount) over () as after_total,
           max(d.index) over () as last_index
      from discounted d
  ),
  document as (
    select round(case h.discount_type when 'percent' then coalesce(max(a.after_total), 0) * h.discount_value / 100
                                      when 'amount' then h.discount_value else 0 end, 2) as discount
      from header h left join after_line a on true
     group by h.discount_type, h.discount_value
  ),
  shared as (
    select a.*,
           case when a.after_total = 0 then 0::numeric
                else round(doc.discount * a.after_discount / a.after_total, 2) end as rounded_share,
           doc.discount as document_discount
      from after_line a, document doc
  ),
  spread as (
    select s.*,
           case when s.index = s.last_index
                then s.document_discount - (sum(s.rounded_share) over () - s.rounded_share)
                else s.rounded_share end as share
      from shared s
  ),
  netted as (
    select s.*, s.after_discount - s.share as net, round((s.after_discount - s.share) * s.vat_rate / 100, 2) as vat
      from spread s
  ),
  computed as (
    select n.*, round(n.vat * n.withholding_ratio, 2) as withholding from netted n
  ),
  sums as (
    select coalesce(sum(c.subtotal), 0) as gross_total, coalesce(sum(c.line_discount), 0) as line_discount_total,
           coalesce(sum(c.share), 0) as document_discount_total, coalesce(sum(c.after_discount), 0) as after_line_discounts,
           coalesce(sum(c.net), 0) as net_total, coalesce(sum(c.vat), 0) as vat_total,
           coalesce(sum(c.withholding), 0) as withholding_total
      from computed c
  )
  select jsonb_build_object(
    'totals', jsonb_build_object(
      'gross_total', round(s.gross_total, 2)::text,
      'line_discount_total', round(s.line_discount_total, 2)::text,
      'after_line_discounts', round(s.after_line_discounts, 2)::text,
      'document_discount_total', round((select d.discount from document d), 2)::text,
      'net_total', round(s.net_total, 2)::text,
      'vat_breakdown', (select coalesce(jsonb_agg(jsonb_build_object('rate', trim_scale(g.vat_rate), 'base', round(g.base, 2)::text,
                                                                     'vat', round(g.vat, 2)::text,
                                                                     'withholding', round(g.withholding, 2)::text)
                                                  order by g.vat_rate), '[]')
                          from (select c.vat_rate, sum(c.net) as base, sum(c.vat) as vat, sum(c.withholding) as withholding
                                  from computed c group by c.vat_rate) g),
      'vat_total', round(s.vat_total, 2)::text,
      'withholding_total', round(s.withholding_total, 2)::text,
      'grand_total', round(s.net_total + s.vat_total - s.withholding_total, 2)::text,
      'grand_total_try', round((s.net_total + s.vat_total - s.withholding_total) * h.rate, 2)::text),
    'lines', (select coalesce(jsonb_agg(jsonb_build_object(
                'index', c.index, 'subtotal', round(c.subtotal, 2)::text, 'line_discount', round(c.line_discount, 2)::text,
                'document_discount', round(c.share, 2)::text, 'line_net', round(c.net, 2)::text,
                'line_vat', round(c.vat, 2)::text, 'line_withholding', round(c.withholding, 2)::text,
                'line_gross', round(c.net + c.vat, 2)::text) order by c.index), '[]')
                from computed c))
    from sums s, header h);
end;
$$;

/**
 * A quote's lines checked and normalised: {"items": [clean lines], "errors":
 * {"items.<index>.<field>": code}} (index from 0). At most 500 lines ({"items":
 * "too_many_items"}). Each line: a description (1-2000 characters; required), quantity
 * > 0 (3 decimals), unit (at most 20 characters), unit_price ≥ 0 (4 decimals),
 * discount_type percent|amount with discount_value ≥ 0 (percent at most 100, an amount
 * at most the line: discount_exceeds_line), vat_rate one of p_vat_rates
 * (invalid_vat_rate), a vat_exemption_reason when the rate is 0 (vat_exemption_required),
 * withholding_rate one of 2/10, 3/10, 4/10, 5/10, 7/10, 9/10, 10/10 or null, product_id
 * a product of the organization (not_found).
 */
create function private.clean_quote_items(p_items jsonb, p_vat_rates numeric[], p_schema text, p_prices_include_vat boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  errors jsonb := '{}';
  items jsonb[] := '{}';
  item jsonb;
  index integer := -1;
  prefix text;
  description text;
  quantity numeric;
  unit text;
  unit_price numeric;
  discount_type text;
  discount numeric;
  rate numeric;
  exemption text;
  withholding text;
  product text;
  product_ids uuid[] := '{}';
  known uuid[];
begin
  if p_items is null or jsonb_typeof(p_items) = 'null' then
    return jsonb_build_object('items', '[]'::jsonb, 'errors', '{}'::jsonb);
  end if;
  if jsonb_typeof(p_items) <> 'array' then
    return jsonb_build_object('items', '[]'::jsonb, 'errors', '{"items": "invalid"}'::jsonb);
  end if;
  if jsonb_array_length(p_items) > 500 then
    return jsonb_build_object('items', '[]'::jsonb, 'errors', '{"items": "too_many_items"}'::jsonb);
  end if;
  for item in select value from jsonb_array_elements(p_items) loop
    index := index + 1;
    prefix := 'items.' || index || '.';
    if jsonb_typeof(item) <> 'object' then
      errors := errors || jsonb_build_object('items.' || index, 'invalid');
      continue;
    end if;

    description := case when jsonb_typeof(item -> 'description') = 'string' then nullif(btrim(item ->> 'description'), '') end;
    if description is null then
      errors := errors || jsonb_build_object(prefix || 'description', 'required');
    elsif char_length(description) > 2000 then
      errors := errors || jsonb_build_object(prefix || 'description', 'too_long');
    end if;

    quantity := private.json_numeric(item -> 'quantity');
    if quantity is null or quantity <= 0 or quantity >= 100000000000 or scale(quantity) > 3 then
      errors := errors || jsonb_build_object(prefix || 'quantity', 'invalid');
    end if;

    unit := nullif(btrim(item ->> 'unit'), '');
    if coalesce(jsonb_typeof(item -> 'unit'), 'null') not in ('string', 'null') then
      errors := errors || jsonb_build_object(prefix || 'unit', 'invalid');
    elsif char_length(unit) > 20 then
      errors := errors || jsonb_build_object(prefix || 'unit', 'too_long');
    end if;

    unit_price := private.json_numeric(item -> 'unit_price');
    if unit_price is null or unit_price < 0 or unit_price >= 1000000000000 or scale(unit_price) > 4 then
      errors := errors || jsonb_build_object(prefix || 'unit_price', 'invalid');
    end if;

    rate := private.json_numeric(item -> 'vat_rate');
    exemption := null;
    if rate is null or not (rate = any (p_vat_rates)) then
      errors := errors || jsonb_build_object(prefix || 'vat_rate', 'invalid_vat_rate');
    elsif rate = 0 then
      exemption := case when jsonb_typeof(item -> 'vat_exemption_reason') = 'string'
                        then nullif(btrim(item ->> 'vat_exemption_reason'), '') end;
      if exemption is null then
        errors := errors || jsonb_build_object(prefix || 'vat_exemption_reason', 'vat_exemption_required');
      elsif char_length(exemption) > 200 then
        errors := errors || jsonb_build_object(prefix || 'vat_exemption_reason', 'too_long');
      end if;
    end if;

    withholding := nullif(item ->> 'withholding_rate', '');
    if withholding is not null and (jsonb_typeof(item -> 'withholding_rate') <> 'string'
                                    or withholding not in ('2/10', '3/10', '4/10', '5/10', '7/10', '9/10', '10/10')) then
      errors := errors || jsonb_build_object(prefix || 'withholding_rate', 'invalid');
    end if;

    discount_type := nullif(item ->> 'discount_type', '');
    discount := coalesce(private.json_numeric(item -> 'discount_value'),
                         case when coalesce(jsonb_typeof(item -> 'discount_value'), 'null') = 'null' then 0 end);
    if discount_type is null then
      if discount is distinct from 0 then
        errors := errors || jsonb_build_object(prefix || 'discount_type', 'required');
      end if;
      discount := 0;
    elsif discount_type not in ('percent', 'amount') then
      errors := errors || jsonb_build_object(prefix || 'discount_type', 'invalid');
    elsif discount is null or discount < 0 or scale(discount) > 2 or (discount_type = 'percent' and discount > 100) then
      errors := errors || jsonb_build_object(prefix || 'discount_value', 'invalid');
    elsif discount_type = 'amount' and quantity is not null and unit_price is not null and rate is not null
          and discount > round(case when p_prices_include_vat then quantity * unit_price / (1 + rate / 100)
                                    else quantity * unit_price end, 2) then
      errors := errors || jsonb_build_object(prefix || 'discount_value', 'discount_exceeds_line');
    end if;

    product := item ->> 'product_id';
    if coalesce(jsonb_typeof(item -> 'product_id'), 'null') <> 'null' then
      if product !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        errors := errors || jsonb_build_object(prefix || 'product_id', 'invalid');
      else
        product_ids := product_ids || product::uuid;
      end if;
    end if;

    items := items || jsonb_build_object(
      'position', index + 1, 'description', description, 'quantity', quantity, 'unit', unit, 'unit_price', unit_price,
      'discount_type', discount_type, 'discount_value', discount, 'vat_rate', rate, 'vat_exemption_reason', exemption,
      'withholding_rate', withholding, 'product_id', product);
  end loop;

  if cardinality(product_ids) > 0 then
    execute format('select array_agg(p.id) from %I.products p where p.id = any ($1) and p.deleted_at is null', p_schema)
      into known using product_ids;
    select coalesce(jsonb_object_agg('items.' || (i.position - 1) || '.product_id', 'not_found'), '{}') || errors into errors
      from unnest(items) with ordinality i (item, position)
     where i.item ->> 'product_id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' and not ((i.item ->> 'product_id')::uuid = any (coalesce(known, '{}')));
  end if;
  return jsonb_build_object('items', to_jsonb(items), 'errors', errors);
end;
$$;

/**
 * Trigger (before insert or update on quotes): a new quote gets the organization's
 * currency, today's date, valid_until after the organization's validity days, and its
 * number (private.next_document_number, kind quote) unless it has one (a revision keeps
 * its root's). While a quote is a draft (and when it leaves draft) without an entered
 * rate, its exchange rate is the one of its date (private.quote_exchange_rate); after,
 * the rate stays frozen. Every write stores the totals private.quote_totals gives for the
 * quote's lines. A schema no organization owns (the drift check's) gets TRY and no number.
 */
create function private.quote_before_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization uuid := (select o.id from private.organizations o where o.schema_name = tg_table_schema);
  settings private.organization_settings;
  found_rate record;
  items jsonb;
  totals jsonb;
begin
  select * into settings from private.organization_settings s where s.organization_id = organization;
  if tg_op = 'INSERT' then
    new.currency := coalesce(new.currency, settings.default_currency, 'TRY');
    new.quote_date := coalesce(new.quote_date, private.organization_today(organization));
    new.valid_until := coalesce(new.valid_until, new.quote_date + coalesce(settings.quote_validity_days, 30));
    if new.quote_number is null and organization is not null then
      new.quote_number := private.next_document_number(organization, 'quote', settings.quote_number_pattern, new.quote_date);
    end if;
  end if;
  if (tg_op = 'INSERT' or old.status = 'draft') and not new.exchange_rate_manual then
    select * into found_rate from private.quote_exchange_rate(organization, new.currency, new.quote_date);
    if found_rate is null and new.currency = 'TRY' then
      select 1::numeric as rate, new.quote_date as rate_date into found_rate;
    end if;
    new.exchange_rate := found_rate.rate;
    new.exchange_rate_date := found_rate.rate_date;
  end if;
  if tg_op = 'UPDATE' then
    -- Only what the totals read (the whole rows cost twice as much to build).
    execute format('select coalesce(jsonb_agg(jsonb_build_object(''quantity'', i.quantity, ''unit_price'', i.unit_price,
                                                                 ''discount_type'', i.discount_type, ''discount_value'', i.discount_value,
                                                                 ''vat_rate'', i.vat_rate, ''withholding_rate'', i.withholding_rate)
                                              order by i.position, i.id), ''[]'')
                      from %I.quote_items i where i.quote_id = $1 and i.deleted_at is null', tg_table_schema)
      into items using new.id;
  else
    items := '[]';
  end if;
  totals := private.quote_totals(to_jsonb(new), items) -> 'totals';
  new.gross_total := (totals ->> 'gross_total')::numeric;
  new.line_discount_total := (totals ->> 'line_discount_total')::numeric;
  new.document_discount_total := (totals ->> 'document_discount_total')::numeric;
  new.net_total := (totals ->> 'net_total')::numeric;
  new.vat_total := (totals ->> 'vat_total')::numeric;
  new.withholding_total := (totals ->> 'withholding_total')::numeric;
  new.grand_total := (totals ->> 'grand_total')::numeric;
  new.grand_total_try := (totals ->> 'grand_total_try')::numeric;
  return new;
end;
$$;

/**
 * A quote header's rules (the registry's prepare function, so update_quote, bulk updates
 * and save_quote share them): customer, contact and deal of the organization (not
 * deleted); quote_date and valid_until dates (valid_until not before quote_date:
 * before_quote_date); currency three letters; exchange_rate a positive number (an
 * entered rate, kept as is) or null (the rate of the quote's date); prices_include_vat a
 * boolean; a document discount percent (at most 100) or amount of at least 0; payment
 * terms (2000), notes (10000). A quote that is no longer a draft is locked: only its
 * owner, and its status by the workflow, may change (quote_locked). The workflow:
 * draft → sent (a customer, at least one line — items_required — and a known rate —
 * exchange_rate: required; sets sent_at), sent → accepted (accepted_at) or rejected
 * (rejected_at, a rejection_reason required); a sent quote past valid_until is expired
 * (quote_expired), a superseded one is history (quote_superseded); anything else is
 * invalid_transition. Returns {"values", "errors"} like private.prepare_deal.
 */
create function private.prepare_quote(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  target_org uuid := private.current_organization_id();
  tenant text := private.tenant_schema(target_org);
  old_status text := p_existing ->> 'status';
  new_status text;
  reference uuid;
  found boolean;
  day date;
  number_value numeric;
  quote_date date;
  valid_until date;
  item_count integer;
begin
  -- A locked quote: nothing but its owner and status changes.
  if old_status is not null and old_status <> 'draft' then
    select coalesce(jsonb_object_agg(k, 'quote_locked'), '{}') into errors
      from jsonb_object_keys(p_values) k where k not in ('owner_id', 'status', 'rejection_reason');
    if errors <> '{}' then
      return jsonb_build_object('values', '{}'::jsonb, 'errors', errors);
    end if;
  end if;

  foreach field in array array['currency', 'payment_terms', 'notes', 'rejection_reason', 'document_discount_type', 'status'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;
  if char_length(result ->> 'payment_terms') > 2000 and p_values ? 'payment_terms' then
    errors := errors || '{"payment_terms": "too_long"}';
  end if;
  if char_length(result ->> 'notes') > 10000 and p_values ? 'notes' then
    errors := errors || '{"notes": "too_long"}';
  end if;
  if char_length(result ->> 'rejection_reason') > 1000 and p_values ? 'rejection_reason' then
    errors := errors || '{"rejection_reason": "too_long"}';
  end if;

  if p_values ? 'currency' and not errors ? 'currency' then
    if result ->> 'currency' is null or upper(result ->> 'currency') !~ '^[A-Z]{3}$' then
      errors := errors || jsonb_build_object('currency', case when result ->> 'currency' is null then 'required' else 'invalid' end);
    else
      result := result || jsonb_build_object('currency', upper(result ->> 'currency'));
    end if;
  end if;

  -- Customer, contact and deal: the organization's, not deleted.
  foreach field in array array['customer_id', 'contact_id', 'deal_id'] loop
    if p_values ? field and jsonb_typeof(p_values -> field) <> 'null' then
      begin
        reference := (p_values ->> field)::uuid;
        execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null)', tenant,
                       case field when 'customer_id' then 'customers' when 'contact_id' then 'contacts' else 'deals' end)
          into found using reference;
        if not coalesce(found, false) then
          errors := errors || jsonb_build_object(field, 'not_found');
        end if;
      exception when invalid_text_representation then
        errors := errors || jsonb_build_object(field, 'invalid');
      end;
    end if;
  end loop;

  foreach field in array array['quote_date', 'valid_until'] loop
    if p_values ? field then
      begin
        if jsonb_typeof(p_values -> field) = 'null' then
          if field = 'quote_date' then
            errors := errors || '{"quote_date": "required"}';
          else
            result := result || '{"valid_until": null}';
          end if;
        else
          if jsonb_typeof(p_values -> field) <> 'string' or (p_values ->> field) !~ '^\d{4}-\d{2}-\d{2}$' then
            raise invalid_datetime_format;
          end if;
          day := (p_values ->> field)::date;
          if extract(year from day) not between 2000 and 2999 then
            raise invalid_datetime_format;
          end if;
          result := result || jsonb_build_object(field, day);
        end if;
      exception when invalid_datetime_format or datetime_field_overflow then
        errors := errors || jsonb_build_object(field, 'invalid');
      end;
    end if;
  end loop;
  -- valid_until: null means the organization's validity days from the quote's date.
  if not errors ? 'quote_date' and not errors ? 'valid_until' then
    quote_date := coalesce((result ->> 'quote_date')::date, (p_existing ->> 'quote_date')::date, private.organization_today(target_org));
    if p_values ? 'valid_until' and result ->> 'valid_until' is null then
      result := result || jsonb_build_object('valid_until', quote_date + (select s.quote_validity_days from private.organization_settings s
                                                                            where s.organization_id = target_org));
    end if;
    valid_until := coalesce((result ->> 'valid_until')::date, (p_existing ->> 'valid_until')::date);
    if valid_until < quote_date then
      errors := errors || '{"valid_until": "before_quote_date"}';
    end if;
  end if;

  if p_values ? 'exchange_rate' then
    if jsonb_typeof(p_values -> 'exchange_rate') = 'null' then
      result := result || '{"exchange_rate_manual": false}';
    else
      number_value := private.json_numeric(p_values -> 'exchange_rate');
      if number_value is null or number_value <= 0 or number_value >= 1000000000 or scale(number_value) > 6 then
        errors := errors || '{"exchange_rate": "invalid"}';
      else
        result := result || jsonb_build_object('exchange_rate', number_value, 'exchange_rate_manual', true,
                                               'exchange_rate_date', null);
      end if;
    end if;
  end if;

  if p_values ? 'prices_include_vat' then
    if jsonb_typeof(p_values -> 'prices_include_vat') <> 'boolean' then
      errors := errors || '{"prices_include_vat": "invalid"}';
    end if;
  end if;

  if p_values ? 'document_discount_type' and not errors ? 'document_discount_type'
     and result ->> 'document_discount_type' not in ('percent', 'amount') then
    errors := errors || '{"document_discount_type": "invalid"}';
  end if;
  if p_values ? 'document_discount_value' then
    number_value := coalesce(private.json_numeric(p_values -> 'document_discount_value'),
                             case when jsonb_typeof(p_values -> 'document_discount_value') = 'null' then 0 end);
    if number_value is null or number_value < 0 or number_value >= 100000000000000 or scale(number_value) > 2
       or (coalesce(result ->> 'document_discount_type', p_existing ->> 'document_discount_type') = 'percent' and number_value > 100) then
      errors := errors || '{"document_discount_value": "invalid"}';
    else
      result := result || jsonb_build_object('document_discount_value', number_value);
    end if;
  end if;
  if coalesce(result ->> 'document_discount_type', case when not p_values ? 'document_discount_type' then p_existing ->> 'document_discount_type' end) is null then
    if (result ->> 'document_discount_value')::numeric > 0 then
      errors := errors || '{"document_discount_type": "required"}';
    end if;
  end if;

  -- The workflow.
  if p_values ? 'status' and not errors ? 'status' then
    new_status := result ->> 'status';
    if p_existing is null and new_status is not distinct from 'draft' then
      result := result - 'status';
    elsif p_existing is null or new_status is not distinct from old_status then
      errors := errors || '{"status": "invalid_transition"}';
    elsif (p_existing ->> 'superseded_by') is not null then
      errors := errors || '{"status": "quote_superseded"}';
    elsif old_status = 'draft' and new_status = 'sent' then
      execute format('select count(*) from %I.quote_items i where i.quote_id = $1 and i.deleted_at is null', tenant)
        into item_count using (p_existing ->> 'id')::uuid;
      if item_count = 0 then
        errors := errors || '{"status": "items_required"}';
      elsif (p_existing ->> 'customer_id') is null then
        errors := errors || '{"customer_id": "required"}';
      elsif not (p_existing ->> 'exchange_rate_manual')::boolean
            and not exists (select 1 from private.quote_exchange_rate(target_org, p_existing ->> 'currency',
                                                                       (p_existing ->> 'quote_date')::date)) then
        errors := errors || '{"exchange_rate": "required"}';
      end if;
      result := result || jsonb_build_object('sent_at', now());
    elsif old_status = 'sent' and new_status in ('accepted', 'rejected') then
      if (p_existing ->> 'valid_until')::date < private.organization_today(target_org) then
        errors := errors || '{"status": "quote_expired"}';
      elsif new_status = 'accepted' then
        result := result || jsonb_build_object('accepted_at', now());
      elsif coalesce(result ->> 'rejection_reason', p_existing ->> 'rejection_reason') is null then
        errors := errors || '{"rejection_reason": "required"}';
      else
        result := result || jsonb_build_object('rejected_at', now());
      end if;
    else
      errors := errors || '{"status": "invalid_transition"}';
    end if;
  end if;
  if p_values ? 'rejection_reason' and coalesce(new_status, old_status, 'draft') <> 'rejected' and not errors ? 'rejection_reason' then
    result := result || '{"rejection_reason": null}';
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The registry row
-- ---------------------------------------------------------------------------------
select private.register_module(
  p_key => 'quotes', p_position => 4, p_table_name => 'quotes', p_entity_type => 'quote',
  p_writable_columns => '{customer_id,contact_id,deal_id,status,quote_date,valid_until,currency,exchange_rate,prices_include_vat,document_discount_type,document_discount_value,payment_terms,notes,rejection_reason}',
  p_list_columns => '{quote_number,revision,customer_id,deal_id,status,quote_date,valid_until,currency,grand_total,grand_total_try,is_latest}',
  p_sortable_columns => '{quote_number,quote_date,valid_until,status,grand_total,created_at,updated_at}',
  p_filterable_columns => '{status,customer_id,contact_id,deal_id,currency,quote_date,valid_until,is_latest}',
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_title_columns => '{quote_number}', p_prepare_function => 'prepare_quote',
  p_transfer_kind => 'quotes', p_transfer_default => false, p_transfer_tables => '{quote_items}',
  p_document_link => 'quote_id');

/** A save's refusal: field errors of the header and lines as {"fields": {...}} (too_many_items on its own). */
create function private.quote_fields_failure(p_errors jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case when p_errors ->> 'items' = 'too_many_items'
              then private.failure('A quote has at most 500 lines', 'too_many_items', jsonb_build_object('fields', p_errors))
              else private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', p_errors)) end;
$$;

/**
 * Saves a quote with all its lines in one transaction. p_id null creates a draft (its
 * number assigned, owned by the caller or, with scope all, the member in owner_id);
 * otherwise the draft read at p_updated_at is changed (stale_record when someone changed
 * it since; quote_locked when it is no longer a draft) and its lines are replaced. Header
 * rules: private.prepare_quote (status is changed by send/accept/reject only); lines:
 * private.clean_quote_items; a document discount larger than the lines after their
 * discounts is discount_exceeds_total. Answers {success, id, updated_at, quote_number}.
 */
create function private.quote_save(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', case when p_id is null then 'create' else 'edit' end);
  values_in jsonb := coalesce(p_values, '{}');
  existing jsonb;
  prepared jsonb;
  items jsonb;
  errors jsonb := '{}';
  answer jsonb;
  quote_id uuid := p_id;
  saved record;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if jsonb_typeof(values_in) <> 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if values_in ? 'status' or values_in ? 'rejection_reason' then
    return private.quote_fields_failure(jsonb_build_object(case when values_in ? 'status' then 'status' else 'rejection_reason' end,
                                                           'unknown_field'));
  end if;
  if p_id is not null then
    execute format('select to_jsonb(t) from %I.quotes t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                   context.schema_name)
      into existing using p_id, context.scope, context.caller;
    if existing is null then
      return private.failure('Record not found', 'not_found');
    end if;
    if existing ->> 'status' <> 'draft' or existing ->> 'superseded_by' is not null then
      return private.failure('The quote is locked', 'quote_locked');
    end if;
  end if;

  prepared := private.prepare_record('quotes', values_in, existing, context.caller, context.organization_id, context.scope);
  if prepared ? 'problem' then
    if prepared #>> '{problem,code}' <> 'invalid_fields' then
      return prepared -> 'problem';
    end if;
    errors := prepared #> '{problem,fields}';
  end if;
  items := private.clean_quote_items(p_items, private.quote_vat_rates(context.organization_id), context.schema_name,
                                     coalesce((prepared #>> '{values,prices_include_vat}')::boolean,
                                              (existing ->> 'prices_include_vat')::boolean, false));
  errors := errors || (items -> 'errors');
  if errors <> '{}' then
    return private.quote_fields_failure(errors);
  end if;

  begin
    if p_id is null then
      answer := private.record_create('quotes', values_in);
      if not (answer ->> 'success')::boolean then
        raise exception using errcode = 'P0001', message = answer::text;
      end if;
      quote_id := (answer #>> '{record,id}')::uuid;
    else
      execute format('delete from %I.quote_items where quote_id = $1', context.schema_name) using p_id;
    end if;
    execute format('insert into %I.quote_items (quote_id, position, product_id, description, quantity, unit, unit_price,
                                                discount_type, discount_value, vat_rate, vat_exemption_reason, withholding_rate,
                                                owner_id, created_by)
                    select $1, r.position, r.product_id, r.description, r.quantity, r.unit, r.unit_price, r.discount_type,
                           coalesce(r.discount_value, 0), r.vat_rate, r.vat_exemption_reason, r.withholding_rate, q.owner_id, $3
                      from jsonb_to_recordset($2) as r (position integer, product_id uuid, description text, quantity numeric,
                                                         unit text, unit_price numeric, discount_type text, discount_value numeric,
                                                         vat_rate numeric, vat_exemption_reason text, withholding_rate text),
                           %I.quotes q
                     where q.id = $1', context.schema_name, context.schema_name)
      using quote_id, items -> 'items', context.caller;
    if p_id is not null then
      answer := private.record_write('quotes', context, p_id, values_in, p_updated_at, true);
      if not (answer ->> 'success')::boolean then
        raise exception using errcode = 'P0001', message = answer::text;
      end if;
    end if;
    -- The quote's trigger stores the totals of its new lines on every write: the header's
    -- above, else one of updated_at.
    if p_id is null or values_in = '{}' then
      execute format('update %I.quotes q set updated_at = now() where q.id = $1
                      returning q.updated_at, q.quote_number, q.document_discount_total > q.gross_total - q.line_discount_total as too_much',
                     context.schema_name)
        into saved using quote_id;
    else
      execute format('select q.updated_at, q.quote_number, q.document_discount_total > q.gross_total - q.line_discount_total as too_much
                        from %I.quotes q where q.id = $1', context.schema_name)
        into saved using quote_id;
    end if;
    if saved.too_much then
      raise exception using errcode = 'P0001',
        message = private.quote_fields_failure('{"document_discount_value": "discount_exceeds_total"}')::text;
    end if;
  exception when sqlstate 'P0001' then
    return sqlerrm::jsonb;
  end;
  return jsonb_build_object('success', true, 'id', quote_id, 'updated_at', saved.updated_at, 'quote_number', saved.quote_number);
end;
$$;

/**
 * The totals a quote would have, nothing stored: the header and lines checked like
 * save_quote (field errors the same way) and computed by private.quote_totals with the
 * rate of the quote's date (or the entered one). Answers {success, totals, lines}.
 */
create function private.quote_preview(p_values jsonb, p_items jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'view');
  values_in jsonb := coalesce(p_values, '{}');
  prepared jsonb;
  header jsonb;
  items jsonb;
  errors jsonb := '{}';
  computed jsonb;
  found_rate record;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if jsonb_typeof(values_in) <> 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  values_in := values_in - 'status' - 'rejection_reason' - 'owner_id';
  prepared := private.prepare_record('quotes', values_in, null, context.caller, context.organization_id, context.scope);
  if prepared ? 'problem' then
    if prepared #>> '{problem,code}' <> 'invalid_fields' then
      return prepared -> 'problem';
    end if;
    errors := prepared #> '{problem,fields}';
  end if;
  header := coalesce(prepared -> 'values', '{}');
  items := private.clean_quote_items(p_items, private.quote_vat_rates(context.organization_id), context.schema_name,
                                     coalesce((header ->> 'prices_include_vat')::boolean, false));
  errors := errors || (items -> 'errors');
  if coalesce((header ->> 'exchange_rate_manual')::boolean, false) then
    select (header ->> 'exchange_rate')::numeric as rate, null::date as rate_date into found_rate;
  else
    select * into found_rate from private.quote_exchange_rate(
      context.organization_id,
      coalesce(header ->> 'currency', (select s.default_currency from private.organization_settings s
                                        where s.organization_id = context.organization_id)),
      coalesce((header ->> 'quote_date')::date, private.organization_today(context.organization_id)));
    header := header || jsonb_build_object('exchange_rate', found_rate.rate);
  end if;
  if errors = '{}' then
    computed := private.quote_totals(header, items -> 'items');
    if (computed #>> '{totals,document_discount_total}')::numeric > (computed #>> '{totals,after_line_discounts}')::numeric then
      errors := '{"document_discount_value": "discount_exceeds_total"}';
    end if;
  end if;
  if errors <> '{}' then
    return private.quote_fields_failure(errors);
  end if;
  return jsonb_build_object('success', true, 'totals', computed -> 'totals', 'lines', computed -> 'lines',
                            'exchange_rate', found_rate.rate::text, 'exchange_rate_date', found_rate.rate_date);
end;
$$;

/** A quote's status as people read it: a sent quote past its valid_until is expired even before the expiry step. */
create function private.quote_status(p_status text, p_valid_until date, p_today date)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_status = 'sent' and p_valid_until < p_today then 'expired' else p_status end;
$$;

/**
 * A quote the caller may see with what its page and its PDF need: the quote (status as
 * read: expired past valid_until; locked unless an editable draft; owner_name), its
 * lines with their computed amounts, the totals (private.quote_totals), its customer,
 * contact and deal when the caller may see them, and every revision of its number.
 */
create function private.quote_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'view');
  quote jsonb;
  items jsonb;
  computed jsonb;
  customer jsonb;
  contact jsonb;
  deal jsonb;
  revisions jsonb;
  today date;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select to_jsonb(t) from %I.quotes t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3)',
                 context.schema_name)
    into quote using p_id, context.scope, context.caller;
  if quote is null then
    return private.failure('Record not found', 'not_found');
  end if;
  today := private.organization_today(context.organization_id);
  execute format('select coalesce(jsonb_agg(to_jsonb(i) order by i.position, i.id), ''[]'') from %I.quote_items i
                   where i.quote_id = $1 and i.deleted_at is null', context.schema_name)
    into items using p_id;
  computed := private.quote_totals(quote, items);
  execute format($query$
    select (select jsonb_build_object('id', c.id, 'name', c.name, 'tax_number', c.tax_number, 'tax_office', c.tax_office,
                                      'address', c.address, 'city', c.city, 'district', c.district)
              from %1$I.customers c
             where c.id = $1 and c.deleted_at is null and ($4 = 'all' or ($4 = 'own' and c.owner_id = $7))),
           (select jsonb_build_object('id', k.id, 'name', btrim(concat_ws(' ', k.first_name, k.last_name)),
                                      'email', k.emails -> 0 ->> 'value', 'phone', k.phones -> 0 ->> 'value')
              from %1$I.contacts k
             where k.id = $2 and k.deleted_at is null and ($5 = 'all' or ($5 = 'own' and k.owner_id = $7))),
           (select jsonb_build_object('id', d.id, 'title', d.title)
              from %1$I.deals d
             where d.id = $3 and d.deleted_at is null and ($6 = 'all' or ($6 = 'own' and d.owner_id = $7))),
           (select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'revision', r.revision,
                                                         'status', private.quote_status(r.status, r.valid_until, $10),
                                                         'quote_date', r.quote_date, 'grand_total', r.grand_total::text,
                                                         'created_at', r.created_at) order by r.revision), '[]')
              from %1$I.quotes r
             where coalesce(r.root_quote_id, r.id) = $8 and r.deleted_at is null and ($9 = 'all' or r.owner_id = $7))$query$,
    context.schema_name)
    into customer, contact, deal, revisions
    using (quote ->> 'customer_id')::uuid, (quote ->> 'contact_id')::uuid, (quote ->> 'deal_id')::uuid,
          private.caller_scope('customers', 'view'), private.caller_scope('contacts', 'view'), private.caller_scope('deals', 'view'),
          context.caller, coalesce((quote ->> 'root_quote_id')::uuid, p_id), context.scope, today;
  return jsonb_build_object('success', true,
    'quote', (private.record_json(quote) - 'gross_total' - 'line_discount_total' - 'document_discount_total' - 'net_total'
              - 'vat_total' - 'withholding_total' - 'grand_total' - 'grand_total_try')
             || jsonb_build_object(
                  'status', private.quote_status(quote ->> 'status', (quote ->> 'valid_until')::date, today),
                  'locked', quote ->> 'status' <> 'draft' or quote ->> 'superseded_by' is not null,
                  'exchange_rate', quote ->> 'exchange_rate',
                  'document_discount_value', quote ->> 'document_discount_value'),
    'items', (select coalesce(jsonb_agg(jsonb_build_object(
                'id', i.item ->> 'id', 'position', (i.item ->> 'position')::integer, 'product_id', i.item ->> 'product_id',
                'description', i.item ->> 'description', 'quantity', i.item ->> 'quantity', 'unit', i.item ->> 'unit',
                'unit_price', i.item ->> 'unit_price', 'discount_type', i.item ->> 'discount_type',
                'discount_value', i.item ->> 'discount_value', 'vat_rate', trim_scale((i.item ->> 'vat_rate')::numeric),
                'vat_exemption_reason', i.item ->> 'vat_exemption_reason', 'withholding_rate', i.item ->> 'withholding_rate')
                || (l.line - 'index') order by i.position), '[]')
                from jsonb_array_elements(items) with ordinality i (item, position)
                join jsonb_array_elements(computed -> 'lines') l (line) on (l.line ->> 'index')::integer = i.position - 1),
    'totals', computed -> 'totals',
    'customer', customer, 'contact', contact, 'deal', deal, 'revisions', revisions);
end;
$$;

/**
 * Changes a quote's status through the record engine (scope edit, stale check against
 * p_updated_at, private.prepare_quote's workflow, field history, audit). A refusal about
 * the status itself answers with that code (invalid_transition, items_required,
 * quote_expired, quote_superseded); other field errors stay invalid_fields.
 */
create function private.quote_transition(p_id uuid, p_updated_at timestamptz, p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'edit');
  answer jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  answer := private.record_write('quotes', context, p_id, p_values, p_updated_at, true);
  if answer ->> 'code' = 'invalid_fields' and answer #>> '{fields,status}' is not null then
    return private.failure('The quote cannot take this step', answer #>> '{fields,status}', jsonb_build_object('fields', answer -> 'fields'));
  end if;
  if answer ->> 'code' = 'invalid_fields' and answer #>> '{fields,exchange_rate}' = 'required' then
    return private.failure('The quote needs an exchange rate', 'exchange_rate_required', jsonb_build_object('fields', answer -> 'fields'));
  end if;
  if not (answer ->> 'success')::boolean then
    return answer;
  end if;
  return jsonb_build_object('success', true, 'id', p_id, 'status', answer #>> '{record,status}',
                            'updated_at', answer #>> '{record,updated_at}');
end;
$$;

/**
 * Accepts a sent quote; with p_mark_deal_won its deal moves to the pipeline's first won
 * stage through private.deal_move (the deal rules, its stale check against the deal as
 * just read, history and audit). When the caller may not edit that deal (or the move is
 * refused) nothing changes: deal_not_updated with the deal's answer in "deal".
 */
create function private.quote_accept(p_id uuid, p_updated_at timestamptz, p_mark_deal_won boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  answer jsonb;
  moved jsonb;
  tenant text;
  deal uuid;
  deal_updated timestamptz;
  won text;
begin
  answer := private.quote_transition(p_id, p_updated_at, '{"status": "accepted"}');
  if not (answer ->> 'success')::boolean or not coalesce(p_mark_deal_won, false) then
    return answer;
  end if;
  tenant := private.tenant_schema(private.current_organization_id());
  execute format('select q.deal_id, d.updated_at from %I.quotes q join %I.deals d on d.id = q.deal_id and d.deleted_at is null
                   where q.id = $1', tenant, tenant)
    into deal, deal_updated using p_id;
  if deal is null then
    return answer || '{"deal_won": false}';
  end if;
  select stage ->> 'key' into won
    from private.organization_settings s, jsonb_array_elements(s.deal_stages) stage
   where s.organization_id = private.current_organization_id() and stage ->> 'outcome' = 'won' limit 1;
  moved := private.deal_move(deal, won, deal_updated, null);
  if won is null or not coalesce((moved ->> 'success')::boolean, false) then
    -- The quote's acceptance goes back too: nothing changes.
    raise exception using errcode = 'P0001',
      message = private.failure('The deal could not be marked won', 'deal_not_updated', jsonb_build_object('deal', moved))::text;
  end if;
  return answer || jsonb_build_object('deal_won', true, 'deal_id', deal);
exception when sqlstate 'P0001' then
  return sqlerrm::jsonb;
end;
$$;

/**
 * A new draft revision of a sent, rejected or expired quote the caller may edit (needs
 * create rights too): the same number, the next revision, header and lines copied,
 * dated today with a fresh validity and rate; the old quote stays as history, superseded
 * by the new one. Answers {success, id}.
 */
create function private.quote_revise(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'edit');
  may_create boolean := private.caller_scope('quotes', 'create') is not null;
  source jsonb;
  today date;
  new_id uuid;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if not may_create then
    return private.refusal('permission_denied');
  end if;
  execute format('select to_jsonb(t) from %I.quotes t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 context.schema_name)
    into source using p_id, context.scope, context.caller;
  if source is null then
    return private.failure('Record not found', 'not_found');
  end if;
  if source ->> 'superseded_by' is not null then
    return private.failure('The quote already has a newer revision', 'quote_superseded');
  end if;
  if source ->> 'status' not in ('sent', 'rejected', 'expired') then
    return private.failure('Only a sent, rejected or expired quote is revised', 'invalid_transition');
  end if;
  today := private.organization_today(context.organization_id);
  execute format($query$
    insert into %1$I.quotes (quote_number, revision, root_quote_id, customer_id, contact_id, deal_id, quote_date, valid_until,
                             currency, exchange_rate, exchange_rate_manual, prices_include_vat, document_discount_type,
                             document_discount_value, payment_terms, notes, owner_id, created_by)
    select q.quote_number, (select max(r.revision) + 1 from %1$I.quotes r where coalesce(r.root_quote_id, r.id) = coalesce(q.root_quote_id, q.id)),
           coalesce(q.root_quote_id, q.id), q.customer_id, q.contact_id, q.deal_id, $2,
           $2 + (select s.quote_validity_days from private.organization_settings s where s.organization_id = $3),
           q.currency, case when q.exchange_rate_manual then q.exchange_rate end, q.exchange_rate_manual, q.prices_include_vat,
           q.document_discount_type, q.document_discount_value, q.payment_terms, q.notes, q.owner_id, $4
      from %1$I.quotes q where q.id = $1
    returning id$query$, context.schema_name)
    into new_id using p_id, today, context.organization_id, context.caller;
  execute format('insert into %1$I.quote_items (quote_id, position, product_id, description, quantity, unit, unit_price, discount_type,
                                                discount_value, vat_rate, vat_exemption_reason, withholding_rate, owner_id, created_by)
                  select $2, i.position, i.product_id, i.description, i.quantity, i.unit, i.unit_price, i.discount_type,
                         i.discount_value, i.vat_rate, i.vat_exemption_reason, i.withholding_rate, i.owner_id, $3
                    from %1$I.quote_items i where i.quote_id = $1 and i.deleted_at is null', context.schema_name)
    using p_id, new_id, context.caller;
  -- The totals follow the copied lines; the old quote is history.
  execute format('update %1$I.quotes q set updated_at = now() where q.id = $1', context.schema_name) using new_id;
  execute format('update %1$I.quotes q set superseded_by = $2 where q.id = $1', context.schema_name) using p_id, new_id;
  execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                  values (''quote'', $1, ''superseded_by'', ''null'', to_jsonb($2), $3)', context.schema_name)
    using p_id, new_id, context.caller;
  perform private.write_audit(context.organization_id, 'quotes.create', 'quotes', new_id::text, jsonb_build_object('revision_of', p_id));
  perform private.write_audit(context.organization_id, 'quotes.revise', 'quotes', p_id::text, jsonb_build_object('revision', new_id));
  return jsonb_build_object('success', true, 'id', new_id);
end;
$$;

/**
 * The scheduled expiry (hourly: pg_cron on hosted Supabase, a timer locally): in every
 * organization, sent quotes whose valid_until is before today (in the organization's
 * time zone) become expired. Returns how many.
 */
create function private.expire_quotes()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization record;
  changed integer;
  total integer := 0;
begin
  for organization in
    select o.id, o.schema_name from private.organizations o
     where o.schema_name is not null and o.template_version > 0
  loop
    execute format('update %I.quotes q set status = ''expired'' where q.status = ''sent'' and q.deleted_at is null and q.valid_until < $1',
                   organization.schema_name)
      using private.organization_today(organization.id);
    get diagnostics changed = row_count;
    total := total + changed;
  end loop;
  return total;
end;
$$;

-- pg_cron on hosted Supabase (the local stack runs it from scripts/stack/scheduled-jobs.ts).
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    perform cron.schedule('crm-expire-quotes', '7 * * * *', 'select private.expire_quotes()');
  end if;
end
$$;

/** A product as the app reads it (money as strings). */
create function private.product_json(p_row jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('id', p_row -> 'id', 'name', p_row -> 'name', 'unit', p_row -> 'unit',
                            'unit_price', p_row ->> 'unit_price', 'currency', p_row -> 'currency',
                            'vat_rate', trim_scale((p_row ->> 'vat_rate')::numeric), 'description', p_row -> 'description',
                            'active', p_row -> 'active', 'updated_at', p_row -> 'updated_at');
$$;

/**
 * The organization's products (anyone who may view quotes): active ones unless
 * p_include_inactive, matching p_search (Turkish-folded, in the name), by name, at most 500.
 */
create function private.product_list(p_search text, p_include_inactive boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'view');
  folded text := private.fold_search(btrim(coalesce(p_search, '')));
  products jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select coalesce(jsonb_agg(private.product_json(to_jsonb(p)) order by private.fold_search(p.name), p.id), ''[]'')
                    from (select * from %I.products p
                           where p.deleted_at is null and ($1 or p.active)
                             and ($2 = '''' or private.fold_search(p.name) like ''%%'' || $2 || ''%%'')
                           order by private.fold_search(p.name), p.id limit 500) p', context.schema_name)
    into products using coalesce(p_include_inactive, false),
                        replace(replace(replace(folded, '\', '\\'), '%', '\%'), '_', '\_');
  return jsonb_build_object('success', true, 'products', products);
end;
$$;

/** The products' guard: quotes edit with scope all (admins and managers by default). */
create function private.product_context()
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('quotes', 'edit');
begin
  if context.problem is null and context.scope <> 'all' then
    context.problem := private.refusal('permission_denied');
  end if;
  return context;
end;
$$;

/**
 * Creates (p_id null) or changes a product by the rules of private.prepare_product. A
 * change needs p_updated_at as read (stale_record). Audited.
 */
create function private.product_save(p_id uuid, p_values jsonb, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.product_context();
  existing jsonb;
  prepared jsonb;
  clean jsonb;
  key text;
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if jsonb_typeof(p_values) is distinct from 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  select k into key from jsonb_object_keys(p_values) k
   where k not in ('name', 'unit', 'unit_price', 'currency', 'vat_rate', 'description', 'active') limit 1;
  if key is not null then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(left(key, 63), 'unknown_field')));
  end if;
  if p_id is not null then
    execute format('select to_jsonb(p) from %I.products p where p.id = $1 and p.deleted_at is null for update', context.schema_name)
      into existing using p_id;
    if existing is null then
      return private.failure('Record not found', 'not_found');
    end if;
    if p_updated_at is null or (existing ->> 'updated_at')::timestamptz <> p_updated_at then
      return private.failure('The record was changed by someone else', 'stale_record',
                             jsonb_build_object('record', private.product_json(existing)));
    end if;
  end if;

  prepared := private.prepare_product(p_values, existing);
  if prepared -> 'errors' <> '{}' then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', prepared -> 'errors'));
  end if;
  clean := prepared -> 'values';

  if p_id is null then
    clean := clean || jsonb_build_object('owner_id', context.caller, 'created_by', context.caller);
    execute format('insert into %1$I.products as p (%2$s) select %3$s from jsonb_populate_record(null::%1$I.products, $1) r returning to_jsonb(p)',
                   context.schema_name,
                   (select string_agg(format('%I', k), ', ') from jsonb_object_keys(clean) k),
                   (select string_agg(format('r.%I', k), ', ') from jsonb_object_keys(clean) k))
      into saved using clean;
    perform private.write_audit(context.organization_id, 'products.create', 'products', saved ->> 'id');
  elsif clean <> '{}' then
    execute format('update %1$I.products as p set (%2$s) = (select %3$s from jsonb_populate_record(null::%1$I.products, $1) r)
                     where p.id = $2 returning to_jsonb(p)',
                   context.schema_name,
                   (select string_agg(format('%I', k), ', ') from jsonb_object_keys(clean) k),
                   (select string_agg(format('r.%I', k), ', ') from jsonb_object_keys(clean) k))
      into saved using clean, p_id;
    perform private.write_audit(context.organization_id, 'products.update', 'products', p_id::text,
                                jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(clean) k)));
  else
    saved := existing;
  end if;
  return jsonb_build_object('success', true, 'product', private.product_json(saved));
end;
$$;

/** Makes a product active or inactive (inactive ones stay on old quotes but are not offered). Audited. */
create function private.product_set_active(p_id uuid, p_active boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.product_context();
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_active is null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  execute format('update %I.products p set active = $2 where p.id = $1 and p.deleted_at is null returning to_jsonb(p)', context.schema_name)
    into saved using p_id, p_active;
  if saved is null then
    return private.failure('Record not found', 'not_found');
  end if;
  perform private.write_audit(context.organization_id, case when p_active then 'products.activate' else 'products.deactivate' end,
                              'products', p_id::text);
  return jsonb_build_object('success', true, 'product', private.product_json(saved));
end;
$$;

/** Saves a quote with all its lines (p_id null creates a draft with its number; p_updated_at as read). */
create function public.save_quote(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamptz default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_save(p_id, p_values, p_items, p_updated_at); $$;
revoke all on function public.save_quote(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.save_quote(p_id uuid, p_values jsonb, p_items jsonb, p_updated_at timestamp with time zone) to authenticated;

/** A quote's totals computed by the database from a header and lines being edited; nothing stored. */
create function public.preview_quote_totals(p_values jsonb, p_items jsonb)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.quote_preview(p_values, p_items); $$;
revoke all on function public.preview_quote_totals(p_values jsonb, p_items jsonb) from public, anon, authenticated;
grant execute on function public.preview_quote_totals(p_values jsonb, p_items jsonb) to authenticated;

/** A quote with its lines, totals, customer, contact, deal and revisions. */
create function public.get_quote_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.quote_details(p_id); $$;
revoke all on function public.get_quote_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_quote_details(p_id uuid) to authenticated;

/** Sends a draft quote (its exchange rate is frozen from then on). */
create function public.send_quote(p_id uuid, p_updated_at timestamptz)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_transition(p_id, p_updated_at, '{"status": "sent"}'); $$;
revoke all on function public.send_quote(p_id uuid, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.send_quote(p_id uuid, p_updated_at timestamp with time zone) to authenticated;

/** Accepts a sent quote; with p_mark_deal_won its deal moves to the won stage too (or nothing changes). */
create function public.accept_quote(p_id uuid, p_updated_at timestamptz, p_mark_deal_won boolean default false)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_accept(p_id, p_updated_at, p_mark_deal_won); $$;
revoke all on function public.accept_quote(p_id uuid, p_updated_at timestamp with time zone, p_mark_deal_won boolean) from public, anon, authenticated;
grant execute on function public.accept_quote(p_id uuid, p_updated_at timestamp with time zone, p_mark_deal_won boolean) to authenticated;

/** Rejects a sent quote with a reason. */
create function public.reject_quote(p_id uuid, p_updated_at timestamptz, p_reason text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_transition(p_id, p_updated_at, jsonb_build_object('status', 'rejected', 'rejection_reason', p_reason)); $$;
revoke all on function public.reject_quote(p_id uuid, p_updated_at timestamp with time zone, p_reason text) from public, anon, authenticated;
grant execute on function public.reject_quote(p_id uuid, p_updated_at timestamp with time zone, p_reason text) to authenticated;

/** A new draft revision of a sent, rejected or expired quote; the old one stays as history. */
create function public.revise_quote(p_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.quote_revise(p_id); $$;
revoke all on function public.revise_quote(p_id uuid) from public, anon, authenticated;
grant execute on function public.revise_quote(p_id uuid) to authenticated;

/** The organization's products for quote lines (active ones unless p_include_inactive). */
create function public.list_products(p_search text default null, p_include_inactive boolean default false)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.product_list(p_search, p_include_inactive); $$;
revoke all on function public.list_products(p_search text, p_include_inactive boolean) from public, anon, authenticated;
grant execute on function public.list_products(p_search text, p_include_inactive boolean) to authenticated;

/** Creates (p_id null) or changes a product (p_updated_at as read). */
create function public.save_product(p_id uuid, p_values jsonb, p_updated_at timestamptz default null)
returns jsonb language sql security definer set search_path = ''
as $$ select private.product_save(p_id, p_values, p_updated_at); $$;
revoke all on function public.save_product(p_id uuid, p_values jsonb, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.save_product(p_id uuid, p_values jsonb, p_updated_at timestamp with time zone) to authenticated;

/** Makes a product active or inactive. */
create function public.set_product_active(p_id uuid, p_active boolean)
returns jsonb language sql security definer set search_path = ''
as $$ select private.product_set_active(p_id, p_active); $$;
revoke all on function public.set_product_active(p_id uuid, p_active boolean) from public, anon, authenticated;
grant execute on function public.set_product_active(p_id uuid, p_active boolean) to authenticated;

/**
 * A product's rules: name (1-200, required on a new product), unit (20), unit_price ≥ 0
 * (4 decimals), currency (three letters, the organization's by default), vat_rate one of
 * the quote rates (invalid_vat_rate), description (2000), active (a boolean). Returns
 * {"values": the cleaned values given, "errors": {field: code}}; other keys are dropped.
 */
create function private.prepare_product(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  texts jsonb := private.clean_text_fields(p_values, '{name,unit,currency,description}');
  errors jsonb := texts -> 'errors';
  clean jsonb := texts -> 'values';
  number_value numeric;
begin
  if (p_existing is null or p_values ? 'name') and not errors ? 'name' then
    if clean ->> 'name' is null then
      errors := errors || '{"name": "required"}';
    elsif char_length(clean ->> 'name') > 200 then
      errors := errors || '{"name": "too_long"}';
    end if;
  end if;
  if char_length(clean ->> 'unit') > 20 then
    errors := errors || '{"unit": "too_long"}';
  end if;
  if char_length(clean ->> 'description') > 2000 then
    errors := errors || '{"description": "too_long"}';
  end if;
  if p_values ? 'currency' and not errors ? 'currency' then
    if coalesce(upper(clean ->> 'currency'), '') !~ '^[A-Z]{3}$' then
      errors := errors || '{"currency": "invalid"}';
    else
      clean := clean || jsonb_build_object('currency', upper(clean ->> 'currency'));
    end if;
  elsif p_existing is null then
    clean := clean || jsonb_build_object('currency', (select s.default_currency from private.organization_settings s
                                                       where s.organization_id = target_org));
  end if;
  if p_values ? 'unit_price' then
    number_value := private.json_numeric(p_values -> 'unit_price');
    if number_value is null or number_value < 0 or number_value >= 1000000000000 or scale(number_value) > 4 then
      errors := errors || '{"unit_price": "invalid"}';
    else
      clean := clean || jsonb_build_object('unit_price', number_value);
    end if;
  end if;
  if p_values ? 'vat_rate' then
    number_value := private.json_numeric(p_values -> 'vat_rate');
    if number_value is null or not (number_value = any (private.quote_vat_rates(target_org))) then
      errors := errors || '{"vat_rate": "invalid_vat_rate"}';
    else
      clean := clean || jsonb_build_object('vat_rate', number_value);
    end if;
  end if;
  if p_values ? 'active' then
    if jsonb_typeof(p_values -> 'active') <> 'boolean' then
      errors := errors || '{"active": "invalid"}';
    else
      clean := clean || jsonb_build_object('active', p_values -> 'active');
    end if;
  end if;
  return jsonb_build_object('values', clean, 'errors', errors);
end;
$$;

-- Contracts: numbers, terms, status and its workflow (renew, terminate), the due steps
-- (notice, expiry, auto-renewal), and a contract from an accepted quote.

-- An enum rather than text with a check: the record engine sorts it in workflow order.
create type private.contract_status as enum ('draft', 'active', 'expired', 'terminated', 'renewed');

comment on type private.contract_status is 'A contract''s state, in workflow order.';

/** The contract types, as stored keys (the app names them: hizmet, satış, bakım, lisans, gizlilik, diğer). */
create function private.contract_types()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['service', 'sales', 'maintenance', 'license', 'nda', 'other'];
$$;

/**
 * Trigger (before insert on contracts): a contract written without a number
 * gets the next one of its organization's contract_number_pattern for today in the
 * organization's time zone (private.next_document_number: gapless, and a rolled-back
 * insert gives its number back). A schema no organization owns gets none.
 */
create function private.contract_fill_number()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  settings private.organization_settings;
begin
  if new.contract_number is null then
    select s.* into settings
      from private.organizations o join private.organization_settings s on s.organization_id = o.id
     where o.schema_name = tg_table_schema;
    if settings.organization_id is not null then
      new.contract_number := private.next_document_number(settings.organization_id, 'contract',
        settings.contract_number_pattern, private.organization_today(settings.organization_id));
    end if;
  end if;
  return new;
end;
$$;

/**
 * A contract's rules: a title (at most 300 characters); a type among
 * private.contract_types(); the dates as 'YYYY-MM-DD' (invalid), the end not before the
 * start (end_before_start); a value of at least 0 with at most two decimals, as a number
 * or a numeric string (invalid); a three-letter currency, the organization's by default;
 * auto_renew a boolean; renewal_notice_days 0-365 and renewal_term_months 1-120 whole
 * numbers; customer, contact, quote and deal the caller can see (not_found). Status: a new
 * contract is draft or active; through the engine a contract only goes draft -> active
 * (invalid_transition: terminate_contract, renew_contract and the scheduled step make the
 * other moves). An active contract has both dates (required_for_active). A terminated or
 * renewed contract is history: no change (status: locked). A new end date or notice
 * period lets the renewal notice go out again. Returns {"values", "errors"}.
 */
create function private.prepare_contract(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  related uuid;
  amount numeric;
  whole numeric;
  old_status text := p_existing ->> 'status';
  new_status text;
  start_on date;
  end_on date;
begin
  if old_status in ('terminated', 'renewed') then
    return jsonb_build_object('values', result, 'errors', '{"status": "locked"}'::jsonb);
  end if;

  -- Free-text fields: strings only, trimmed, empty as null.
  foreach field in array array['title', 'contract_type', 'currency', 'status', 'notes'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.clean_text(p_values -> field));
      end if;
    end if;
  end loop;

  if (p_existing is null or p_values ? 'title') and not errors ? 'title' then
    if result ->> 'title' is null then
      errors := errors || '{"title": "required"}';
    elsif char_length(result ->> 'title') > 300 then
      errors := errors || '{"title": "too_long"}';
    end if;
  end if;
  if char_length(result ->> 'notes') > 10000 then
    errors := errors || '{"notes": "too_long"}';
  end if;

  if p_values ? 'contract_type' and not errors ? 'contract_type' then
    if result ->> 'contract_type' is null then
      errors := errors || '{"contract_type": "required"}';
    elsif not (result ->> 'contract_type' = any (private.contract_types())) then
      errors := errors || '{"contract_type": "invalid"}';
    end if;
  end if;

  -- Currency: three letters, the organization's when a new contract names none.
  if p_values ? 'currency' and not errors ? 'currency' then
    if result ->> 'currency' is null then
      if p_existing is null then
        result := result || jsonb_build_object('currency', private.organization_currency());
      else
        errors := errors || '{"currency": "required"}';
      end if;
    elsif upper(result ->> 'currency') !~ '^[A-Z]{3}$' then
      errors := errors || '{"currency": "invalid"}';
    else
      result := result || jsonb_build_object('currency', upper(result ->> 'currency'));
    end if;
  elsif p_existing is null then
    result := result || jsonb_build_object('currency', private.organization_currency());
  end if;

  -- Value: a number (or a numeric string, kept exact) from 0, to the kuruş; null is 0.
  if p_values ? 'value' then
    if jsonb_typeof(p_values -> 'value') = 'null' then
      result := result || '{"value": 0}';
    elsif jsonb_typeof(p_values -> 'value') not in ('number', 'string')
          or btrim(p_values ->> 'value') !~ '^\d{1,16}(\.\d{1,2})?$' then
      errors := errors || '{"value": "invalid"}';
    else
      amount := btrim(p_values ->> 'value')::numeric;
      result := result || jsonb_build_object('value', amount);
    end if;
  end if;

  -- Dates: 'YYYY-MM-DD' or null (an empty string clears).
  foreach field in array array['start_date', 'end_date', 'customer_signed_on', 'company_signed_on'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      elsif private.try_calendar_date(p_values -> field) is null then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, private.try_calendar_date(p_values -> field));
      end if;
    end if;
  end loop;
  start_on := case when errors ? 'start_date' then null when p_values ? 'start_date' then (result ->> 'start_date')::date
                   else (p_existing ->> 'start_date')::date end;
  end_on := case when errors ? 'end_date' then null when p_values ? 'end_date' then (result ->> 'end_date')::date
                 else (p_existing ->> 'end_date')::date end;
  if not (errors ? 'start_date' or errors ? 'end_date') and end_on < start_on then
    errors := errors || '{"end_date": "end_before_start"}';
  end if;

  if p_values ? 'auto_renew' then
    if jsonb_typeof(p_values -> 'auto_renew') <> 'boolean' then
      errors := errors || '{"auto_renew": "invalid"}';
    end if;
  end if;
  foreach field in array array['renewal_notice_days', 'renewal_term_months'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) <> 'number' then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        whole := (p_values ->> field)::numeric;
        if whole <> trunc(whole) or (field = 'renewal_notice_days' and whole not between 0 and 365)
           or (field = 'renewal_term_months' and whole not between 1 and 120) then
          errors := errors || jsonb_build_object(field, 'invalid');
        else
          result := result || jsonb_build_object(field, whole::integer);
        end if;
      end if;
    end if;
  end loop;

  -- Status: new contracts are draft or active; through the engine only draft -> active.
  new_status := coalesce(case when p_values ? 'status' and not errors ? 'status' then result ->> 'status' end, old_status, 'draft');
  if p_values ? 'status' and not errors ? 'status' then
    if not (new_status = any (enum_range(null::private.contract_status)::text[])) then
      errors := errors || '{"status": "invalid"}';
    elsif new_status = old_status then
      result := result - 'status';
    elsif new_status not in ('draft', 'active') or (old_status is not null and not (old_status = 'draft' and new_status = 'active')) then
      errors := errors || '{"status": "invalid_transition"}';
    else
      result := result || jsonb_build_object('status', new_status);
    end if;
  end if;
  if new_status = 'active' and not (errors ? 'start_date' or errors ? 'end_date') then
    if start_on is null then
      errors := errors || '{"start_date": "required_for_active"}';
    end if;
    if end_on is null then
      errors := errors || '{"end_date": "required_for_active"}';
    end if;
  end if;

  if p_existing is not null
     and ((p_values ? 'end_date' and end_on is distinct from (p_existing ->> 'end_date')::date)
          or (p_values ? 'renewal_notice_days' and result -> 'renewal_notice_days' is distinct from p_existing -> 'renewal_notice_days')) then
    result := result || '{"renewal_notified_at": null}';
  end if;

  -- Linked records: the caller must be able to see them in this organization.
  foreach field in array array['customer_id', 'contact_id', 'quote_id', 'deal_id'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) = 'null'
         or (jsonb_typeof(p_values -> field) = 'string' and private.clean_text(p_values -> field) is null) then
        result := result || jsonb_build_object(field, null);
      else
        related := private.try_uuid(p_values -> field);
        if related is null then
          errors := errors || jsonb_build_object(field, 'not_found');
        elsif related::text is distinct from p_existing ->> field
              and not private.record_visible(case field when 'customer_id' then 'customers' when 'contact_id' then 'contacts'
                                                        when 'quote_id' then 'quotes' else 'deals' end, related) then
          errors := errors || jsonb_build_object(field, 'not_found');
        else
          result := result || jsonb_build_object(field, related);
        end if;
      end if;
    end if;
  end loop;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The registry row
-- ---------------------------------------------------------------------------------
select private.register_module(
  p_key => 'contracts', p_position => 5, p_table_name => 'contracts', p_entity_type => 'contract',
  p_writable_columns => '{title,customer_id,contact_id,quote_id,deal_id,contract_type,start_date,end_date,value,currency,status,customer_signed_on,company_signed_on,auto_renew,renewal_notice_days,renewal_term_months,notes}',
  p_list_columns => '{contract_number,title,customer_id,contract_type,status,start_date,end_date,value,currency,auto_renew,previous_contract_id}',
  p_sortable_columns => '{contract_number,title,status,start_date,end_date,value,created_at,updated_at}',
  p_filterable_columns => '{status,contract_type,customer_id,contact_id,quote_id,deal_id,currency,auto_renew,start_date,end_date}',
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_prepare_function => 'prepare_contract', p_transfer_kind => 'contracts', p_transfer_default => false,
  p_document_link => 'contract_id');

/**
 * Applies a state change to one contract row (already locked by the caller): the changes
 * are written, each changed field goes to the field history (by p_actor; null for the
 * scheduled step) and the change to the audit log as p_action. Returns the new row.
 */
create function private.contract_apply(p_organization_id uuid, p_schema text, p_existing jsonb, p_changes jsonb,
                                       p_actor uuid, p_action text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  columns text[] := array(select k from jsonb_object_keys(p_changes) k order by k);
  changed jsonb;
begin
  execute format('update %1$I.contracts as t set (%2$s) = (select %3$s from jsonb_populate_record(null::%1$I.contracts, $1) r)
                   where t.id = $2 returning to_jsonb(t)',
                 p_schema,
                 (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                 (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
    into changed using p_changes, (p_existing ->> 'id')::uuid;
  execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                  select ''contract'', $1, c, $2 -> c, $3 -> c, $4 from unnest($5::text[]) c where ($2 -> c) is distinct from ($3 -> c)',
                 p_schema)
    using (p_existing ->> 'id')::uuid, p_existing, changed, p_actor, columns;
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  values (p_organization_id, p_actor, p_action, 'contracts', p_existing ->> 'id',
          jsonb_build_object('fields', to_jsonb(columns)));
  return changed;
end;
$$;

/**
 * The next term of an active contract (locked by the caller): a new active contract with
 * the same title, parties (customer, contact), deal, type, value, currency and renewal
 * settings, a new number, from the day after the old end for renewal_term_months months
 * (end = start + months - 1 day), owned by the same member, previous_contract_id set;
 * the old one becomes renewed. p_actor null: the scheduled step (created_by: the owner).
 * Returns the new contract's id.
 */
create function private.contract_renew_row(p_organization_id uuid, p_schema text, p_existing jsonb, p_actor uuid)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  next_id uuid;
  starts date := (p_existing ->> 'end_date')::date + 1;
begin
  execute format($insert$
    insert into %I.contracts (title, customer_id, contact_id, deal_id, contract_type, start_date, end_date, value, currency,
                              status, auto_renew, renewal_notice_days, renewal_term_months, previous_contract_id,
                              owner_id, created_by)
    select o.title, o.customer_id, o.contact_id, o.deal_id, o.contract_type, $2,
           ($2 + make_interval(months => o.renewal_term_months) - interval '1 day')::date, o.value, o.currency,
           'active', o.auto_renew, o.renewal_notice_days, o.renewal_term_months, o.id, o.owner_id, coalesce($3, o.owner_id)
      from %I.contracts o where o.id = $1
    returning id$insert$, p_schema, p_schema)
    into next_id using (p_existing ->> 'id')::uuid, starts, p_actor;
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  values (p_organization_id, p_actor, 'contracts.create', 'contracts', next_id::text,
          jsonb_build_object('renews', p_existing ->> 'id'));
  perform private.contract_apply(p_organization_id, p_schema, p_existing, '{"status": "renewed"}', p_actor, 'contracts.renew');
  return next_id;
end;
$$;

/**
 * Locks a contract the caller may edit and checks the read it was based on: {"row"} or,
 * in "problem", not_found or stale_record (with the current record).
 */
create function private.contract_lock(p_context private.module_context, p_id uuid, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing jsonb;
begin
  execute format('select to_jsonb(t) from %I.contracts t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 p_context.schema_name)
    into existing using p_id, p_context.scope, p_context.caller;
  if existing is null then
    return jsonb_build_object('problem', private.failure('Record not found', 'not_found'));
  end if;
  if p_updated_at is null or (existing ->> 'updated_at')::timestamptz <> p_updated_at then
    return jsonb_build_object('problem', private.failure('The record was changed by someone else', 'stale_record',
                                                         jsonb_build_object('record', private.record_json(existing))));
  end if;
  return jsonb_build_object('row', existing);
end;
$$;

/**
 * Renews an active contract the caller may edit (and who may create contracts), read at
 * p_updated_at: the next term starts the day after its end (private.contract_renew_row).
 * Refused for a draft, expired or terminated contract (not_renewable) and for one already
 * renewed (already_renewed). {success, id, contract_number}.
 */
create function private.contract_renew(p_id uuid, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'edit');
  locked jsonb;
  next_id uuid;
  next_number text;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if private.caller_scope('contracts', 'create') is null then
    return private.refusal('permission_denied');
  end if;
  locked := private.contract_lock(context, p_id, p_updated_at);
  if locked ? 'problem' then
    return locked -> 'problem';
  end if;
  if locked #>> '{row,status}' = 'renewed' then
    return private.failure('The contract was already renewed', 'already_renewed');
  end if;
  if locked #>> '{row,status}' <> 'active' then
    return private.failure('Only an active contract can be renewed', 'not_renewable');
  end if;
  next_id := private.contract_renew_row(context.organization_id, context.schema_name, locked -> 'row', context.caller);
  execute format('select contract_number from %I.contracts where id = $1', context.schema_name) into next_number using next_id;
  return jsonb_build_object('success', true, 'id', next_id, 'contract_number', next_number);
end;
$$;

/**
 * Terminates a draft or active contract the caller may edit, read at p_updated_at, with a
 * reason (1-1,000 characters; reason_required): status terminated, terminated_at now.
 * Refused for one already expired, terminated or renewed (not_terminable). {success, record}.
 */
create function private.contract_terminate(p_id uuid, p_updated_at timestamptz, p_reason text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'edit');
  locked jsonb;
  reason text := nullif(btrim(coalesce(p_reason, '')), '');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  locked := private.contract_lock(context, p_id, p_updated_at);
  if locked ? 'problem' then
    return locked -> 'problem';
  end if;
  if locked #>> '{row,status}' not in ('draft', 'active') then
    return private.failure('Only a draft or active contract can be terminated', 'not_terminable');
  end if;
  if reason is null or char_length(reason) > 1000 then
    return private.failure('Invalid fields', 'invalid_fields',
      jsonb_build_object('fields', jsonb_build_object('termination_reason', case when reason is null then 'required' else 'too_long' end)));
  end if;
  return jsonb_build_object('success', true, 'record', private.record_json(private.contract_apply(
    context.organization_id, context.schema_name, locked -> 'row',
    jsonb_build_object('status', 'terminated', 'terminated_at', now(), 'termination_reason', reason),
    context.caller, 'contracts.terminate')));
end;
$$;

/**
 * The scheduled step (pg_cron hourly on hosted Supabase, a timer on the local stack), in
 * every active organization with its tables, by the organization's own calendar day:
 * active contracts whose notice date (end_date - renewal_notice_days) has come tell their
 * owner once (contract_renewal; the bookkeeping column is set in the same statement, so
 * concurrent runs cannot repeat one); active contracts whose end date has passed renew
 * themselves when auto_renew is set (the next term, as renew_contract makes it, again
 * while that term has passed too) and expire otherwise. Returns the counts of each.
 */
create function private.contract_due_steps()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  organization record;
  today date;
  made integer;
  due jsonb;
  notified integer := 0;
  expired integer := 0;
  renewed integer := 0;
begin
  for organization in
    select o.id, o.schema_name from private.organizations o
     where o.is_active and o.template_version > 0
       and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name)
     order by o.created_at, o.id
  loop
    today := private.organization_today(organization.id);
    execute format($query$
      with announced as (
        update %I.contracts t set renewal_notified_at = now()
         where t.status = 'active' and t.deleted_at is null and t.renewal_notified_at is null
           and t.end_date - t.renewal_notice_days <= $2 and t.end_date >= $2
        returning t.id, t.owner_id, t.title, t.contract_number)
      select count(private.notify($1, a.owner_id, 'contract_renewal', 'contracts', a.id,
                                  concat_ws(' ', a.contract_number, a.title), null)) from announced a$query$,
      organization.schema_name)
      into made using organization.id, today;
    notified := notified + made;

    -- Past their end: renew (auto_renew) or expire; a renewed term past its end too goes round again.
    loop
      execute format('select to_jsonb(t) from %I.contracts t
                       where t.status = ''active'' and t.deleted_at is null and t.end_date < $1
                       order by t.end_date, t.id limit 1 for update skip locked', organization.schema_name)
        into due using today;
      exit when due is null;
      if (due ->> 'auto_renew')::boolean then
        perform private.contract_renew_row(organization.id, organization.schema_name, due, null);
        renewed := renewed + 1;
      else
        perform private.contract_apply(organization.id, organization.schema_name, due, '{"status": "expired"}', null,
                                       'contracts.expire');
        expired := expired + 1;
      end if;
    end loop;
  end loop;
  return jsonb_build_object('contract_renewal', notified, 'expired', expired, 'renewed', renewed);
end;
$$;

-- pg_cron on hosted Supabase (the local stack runs it from scripts/stack/scheduled-jobs.ts).
do $$
begin
  if exists (select 1 from pg_catalog.pg_extension where extname = 'pg_cron') then
    perform cron.schedule('crm-contract-due-steps', '7 * * * *', 'select private.contract_due_steps()');
  end if;
end
$$;

/**
 * A contract the caller may see with what its page shows: the record (owner_name, locked:
 * terminated or renewed; value as a decimal string, exact whatever its size), its customer {id, name}, contact {id, name, email, phone}, quote
 * {id, quote_number} and deal {id, title} when the caller may see them (else null), and
 * the renewal chain: previous {id, contract_number, status, start_date, end_date} (the
 * term it renews) and next (the term that renews it), when the caller may see them.
 */
create function private.contract_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get('contracts', p_id);
  context private.module_context;
  contract jsonb;
  customer jsonb;
  contact jsonb;
  quote jsonb;
  deal jsonb;
  previous jsonb;
  next_term jsonb;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context('contracts', 'view');
  contract := found_record -> 'record';
  if private.record_visible('customers', (contract ->> 'customer_id')::uuid) then
    execute format('select jsonb_build_object(''id'', c.id, ''name'', c.name, ''tax_number'', c.tax_number, ''tax_office'', c.tax_office,
                                              ''address'', c.address, ''city'', c.city, ''district'', c.district)
                      from %I.customers c where c.id = $1', context.schema_name)
      into customer using (contract ->> 'customer_id')::uuid;
  end if;
  if private.record_visible('contacts', (contract ->> 'contact_id')::uuid) then
    execute format('select jsonb_build_object(''id'', c.id, ''name'', btrim(concat_ws('' '', c.first_name, c.last_name)),
                                              ''email'', c.emails #>> ''{0,value}'', ''phone'', c.phones #>> ''{0,value}'')
                      from %I.contacts c where c.id = $1', context.schema_name)
      into contact using (contract ->> 'contact_id')::uuid;
  end if;
  if private.record_visible('quotes', (contract ->> 'quote_id')::uuid) then
    execute format('select jsonb_build_object(''id'', q.id, ''quote_number'', q.quote_number) from %I.quotes q where q.id = $1',
                   context.schema_name)
      into quote using (contract ->> 'quote_id')::uuid;
  end if;
  if private.record_visible('deals', (contract ->> 'deal_id')::uuid) then
    execute format('select jsonb_build_object(''id'', d.id, ''title'', d.title) from %I.deals d where d.id = $1', context.schema_name)
      into deal using (contract ->> 'deal_id')::uuid;
  end if;
  execute format($query$
    select (select jsonb_build_object('id', t.id, 'contract_number', t.contract_number, 'status', t.status,
                                      'start_date', t.start_date, 'end_date', t.end_date)
              from %1$I.contracts t
             where t.id = $1 and t.deleted_at is null and ($3 = 'all' or t.owner_id = $4)),
           (select jsonb_build_object('id', t.id, 'contract_number', t.contract_number, 'status', t.status,
                                      'start_date', t.start_date, 'end_date', t.end_date)
              from %1$I.contracts t
             where t.previous_contract_id = $2 and t.deleted_at is null and ($3 = 'all' or t.owner_id = $4))$query$,
    context.schema_name)
    into previous, next_term using (contract ->> 'previous_contract_id')::uuid, p_id, context.scope, context.caller;
  return jsonb_build_object('success', true,
    'contract', contract || jsonb_build_object('locked', contract ->> 'status' in ('terminated', 'renewed'),
                                               'value', contract ->> 'value'),
    'customer', customer, 'contact', contact, 'quote', quote, 'deal', deal, 'previous', previous, 'next', next_term);
end;
$$;

/**
 * Active contracts the caller may see whose end date falls within p_days (1-365) of
 * today in the organization's time zone (or has passed while the scheduled step has not
 * yet run), soonest first, at most 200: {success, today, contracts: [{id,
 * contract_number, title, customer_id, customer_name, contract_type, status, start_date,
 * end_date, value (a decimal string), currency, auto_renew, renewal_notice_days, notice_date, days_left,
 * owner_id, owner_name, updated_at}]}.
 */
create function private.contracts_ending(p_days integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'view');
  today date;
  contracts jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if coalesce(p_days, 60) not between 1 and 365 then
    return private.failure('Invalid list request', 'invalid_input');
  end if;
  today := private.organization_today(context.organization_id);
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', t.id, 'contract_number', t.contract_number, 'title', t.title, 'customer_id', t.customer_id,
             'customer_name', case when cu.deleted_at is null and ($5 = 'all' or ($5 = 'own' and cu.owner_id = $2)) then cu.name end,
             'contract_type', t.contract_type, 'status', t.status, 'start_date', t.start_date, 'end_date', t.end_date,
             'value', t.value::text, 'currency', t.currency, 'auto_renew', t.auto_renew,
             'renewal_notice_days', t.renewal_notice_days, 'notice_date', t.end_date - t.renewal_notice_days,
             'days_left', t.end_date - $3, 'owner_id', t.owner_id,
             'owner_name', nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''), 'updated_at', t.updated_at)
             order by t.end_date, t.id), '[]')
      from (select * from %1$I.contracts c
             where c.status = 'active' and c.deleted_at is null and c.end_date <= $4 and ($1 = 'all' or c.owner_id = $2)
             order by c.end_date, c.id limit 200) t
      left join %1$I.customers cu on cu.id = t.customer_id
      left join private.profiles p on p.id = t.owner_id$query$, context.schema_name)
    into contracts
    using context.scope, context.caller, today, today + coalesce(p_days, 60), private.caller_scope('customers', 'view');
  return jsonb_build_object('success', true, 'today', today, 'contracts', contracts);
end;
$$;

/**
 * A draft contract from a sent (not yet past valid_until) or accepted quote the caller
 * may see (quote_not_ready otherwise), created through the engine (contracts create permission, the contract's
 * rules, audit): the quote's customer, contact, deal and link, value = its grand total,
 * its currency, titled after the quote's number. {success, id, record}.
 */
create function private.contract_from_quote(p_quote_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contracts', 'create');
  quote jsonb;
  created jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if not private.record_visible('quotes', p_quote_id) then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('select to_jsonb(q) from %I.quotes q where q.id = $1', context.schema_name) into quote using p_quote_id;
  -- As people read it (private.quote_status): a sent quote past valid_until is expired.
  if private.quote_status(quote ->> 'status', (quote ->> 'valid_until')::date, private.organization_today(context.organization_id))
     not in ('sent', 'accepted') then
    return private.failure('Only a sent or accepted quote becomes a contract', 'quote_not_ready');
  end if;
  created := private.record_create('contracts', jsonb_build_object(
    'title', format('%s sözleşmesi', coalesce(quote ->> 'quote_number', 'Teklif')),
    'customer_id', quote -> 'customer_id', 'contact_id', quote -> 'contact_id', 'deal_id', quote -> 'deal_id',
    'quote_id', quote -> 'id', 'value', quote ->> 'grand_total', 'currency', quote -> 'currency', 'status', 'draft'));
  if not (created ->> 'success')::boolean then
    return created;
  end if;
  return jsonb_build_object('success', true, 'id', created #>> '{record,id}', 'record', created -> 'record');
end;
$$;

/** A contract with its customer, contact, quote, deal and renewal chain (previous and next term). */
create function public.get_contract_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.contract_details(p_id); $$;
revoke all on function public.get_contract_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_contract_details(p_id uuid) to authenticated;

/** Renews an active contract read at p_updated_at: the next term, linked to it; the old one becomes renewed. */
create function public.renew_contract(p_id uuid, p_updated_at timestamptz)
returns jsonb language sql security definer set search_path = ''
as $$ select private.contract_renew(p_id, p_updated_at); $$;
revoke all on function public.renew_contract(p_id uuid, p_updated_at timestamp with time zone) from public, anon, authenticated;
grant execute on function public.renew_contract(p_id uuid, p_updated_at timestamp with time zone) to authenticated;

/** Terminates a draft or active contract read at p_updated_at, with a reason. */
create function public.terminate_contract(p_id uuid, p_updated_at timestamptz, p_reason text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.contract_terminate(p_id, p_updated_at, p_reason); $$;
revoke all on function public.terminate_contract(p_id uuid, p_updated_at timestamp with time zone, p_reason text) from public, anon, authenticated;
grant execute on function public.terminate_contract(p_id uuid, p_updated_at timestamp with time zone, p_reason text) to authenticated;

/** Active contracts ending within p_days days (1-365), soonest first. */
create function public.list_contracts_ending(p_days integer default 60)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.contracts_ending(p_days); $$;
revoke all on function public.list_contracts_ending(p_days integer) from public, anon, authenticated;
grant execute on function public.list_contracts_ending(p_days integer) to authenticated;

/** A draft contract from a sent or accepted quote (customer, contact, deal, value = grand total, currency). */
create function public.create_contract_from_quote(p_quote_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.contract_from_quote(p_quote_id); $$;
revoke all on function public.create_contract_from_quote(p_quote_id uuid) from public, anon, authenticated;
grant execute on function public.create_contract_from_quote(p_quote_id uuid) to authenticated;

-- Documents and Storage: the documents bucket, quotas, upload reservations, document
-- rules and details, and signed downloads.

-- ---------------------------------------------------------------------------------
-- Quota and upload reservations (control data)
-- ---------------------------------------------------------------------------------
create table private.document_quotas (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  quota_bytes bigint not null default 1073741824 check (quota_bytes >= 0),
  used_bytes bigint not null default 0 check (used_bytes >= 0)
);

alter table private.document_quotas enable row level security;

comment on table private.document_quotas is
  'Each organization''s document storage: the quota (1 GiB unless set) and the bytes its stored versions use, kept exact by the upload.';

create table private.document_uploads (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references private.organizations (id) on delete cascade,
  user_id uuid not null,
  document_id uuid not null,
  -- True when finishing creates the document (false: a version of an existing one).
  is_new boolean not null,
  version integer not null check (version >= 1),
  object_path text not null unique,
  title text,
  link_module text,
  link_id uuid,
  file_name text not null,
  size_bytes bigint not null,
  mime_type text not null,
  sha256 text not null,
  created_at timestamptz not null default now()
);

create index document_uploads_user_idx on private.document_uploads (user_id);

create index document_uploads_created_idx on private.document_uploads (created_at);

alter table private.document_uploads enable row level security;

comment on table private.document_uploads is
  'Uploads under way: the path begin_document_upload reserved and what finish_document_upload will record.';

/** The largest file a document version may hold: 25 MiB (the bucket and the Edge Function say the same). */
create function private.document_max_bytes()
returns bigint
language sql
immutable
set search_path = ''
as $$ select 26214400::bigint; $$;

/** The file types a document may have (the Edge Function decides the type from the file's first bytes). */
create function private.document_mime_types()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp',
               'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
               'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
               'application/vnd.openxmlformats-officedocument.presentationml.presentation',
               'application/msword', 'application/vnd.ms-excel', 'application/x-cfb', 'application/zip',
               'text/plain', 'text/csv'];
$$;

/**
 * The column of the documents table that links a document to a record of the module (its
 * registry row's document_link), or null when documents cannot belong to its records.
 */
create function private.document_link_column(p_module text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.document_link from private.modules m where m.key = p_module;
$$;

/** A file name as it is kept and offered for download: its last path part, no control characters, at most 255 characters; null when nothing is left. */
create function private.clean_file_name(p_name text)
returns text
language sql
immutable
set search_path = ''
as $$
  select nullif(left(btrim(regexp_replace(regexp_replace(coalesce(p_name, ''), '^.*[/\\]', ''),
                                          '[[:cntrl:]]', '', 'g')), 255), '');
$$;

/**
 * The documents module's rules for the record engine: the title is 1 to 300 characters
 * (required on create; a document created so has no file until its first upload), and a
 * document links to at most one record through the registry's document links (setting one
 * clears the others). The file columns are written only by an upload.
 */
create function private.prepare_document(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  prepared jsonb := p_values;
  errors jsonb := '{}';
  links text[] := array(select m.document_link from private.modules m where m.document_link is not null order by m.position);
  set_links text[];
  link text;
begin
  if p_existing is null and not p_values ? 'title' then
    errors := errors || '{"title": "required"}';
  end if;
  if p_values ? 'title' then
    if jsonb_typeof(p_values -> 'title') <> 'string' or private.clean_text(p_values -> 'title') is null then
      errors := errors || '{"title": "required"}';
    elsif char_length(private.clean_text(p_values -> 'title')) > 300 then
      errors := errors || '{"title": "too_long"}';
    else
      prepared := prepared || jsonb_build_object('title', private.clean_text(p_values -> 'title'));
    end if;
  end if;
  set_links := array(select l from unnest(links) l where p_values ? l and jsonb_typeof(p_values -> l) <> 'null');
  if cardinality(set_links) > 1 then
    errors := errors || jsonb_build_object(set_links[2], 'one_link_only');
  elsif cardinality(set_links) = 1 then
    foreach link in array links loop
      if link <> set_links[1] then
        prepared := prepared || jsonb_build_object(link, null);
      end if;
    end loop;
  end if;
  return jsonb_build_object('values', prepared, 'errors', errors);
end;
$$;

-- The link columns (customer_id, contact_id, …) join the columns below as the modules'
-- registrations name them (their document_link).
select private.register_module(
  p_key => 'documents', p_position => 6, p_table_name => 'documents', p_entity_type => 'document',
  p_writable_columns => '{title}',
  p_list_columns => '{title,file_name,mime_type,size_bytes,current_version}',
  p_sortable_columns => '{title,size_bytes,created_at,updated_at}',
  p_filterable_columns => '{mime_type}',
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_prepare_function => 'prepare_document');

/**
 * Documents as lists show them (the engine's record answer plus uploaded_by_name and
 * uploaded_at of the current version), by an SQL condition over `d` with $1 scope, $2
 * caller, $3 and $4 free parameters; newest change first.
 */
create function private.documents_json(p_schema text, p_condition text, p_scope text, p_caller uuid, p_first uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_rows jsonb;
begin
  execute format($query$
    select coalesce(jsonb_agg(private.record_json(to_jsonb(d))
                              || jsonb_build_object('uploaded_by_name', private.profile_name(v.uploaded_by),
                                                    'uploaded_at', v.uploaded_at)
                              order by d.updated_at desc, d.id desc), '[]')
      from %1$I.documents d
      left join %1$I.document_versions v on v.document_id = d.id and v.version = d.current_version
     where d.deleted_at is null and ($1 = 'all' or d.owner_id = $2) and %2$s$query$, p_schema, p_condition)
    into found_rows using p_scope, p_caller, p_first;
  return found_rows;
end;
$$;

/**
 * The documents linked to one record the caller may see (of a module documents can belong
 * to: its registry row's document_link), those the caller may see among documents, newest
 * change first; invalid_input for a module documents cannot belong to.
 */
create function private.record_documents(p_module text, p_record_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents', 'view');
  link text := private.document_link_column(p_module);
  found_record jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if link is null or p_record_id is null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  found_record := private.record_get(p_module, p_record_id);
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  return jsonb_build_object('success', true, 'documents',
    private.documents_json(context.schema_name, format('d.%I = $3', link), context.scope, context.caller, p_record_id));
end;
$$;

/**
 * One document the caller may see with its versions, newest first: {document, versions:
 * [{version, file_name, size_bytes, mime_type, sha256, uploaded_by, uploaded_by_name,
 * uploaded_at, object_path}]}. Another organization's id is simply not found.
 */
create function private.document_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents', 'view');
  found_document jsonb;
  versions jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  found_document := private.documents_json(context.schema_name, 'd.id = $3', context.scope, context.caller, p_id) -> 0;
  if found_document is null then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('version', v.version, 'file_name', v.file_name, 'size_bytes', v.size_bytes,
                                                 'mime_type', v.mime_type, 'sha256', v.sha256, 'uploaded_by', v.uploaded_by,
                                                 'uploaded_by_name', private.profile_name(v.uploaded_by),
                                                 'uploaded_at', v.uploaded_at, 'object_path', v.object_path)
                              order by v.version desc), '[]')
      from %I.document_versions v where v.document_id = $1$query$, context.schema_name)
    into versions using p_id;
  return jsonb_build_object('success', true, 'document', found_document, 'versions', versions);
end;
$$;

/** The organization's document storage: {used_bytes, quota_bytes}, for anyone who may see documents. */
create function private.document_usage()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents', 'view');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  return jsonb_build_object('success', true,
    'used_bytes', coalesce((select q.used_bytes from private.document_quotas q where q.organization_id = context.organization_id), 0),
    'quota_bytes', coalesce((select q.quota_bytes from private.document_quotas q where q.organization_id = context.organization_id),
                            1073741824));
end;
$$;

/**
 * Checks an upload by the signed-in caller and reserves its object path: a new document (documents
 * create; with p_module and p_record_id, a record the caller may see) or a new version of
 * a document the caller may edit (p_document_id). The file's size (1 byte to 25 MiB), its
 * type (allow-list), its sha256 and the quota are checked here too. Drops the
 * organization's reservations older than private.document_upload_lifetime(). Returns
 * {upload_id, object_path, document_id, version, orphaned_paths: the dropped reservations'
 * objects Storage still holds, for the function to remove}. Refusals: file_empty,
 * file_too_large, file_type_not_allowed, quota_exceeded, link_not_found, not_found,
 * upload_in_progress.
 */
create function private.document_upload_begin(p_document_id uuid, p_title text, p_module text, p_record_id uuid,
                                              p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents',
                                                           case when p_document_id is null then 'create' else 'edit' end);
  file_name text := private.clean_file_name(p_file_name);
  title text := left(coalesce(nullif(btrim(p_title), ''), file_name), 300);
  document_id uuid := coalesce(p_document_id, gen_random_uuid());
  version integer;
  path text;
  upload_id uuid;
  orphaned_paths text[];
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if file_name is null or p_sha256 is null or p_sha256 !~ '^[0-9a-f]{64}$' or p_size_bytes is null
     or (p_module is null) <> (p_record_id is null) or (p_document_id is not null and p_module is not null) then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if p_size_bytes < 1 then
    return private.failure('The file is empty', 'file_empty');
  end if;
  if p_size_bytes > private.document_max_bytes() then
    return private.failure('File too large', 'file_too_large');
  end if;
  if p_mime_type is null or not (p_mime_type = any (private.document_mime_types())) then
    return private.failure('File type not allowed', 'file_type_not_allowed');
  end if;
  if p_module is not null and (private.document_link_column(p_module) is null
                               or not (private.record_get(p_module, p_record_id) ->> 'success')::boolean) then
    return private.failure('Linked record not found', 'link_not_found');
  end if;
  if p_size_bytes + coalesce((select q.used_bytes from private.document_quotas q where q.organization_id = context.organization_id), 0)
     > coalesce((select q.quota_bytes from private.document_quotas q where q.organization_id = context.organization_id), 1073741824) then
    return private.failure('Storage quota exceeded', 'quota_exceeded');
  end if;
  if p_document_id is null then
    version := 1;
  else
    execute format('select t.current_version + 1 from %I.documents t where t.id = $1 and t.deleted_at is null
                      and ($2 = ''all'' or t.owner_id = $3)', context.schema_name)
      into version using p_document_id, context.scope, context.caller;
    if version is null then
      return private.failure('Record not found', 'not_found');
    end if;
  end if;
  path := format('%s/%s/%s', context.organization_id, document_id, version);
  -- The organization's reservations nobody finished within 10 minutes (a function stopped
  -- mid-upload; a live one cannot run that long) are dropped, and the objects Storage still
  -- holds for them are named for the function to remove. A live reservation for this path
  -- is an upload under way.
  with expired as (
    delete from private.document_uploads u
     where u.organization_id = context.organization_id and u.created_at < now() - private.document_upload_lifetime()
    returning u.object_path)
  select coalesce(array_agg(e.object_path order by e.object_path), '{}') into orphaned_paths
    from expired e
   where exists (select 1 from storage.objects o where o.bucket_id = 'documents' and o.name = e.object_path);
  insert into private.document_uploads (organization_id, user_id, document_id, is_new, version, object_path, title,
                                        link_module, link_id, file_name, size_bytes, mime_type, sha256)
  values (context.organization_id, context.caller, document_id, p_document_id is null, version, path, title, p_module, p_record_id,
          file_name, p_size_bytes, p_mime_type, p_sha256)
  on conflict (object_path) do nothing
  returning id into upload_id;
  if upload_id is null then
    return private.failure('Another upload of this document is under way', 'upload_in_progress');
  end if;
  return jsonb_build_object('success', true, 'upload_id', upload_id, 'object_path', path,
                            'document_id', document_id, 'version', version, 'orphaned_paths', to_jsonb(orphaned_paths));
end;
$$;

/**
 * Records an upload the caller reserved once Storage holds its object (at the reserved
 * path, with the reserved size): the quota counts it (refused when it would be exceeded),
 * then the new document (owned by the caller, linked to the record) or the document's
 * new version is written with its version row, in one transaction; audited. Returns
 * {success, document}. Refusals: upload_not_found, quota_exceeded, not_found,
 * link_not_found, stale_record (another version came first).
 */
create function private.document_upload_finish(p_upload_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  upload private.document_uploads;
  context private.module_context;
  stored_size bigint;
  current integer;
  link text;
  written jsonb;
begin
  select * into upload from private.document_uploads u
   where u.id = p_upload_id and u.user_id = auth.uid() and u.organization_id = private.current_organization_id()
     for update;
  if upload.id is null then
    return private.failure('Upload not found', 'upload_not_found');
  end if;
  context := private.module_context('documents', case when upload.is_new then 'create' else 'edit' end);
  if context.problem is not null then
    return context.problem;
  end if;
  select (o.metadata ->> 'size')::bigint into stored_size
    from storage.objects o where o.bucket_id = 'documents' and o.name = upload.object_path;
  if stored_size is distinct from upload.size_bytes then
    return private.failure('Upload not found', 'upload_not_found');
  end if;

  if upload.is_new then
    link := private.document_link_column(upload.link_module);
    if upload.link_module is not null and not (private.record_get(upload.link_module, upload.link_id) ->> 'success')::boolean then
      return private.failure('Linked record not found', 'link_not_found');
    end if;
  else
    execute format('select t.current_version from %I.documents t where t.id = $1 and t.deleted_at is null
                      and ($2 = ''all'' or t.owner_id = $3) for update', context.schema_name)
      into current using upload.document_id, context.scope, context.caller;
    if current is null then
      return private.failure('Record not found', 'not_found');
    end if;
    if current <> upload.version - 1 then
      return private.failure('The record was changed by someone else', 'stale_record');
    end if;
  end if;

  -- The quota last among the checks: nothing after it refuses, so the count stays exact.
  insert into private.document_quotas (organization_id) values (context.organization_id) on conflict do nothing;
  update private.document_quotas q set used_bytes = q.used_bytes + upload.size_bytes
   where q.organization_id = context.organization_id and q.used_bytes + upload.size_bytes <= q.quota_bytes;
  if not found then
    return private.failure('Storage quota exceeded', 'quota_exceeded');
  end if;

  if upload.is_new then
    execute format('insert into %I.documents (id, title, file_name, mime_type, size_bytes, current_version, owner_id, created_by%s)
                    values ($1, $2, $3, $4, $5, 1, $6, $6%s) returning to_jsonb(documents)',
                   context.schema_name,
                   case when link is not null then format(', %I', link) else '' end,
                   case when link is not null then ', $7' else '' end)
      into written
      using upload.document_id, upload.title, upload.file_name, upload.mime_type, upload.size_bytes, context.caller, upload.link_id;
    perform private.write_audit(context.organization_id, 'documents.create', 'documents', upload.document_id::text,
                                jsonb_build_object('version', 1, 'size_bytes', upload.size_bytes));
  else
    execute format('update %I.documents t set file_name = $2, mime_type = $3, size_bytes = $4, current_version = $5
                     where t.id = $1 returning to_jsonb(t)', context.schema_name)
      into written using upload.document_id, upload.file_name, upload.mime_type, upload.size_bytes, upload.version;
    execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                    values (''document'', $1, ''current_version'', $2, $3, $4)', context.schema_name)
      using upload.document_id, to_jsonb(current), to_jsonb(upload.version), context.caller;
    perform private.write_audit(context.organization_id, 'documents.version', 'documents', upload.document_id::text,
                                jsonb_build_object('version', upload.version, 'size_bytes', upload.size_bytes));
  end if;
  execute format('insert into %I.document_versions (document_id, version, object_path, file_name, size_bytes, mime_type,
                                                     sha256, uploaded_by) values ($1, $2, $3, $4, $5, $6, $7, $8)',
                 context.schema_name)
    using upload.document_id, upload.version, upload.object_path, upload.file_name, upload.size_bytes, upload.mime_type,
          upload.sha256, context.caller;
  delete from private.document_uploads u where u.id = upload.id;
  return jsonb_build_object('success', true, 'document',
    private.record_json(written) || jsonb_build_object('uploaded_by_name', private.profile_name(context.caller),
                                                       'uploaded_at', now()));
end;
$$;

/** Drops the caller's own upload reservation (the Edge Function, after a failed Storage write). */
create function private.document_upload_cancel(p_upload_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.document_uploads u where u.id = p_upload_id and u.user_id = auth.uid();
  return jsonb_build_object('success', true);
end;
$$;

/**
 * Storage RLS's question for one object name of the documents bucket: true only when its
 * first folder is the organization the caller's session is bound to, the caller may view
 * documents there, and the name is a version of a document they may see (own/all scope)
 * that is not deleted. In public because the policy runs as the caller (who has no access
 * to the private schema); it answers only about the caller's own organization.
 */
create function public.document_object_readable(p_name text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('module', 'documents', 'view');
  schema_name text;
  readable boolean;
begin
  if caller.problem is not null or p_name is null or split_part(p_name, '/', 1) <> caller.organization_id::text then
    return false;
  end if;
  schema_name := private.tenant_schema(caller.organization_id);
  if schema_name is null then
    return false;
  end if;
  execute format('select exists (select 1 from %1$I.document_versions v join %1$I.documents d on d.id = v.document_id
                   where v.object_path = $1 and d.deleted_at is null and ($2 = ''all'' or d.owner_id = $3))', schema_name)
    into readable using p_name, caller.scope, caller.user_id;
  return readable;
end;
$$;
revoke all on function public.document_object_readable(p_name text) from public, anon, authenticated;
grant execute on function public.document_object_readable(p_name text) to authenticated;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('documents', 'documents', false, private.document_max_bytes(), private.document_mime_types())
on conflict (id) do update
  set public = false, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

/** The documents linked to one record (of a module documents can belong to). */
create function public.list_record_documents(p_module text, p_record_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_documents(p_module, p_record_id); $$;
revoke all on function public.list_record_documents(p_module text, p_record_id uuid) from public, anon, authenticated;
grant execute on function public.list_record_documents(p_module text, p_record_id uuid) to authenticated;

/** One document with its versions (newest first, each with its Storage object path). */
create function public.get_document_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.document_details(p_id); $$;
revoke all on function public.get_document_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_document_details(p_id uuid) to authenticated;

/** The organization's document storage: bytes used and the quota. */
create function public.get_document_usage()
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.document_usage(); $$;
revoke all on function public.get_document_usage() from public, anon, authenticated;
grant execute on function public.get_document_usage() to authenticated;

/** Checks an upload and reserves its object path (called by the documents Edge Function as the caller). */
create function public.begin_document_upload(p_document_id uuid, p_title text, p_module text, p_record_id uuid,
                                             p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.document_upload_begin(p_document_id, p_title, p_module, p_record_id, p_file_name, p_size_bytes,
                                           p_mime_type, p_sha256); $$;
revoke all on function public.begin_document_upload(p_document_id uuid, p_title text, p_module text, p_record_id uuid, p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text) from public, anon, authenticated;
grant execute on function public.begin_document_upload(p_document_id uuid, p_title text, p_module text, p_record_id uuid, p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text) to authenticated;

/** Records a reserved upload once Storage holds its object (called by the documents Edge Function). */
create function public.finish_document_upload(p_upload_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.document_upload_finish(p_upload_id); $$;
revoke all on function public.finish_document_upload(p_upload_id uuid) from public, anon, authenticated;
grant execute on function public.finish_document_upload(p_upload_id uuid) to authenticated;

/** Drops the caller's upload reservation after a failed Storage write. */
create function public.cancel_document_upload(p_upload_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.document_upload_cancel(p_upload_id); $$;
revoke all on function public.cancel_document_upload(p_upload_id uuid) from public, anon, authenticated;
grant execute on function public.cancel_document_upload(p_upload_id uuid) to authenticated;

/** How long an upload reservation lives: 10 minutes, longer than an Edge Function may run (400 s). */
create function private.document_upload_lifetime()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '10 minutes'; $$;

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
  context private.caller_context := private.caller_context('usable_session');
  caller uuid := context.user_id;
  session uuid := context.session_id;
  organization_id uuid := context.organization_id;
  expires timestamptz;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if organization_id is null then
    return private.refusal('organization_context_required');
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
revoke all on function public.sign_document_download(p_object_path text, p_token_hash text, p_seconds integer) from public, anon, authenticated;
grant execute on function public.sign_document_download(p_object_path text, p_token_hash text, p_seconds integer) to authenticated;

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

-- Import and export: what can be imported (import kinds), checking and writing batches,
-- matching on keys, undo, saved column mappings, and paged exports.

/**
 * The import's and export's limits: a file of at most 50 MiB, 100,000 data rows and 200
 * columns; batches of at most 1,000 rows and 4 MiB of JSON; export pages of at most 5,000.
 */
create function private.import_limits()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select '{"max_file_bytes": 52428800, "max_rows": 100000, "max_columns": 200,
           "batch_rows": 1000, "batch_bytes": 4194304, "export_rows": 5000}'::jsonb;
$$;

/**
 * An external id as a client sent it: a string or a number, trimmed, at most 100
 * characters. '' when it is empty or JSON null (no id), null when it is invalid.
 */
create function private.clean_external_id(p_value jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case
    when p_value is null or jsonb_typeof(p_value) = 'null' then ''
    when jsonb_typeof(p_value) not in ('string', 'number') then null
    when char_length(btrim(p_value #>> '{}')) <= 100 then btrim(p_value #>> '{}')
  end;
end;
$$;

-- ---------------------------------------------------------------------------------
-- The import kinds
-- ---------------------------------------------------------------------------------
create table private.import_kinds (
  kind text primary key check (kind ~ '^[a-z][a-z_]{0,39}$'),
  position integer not null unique,
  -- The permission: the import action of this module (with scope all when scope_all).
  module text not null references private.modules (key),
  scope_all boolean not null default false,
  table_name text not null check (private.is_safe_identifier(table_name)),
  -- What the field history calls a record of this kind.
  entity_type text not null check (entity_type ~ '^[a-z_]{1,40}$'),
  -- The row's rules: private.<name>(p_values jsonb, p_existing jsonb) → {"values", "errors"}.
  prepare_function text not null check (prepare_function ~ '^[a-z_]{1,60}$'),
  -- The columns a row may write; null: the module's writable columns.
  columns text[],
  -- Fields the engine turns into columns before the rules: owner (a member's email or
  -- name), customer, contact and deal (a reference by text), stage (a key or its name),
  -- email, phone and mobile_phone (a contact's channels).
  reference_fields text[] not null default '{}'
    check (reference_fields <@ '{owner,customer,contact,deal,stage,email,phone,mobile_phone}'),
  -- The keys an import may match rows on, in the order offered (id and external_id mean
  -- the same for every kind), and the keys a reference to this kind is resolved by.
  match_keys text[] not null,
  reference_keys text[] not null default '{}',
  -- Each further key's value in a record, an SQL expression over t (its row), compared with
  -- the row's value normalised by private.import_key_sql.
  match_expressions jsonb not null default '{}' check (jsonb_typeof(match_expressions) = 'object'),
  check (match_keys[1:2] = '{id,external_id}' and reference_keys <@ match_keys)
);

alter table private.import_kinds enable row level security;

comment on table private.import_kinds is
  'What can be imported (private.register_import_kind): permission, table, match keys and the rules a row goes through.';

/**
 * Declares an import kind (private.import_kinds; each parameter is the column of that
 * name), or redeclares it: its permission is p_module's import action (a module of the
 * registry), and its table, entity type and rules are that module's unless the kind names
 * its own (products, imported with the quotes module's permission into a table of their own).
 */
create function private.register_import_kind(
  p_kind text, p_position integer, p_module text, p_match_keys text[],
  p_reference_fields text[] default '{}', p_reference_keys text[] default '{}', p_match_expressions jsonb default '{}',
  p_scope_all boolean default false, p_table_name text default null, p_entity_type text default null,
  p_prepare_function text default null, p_columns text[] default null)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.import_kinds (kind, position, module, scope_all, table_name, entity_type, prepare_function, columns,
                                    reference_fields, match_keys, reference_keys, match_expressions)
  values (p_kind, p_position, p_module, p_scope_all,
          coalesce(p_table_name, (select m.table_name from private.modules m where m.key = p_module)),
          coalesce(p_entity_type, (select m.entity_type from private.modules m where m.key = p_module)),
          coalesce(p_prepare_function, (select m.prepare_function from private.modules m where m.key = p_module)),
          p_columns, p_reference_fields, p_match_keys, p_reference_keys, p_match_expressions)
  on conflict (kind) do update
    set position = excluded.position, module = excluded.module, scope_all = excluded.scope_all,
        table_name = excluded.table_name, entity_type = excluded.entity_type, prepare_function = excluded.prepare_function,
        columns = excluded.columns, reference_fields = excluded.reference_fields, match_keys = excluded.match_keys,
        reference_keys = excluded.reference_keys, match_expressions = excluded.match_expressions;
$$;

select private.register_import_kind(
  p_kind => 'customers', p_position => 1, p_module => 'customers',
  p_reference_fields => '{owner}', p_match_keys => '{id,external_id,tax_number,email,name}',
  p_reference_keys => '{id,external_id,tax_number,name}',
  p_match_expressions => '{"tax_number": "t.tax_number", "email": "t.email", "name": "private.fold_search(t.name)"}');

select private.register_import_kind(
  p_kind => 'contacts', p_position => 2, p_module => 'contacts',
  p_reference_fields => '{owner,customer,email,phone,mobile_phone}', p_match_keys => '{id,external_id,email,name}',
  p_reference_keys => '{id,external_id,email,name}',
  p_match_expressions => '{"email": "jsonb_array_elements(t.emails) ->> ''value''", "name": "private.fold_search(btrim(t.first_name || '' '' || t.last_name))"}');

select private.register_import_kind(
  p_kind => 'deals', p_position => 3, p_module => 'deals',
  p_reference_fields => '{owner,customer,stage}', p_match_keys => '{id,external_id,title}',
  p_reference_keys => '{id,external_id,title}', p_match_expressions => '{"title": "private.fold_search(t.title)"}');

select private.register_import_kind(
  p_kind => 'tasks', p_position => 4, p_module => 'tasks',
  p_reference_fields => '{owner,customer,contact,deal}', p_match_keys => '{id,external_id,title}',
  p_match_expressions => '{"title": "private.fold_search(t.title)"}');

select private.register_import_kind(
  p_kind => 'products', p_position => 5, p_module => 'quotes', p_scope_all => true,
  p_table_name => 'products', p_entity_type => 'product', p_prepare_function => 'prepare_product',
  p_columns => '{name,unit,unit_price,currency,vat_rate,description,active,external_id}',
  p_match_keys => '{id,external_id,name}', p_match_expressions => '{"name": "private.fold_search(t.name)"}');

/**
 * The SQL expression of a text (p_text, an SQL expression) as the value of a match key:
 * an id (a uuid, lower case), an external id (trimmed, 1-100), a tax number (without
 * spaces), an email (normalised) or a name or title (trimmed, Turkish-folded); null when
 * it cannot be one. Embedded in a batch's statements rather than called per row: a
 * function with a fixed search_path is never inlined, and a call per row and key cost a
 * tenth of a batch's time.
 */
create function private.import_key_sql(p_key text, p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select format(case p_key
    when 'id' then 'case when btrim(%1$s) ~* ''^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'' then lower(btrim(%1$s)) end'
    when 'external_id' then 'case when char_length(btrim(%1$s)) between 1 and 100 then btrim(%1$s) end'
    when 'tax_number' then 'nullif(regexp_replace(%1$s, ''\s'', '''', ''g''), '''')'
    when 'email' then 'private.normalize_email(%1$s)'
    else 'nullif(private.fold_search(btrim(%1$s)), '''')'
  end, p_text);
$$;

/**
 * The SQL expression of the match key's value in a row's values (p_values, an SQL
 * expression of jsonb): the field of that name (a contact's name is its first and last
 * name, its email the email field or the first of its emails), normalised as
 * private.import_key_sql says. Null without a value.
 */
create function private.import_key_value_sql(p_key text, p_values text)
returns text
language sql
immutable
set search_path = ''
as $$
  select private.import_key_sql(p_key, case p_key
    when 'name' then format('case when %1$s ? ''name'' then %1$s ->> ''name''
                                  else concat_ws('' '', %1$s ->> ''first_name'', %1$s ->> ''last_name'') end', p_values)
    when 'email' then format('case when %1$s ? ''email'' then %1$s ->> ''email'' else %1$s #>> ''{emails,0,value}'' end', p_values)
    else format('%s ->> %L', p_values, p_key) end);
$$;

/**
 * The live records of a kind whose key has one of the given (normalised) values, within
 * the scope ('all', or 'own': the caller's records): one row per value found, with the
 * ids of the records it names. One statement for the whole list.
 */
create function private.import_find(p_schema text, p_kind private.import_kinds, p_key text, p_values text[],
                                    p_scope text, p_caller uuid)
returns table (value text, ids uuid[])
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- "= any" over the values lets the planner probe the key's index once per value (a
  -- key without one, as a contact's emails, is one scan); joining the values to every
  -- live record instead hashed the whole table each batch, and the scope is left out
  -- rather than or-ed, which hid the table's size from the planner.
  return query execute format(
    'select m.value::text, array_agg(distinct m.id)
       from (select t.id, %2$s as value from %3$I.%4$I t where t.deleted_at is null %5$s) m
      where m.value = any ($1::%1$s[])
      group by m.value',
    case when p_key = 'id' then 'uuid' else 'text' end,
    case p_key when 'id' then 't.id' when 'external_id' then 't.external_id' else p_kind.match_expressions ->> p_key end,
    p_schema, p_kind.table_name, case when p_scope = 'all' then '' else 'and t.owner_id = $2' end)
    using p_values, p_caller;
end;
$$;

/**
 * References by text to records of a kind (a deal's customer, a task's contact), resolved
 * among the organization's live records by the kind's reference keys in order: the first
 * key that finds anything decides. {text: {"id": uuid} | {"error": "ambiguous"}}; a text
 * found by no key is left out (not_found). Only records the caller may see count (the view
 * scope of the kind's module: own or all; none without the view permission), so a hidden
 * record answers exactly as one that does not exist.
 */
create function private.import_resolve(p_schema text, p_kind text, p_texts text[])
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target private.import_kinds;
  key text;
  keyed jsonb;
  answer jsonb := '{}';
  scope text;
begin
  select * into target from private.import_kinds k where k.kind = p_kind;
  scope := private.caller_scope(target.module, 'view');
  if scope is null then
    return answer;
  end if;
  foreach key in array target.reference_keys loop
    -- The texts not resolved yet, each with its value under this key ({text: value}).
    execute format('select coalesce(jsonb_object_agg(t.text, k.value), ''{}'')
                      from unnest($1::text[]) t (text), lateral (select %s as value) k
                     where not $2 ? t.text and k.value is not null', private.import_key_sql(key, 't.text'))
      into keyed using p_texts, answer;
    continue when keyed = '{}';
    select answer || coalesce(jsonb_object_agg(t.text, case when cardinality(f.ids) = 1 then jsonb_build_object('id', f.ids[1])
                                                            else '{"error": "ambiguous"}' end), '{}')
      into answer
      from jsonb_each_text(keyed) t (text, value)
      join private.import_find(p_schema, target, key, array(select distinct x.value from jsonb_each_text(keyed) x), scope, auth.uid()) f
        on f.value = t.value;
  end loop;
  return answer;
end;
$$;

/**
 * Owners named by text: an active member of the organization by email (any case) or by
 * full name (Turkish-folded). {text: {"id": uuid} | {"error": "owner_not_found" | "owner_ambiguous"}}.
 */
create function private.import_owners(p_organization_id uuid, p_texts text[])
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(t.text, case
           when by_email.ids is not null then jsonb_build_object('id', by_email.ids[1])
           when cardinality(by_name.ids) = 1 then jsonb_build_object('id', by_name.ids[1])
           when cardinality(by_name.ids) > 1 then '{"error": "owner_ambiguous"}'
           else '{"error": "owner_not_found"}' end), '{}')
    from unnest(p_texts) t (text)
    left join lateral (
      select array_agg(p.id) as ids from private.memberships m join private.profiles p on p.id = m.user_id
       where m.organization_id = p_organization_id and m.is_active and p.is_active
         and p.email = lower(btrim(t.text))) by_email on true
    left join lateral (
      select array_agg(p.id) as ids from private.memberships m join private.profiles p on p.id = m.user_id
       where m.organization_id = p_organization_id and m.is_active and p.is_active
         and private.fold_search(btrim(concat_ws(' ', p.first_name, p.last_name))) = private.fold_search(btrim(t.text))) by_name on true;
$$;

/**
 * What the import engine knows of a row between its statements: its position in the
 * batch and the client's row number; what it does (create, update, unchanged, skip, fail)
 * and why (exists, not_found, ambiguous_match, duplicate_in_file); the record's id; the
 * field errors; on an update the record as it was and the changed columns' old values;
 * the values to write and, for a new record, what the engine sets over them (id, owner,
 * creator, external id).
 */
create type private.import_row as (
  n integer,
  line integer,
  action text,
  reason text,
  id uuid,
  errors jsonb,
  existing jsonb,
  write jsonb,
  previous jsonb,
  extra jsonb
);

/**
 * A row's fields that the engine turns into columns before the kind's rules, from the
 * batch's lookups (private.import_process): owner → owner_id (an active member; scope own:
 * only the caller), customer, contact and deal → their ids, stage → its key, and a
 * contact's email, phone and mobile_phone → entries of its emails and phones (labelled
 * work, work and mobile), added to the row's own lists or, on an update, the record's,
 * unless the value is there already. {"columns", "errors", "owner_id"}.
 */
create function private.import_references(p_values jsonb, p_existing jsonb, p_lookups jsonb, p_caller uuid, p_scope text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  columns jsonb := '{}';
  errors jsonb := '{}';
  owner_id uuid;
  resolved jsonb;
  field text;
  channel record;
  normalized text;
  entries jsonb;
begin
  if p_values ? 'owner' then
    resolved := case when jsonb_typeof(p_values -> 'owner') = 'string' then p_lookups #> array['owners', p_values ->> 'owner'] end;
    if resolved ? 'id' and p_scope = 'own' and resolved ->> 'id' <> p_caller::text then
      errors := errors || '{"owner": "permission_denied"}';
    elsif resolved ? 'id' then
      owner_id := (resolved ->> 'id')::uuid;
    else
      errors := errors || jsonb_build_object('owner', coalesce(resolved ->> 'error', 'owner_not_found'));
    end if;
  end if;
  foreach field in array array['customer', 'contact', 'deal'] loop
    if p_values ? field then
      resolved := case when jsonb_typeof(p_values -> field) in ('string', 'number') then p_lookups #> array[field, p_values ->> field] end;
      if resolved ? 'id' then
        columns := columns || jsonb_build_object(field || '_id', resolved -> 'id');
      else
        errors := errors || jsonb_build_object(field, coalesce(resolved ->> 'error', 'not_found'));
      end if;
    end if;
  end loop;
  if p_values ? 'stage' and p_lookups ? 'stages' then
    columns := columns || jsonb_build_object('stage', coalesce(
      case when jsonb_typeof(p_values -> 'stage') = 'string'
           then coalesce(p_lookups #> array['stages', btrim(p_values ->> 'stage')],
                         p_lookups #> array['stage_names', private.fold_search(btrim(p_values ->> 'stage'))]) end,
      p_values -> 'stage'));
  end if;
  for channel in
    select * from (values ('email', 'emails', 'work'), ('phone', 'phones', 'work'), ('mobile_phone', 'phones', 'mobile')) c (field, list, label)
     where p_values ? c.field and p_lookups ? 'channels'
  loop
    normalized := case when jsonb_typeof(p_values -> channel.field) <> 'string' then null
                  when channel.field = 'email' then private.normalize_email(p_values ->> channel.field)
                  else private.normalize_phone(p_values ->> channel.field) end;
    if normalized is null or (channel.field = 'email' and not private.is_valid_email(normalized)) then
      errors := errors || jsonb_build_object(channel.field, case when channel.field = 'email' then 'invalid_email' else 'invalid_phone' end);
      continue;
    end if;
    entries := coalesce(columns -> channel.list, p_values -> channel.list, p_existing -> channel.list, '[]');
    if not exists (select 1 from jsonb_array_elements(entries) e where e ->> 'value' = normalized) then
      columns := columns || jsonb_build_object(channel.list,
                                               entries || jsonb_build_array(jsonb_build_object('label', channel.label, 'value', normalized)));
    end if;
  end loop;
  return jsonb_build_object('columns', columns, 'errors', errors, 'owner_id', owner_id);
end;
$$;

/**
 * The rules' field errors under the names the row used: a column the row filled through a
 * reference (customer_id from customer, emails from email, …) is reported on that field.
 */
create function private.import_field_errors(p_errors jsonb, p_values jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(coalesce(
           (select f.field from (values ('customer_id', 'customer'), ('contact_id', 'contact'), ('deal_id', 'deal'),
                                        ('emails', 'email'), ('phones', 'phone'), ('phones', 'mobile_phone')) f (column_name, field)
             where f.column_name = e.key and not p_values ? e.key and p_values ? f.field limit 1),
           e.key), e.value), '{}')
    from jsonb_each(p_errors) e;
$$;

/**
 * The SQL of a set-based insert into a table from p_source, a query of (write jsonb, extra
 * jsonb) rows: each row's columns are its write values with extra over them. Every column
 * is inserted; one a row leaves out gets its default, evaluated once for the statement (so
 * rows of different shapes go in one statement, and a volatile default, like a new id,
 * must come with each row). Returns the new ids and updated_at.
 */
create function private.import_insert_sql(p_relation regclass, p_source text)
returns text
language sql
stable
set search_path = ''
as $$
  select format('insert into %1$s as t (%2$s)
                 select %3$s from (%4$s) s
                 cross join lateral jsonb_populate_record(jsonb_populate_record((select jsonb_populate_record(null::%1$s, %5$s)), s.write), s.extra) r
                 returning t.id, t.updated_at',
                p_relation,
                string_agg(format('%I', a.attname), ', ' order by a.attnum),
                string_agg(format('r.%I', a.attname), ', ' order by a.attnum),
                p_source,
                'jsonb_build_object(' || coalesce(string_agg(format('%L, %s', a.attname, pg_catalog.pg_get_expr(d.adbin, d.adrelid)), ', ')
                                                    filter (where d.adbin is not null), '') || ')')
    from pg_catalog.pg_attribute a
    left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
   where a.attrelid = p_relation and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' and a.attidentity = '';
$$;

/**
 * The SQL of a set-based update of a table from p_source, a query of (id uuid, write jsonb)
 * rows: each sets some of the columns given on its record, the others keep their value.
 * Returns the ids and their new updated_at.
 */
create function private.import_update_sql(p_relation regclass, p_columns text[], p_source text)
returns text
language sql
stable
set search_path = ''
as $$
  select format('update %1$s as t set %2$s
                   from (select s.id, s.write, jsonb_populate_record(null::%1$s, s.write) as r from (%3$s) s) u
                  where t.id = u.id
                 returning t.id, t.updated_at',
                p_relation,
                (select string_agg(format('%1$I = case when u.write ? %1$L then (u.r).%1$I else t.%1$I end', c), ', ') from unnest(p_columns) c),
                p_source);
$$;

/**
 * One row through a statement of the import engine ($1: rows, answering rows) after the
 * statement refused the whole batch: the row as the statement answers it, or the row
 * failed ({"record": "invalid"}) when it is the one refused.
 */
create function private.import_row_retry(p_statement text, p_row private.import_row)
returns private.import_row
language plpgsql
security definer
set search_path = ''
as $$
declare
  answer private.import_row[];
begin
  execute p_statement into answer using array[p_row];
  return answer[1];
exception when data_exception then
  p_row.action := 'fail';
  p_row.errors := p_row.errors || '{"record": "invalid"}';
  return p_row;
end;
$$;

/**
 * Writes the batch's new records (p_update false) or changes (true) with one set-based
 * statement that also notes them in import_rows (and, for changes, the field history);
 * row by row only when that one hits a constraint. Returns the rows, those refused failed
 * with the engine's constraint codes (required, not_found, duplicate, invalid).
 */
create function private.import_write(p_kind private.import_kinds, p_schema text, p_update boolean,
                                     p_work private.import_row[], p_import_id uuid, p_caller uuid)
returns private.import_row[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  relation regclass := format('%I.%I', p_schema, p_kind.table_name)::regclass;
  chosen_action text := case when p_update then 'update' else 'create' end;
  source text := format('select w.id, w.write, w.extra from unnest($1::private.import_row[]) w where w.action = %L', chosen_action);
  statement text;
  result private.import_row[] := '{}';
  item private.import_row;
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  if not exists (select 1 from unnest(p_work) w where w.action = chosen_action) then
    return p_work;
  end if;
  statement := format('with written as (%s)', case
                 when p_update then private.import_update_sql(relation, array(
                   select distinct k from unnest(p_work) w, jsonb_object_keys(w.write) k where w.action = chosen_action), source)
                 else private.import_insert_sql(relation, source) end)
    || case when p_update then format(', history as (
           insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
           select %L, w.id, c.key, w.previous -> c.key, c.value, $3
             from unnest($1::private.import_row[]) w join written x on x.id = w.id cross join lateral jsonb_each(w.write) c)',
           p_schema, p_kind.entity_type) else '' end
    || format(' insert into %I.import_rows as i (import_id, record_id, action, previous, written_at)
                select $2, x.id, %L, w.previous, x.updated_at from written x join unnest($1::private.import_row[]) w on w.id = x.id
                on conflict (import_id, record_id) do update set previous = excluded.previous || i.previous, written_at = excluded.written_at',
              p_schema, case when p_update then 'updated' else 'created' end);
  begin
    execute statement using p_work, p_import_id, p_caller;
    return p_work;
  exception when integrity_constraint_violation or data_exception then
    null;
  end;
  foreach item in array p_work loop
    if item.action = chosen_action then
      begin
        execute statement using array[item], p_import_id, p_caller;
      exception when integrity_constraint_violation or data_exception then
        get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
        item.action := 'fail';
        item.errors := item.errors || (private.constraint_failure(p_kind.table_name, failed_column, failed_constraint, failed_state) -> 'fields');
      end;
    end if;
    result := result || item;
  end loop;
  return result;
end;
$$;

/**
 * The import engine: one batch of rows ([{row, values}], its shape checked by the caller)
 * of a kind, in a mode (create, upsert, update) and matched on a key, within the caller's
 * context (the kind's import permission and scope). Set-based: one lookup each for the
 * owners, the references and the matches of the whole batch (within the scope) and for
 * the records to update; then one statement gives every row its fields (the kind's
 * columns, references resolved, unknown fields refused), what it does, and its values
 * through the kind's rules (on an update against the record as it is). A batch that only
 * creates records writes them in that same statement; otherwise updates keep the columns
 * whose stored value changes (none: unchanged) and private.import_write writes. Without
 * p_import_id nothing is written (the preview). Returns {created, updated, skipped
 * (unchanged ones too), failed, results: [{row, status, id?, reason?, errors?}]}.
 *
 * What does not depend on the records matched can be worked out before: with p_prepare the
 * engine returns the batch's lookups and each row as a new record ({lookups, unknown, rows:
 * [{errors, write, extra}]}) and writes nothing; given back as p_prepared, rows that turn
 * out new take that result instead of going through the rules again. So a batch does its
 * rules while the one before it still holds the import (private.import_run_batch).
 * A row naming another module's record by its id column (customer_id, …) is held to the
 * caller's view scope of that module like a form (private.link_errors); one naming it by
 * text is resolved within that scope (private.import_resolve).
 */
create function private.import_process(p_kind private.import_kinds, p_context private.module_context, p_mode text,
                                       p_match_key text, p_rows jsonb, p_import_id uuid,
                                       p_prepare boolean default false, p_prepared jsonb default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  columns text[] := coalesce(p_kind.columns, (select m.writable_columns from private.modules m where m.key = p_kind.module));
  engine_fields text[] := '{id,external_id}'::text[] || p_kind.reference_fields;
  relation regclass := format('%I.%I', p_context.schema_name, p_kind.table_name)::regclass;
  lookups jsonb := '{}';
  existing jsonb;
  field text;
  texts text[];
  keys text[];
  prepared_rows jsonb;
  rows_sql text;
  results_sql text;
  unknown boolean;
  answer jsonb;
  work private.import_row[];
  statement text;
  quiet text := current_setting('crm.quiet_assignments', true);
begin
  -- The batch's lookups: owners, references, the pipeline's stages (prepared before, or
  -- here), then the matches and the records to update.
  if p_prepared is not null then
    lookups := p_prepared -> 'lookups';
  elsif 'owner' = any (p_kind.reference_fields) then
    texts := array(select distinct r #>> '{values,owner}' from jsonb_array_elements(p_rows) r
                    where jsonb_typeof(r #> '{values,owner}') = 'string');
    if cardinality(texts) > 0 then
      lookups := lookups || jsonb_build_object('owners', private.import_owners(p_context.organization_id, texts));
    end if;
  end if;
  foreach field in array array['customer', 'contact', 'deal'] loop
    continue when p_prepared is not null or not field = any (p_kind.reference_fields);
    texts := array(select distinct r #>> array['values', field] from jsonb_array_elements(p_rows) r
                    where jsonb_typeof(r #> array['values', field]) in ('string', 'number'));
    if cardinality(texts) > 0 then
      lookups := lookups || jsonb_build_object(field, private.import_resolve(p_context.schema_name, field || 's', texts));
    end if;
  end loop;
  if p_prepared is null and 'stage' = any (p_kind.reference_fields) then
    select lookups || jsonb_build_object('stages', coalesce(jsonb_object_agg(s ->> 'key', s -> 'key'), '{}'),
                                         'stage_names', coalesce(jsonb_object_agg(private.fold_search(s ->> 'name'), s -> 'key'), '{}'))
      into lookups
      from private.organization_settings o, jsonb_array_elements(o.deal_stages) s
     where o.organization_id = p_context.organization_id;
  end if;
  if p_prepared is null and p_kind.reference_fields && '{email,phone,mobile_phone}' then
    lookups := lookups || '{"channels": true}';
  end if;
  if p_match_key is not null and not p_prepare then
    -- Each row's key, computed once (in the rows' order): the rows' statement below reads
    -- it back beside the row rather than working it out a second time.
    execute format('select array_agg(%s order by r.n) from jsonb_array_elements($1) with ordinality r (item, n)',
                   private.import_key_value_sql(p_match_key, '(r.item -> ''values'')'))
      into keys using p_rows;
    select lookups || jsonb_build_object('matches', coalesce(jsonb_object_agg(f.value, to_jsonb(f.ids)), '{}'))
      into lookups
      from private.import_find(p_context.schema_name, p_kind, p_match_key,
                               array(select distinct k from unnest(keys) k where k is not null),
                               p_context.scope, p_context.caller) f;
    if p_mode <> 'create' and lookups -> 'matches' <> '{}' then
      execute format('select coalesce(jsonb_object_agg(x.id, x.record), ''{}'')
                        from (select t.id, to_jsonb(t) - ''search_text'' as record from %s t
                               where t.id = any ($1) and t.deleted_at is null %s) x',
                     relation, case when p_import_id is not null then 'for update' else '' end)
        into existing
        using array(select (m.value ->> 0)::uuid from jsonb_each(lookups -> 'matches') m where jsonb_array_length(m.value) = 1);
      lookups := lookups || jsonb_build_object('existing', existing);
    end if;
  end if;
  -- Any unknown field in the batch (one look at all its fields; then row by row).
  unknown := coalesce((p_prepared ->> 'unknown')::boolean,
                      exists (select 1 from jsonb_array_elements(p_rows) r, jsonb_object_keys(r -> 'values') k
                               where not (k = any (columns) or k = any (engine_fields))));

  -- Every row: what it does, its fields, its values through the kind's rules. checked has
  -- the rows, in no particular order; results_sql answers for rows (n, line, action,
  -- reason, id, errors) in order.
  rows_sql := format($rows$
    with input as (
      select r.n::integer as n, (r.item ->> 'row')::integer as line, r.item -> 'values' as vals, r.key, r.pre
        from rows from (jsonb_array_elements($1), unnest($12::text[]), jsonb_array_elements($13)) with ordinality r (item, key, pre, n)
    ), matched as (
      -- (#> reads the entry in place; -> would copy the whole sub-object for each row.)
      select i.*, $2 #> array['matches', i.key] as ids, %2$s as repeated
        from input i
    ), decided as (
      select m.n, m.line, m.vals, m.pre,
             case when m.repeated or jsonb_array_length(m.ids) > 1 then 'fail'
                  when m.ids is null then case when $3 = 'update' then 'skip' else 'create' end
                  when $3 = 'create' then 'skip' else 'update' end as action,
             case when m.repeated then 'duplicate_in_file' when jsonb_array_length(m.ids) > 1 then 'ambiguous_match'
                  when m.ids is null then case when $3 = 'update' then 'not_found' end
                  when $3 = 'create' then 'exists' end as reason,
             case when not m.repeated and jsonb_array_length(m.ids) = 1 then (m.ids ->> 0)::uuid end as id
        from matched m
    ), targeted as (
      -- A record matched by two rows (a contact by two of its emails) is updated by the
      -- first; one deleted since the lookup is not found.
      select d.n, d.line, d.vals, d.id, d.existing, d.action = 'create' and d.pre is not null as prepared, d.pre,
             case when d.action <> 'update' then d.action when d.twice then 'fail'
                  when d.existing is null then 'skip' else 'update' end as action,
             case when d.action <> 'update' then d.reason when d.twice then 'duplicate_in_file'
                  when d.existing is null then 'not_found' end as reason
        from (select d.*, %3$s as twice, $2 #> array['existing', d.id::text] as existing from decided d) d
    ), checked as (
      -- A new row prepared before takes its prepared result (private.import_process, p_prepared).
      select t.n, t.line, case when t.prepared then (t.pre #>> '{extra,id}')::uuid else x.id end as id, t.reason, r.existing,
             case when t.action in ('create', 'update') and e.errors <> '{}' then 'fail' else t.action end as action,
             e.errors,
             case when t.prepared then t.pre -> 'write'
                  when t.action = 'create' and e.errors = '{}' then r.ruled -> 'values'
                  when t.action = 'update' and e.errors = '{}' then
                    ((r.ruled -> 'values') - '{id,external_id}'::text[])
                    || jsonb_strip_nulls(jsonb_build_object('external_id', nullif(x.external_id, ''), 'owner_id', x.refs -> 'owner_id')) end
               as write,
             case when t.prepared then t.pre -> 'extra'
                  when t.action = 'create' then jsonb_build_object('id', x.id, 'owner_id', coalesce((x.refs ->> 'owner_id')::uuid, $7),
                                                                   'created_by', $7, 'external_id', nullif(x.external_id, '')) end
               as extra
        from targeted t
        -- Each step that calls a function is a subquery of its own (offset 0), so that the call
        -- runs once per row however often its result is used.
        cross join lateral (
          select case when t.prepared then null when t.action = 'create' then gen_random_uuid() else t.id end as id,
                 case when t.prepared or not t.vals ? 'external_id' then '' else private.clean_external_id(t.vals -> 'external_id') end
                   as external_id,
                 case when not t.prepared and t.vals ?| $9 then private.import_references(t.vals, t.existing, $2, $7, $8) end as refs
          offset 0) x
        cross join lateral (
          -- The rules see the row's columns (with id and external_id, which they pass over; the
          -- engine sets both) and the references' columns.
          select case when t.action = 'update' then t.existing end as existing,
                 case when t.action in ('create', 'update') and not t.prepared
                      then private.%1$I(case when t.vals ?| $9 then (t.vals - $5) || (x.refs -> 'columns') else t.vals end,
                                        case when t.action = 'update' then t.existing end) end as ruled
          offset 0) r
        cross join lateral (
          select case when t.prepared then t.pre -> 'errors'
                      else case when $10 and t.vals - $6 <> '{}'
                                then (select jsonb_object_agg(left(k, 63), 'unknown_field') from jsonb_object_keys(t.vals - $6) k)
                                else '{}' end
                           || coalesce(x.refs -> 'errors', '{}')
                           || case when x.external_id is null then '{"external_id": "invalid"}'::jsonb else '{}' end
                           || case when r.ruled -> 'errors' <> '{}' then private.import_field_errors(r.ruled -> 'errors', t.vals) else '{}' end
                           || case when t.action in ('create', 'update') and t.vals ?| %4$L::text[]
                                   then private.link_errors(%5$L, t.vals, t.existing, %6$L) - array(select jsonb_object_keys(r.ruled -> 'errors'))
                                   else '{}' end
                 end as errors
          offset 0) e
    )$rows$,
    p_kind.prepare_function,
    -- (4, 5, 6: the module's link columns, the module and the schema, for private.link_errors.)
    -- Rows after the first with the same key, and rows after the first matching the same
    -- record: only where there is a key (window functions sort the batch).
    case when p_match_key is null then 'false'
         else 'i.key is not null and row_number() over (partition by i.key order by i.n) > 1' end,
    case when p_match_key is null or p_mode = 'create' then 'false'
         else 'd.action = ''update'' and row_number() over (partition by d.action, d.id order by d.n) > 1' end,
    (select coalesce(array_agg(l.column_name), '{}') from private.module_links(p_kind.module, p_context.schema_name) l),
    p_kind.module, p_context.schema_name);
  results_sql := format($results$
    select jsonb_build_object(
             'created', count(*) filter (where s.action = 'create'),
             'updated', count(*) filter (where s.action = 'update'),
             'skipped', count(*) filter (where s.action in ('skip', 'unchanged')),
             'failed', count(*) filter (where s.action = 'fail'),
             'results', coalesce(jsonb_agg(case
                          when s.action = 'create' and not %1$L then jsonb_build_object('row', s.line, 'status', 'created')
                          when s.action in ('create', 'update', 'unchanged')
                            then jsonb_build_object('row', s.line, 'status', case s.action when 'create' then 'created'
                                                                                          when 'update' then 'updated'
                                                                                          else 'unchanged' end, 'id', s.id)
                          else jsonb_strip_nulls(jsonb_build_object('row', s.line,
                            'status', case s.action when 'skip' then 'skipped' else 'failed' end, 'reason', s.reason,
                            'id', case when s.reason = 'exists' then s.id end,
                            'errors', case when s.action = 'fail' and s.errors <> '{}' then s.errors end)) end
                        order by s.n), '[]'))
      from (%%s) s$results$, p_import_id is not null);

  if p_prepare then
    execute rows_sql || ' select jsonb_agg(jsonb_build_object(''errors'', c.errors, ''write'', c.write, ''extra'', c.extra) order by c.n)
                            from checked c'
      into prepared_rows
      using p_rows, lookups, p_mode, p_match_key, engine_fields, columns || engine_fields, p_context.caller, p_context.scope,
            p_kind.reference_fields, unknown, null::uuid, keys, null::jsonb;
    return jsonb_build_object('lookups', lookups, 'unknown', unknown, 'rows', prepared_rows);
  end if;
  if p_import_id is not null then
    -- The import tells no owner about each record (one import, not thousands of notices).
    perform pg_catalog.set_config('crm.quiet_assignments', 'on', true);
  end if;
  -- A batch without updates writes its new records and answers in one statement (a
  -- constraint error leaves it to the steps below, which find the rows at fault).
  if p_import_id is not null and coalesce(lookups -> 'existing', '{}') = '{}' then
    begin
      execute rows_sql || format(', written as (%s), noted as (
                                    insert into %I.import_rows (import_id, record_id, action, written_at)
                                    select $11, x.id, ''created'', x.updated_at from written x) ',
                                 private.import_insert_sql(relation,
                                   'select c.write, c.extra from checked c where c.action = ''create'''),
                                 p_context.schema_name)
                      || format(results_sql, 'select c.n, c.line, c.action, c.reason, c.id, c.errors from checked c')
        into answer
        using p_rows, lookups, p_mode, p_match_key, engine_fields, columns || engine_fields, p_context.caller, p_context.scope,
              p_kind.reference_fields, unknown, p_import_id, keys, p_prepared -> 'rows';
      perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);
      return answer;
    exception when integrity_constraint_violation or data_exception then
      null;
    end;
  end if;

  execute rows_sql || ' select array_agg(row(c.n, c.line, c.action, c.reason, c.id, c.errors, c.existing, c.write, null, c.extra)
                                         ::private.import_row) from checked c'
    into work
    using p_rows, lookups, p_mode, p_match_key, engine_fields, columns || engine_fields, p_context.caller, p_context.scope,
          p_kind.reference_fields, unknown, null::uuid, keys, p_prepared -> 'rows';

  -- Updates keep the columns whose value, as the table stores it, differs; none: unchanged.
  if lookups -> 'existing' <> '{}' then
    statement := format(
      'select array_agg(case when w.action <> ''update'' then w
                             else row(w.n, w.line, case when d.changes = ''{}'' then ''unchanged'' else ''update'' end, w.reason, w.id,
                                      w.errors, w.existing, d.changes, d.previous, w.extra)::private.import_row end)
         from unnest($1::private.import_row[]) w
         left join lateral (
           select coalesce(jsonb_object_agg(k, typed.record -> k), ''{}'') as changes,
                  coalesce(jsonb_object_agg(k, w.existing -> k), ''{}'') as previous
             from (select to_jsonb(jsonb_populate_record(null::%s, w.write))) typed (record),
                  jsonb_object_keys(w.write) k
            where (typed.record -> k) is distinct from (w.existing -> k)) d on w.action = ''update''',
      relation);
    begin
      execute statement into work using work;
    exception when data_exception then
      work := array(select case when w.action = 'update' then private.import_row_retry(statement, w) else w end
                      from unnest(work) w);
    end;
  end if;

  if p_import_id is not null then
    work := private.import_write(p_kind, p_context.schema_name, false, work, p_import_id, p_context.caller);
    work := private.import_write(p_kind, p_context.schema_name, true, work, p_import_id, p_context.caller);
    perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);
  end if;
  execute format(results_sql, 'select w.n, w.line, w.action, w.reason, w.id, w.errors from unnest($1::private.import_row[]) w')
    into answer using work;
  return answer;
end;
$$;

/**
 * The guard of an import RPC: the caller's context for the kind's import permission (the
 * module_context of private.import_kinds.module, its table the kind's), refused for an
 * unknown kind (unknown_kind) or, for a kind that needs it, a scope other than all.
 */
create function private.import_context(p_kind text)
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  kind private.import_kinds;
  context private.module_context;
begin
  select * into kind from private.import_kinds k where k.kind = p_kind;
  if not found then
    context.problem := private.failure('Unknown import kind', 'unknown_kind');
    return context;
  end if;
  context := private.module_context(kind.module, 'import');
  if context.problem is null and kind.scope_all and context.scope <> 'all' then
    context.problem := private.refusal('permission_denied');
  end if;
  context.table_name := kind.table_name;
  return context;
end;
$$;

/** A mode and match key for a kind: null when valid, else the refusal (invalid_mode, invalid_match_key). */
create function private.import_mode_problem(p_kind private.import_kinds, p_mode text, p_match_key text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when p_mode is null or p_mode not in ('create', 'upsert', 'update') then private.failure('Invalid import mode', 'invalid_mode')
    when p_match_key is null and p_mode <> 'create' then private.failure('This mode needs a match key', 'invalid_match_key')
    when p_match_key is not null and not p_match_key = any (p_kind.match_keys) then private.failure('Invalid match key', 'invalid_match_key')
  end;
$$;

/**
 * A batch's rows: null when valid, else the refusal. A non-empty array of {row: the
 * client's row number, values: object} (invalid_input), at most 1,000 rows and 4 MiB
 * (batch_too_large).
 */
create function private.import_rows_problem(p_rows jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_rows) is distinct from 'array' then private.failure('Rows must be an array of {row, values}', 'invalid_input')
    when jsonb_array_length(p_rows) = 0 then private.failure('Rows must be an array of {row, values}', 'invalid_input')
    when jsonb_array_length(p_rows) > (private.import_limits() ->> 'batch_rows')::integer
      then private.failure('A batch holds at most 1,000 rows and 4 MiB', 'batch_too_large')
    -- The stored size first (cheap; a little above the text's), the text's only near the limit.
    when pg_column_size(p_rows) > (private.import_limits() ->> 'batch_bytes')::integer
         and octet_length(p_rows::text) > (private.import_limits() ->> 'batch_bytes')::integer
      then private.failure('A batch holds at most 1,000 rows and 4 MiB', 'batch_too_large')
    when jsonb_path_exists(p_rows, '$[*] ? (@.type() != "object" || !exists(@.values ? (@.type() == "object"))
                                     || !exists(@.row ? (@.type() == "number" && @ >= 0 && @ <= 2147483647 && @ == @.floor())))')
      then private.failure('Rows must be an array of {row, values}', 'invalid_input')
  end;
$$;

/** A column mapping ({"<header>": "<field>" | null}, at most 200 columns): null when valid, else invalid_mapping. */
create function private.import_mapping_problem(p_mapping jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_mapping) is distinct from 'object' then private.failure('Invalid mapping', 'invalid_mapping')
    when (select count(*) from jsonb_object_keys(p_mapping)) > (private.import_limits() ->> 'max_columns')::integer
         or octet_length(p_mapping::text) > 65536
         or exists (select 1 from jsonb_each(p_mapping) e
                     where char_length(e.key) > 255 or jsonb_typeof(e.value) not in ('string', 'null')
                        or char_length(e.value #>> '{}') > 63)
      then private.failure('Invalid mapping', 'invalid_mapping')
  end;
$$;

/** An import as the app reads it (Import: without its mapping, with the creator's name). */
create function private.import_json(p_import jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select (p_import - 'mapping' - 'reverted_by')
         || jsonb_build_object('created_by_name', private.profile_name((p_import ->> 'created_by')::uuid));
$$;

/**
 * An import of the caller's organization that the caller may see (their own, or any with
 * the kind's import permission in scope all), locked with p_lock: {"import": its row,
 * "context": the caller's context for its kind}, or the refusal (not_found for another
 * organization's or another member's import).
 */
create function private.import_lookup(p_import_id uuid, p_lock boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  schema_name text := private.tenant_schema(caller.organization_id);
  found_import jsonb;
  context private.module_context;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if schema_name is null then
    return private.refusal('tables_not_found');
  end if;
  execute format('select to_jsonb(i) from %I.imports i where i.id = $1 %s', schema_name, case when p_lock then 'for update' else '' end)
    into found_import using p_import_id;
  if found_import is null then
    return private.failure('Import not found', 'not_found');
  end if;
  context := private.import_context(found_import ->> 'kind');
  if context.problem is not null then
    return context.problem;
  end if;
  if context.scope = 'own' and found_import ->> 'created_by' <> context.caller::text then
    return private.failure('Import not found', 'not_found');
  end if;
  return jsonb_build_object('import', found_import, 'context', to_jsonb(context));
end;
$$;

/**
 * Starts an import of a file (its name, size, sha256 and the column mapping chosen) in a
 * mode matched on a key; its batches follow through private.import_run_batch.
 */
create function private.import_start(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text,
                                     p_match_key text, p_total_rows integer, p_mapping jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  kind private.import_kinds;
  problem jsonb;
  started jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select * into kind from private.import_kinds k where k.kind = p_kind;
  problem := coalesce(private.import_mode_problem(kind, p_mode, p_match_key), private.import_mapping_problem(p_mapping));
  if problem is not null then
    return problem;
  end if;
  if char_length(btrim(coalesce(p_file_name, ''))) not between 1 and 255 or coalesce(p_file_hash, '') !~ '^[0-9a-f]{64}$'
     or coalesce(p_file_size, 0) < 1 or coalesce(p_total_rows, 0) < 1 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if p_file_size > (private.import_limits() ->> 'max_file_bytes')::bigint then
    return private.failure('The file is larger than 50 MiB', 'file_too_large');
  end if;
  if p_total_rows > (private.import_limits() ->> 'max_rows')::integer then
    return private.failure('The file has more than 100,000 rows', 'too_many_rows');
  end if;
  execute format('insert into %I.imports as i (kind, file_name, file_size, file_hash, mode, match_key, mapping, total_rows, created_by)
                  values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning to_jsonb(i)', context.schema_name)
    into started using p_kind, btrim(p_file_name), p_file_size, p_file_hash, p_mode, p_match_key, p_mapping, p_total_rows, context.caller;
  return jsonb_build_object('success', true, 'import', private.import_json(started));
end;
$$;

/** The preview: what importing these rows would do, by the same rules as a batch; writes nothing. */
create function private.import_check(p_kind text, p_mode text, p_match_key text, p_rows jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  kind private.import_kinds;
  problem jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select * into kind from private.import_kinds k where k.kind = p_kind;
  problem := coalesce(private.import_mode_problem(kind, p_mode, p_match_key), private.import_rows_problem(p_rows));
  if problem is not null then
    return problem;
  end if;
  return jsonb_build_object('success', true) || private.import_process(kind, context, p_mode, p_match_key, p_rows, null);
end;
$$;

/**
 * Whether a batch of a running import may run now: {"answer": …} when it must not (a
 * refusal, or the stored answer of a batch applied before, with replayed true), else the
 * import and the caller's context (private.import_lookup). Without p_lock the rows' shape is
 * checked; with p_lock the import is locked until the transaction ends (so batches apply one
 * at a time) and the batch before must be applied (batch_out_of_order).
 */
create function private.import_batch_gate(p_import_id uuid, p_batch integer, p_rows jsonb, p_lock boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, p_lock);
  run jsonb := lookup -> 'import';
  schema_name text := lookup #>> '{context,schema_name}';
  stored jsonb;
  previous_applied boolean;
  problem jsonb;
begin
  if lookup ? 'success' then
    return jsonb_build_object('answer', lookup);
  end if;
  if run ->> 'created_by' <> lookup #>> '{context,caller}' then
    return jsonb_build_object('answer', private.failure('Only the person who started the import may run it', 'permission_denied'));
  end if;
  if p_batch is null or p_batch not between 0 and (private.import_limits() ->> 'max_rows')::integer then
    return jsonb_build_object('answer', private.failure('Invalid batch number', 'invalid_input'));
  end if;
  execute format('select b.result from %I.import_batches b where b.import_id = $1 and b.batch = $2', schema_name)
    into stored using p_import_id, p_batch;
  if stored is not null then
    return jsonb_build_object('answer', stored || '{"replayed": true}');
  end if;
  if run ->> 'status' <> 'running' then
    return jsonb_build_object('answer', private.failure('The import is not running', 'import_not_running'));
  end if;
  if p_lock and p_batch > 0 then
    execute format('select exists (select from %I.import_batches b where b.import_id = $1 and b.batch = $2)', schema_name)
      into previous_applied using p_import_id, p_batch - 1;
    if not previous_applied then
      return jsonb_build_object('answer', private.failure('The batch before this one has not been applied yet', 'batch_out_of_order'));
    end if;
  end if;
  -- The rows' shape is checked once, before the lock.
  problem := case when p_lock or p_rows = '[]' then null else private.import_rows_problem(p_rows) end;
  if problem is not null then
    return jsonb_build_object('answer', problem);
  end if;
  if (run ->> 'created')::integer + (run ->> 'updated')::integer + (run ->> 'skipped')::integer + (run ->> 'failed')::integer
     + jsonb_array_length(p_rows) > (run ->> 'total_rows')::integer then
    return jsonb_build_object('answer', private.failure('More rows than the file has', 'too_many_rows'));
  end if;
  return lookup;
end;
$$;

/**
 * Applies one batch of a running import (its creator only). A batch number applied before
 * answers as it did then, with replayed true, and changes nothing; so a resumed or repeated
 * batch never writes twice. Batches apply in the file's order: one whose predecessor is not
 * applied yet is refused with batch_out_of_order and changes nothing (the page keeps two
 * batches on their way and sends such a one again once the one before it is answered), so a
 * later row of the file always wins over an earlier one. A batch may be empty (every row of
 * it failed the browser's checks). The counts add up on the import; its rows may not exceed
 * the file's (too_many_rows).
 *
 * The rows go through the kind's rules as new records before the import is locked, while
 * the batch before may still be running (private.import_process, p_prepare); locked, the
 * batch is matched and written, the rows that are new taking that result.
 */
create function private.import_run_batch(p_import_id uuid, p_batch integer, p_rows jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  gate jsonb := private.import_batch_gate(p_import_id, p_batch, p_rows, false);
  run jsonb;
  context private.module_context;
  kind private.import_kinds;
  prepared jsonb;
  answer jsonb;
begin
  if gate ? 'answer' then
    return gate -> 'answer';
  end if;
  context := jsonb_populate_record(null::private.module_context, gate -> 'context');
  select * into kind from private.import_kinds k where k.kind = gate #>> '{import,kind}';
  if p_rows <> '[]' and gate #>> '{import,mode}' <> 'update' then
    prepared := private.import_process(kind, context, 'create', null, p_rows, null, true);
  end if;
  gate := private.import_batch_gate(p_import_id, p_batch, p_rows, true);
  if gate ? 'answer' then
    return gate -> 'answer';
  end if;
  run := gate -> 'import';
  answer := jsonb_build_object('success', true, 'batch', p_batch, 'replayed', false)
            || case when p_rows = '[]' then '{"created": 0, "updated": 0, "skipped": 0, "failed": 0, "results": []}'
                    else private.import_process(kind, context, run ->> 'mode', run ->> 'match_key', p_rows, p_import_id, false, prepared) end;
  execute format('insert into %I.import_batches (import_id, batch, result) values ($1, $2, $3);
                  update %I.imports set created = created + $4, updated = updated + $5, skipped = skipped + $6, failed = failed + $7
                   where id = $1', context.schema_name, context.schema_name)
    using p_import_id, p_batch, answer, (answer ->> 'created')::integer, (answer ->> 'updated')::integer,
          (answer ->> 'skipped')::integer, (answer ->> 'failed')::integer;
  return answer;
end;
$$;

/**
 * Ends a running import (its creator): completed, or cancelled; audited as <kind>.import with
 * its mode and counts (not the file name, which may name a person: the audit log is
 * append-only, so it never holds what an erasure must reach).
 */
create function private.import_finish(p_import_id uuid, p_cancelled boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, true);
  run jsonb := lookup -> 'import';
  context private.module_context;
begin
  if lookup ? 'success' then
    return lookup;
  end if;
  context := jsonb_populate_record(null::private.module_context, lookup -> 'context');
  if run ->> 'created_by' <> context.caller::text then
    return private.failure('Only the person who started the import may finish it', 'permission_denied');
  end if;
  if run ->> 'status' <> 'running' then
    return private.failure('The import is not running', 'import_not_running');
  end if;
  execute format('update %I.imports i set status = $2, finished_at = now() where i.id = $1 returning to_jsonb(i)', context.schema_name)
    into run using p_import_id, case when coalesce(p_cancelled, false) then 'cancelled' else 'completed' end;
  perform private.write_audit(context.organization_id, (run ->> 'kind') || '.import', 'import', p_import_id::text,
    jsonb_build_object('mode', run -> 'mode', 'match_key', run -> 'match_key',
                       'status', run -> 'status', 'total_rows', run -> 'total_rows', 'created', run -> 'created',
                       'updated', run -> 'updated', 'skipped', run -> 'skipped', 'failed', run -> 'failed'));
  return jsonb_build_object('success', true, 'import', private.import_json(run));
end;
$$;

/** An import the caller may see, with its mapping and the batch numbers applied (for a resume). */
create function private.import_get(p_import_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, false);
  context private.module_context;
  batches jsonb;
begin
  if lookup ? 'success' then
    return lookup;
  end if;
  context := jsonb_populate_record(null::private.module_context, lookup -> 'context');
  execute format('select coalesce(jsonb_agg(b.batch order by b.batch), ''[]'') from %I.import_batches b where b.import_id = $1',
                 context.schema_name)
    into batches using p_import_id;
  return jsonb_build_object('success', true, 'import', private.import_json(lookup -> 'import')
    || jsonb_build_object('mapping', lookup #> '{import,mapping}', 'batches', batches));
end;
$$;

/**
 * The imports of the kinds the caller may import (p_kind: one of them), newest first, at
 * most p_limit (1-200): all of a kind with scope all, the caller's own with scope own.
 */
create function private.import_list(p_kind text, p_limit integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('organization');
  caller uuid := context.user_id;
  schema_name text := private.tenant_schema(context.organization_id);
  kinds_all text[];
  kinds_own text[];
  imports jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if schema_name is null then
    return private.refusal('tables_not_found');
  end if;
  if p_kind is not null and not exists (select 1 from private.import_kinds k where k.kind = p_kind) then
    return private.failure('Unknown import kind', 'unknown_kind');
  end if;
  select array_agg(k.kind) filter (where s.scope = 'all'), array_agg(k.kind) filter (where s.scope = 'own' and not k.scope_all)
    into kinds_all, kinds_own
    from private.import_kinds k
    join private.caller_scopes('import') s on s.module = k.module
   where p_kind is null or k.kind = p_kind;
  if kinds_all is null and kinds_own is null then
    return private.refusal('permission_denied');
  end if;
  execute format('select coalesce(jsonb_agg(private.import_json(to_jsonb(i)) order by i.created_at desc, i.id desc), ''[]'')
                    from (select * from %I.imports i
                           where i.kind = any ($1) or (i.kind = any ($2) and i.created_by = $3)
                           order by i.created_at desc, i.id desc limit $4) i', schema_name)
    into imports using coalesce(kinds_all, '{}'), coalesce(kinds_own, '{}'), caller, least(greatest(coalesce(p_limit, 50), 1), 200);
  return jsonb_build_object('success', true, 'imports', imports);
end;
$$;

/**
 * Undoes a finished import (its creator, or anyone with the kind's import permission in
 * scope all): the records it created are soft-deleted, the ones it updated get their
 * previous values back (field history, audit <kind>.import_revert). Refused while running
 * or once reverted (import_not_revertible), and when any of its records was edited or
 * deleted since the import wrote it (import_changed_since, with how many).
 */
create function private.import_revert(p_import_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, true);
  run jsonb := lookup -> 'import';
  context private.module_context;
  kind private.import_kinds;
  relation regclass;
  changed integer;
  deleted integer;
  restored integer := 0;
  restore_columns text[];
  quiet text := current_setting('crm.quiet_assignments', true);
begin
  if lookup ? 'success' then
    return lookup;
  end if;
  context := jsonb_populate_record(null::private.module_context, lookup -> 'context');
  if run ->> 'status' not in ('completed', 'cancelled') then
    return private.failure('Only a finished import can be undone', 'import_not_revertible');
  end if;
  select * into kind from private.import_kinds k where k.kind = run ->> 'kind';
  relation := format('%I.%I', context.schema_name, kind.table_name)::regclass;

  -- The import's records, locked; any changed since the import wrote it refuses the undo.
  execute format('select count(*) from (select 1 from %s t join %I.import_rows r on r.record_id = t.id and r.import_id = $1 for update of t) locked',
                 relation, context.schema_name)
    using p_import_id;
  execute format('select count(*) from %I.import_rows r left join %s t on t.id = r.record_id
                   where r.import_id = $1 and (t.id is null or t.deleted_at is not null or t.updated_at <> r.written_at)',
                 context.schema_name, relation)
    into changed using p_import_id;
  if changed > 0 then
    return private.failure('Records of this import were changed since', 'import_changed_since', jsonb_build_object('changed', changed));
  end if;

  perform pg_catalog.set_config('crm.quiet_assignments', 'on', true);
  begin
    execute format('with gone as (update %s t set deleted_at = now() from %I.import_rows r
                                   where r.import_id = $1 and r.action = ''created'' and t.id = r.record_id returning t.id)
                    select count(*) from gone', relation, context.schema_name)
      into deleted using p_import_id;
    execute format('select array(select distinct k from %I.import_rows r, jsonb_object_keys(r.previous) k
                                   where r.import_id = $1 and r.action = ''updated'')', context.schema_name)
      into restore_columns using p_import_id;
    if cardinality(restore_columns) > 0 then
      execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                      select $2, t.id, p.key, to_jsonb(t) -> p.key, p.value, $3
                        from %I.import_rows r
                        join %s t on t.id = r.record_id
                        cross join lateral jsonb_each(r.previous) p
                       where r.import_id = $1 and r.action = ''updated'' and (to_jsonb(t) -> p.key) is distinct from p.value',
                     context.schema_name, context.schema_name, relation)
        using p_import_id, kind.entity_type, context.caller;
      execute format('with written as (%s) select count(*) from written',
                     private.import_update_sql(relation, restore_columns, format(
                       'select r.record_id as id, r.previous as write from %I.import_rows r where r.import_id = $1 and r.action = ''updated''',
                       context.schema_name)))
        into restored using p_import_id;
    end if;
  exception when integrity_constraint_violation or data_exception then
    perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);
    return private.failure('A previous value cannot be restored', 'import_revert_conflict');
  end;
  perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);

  execute format('update %I.imports set status = ''reverted'', reverted_at = now(), reverted_by = $2 where id = $1', context.schema_name)
    using p_import_id, context.caller;
  perform private.write_audit(context.organization_id, kind.kind || '.import_revert', 'import', p_import_id::text,
                              jsonb_build_object('deleted', deleted, 'restored', restored));
  return jsonb_build_object('success', true, 'deleted', deleted, 'restored', restored);
end;
$$;

/** A saved mapping as the app reads it. */
create function private.import_mapping_json(p_mapping jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('id', p_mapping -> 'id', 'name', p_mapping -> 'name', 'mapping', p_mapping -> 'mapping',
                            'owner_id', p_mapping -> 'owner_id', 'updated_at', p_mapping -> 'updated_at');
$$;

/** The caller's saved mappings of a kind they may import, by name. */
create function private.import_mapping_list(p_kind text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  mappings jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select coalesce(jsonb_agg(private.import_mapping_json(to_jsonb(m)) order by private.fold_search(m.name), m.id), ''[]'')
                    from %I.import_mappings m where m.kind = $1 and m.owner_id = $2 and m.deleted_at is null', context.schema_name)
    into mappings using p_kind, context.caller;
  return jsonb_build_object('success', true, 'mappings', mappings);
end;
$$;

/** Saves a mapping under a name (1-100 characters; the caller's mapping of that name and kind is replaced). */
create function private.import_mapping_save(p_kind text, p_name text, p_mapping jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  clean_name text := btrim(coalesce(p_name, ''));
  problem jsonb;
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if clean_name = '' or char_length(clean_name) > 100 then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(
      'name', case when clean_name = '' then 'required' else 'too_long' end)));
  end if;
  problem := private.import_mapping_problem(p_mapping);
  if problem is not null then
    return problem;
  end if;
  execute format('insert into %I.import_mappings as m (kind, name, mapping, owner_id, created_by) values ($1, $2, $3, $4, $4)
                  on conflict (owner_id, kind, name) where deleted_at is null do update set mapping = excluded.mapping
                  returning to_jsonb(m)', context.schema_name)
    into saved using p_kind, clean_name, p_mapping, context.caller;
  return jsonb_build_object('success', true, 'mapping', private.import_mapping_json(saved));
end;
$$;

/** Deletes one of the caller's saved mappings. */
create function private.import_mapping_delete(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  guard private.caller_context := private.caller_context('organization');
  caller uuid := guard.user_id;
  schema_name text := private.tenant_schema(guard.organization_id);
  kind text;
  context private.module_context;
begin
  if guard.problem is not null then
    return guard.problem;
  end if;
  if schema_name is null then
    return private.refusal('tables_not_found');
  end if;
  execute format('select m.kind from %I.import_mappings m where m.id = $1 and m.owner_id = $2 and m.deleted_at is null', schema_name)
    into kind using p_id, caller;
  if kind is null then
    return private.failure('Mapping not found', 'not_found');
  end if;
  context := private.import_context(kind);
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('update %I.import_mappings set deleted_at = now() where id = $1', schema_name) using p_id;
  return jsonb_build_object('success', true);
end;
$$;

/**
 * A page of a module's records the caller may see for an action ('view' for the lists,
 * 'export' for the export; scope own: their own), not deleted: Turkish-folded search
 * (trigram index), filters on the module's filterable columns ({column: value | [values] |
 * {"from", "to"} | {"is_null": boolean}}, "me" for owner_id), a sortable column (text sorts
 * folded), at most p_max_limit rows; list rows (the module's list columns) or whole rows
 * (every column but the search column, with owner_name). With {"deleted_at": {"is_null":
 * false}} the deleted records instead (with deleted_at), checked against the delete
 * permission and its scope. The total is exact up to 10,000 matches and "at least 10,000"
 * beyond, so no page waits on a count of a million rows. A search the planner expects to
 * match more than 20,000 rows is not counted and, when a text column was asked for, comes
 * newest first; sorted_by names the order used.
 */
create function private.record_page(p_module text, p_action text, p_search text, p_filters jsonb, p_sort text,
                                    p_descending boolean, p_limit integer, p_offset integer, p_max_limit integer,
                                    p_whole_rows boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  module private.modules;
  relation regclass;
  sort_key text;
  sort_type text;
  sort_expression text;
  direction text;
  filters jsonb := coalesce(p_filters, '{}');
  filter_key text;
  filter_type text;
  filter_value jsonb;
  filter_values text[];
  -- {"deleted_at": {"is_null": false}}: the deleted records instead (the trash), for those who may restore them.
  deleted boolean := coalesce(p_filters -> 'deleted_at' = '{"is_null": false}', false);
  conditions text := case when coalesce(p_filters -> 'deleted_at' = '{"is_null": false}', false)
                          then 't.deleted_at is not null' else 't.deleted_at is null' end
                     || ' and ($1 = ''all'' or t.owner_id = $2)';
  folded text := private.fold_search(btrim(coalesce(p_search, '')));
  -- The JSON of a page row r.
  projection text;
  pattern text;
  source text;
  page jsonb;
  counted bigint;
  broad boolean := false;
  count_cap constant integer := 10000;
  -- Searches the planner expects to match more rows than this are not counted.
  broad_estimate constant integer := 20000;
begin
  context := private.module_context(p_module, case when deleted then 'delete' else p_action end);
  if context.problem is not null then
    return context.problem;
  end if;
  select * into module from private.modules m where m.key = p_module;
  relation := format('%I.%I', context.schema_name, context.table_name)::regclass;
  sort_key := coalesce(nullif(p_sort, ''), module.default_sort);
  direction := case when coalesce(p_descending, module.default_descending and p_sort is null) then 'desc' else 'asc' end;
  if not (sort_key = any (module.sortable_columns)) or coalesce(p_offset, 0) < 0
     or jsonb_typeof(filters) <> 'object' or (folded <> '' and not module.searchable) then
    return private.failure('Invalid list request', 'invalid_input');
  end if;

  for filter_key in select k from jsonb_object_keys(filters) k loop
    if filter_key = 'deleted_at' then
      -- Only the two states: not deleted (the default) or deleted (handled above).
      if filters -> filter_key not in ('{"is_null": false}', '{"is_null": true}') then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      continue;
    end if;
    if not (filter_key = any (module.filterable_columns) or filter_key = 'owner_id') then
      return private.failure('Invalid list request', 'invalid_input');
    end if;
    select pg_catalog.format_type(a.atttypid, a.atttypmod) into filter_type
      from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = filter_key;
    filter_value := filters -> filter_key;
    if jsonb_typeof(filter_value) = 'object' and filter_value ? 'is_null' then
      -- Set or not set, on any filterable column: {"is_null": true|false} alone.
      if jsonb_typeof(filter_value -> 'is_null') <> 'boolean' or (select count(*) from jsonb_object_keys(filter_value)) <> 1 then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      conditions := conditions || format(' and t.%I is %s null', filter_key,
                                         case when (filter_value ->> 'is_null')::boolean then '' else 'not' end);
      continue;
    end if;
    if jsonb_typeof(filter_value) = 'object' then
      -- A range: only on dates, times and numbers, only "from" and "to".
      if filter_type !~ '^(date|timestamp|numeric|integer|bigint|smallint)'
         or exists (select 1 from jsonb_object_keys(filter_value) k where k not in ('from', 'to'))
         or exists (select 1 from jsonb_each(filter_value) e where jsonb_typeof(e.value) not in ('string', 'number')) then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      conditions := conditions
        || case when filter_value ? 'from' then format(' and t.%I >= %L::%s', filter_key, filter_value ->> 'from', filter_type) else '' end
        || case when filter_value ? 'to' then format(' and t.%I < %L::%s', filter_key, filter_value ->> 'to', filter_type) else '' end;
      continue;
    end if;
    if jsonb_typeof(filter_value) <> 'array' then
      filters := jsonb_set(filters, array[filter_key], jsonb_build_array(filter_value));
    end if;
    if filter_key = 'owner_id' then
      filters := jsonb_set(filters, '{owner_id}', (
        select jsonb_agg(case when v = '"me"' then to_jsonb(context.caller) else v end)
          from jsonb_array_elements(filters -> 'owner_id') v));
    end if;
    -- The column and its type come from the registry and the catalog; the values are quoted
    -- literals (%L), so the planner sees them: as a subquery over the parameter it guessed a
    -- third of the table for any value and walked a 500,000-row index for three rows (1.7 s).
    select array_agg(v) into filter_values from jsonb_array_elements_text(filters -> filter_key) v;
    conditions := conditions || case
      when filter_type like '%[]' then format(' and t.%I && %L::%s', filter_key, filter_values, filter_type)
      else format(' and t.%I = any(%L::%s[])', filter_key, filter_values, filter_type) end;
  end loop;
  if folded <> '' then
    conditions := conditions || ' and t.search_text like $4';
  end if;

  -- A list row: the module's list columns; a whole row: every column but the search column.
  if p_whole_rows then
    projection := 'to_jsonb(r) - ''search_text'' - ''position''';
  else
    select format('jsonb_build_object(''id'', r.id, ''owner_id'', r.owner_id, ''owner_name'', r.owner_name, '
                  '''created_at'', r.created_at, ''updated_at'', r.updated_at, %s)', string_agg(format('%L, r.%I', c, c), ', '))
      into projection from unnest(module.list_columns) c;
  end if;
  pattern := '%' || replace(replace(replace(folded, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  begin
    if folded <> '' then
      broad := private.estimated_list_rows(format('select 1 from %s t where %s', relation, conditions),
                                           context.scope, context.caller, filters, pattern) > broad_estimate;
    end if;
    if broad then
      counted := count_cap + 1;
    else
      execute format('select count(*) from (select 1 from %s t where %s limit %s) capped', relation, conditions, count_cap + 1)
        into counted using context.scope, context.caller, filters, pattern;
    end if;

    -- Text sorts folded (Ç beside C, İ beside I): PGlite has no ICU collations to ask.
    select pg_catalog.format_type(a.atttypid, a.atttypmod) into sort_type
      from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = sort_key;
    if broad and sort_type = 'text' then
      -- Matches of a broad search cluster in name order (a name search meets them all at
      -- one letter); in date order they are spread, so the newest come at once.
      sort_key := 'created_at';
      sort_type := 'timestamp with time zone';
      direction := 'desc';
    end if;
    sort_expression := case when sort_type = 'text' then format('private.fold_search(t.%I)', sort_key)
                            else format('t.%I', sort_key) end;

    -- A search matching at most count_cap rows: fetch its matches through the trigram index,
    -- then sort them (the planner, misjudging a pattern, may walk the whole sort index
    -- instead: 190 ms at a million rows). Denser matches: the sort index finds a page fast.
    if folded <> '' and counted <= count_cap then
      source := format('(select * from %s t where %s offset 0)', relation, conditions);
    else
      source := relation::text;
    end if;
    execute format($query$
      select coalesce(jsonb_agg(%1$s
                                || case when %6$L then jsonb_build_object('deleted_at', r.deleted_at) else '{}' end
                                order by r.position), '[]')
        from (select t.*, nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') as owner_name,
                     row_number() over (order by %2$s %3$s, t.id %3$s) as position
                from %4$s t
                left join private.profiles p on p.id = t.owner_id
               where %5$s
               order by %2$s %3$s, t.id %3$s
               limit $5 offset $6) r$query$,
      projection, sort_expression, direction, source, conditions, deleted)
      into page
      using context.scope, context.caller, filters, pattern,
            least(greatest(coalesce(p_limit, 50), 1), p_max_limit), coalesce(p_offset, 0);
  exception when invalid_text_representation or invalid_datetime_format or datatype_mismatch
                 or datetime_field_overflow or numeric_value_out_of_range then
    return private.failure('Invalid list request', 'invalid_input');
  end;

  return jsonb_build_object('success', true, 'scope', context.scope, 'records', page,
                            'total', least(counted, count_cap), 'total_exact', counted <= count_cap,
                            'sorted_by', sort_key, 'descending', direction = 'desc');
end;
$$;

/**
 * One page of a module's export: the module's export permission and scope, the list's
 * search, filters and sort (private.record_page), p_limit whole rows (1-5,000) from
 * p_offset; next_offset where the next page starts (null after the last). The first page
 * (offset 0) writes the audit entry <module>.export with the filters and whether a search
 * narrowed it (not the words searched, which may name a person: the audit log is
 * append-only, so it never holds what an erasure must reach).
 */
create function private.record_export(p_module text, p_search text, p_filters jsonb, p_sort text, p_descending boolean,
                                      p_offset integer, p_limit integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'export');
  page jsonb;
  fetched integer;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_limit is null or p_limit not between 1 and (private.import_limits() ->> 'export_rows')::integer
     or p_offset is null or p_offset < 0 then
    return private.failure('Invalid export request', 'invalid_input');
  end if;
  page := private.record_page(p_module, 'export', p_search, p_filters, p_sort, p_descending, p_limit, p_offset,
                              (private.import_limits() ->> 'export_rows')::integer, true);
  if not (page ->> 'success')::boolean then
    return page;
  end if;
  if p_offset = 0 then
    perform private.write_audit(context.organization_id, p_module || '.export', p_module, null,
                                jsonb_build_object('searched', btrim(coalesce(p_search, '')) <> '', 'filters', p_filters));
  end if;
  fetched := jsonb_array_length(page -> 'records');
  return jsonb_build_object('success', true, 'records', page -> 'records', 'total', page -> 'total',
    'total_exact', page -> 'total_exact',
    'next_offset', case when fetched = p_limit and (not (page ->> 'total_exact')::boolean or p_offset + fetched < (page ->> 'total')::integer)
                        then p_offset + fetched end);
end;
$$;

/** Starts an import of a file: kind, file name, size and sha256, mode, match key, row count, column mapping. */
create function public.start_import(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text,
                                    p_match_key text, p_total_rows integer, p_mapping jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_start(p_kind, p_file_name, p_file_size, p_file_hash, p_mode, p_match_key, p_total_rows, p_mapping); $$;
revoke all on function public.start_import(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text, p_match_key text, p_total_rows integer, p_mapping jsonb) from public, anon, authenticated;
grant execute on function public.start_import(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text, p_match_key text, p_total_rows integer, p_mapping jsonb) to authenticated;

/** What importing these rows would do (the preview); writes nothing. */
create function public.check_import_rows(p_kind text, p_mode text, p_match_key text, p_rows jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_check(p_kind, p_mode, p_match_key, p_rows); $$;
revoke all on function public.check_import_rows(p_kind text, p_mode text, p_match_key text, p_rows jsonb) from public, anon, authenticated;
grant execute on function public.check_import_rows(p_kind text, p_mode text, p_match_key text, p_rows jsonb) to authenticated;

/** Applies one batch (up to 1,000 rows) of a running import; a batch applied before answers as before. */
create function public.run_import_batch(p_import_id uuid, p_batch integer, p_rows jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_run_batch(p_import_id, p_batch, p_rows); $$;
revoke all on function public.run_import_batch(p_import_id uuid, p_batch integer, p_rows jsonb) from public, anon, authenticated;
grant execute on function public.run_import_batch(p_import_id uuid, p_batch integer, p_rows jsonb) to authenticated;

/** Ends a running import: completed, or cancelled. */
create function public.finish_import(p_import_id uuid, p_cancelled boolean default false)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_finish(p_import_id, p_cancelled); $$;
revoke all on function public.finish_import(p_import_id uuid, p_cancelled boolean) from public, anon, authenticated;
grant execute on function public.finish_import(p_import_id uuid, p_cancelled boolean) to authenticated;

/** An import with its mapping and applied batches. */
create function public.get_import(p_import_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_get(p_import_id); $$;
revoke all on function public.get_import(p_import_id uuid) from public, anon, authenticated;
grant execute on function public.get_import(p_import_id uuid) to authenticated;

/** The imports the caller may see, newest first. */
create function public.list_imports(p_kind text default null, p_limit integer default 50)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_list(p_kind, p_limit); $$;
revoke all on function public.list_imports(p_kind text, p_limit integer) from public, anon, authenticated;
grant execute on function public.list_imports(p_kind text, p_limit integer) to authenticated;

/** Undoes a finished import, unless its records were changed since. */
create function public.revert_import(p_import_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_revert(p_import_id); $$;
revoke all on function public.revert_import(p_import_id uuid) from public, anon, authenticated;
grant execute on function public.revert_import(p_import_id uuid) to authenticated;

/** The caller's saved column mappings of a kind. */
create function public.list_import_mappings(p_kind text)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.import_mapping_list(p_kind); $$;
revoke all on function public.list_import_mappings(p_kind text) from public, anon, authenticated;
grant execute on function public.list_import_mappings(p_kind text) to authenticated;

/** Saves a column mapping under a name (replacing the caller's mapping of that name). */
create function public.save_import_mapping(p_kind text, p_name text, p_mapping jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_mapping_save(p_kind, p_name, p_mapping); $$;
revoke all on function public.save_import_mapping(p_kind text, p_name text, p_mapping jsonb) from public, anon, authenticated;
grant execute on function public.save_import_mapping(p_kind text, p_name text, p_mapping jsonb) to authenticated;

/** Deletes one of the caller's saved mappings. */
create function public.delete_import_mapping(p_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_mapping_delete(p_id); $$;
revoke all on function public.delete_import_mapping(p_id uuid) from public, anon, authenticated;
grant execute on function public.delete_import_mapping(p_id uuid) to authenticated;

/** One page (up to 5,000 whole rows) of a module's export, with the list's search, filters and sort. */
create function public.export_records(p_module text, p_search text default null, p_filters jsonb default null,
                                      p_sort text default null, p_descending boolean default null,
                                      p_offset integer default 0, p_limit integer default 5000)
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_export(p_module, p_search, p_filters, p_sort, p_descending, p_offset, p_limit); $$;
revoke all on function public.export_records(p_module text, p_search text, p_filters jsonb, p_sort text, p_descending boolean, p_offset integer, p_limit integer) from public, anon, authenticated;
grant execute on function public.export_records(p_module text, p_search text, p_filters jsonb, p_sort text, p_descending boolean, p_offset integer, p_limit integer) to authenticated;

-- The home dashboard: money by stage and currency, recent activity, the caller's numbers.

/**
 * Money of grouped deals ([{currency, count, amount}]): the count, the totals per
 * currency (the organization's first), the amount converted to the organization's
 * currency with its exchange rates (1 unit = rate units of the default currency), and the
 * currencies without a rate (left out of the converted amount).
 */
create function private.money_summary(p_groups jsonb, p_currency text, p_rates jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  with g as (
    select e ->> 'currency' as currency, sum((e ->> 'count')::bigint) as n, sum((e ->> 'amount')::numeric) as amount
      from jsonb_array_elements(coalesce(p_groups, '[]')) e
     group by e ->> 'currency'
  )
  select jsonb_build_object(
    'count', coalesce(sum(g.n), 0),
    'totals', coalesce(jsonb_agg(jsonb_build_object('currency', g.currency, 'amount', g.amount)
                                 order by g.currency <> p_currency, g.currency), '[]'),
    'amount', round(coalesce(sum(g.amount * case when g.currency = p_currency then 1
                                                 else (p_rates ->> g.currency)::numeric end), 0), 2),
    'unconverted', coalesce(jsonb_agg(g.currency order by g.currency)
                              filter (where g.currency <> p_currency and p_rates ->> g.currency is null), '[]'))
    from g;
$$;

/**
 * The 10 latest audit entries about records the caller owns (not deleted) in the modules
 * they may view: among their 10 most recently changed records per module, and the
 * records of theirs the organization's latest 300 entries name (a note does not change
 * its record). [{action, module, record_id, title, actor_id, actor_name, at}]. The modules
 * the caller may view come from one scope lookup (private.caller_scopes).
 */
create function private.recent_activity(p_organization_id uuid, p_schema text, p_caller uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  module record;
  latest jsonb;
  found jsonb;
  candidates jsonb := '[]';
begin
  select coalesce(jsonb_agg(jsonb_build_object('module', a.target_type, 'id', a.target_id)), '[]') into latest
    from (select l.target_type, l.target_id from private.audit_log l
           where l.organization_id = p_organization_id order by l.created_at desc limit 300) a
   where a.target_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
  for module in
    select m.key, m.table_name from private.modules m
      join private.caller_scopes('view') s on s.module = m.key
     where s.scope is not null order by m.position
  loop
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('module', $3, 'id', t.id, 'title', private.record_title($3, to_jsonb(t)))), '[]')
        from %1$I.%2$I t
       where t.id in (select mine.id from (select r.id from %1$I.%2$I r where r.owner_id = $1 and r.deleted_at is null
                                            order by r.updated_at desc limit 10) mine
                      union
                      select (e ->> 'id')::uuid from jsonb_array_elements($2) e where e ->> 'module' = $3)
         and t.owner_id = $1 and t.deleted_at is null$query$,
      p_schema, module.table_name)
      into found using p_caller, latest, module.key;
    candidates := candidates || found;
  end loop;

  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'action', substr(a.action, char_length(a.target_type) + 2), 'module', a.target_type,
             'record_id', a.target_id::uuid, 'title', a.title, 'actor_id', a.actor_id,
             'actor_name', (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
                              from private.profiles p where p.id = a.actor_id),
             'at', a.created_at) order by a.created_at desc, a.id desc), '[]')
      from (select l.*, c.title from jsonb_to_recordset(candidates) as c (module text, id uuid, title text)
              cross join lateral (select * from private.audit_log l
                                   where l.organization_id = p_organization_id and l.target_type = c.module
                                     and l.target_id = c.id::text and l.action like c.module || '.%'
                                   order by l.created_at desc limit 10) l
             order by l.created_at desc, l.id desc limit 10) a);
end;
$$;

/**
 * The signed-in member's home dashboard in their session's organization, within their
 * view scope of deals and tasks (a module they may not view is null):
 * pipeline: the open stages in order [{key, name, probability, count, totals: [{currency,
 *   amount}], amount (converted), unconverted: [currency]}];
 * won, lost: {month, quarter} each {count, totals, amount, unconverted}, by closed_at,
 *   month and quarter in the organization's time zone;
 * tasks: my open and overdue counts and my next 5 open tasks [{id, title, due_at,
 *   priority, status}] (soonest due first, undated last);
 * recent_activity: the 10 latest audit entries about records I own.
 * {success, currency, time_zone, deals_scope, tasks_scope, pipeline, won, lost, tasks, recent_activity}.
 * The session's organization and the caller's scopes are looked up once each; my open
 * and overdue counts add the rows of task_due_totals, the overdue ones those
 * of earlier UTC days and the tasks of today already due.
 */
create function public.get_dashboard()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('organization');
  caller uuid := context.user_id;
  target_org uuid := context.organization_id;
  tenant text := private.tenant_schema(target_org);
  settings private.organization_settings;
  deals_scope text;
  tasks_scope text;
  month_start timestamptz;
  quarter_start timestamptz;
  open_keys text[];
  won_keys text[];
  lost_keys text[];
  groups jsonb;
  closed jsonb;
  pipeline jsonb;
  won jsonb;
  lost jsonb;
  tasks jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if tenant is null then
    return private.refusal('tables_not_found');
  end if;
  select max(s.scope) filter (where s.module = 'deals'), max(s.scope) filter (where s.module = 'tasks')
    into deals_scope, tasks_scope
    from private.caller_scopes('view') s;
  select * into settings from private.organization_settings s where s.organization_id = target_org;
  month_start := date_trunc('month', now() at time zone settings.time_zone) at time zone settings.time_zone;
  quarter_start := date_trunc('quarter', now() at time zone settings.time_zone) at time zone settings.time_zone;

  if deals_scope is not null then
    open_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'open');
    won_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'won');
    lost_keys := array(select s ->> 'key' from jsonb_array_elements(settings.deal_stages) s where s ->> 'outcome' = 'lost');
    -- The board's totals, kept per owner, stage and currency (deal_stage_totals).
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total)), '[]')
        from (select t.stage, t.currency, sum(t.deal_count) as n, sum(t.amount) as total
                from %I.deal_stage_totals t
               where ($1 = 'all' or t.owner_id = $2) and t.stage = any ($3)
               group by t.stage, t.currency having sum(t.deal_count) > 0) g$query$, tenant)
      into groups using deals_scope, caller, open_keys;
    pipeline := (
      select jsonb_agg(jsonb_build_object('key', s ->> 'key', 'name', s ->> 'name', 'probability', s -> 'probability')
                       || private.money_summary((select jsonb_agg(g) from jsonb_array_elements(groups) g
                                                  where g ->> 'stage' = s ->> 'key'),
                                                settings.default_currency, settings.exchange_rates)
                       order by n)
        from jsonb_array_elements(settings.deal_stages) with ordinality e (s, n)
       where s ->> 'outcome' = 'open');

    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('stage', g.stage, 'currency', g.currency, 'count', g.n, 'amount', g.total,
                                                   'month_count', g.month_n, 'month_amount', g.month_total)), '[]')
        from (select t.stage, t.currency, count(*) as n, sum(t.amount) as total,
                     count(*) filter (where t.closed_at >= $5) as month_n,
                     coalesce(sum(t.amount) filter (where t.closed_at >= $5), 0) as month_total
                from %I.deals t
               where t.deleted_at is null and t.closed_at is not null and t.closed_at >= $4
                 and ($1 = 'all' or t.owner_id = $2) and t.stage = any ($3)
               group by t.stage, t.currency) g$query$, tenant)
      into closed using deals_scope, caller, won_keys || lost_keys, quarter_start, month_start;
    won := jsonb_build_object(
      'month', private.money_summary((select jsonb_agg(jsonb_build_object('currency', c ->> 'currency', 'count', c -> 'month_count',
                                                                          'amount', c -> 'month_amount'))
                                        from jsonb_array_elements(closed) c where c ->> 'stage' = any (won_keys) and (c ->> 'month_count')::int > 0),
                                     settings.default_currency, settings.exchange_rates),
      'quarter', private.money_summary((select jsonb_agg(c) from jsonb_array_elements(closed) c where c ->> 'stage' = any (won_keys)),
                                       settings.default_currency, settings.exchange_rates));
    lost := jsonb_build_object(
      'month', private.money_summary((select jsonb_agg(jsonb_build_object('currency', c ->> 'currency', 'count', c -> 'month_count',
                                                                          'amount', c -> 'month_amount'))
                                        from jsonb_array_elements(closed) c where c ->> 'stage' = any (lost_keys) and (c ->> 'month_count')::int > 0),
                                     settings.default_currency, settings.exchange_rates),
      'quarter', private.money_summary((select jsonb_agg(c) from jsonb_array_elements(closed) c where c ->> 'stage' = any (lost_keys)),
                                       settings.default_currency, settings.exchange_rates));
  end if;

  if tasks_scope is not null then
    execute format($query$
      select jsonb_build_object(
        'open', (select coalesce(sum(d.task_count), 0) from %1$I.task_due_totals d
                  where d.owner_id = $1 and d.status in ('open', 'in_progress')),
        'overdue', (select coalesce(sum(d.task_count), 0) from %1$I.task_due_totals d
                     where d.owner_id = $1 and d.status in ('open', 'in_progress') and d.due_day < $2)
                   + (select count(*) from %1$I.tasks t
                       where t.owner_id = $1 and t.deleted_at is null and t.status in ('open', 'in_progress')
                         and t.due_at >= $3 and t.due_at < now()),
        'next', (select coalesce(jsonb_agg(jsonb_build_object('id', n.id, 'title', n.title, 'due_at', n.due_at,
                                                              'priority', n.priority, 'status', n.status)
                                           order by n.due_at nulls last, n.id), '[]')
                   from (select * from ((select t.id, t.title, t.due_at, t.priority, t.status from %1$I.tasks t
                                          where t.owner_id = $1 and t.deleted_at is null and t.status = 'open'
                                          order by t.due_at nulls last, t.id limit 5)
                                        union all
                                        (select t.id, t.title, t.due_at, t.priority, t.status from %1$I.tasks t
                                          where t.owner_id = $1 and t.deleted_at is null and t.status = 'in_progress'
                                          order by t.due_at nulls last, t.id limit 5)) both_states
                          order by both_states.due_at nulls last, both_states.id limit 5) n))$query$, tenant)
      into tasks using caller, (now() at time zone 'UTC')::date, (now() at time zone 'UTC')::date::timestamp at time zone 'UTC';
  end if;

  return jsonb_build_object('success', true, 'currency', settings.default_currency, 'time_zone', settings.time_zone,
    'deals_scope', deals_scope, 'tasks_scope', tasks_scope,
    'pipeline', pipeline, 'won', won, 'lost', lost, 'tasks', tasks,
    'recent_activity', private.recent_activity(target_org, tenant, caller));
end;
$$;
revoke all on function public.get_dashboard() from public, anon, authenticated;
grant execute on function public.get_dashboard() to authenticated;

insert into private.tenant_template_steps (version, description, ddl) values (1,
'Every module''s tables, as supabase/tenant/ defines them at the baseline',
$template$
-- Each organization's own tables: document templates.
-- Runs as a template step runs (search_path = the organization's schema).

create table document_templates (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('quote', 'contract')),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  body text not null default '' check (char_length(body) <= 200000),
  is_default boolean not null default false
);

select private.add_record_columns(current_schema(), 'document_templates');

create unique index document_templates_one_default_idx on document_templates (kind)
  where is_default and deleted_at is null;

-- Each organization's own tables: notes, field history and saved views.
-- Runs as a template step runs (search_path = the organization's schema).

create table notes (
  id uuid primary key default gen_random_uuid(),
  -- A registered module's entity type (private.modules.entity_type, which the engine writes).
  entity_type text not null check (entity_type ~ '^[a-z_]{1,40}$'),
  entity_id uuid not null,
  body text not null check (char_length(body) between 1 and 20000)
);

select private.add_record_columns(current_schema(), 'notes');

create index notes_entity_idx on notes (entity_type, entity_id);

create table field_history (
  id bigint generated always as identity primary key,
  entity_type text not null check (char_length(entity_type) <= 40),
  record_id uuid not null,
  field text not null check (char_length(field) <= 63),
  old_value jsonb,
  new_value jsonb,
  changed_by uuid,
  changed_at timestamptz not null default now()
);

create index field_history_record_idx on field_history (record_id, changed_at desc);

create table saved_views (
  id uuid primary key default gen_random_uuid(),
  module text not null check (module ~ '^[a-z][a-z_]{0,39}$'),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  owner_id uuid not null,
  is_shared boolean not null default false,
  -- {search, filters, sort, descending, columns}, checked against the module's registry row.
  definition jsonb not null default '{}' check (jsonb_typeof(definition) = 'object' and octet_length(definition::text) <= 10000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index saved_views_module_idx on saved_views (module, owner_id);

create trigger touch_updated_at before update on saved_views for each row execute function private.touch_updated_at();

-- Each organization's own tables: customers.
-- Runs as a template step runs (search_path = the organization's schema).

create table customers (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 300),
  kind text not null default 'company' check (kind in ('company', 'person')),
  tax_number text check (tax_number ~ '^[0-9]{10,11}$'),
  tax_office text check (char_length(tax_office) <= 100),
  sector text check (char_length(sector) <= 100),
  status text not null default 'lead' check (status in ('lead', 'active', 'passive')),
  phone text check (phone ~ '^\+[0-9]{8,15}$'),
  email text check (char_length(email) <= 254),
  website text check (char_length(website) <= 300),
  city text check (char_length(city) <= 60),
  district text check (char_length(district) <= 60),
  address text check (char_length(address) <= 1000),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  description text check (char_length(description) <= 10000),
  merged_into uuid references customers (id),
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    name || ' ' || coalesce(tax_number, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')
    || ' ' || coalesce(city, ''))) stored
);

select private.add_record_columns(current_schema(), 'customers');

create index customers_search_idx on customers using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index customers_name_sort_idx on customers (private.fold_search(name), id) where deleted_at is null;

create index customers_created_sort_idx on customers (created_at, id) where deleted_at is null;

create index customers_updated_sort_idx on customers (updated_at, id) where deleted_at is null;

create index customers_status_idx on customers (status, id) where deleted_at is null;

create index customers_tax_number_idx on customers (tax_number) where deleted_at is null;

create index customers_email_idx on customers (email) where deleted_at is null;

create index customers_phone_idx on customers (phone) where deleted_at is null;

-- merged_into points back into the table: without an index every hard delete of a
-- customer scans the whole table for rows merged into it (a bulk delete is quadratic).
create index customers_merged_into_idx on customers (merged_into) where merged_into is not null;

-- Named *_key so that the engine reports a clash as {"external_id": "duplicate"}.
create unique index customers_external_id_key on customers (external_id) where deleted_at is null and external_id is not null;

create trigger customers_assigned after insert on customers
  for each row execute function private.notify_assignment();

create trigger customers_reassigned after update of owner_id on customers
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();

-- Each organization's own tables: contacts.
-- Runs as a template step runs (search_path = the organization's schema).

create table contacts (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  first_name text not null default '' check (char_length(first_name) <= 100),
  last_name text not null default '' check (char_length(last_name) <= 100),
  title text check (char_length(title) <= 100),
  emails jsonb not null default '[]' check (jsonb_typeof(emails) = 'array' and jsonb_array_length(emails) <= 10),
  phones jsonb not null default '[]' check (jsonb_typeof(phones) = 'array' and jsonb_array_length(phones) <= 10),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  description text check (char_length(description) <= 10000),
  kvkk_consent boolean not null default false,
  kvkk_consent_channel text check (kvkk_consent_channel in ('form', 'email', 'phone', 'in_person', 'other')),
  kvkk_consent_at timestamptz,
  kvkk_consent_source text check (char_length(kvkk_consent_source) <= 200),
  iys_consent jsonb not null default '{"call": false, "sms": false, "email": false}'
    check (jsonb_typeof(iys_consent) = 'object'),
  anonymized_at timestamptz,
  merged_into uuid references contacts (id),
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    first_name || ' ' || last_name || ' ' || coalesce(title, '') || ' ' || emails::text || ' ' || phones::text)) stored,
  constraint contacts_kvkk_consent_complete check (not kvkk_consent or (kvkk_consent_channel is not null and kvkk_consent_at is not null))
);

select private.add_record_columns(current_schema(), 'contacts');

create index contacts_customer_id_idx on contacts (customer_id);

create index contacts_search_idx on contacts using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index contacts_name_sort_idx on contacts (private.fold_search(last_name), id) where deleted_at is null;

create index contacts_first_name_sort_idx on contacts (private.fold_search(first_name), id) where deleted_at is null;

create index contacts_created_sort_idx on contacts (created_at, id) where deleted_at is null;

create index contacts_updated_sort_idx on contacts (updated_at, id) where deleted_at is null;

create index contacts_merged_into_idx on contacts (merged_into) where merged_into is not null;

create unique index contacts_external_id_key on contacts (external_id) where deleted_at is null and external_id is not null;

-- Each organization's own tables: deals, their contacts, stage history and board and forecast totals.
-- Runs as a template step runs (search_path = the organization's schema).

create table deals (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  title text not null check (char_length(btrim(title)) between 1 and 300),
  amount numeric(16, 2) not null default 0 check (amount >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  stage text not null check (stage ~ '^[a-z][a-z0-9_]{0,39}$'),
  probability integer check (probability between 0 and 100),
  expected_close_date date,
  source text check (char_length(source) <= 100),
  description text check (char_length(description) <= 10000),
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  lost_reason text check (char_length(lost_reason) <= 500),
  closed_at timestamptz,
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    title || ' ' || coalesce(source, ''))) stored
);

select private.add_record_columns(current_schema(), 'deals');

create index deals_customer_id_idx on deals (customer_id);

create index deals_search_idx on deals using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

-- The board: a stage's cards, most recently changed first (all, or one owner's).
create index deals_board_idx on deals (stage, updated_at desc, id desc) where deleted_at is null;

create index deals_owner_board_idx on deals (owner_id, stage, updated_at desc, id desc) where deleted_at is null;

-- The forecast (open deals by expected close, read from the index alone) and the lists' sorts.
create index deals_expected_close_idx on deals (expected_close_date, id)
  include (stage, owner_id, currency, amount, probability) where deleted_at is null;

create index deals_title_sort_idx on deals (private.fold_search(title), id) where deleted_at is null;

create index deals_stage_sort_idx on deals (private.fold_search(stage), id) where deleted_at is null;

create index deals_amount_sort_idx on deals (amount, id) where deleted_at is null;

create index deals_created_sort_idx on deals (created_at, id) where deleted_at is null;

create index deals_updated_sort_idx on deals (updated_at, id) where deleted_at is null;

create index deals_customer_live_idx on deals (customer_id) where deleted_at is null;

-- The home dashboard: deals won or lost since the quarter began (from the index alone).
create index deals_closed_idx on deals (closed_at) include (stage, currency, amount, owner_id)
  where deleted_at is null and closed_at is not null;

create unique index deals_external_id_key on deals (external_id) where deleted_at is null and external_id is not null;

create trigger deal_defaults before insert on deals for each row execute function private.deal_fill_defaults();

create trigger deals_assigned after insert on deals
  for each row execute function private.notify_assignment();

create trigger deals_reassigned after update of owner_id on deals
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();

create trigger deals_board_broadcast after insert or update or delete on deals
  for each statement execute function private.broadcast_deal_change();

create table deal_contacts (
  deal_id uuid not null references deals (id) on delete cascade,
  contact_id uuid not null references contacts (id) on delete cascade,
  created_by uuid,
  created_at timestamptz not null default now(),
  primary key (deal_id, contact_id)
);

create index deal_contacts_contact_idx on deal_contacts (contact_id);

create trigger merge_link before update on deal_contacts
  for each row execute function private.deal_contacts_merge_link();

create table deal_stage_history (
  id bigint generated always as identity primary key,
  deal_id uuid not null references deals (id) on delete cascade,
  from_stage text check (char_length(from_stage) <= 40),
  to_stage text not null check (char_length(to_stage) <= 40),
  changed_by uuid,
  changed_at timestamptz not null default now()
);

create index deal_stage_history_deal_idx on deal_stage_history (deal_id, changed_at, id);

-- The board's counts and totals of live deals per owner, stage and currency, kept by the
-- triggers below (counting 200,000 deals on every board load would not be fast).
create table deal_stage_totals (
  owner_id uuid not null,
  stage text not null,
  currency text not null,
  deal_count bigint not null default 0,
  amount numeric(20, 2) not null default 0,
  primary key (owner_id, stage, currency)
);

create trigger after_insert after insert on deals
  referencing new table as new_deals
  for each statement execute function private.deal_after_write();

create trigger after_update after update on deals
  referencing old table as old_deals new table as new_deals
  for each statement execute function private.deal_after_write();

create trigger after_delete after delete on deals
  referencing old table as old_deals
  for each statement execute function private.deal_after_write();

create trigger after_truncate after truncate on deals
  for each statement execute function private.deal_after_truncate();

-- The forecast's counts and sums of live deals with an expected close, kept by the
-- triggers below (summing 100,000 open deals on every forecast would not be fast).
create table deal_forecast_totals (
  -- The first day of the month of expected close.
  month date not null,
  owner_id uuid not null,
  stage text not null,
  currency text not null,
  deal_count bigint not null default 0,
  amount numeric not null default 0,
  -- Σ amount × probability / 100 of the deals with a probability of their own.
  weighted numeric not null default 0,
  -- Σ amount of the deals without one: their stage's probability applies when read.
  default_amount numeric not null default 0,
  primary key (month, owner_id, stage, currency)
);

create trigger forecast_after_insert after insert on deals
  referencing new table as new_deals
  for each statement execute function private.deal_forecast_after_write();

create trigger forecast_after_update after update on deals
  referencing old table as old_deals new table as new_deals
  for each statement execute function private.deal_forecast_after_write();

create trigger forecast_after_delete after delete on deals
  referencing old table as old_deals
  for each statement execute function private.deal_forecast_after_write();

create trigger forecast_after_truncate after truncate on deals
  for each statement execute function private.deal_forecast_after_truncate();

-- Each organization's own tables: tasks and their due totals.
-- Runs as a template step runs (search_path = the organization's schema).

create table tasks (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  due_at timestamptz,
  completed_at timestamptz,
  description text check (char_length(description) <= 10000),
  type text check (char_length(type) between 1 and 40),
  priority private.task_priority not null default 'normal',
  status private.task_status not null default 'open',
  remind_at timestamptz,
  completed_by uuid,
  customer_id uuid references customers (id) on delete set null,
  contact_id uuid references contacts (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  -- When the reminder, the due-soon and the overdue notification went out (once each;
  -- a new remind_at or due_at clears its own).
  reminded_at timestamptz,
  due_notified_at timestamptz,
  overdue_notified_at timestamptz,
  external_id text check (char_length(external_id) between 1 and 100),
  search_text text generated always as (private.fold_search(
    title || ' ' || coalesce(left(description, 2000), ''))) stored,
  constraint tasks_completed_at_check check ((status = 'done') = (completed_at is not null)),
  constraint tasks_remind_at_check check (remind_at <= due_at)
);

select private.add_record_columns(current_schema(), 'tasks');

create index tasks_search_idx on tasks using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index tasks_open_due_idx on tasks (due_at) where deleted_at is null and status in ('open', 'in_progress');

-- Whole-table indexes: the merge and on delete set null look up deleted tasks too.
create index tasks_customer_id_idx on tasks (customer_id);

create index tasks_contact_id_idx on tasks (contact_id);

create index tasks_deal_id_idx on tasks (deal_id);

create index tasks_updated_sort_idx on tasks (updated_at, id) where deleted_at is null;

create index tasks_created_sort_idx on tasks (created_at, id) where deleted_at is null;

create index tasks_due_sort_idx on tasks (due_at, id) where deleted_at is null;

create index tasks_title_sort_idx on tasks (private.fold_search(title), id) where deleted_at is null;

create index tasks_priority_sort_idx on tasks (priority, id) where deleted_at is null;

create index tasks_status_sort_idx on tasks (status, id) where deleted_at is null;

create index tasks_owner_updated_idx on tasks (owner_id, updated_at desc) where deleted_at is null;

-- An owner's open and in-progress tasks in due order (the dashboard's next five read five
-- rows, and the tasks falling due earlier today).
create index tasks_owner_status_due_id_idx on tasks (owner_id, status, due_at, id) where deleted_at is null;

-- What the due-items step has still to announce (each shrinks as it does).
create index tasks_remind_pending_idx on tasks (remind_at)
  where reminded_at is null and deleted_at is null and status in ('open', 'in_progress');

create index tasks_due_pending_idx on tasks (due_at)
  where due_notified_at is null and deleted_at is null and status in ('open', 'in_progress');

create index tasks_overdue_pending_idx on tasks (due_at)
  where overdue_notified_at is null and deleted_at is null and status in ('open', 'in_progress');

create unique index tasks_external_id_key on tasks (external_id) where deleted_at is null and external_id is not null;

create trigger tasks_assigned after insert on tasks
  for each row execute function private.notify_assignment();

create trigger tasks_reassigned after update of owner_id on tasks
  for each row when (old.owner_id is distinct from new.owner_id) execute function private.notify_assignment();

-- The live open and in-progress tasks per owner, state and UTC day of due time
-- ('infinity': none), kept by the triggers below: the dashboard's open and overdue counts
-- add a few rows instead of counting an owner's tasks (100,000 in the bench), which the
-- due-items step keeps touching, so that even an index-only count read the table.
create table task_due_totals (
  owner_id uuid not null,
  status private.task_status not null,
  due_day date not null,
  task_count bigint not null default 0,
  primary key (owner_id, status, due_day)
);

create trigger totals_after_insert after insert on tasks
  referencing new table as new_tasks
  for each statement execute function private.task_after_write();

create trigger totals_after_update after update on tasks
  referencing old table as old_tasks new table as new_tasks
  for each statement execute function private.task_after_write();

create trigger totals_after_delete after delete on tasks
  referencing old table as old_tasks
  for each statement execute function private.task_after_write();

create trigger totals_after_truncate after truncate on tasks
  for each statement execute function private.task_after_truncate();

-- Each organization's own tables: products, quotes and quote lines.
-- Runs as a template step runs (search_path = the organization's schema).

create table products (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  unit text check (char_length(unit) <= 20),
  unit_price numeric(16, 4) not null default 0 check (unit_price >= 0),
  currency text not null default 'TRY' check (currency ~ '^[A-Z]{3}$'),
  vat_rate numeric(5, 2) not null default 20 check (vat_rate between 0 and 100),
  description text check (char_length(description) <= 2000),
  active boolean not null default true,
  external_id text check (char_length(external_id) between 1 and 100)
);

select private.add_record_columns(current_schema(), 'products');

create index products_name_idx on products (private.fold_search(name), id) where deleted_at is null;

create unique index products_external_id_key on products (external_id) where deleted_at is null and external_id is not null;

create table quotes (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  quote_number text check (char_length(quote_number) <= 60),
  revision integer not null default 1 check (revision between 1 and 999),
  root_quote_id uuid references quotes (id) on delete set null,
  superseded_by uuid references quotes (id) on delete set null,
  contact_id uuid references contacts (id) on delete set null,
  status text not null default 'draft' check (status in ('draft', 'sent', 'accepted', 'rejected', 'expired')),
  quote_date date not null,
  valid_until date not null,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  exchange_rate numeric(18, 6) check (exchange_rate > 0),
  exchange_rate_date date,
  exchange_rate_manual boolean not null default false,
  prices_include_vat boolean not null default false,
  document_discount_type text check (document_discount_type in ('percent', 'amount')),
  document_discount_value numeric(16, 2) not null default 0 check (document_discount_value >= 0),
  payment_terms text check (char_length(payment_terms) <= 2000),
  notes text check (char_length(notes) <= 10000),
  sent_at timestamptz,
  accepted_at timestamptz,
  rejected_at timestamptz,
  rejection_reason text check (char_length(rejection_reason) <= 1000),
  gross_total numeric(18, 2) not null default 0,
  line_discount_total numeric(18, 2) not null default 0,
  document_discount_total numeric(18, 2) not null default 0,
  net_total numeric(18, 2) not null default 0,
  vat_total numeric(18, 2) not null default 0,
  withholding_total numeric(18, 2) not null default 0,
  grand_total numeric(18, 2) not null default 0,
  grand_total_try numeric(18, 2),
  is_latest boolean generated always as (superseded_by is null) stored,
  search_text text generated always as (private.fold_search(coalesce(quote_number, ''))) stored,
  constraint quotes_valid_until_check check (valid_until >= quote_date),
  constraint quotes_exchange_rate_required_check check (status = 'draft' or exchange_rate is not null)
);

select private.add_record_columns(current_schema(), 'quotes');

create index quotes_customer_id_idx on quotes (customer_id);

create index quotes_deal_id_idx on quotes (deal_id);

create index quotes_search_idx on quotes using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create unique index quotes_number_revision_idx on quotes (quote_number, revision) where quote_number is not null;

create index quotes_root_idx on quotes (root_quote_id) where root_quote_id is not null;

create index quotes_number_sort_idx on quotes (private.fold_search(quote_number), id) where deleted_at is null;

create index quotes_date_sort_idx on quotes (quote_date, id) where deleted_at is null;

create index quotes_valid_until_sort_idx on quotes (valid_until, id) where deleted_at is null;

create index quotes_total_sort_idx on quotes (grand_total, id) where deleted_at is null;

create index quotes_updated_sort_idx on quotes (updated_at, id) where deleted_at is null;

create index quotes_status_idx on quotes (status, id) where deleted_at is null;

create index quotes_contact_id_idx on quotes (contact_id);

-- The expiry step: sent quotes by their last valid day.
create index quotes_sent_expiry_idx on quotes (valid_until) where status = 'sent' and deleted_at is null;

create trigger quote_before_write before insert or update on quotes
  for each row execute function private.quote_before_write();

create table quote_items (
  id uuid primary key default gen_random_uuid(),
  quote_id uuid not null references quotes (id) on delete cascade,
  position integer not null default 0,
  description text not null default '' check (char_length(description) <= 2000),
  quantity numeric(14, 3) not null default 1,
  unit_price numeric(16, 4) not null default 0,
  product_id uuid references products (id) on delete set null,
  unit text check (char_length(unit) <= 20),
  discount_type text check (discount_type in ('percent', 'amount')),
  discount_value numeric(16, 2) not null default 0 check (discount_value >= 0),
  vat_rate numeric(5, 2) not null default 20 check (vat_rate between 0 and 100),
  vat_exemption_reason text check (char_length(vat_exemption_reason) <= 200),
  withholding_rate text check (withholding_rate in ('2/10', '3/10', '4/10', '5/10', '7/10', '9/10', '10/10'))
);

select private.add_record_columns(current_schema(), 'quote_items');

create index quote_items_quote_id_idx on quote_items (quote_id, position);

create index quote_items_product_id_idx on quote_items (product_id) where product_id is not null;

-- Each organization's own tables: contracts.
-- Runs as a template step runs (search_path = the organization's schema).

create table contracts (
  id uuid primary key default gen_random_uuid(),
  customer_id uuid references customers (id) on delete set null,
  title text not null check (char_length(btrim(title)) between 1 and 300),
  contract_number text check (char_length(contract_number) <= 60),
  contact_id uuid references contacts (id) on delete set null,
  quote_id uuid references quotes (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  contract_type text not null default 'service'
    check (contract_type in ('service', 'sales', 'maintenance', 'license', 'nda', 'other')),
  start_date date,
  end_date date,
  value numeric(18, 2) not null default 0 check (value >= 0),
  currency text not null default 'TRY' check (currency ~ '^[A-Z]{3}$'),
  status private.contract_status not null default 'draft',
  customer_signed_on date,
  company_signed_on date,
  auto_renew boolean not null default false,
  renewal_notice_days integer not null default 30 check (renewal_notice_days between 0 and 365),
  renewal_term_months integer not null default 12 check (renewal_term_months between 1 and 120),
  previous_contract_id uuid references contracts (id) on delete set null,
  terminated_at timestamptz,
  termination_reason text check (char_length(termination_reason) <= 1000),
  notes text check (char_length(notes) <= 10000),
  -- When the owner was told the renewal notice date had come (once; a new end date or
  -- notice period clears it).
  renewal_notified_at timestamptz,
  search_text text generated always as (private.fold_search(
    coalesce(contract_number, '') || ' ' || title)) stored,
  constraint contracts_end_date_check check (end_date >= start_date),
  constraint contracts_dates_check check (status in ('draft', 'terminated') or (start_date is not null and end_date is not null)),
  constraint contracts_terminated_check check ((status = 'terminated') = (terminated_at is not null))
);

select private.add_record_columns(current_schema(), 'contracts');

create index contracts_customer_id_idx on contracts (customer_id);

create unique index contracts_number_idx on contracts (contract_number);

-- One next term per contract.
create unique index contracts_previous_idx on contracts (previous_contract_id);

create index contracts_contact_id_idx on contracts (contact_id);

create index contracts_quote_id_idx on contracts (quote_id);

create index contracts_deal_id_idx on contracts (deal_id);

create index contracts_search_idx on contracts using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index contracts_title_sort_idx on contracts (private.fold_search(title), id) where deleted_at is null;

create index contracts_number_sort_idx on contracts (private.fold_search(contract_number), id) where deleted_at is null;

create index contracts_start_sort_idx on contracts (start_date, id) where deleted_at is null;

create index contracts_end_sort_idx on contracts (end_date, id) where deleted_at is null;

create index contracts_value_sort_idx on contracts (value, id) where deleted_at is null;

create index contracts_status_sort_idx on contracts (status, id) where deleted_at is null;

create index contracts_created_sort_idx on contracts (created_at, id) where deleted_at is null;

create index contracts_updated_sort_idx on contracts (updated_at, id) where deleted_at is null;

-- Active contracts by end date: the ending-soon list, expiry and the renewal notices.
create index contracts_active_end_idx on contracts (end_date) where deleted_at is null and status = 'active';

create trigger contract_number before insert on contracts
  for each row execute function private.contract_fill_number();

-- Each organization's own tables: documents and their versions.
-- Runs as a template step runs (search_path = the organization's schema).

create table documents (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 300),
  file_name text check (char_length(file_name) between 1 and 255),
  mime_type text check (char_length(mime_type) <= 200),
  size_bytes bigint not null default 0 check (size_bytes >= 0),
  current_version integer not null default 0 check (current_version >= 0),
  customer_id uuid references customers (id) on delete set null,
  contact_id uuid references contacts (id) on delete set null,
  deal_id uuid references deals (id) on delete set null,
  quote_id uuid references quotes (id) on delete set null,
  contract_id uuid references contracts (id) on delete set null,
  search_text text generated always as (private.fold_search(
    title || ' ' || coalesce(file_name, ''))) stored,
  constraint documents_link_check check (num_nonnulls(customer_id, contact_id, deal_id, quote_id, contract_id) <= 1)
);

select private.add_record_columns(current_schema(), 'documents');

create index documents_search_idx on documents using gin (search_text extensions.gin_trgm_ops) where deleted_at is null;

create index documents_title_sort_idx on documents (private.fold_search(title), id) where deleted_at is null;

create index documents_size_sort_idx on documents (size_bytes, id) where deleted_at is null;

create index documents_created_sort_idx on documents (created_at, id) where deleted_at is null;

create index documents_updated_sort_idx on documents (updated_at, id) where deleted_at is null;

-- A record's documents (and the foreign keys' on delete set null).
create index documents_customer_idx on documents (customer_id, updated_at desc) where customer_id is not null;

create index documents_contact_idx on documents (contact_id, updated_at desc) where contact_id is not null;

create index documents_deal_idx on documents (deal_id, updated_at desc) where deal_id is not null;

create index documents_quote_idx on documents (quote_id, updated_at desc) where quote_id is not null;

create index documents_contract_idx on documents (contract_id, updated_at desc) where contract_id is not null;

create table document_versions (
  id bigint generated always as identity primary key,
  document_id uuid not null references documents (id) on delete cascade,
  version integer not null check (version >= 1),
  object_path text not null unique check (char_length(object_path) <= 300),
  file_name text not null check (char_length(file_name) between 1 and 255),
  size_bytes bigint not null check (size_bytes between 1 and 26214400),
  mime_type text not null check (char_length(mime_type) <= 200),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  uploaded_by uuid not null,
  uploaded_at timestamptz not null default now(),
  unique (document_id, version)
);

-- Each organization's own tables: imports, their batches and rows, and saved mappings.
-- Runs as a template step runs (search_path = the organization's schema).

create table imports (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind ~ '^[a-z][a-z_]{0,39}$'),
  file_name text not null check (char_length(file_name) between 1 and 255),
  file_size bigint not null check (file_size >= 1),
  -- sha256 of the file: a resumed import is the same file.
  file_hash text not null check (file_hash ~ '^[0-9a-f]{64}$'),
  mode text not null check (mode in ('create', 'upsert', 'update')),
  match_key text check (match_key ~ '^[a-z][a-z_]{0,39}$'),
  -- {"<header>": "<field>"} as the person chose it.
  mapping jsonb not null default '{}' check (jsonb_typeof(mapping) = 'object'),
  status text not null default 'running' check (status in ('running', 'completed', 'cancelled', 'reverted')),
  total_rows integer not null check (total_rows >= 1),
  created integer not null default 0,
  updated integer not null default 0,
  skipped integer not null default 0,
  failed integer not null default 0,
  created_by uuid not null,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  reverted_at timestamptz,
  reverted_by uuid,
  check (mode = 'create' or match_key is not null)
);

create index imports_created_at_idx on imports (created_at desc, id);

create index imports_created_by_idx on imports (created_by, created_at desc);

-- Each applied batch and its answer: the same batch again gets this answer and changes nothing.
create table import_batches (
  import_id uuid not null references imports (id) on delete cascade,
  batch integer not null check (batch >= 0),
  result jsonb not null,
  created_at timestamptz not null default now(),
  primary key (import_id, batch)
);

-- Every record an import created or updated, the old values of the columns it changed,
-- and the record's updated_at after the import wrote it (the undo refuses a record
-- changed since).
create table import_rows (
  import_id uuid not null references imports (id) on delete cascade,
  record_id uuid not null,
  action text not null check (action in ('created', 'updated')),
  previous jsonb check (jsonb_typeof(previous) = 'object'),
  written_at timestamptz not null,
  primary key (import_id, record_id)
);

create table import_mappings (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind ~ '^[a-z][a-z_]{0,39}$'),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  mapping jsonb not null check (jsonb_typeof(mapping) = 'object' and octet_length(mapping::text) <= 65536)
);

select private.add_record_columns(current_schema(), 'import_mappings');

create unique index import_mappings_name_key on import_mappings (owner_id, kind, name) where deleted_at is null;

$template$);
