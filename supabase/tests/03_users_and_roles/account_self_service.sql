-- Account self-service (spec sections 3, 7 and 9; migration 700): accept_terms,
-- update_my_profile, and the request-forgery token (issue_request_token /
-- verify_request_token), allowed and denied for anon, the user, another session of the
-- same user, and another user; expiry by moving expires_at.
begin;
select plan(73);

-- ---------------------------------------------------------------------------------
-- Fixtures
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_user('ayla@alpha.test', 'user', 'Ayla', 'Kaya') as ayla \gset
select tests.create_user('berk@alpha.test', 'user', 'Berk', 'Bey') as berk \gset
select tests.create_user('kilit@alpha.test', 'user', 'Kilit', 'Li') as locked \gset
select tests.create_user('pasif@alpha.test', 'user', 'Pasif', 'Kul') as disabled \gset
select tests.add_member(:'ayla', :'alpha');
select tests.add_member(:'berk', :'alpha');
select tests.add_member(:'locked', :'alpha');
select tests.add_member(:'disabled', :'alpha');
update private.profiles set locked_by_admin = true, locked_until = now() + interval '365 days' where id = :'locked';
update private.profiles set is_active = false where id = :'disabled';

select gen_random_uuid() as s_ayla \gset
select gen_random_uuid() as s_ayla2 \gset
select gen_random_uuid() as s_berk \gset
select gen_random_uuid() as s_locked \gset

select '{"success": false, "error": "Authentication required", "code": "authentication_required"}' as auth_required \gset

-- ---------------------------------------------------------------------------------
-- Privileges: signed-in users only
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.accept_terms()', 'execute'), 'anon may not call accept_terms');
select ok(not has_function_privilege('anon', 'public.update_my_profile(text, text, text)', 'execute'), 'anon may not call update_my_profile');
select ok(not has_function_privilege('anon', 'public.issue_request_token()', 'execute'), 'anon may not call issue_request_token');
select ok(not has_function_privilege('anon', 'public.verify_request_token(text)', 'execute'), 'anon may not call verify_request_token');
select ok(has_function_privilege('authenticated', 'public.accept_terms()', 'execute'), 'authenticated may call accept_terms');
select ok(has_function_privilege('authenticated', 'public.update_my_profile(text, text, text)', 'execute'), 'authenticated may call update_my_profile');
select ok(has_function_privilege('authenticated', 'public.issue_request_token()', 'execute'), 'authenticated may call issue_request_token');
select ok(has_function_privilege('authenticated', 'public.verify_request_token(text)', 'execute'), 'authenticated may call verify_request_token');
select ok(not has_table_privilege('authenticated', 'private.request_tokens', 'select'), 'authenticated cannot read stored request tokens');
select tests.act_as_anon();
select throws_ok('select public.accept_terms()', '42501', null, 'anon is refused accept_terms');
select throws_ok($$select public.update_my_profile('X', 'Y')$$, '42501', null, 'anon is refused update_my_profile');
select throws_ok('select public.issue_request_token()', '42501', null, 'anon is refused issue_request_token');
select throws_ok($$select public.verify_request_token('anything')$$, '42501', null, 'anon is refused verify_request_token');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- accept_terms
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'ayla', :'s_ayla');
select is(public.accept_terms() ->> 'success', 'true', 'a user accepts the terms');
select isnt(public.accept_terms() -> 'user' ->> 'terms_accepted_at', null, 'the answer carries the acceptance time');
select tests.reset_role();
select is((select terms_accepted_at from private.profiles where id = :'ayla'), now(), 'the acceptance is recorded on the user''s profile');
select is((select terms_accepted_at from private.profiles where id = :'berk'), null, 'nobody else''s profile is touched');

update private.profiles set terms_accepted_at = '2026-01-02 03:04:05+00' where id = :'ayla';
select tests.authenticate_as(:'ayla', :'s_ayla2');
select is(public.accept_terms() -> 'user' ->> 'terms_accepted_at', (select to_jsonb('2026-01-02 03:04:05+00'::timestamptz) ->> 0),
  'accepting again (even from another session) keeps the first acceptance time');
select tests.reset_role();

select tests.authenticate_as(:'locked', :'s_locked');
select is(public.accept_terms(), :'auth_required'::jsonb, 'an admin-locked user is refused accept_terms');
select tests.reset_role();
select tests.authenticate_as(:'disabled');
select is(public.accept_terms(), :'auth_required'::jsonb, 'a disabled user is refused accept_terms');
select tests.reset_role();
select tests.set_request_identity('authenticated', '', '{"role":"authenticated"}');
select is(public.accept_terms(), :'auth_required'::jsonb, 'an authenticated request without a user is refused accept_terms');
select tests.reset_role();
select is((select count(*)::int from private.profiles where terms_accepted_at is not null), 1, 'only the one user has accepted');

