-- Sign-in (spec sections 4, 7, 8, 9): secure_login_prepare_auth and its lockout, the
-- login log and proofs, the Auth password-verification hook, the Auth-user repairs
-- (create_auth_user_admin, sync_user_password), get_user_info_by_email,
-- update_user_last_login and test_auth_uid. now() is constant inside the transaction:
-- time passes by moving stored timestamps.
begin;
select plan(166);

-- ---------------------------------------------------------------------------------
-- Fixtures
-- ---------------------------------------------------------------------------------
select tests.create_organization('xco', 'X Co') as x \gset
select tests.create_organization('yco', 'Y Co') as y \gset
select table_prefix_timestamp as x_prefix from private.organizations where id = :'x' \gset
select table_prefix_timestamp as y_prefix from private.organizations where id = :'y' \gset
select tests.create_user('admin@x.test', 'admin', 'Ayla', 'Kaya') as x_admin \gset
select tests.create_user('user@x.test', 'user', 'Umut', 'Er') as x_user \gset
select tests.create_user('admin@y.test', 'admin', 'Yasin', 'Ay') as y_admin \gset
select tests.create_user('user@y.test', 'user', 'Yeliz', 'Su') as y_user \gset
select tests.create_user('super@x.test', 'super_admin', 'Selin', 'Us') as super \gset
select tests.create_user('lock@x.test') as locker \gset
select tests.create_user('count@x.test') as counter \gset
select tests.create_user('expire@x.test') as expirer \gset
select tests.create_user('banned@x.test') as banned \gset
select tests.create_user('inactive@x.test') as inactive \gset
select tests.create_user('loner@x.test') as loner \gset
select tests.create_user('multi@x.test') as multi \gset
select tests.create_user('hook@x.test') as hooked \gset
select tests.create_user('repair@x.test', 'user', 'Rıza', 'Demir') as repair \gset
select tests.add_member(:'x_admin', :'x', 'admin');
select tests.add_member(:'x_user', :'x', 'user');
select tests.add_member(:'y_admin', :'y', 'admin');
select tests.add_member(:'y_user', :'y', 'user');
select tests.add_member(:'super', :'x', 'user');
select tests.add_member(:'locker', :'x', 'user');
select tests.add_member(:'counter', :'x', 'user');
select tests.add_member(:'expirer', :'x', 'user');
select tests.add_member(:'banned', :'x', 'user');
select tests.add_member(:'inactive', :'x', 'user');
select tests.add_member(:'multi', :'x', 'user');
select tests.add_member(:'multi', :'y', 'user');
select tests.add_member(:'hooked', :'x', 'user');
select tests.add_member(:'repair', :'x', 'user');
-- multi joined Y first, so Y is the organization offered first.
update private.memberships set created_at = now() - interval '1 day' where user_id = :'multi' and organization_id = :'y';
update private.profiles set is_active = false where id = :'inactive';
update private.profiles set locked_by_admin = true, locked_until = now() + interval '365 days' where id = :'banned';

-- The answers, exactly.
select '{"success": false, "error": "Invalid login credentials", "code": "invalid_credentials"}' as invalid \gset
select '{"success": false, "error": "Account is locked for 30 minutes", "code": "account_locked", "locked_minutes": 30}' as locked30 \gset
select '{"success": false, "error": "Account is locked by administrator", "code": "admin_locked"}' as admin_locked \gset

-- ---------------------------------------------------------------------------------
-- secure_login_prepare_auth: privileges
-- ---------------------------------------------------------------------------------
select ok(has_function_privilege('anon', 'public.secure_login_prepare_auth(text, text, text)', 'execute'),
  'anon may call secure_login_prepare_auth');
select ok(has_function_privilege('authenticated', 'public.secure_login_prepare_auth(text, text, text)', 'execute'),
  'authenticated may call secure_login_prepare_auth');
select is((select prosecdef and proconfig = array['search_path=""'] from pg_proc
            where oid = 'public.secure_login_prepare_auth(text, text, text)'::regprocedure),
  true, 'secure_login_prepare_auth is security definer with an empty search_path');

-- ---------------------------------------------------------------------------------
-- Success: shape, normalised email, login proof, log row
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select public.secure_login_prepare_auth('  ADMIN@X.TEST ', 'Test.1234') as ok_admin \gset
select is((:'ok_admin'::jsonb) ->> 'success', 'true', 'anon: the right password of an admin succeeds (email trimmed and lowercased)');
select is((:'ok_admin'::jsonb) ->> 'message', 'Authentication prepared', 'success message');
select is((:'ok_admin'::jsonb) -> 'user' ->> 'email', 'admin@x.test', 'user.email is the normalised email');
select is((:'ok_admin'::jsonb) -> 'user' ->> 'id', :'x_admin', 'user.id is the account');
select is((:'ok_admin'::jsonb) -> 'organization',
  jsonb_build_object('id', :'x'::uuid, 'slug', 'xco', 'name', 'X Co', 'role', 'admin',
                     'table_prefix_timestamp', :'x_prefix'::bigint),
  'organization is the member''s organization with its role and table prefix');
