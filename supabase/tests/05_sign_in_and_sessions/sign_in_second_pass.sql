-- Sign-in, second pass (issue 23): sessions made by a code reach no data; the password
-- changes only through the product's functions; a suspended membership still makes an
-- account shared; bcrypt is bounded on every path; the throttle holds back unknown emails,
-- never a real account's right password; the lock answer is the same for unknown emails
-- on the direct Auth route; refused cross-organization attempts are audited in the
-- target's organizations.
begin;
select plan(100);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

select tests.create_organization('demo', 'Demo A.Ş.') as demo \gset
select tests.create_organization('acme', 'Acme Ltd.') as acme \gset
select tests.create_user('root@pass.test', 'super_admin', 'Sema', 'Kök') as super \gset
select tests.create_user('admin@demo.test', 'user', 'Deniz', 'Demo') as d_admin \gset
select tests.create_user('admin@acme.test', 'user', 'Ahmet', 'Acme') as a_admin \gset
select tests.create_user('coder@demo.test', 'user', 'Kod', 'Oturum') as coder \gset
select tests.create_user('both@demo.test', 'user', 'İki', 'Yerli') as both_user \gset
select tests.create_user('only@demo.test', 'user', 'Tek', 'Demo') as only_demo \gset
select tests.create_user('alice@demo.test', 'user', 'Alice', 'Kullanıcı') as alice \gset
select tests.create_user('locked@demo.test', 'user', 'Kilit', 'Li') as locked_user \gset
select tests.add_member(:'d_admin', :'demo', 'admin');
select tests.add_member(:'a_admin', :'acme', 'admin');
select tests.add_member(:'coder', :'demo', 'user');
select tests.add_member(:'both_user', :'demo', 'user');
select tests.add_member(:'both_user', :'acme', 'user');
select tests.add_member(:'only_demo', :'demo', 'user');
select tests.add_member(:'alice', :'demo', 'user');
select tests.add_member(:'locked_user', :'demo', 'user');

/** Acts as the user in a new Auth session whose JWT carries this amr claim. */
create function tests.authenticate_with_amr(p_user uuid, p_session uuid, p_amr jsonb)
returns void language sql as $$
  insert into auth.sessions (id, user_id) values (p_session, p_user) on conflict (id) do nothing;
  select tests.set_request_identity('authenticated', p_user::text, jsonb_build_object(
    'sub', p_user, 'role', 'authenticated', 'aud', 'authenticated', 'session_id', p_session, 'amr', p_amr)::text);
$$;
grant execute on function tests.authenticate_with_amr(uuid, uuid, jsonb) to anon, authenticated;

/** Runs a statement as the role; 'ok' or the error's SQLSTATE and message. */
create function tests.sqlstate_as(p_role text, p_sql text)
returns text language plpgsql as $$
begin
  execute format('set local role %I', p_role);
  execute p_sql;
  reset role;
  return 'ok';
exception when others then
  return sqlstate || ' ' || sqlerrm;
end;
$$;

select gen_random_uuid() as s_d, gen_random_uuid() as s_a, gen_random_uuid() as s_root \gset
select tests.authenticate_as(:'d_admin', :'s_d');
select public.bind_session_organization(:'demo') ->> 'success' as bound_d \gset
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_a');
select public.bind_session_organization(:'acme') ->> 'success' as bound_a \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_root');
select public.bind_session_organization(:'demo') ->> 'success' as bound_root \gset
select tests.reset_role();
select is(array[:'bound_d', :'bound_a', :'bound_root'], array['true', 'true', 'true'], 'the acting sessions are bound');

-- ---------------------------------------------------------------------------------
-- 1. A session made by a code reaches no data
-- ---------------------------------------------------------------------------------
select '{"success": false, "error": "Authentication required", "code": "sign_in_method_refused"}' as refused \gset
select gen_random_uuid() as s_otp, gen_random_uuid() as s_magic, gen_random_uuid() as s_recovery,
       gen_random_uuid() as s_signup, gen_random_uuid() as s_empty, gen_random_uuid() as s_pw,
       gen_random_uuid() as s_mfa, gen_random_uuid() as s_root_otp \gset

