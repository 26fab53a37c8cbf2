-- Security hardening (issue 10): an admin's power over an account ends at their
-- organization's border; the lockout holds on every path (locked sessions, the Auth
-- password check, the per-client and global throttle); password rules; the audit trail;
-- retention. Each rule: refused for a member shared with another organization, allowed
-- for a member of the admin's organization only.
begin;
select plan(109);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- ---------------------------------------------------------------------------------
-- Two organizations; a member shared by both; members of one only
-- ---------------------------------------------------------------------------------
select tests.create_organization('north', 'Kuzey A.Ş.') as north \gset
select tests.create_organization('south', 'Güney Ltd.') as south \gset
select private.migrate_tenant(:'north') as north_version \gset

select tests.create_user('root@sec.test', 'super_admin', 'Sema', 'Kök') as super \gset
select tests.create_user('admin@north.test', 'user', 'Nail', 'Kuzey') as n_admin \gset
select tests.create_user('admin@south.test', 'user', 'Suna', 'Güney') as s_admin \gset
select tests.create_user('shared@north.test', 'user', 'Şule', 'İkili') as shared \gset
select tests.create_user('global@north.test', 'admin', 'Gül', 'Genel') as global_admin \gset
select tests.create_user('solo@north.test', 'user', 'Sol', 'Tek') as solo \gset
select tests.create_user('dormant@north.test', 'user', 'Durgun', 'Üye') as dormant \gset
select tests.create_user('victim@south.test', 'user', 'Kurban', 'Değil') as victim \gset

select tests.add_member(:'n_admin', :'north', 'admin');
select tests.add_member(:'s_admin', :'south', 'admin');
select tests.add_member(:'shared', :'north', 'sales');
select tests.add_member(:'shared', :'south', 'user');
select tests.add_member(:'global_admin', :'north', 'admin');
select tests.add_member(:'global_admin', :'south', 'admin');
select tests.add_member(:'solo', :'north', 'user');
select tests.add_member(:'dormant', :'north', 'user');
select tests.add_member(:'dormant', :'south', 'user');
update private.memberships set is_active = false where user_id = :'dormant' and organization_id = :'south';
select tests.add_member(:'victim', :'south', 'user');

select gen_random_uuid() as s_n, gen_random_uuid() as s_s, gen_random_uuid() as s_root,
       gen_random_uuid() as s_shared, gen_random_uuid() as s_shared2 \gset
select tests.authenticate_as(:'n_admin', :'s_n');
select public.bind_session_organization(:'north') ->> 'success' as bound_n \gset
select tests.reset_role();
select tests.authenticate_as(:'s_admin', :'s_s');
select public.bind_session_organization(:'south') ->> 'success' as bound_s \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_root');
select public.bind_session_organization(:'south') ->> 'success' as bound_root \gset
select tests.reset_role();
select tests.authenticate_as(:'shared', :'s_shared');
select public.bind_session_organization(:'north') ->> 'success' as bound_shared \gset
select tests.reset_role();
select is(array[:'bound_n', :'bound_s', :'bound_root', :'bound_shared'], array['true', 'true', 'true', 'true'],
  'the acting sessions are bound: north admin, south admin, super admin (south), the shared member (north)');

select '{"success": false, "error": "Admin privileges required", "code": "shared_account"}' as shared_refusal \gset
select encrypted_password as shared_hash from auth.users where id = :'shared' \gset

-- ---------------------------------------------------------------------------------
-- 1. The south admin cannot take over the member north shares with them
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'s_admin', :'s_s');
select is(public.simple_reset_password(:'shared', 'Ele.Gecir.1'), :'shared_refusal'::jsonb,
  'reset: the south admin may not set the password of a member north shares');
select is(public.sync_user_password('shared@north.test', 'Ele.Gecir.2') ->> 'code', 'password_sync_failed',
  'repair (sync): refused');
