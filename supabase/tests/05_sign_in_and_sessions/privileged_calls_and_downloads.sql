-- Privileged calls and downloads (issue 23, items 10, 12 and 7):
-- * the privileged admin RPCs refuse a call without a live request-forgery token of the
--   caller's own session in the x-csrf-token header (none, another session's, an expired one,
--   garbage) and change nothing; with the token they work; the functions behind the façades
--   are nobody's to call;
-- * a super admin whose Auth session is gone is no super admin any more (organizations,
--   users, audit log), while the same account in a live session still is;
-- * signed document downloads: sign_document_download allows only what the caller may read,
--   at most 60 seconds, and records it; private.document_download_allowed (the local front's
--   question) says no once the document is deleted or the signer lost access.
begin;
select plan(64);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset

select tests.create_user('root@crm.test', 'super_admin', 'Sema', 'Kök') as super \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.create_user('sales@alpha.test', 'user', 'Selin', 'Satış') as alpha_sales \gset
select tests.create_user('admin@beta.test', 'user', 'Bora', 'Tan') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_admin_other, gen_random_uuid() as s_super,
       gen_random_uuid() as s_super_2, gen_random_uuid() as s_sales, gen_random_uuid() as s_beta \gset
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin_other');
select public.bind_session_organization(:'alpha') ->> 'success';
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success';
select tests.reset_role(); select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.bind_session_organization(:'alpha') ->> 'success';
select tests.reset_role(); select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.bind_session_organization(:'beta') ->> 'success';
select tests.reset_role(); select tests.authenticate_as(:'super', :'s_super');
select public.bind_session_organization(:'alpha') ->> 'success';
select tests.reset_role(); select tests.authenticate_as(:'super', :'s_super_2');
select public.bind_session_organization(:'alpha') ->> 'success';
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Item 10: the database checks the request-forgery token of privileged calls
-- ---------------------------------------------------------------------------------

-- A token of the admin's other session, and an expired one of this session.
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin_other');
select public.issue_request_token() ->> 'token' as other_session_token \gset
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.issue_request_token() ->> 'token' as expired_token \gset
select tests.reset_role();
update private.request_tokens set expires_at = now() - interval '1 second'
 where token_hash = extensions.digest(:'expired_token', 'sha256');

create temporary table privileged_calls (name text, call text) on commit drop;
insert into privileged_calls values
  ('create_user_secure', format($$public.create_user_secure('direct@alpha.test', 'Dogrudan.123', %L)$$, :'alpha')),
  ('update_user_secure', format($$public.update_user_secure(%L, '{"first_name": "Ele"}')$$, :'alpha_user')),
  ('delete_user_secure', format($$public.delete_user_secure(%L)$$, :'alpha_user')),
  ('lock_user_secure', format($$public.lock_user_secure(%L)$$, :'alpha_user')),
  ('unlock_user_secure', format($$public.unlock_user_secure(%L)$$, :'alpha_user')),
  ('simple_reset_password', format($$public.simple_reset_password(%L, 'Ele.Gecir.1')$$, :'alpha_user')),
  ('analyze_user_records', format($$public.analyze_user_records(%L)$$, :'alpha_user')),
  ('get_users_for_transfer', $$public.get_users_for_transfer()$$),
  ('transfer_user_records', format($$public.transfer_user_records(%L, %L)$$, :'alpha_user', :'alpha_sales')),
  ('list_organizations', $$public.list_organizations()$$),
  ('create_organization', $$public.create_organization('direct', 'Doğrudan')$$),
  ('update_organization', format($$public.update_organization(%L, '{"name": "Ele geçti"}')$$, :'beta'));
grant select on privileged_calls to authenticated;

/** Every privileged call's refusal code as the current identity, with the given header value (null: no header). */
create function pg_temp.codes_with(p_token text) returns text[] language plpgsql as $$
declare
  entry record;
  answer jsonb;
  codes text[] := '{}';
begin
  perform set_config('request.headers', case when p_token is null then '{}' else json_build_object('x-csrf-token', p_token)::text end, true);
  for entry in select * from privileged_calls order by name loop
    execute 'select ' || entry.call into answer;
    codes := codes || coalesce(answer ->> 'code', 'success');
  end loop;
  return codes;
end;
$$;
grant execute on function pg_temp.codes_with(text) to authenticated;