select is((select array_agg(e ->> 'slug') from jsonb_array_elements((:'ok_admin'::jsonb) -> 'organizations') e),
  array['xco'], 'organizations lists only the admin''s own organization');
select ok((:'ok_admin'::jsonb)::text not like '%yco%', 'nothing of Y is in the admin''s answer');
select tests.reset_role();

select is((select count(*)::int from private.login_proofs
            where user_id = :'x_admin' and used_at is null and expires_at = now() + interval '1 minute'
              and extensions.crypt('Test.1234', password_hash) = password_hash),
  1, 'a successful prepare writes one unused login proof of that password, valid one minute');
select is((select array_agg(array[email, success::text, coalesce(failure_reason, '-'), source] order by id)
             from private.login_attempts where user_id = :'x_admin'),
  array[array['admin@x.test', 'true', '-', 'login']], 'the success is logged with the normalised email');

-- The first available organization, and choosing one by slug (any case).
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('multi@x.test', 'Test.1234') -> 'organization' ->> 'slug', 'yco',
  'without a slug the first available organization (oldest membership) is chosen');
select is(jsonb_array_length(public.secure_login_prepare_auth('multi@x.test', 'Test.1234') -> 'organizations'), 2,
  'a member of two organizations is offered both');
select is(public.secure_login_prepare_auth('multi@x.test', 'Test.1234', 'XCO') -> 'organization' ->> 'slug', 'xco',
  'a slug picks that organization, case-insensitively');

-- An organization the user is not in: no organization (only after the right password).
select is(public.secure_login_prepare_auth('user@x.test', 'Test.1234', 'yco'),
  jsonb_build_object('success', false, 'error', 'User not found: Unable to determine organization for user@x.test',
                     'code', 'no_organization'),
  'a member of X naming Y gets the no-organization message');
select is(public.secure_login_prepare_auth('user@x.test', 'Test.1234', 'no-such-org') ->> 'code', 'no_organization',
  'an unknown slug gets the no-organization answer too');
select is(public.secure_login_prepare_auth('user@x.test', 'Wrong.1234', 'yco'), :'invalid'::jsonb,
  'a wrong password naming another organization is just invalid credentials');
select tests.reset_role();
select is((select failed_login_attempts from private.profiles where id = :'x_user'), 1,
  'that wrong password counts as a failure');
select tests.act_as_anon();

-- A super admin may name any active organization.
select is(public.secure_login_prepare_auth('super@x.test', 'Test.1234', 'yco') -> 'organization',
  jsonb_build_object('id', :'y'::uuid, 'slug', 'yco', 'name', 'Y Co', 'role', 'admin',
                     'table_prefix_timestamp', :'y_prefix'::bigint),
  'a super admin naming another organization''s slug signs in there as admin');
select is(public.secure_login_prepare_auth('super@x.test', 'Test.1234') -> 'organization' ->> 'slug', 'xco',
  'a super admin without a slug gets their own first organization');
select tests.reset_role();

-- A deactivated organization is not offered.
update private.organizations set is_active = false where id = :'y';
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('user@y.test', 'Test.1234') ->> 'error',
  'User not found: Unable to determine organization for user@y.test',
  'the only organization deactivated: no organization');
select is(public.secure_login_prepare_auth('super@x.test', 'Test.1234', 'yco') ->> 'code', 'no_organization',
  'not even a super admin signs in to a deactivated organization');
select tests.reset_role();
update private.organizations set is_active = true where id = :'y';

-- Invalid input is refused without a log row or a count.
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('user@x.test', ''), :'invalid'::jsonb, 'an empty password is invalid credentials');
select is(public.secure_login_prepare_auth(null, 'Test.1234'), :'invalid'::jsonb, 'a null email is invalid credentials');
select is(public.secure_login_prepare_auth('   ', 'Test.1234'), :'invalid'::jsonb, 'a blank email is invalid credentials');
select tests.reset_role();
select is((select failed_login_attempts from private.profiles where id = :'x_user'), 1,
  'refused input does not count as a failure (still 1)');

-- ---------------------------------------------------------------------------------
-- Lockout: a real account (lock@x.test) and an unknown email side by side
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select public.secure_login_prepare_auth('lock@x.test', 'Wrong.0001') as real1 \gset
select public.secure_login_prepare_auth('ghost@nowhere.test', 'Wrong.0001') as ghost1 \gset
select is(:'real1'::jsonb, :'invalid'::jsonb, '1st wrong password: Invalid login credentials');
select is(:'ghost1'::jsonb, :'real1'::jsonb, '1st try of an unknown email: the identical answer');
select is(public.secure_login_prepare_auth('lock@x.test', 'Wrong.0002'),
          public.secure_login_prepare_auth('GHOST@nowhere.test ', 'Wrong.0002'), '2nd try: identical answers');