select is(public.create_auth_user_admin('shared@north.test', 'Ele.Gecir.3') ->> 'code', 'auth_user_creation_failed',
  'repair (create): refused');
select is(public.lock_user_secure(:'shared'), :'shared_refusal'::jsonb, 'lock: refused (it would lock them out of north too)');
select is(public.update_user_secure(:'shared', '{"email": "taken@evil.test"}'), :'shared_refusal'::jsonb, 'email: refused');
select is(public.update_user_secure(:'shared', '{"first_name": "Sahte"}'), :'shared_refusal'::jsonb, 'names: refused');
select is(public.update_user_secure(:'global_admin', '{"role": "user"}'), :'shared_refusal'::jsonb,
  'demoting a global admin shared with north: refused');
select tests.reset_role();
select is((select encrypted_password from auth.users where id = :'shared'), :'shared_hash',
  'the shared member''s password is unchanged');
select is((select array[email, first_name, locked_until::text] from private.profiles where id = :'shared'),
  array['shared@north.test', 'Şule', null], 'their email, name and lock state are unchanged');
select is((select role from private.profiles where id = :'global_admin'), 'admin', 'the global admin keeps their global role');

-- The admin lock north's super admin set cannot be lifted from south.
select tests.authenticate_as(:'super', :'s_root');
select is(public.lock_user_secure(:'shared') ->> 'success', 'true', 'a super admin locks the shared member');
select tests.reset_role();
select tests.authenticate_as(:'s_admin', :'s_s');
select is(public.unlock_user_secure(:'shared'), :'shared_refusal'::jsonb, 'unlock: the south admin may not lift that lock');
select tests.reset_role();
select is((select locked_by_admin from private.profiles where id = :'shared'), true, 'the shared member stays locked');
select tests.authenticate_as(:'super', :'s_root');
select is(public.unlock_user_secure(:'shared') ->> 'success', 'true', 'the super admin unlocks them');
select is(public.simple_reset_password(:'shared', 'Super.Reset.7') ->> 'success', 'true',
  'a super admin may reset a shared member''s password');
select tests.reset_role();

-- Organization-scoped actions on the shared member stay with each organization's admin.
select tests.authenticate_as(:'s_admin', :'s_s');
select is(public.update_user_secure(:'shared', '{"role": "manager"}') ->> 'success', 'true',
  'the south admin changes the shared member''s role in south');
select is(public.update_user_secure(:'shared', '{"is_active": false}') ->> 'success', 'true',
  'and their membership status in south');
select is(public.update_user_secure(:'global_admin', '{"role": "admin"}') ->> 'success', 'true',
  'a role change that keeps a global admin''s global role is the organization''s');
select tests.reset_role();
select is((select m.role || '/' || m.is_active from private.memberships m where m.user_id = :'shared' and m.organization_id = :'south'),
  'manager/false', 'south''s membership changed');
select is((select m.role || '/' || m.is_active from private.memberships m where m.user_id = :'shared' and m.organization_id = :'north'),
  'sales/true', 'north''s membership did not');
select is((select a.details -> 'changes' from private.audit_log a
            where a.action = 'user.updated' and a.target_id = :'shared' and a.organization_id = :'north'
              and a.details -> 'changes' ? 'role'),
  '{"role": {"new": "manager", "old": "user"}}'::jsonb,
  'the role change is in north''s log too, with old and new values');
select is((select count(*)::int from private.audit_log a
            where a.action = 'user.updated' and a.target_id = :'shared' and a.details -> 'changes' ? 'is_active'),
  2, 'the status change is written to the log of both organizations');
select is((select count(*)::int from private.audit_log a where a.action = 'user.password_reset' and a.target_id = :'shared'),
  2, 'the super admin''s reset is written to both organizations'' logs');
select is((select count(*)::int from private.audit_log a
            where a.action in ('user.locked', 'user.unlocked') and a.target_id = :'shared'
              and a.organization_id in (:'north', :'south')),
  4, 'lock and unlock are written to both organizations'' logs');

