-- Helpers for the pgTAP files that follow (pg_prove runs them in name order on a fresh
-- database, which is dropped afterwards). Not rolled back on purpose: later files use them.
create extension if not exists pgtap with schema extensions;
do $$
begin
  execute format('alter database %I set search_path = "$user", public, extensions', current_database());
end
$$;
set search_path = "$user", public, extensions;

begin;
select plan(1);

-- The migrations revoke EXECUTE from PUBLIC on new functions; the tests act as anon and
-- authenticated, so those roles need pgTAP's own functions (and only those).
do $$
declare
  tap_function regprocedure;
begin
  for tap_function in
    select d.objid::regprocedure from pg_depend d
     where d.classid = 'pg_proc'::regclass
       and d.refobjid = (select oid from pg_extension where extname = 'pgtap')
  loop
    execute format('grant execute on function %s to anon, authenticated', tap_function);
  end loop;
end
$$;

create schema if not exists tests;

/** Creates an Auth user with a profile; returns its id. */
create or replace function tests.create_user(p_email text, p_role text default 'user',
                                             p_first_name text default 'Test', p_last_name text default 'User')
returns uuid language plpgsql as $$
declare
  new_id uuid := gen_random_uuid();
begin
  insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values (new_id, 'authenticated', 'authenticated', p_email,
          extensions.crypt('Test.1234', extensions.gen_salt('bf', 4)), now(),
          '{"provider":"email","providers":["email"]}', '{}', now(), now());
  insert into private.profiles (id, email, first_name, last_name, role)
  values (new_id, p_email, p_first_name, p_last_name, p_role);
  return new_id;
end;
$$;

/** Creates an organization; returns its id. */
create or replace function tests.create_organization(p_slug text, p_name text default null)
returns uuid language sql as $$
  insert into private.organizations (slug, name) values (p_slug, coalesce(p_name, initcap(p_slug)))
  returning id;
$$;

create or replace function tests.add_member(p_user uuid, p_organization uuid, p_role text default 'user')
returns void language sql as $$
  insert into private.memberships (user_id, organization_id, role) values (p_user, p_organization, p_role);
$$;

/**
 * Gives an organization's role the scope (own, all) of an action in every registered module,
 * or in p_module only: for tests that rely on a scope other than the role's default (sales,
 * for one, views only its own records by default: private.default_role_grants).
 */
create or replace function tests.set_role_scope(p_organization uuid, p_role text, p_action text, p_scope text,
                                                p_module text default null)
returns void language sql as $$
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select p_organization, p_role, m.key, p_action, p_scope
    from private.modules m
   where p_module is null or m.key = p_module
  on conflict (organization_id, role_key, module, action) do update set scope = excluded.scope;
$$;

/** Sets who the request is, as PostgREST would for the rest of the transaction. */
create or replace function tests.set_request_identity(p_role text, p_sub text, p_claims text)
returns void language plpgsql as $$
begin
  perform set_config('request.jwt.claim.sub', p_sub, true);
  perform set_config('request.jwt.claims', p_claims, true);
  perform set_config('role', p_role, true);
end;
$$;

/**
 * Issues a request-forgery token for the current test identity's session, as
 * issue_request_token does but without its pruning (a file is one transaction: every token
 * would expire at the same now() + 1 hour, so pruning could keep an older one), and sends it
 * in the request's x-csrf-token header for the rest of the transaction, as an Edge Function
 * does; the privileged RPCs refuse without it (the token is then
 * current_setting('request.headers')::json ->> 'x-csrf-token'). No session, no token.
 */
create or replace function tests.with_request_token()
returns void language plpgsql security definer set search_path = '' as $$
declare
  token text := translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/=', '-_');
begin
  if exists (select 1 from auth.sessions s join private.profiles p on p.id = s.user_id
              where s.id = private.current_session_id() and s.user_id = auth.uid()) then
    insert into private.request_tokens (token_hash, session_id, user_id, expires_at)
    values (extensions.digest(token, 'sha256'), private.current_session_id(), auth.uid(), clock_timestamp() + interval '1 hour');
  else
    token := null;
  end if;
  perform set_config('request.headers', json_build_object('x-csrf-token', token)::text, true);
end;
$$;