select is(public.secure_login_prepare_auth('lock@x.test', 'Wrong.0003'), :'invalid'::jsonb, '3rd wrong password: still not locked');
select is(public.secure_login_prepare_auth('ghost@nowhere.test', 'Wrong.0003'), :'invalid'::jsonb, '3rd unknown try: still not locked');
select public.secure_login_prepare_auth('lock@x.test', 'Wrong.0004') as real4 \gset
select public.secure_login_prepare_auth('ghost@nowhere.test', 'Wrong.0004') as ghost4 \gset
select is(:'real4'::jsonb, :'invalid'::jsonb, '4th wrong password: still not locked');
select is(:'ghost4'::jsonb, :'invalid'::jsonb, '4th unknown try: still not locked');
select tests.reset_role();
select is((select array[failed_login_attempts::text, coalesce(locked_until::text, 'none')] from private.profiles where id = :'locker'),
  array['4', 'none'], 'after 4 failures the profile counts 4 and is not locked');

select tests.act_as_anon();
select public.secure_login_prepare_auth('lock@x.test', 'Wrong.0005') as real5 \gset
select public.secure_login_prepare_auth('ghost@nowhere.test', 'Wrong.0005') as ghost5 \gset
select is(:'real5'::jsonb, :'locked30'::jsonb, 'the 5th failure locks: Account is locked for 30 minutes');
select is(:'ghost5'::jsonb, :'real5'::jsonb, 'an unknown email locks at the 5th try with the identical answer');
select tests.reset_role();
select is((select failed_login_attempts from private.profiles where id = :'locker'), 5, 'the profile counts 5 failures');
select is((select locked_until from private.profiles where id = :'locker'), now() + interval '30 minutes',
  'locked_until is 30 minutes from now');
select is((select locked_by_admin from private.profiles where id = :'locker'), false, 'a failure lock is not an admin lock');
select is((select array[failed_attempts::text, (locked_until = now() + interval '30 minutes')::text]
             from private.login_throttles where email = 'ghost@nowhere.test'),
  array['5', 'true'], 'the unknown email is throttled: 5 tries, locked 30 minutes');
select is((select count(*)::int from private.login_throttles where email = 'lock@x.test'), 0,
  'a real account is counted on its profile, not in login_throttles');

-- While locked: the same answer whatever the password; nothing more is counted.
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('lock@x.test', 'Test.1234'), :'locked30'::jsonb,
  'locked: the right password gets the lock message');
select is(public.secure_login_prepare_auth('lock@x.test', 'Wrong.0006'), :'locked30'::jsonb,
  'locked: a wrong password gets the same lock message');
select is(public.secure_login_prepare_auth('ghost@nowhere.test', 'Wrong.0006'), :'locked30'::jsonb,
  'locked unknown email: the same lock message');
select tests.reset_role();
select is((select array[failed_login_attempts, (select count(*)::int from private.login_proofs where user_id = :'locker')]
             from private.profiles where id = :'locker'),
  array[5, 0], 'tries during the lock are not counted and give no login proof');

-- The minutes left are told, rounded up.
update private.profiles set locked_until = now() + interval '12 minutes' where id = :'locker';
update private.login_throttles set locked_until = now() + interval '12 minutes' where email = 'ghost@nowhere.test';
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('lock@x.test', 'Test.1234'),
  '{"success": false, "error": "Account is locked for 12 minutes", "code": "account_locked", "locked_minutes": 12}'::jsonb,
  '18 minutes later: Account is locked for 12 minutes');
select is(public.secure_login_prepare_auth('ghost@nowhere.test', 'Wrong.0007') ->> 'error', 'Account is locked for 12 minutes',
  'the unknown email tells the same minutes');
select tests.reset_role();
update private.profiles set locked_until = clock_timestamp() + interval '90 seconds' where id = :'locker';
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('lock@x.test', 'Wrong.0008') ->> 'error', 'Account is locked for 2 minutes',
  '90 seconds left: 2 minutes (rounded up; a loaded machine may take seconds between the lines)');
select tests.reset_role();

-- The lock expires: the right password succeeds and resets the count.
update private.profiles set locked_until = now() - interval '1 second' where id = :'locker';
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('lock@x.test', 'Test.1234') ->> 'success', 'true',
  'after the lock expired the right password succeeds');
select tests.reset_role();
select is((select array[failed_login_attempts::text, coalesce(locked_until::text, 'none')] from private.profiles where id = :'locker'),
  array['0', 'none'], 'the success resets the count to 0 and clears the lock');