-- With the membership in south inactive, the account is still shared (issue 23: reinstated,
-- it would sign in to south with what north set): north's admin is refused, as south's is.
select tests.authenticate_as(:'n_admin', :'s_n');
select is(public.simple_reset_password(:'shared', 'North.Reset.8'), :'shared_refusal'::jsonb,
  'north''s admin may not reset a member whose membership in south is suspended');
select is(public.simple_reset_password(:'dormant', 'North.Reset.9'), :'shared_refusal'::jsonb,
  'likewise for a member whose other membership is inactive');
select tests.reset_role();

-- A member of one organization only: its admin acts on the whole account.
select tests.authenticate_as(:'n_admin', :'s_n');
select is(public.simple_reset_password(:'solo', 'Solo.Reset.1') ->> 'success', 'true', 'reset: allowed for a north-only member');
select is(public.lock_user_secure(:'solo') ->> 'success', 'true', 'lock: allowed');
select is(public.unlock_user_secure(:'solo') ->> 'success', 'true', 'unlock: allowed');
select is(public.update_user_secure(:'solo', '{"email": "solo.new@north.test", "first_name": "Solo"}') ->> 'success', 'true',
  'email and name: allowed');
select tests.reset_role();
select is((select a.details -> 'changes' -> 'email' from private.audit_log a
            where a.action = 'user.updated' and a.target_id = :'solo' and a.organization_id = :'north'),
  '{"new": "solo.new@north.test", "old": "solo@north.test"}'::jsonb, 'the email change records old and new values');
select is((select email from auth.users where id = :'solo'), 'solo.new@north.test', 'Auth has the new email');

-- What an admin is shown of a member's memberships: their own organization's only.
select tests.authenticate_as(:'s_admin', :'s_s');
select is(public.get_user_info_by_email('global@north.test') -> 'user' -> 'organization_role',
  jsonb_build_object(:'south', 'admin'), 'user_json shows the south admin only the south membership');
select tests.reset_role();
select tests.authenticate_as(:'global_admin');
select is(jsonb_object_keys_count.n, 2, 'the user sees all their own memberships')
  from (select count(*)::int as n from jsonb_object_keys(public.get_current_user_context() -> 'user' -> 'organization_role')) jsonb_object_keys_count;
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_root');
select is((select count(*)::int from jsonb_object_keys(public.get_user_info_by_email('global@north.test') -> 'user' -> 'organization_role')),
  2, 'a super admin sees every membership');
select tests.reset_role();

-- Removing the shared member from south is south's; deleting the account is not.
select tests.authenticate_as(:'s_admin', :'s_s');
select is(public.delete_user_secure(:'global_admin') ->> 'message', 'Kullanıcı şirketten çıkarıldı',
  'delete: the south admin only removes the shared member from south');
select tests.reset_role();
select is((select array_agg(organization_id::text) from private.memberships where user_id = :'global_admin'),
  array[:'north'], 'the north membership and the account remain');
select is((select count(*)::int from private.audit_log where action = 'user.removed' and target_id = :'global_admin'), 2,
  'the removal is written to both organizations'' logs');

-- A super admin's full delete shows in each former organization's log.
select tests.authenticate_as(:'super', :'s_root');
select is(public.delete_user_secure(:'dormant') ->> 'message', 'Kullanıcı silindi', 'a super admin deletes an account');
select tests.reset_role();
select is((select array_agg(organization_id::text order by organization_id::text) from private.audit_log
            where action = 'user.deleted' and target_id = :'dormant'),
  (select array_agg(x order by x) from unnest(array[:'north', :'south']) x),
  'the deletion is in the log of every organization the account belonged to');

-- ---------------------------------------------------------------------------------
-- 4. The audit log is append-only
-- ---------------------------------------------------------------------------------
select throws_ok($$update private.audit_log set action = 'forged' where true$$, '42501', 'the audit log is append-only',
  'the audit log refuses updates (even from its owner)');