select tests.authenticate_with_amr(:'coder', :'s_otp', '[{"method": "otp", "timestamp": 1764270000}]');
select is(public.bind_session_organization(:'demo'), (:'refused'::jsonb) || '{"method": "otp"}',
  'an otp session is refused binding, with its method');
select is(public.bind_session_organization() ->> 'code', 'sign_in_method_refused', 'with or without a named organization');
select is(public.get_current_user_context() ->> 'success', 'false', 'it gets no user context');
select is(public.get_my_organizations() ->> 'code', 'authentication_required', 'nor the list of its organizations');
select is(public.get_login_attempts() ->> 'code', 'authentication_required', 'nor its sign-in log');
select is(public.issue_request_token() ->> 'code', 'authentication_required', 'nor a request token');
select is(public.update_my_profile('Sahte', 'Ad') ->> 'code', 'authentication_required', 'it cannot change the profile');
select is(public.accept_terms() ->> 'code', 'authentication_required', 'nor accept the terms');
select is(public.update_user_last_login(:'coder') ->> 'code', 'authentication_required', 'nor record a sign-in');
select tests.reset_role();
select tests.authenticate_with_amr(:'coder', :'s_magic', '[{"method": "magiclink", "timestamp": 1764270000}]');
select is(public.bind_session_organization(:'demo') ->> 'code', 'sign_in_method_refused', 'a magic link session is refused');
select tests.reset_role();
select tests.authenticate_with_amr(:'coder', :'s_recovery', '[{"method": "recovery", "timestamp": 1764270000}]');
select is(public.bind_session_organization(:'demo') ->> 'code', 'sign_in_method_refused', 'a recovery session is refused');
select tests.reset_role();
select tests.authenticate_with_amr(:'coder', :'s_signup', '[{"method": "email/signup", "timestamp": 1764270000}]');
select is(public.bind_session_organization(:'demo') ->> 'code', 'sign_in_method_refused', 'a sign-up session is refused');
select tests.reset_role();
select tests.authenticate_with_amr(:'coder', :'s_empty', '[]');
select is(public.bind_session_organization(:'demo') ->> 'code', 'sign_in_method_refused', 'an empty amr is refused');
select tests.reset_role();
select is((select count(*)::int from private.session_organizations
            where session_id in (:'s_otp', :'s_magic', :'s_recovery', :'s_signup', :'s_empty')), 0,
  'none of the code sessions is bound');
select is((select array_agg(method order by id) from private.login_attempts
            where user_id = :'coder' and source = 'session' and failure_reason = 'sign_in_method_refused'),
  array['otp', 'otp', 'magiclink', 'recovery', 'email/signup', 'unknown'],
  'each refusal is in the sign-in log as a refused sign-in with its method');

-- Even a binding written by other means serves nothing to a code session.
insert into private.session_organizations (session_id, user_id, organization_id) values (:'s_otp', :'coder', :'demo');
select tests.authenticate_with_amr(:'coder', :'s_otp', '[{"method": "otp", "timestamp": 1764270000}]');
select is(public.get_current_user_context() ->> 'success', 'false', 'a bound code session still gets nothing');
select is(public.get_my_organizations() ->> 'success', 'false', 'nor its organizations');
select tests.reset_role();
delete from private.session_organizations where session_id = :'s_otp';

-- A super admin's or an admin's code session has no power either.
select tests.authenticate_with_amr(:'super', :'s_root_otp', '[{"method": "otp", "timestamp": 1764270000}]');
-- It gets no request token (the account is unusable in that session), so the privileged
-- façade refuses first.
select is(public.list_organizations() ->> 'code', 'invalid_request_token', 'a super admin''s code session lists no organizations');
select is(public.simple_reset_password(:'alice', 'Ele.Gecir.5') ->> 'success', 'false', 'nor resets a password');
select is(public.super_admin_switch_organization(:'acme') ->> 'success', 'false', 'nor switches organization');
select tests.reset_role();