create temporary table fingerprint_before on commit drop as
  select (select count(*) from private.profiles) as profiles, (select count(*) from private.organizations) as organizations,
         (select row(p.first_name, p.locked_by_admin, p.locked_until, u.encrypted_password)::text
            from private.profiles p join auth.users u on u.id = p.id where p.id = :'alpha_user') as target,
         (select name from private.organizations where id = :'beta') as beta_name;

select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(pg_temp.codes_with(null), array_fill('invalid_request_token'::text, array[12]),
  'an admin calling each privileged RPC directly, without the header, is refused: invalid_request_token');
select is(pg_temp.codes_with(''), array_fill('invalid_request_token'::text, array[12]), 'an empty header too');
select is(pg_temp.codes_with(:'other_session_token'), array_fill('invalid_request_token'::text, array[12]),
  'a live token of the same account''s other session too');
select is(pg_temp.codes_with(:'expired_token'), array_fill('invalid_request_token'::text, array[12]),
  'an expired token of this very session too');
select is(pg_temp.codes_with(repeat('x', 300)), array_fill('invalid_request_token'::text, array[12]), 'an oversized header too');
select tests.reset_role();
select tests.reset_role(); select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(pg_temp.codes_with(:'other_session_token'), array_fill('invalid_request_token'::text, array[12]),
  'another user''s token too');
select tests.reset_role();
select tests.reset_role(); select tests.authenticate_as(:'super', :'s_super');
select is(pg_temp.codes_with(null), array_fill('invalid_request_token'::text, array[12]), 'a super admin without it too');
select tests.reset_role();
select is((select row(f.profiles, f.organizations, f.target, f.beta_name)::text from fingerprint_before f),
          (select row((select count(*) from private.profiles), (select count(*) from private.organizations),
                      (select row(p.first_name, p.locked_by_admin, p.locked_until, u.encrypted_password)::text
                         from private.profiles p join auth.users u on u.id = p.id where p.id = :'alpha_user'),
                      (select name from private.organizations where id = :'beta'))::text),
  'and nothing changed: no user, no organization, the target''s name, lock and password as they were');
select is((select count(*)::int from private.audit_log where action like 'user.%' or action like 'organization.%'), 0,
  'nothing was audited either');

-- With a live token of the caller's own session, the same calls work.
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select tests.with_request_token();
select is(public.lock_user_secure(:'alpha_user') ->> 'success', 'true', 'with its own session''s token an admin locks a user');
select is(public.unlock_user_secure(:'alpha_user') ->> 'success', 'true', 'and unlocks them');
select is(public.create_user_secure('direct@alpha.test', 'Dogrudan.123', :'alpha') ->> 'success', 'true', 'creates a user');
select is(public.analyze_user_records(:'alpha_user') ->> 'success', 'true', 'analyses records');
select is(public.list_organizations() ->> 'code', 'super_admin_required', 'the token does not make an admin a super admin');
select tests.reset_role();
select tests.reset_role(); select tests.authenticate_as(:'super', :'s_super');
select tests.with_request_token();
select is(public.list_organizations() ->> 'success', 'true', 'a super admin with their token lists organizations');
select is(public.update_organization(:'beta', '{"name": "Beta Yeni"}') ->> 'success', 'true', 'and changes one');
select tests.reset_role();

-- The functions behind the façades belong to nobody but their owner.
select is(array(select p.proname::text from pg_catalog.pg_proc p
                 where p.pronamespace = 'private'::regnamespace
                   and p.proname in (select name from privileged_calls)
                   and (has_function_privilege('authenticated', p.oid, 'execute')
                        or has_function_privilege('anon', p.oid, 'execute')
                        or has_function_privilege('service_role', p.oid, 'execute'))),
  '{}'::text[], 'no Data API role may call the functions behind the façades');
select is((select count(*)::int from pg_catalog.pg_proc p
            where p.pronamespace = 'public'::regnamespace and p.proname in (select name from privileged_calls)
              and has_function_privilege('authenticated', p.oid, 'execute')
              and not has_function_privilege('anon', p.oid, 'execute'))::int, 12,
  'the twelve façades are authenticated''s, not anon''s');
select tests.act_as_anon();
select throws_ok($$select public.create_user_secure('anon@alpha.test', 'Dogrudan.123', null)$$, '42501', null,
  'anon cannot call a façade at all');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Item 12: a super admin is trusted only in a live Auth session
-- ---------------------------------------------------------------------------------

/** Acts as the given caller and session, as the test runner (who may call private functions). */
create function pg_temp.as_caller(p_user uuid, p_session uuid) returns void language sql as $$
  select tests.set_request_identity('postgres', p_user::text, json_build_object(
    'sub', p_user, 'role', 'authenticated', 'aud', 'authenticated', 'session_id', p_session)::text);