select throws_ok($$delete from private.audit_log where true$$, '42501', 'the audit log is append-only',
  'the audit log refuses deletes');
select throws_ok($$truncate private.audit_log$$, '42501', 'the audit log is append-only',
  'the audit log refuses truncate');

-- ---------------------------------------------------------------------------------
-- 2. A locked account's session can do nothing
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'shared', :'s_shared');
select is(public.issue_request_token() ->> 'success', 'true', 'before the lock, the shared member works');
select public.issue_request_token() ->> 'token' as shared_token \gset
select tests.reset_role();
update private.profiles set locked_until = now() + interval '30 minutes', failed_login_attempts = 5 where id = :'shared';
select tests.authenticate_as(:'shared', :'s_shared');
select is(public.get_my_permissions() ->> 'code', 'organization_context_required',
  'a temporarily locked account''s session: a tenant RPC refuses');
select is(public.verify_request_token(:'shared_token'), false, 'its request token no longer passes (Edge Functions refuse)');
select is(public.issue_request_token() ->> 'code', 'authentication_required', 'no new request token');
select tests.reset_role();
select tests.authenticate_as(:'shared', :'s_shared2');
select is(public.bind_session_organization(null) ->> 'code', 'account_locked', 'a new session cannot bind');
select tests.reset_role();

-- A super admin under a temporary lock cannot switch organizations either.
update private.profiles set locked_until = now() + interval '30 minutes' where id = :'super';
select tests.authenticate_as(:'super', :'s_root');
select is(public.super_admin_switch_organization(:'north') ->> 'code', 'account_locked',
  'super_admin_switch_organization checks the temporary lock as binding does');
select tests.reset_role();
update private.profiles set locked_until = null where id = :'super';
update private.profiles set locked_until = null, failed_login_attempts = 0 where id = :'shared';

-- ---------------------------------------------------------------------------------
-- 2. Direct Auth sign-ins count (the hook; the local stack's front)
-- ---------------------------------------------------------------------------------
select tests.create_user('direct@north.test') as direct \gset
select tests.add_member(:'direct', :'north', 'user');
select gen_random_uuid() as s_direct \gset
select tests.authenticate_as(:'direct', :'s_direct');
select tests.reset_role();
select is(array_agg(private.auth_password_attempt('DIRECT@north.test', false, '198.51.100.7') ->> 'decision'),
  array['continue', 'continue', 'continue', 'continue', 'reject'],
  'five wrong passwords straight to Auth: the fifth is rejected with the lock')
  from generate_series(1, 5);
select is(private.auth_password_attempt('direct@north.test', true, '198.51.100.7') ->> 'message',
  'Account is locked for 30 minutes', 'then even the right password is rejected with the lock message');
select is((select count(*)::int from auth.sessions where user_id = :'direct'), 0,
  'a rejection ends the account''s sessions (should_logout_user)');
select is((select count(*)::int from private.login_attempts
            where user_id = :'direct' and source = 'auth' and client_address = '198.51.100.7'), 6,
  'each attempt is logged with source auth and the client address');
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('direct@north.test', 'Test.1234') ->> 'code', 'account_locked',
  'the login RPC gives the same lock');
select tests.reset_role();
select is(private.auth_password_attempt('nobody@north.test', false, '198.51.100.7') ->> 'decision', 'continue',
  'an unknown email is left to Auth''s own answer');
select is((select count(*)::int from private.login_attempts where email = 'nobody@north.test' and client_address = '198.51.100.7'),
  1, 'and logged against the address');

-- The hosted hook decides the same way.
update private.profiles set locked_until = null, failed_login_attempts = 4 where id = :'direct';
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'direct', 'valid', false)) ->> 'decision',
  'reject', 'the hook locks on the fifth failure');
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'direct', 'valid', true)) ->> 'message',
  'Account is locked for 30 minutes', 'and rejects the right password while locked');