-- The password path keeps working: amr naming password (also with a second factor), or no
-- amr at all (the local stack's lite writes none; it signs in by password only).
select tests.authenticate_with_amr(:'coder', :'s_pw', '[{"method": "password", "timestamp": 1764270000}]');
select is(public.bind_session_organization(:'demo') ->> 'success', 'true', 'a password session binds');
select is(public.get_current_user_context() ->> 'success', 'true', 'and gets its context');
select tests.reset_role();
select tests.authenticate_with_amr(:'coder', :'s_mfa', '[{"method": "totp", "timestamp": 2}, {"method": "password", "timestamp": 1}]');
select is(public.bind_session_organization(:'demo') ->> 'success', 'true', 'a password session with a second factor binds');
select tests.reset_role();
select tests.authenticate_as(:'coder');
select is(public.bind_session_organization(:'demo') ->> 'success', 'true', 'a token without amr binds');
select tests.reset_role();

-- A later issue may allow a code method: it then passes the same lock and is a sign-in.
update private.security_settings set session_sign_in_methods = '{password,recovery}';
select gen_random_uuid() as s_recovery2, gen_random_uuid() as s_recovery3 \gset
select tests.authenticate_with_amr(:'coder', :'s_recovery2', '[{"method": "recovery", "timestamp": 1764270000}]');
select is(public.bind_session_organization(:'demo') ->> 'success', 'true', 'an allowed code method binds');
select tests.reset_role();
select is((select array[success::text, method, source] from private.login_attempts
            where user_id = :'coder' and method = 'recovery' order by id desc limit 1),
  array['true', 'recovery', 'session'], 'and is logged as a sign-in with its method');
update private.profiles set failed_login_attempts = 5, locked_until = now() + interval '30 minutes' where id = :'coder';
select tests.authenticate_with_amr(:'coder', :'s_recovery3', '[{"method": "recovery", "timestamp": 1764270000}]');
select is(public.bind_session_organization(:'demo') ->> 'code', 'account_locked', 'it passes the same lock');
select tests.reset_role();
select is((select failure_reason from private.login_attempts where user_id = :'coder' and method = 'recovery' order by id desc limit 1),
  'account_locked', 'and the refusal is logged with the method');
update private.profiles set failed_login_attempts = 0, locked_until = null where id = :'coder';
update private.security_settings set session_sign_in_methods = '{password}';

-- ---------------------------------------------------------------------------------
-- 2. The password changes only through the product's functions
-- ---------------------------------------------------------------------------------
select encrypted_password as alice_hash from auth.users where id = :'alice' \gset
select throws_ok(format($$update auth.users set encrypted_password = extensions.crypt('Auth.Direct.1', extensions.gen_salt('bf', 4))
                          where id = %L$$, :'alice'),
  '42501', 'password changes go through change_my_password', 'a direct update of the password is refused');
-- Auth's role, as GoTrue would write on PUT /auth/v1/user (it owns auth.users on hosted Supabase).
grant select, update on auth.users to supabase_auth_admin;
select extensions.crypt('Auth.Direct.2', extensions.gen_salt('bf', 4)) as auth_hash \gset
select is(tests.sqlstate_as('supabase_auth_admin', format($$update auth.users set encrypted_password = %L, updated_at = now()
                                                             where id = %L$$, :'auth_hash', :'alice')),
  '42501 password changes go through change_my_password', 'also for Auth''s own role (PUT /auth/v1/user)');
select is(tests.sqlstate_as('supabase_auth_admin', format($$update auth.users set last_sign_in_at = now(), updated_at = now() where id = %L$$, :'alice')),
  'ok', 'Auth still writes its sign-in columns');
select is(tests.sqlstate_as('supabase_auth_admin', format($$update auth.users set encrypted_password = encrypted_password where id = %L$$, :'alice')),
  'ok', 'and may write the same hash again (a full-row save)');
select is((select encrypted_password from auth.users where id = :'alice'), :'alice_hash', 'the password is unchanged');
select set_config('crm.password_write_for', :'only_demo', true);
select throws_ok(format($$update auth.users set encrypted_password = extensions.crypt('Other.One.1', extensions.gen_salt('bf', 4))
                          where id = %L$$, :'alice'),
  '42501', 'password changes go through change_my_password', 'the marker of another account does not open this one');
select set_config('crm.password_write_for', '', true);

-- The product's own functions still write it.
select gen_random_uuid() as s_alice \gset
select tests.authenticate_as(:'alice', :'s_alice');
select is(public.change_my_password('Test.1234', 'Alice.Yeni.7') ->> 'success', 'true', 'change_my_password works');
select tests.reset_role();
select is((select extensions.crypt('Alice.Yeni.7', encrypted_password) = encrypted_password from auth.users where id = :'alice'),
  true, 'and the new password is set');
select throws_ok(format($$update auth.users set encrypted_password = 'x' where id = %L$$, :'alice'),
  '42501', 'password changes go through change_my_password', 'the marker ends with the function''s own write');
select tests.authenticate_as(:'d_admin', :'s_d');
select is(public.simple_reset_password(:'alice', 'Admin.Reset.3') ->> 'success', 'true', 'an admin''s reset works');
select is(public.create_user_secure('new@demo.test', 'Yeni.Kisi.4', :'demo', 'Yeni', 'Kişi') ->> 'success', 'true',
  'a new user is created');
select tests.reset_role();
select is((select extensions.crypt('Yeni.Kisi.4', encrypted_password) = encrypted_password from auth.users where email = 'new@demo.test'),
  true, 'with their password');
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('alice@demo.test', 'Admin.Reset.3') ->> 'success', 'true', 'the reset password signs in');
select is(public.sync_user_password('alice@demo.test', 'Admin.Reset.3') ->> 'success', 'true', 'and the login repair writes it');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- 3. A suspended membership still makes the account shared
-- ---------------------------------------------------------------------------------
select '{"success": false, "error": "Admin privileges required", "code": "shared_account"}' as shared_refusal \gset
select encrypted_password as both_hash from auth.users where id = :'both_user' \gset
select tests.authenticate_as(:'d_admin', :'s_d');
select is(public.update_user_secure(:'both_user', '{"is_active": false}') ->> 'success', 'true', 'demo''s admin suspends the shared member in demo');
select tests.reset_role();
select tests.authenticate_as(:'a_admin', :'s_a');
select is(public.simple_reset_password(:'both_user', 'Ele.Gecir.1'), :'shared_refusal'::jsonb, 'acme''s admin may not reset the password');
select is(public.update_user_secure(:'both_user', '{"email": "attacker@evil.test"}'), :'shared_refusal'::jsonb, 'nor change the email');
select is(public.update_user_secure(:'both_user', '{"first_name": "Sahte"}'), :'shared_refusal'::jsonb, 'nor the name');
select is(public.lock_user_secure(:'both_user'), :'shared_refusal'::jsonb, 'nor lock the account');
select is(public.unlock_user_secure(:'both_user'), :'shared_refusal'::jsonb, 'nor unlock it');
select tests.reset_role();
select is((select encrypted_password from auth.users where id = :'both_user'), :'both_hash', 'the password is unchanged');
select is((select array[email, first_name, coalesce(locked_until::text, 'none')] from private.profiles where id = :'both_user'),
  array['both@demo.test', 'İki', 'none'], 'email, name and lock are unchanged');