$$;
select pg_temp.as_caller(:'super', :'s_super');
select ok(private.is_super_admin(:'super'), 'in a live session the super admin is one');
select tests.reset_role(); select tests.authenticate_as(:'super', :'s_super');
select is(public.get_organization_users(p_organization_slug => 'beta') ->> 'success', 'true', 'and reads another organization''s users');
select is(public.get_audit_log(p_organization_slug => 'beta') ->> 'success', 'true', 'and its audit log');
select tests.reset_role();
-- The session ends (a global sign-out); its access token lives on until it expires.
delete from auth.sessions where id = :'s_super';
select pg_temp.as_caller(:'super', :'s_super');
select ok(not private.is_super_admin(:'super'), 'once the session is gone, its token is no super admin''s');
select tests.set_request_identity('authenticated', :'super', json_build_object(
  'sub', :'super', 'role', 'authenticated', 'aud', 'authenticated', 'session_id', :'s_super')::text);
select is(public.get_organization_users(p_organization_slug => 'beta') ->> 'code', 'organization_context_required',
  'it reads no organization''s users');
select is(public.get_audit_log(p_organization_slug => 'beta') ->> 'code', 'organization_context_required', 'nor an audit log');
select is(pg_temp.codes_with(null), array_fill('invalid_request_token'::text, array[12]),
  'nor passes any privileged RPC (its request tokens went with the session)');
select is(public.super_admin_switch_organization(:'beta') ->> 'success', 'false', 'nor switches organization');
select is(public.issue_request_token() ->> 'code', 'authentication_required', 'nor gets a new request token');
select tests.reset_role();
-- The façade's own check aside: the function behind list_organizations refuses too.
select tests.set_request_identity('postgres', :'super', json_build_object(
  'sub', :'super', 'role', 'authenticated', 'session_id', :'s_super')::text);
select is(private.list_organizations() ->> 'code', 'super_admin_required',
  'the organization list itself refuses the dead session''s super admin');
select tests.set_request_identity('postgres', :'super', json_build_object('sub', :'super', 'role', 'authenticated')::text);
select is(private.list_organizations() ->> 'code', 'super_admin_required', 'so does a token without any session');
select tests.set_request_identity('postgres', :'super', json_build_object(
  'sub', :'super', 'role', 'authenticated', 'session_id', :'s_super_2')::text);
select is(private.list_organizations() ->> 'success', 'true', 'the same account''s other, live session still lists them');
select tests.reset_role();
select ok(private.is_super_admin(:'super'), 'asked about someone else (no caller), only the role and account count');
select pg_temp.as_caller(:'alpha_admin', :'s_admin');
select ok(private.is_super_admin(:'super'), 'and so when another caller asks about the super admin');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Item 7: signed downloads
-- ---------------------------------------------------------------------------------

select repeat('a', 64) as sha \gset
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.begin_document_upload(null, 'Gizli', null, null, 'gizli.pdf', 100, 'application/pdf', :'sha') as begun \gset
select tests.reset_role();
select :'begun'::jsonb ->> 'object_path' as path, :'begun'::jsonb ->> 'document_id' as doc \gset
insert into storage.objects (bucket_id, name, metadata) values ('documents', :'path', '{"size": 100}');
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.finish_document_upload((:'begun'::jsonb ->> 'upload_id')::uuid) ->> 'success', 'true', 'a document is stored');

select is((select count(*)::int from pg_policies where schemaname = 'storage' and tablename = 'objects'
             and policyname like 'documents%'), 0, 'no Storage policy lets a member read or sign document objects');
select is((select count(*)::int from storage.objects where bucket_id = 'documents'), 0,
  'the admin reads no document object directly');
select is(public.sign_document_download(:'path', encode(extensions.digest('token-1', 'sha256'), 'hex'), 60) ->> 'success', 'true',
  'the documents function''s signing is allowed for the admin');
select is(public.sign_document_download(:'path', encode(extensions.digest('token-10y', 'sha256'), 'hex'), 315360000) ->> 'code',
  'invalid_input', 'ten years are refused');
select is(public.sign_document_download(:'path', encode(extensions.digest('token-61', 'sha256'), 'hex'), 61) ->> 'code',
  'invalid_input', '61 seconds too');
