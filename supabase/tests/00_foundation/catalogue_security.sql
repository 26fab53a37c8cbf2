-- Catalogue security: walks pg_proc, pg_class and pg_namespace so that a function added
-- without its grants (or with a mutable search_path), a grant that slipped into private or
-- a tenant schema, or a table without row level security fails here, naming the object.
-- "Our functions" are those in public and private that no extension owns (pg_depend
-- deptype 'e'); a first check makes sure no extension puts anything there at all. The
-- one-guard rule: every "who may call" refusal text is written in private.refusal only (the
-- guard, private.caller_context, and every RPC answer with it), in no other function of
-- any schema.
begin;
select plan(28);

-- ---------------------------------------------------------------------------------
-- Functions: search_path
-- ---------------------------------------------------------------------------------
create temporary table our_functions on commit drop as
  select p.oid, n.nspname as schema_name, p.proname as function_name, p.prosecdef as security_definer,
         p.proconfig, p.proacl, p.proowner,
         format('%I.%I(%s)', n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)) as signature
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
   where n.nspname in ('public', 'private')
     and not exists (select 1 from pg_catalog.pg_depend d
                      where d.classid = 'pg_catalog.pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e');

select is(
  array(select format('%s %s', e.extname, pg_catalog.pg_describe_object(d.classid, d.objid, 0))
          from pg_catalog.pg_depend d
          join pg_catalog.pg_extension e on e.oid = d.refobjid
          left join pg_catalog.pg_proc p on d.classid = 'pg_catalog.pg_proc'::regclass and p.oid = d.objid
          left join pg_catalog.pg_class c on d.classid = 'pg_catalog.pg_class'::regclass and c.oid = d.objid
          left join pg_catalog.pg_type t on d.classid = 'pg_catalog.pg_type'::regclass and t.oid = d.objid
         where d.deptype = 'e' and d.refclassid = 'pg_catalog.pg_extension'::regclass
           and coalesce(p.pronamespace, c.relnamespace, t.typnamespace)
               in ('public'::regnamespace, 'private'::regnamespace)
         order by 1),
  '{}'::text[],
  'no extension owns a function, relation or type in public or private');

select cmp_ok((select count(*) from our_functions where schema_name = 'public'), '>', 0::bigint,
  'the catalogue walk sees the public RPC facade');

select is(
  array(select signature from our_functions
         where schema_name = 'public' and security_definer
           and not coalesce('search_path=""' = any (proconfig), false)
         order by 1),
  '{}'::text[],
  'every security definer function in public is created with set search_path = ''''');

select is(
  array(select signature from our_functions
         where schema_name = 'private' and security_definer
           and not coalesce('search_path=""' = any (proconfig), false)
         order by 1),
  '{}'::text[],
  'every security definer function in private is created with set search_path = ''''');

select is(
  array(select signature from our_functions
         where schema_name = 'public'
           and not exists (select 1 from unnest(proconfig) as setting where setting like 'search\_path=%')
         order by 1),
  '{}'::text[],
  'every function in public (definer or not) has a fixed search_path');

select is(
  array(select signature from our_functions
         where schema_name = 'private'
           and not exists (select 1 from unnest(proconfig) as setting where setting like 'search\_path=%')
         order by 1),
  '{}'::text[],
  'every function in private (definer or not) has a fixed search_path');

-- ---------------------------------------------------------------------------------
-- Functions: who may execute them
-- ---------------------------------------------------------------------------------
-- A NULL proacl means the default privileges, which for a function include EXECUTE for PUBLIC.
select is(
  array(select signature || case when proacl is null then ' (NULL ACL: default privileges)' else '' end
          from our_functions
         where proacl is null
            or exists (select 1 from aclexplode(proacl) as a
                        where a.grantee = 0 and a.privilege_type = 'EXECUTE')
         order by 1),
  '{}'::text[],
  'PUBLIC may execute no function in public or private');