/**
 * From here on in this file's transaction, tests.authenticate_as also sends a request-forgery
 * token of the session it acts in (tests.with_request_token), as the Edge Functions forward
 * the app's: for files that call the privileged RPCs as many identities.
 */
create or replace function tests.send_request_tokens()
returns void language sql as $$
  select set_config('tests.send_request_tokens', 'on', false);
$$;

/**
 * Acts as the given signed-in user in one Auth session (created when it does not exist); after
 * tests.send_request_tokens(), with a request token of that session.
 */
create or replace function tests.authenticate_as(p_user uuid, p_session uuid default gen_random_uuid())
returns void language sql as $$
  insert into auth.sessions (id, user_id)
  select p_session, p_user where exists (select 1 from auth.users where id = p_user)
  on conflict (id) do nothing;
  select tests.set_request_identity('authenticated', p_user::text, json_build_object(
    'sub', p_user, 'role', 'authenticated', 'aud', 'authenticated', 'session_id', p_session)::text);
  select tests.with_request_token() where current_setting('tests.send_request_tokens', true) = 'on';
$$;

/**
 * Signs the user in with the given session bound to the organization (as the app does right
 * after sign-in), then acts as nobody again; stops the file when the binding is refused.
 */
create or replace function tests.bind_session(p_user uuid, p_session uuid, p_organization uuid)
returns void language plpgsql as $$
declare
  answer jsonb;
begin
  perform tests.authenticate_as(p_user, p_session);
  answer := public.bind_session_organization(p_organization);
  perform tests.reset_role();
  if not coalesce((answer ->> 'success')::boolean, false) then
    raise exception 'tests.bind_session: user % could not bind organization %: %', p_user, p_organization, answer;
  end if;
end;
$$;

/** Acts as an anonymous visitor (publishable key, no session). */
create or replace function tests.act_as_anon()
returns void language sql as $$
  select tests.set_request_identity('anon', '', '{"role":"anon"}');
$$;

/** Back to the test runner's own role. */
create or replace function tests.reset_role()
returns void language sql as $$
  select tests.set_request_identity('none', '', '');
$$;

/**
 * Adds a custom field as save_custom_field does: its declaration (private.custom_fields,
 * label = key, position after the module's others) and its column in the organization's
 * table, typed as its type says. p_field: {"type", and any of "required", "options" (option
 * values; labels made from them), "link_module", "currency", "hidden", "filterable",
 * "searchable"}. As the test runner (not a member).
 */
create or replace function tests.add_custom_field(p_organization uuid, p_module text, p_key text, p_field jsonb)
returns void language plpgsql as $$
declare
  column_type text := case p_field ->> 'type'
    when 'number' then 'numeric' when 'money' then 'numeric(18,2)' when 'percent' then 'numeric(9,4)'
    when 'date' then 'date' when 'datetime' then 'timestamptz' when 'boolean' then 'boolean'
    when 'multi_choice' then 'text[]' when 'link' then 'uuid' else 'text' end;
begin
  insert into private.custom_fields (organization_id, module, key, type, label_tr, required, options, currency, link_module,
                                     position, hidden, filterable, searchable)
  values (p_organization, p_module, p_key, p_field ->> 'type', p_key, coalesce((p_field ->> 'required')::boolean, false),
          (select coalesce(jsonb_agg(jsonb_build_object('value', o, 'label_tr', initcap(o), 'label_en', null, 'color', null)), '[]')
             from jsonb_array_elements_text(coalesce(p_field -> 'options', '[]')) o),
          case when p_field ->> 'type' = 'money' then coalesce(p_field ->> 'currency', 'TRY') end, p_field ->> 'link_module',
          (select count(*) from private.custom_fields f where f.organization_id = p_organization and f.module = p_module),
          coalesce((p_field ->> 'hidden')::boolean, false), coalesce((p_field ->> 'filterable')::boolean, false),
          coalesce((p_field ->> 'searchable')::boolean, false));
  execute format('alter table %I.%I add column %I %s',
                 (select o.schema_name from private.organizations o where o.id = p_organization),
                 (select m.table_name from private.modules m where m.key = p_module), p_key, column_type);
end;
$$;

grant usage on schema tests to anon, authenticated;
grant execute on all functions in schema tests to anon, authenticated;

select has_function('tests', 'authenticate_as', array['uuid', 'uuid'], 'test helpers are installed');
select * from finish();
commit;