-- After an expired lock a wrong password counts from 1 again.
update private.profiles set failed_login_attempts = 5, locked_until = now() - interval '1 second' where id = :'expirer';
update private.login_throttles set locked_until = now() - interval '1 second' where email = 'ghost@nowhere.test';
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('expire@x.test', 'Wrong.0001'), :'invalid'::jsonb,
  'after an expired lock a wrong password is invalid credentials, not a new lock');
select is(public.secure_login_prepare_auth('ghost@nowhere.test', 'Wrong.0009'), :'invalid'::jsonb,
  'the unknown email likewise after its lock expired');
select tests.reset_role();
select is((select array[failed_login_attempts::text, coalesce(locked_until::text, 'none')] from private.profiles where id = :'expirer'),
  array['1', 'none'], 'the count starts again at 1');
select is((select array[failed_attempts::text, coalesce(locked_until::text, 'none')] from private.login_throttles where email = 'ghost@nowhere.test'),
  array['1', 'none'], 'the unknown email''s count starts again at 1');

-- A success after 3 failures resets the count.
select tests.act_as_anon();
do $$ begin perform public.secure_login_prepare_auth('count@x.test', 'Wrong.' || g) from generate_series(1, 3) g; end $$;
select tests.reset_role();
select is((select failed_login_attempts from private.profiles where id = :'counter'), 3, '3 failures are counted');
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('count@x.test', 'Test.1234') ->> 'success', 'true', 'then the right password succeeds');
select tests.reset_role();
select is((select failed_login_attempts from private.profiles where id = :'counter'), 0, 'the success resets the count to 0');
select tests.act_as_anon();
do $$ begin perform public.secure_login_prepare_auth('count@x.test', 'Wrong.' || g) from generate_series(1, 4) g; end $$;
select tests.reset_role();
select is((select failed_login_attempts from private.profiles where id = :'counter'), 4,
  'after the reset the failures count from 0 again (4 now, not locked)');
select is((select locked_until from private.profiles where id = :'counter'), null, 'and the account is not locked');

-- ---------------------------------------------------------------------------------
-- Admin lock, inactive account, no organization
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('banned@x.test', 'Test.1234'), :'admin_locked'::jsonb,
  'admin lock: the right password is told Account is locked by administrator');
select is(public.secure_login_prepare_auth('banned@x.test', 'Wrong.0001'), :'invalid'::jsonb,
  'admin lock: a wrong password is told only Invalid login credentials');
select tests.reset_role();
select is((select array[locked_by_admin::text, (locked_until = now() + interval '365 days')::text, failed_login_attempts::text]
             from private.profiles where id = :'banned'),
  array['true', 'true', '0'], 'a wrong password leaves the admin lock and its locked_until unchanged');
select tests.act_as_anon();
do $$ begin perform public.secure_login_prepare_auth('banned@x.test', 'Wrong.' || g) from generate_series(2, 4) g; end $$;
select is(public.secure_login_prepare_auth('banned@x.test', 'Wrong.0005'), :'locked30'::jsonb,
  'admin lock: the 5th wrong password locks like an unknown email would');
select is(public.secure_login_prepare_auth('banned@x.test', 'Test.1234'), :'locked30'::jsonb,
  'admin lock under a failure lock: the right password gets the same lock answer as a wrong one (no password oracle)');
select tests.reset_role();
select is((select array[locked_by_admin::text, (locked_until = now() + interval '365 days')::text]
             from private.profiles where id = :'banned'),
  array['true', 'true'], 'the admin lock is still in place');

select tests.act_as_anon();
select is(public.secure_login_prepare_auth('inactive@x.test', 'Test.1234'),
  '{"success": false, "error": "User not found", "code": "account_disabled"}'::jsonb,
  'an inactive account with the right password: User not found');
select is(public.secure_login_prepare_auth('inactive@x.test', 'Wrong.0001'), :'invalid'::jsonb,
  'an inactive account with a wrong password: Invalid login credentials');
select is(public.secure_login_prepare_auth(' Loner@X.test', 'Test.1234'),
  '{"success": false, "error": "User not found: Unable to determine organization for loner@x.test", "code": "no_organization"}'::jsonb,
  'no organization: the message names the normalised email, after the right password');
select is(public.secure_login_prepare_auth('loner@x.test', 'Wrong.0001'), :'invalid'::jsonb,
  'no organization with a wrong password: only Invalid login credentials');
select tests.reset_role();
select is((select count(*)::int from private.login_proofs where user_id in (:'inactive', :'loner', :'banned')), 0,
  'refused sign-ins leave no login proof');