select bag_eq(
  $$select schema_name || '.' || function_name from our_functions
     where has_function_privilege('anon', oid, 'execute')$$,
  array['public.create_auth_user_admin', 'public.get_user_info_by_email', 'public.secure_login_prepare_auth',
        'public.sync_user_password', 'public.test_auth_uid'],
  'anon may execute exactly the sign-in allow-list (one function of each name, nothing in private)');

-- The mail function's two steps that only its secret key may take (19_mail.sql): reading the
-- sealed SMTP password of a started mail, and recording that mail's result; and the
-- password-reset function's two (21_password_reset.sql): beginning and completing a reset.
select set_eq(
  $$select signature from our_functions where has_function_privilege('authenticated', oid, 'execute')$$,
  $$select signature from our_functions where schema_name = 'public'
     and signature not in ('public.mail_delivery_settings(p_mail_id uuid)',
                           'public.mail_finish_send(p_mail_id uuid, p_sent boolean, p_error_code text)',
                           'public.password_reset_begin(p_email text, p_client_address text, p_language text, p_installation_mail boolean)',
                           'public.password_reset_complete(p_token text, p_password text, p_client_address text)',
                           'public.notification_digests_begin(p_installation_mail boolean)')$$,
  'authenticated may execute exactly the public facade: every function in public but the mail, password-reset and notification-digests functions'' own, none in private');

select is(
  array(select f.signature || ' to ' || case when a.grantee = 0 then 'PUBLIC' else a.grantee::regrole::text end
          from our_functions f
          cross join lateral aclexplode(f.proacl) as a
         where f.schema_name = 'private' and a.privilege_type = 'EXECUTE' and a.grantee <> f.proowner
        union all
        select f.signature || ' to PUBLIC (NULL ACL: default privileges)'
          from our_functions f
         where f.schema_name = 'private' and f.proacl is null
         order by 1),
  array['private.hook_password_verification_attempt(event jsonb) to supabase_auth_admin'],
  'in private only the password-verification hook is executable by anyone but the owner, and only by supabase_auth_admin');

-- Default privileges: a function created now, with no grant, is executable by no API role.
create function public.catalogue_probe() returns integer language sql set search_path = '' as $$ select 1 $$;
create function private.catalogue_probe() returns integer language sql set search_path = '' as $$ select 1 $$;
select is(
  array(select format('%s by %s', p.oid::regprocedure, r.role_name)
          from pg_catalog.pg_proc p
          cross join unnest(array['public', 'anon', 'authenticated']) as r (role_name)
         where p.proname = 'catalogue_probe'
           and case when r.role_name = 'public'
                    then p.proacl is null or exists (select 1 from aclexplode(p.proacl) a where a.grantee = 0)
                    else has_function_privilege(r.role_name, p.oid, 'execute') end
         order by 1),
  '{}'::text[],
  'default privileges: a new function in public or private is executable by neither PUBLIC, anon nor authenticated');
drop function public.catalogue_probe();
drop function private.catalogue_probe();

-- ---------------------------------------------------------------------------------
-- Schemas and relations: private and public
-- ---------------------------------------------------------------------------------
select is(
  array(select r.role_name || ' ' || p.privilege
          from unnest(array['anon', 'authenticated']) as r (role_name)
          cross join unnest(array['usage', 'create']) as p (privilege)
         where has_schema_privilege(r.role_name, 'private', p.privilege)
         order by 1),
  '{}'::text[],
  'anon and authenticated have neither USAGE nor CREATE on schema private');

select is(
  array(select format('%I.%I (relkind %s) to %s', n.nspname, c.relname, c.relkind, r.role_name)
          from pg_catalog.pg_class c
          join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          cross join unnest(array['anon', 'authenticated']) as r (role_name)
         where n.nspname = 'private' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
           and case when c.relkind = 'S'
                    then has_sequence_privilege(r.role_name, c.oid, 'usage, select, update')
                    else has_table_privilege(r.role_name, c.oid, 'select, insert, update, delete, truncate, references, trigger')
                      or has_any_column_privilege(r.role_name, c.oid, 'select, insert, update, references') end
         order by 1),
  '{}'::text[],
  'anon and authenticated have no privilege on any table, view or sequence in private');