-- ---------------------------------------------------------------------------------
-- update_my_profile
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'berk', :'s_berk');
select is(public.update_my_profile('  Berkay ', ' Bey  ') ->> 'success', 'true', 'a user changes their own name');
select tests.reset_role();
select is((select array[first_name, last_name] from private.profiles where id = :'berk'), array['Berkay', 'Bey'], 'the names are stored trimmed');
select is((select raw_user_meta_data ->> 'first_name' from auth.users where id = :'berk'), 'Berkay', 'the Auth user''s metadata follows');
select is((select array[first_name, last_name] from private.profiles where id = :'ayla'), array['Ayla', 'Kaya'], 'another user''s name is untouched');

select tests.authenticate_as(:'berk', :'s_berk');
select is(public.update_my_profile('Berkay', null) -> 'user' ->> 'last_name', '', 'an empty last name is allowed');
select is(public.update_my_profile('   ', 'Bey'), '{"success": false, "error": "Ad gerekli", "code": "first_name_required"}'::jsonb,
  'a blank first name is refused');
select is(public.update_my_profile(repeat('a', 101), 'Bey') ->> 'code', 'name_too_long', 'a first name over 100 characters is refused');
select is(public.update_my_profile('Berkay', repeat('b', 101)) ->> 'code', 'name_too_long', 'a last name over 100 characters is refused');
select tests.reset_role();
select is((select array[first_name, last_name] from private.profiles where id = :'berk'), array['Berkay', ''], 'refused changes leave the profile as it was');

-- The member's own phone: the sender's phone in the e-mails they send.
select tests.authenticate_as(:'berk', :'s_berk');
select is(public.update_my_profile('Berkay', '', '0532 111 22 33') -> 'user' ->> 'phone', '+905321112233',
  'a phone is kept in E.164 and comes back with the user');
select is(public.update_my_profile('Berkay', '') -> 'user' ->> 'phone', '+905321112233', 'no phone given: the phone stays');
select is(public.update_my_profile('Berkay', '', '12'), '{"success": false, "error": "Geçerli bir telefon numarası girin", "code": "invalid_phone"}'::jsonb,
  'a phone that is not one is refused');
select is(public.update_my_profile('Berkay Yeni', '', '+90 999'), '{"success": false, "error": "Geçerli bir telefon numarası girin", "code": "invalid_phone"}'::jsonb,
  'a refused phone refuses the whole change');
select tests.reset_role();
select is((select array[first_name, phone] from private.profiles where id = :'berk'), array['Berkay', '+905321112233'], 'refused phones change nothing');
select is((select phone from private.profiles where id = :'ayla'), null, 'another user''s phone is untouched');
select tests.authenticate_as(:'berk', :'s_berk');
select is(public.update_my_profile('Berkay', '', '  ') -> 'user' ->> 'phone', null, 'a blank phone clears it');
select tests.reset_role();

select tests.authenticate_as(:'locked', :'s_locked');
select is(public.update_my_profile('Yeni', 'Ad'), :'auth_required'::jsonb, 'an admin-locked user is refused update_my_profile');
select tests.reset_role();
select tests.authenticate_as(:'disabled');
select is(public.update_my_profile('Yeni', 'Ad'), :'auth_required'::jsonb, 'a disabled user is refused update_my_profile');
select tests.reset_role();
select is((select first_name from private.profiles where id = :'locked'), 'Kilit', 'the locked user''s name is unchanged');

-- ---------------------------------------------------------------------------------
-- issue_request_token
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'ayla', :'s_ayla');
select public.issue_request_token() as issued \gset
select is((:'issued'::jsonb) ->> 'success', 'true', 'a signed-in session gets a request token');
select ((:'issued'::jsonb) ->> 'token') as token \gset
select ok(:'token' ~ '^[A-Za-z0-9_-]{43}$', 'the token is 32 random bytes, URL-safe base64 without padding');
select is(((:'issued'::jsonb) ->> 'expires_at')::timestamptz, now() + interval '1 hour', 'the token is valid for one hour');
select isnt(public.issue_request_token() ->> 'token', :'token', 'every issue gives a new token');
select tests.reset_role();

select is((select array[session_id::text, user_id::text] from private.request_tokens
            where token_hash = extensions.digest(:'token', 'sha256')),
  array[:'s_ayla', :'ayla'], 'the token is stored (as a hash) with its session and user');
select is((select count(*)::int from private.request_tokens r
            where r.token_hash = convert_to(:'token', 'UTF8')), 0, 'the token itself is not stored');

select tests.authenticate_as(:'locked', :'s_locked');
select is(public.issue_request_token(), :'auth_required'::jsonb, 'an admin-locked user gets no token');
select tests.reset_role();
select tests.authenticate_as(:'disabled');
select is(public.issue_request_token(), :'auth_required'::jsonb, 'a disabled user gets no token');
select tests.reset_role();
select tests.set_request_identity('authenticated', :'ayla',
  json_build_object('sub', :'ayla', 'role', 'authenticated', 'session_id', gen_random_uuid())::text);