select is(private.hook_password_verification_attempt('{"user_id": "not-a-uuid", "valid": true}') ->> 'decision', 'continue',
  'a malformed event is left to Auth');

-- ---------------------------------------------------------------------------------
-- 2. The per-client throttle and the global ceiling (issue 23: they hold back unknown
--    emails only, answered like a wrong password; a known account meets only its own lock)
-- ---------------------------------------------------------------------------------
update private.security_settings set client_failure_limit = 3, client_window = '15 minutes';
select tests.create_user('throttled@north.test') as throttled \gset
select tests.add_member(:'throttled', :'north', 'user');
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "10.0.0.1, 203.0.113.9"}', true);
select is(array_agg(public.secure_login_prepare_auth(format('guess%s@north.test', g), 'Wrong.123') ->> 'code'),
  array['invalid_credentials', 'invalid_credentials', 'invalid_credentials'], 'three failures from one address')
  from generate_series(1, 3) g;
select public.secure_login_prepare_auth('guess9@north.test', 'Wrong.123') as throttled_answer \gset
select is(:'throttled_answer'::jsonb, '{"success": false, "error": "Invalid login credentials", "code": "invalid_credentials"}'::jsonb,
  'the fourth unknown email from the address: the wrong-password answer');
select tests.reset_role();
select is((select failure_reason from private.login_attempts where email = 'guess9@north.test'), 'throttled',
  'logged as throttled: no password was checked');
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('throttled@north.test', 'Wrong.123') ->> 'code', 'invalid_credentials',
  'a known account''s wrong password from the address is still checked');
select is(public.secure_login_prepare_auth('throttled@north.test', 'Test.1234') ->> 'success', 'true',
  'and its right password signs in: the address''s failures do not hold a real account back');
select is(public.sync_user_password('throttled@north.test', 'Test.1234') ->> 'success', 'true',
  'the repair RPCs act for the proven sign-in too');
select is(public.create_auth_user_admin('guess9@north.test', 'Test.1234') ->> 'code', 'auth_user_creation_failed',
  'an unknown email gets the repair''s usual failure');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.10"}', true);
select is(public.secure_login_prepare_auth('guess10@north.test', 'Wrong.123') ->> 'code', 'invalid_credentials',
  'another address is not held back');
select tests.reset_role();
select is((select failure_reason from private.login_attempts where email = 'guess10@north.test'), 'invalid_credentials',
  'and its failure was checked');
select set_config('request.headers', '{"x-forwarded-for": "10.0.0.1, 203.0.113.9"}', true);
select is(private.client_address(), '203.0.113.9'::inet,
  'the client address is the last X-Forwarded-For entry (the nearest proxy''s), never the client-written first');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.10", "cf-connecting-ip": "203.0.113.9"}', true);
select is(private.client_address(), '203.0.113.9'::inet, 'Cloudflare''s cf-connecting-ip wins over X-Forwarded-For');
select set_config('request.headers', '{"x-forwarded-for": "not an address"}', true);
select is(private.client_address(), null, 'a malformed address is unknown, not an error');
select set_config('request.headers', '', true);
select is((select failed_login_attempts from private.profiles where id = :'throttled'), 0,
  'the right password ended the account''s own failure count');
select is((select count(*)::int from private.login_attempts
            where email like 'guess%@north.test' and failure_reason = 'throttled' and client_address = '203.0.113.9'), 1,
  'throttled sign-ins are logged with the address');

-- The global ceiling holds back unknown emails from every address, never a real account.
update private.security_settings
   set client_failure_limit = 1000,
       global_failure_limit = (select count(*) + 1 from private.login_attempts
                                where not success and failure_reason <> 'throttled' and created_at > now() - interval '1 minute');
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "192.0.2.1"}', true);
select is(public.secure_login_prepare_auth('guess@north.test', 'Wrong.123') ->> 'code', 'invalid_credentials',
  'under the global ceiling a failure is checked');