select is(
  array(select c.relname::text from pg_catalog.pg_class c
         where c.relnamespace = 'private'::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
         order by 1),
  '{}'::text[],
  'every table in private has row level security enabled');

select cmp_ok((select count(*) from pg_catalog.pg_class c
                where c.relnamespace = 'private'::regnamespace and c.relkind = 'r'), '>', 0::bigint,
  'the catalogue walk sees the control tables in private');

select is(
  array(select format('%s (relkind %s)', c.relname, c.relkind) from pg_catalog.pg_class c
         where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
         order by 1),
  '{}'::text[],
  'public holds no table, view, materialized view, sequence or foreign table: only the RPC facade');

select is(
  array(select r.role_name from unnest(array['anon', 'authenticated']) as r (role_name)
         where has_schema_privilege(r.role_name, 'public', 'create')
         order by 1),
  '{}'::text[],
  'anon and authenticated cannot create objects in schema public');

-- ---------------------------------------------------------------------------------
-- Tenant schemas: every organization's own tables are sealed
-- ---------------------------------------------------------------------------------
\o /dev/null
select tests.create_organization('sealed-one', 'Sealed One') as sealed_one \gset
select tests.create_organization('sealed-two', 'Sealed Two') as sealed_two \gset
select private.migrate_tenant(:'sealed_one');
select private.migrate_tenant(:'sealed_two');
\o

-- Every tenant schema in the database (registered or merely named like one), as
-- private.tenant_security_findings() sees them.
create temporary table tenant_schemas on commit drop as
  select n.oid, n.nspname from pg_catalog.pg_namespace n
   where n.nspname in (select o.schema_name from private.organizations o)
      or n.nspname like 'org\_%';

select is(
  (select count(distinct c.relnamespace)::int from pg_catalog.pg_class c
     join private.organizations o on o.schema_name = c.relnamespace::regnamespace::text
    where o.id in (:'sealed_one', :'sealed_two') and c.relkind = 'r'),
  2,
  'both test organizations have their own schema with tables');

select is(
  array(select s.nspname || ' ' || p.privilege || ' to ' || r.role_name
          from tenant_schemas s
          cross join unnest(array['anon', 'authenticated']) as r (role_name)
          cross join unnest(array['usage', 'create']) as p (privilege)
         where has_schema_privilege(r.role_name, s.oid, p.privilege)
         order by 1),
  '{}'::text[],
  'anon and authenticated have neither USAGE nor CREATE on any tenant schema');

select is(
  array(select format('%I.%I (relkind %s) to %s', s.nspname, c.relname, c.relkind, r.role_name)
          from tenant_schemas s
          join pg_catalog.pg_class c on c.relnamespace = s.oid
          cross join unnest(array['anon', 'authenticated']) as r (role_name)
         where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
           and case when c.relkind = 'S'
                    then has_sequence_privilege(r.role_name, c.oid, 'usage, select, update')
                    else has_table_privilege(r.role_name, c.oid, 'select, insert, update, delete, truncate, references, trigger')
                      or has_any_column_privilege(r.role_name, c.oid, 'select, insert, update, references') end
         order by 1),
  '{}'::text[],
  'anon and authenticated have no privilege on any table, view or sequence in a tenant schema');

select is(
  array(select format('%I.%I(%s) to %s', s.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid), r.role_name)
          from tenant_schemas s
          join pg_catalog.pg_proc p on p.pronamespace = s.oid
          cross join unnest(array['public', 'anon', 'authenticated']) as r (role_name)
         where case when r.role_name = 'public'
                    then p.proacl is null or exists (select 1 from aclexplode(p.proacl) a where a.grantee = 0)
                    else has_function_privilege(r.role_name, p.oid, 'execute') end
         order by 1),
  '{}'::text[],
  'no function in a tenant schema is executable by PUBLIC, anon or authenticated');