select tests.authenticate_as(:'a_admin', :'s_a');
select is(public.delete_user_secure(:'both_user') ->> 'message', 'Kullanıcı şirketten çıkarıldı',
  'deleting only removes them from acme: the account and demo''s membership stay');
select tests.reset_role();
select is((select array_agg(organization_id::text || '/' || is_active) from private.memberships where user_id = :'both_user'),
  array[:'demo' || '/false'], 'demo''s suspended membership is intact');
select tests.authenticate_as(:'super', :'s_root');
select is(public.simple_reset_password(:'both_user', 'Super.Reset.2') ->> 'success', 'true', 'a super admin may reset');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- 7. Refused cross-organization attempts are in the target's organizations' logs
-- ---------------------------------------------------------------------------------
select is((select array_agg(details ->> 'attempted_action' order by id) from private.audit_log
            where action = 'user.access_refused' and target_id = :'both_user' and organization_id = :'demo'),
  array['simple_reset_password', 'update_user_secure', 'update_user_secure', 'lock_user_secure', 'unlock_user_secure'],
  'each refused act on the shared member is in demo''s log, with the attempted action');
select is((select array_agg(distinct details ->> 'code') || array_agg(distinct details ->> 'actor_organization_id')
                  || array_agg(distinct actor_id::text)
             from private.audit_log where action = 'user.access_refused' and target_id = :'both_user' and organization_id = :'demo'),
  array['shared_account', :'acme', :'a_admin'], 'with the refusal''s code, the actor and the actor''s organization');