select is(public.sign_document_download(:'path', 'not-a-hash', 60) ->> 'code', 'invalid_input', 'a malformed hash too');
select is(public.sign_document_download(:'alpha' || '/' || gen_random_uuid() || '/1', encode(extensions.digest('token-x', 'sha256'), 'hex'), 60) ->> 'code',
  'not_found', 'an object of no document is not_found');
select tests.reset_role();
select is((select row(d.user_id, d.session_id, d.organization_id, d.object_path)::text from private.document_downloads d
            where d.token_hash = extensions.digest('token-1', 'sha256')),
          row(:'alpha_admin'::uuid, :'s_admin'::uuid, :'alpha'::uuid, :'path')::text,
  'the signing is recorded: who, which session and organization, which object');
select ok((select d.expires_at <= now() + interval '60 seconds' from private.document_downloads d
            where d.token_hash = extensions.digest('token-1', 'sha256')), 'until at most 60 seconds from now');
select is((select count(*)::int from private.document_downloads), 1, 'refused signings record nothing');

select tests.reset_role(); select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.sign_document_download(:'path', encode(extensions.digest('token-beta', 'sha256'), 'hex'), 60) ->> 'code',
  'not_found', 'another organization''s admin gets no signing of the object');
select tests.reset_role();
select tests.act_as_anon();
select throws_ok(format($$select public.sign_document_download(%L, repeat('a', 64), 60)$$, :'path'), '42501', null,
  'anon cannot ask for one');
select tests.reset_role();
select tests.reset_role(); select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.sign_document_download(:'path', encode(extensions.digest('token-sales', 'sha256'), 'hex'), 60) ->> 'success', 'true',
  'a sales member (documents view all) gets one');
-- Storage's token names only the object and its times: another signer in the same second gets
-- the same token, which stays its first signer's (the function signs again, a second shorter).
select is(public.sign_document_download(:'path', encode(extensions.digest('token-1', 'sha256'), 'hex'), 60) ->> 'code',
  'token_in_use', 'a token already recorded for another signer is not taken over');
select throws_ok($$select private.document_download_allowed('token-sales')$$, '42501', null,
  'a member cannot ask the front''s question');
select tests.reset_role();

-- The front's question when the link is used.
select ok(private.document_download_allowed('token-1'), 'the recorded link is served while everything holds');
select is((select d.user_id from private.document_downloads d where d.token_hash = extensions.digest('token-1', 'sha256')),
  :'alpha_admin'::uuid, 'and stays its first signer''s');
select ok(not private.document_download_allowed('token-unknown'), 'a link nobody recorded is not');
select is(current_setting('request.jwt.claims', true), '', 'the question leaves the request''s identity as it was');
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.delete_documents(array[:'doc']::uuid[]) ->> 'changed', '1', 'the admin deletes the document');
select tests.reset_role();
select ok(not private.document_download_allowed('token-1'), 'a deleted document''s link is refused');
select tests.reset_role(); select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.restore_documents(array[:'doc']::uuid[]) ->> 'changed', '1', 'restored');
select tests.reset_role();
select ok(private.document_download_allowed('token-1'), 'its link works again');

update private.profiles set is_active = false where id = :'alpha_sales';
select ok(not private.document_download_allowed('token-sales'), 'a deactivated signer''s link is refused');
update private.profiles set is_active = true, locked_by_admin = true, locked_until = now() + interval '1 year' where id = :'alpha_sales';
select ok(not private.document_download_allowed('token-sales'), 'a locked signer''s link too');
update private.profiles set locked_by_admin = false, locked_until = null where id = :'alpha_sales';
select ok(private.document_download_allowed('token-sales'), 'unlocked, it works');
update private.memberships set is_active = false where user_id = :'alpha_sales' and organization_id = :'alpha';
select ok(not private.document_download_allowed('token-sales'), 'a suspended member''s link is refused');
update private.memberships set is_active = true where user_id = :'alpha_sales' and organization_id = :'alpha';
select tests.set_role_scope(:'alpha', 'sales', 'view', 'own', 'documents');
select ok(not private.document_download_allowed('token-sales'), 'a signer whose role now sees only their own documents is refused');
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all', 'documents');
delete from auth.sessions where id = :'s_sales';
select ok(not private.document_download_allowed('token-sales'), 'a signed-out signer''s link is refused (the record goes with the session)');
update private.document_downloads set expires_at = now() - interval '1 second' where token_hash = extensions.digest('token-1', 'sha256');
select ok(not private.document_download_allowed('token-1'), 'a link past its recorded life is refused');

select * from finish();
rollback;