select set_config('request.headers', '{"x-forwarded-for": "192.0.2.2"}', true);
select is(public.secure_login_prepare_auth('guess20@north.test', 'Wrong.123') ->> 'code', 'invalid_credentials',
  'at the global ceiling an unknown email from a fresh address gets the wrong-password answer');
select is(public.secure_login_prepare_auth('throttled@north.test', 'Test.1234') ->> 'success', 'true',
  'but a real account''s right password signs in');
select set_config('request.headers', '', true);
select is(public.secure_login_prepare_auth('throttled@north.test', 'Test.1234') ->> 'success', 'true',
  'also from a request without an address');
select tests.reset_role();
select is((select failure_reason from private.login_attempts where email = 'guess20@north.test'), 'throttled',
  'the unknown email at the ceiling was not checked');
update private.security_settings set client_failure_limit = 20, global_failure_limit = 1000;

-- ---------------------------------------------------------------------------------
-- 3. Passwords: a change needs the current one; length and common-password rules
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.change_my_password(text, text)', 'execute'),
  'anon may not call change_my_password');
select tests.create_user('changer@north.test') as changer \gset
select tests.add_member(:'changer', :'north', 'user');
select tests.add_member(:'changer', :'south', 'user');
select gen_random_uuid() as s_changer, gen_random_uuid() as s_changer_other \gset
select tests.authenticate_as(:'changer', :'s_changer_other');
select tests.reset_role();
select tests.authenticate_as(:'changer', :'s_changer');
select is(public.change_my_password('Wrong.1', 'Yeni.Sifre.42'),
  '{"success": false, "error": "Mevcut şifre hatalı", "code": "invalid_credentials"}'::jsonb,
  'a wrong current password is refused');
select is(public.change_my_password('Test.1234', '12345') ->> 'code', 'password_too_short', 'a short new password is refused');
select is(public.change_my_password('Test.1234', repeat('ş', 37)) ->> 'error', 'Şifre en fazla 72 bayt olabilir',
  '74 bytes (37 × ş) are refused');
select is(public.change_my_password('Test.1234', 'Password1') ->> 'error', 'Bu şifre çok yaygın; daha güçlü bir şifre seçin',
  'a common password is refused, whatever its letter case');
select is(public.change_my_password('Test.1234', 'Galatasaray') ->> 'code', 'password_common',
  'so is a common Turkish one');
select is(public.change_my_password('Test.1234', 'Test.1234') ->> 'code', 'password_same', 'the same password is refused');
select is(public.change_my_password('Test.1234', 'Yeni.Sifre.42'), '{"success": true, "message": "Şifre değiştirildi"}'::jsonb,
  'the right current password and a good new one: changed');
select tests.reset_role();
select is((select extensions.crypt('Yeni.Sifre.42', encrypted_password) = encrypted_password from auth.users where id = :'changer'),
  true, 'the new password verifies');
select is((select array_agg(id::text) from auth.sessions where user_id = :'changer'), array[:'s_changer'],
  'the other sessions ended; the current one stays');
select is((select failed_login_attempts from private.profiles where id = :'changer'), 0,
  'the failure count is cleared by the change');
select is((select count(*)::int from private.login_attempts where user_id = :'changer' and source = 'password_change'), 1,
  'the wrong current password was logged as a failed attempt');
select is((select count(*)::int from private.audit_log where action = 'user.password_changed' and target_id = :'changer'), 2,
  'the change is audited in each of the user''s organizations');