select tests.authenticate_as(:'a_admin', :'s_a');
select is(public.update_user_secure(:'only_demo', '{"first_name": "Sahte"}'),
  '{"success": false, "error": "User not found", "code": "user_not_found"}'::jsonb,
  'acme''s admin acting on a demo-only member gets the usual answer');
select is(public.simple_reset_password(:'super', 'Kok.Reset.1') ->> 'success', 'false', 'and on the super admin');
select is(public.update_user_secure(gen_random_uuid(), '{"first_name": "Yok"}') ->> 'code', 'user_not_found',
  'and on an account that does not exist');
select tests.reset_role();
select is((select array[details ->> 'attempted_action', details ->> 'code', details ->> 'actor_organization_id']
             from private.audit_log where action = 'user.access_refused' and target_id = :'only_demo' and organization_id = :'demo'),
  array['update_user_secure', 'user_not_found', :'acme'], 'the attempt on the demo-only member is in demo''s log');
select is((select count(*)::int from private.audit_log where action = 'user.access_refused' and target_id = :'only_demo'), 1,
  'once, and only in the target''s organizations');
select is((select count(*)::int from private.audit_log where action = 'user.access_refused'
             and target_id not in (:'both_user', :'only_demo', :'super')), 0, 'an account that does not exist leaves nothing');
select tests.authenticate_as(:'d_admin', :'s_d');
select is(public.update_user_secure(:'only_demo', '{"first_name": "Tekin"}') ->> 'success', 'true',
  'demo''s admin acts on their own member');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where action = 'user.access_refused' and target_id = :'only_demo'), 1,
  'which is no refusal');

-- ---------------------------------------------------------------------------------
-- 4. bcrypt is bounded on every path
-- ---------------------------------------------------------------------------------
select tests.create_user('busy@demo.test') as busy \gset
select tests.add_member(:'busy', :'demo', 'user');
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.7"}', true);
select is((select count(*)::int from generate_series(1, 50) g
            where public.secure_login_prepare_auth('busy@demo.test', 'Test.1234') ->> 'success' = 'true'), 50,
  '50 right-password sign-ins in a row');
select tests.reset_role();
select is((select count(*)::int from private.login_proofs where user_id = :'busy'), 1, 'leave one login proof');
update private.security_settings set account_success_limit = 50;
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.8"}', true);
select public.secure_login_prepare_auth('busy@demo.test', 'Test.1234') as busy_answer \gset
select is((:'busy_answer'::jsonb) - 'retry_after_seconds',
  '{"success": false, "error": "Too many sign-in attempts. Please wait 5 minutes and try again.", "code": "too_many_attempts"}'::jsonb,
  'at the account''s limit of right-password sign-ins the next waits, from any address');
select cmp_ok(((:'busy_answer'::jsonb) ->> 'retry_after_seconds')::int, '>', 200, 'with the seconds to wait');
select is(public.secure_login_prepare_auth('alice@demo.test', 'Admin.Reset.3') ->> 'success', 'true', 'another account is not held back');
select tests.reset_role();
select is((select failure_reason from private.login_attempts where user_id = :'busy' order by id desc limit 1), 'throttled',
  'the held-back sign-in is logged as throttled');
update private.security_settings set account_success_limit = 120;

-- Direct Auth sign-ins (the local stack's front reports them): one that follows the login
-- RPC takes its proof; one straight to Auth is logged, so it counts toward the rate too.
select tests.create_user('direct.rate@demo.test') as direct_rate \gset
select tests.add_member(:'direct_rate', :'demo', 'user');
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('direct.rate@demo.test', 'Test.1234') ->> 'success', 'true', 'the login RPC proves the password');
select tests.reset_role();
select is(private.auth_password_attempt('direct.rate@demo.test', true, '198.51.100.10'), '{"decision": "continue"}'::jsonb,
  'Auth''s sign-in that follows it goes on');
select is(private.auth_password_attempt('direct.rate@demo.test', true, '198.51.100.10'), '{"decision": "continue"}'::jsonb,
  'and so does one straight to Auth');