-- ---------------------------------------------------------------------------------
-- The login log
-- ---------------------------------------------------------------------------------
select is((select array_agg(coalesce(failure_reason, 'ok') order by id) from private.login_attempts where user_id = :'locker'),
  array['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials',
        'account_locked', 'account_locked', 'account_locked', 'account_locked', 'ok'],
  'lock@x.test: 5 invalid_credentials, then account_locked while locked, then the success');
select is((select array[count(*), count(*) filter (where user_id is null and not success)]::int[]
             from private.login_attempts where email = 'ghost@nowhere.test'),
  array[8, 8], 'every try of the unknown email is logged as a failure without a user');
select is((select array_agg(failure_reason order by id) from private.login_attempts where email = 'ghost@nowhere.test' and failure_reason = 'account_locked'),
  array['account_locked', 'account_locked'], 'the unknown email''s tries while locked are logged as account_locked');
select is((select (array_agg(failure_reason order by id))[1] from private.login_attempts where user_id = :'banned' and failure_reason <> 'invalid_credentials'),
  'admin_locked', 'the admin-locked account''s right password is logged as admin_locked');
select is((select count(*)::int from private.login_attempts where user_id = :'banned' and failure_reason = 'invalid_credentials'),
  5, 'its wrong passwords are logged as invalid_credentials, with the user');
select is((select array_agg(failure_reason order by id) from private.login_attempts where user_id = :'inactive'),
  array['account_disabled', 'invalid_credentials'], 'the inactive account: account_disabled, invalid_credentials');
select is((select array_agg(failure_reason order by id) from private.login_attempts where user_id = :'loner'),
  array['no_organization', 'invalid_credentials'], 'no organization: no_organization, invalid_credentials');
select is((select count(*)::int from private.login_attempts where source <> 'login'), 0, 'the login RPC logs with source login');

-- ---------------------------------------------------------------------------------
-- The Auth password-verification hook
-- ---------------------------------------------------------------------------------
select ok(has_function_privilege('supabase_auth_admin', 'private.hook_password_verification_attempt(jsonb)', 'execute'),
  'supabase_auth_admin may execute the hook');
select ok(has_schema_privilege('supabase_auth_admin', 'private', 'usage'), 'supabase_auth_admin may use schema private');
select ok(not has_function_privilege('anon', 'private.hook_password_verification_attempt(jsonb)', 'execute'),
  'anon may not execute the hook');
select ok(not has_function_privilege('authenticated', 'private.hook_password_verification_attempt(jsonb)', 'execute'),
  'authenticated may not execute the hook');
select tests.authenticate_as(:'x_admin');
select throws_ok(format('select private.hook_password_verification_attempt(%L)', jsonb_build_object('user_id', :'hooked', 'valid', true)),
  '42501', null, 'an admin cannot call the hook');
select tests.reset_role();

-- Supabase Auth calls it as supabase_auth_admin.
update private.profiles set failed_login_attempts = 3 where id = :'hooked';
select set_config('role', 'supabase_auth_admin', true) as auth_role \gset
select private.hook_password_verification_attempt(jsonb_build_object('user_id', :'hooked', 'valid', true)) as hook_ok \gset
reset role;
select is(:'hook_ok'::jsonb, '{"decision": "continue"}'::jsonb, 'as supabase_auth_admin: a valid password continues');
select is((select failed_login_attempts from private.profiles where id = :'hooked'), 0, 'a valid password resets the count');

select is((select array_agg(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'hooked', 'valid', false)) ->> 'decision' order by g)
             from generate_series(1, 4) g),
  array['continue', 'continue', 'continue', 'continue'], '4 invalid passwords continue (Auth refuses them itself)');
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'hooked', 'valid', false)),
  '{"decision": "reject", "message": "Account is locked for 30 minutes", "should_logout_user": true}'::jsonb,
  'the 5th invalid password is rejected with the lock message');
select is((select array[failed_login_attempts::text, (locked_until = now() + interval '30 minutes')::text] from private.profiles where id = :'hooked'),
  array['5', 'true'], 'the hook locked the account for 30 minutes');
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'hooked', 'valid', true)) ->> 'message',
  'Account is locked for 30 minutes', 'locked: even a valid password is rejected');
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'hooked', 'valid', true)) ->> 'decision',
  'reject', 'locked: the decision is reject');
select is((select array_agg(coalesce(failure_reason, 'ok') order by id) from private.login_attempts where user_id = :'hooked' and source = 'auth_hook'),
  array['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials',
        'account_locked', 'account_locked'],
  'the hook logs its attempts with source auth_hook');

-- The prepare step sees the hook's lock.
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('hook@x.test', 'Test.1234'), :'locked30'::jsonb,
  'a lock set by the hook also holds for secure_login_prepare_auth');
select tests.reset_role();

update private.profiles set locked_until = now() - interval '1 second' where id = :'hooked';
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'hooked', 'valid', true)),
  '{"decision": "continue"}'::jsonb, 'the lock expired: a valid password continues');