-- Wrong current passwords count toward the lock.
select tests.authenticate_as(:'changer', :'s_changer');
select is(array_agg(public.change_my_password('Wrong.' || g, 'Baska.Sifre.9') ->> 'code'),
  array['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'account_locked'],
  'five wrong current passwords lock the account')
  from generate_series(1, 5) g;
select is(public.change_my_password('Yeni.Sifre.42', 'Baska.Sifre.9') ->> 'code', 'account_locked',
  'then even the right one is refused');
select tests.reset_role();

-- Create and reset: over 72 bytes and common passwords are refused.
select tests.authenticate_as(:'n_admin', :'s_n');
select is(public.create_user_secure('long@north.test', repeat('a', 73), :'north') ->> 'code', 'password_too_long',
  'create: over 72 bytes is refused');
select is(public.create_user_secure('common@north.test', 'QWERTY123', :'north') ->> 'code', 'password_common',
  'create: a common password is refused');
select is(public.simple_reset_password(:'solo', repeat('b', 73)) ->> 'code', 'password_too_long', 'reset: over 72 bytes is refused');
select is(public.simple_reset_password(:'solo', 'iloveyou') ->> 'code', 'password_common', 'reset: a common password is refused');
select tests.reset_role();
select ok(not exists (select 1 from private.profiles where email in ('long@north.test', 'common@north.test')),
  'refused creations created nothing');

-- ---------------------------------------------------------------------------------
-- 2. Retention
-- ---------------------------------------------------------------------------------
insert into private.login_attempts (email, success, failure_reason, created_at)
values ('old@north.test', false, 'invalid_credentials', now() - interval '181 days'),
       ('recent@north.test', false, 'invalid_credentials', now() - interval '179 days');
insert into private.login_throttles (email, failed_attempts, locked_until) values
  ('stale@north.test', 2, null), ('locked@north.test', 5, now() + interval '10 minutes');
update private.login_throttles set updated_at = now() - interval '2 days' where email in ('stale@north.test', 'locked@north.test');
update private.security_settings set request_tokens_per_user = 2;
delete from private.request_tokens where user_id = :'n_admin';
insert into private.request_tokens (token_hash, session_id, user_id, expires_at)
select extensions.digest('token-' || g, 'sha256'), :'s_n', :'n_admin', now() + g * interval '1 minute'
  from generate_series(1, 4) g;
insert into private.request_tokens (token_hash, session_id, user_id, expires_at)
values (extensions.digest('expired', 'sha256'), :'s_s', :'s_admin', now() - interval '1 minute');
select private.run_maintenance() as pruned \gset
select is((:'pruned'::jsonb) ->> 'login_attempts', '1', 'maintenance drops sign-in log entries past their retention');
select ok(exists (select 1 from private.login_attempts where email = 'recent@north.test')
          and not exists (select 1 from private.login_attempts where email = 'old@north.test'),
  'and keeps those within it');
select is((select array_agg(email) from private.login_throttles where email in ('stale@north.test', 'locked@north.test')),
  array['locked@north.test'], 'stale shadow counters go; a running lock stays');
select is((select count(*)::int from private.request_tokens where user_id = :'n_admin'), 2,
  'each user keeps only the newest request tokens');
select ok(exists (select 1 from private.request_tokens where token_hash = extensions.digest('token-4', 'sha256'))
          and not exists (select 1 from private.request_tokens where token_hash = extensions.digest('token-1', 'sha256')),
  'the newest survive');
select ok(not exists (select 1 from private.request_tokens where user_id = :'s_admin' and expires_at < now()),
  'expired tokens are dropped');
select tests.authenticate_as(:'n_admin', :'s_n');
select is(public.issue_request_token() ->> 'success', 'true', 'issuing a token');
select tests.reset_role();
select is((select count(*)::int from private.request_tokens where user_id = :'n_admin'), 2,
  'keeps the per-user cap at once');
select ok(not exists (select 1 from private.login_proofs where used_at is not null or expires_at < now()),
  'used and expired login proofs are gone');

-- ---------------------------------------------------------------------------------
-- 5. The API roles run under a statement timeout
-- ---------------------------------------------------------------------------------
select ok(exists (select 1 from pg_catalog.pg_db_role_setting s where s.setrole = 'authenticated'::regrole
                   and 'statement_timeout=8s' = any(s.setconfig)),
  'authenticated has a statement timeout of 8 s');

select * from finish();
rollback;