select is((select array_agg(source order by id) from private.login_attempts where user_id = :'direct_rate' and success),
  array['login', 'auth'], 'the first took the proof; the second is logged as a sign-in of its own');
select is((select used_at is not null from private.login_proofs where user_id = :'direct_rate'), true, 'the proof is used');

-- A repair call: at most one proof to check; a wrong password burns it and is a failure of
-- the address.
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.9"}', true);
select is(public.secure_login_prepare_auth('alice@demo.test', 'Admin.Reset.3') ->> 'success', 'true', 'alice proves her password');
select is(public.sync_user_password('alice@demo.test', 'Wrong.Guess.1') ->> 'code', 'password_sync_failed', 'a wrong repair is refused');
select is(public.sync_user_password('alice@demo.test', 'Admin.Reset.3') ->> 'code', 'password_sync_failed',
  'and burnt the proof: the right password finds none');
select is(public.create_auth_user_admin('nobody@demo.test', 'Wrong.Guess.2') ->> 'code', 'auth_user_creation_failed',
  'an unknown email is refused alike');
select tests.reset_role();
select is((select count(*)::int from private.login_proofs where user_id = :'alice'), 0, 'no proof is left');
select is((select array_agg(array[coalesce(user_id::text, 'none'), failure_reason, source, host(client_address)] order by id)::text
             from private.login_attempts where client_address = '198.51.100.9' and not success),
  array[array[:'alice', 'invalid_credentials', 'repair', '198.51.100.9'],
        array[:'alice', 'invalid_credentials', 'repair', '198.51.100.9'],
        array['none', 'invalid_credentials', 'repair', '198.51.100.9']]::text,
  'each refused repair is logged as a failure of the address');
update private.security_settings set client_failure_limit = 3;
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.9"}', true);
select is(public.secure_login_prepare_auth('ghost1@demo.test', 'Wrong.Guess.3') ->> 'code', 'invalid_credentials',
  'after three refused repairs an unknown email from the address');
select tests.reset_role();
select is((select failure_reason from private.login_attempts where email = 'ghost1@demo.test'), 'throttled',
  'is throttled: the repairs counted toward the address''s limit');
update private.security_settings set client_failure_limit = 20;

-- No bcrypt while a lock answers whatever the password: a cost-13 hash would take about
-- half a second per check.
select set_config('crm.password_write_for', :'locked_user', true);
update auth.users set encrypted_password = extensions.crypt('Test.1234', extensions.gen_salt('bf', 13)) where id = :'locked_user';
select set_config('crm.password_write_for', '', true);
update private.profiles set failed_login_attempts = 5, locked_until = now() + interval '30 minutes' where id = :'locked_user';
select clock_timestamp() as before_locked \gset
select tests.act_as_anon();
select is(array_agg(public.secure_login_prepare_auth('locked@demo.test', pw) ->> 'code'),
  array['account_locked', 'account_locked', 'account_locked', 'account_locked'], 'a locked account answers the lock')
  from unnest(array['Test.1234', 'Wrong.1', 'Wrong.2', 'Wrong.3']) pw;
select tests.reset_role();
select cmp_ok(clock_timestamp() - :'before_locked'::timestamptz, '<', interval '300 milliseconds',
  'without any bcrypt work (four tries in well under one check''s time)');
select is((select failed_login_attempts from private.profiles where id = :'locked_user'), 5, 'and counts nothing more');

-- ---------------------------------------------------------------------------------
-- 5. The throttle holds back unknown emails, never a real account's right password
-- ---------------------------------------------------------------------------------
-- 1,000 unknown-email failures from 50 addresses within the minute, and 25 from the
-- user's own address for other emails.
insert into private.login_attempts (email, user_id, success, failure_reason, source, client_address, created_at)
select format('spray%s@nowhere.test', g), null, false, 'invalid_credentials', case when g % 2 = 0 then 'auth' else 'login' end,
       format('203.0.113.%s', g % 50)::inet, now() - interval '10 seconds'
  from generate_series(1, 1000) g;
insert into private.login_attempts (email, user_id, success, failure_reason, source, client_address, created_at)
select format('other%s@demo.test', g), null, false, 'invalid_credentials', 'login', '192.0.2.44', now() - interval '5 seconds'
  from generate_series(1, 25) g;
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "192.0.2.44"}', true);
select is(public.secure_login_prepare_auth('alice@demo.test', 'Admin.Reset.3') ->> 'success', 'true',
  'after 1,025 failures the user''s right password signs in from their own address (login RPC)');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.7"}', true);