select is((select array[failed_login_attempts::text, coalesce(locked_until::text, 'none')] from private.profiles where id = :'hooked'),
  array['0', 'none'], 'and the count and lock are cleared');

select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'banned', 'valid', true)),
  '{"decision": "reject", "message": "Account is locked by administrator", "should_logout_user": true}'::jsonb,
  'admin lock: rejected with Account is locked by administrator');
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'banned', 'valid', false)),
  '{"decision": "continue"}'::jsonb,
  'admin lock with a wrong password: left to Auth''s invalid credentials, so the lock cannot be probed');
update private.profiles set is_active = false where id = :'hooked';
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', :'hooked', 'valid', true)),
  '{"decision": "reject", "message": "User not found", "should_logout_user": true}'::jsonb,
  'a disabled account is refused even with the right password');
update private.profiles set is_active = true where id = :'hooked';
select is(private.hook_password_verification_attempt(jsonb_build_object('user_id', gen_random_uuid(), 'valid', false)),
  '{"decision": "continue"}'::jsonb, 'an unknown user id continues (Auth decides)');

-- ---------------------------------------------------------------------------------
-- create_auth_user_admin and sync_user_password
-- ---------------------------------------------------------------------------------
select '{"success": false, "error": "Auth user creation failed", "code": "auth_user_creation_failed"}' as create_failed \gset
select '{"success": false, "error": "Password sync failed", "code": "password_sync_failed"}' as sync_failed \gset

-- anon without a login proof
select tests.act_as_anon();
select is(public.create_auth_user_admin('repair@x.test', 'Test.1234'), :'create_failed'::jsonb,
  'anon without a login proof: Auth user creation failed');
select is(public.sync_user_password('repair@x.test', 'Test.1234'), :'sync_failed'::jsonb,
  'anon without a login proof: Password sync failed');
select is(public.create_auth_user_admin('nobody@x.test', 'Test.1234'), :'create_failed'::jsonb,
  'an unknown email: the same failure');
select is(public.sync_user_password('nobody@x.test', 'Test.1234'), :'sync_failed'::jsonb,
  'an unknown email: the same sync failure');

-- anon right after a successful prepare with the same password: once.
select is(public.secure_login_prepare_auth('repair@x.test', 'Test.1234') ->> 'success', 'true', 'the login flow proves the password');
select is(public.create_auth_user_admin('repair@x.test', 'Other.5678'), :'create_failed'::jsonb,
  'a different password than the proven one is refused');
-- A wrong password burns the proof (issue 23: a repair call costs at most one bcrypt per proof).
select is(public.create_auth_user_admin('repair@x.test', 'Test.1234'), :'create_failed'::jsonb,
  'after a wrong repair call the proof is burnt: even the proven password is refused');
select is(public.secure_login_prepare_auth('repair@x.test', 'Test.1234') ->> 'success', 'true', 'a new login flow proves the password again');
select public.create_auth_user_admin(' REPAIR@x.test', 'Test.1234', ' Rıza ', 'Demir') as repaired \gset
select is((:'repaired'::jsonb) - 'user', '{"success": true, "message": "Auth user ready"}'::jsonb,
  'the proven password repairs the Auth user');
select is((:'repaired'::jsonb) -> 'user' ->> 'id', :'repair', 'the answer names the account');
select is(public.create_auth_user_admin('repair@x.test', 'Test.1234'), :'create_failed'::jsonb,
  'the proof is single use: a second repair is refused');
select is(public.sync_user_password('repair@x.test', 'Test.1234'), :'sync_failed'::jsonb,
  'a used proof does not allow a sync either');
select tests.reset_role();
select is((select extensions.crypt('Test.1234', encrypted_password) = encrypted_password and encrypted_password like '$2a$%'
             from auth.users where id = :'repair'),
  true, 'the repaired hash is $2a$ and verifies the password');
select is((select raw_user_meta_data ->> 'first_name' from auth.users where id = :'repair'), 'Rıza', 'names are written to the Auth metadata');

update auth.users set confirmation_token = null, recovery_token = null where id = :'repair';
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('repair@x.test', 'Test.1234') ->> 'success', 'true', 'a second login flow proves the password');
select is(public.sync_user_password('repair@x.test', 'Other.5678'), :'sync_failed'::jsonb, 'sync: a different password is refused');
select is(public.secure_login_prepare_auth('repair@x.test', 'Test.1234') ->> 'success', 'true',
  'the wrong sync burnt the proof: a new login flow proves the password');
select is(public.sync_user_password('repair@x.test', 'Test.1234'), '{"success": true, "message": "Password synchronised"}'::jsonb,
  'sync: the proven password is written');