select is(public.issue_request_token(), :'auth_required'::jsonb, 'a session id not in auth.sessions gets no token');
select tests.set_request_identity('authenticated', :'ayla', json_build_object('sub', :'ayla', 'role', 'authenticated')::text);
select is(public.issue_request_token(), :'auth_required'::jsonb, 'a request without a session id gets no token');
select tests.set_request_identity('authenticated', :'berk',
  json_build_object('sub', :'berk', 'role', 'authenticated', 'session_id', :'s_ayla')::text);
select is(public.issue_request_token(), :'auth_required'::jsonb, 'another user''s session id gets no token');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- verify_request_token: true only for the caller's own live session
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'ayla', :'s_ayla');
select ok(public.verify_request_token(:'token'), 'the token is valid in the session that got it');
select ok(not public.verify_request_token(:'token' || 'x'), 'a changed token is not valid');
select ok(not public.verify_request_token(''), 'an empty token is not valid');
select ok(not public.verify_request_token(null), 'no token is not valid');
select tests.reset_role();

select tests.authenticate_as(:'ayla', :'s_ayla2');
select ok(not public.verify_request_token(:'token'), 'another session of the same user cannot use it');
select tests.reset_role();
select tests.authenticate_as(:'berk', :'s_berk');
select ok(not public.verify_request_token(:'token'), 'another user cannot use it');
select tests.reset_role();
select tests.set_request_identity('authenticated', :'berk',
  json_build_object('sub', :'berk', 'role', 'authenticated', 'session_id', :'s_ayla')::text);
select ok(not public.verify_request_token(:'token'), 'another user claiming the same session id cannot use it');
select tests.set_request_identity('authenticated', :'ayla', json_build_object('sub', :'ayla', 'role', 'authenticated')::text);
select ok(not public.verify_request_token(:'token'), 'the same user without a session id cannot use it');
select tests.reset_role();

-- A token stops working the moment its account is disabled.
update private.profiles set is_active = false where id = :'ayla';
select tests.authenticate_as(:'ayla', :'s_ayla');
select ok(not public.verify_request_token(:'token'), 'a disabled account''s token is not valid');
select tests.reset_role();
update private.profiles set is_active = true where id = :'ayla';

-- A token of the second session works there and only there.
select tests.authenticate_as(:'ayla', :'s_ayla2');
select (public.issue_request_token() ->> 'token') as token2 \gset
select ok(public.verify_request_token(:'token2'), 'the second session''s own token is valid there');
select tests.reset_role();
select tests.authenticate_as(:'ayla', :'s_ayla');
select ok(not public.verify_request_token(:'token2'), 'but not in the first session');
select tests.reset_role();

-- Expiry: move the stored expiry instead of waiting an hour.
update private.request_tokens set expires_at = now() + interval '1 second'
 where token_hash = extensions.digest(:'token', 'sha256');
select tests.authenticate_as(:'ayla', :'s_ayla');
select ok(public.verify_request_token(:'token'), 'a token with a second left is still valid');
select tests.reset_role();
update private.request_tokens set expires_at = now() - interval '1 second'
 where token_hash = extensions.digest(:'token', 'sha256');
select tests.authenticate_as(:'ayla', :'s_ayla');
select ok(not public.verify_request_token(:'token'), 'an expired token is not valid');
select tests.reset_role();
update private.request_tokens set expires_at = now()
 where token_hash = extensions.digest(:'token', 'sha256');
select tests.authenticate_as(:'ayla', :'s_ayla');
select ok(not public.verify_request_token(:'token'), 'a token is not valid at its expiry instant');
-- The next issue in that session clears its expired tokens.
select is(public.issue_request_token() ->> 'success', 'true', 'the session gets a fresh token after expiry');
select tests.reset_role();
select is((select count(*)::int from private.request_tokens where token_hash = extensions.digest(:'token', 'sha256')), 1,
  'a token exactly at its expiry is not yet purged');
update private.request_tokens set expires_at = now() - interval '1 minute'
 where token_hash = extensions.digest(:'token', 'sha256');
select tests.authenticate_as(:'ayla', :'s_ayla');
select is(public.issue_request_token() ->> 'success', 'true', 'issuing again');
select tests.reset_role();
select is((select count(*)::int from private.request_tokens where token_hash = extensions.digest(:'token', 'sha256')), 0,
  'issuing a token purges the session''s expired ones');

-- The token lives no longer than its Auth session.
select is((select count(*)::int from private.request_tokens where session_id = :'s_ayla2'), 1, 'the second session has its token');
delete from auth.sessions where id = :'s_ayla2';
select is((select count(*)::int from private.request_tokens where session_id = :'s_ayla2'), 0, 'ending the Auth session deletes its tokens');
select tests.authenticate_as(:'ayla', :'s_ayla2');
select ok(not public.verify_request_token(:'token2'), 'a token of an ended (and re-created) session is not valid');
select tests.reset_role();

select * from finish();
rollback;