select is(public.secure_login_prepare_auth('alice@demo.test', 'Admin.Reset.3') ->> 'success', 'true',
  'and from one of the attacker''s addresses');
select is(public.secure_login_prepare_auth('spray2000@nowhere.test', 'Wrong.Guess.9'),
  '{"success": false, "error": "Invalid login credentials", "code": "invalid_credentials"}'::jsonb,
  'the attacker''s next unknown email gets the wrong-password answer');
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.200"}', true);
select is(public.secure_login_prepare_auth('spray2001@nowhere.test', 'Wrong.Guess.9') ->> 'code', 'invalid_credentials',
  'so does one from a fresh address (the global limit)');
select tests.reset_role();
select is((select array_agg(failure_reason order by id) from private.login_attempts
            where email in ('spray2000@nowhere.test', 'spray2001@nowhere.test')),
  array['throttled', 'throttled'], 'both were throttled: no password check');
select is(private.auth_sign_in_gate('alice@demo.test', 'Admin.Reset.3', '203.0.113.7'), '{"gate": "open"}'::jsonb,
  'direct Auth: the user''s sign-in goes on to Auth');
select is(private.auth_sign_in_gate('spray2002@nowhere.test', 'Wrong.Guess.9', '203.0.113.7'),
  '{"gate": "answered", "status": 400, "message": "Invalid login credentials"}'::jsonb,
  'direct Auth: the attacker''s unknown email is answered at once, like a wrong password');
select is(private.auth_sign_in_gate('spray2003@nowhere.test', 'Wrong.Guess.9', '198.51.100.201') ->> 'gate', 'answered',
  'also from a fresh address');

-- Spraying real accounts: each still locks after five failures.
select tests.create_user('sprayed@demo.test') as sprayed \gset
select tests.add_member(:'sprayed', :'demo', 'user');
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.8"}', true);
select is(array_agg(public.secure_login_prepare_auth('sprayed@demo.test', format('Guess.%s', g)) ->> 'code' order by g),
  array['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'account_locked', 'account_locked'],
  'a real account''s wrong passwords are checked and lock it after the fifth')
  from generate_series(1, 6) g;
select tests.reset_role();
delete from private.login_attempts where email like 'spray%@nowhere.test' or email like 'other%@demo.test';

-- ---------------------------------------------------------------------------------
-- 6. The lock answer is the same for unknown emails on the direct Auth route
-- ---------------------------------------------------------------------------------
select tests.create_user('direct@demo.test') as direct \gset
select tests.add_member(:'direct', :'demo', 'user');
select is((select array_agg(coalesce(private.auth_password_attempt('direct@demo.test', false, '192.0.2.80') ->> 'message', 'continue')
                            order by g) from generate_series(1, 5) g),
  array['continue', 'continue', 'continue', 'continue', 'Account is locked for 30 minutes'],
  'a real account: the fifth failure gets the lock');
select is((select array_agg(coalesce(private.auth_password_attempt('phantom@demo.test', false, '192.0.2.81') ->> 'message', 'continue')
                            order by g) from generate_series(1, 5) g),
  array['continue', 'continue', 'continue', 'continue', 'Account is locked for 30 minutes'],
  'an unknown email: the same');
select is(private.auth_sign_in_gate('direct@demo.test', 'Test.1234', '192.0.2.80'),
  '{"gate": "answered", "status": 400, "message": "Account is locked for 30 minutes"}'::jsonb,
  'then the real account is answered with the lock before Auth');
select is(private.auth_sign_in_gate('phantom@demo.test', 'Test.1234', '192.0.2.81'),
  '{"gate": "answered", "status": 400, "message": "Account is locked for 30 minutes"}'::jsonb,
  'and the unknown email alike');
select is((select array_agg(distinct failure_reason) from private.login_attempts where email = 'phantom@demo.test' and source = 'auth'),
  array['account_locked', 'invalid_credentials'], 'the unknown email''s tries are in the sign-in log');

select * from finish();
rollback;