select is(public.sync_user_password('repair@x.test', 'Test.1234'), :'sync_failed'::jsonb, 'sync: the proof is single use');
select tests.reset_role();
select is((select array[confirmation_token, recovery_token]::text[] from auth.users where id = :'repair'), array['', ''],
  'sync turns NULL token columns into empty strings');

-- A proof is only valid one minute.
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('repair@x.test', 'Test.1234') ->> 'success', 'true', 'a third login flow proves the password');
select tests.reset_role();
update private.login_proofs set expires_at = now() - interval '1 second' where user_id = :'repair' and used_at is null;
select tests.act_as_anon();
select is(public.sync_user_password('repair@x.test', 'Test.1234'), :'sync_failed'::jsonb, 'an expired proof is refused');
select tests.reset_role();

-- Nobody signed in as someone else repairs an account: not its organization's admin, not
-- another organization's admin, not a plain member, not a super admin (issue 10). Only
-- the sign-in in progress of that very account, with the password it has just proven.
select extensions.crypt('Test.1234', encrypted_password) = encrypted_password as hash_before from auth.users where id = :'repair' \gset
select gen_random_uuid() as s_x_admin \gset
select tests.authenticate_as(:'x_admin', :'s_x_admin');
select is(public.bind_session_organization(:'x') ->> 'success', 'true', 'the admin of X binds the session to X');
select is(public.create_auth_user_admin('repair@x.test', 'Admin.Set.1'), :'create_failed'::jsonb,
  'the admin of the user''s own organization may not set the Auth password (create)');
select is(public.sync_user_password('repair@x.test', 'Admin.Set.2'), :'sync_failed'::jsonb,
  'nor sync it');
select tests.reset_role();

-- A proof of the account's own sign-in does not let another signed-in account use it.
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('repair@x.test', 'Test.1234') ->> 'success', 'true', 'the account''s own login flow proves the password');
select tests.reset_role();
select tests.authenticate_as(:'x_admin', :'s_x_admin');
select is(public.sync_user_password('repair@x.test', 'Test.1234'), :'sync_failed'::jsonb,
  'an admin holding the proven password still may not sync another account');
select tests.reset_role();
select tests.authenticate_as(:'repair');
select is(public.sync_user_password('repair@x.test', 'Test.1234'), '{"success": true, "message": "Password synchronised"}'::jsonb,
  'the account itself, signed in, may use its own unused proof');
select tests.reset_role();

select tests.authenticate_as(:'x_admin');
select is(public.sync_user_password('repair@x.test', 'Unbound.1'), :'sync_failed'::jsonb,
  'an admin with an unbound session is refused');
select tests.reset_role();

select gen_random_uuid() as s_y_admin \gset
select tests.authenticate_as(:'y_admin', :'s_y_admin');
select is(public.bind_session_organization(:'y') ->> 'success', 'true', 'the admin of Y binds the session to Y');
select is(public.create_auth_user_admin('repair@x.test', 'Other.Org.1'), :'create_failed'::jsonb,
  'the admin of another organization is refused (create)');
select is(public.sync_user_password('repair@x.test', 'Other.Org.1'), :'sync_failed'::jsonb,
  'the admin of another organization is refused (sync)');
select tests.reset_role();
select gen_random_uuid() as s_x_user \gset
select tests.authenticate_as(:'x_user', :'s_x_user');
select is(public.bind_session_organization(:'x') ->> 'success', 'true', 'the plain user binds the session to X');
select is(public.create_auth_user_admin('repair@x.test', 'Plain.User.1'), :'create_failed'::jsonb,
  'a plain member of the same organization is refused (create)');
select is(public.sync_user_password('repair@x.test', 'Plain.User.1'), :'sync_failed'::jsonb,
  'a plain member of the same organization is refused (sync)');
select tests.reset_role();
select tests.authenticate_as(:'super');
select is(public.sync_user_password('user@y.test', 'Super.Set.1'), :'sync_failed'::jsonb,
  'a super admin may not sync another user''s password either (an audited reset is the way)');
select is(public.create_auth_user_admin('repair@x.test', 'Super.Set.1'), :'create_failed'::jsonb,
  'nor create it');
select tests.reset_role();
select is((select extensions.crypt('Test.1234', encrypted_password) = encrypted_password from auth.users where id = :'repair'),
  true, 'refused callers changed nothing: the account still has its own password');
select is((select extensions.crypt('Test.1234', encrypted_password) = encrypted_password from auth.users where id = :'y_user'),
  true, 'nor the other organization''s user');
select is((select count(*)::int from private.audit_log where action = 'user.password_synced' and target_id = :'repair'), 3,
  'each repair of the account''s own sign-in is audited (one create, two syncs)');

-- More than 72 bytes is refused on the repair path too, even with a proof (bcrypt would
-- read only the first 72).
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('repair@x.test', 'Test.1234' || repeat('x', 70)) ->> 'code', 'password_too_long',
  'the login RPC refuses a password over 72 bytes');