select is(
  array(select format('%I.%I', s.nspname, c.relname)
          from tenant_schemas s
          join pg_catalog.pg_class c on c.relnamespace = s.oid
         where c.relkind in ('r', 'p') and not c.relrowsecurity
         order by 1),
  '{}'::text[],
  'every table in every tenant schema has row level security enabled');

select is_empty(
  'select * from private.tenant_security_findings()',
  'private.tenant_security_findings() reports nothing for any tenant schema');

-- ---------------------------------------------------------------------------------
-- The one guard: each refusal text is written once, in private.refusal
-- ---------------------------------------------------------------------------------
create temporary table refusal_texts on commit drop as
  select unnest(array['Authentication required', 'Organization context required', 'Permission denied',
                      'Admin privileges required', 'Admin yetkisi gerekli', 'Şirket bilgisi gerekli',
                      'Required tables not found']) as refusal_text;

-- Every function (any schema but the system's, no extension's) other than private.refusal
-- whose body writes a refusal text, as 'function holds text'.
create function pg_temp.refusal_text_copies()
returns setof text language sql as $$
  select format('%s holds %L', p.oid::regprocedure, t.refusal_text)
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
   cross join refusal_texts t
   where n.nspname not in ('pg_catalog', 'information_schema')
     and p.oid <> 'private.refusal(text, text, jsonb)'::regprocedure
     and position(t.refusal_text in p.prosrc) > 0
     and not exists (select 1 from pg_catalog.pg_depend d
                      where d.classid = 'pg_catalog.pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
   order by 1;
$$;

select is(
  array(select t.refusal_text from refusal_texts t
         where position(t.refusal_text in (select p.prosrc from pg_catalog.pg_proc p
                                             where p.oid = 'private.refusal(text, text, jsonb)'::regprocedure)) = 0),
  '{}'::text[],
  'private.refusal writes every refusal text (the list below is the guard''s)');

select is(
  array(select pg_temp.refusal_text_copies()),
  '{}'::text[],
  'no function but private.refusal writes a refusal text: checks ask private.caller_context and answer with private.refusal');

-- A hand-written check, as a new RPC might bring one: the walk names it.
create function private.refusal_probe() returns jsonb language sql set search_path = '' as $$
  select case when auth.uid() is null then private.failure('Authentication required', 'authentication_required') end;
$$;
select is(
  array(select pg_temp.refusal_text_copies()),
  array['private.refusal_probe() holds ''Authentication required'''],
  'a function with a hand-written refusal text is found by the walk');
drop function private.refusal_probe();

-- ---------------------------------------------------------------------------------
-- Role settings: what PostgREST applies to every API request
-- ---------------------------------------------------------------------------------
select is(
  (select string_agg(setting, ', ' order by setting)
     from pg_catalog.pg_db_role_setting s cross join unnest(s.setconfig) as setting
    where s.setrole = 'anon'::regrole and setting like 'statement\_timeout=%'
      and s.setdatabase in (0, (select d.oid from pg_catalog.pg_database d where d.datname = current_database()))),
  'statement_timeout=8s',
  'anon runs under statement_timeout = 8s (role setting in pg_db_role_setting)');

select is(
  (select string_agg(setting, ', ' order by setting)
     from pg_catalog.pg_db_role_setting s cross join unnest(s.setconfig) as setting
    where s.setrole = 'authenticated'::regrole and setting like 'statement\_timeout=%'
      and s.setdatabase in (0, (select d.oid from pg_catalog.pg_database d where d.datname = current_database()))),
  'statement_timeout=8s',
  'authenticated runs under statement_timeout = 8s (role setting in pg_db_role_setting)');

select * from finish();
rollback;