select is(public.sync_user_password('repair@x.test', 'Test.1234' || repeat('x', 70)), :'sync_failed'::jsonb,
  'and so does a repair');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- get_user_info_by_email
-- ---------------------------------------------------------------------------------
select '{"success": false, "error": "User not found", "code": "user_not_found"}' as not_found \gset

select tests.act_as_anon();
select is(public.get_user_info_by_email('user@x.test'), :'not_found'::jsonb, 'anon: an existing email is User not found');
select is(public.get_user_info_by_email('nobody@x.test'), :'not_found'::jsonb, 'anon: an unknown email is the same');
select tests.reset_role();

select tests.authenticate_as(:'x_user', :'s_x_user');
select is(public.get_user_info_by_email(' USER@x.test') -> 'user' ->> 'id', :'x_user', 'a user gets their own details');
select is(public.get_user_info_by_email('user@x.test') -> 'user' ->> 'email', 'user@x.test', 'with their email');
select is(public.get_user_info_by_email('admin@x.test'), :'not_found'::jsonb,
  'a plain user asking about a colleague: User not found');
select is(public.get_user_info_by_email('nobody@x.test'), :'not_found'::jsonb,
  'a plain user asking about an unknown email: the same answer');
select tests.reset_role();

select tests.authenticate_as(:'x_admin', :'s_x_admin');
select is(public.get_user_info_by_email('user@x.test') -> 'user' ->> 'id', :'x_user', 'the admin of the bound organization sees a member');
select is(public.get_user_info_by_email('user@y.test'), :'not_found'::jsonb, 'the admin does not see another organization''s user');
select is(public.get_user_info_by_email('nobody@x.test'), :'not_found'::jsonb, 'the admin asking about an unknown email');
select tests.reset_role();

select tests.authenticate_as(:'x_admin');
select is(public.get_user_info_by_email('user@x.test'), :'not_found'::jsonb, 'an admin with an unbound session sees nobody else');
select tests.reset_role();

select tests.authenticate_as(:'y_admin', :'s_y_admin');
select is(public.get_user_info_by_email('user@x.test'), :'not_found'::jsonb, 'the admin of another organization: User not found');
select tests.reset_role();

select tests.authenticate_as(:'y_user');
select is(public.get_user_info_by_email('user@x.test'), :'not_found'::jsonb, 'a member of another organization: User not found');
select tests.reset_role();

select tests.authenticate_as(:'super');
select is(public.get_user_info_by_email('user@y.test') -> 'user' ->> 'id', :'y_user', 'a super admin sees any user');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- update_user_last_login and test_auth_uid
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.update_user_last_login(uuid)', 'execute'), 'anon may not call update_user_last_login');
select tests.act_as_anon();
select throws_ok(format('select public.update_user_last_login(%L)', :'x_user'), '42501', null, 'anon is refused update_user_last_login');
select tests.reset_role();

select tests.authenticate_as(:'x_user');
select is(public.update_user_last_login(:'x_user') ->> 'success', 'true', 'a user records their own sign-in');
select is(public.update_user_last_login(:'x_admin'), :'not_found'::jsonb, 'another user''s id: User not found');
select is(public.update_user_last_login(null), :'not_found'::jsonb, 'a null id: User not found');
select tests.reset_role();
select is((select last_login_at from private.profiles where id = :'x_user'), now(), 'the own last_login_at is set');
select is((select last_login_at from private.profiles where id = :'x_admin'), null, 'the other user''s last_login_at is untouched');

select tests.act_as_anon();
select is(public.test_auth_uid() -> 'user_id', 'null'::jsonb, 'test_auth_uid: anon has no user id');
select is(public.test_auth_uid() ->> 'success', 'true', 'test_auth_uid answers anon');
select tests.reset_role();
select tests.authenticate_as(:'y_user');
select is(public.test_auth_uid() ->> 'user_id', :'y_user', 'test_auth_uid: a user sees their own id');
select tests.reset_role();

-- GoTrue writes $2b$ hashes on a password change; they verify like $2a$ ones. (Written here as
-- the product's own password code would, with the password guard's marker, issue 23.)
select set_config('crm.password_write_for', :'x_user', true);
update auth.users set encrypted_password = '$2b$' || substr(extensions.crypt('Neu.5678', extensions.gen_salt('bf', 4)), 5)
 where id = :'x_user';
select tests.act_as_anon();
select is(public.secure_login_prepare_auth('user@x.test', 'Neu.5678') ->> 'success', 'true',
  'a $2b$ hash written by Auth verifies');
select is(public.secure_login_prepare_auth('user@x.test', 'Wrong.5678') ->> 'code', 'invalid_credentials',
  'and a wrong password still fails against it');
select tests.reset_role();

select * from finish();
rollback;
