-- "Şifremi unuttum" (21_password_reset.sql): only the password-reset function's secret key may
-- begin or complete a reset; a request answers the same whether or not the e-mail has a usable
-- account; requests are throttled per e-mail and per address; the link's token is kept only
-- hashed and works once, within its time, never for a locked or disabled account; a reset sets
-- the password, ends every session of the account, uses up its other links, and is logged as
-- a sign-in and audited.
begin;
select plan(46);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_user('reset@alpha.test', 'user', 'Deniz', 'Arslan') as resetter \gset
select tests.create_user('locked@alpha.test') as locked_user \gset
select tests.create_user('off@alpha.test') as off_user \gset
select tests.create_user('own@beta.test') as beta_user \gset
select tests.add_member(:'resetter', :'alpha', 'sales');
select tests.add_member(:'locked_user', :'alpha', 'sales');
select tests.add_member(:'off_user', :'alpha', 'sales');
select tests.add_member(:'beta_user', :'beta', 'sales');
update private.profiles set is_active = false where id = :'off_user';

-- ---------------------------------------------------------------------------------
-- Grants: the function's secret key only
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.password_reset_begin(text, text, text, boolean)', 'execute'),
  'anon cannot begin a reset (only the function, with the secret key)');
select ok(not has_function_privilege('authenticated', 'public.password_reset_begin(text, text, text, boolean)', 'execute'),
  'a signed-in caller cannot begin a reset');
select ok(not has_function_privilege('anon', 'public.password_reset_complete(text, text, text)', 'execute'),
  'anon cannot complete a reset');
select ok(not has_function_privilege('authenticated', 'public.password_reset_complete(text, text, text)', 'execute'),
  'a signed-in caller cannot complete a reset');
select ok(has_function_privilege('service_role', 'public.password_reset_begin(text, text, text, boolean)', 'execute')
          and has_function_privilege('service_role', 'public.password_reset_complete(text, text, text)', 'execute'),
  'the function''s secret key may do both');
select tests.act_as_anon();
select throws_ok($$select public.password_reset_begin('reset@alpha.test', '198.51.100.1', 'tr', true)$$, '42501', null,
  'anon calling it is refused by the database');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- The request: one answer for every e-mail
-- ---------------------------------------------------------------------------------
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_begin('nobody@alpha.test', '198.51.100.1', 'tr', true) as unknown_answer,
       public.password_reset_begin('reset@alpha.test', '198.51.100.1', 'tr', false) as no_mail_answer,
       public.password_reset_begin('locked@alpha.test', '198.51.100.1', 'tr', true) as locked_answer_before,
       public.password_reset_begin('off@alpha.test', '198.51.100.1', 'tr', true) as off_answer \gset
reset role;
select tests.reset_role();
select is(:'unknown_answer'::jsonb, '{"success": true}', 'an unknown e-mail: {success: true}');
select is(:'no_mail_answer'::jsonb, '{"success": true}',
  'an account whose organization has no mail, and no installation mail: the same answer, no link');
select is(:'off_answer'::jsonb, '{"success": true}', 'a disabled account: the same answer, no link');
select is((select count(*)::int from private.password_reset_tokens), 1, 'only the usable account with mail got a link so far');
select is((select user_id from private.password_reset_tokens), :'locked_user'::uuid, '(the one not yet locked)');
update private.password_reset_tokens set used_at = now();
update private.profiles set locked_by_admin = true, locked_until = now() + interval '365 days' where id = :'locked_user';

-- The organization's own settings make a link without installation mail.
insert into private.mail_settings (organization_id, host, port, security, sender_address)
values (:'alpha', 'smtp.alpha.test', 587, 'starttls', 'satis@alpha.test');
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_begin(' Reset@Alpha.test ', '198.51.100.2', 'en', false) as answer,
       public.password_reset_begin('locked@alpha.test', '198.51.100.2', 'tr', true) as locked_answer \gset
reset role;
select tests.reset_role();
select is(:'answer'::jsonb - 'mail', '{"success": true}', 'a usable account: the same answer to the caller (the mail part is the function''s)');
select is(:'locked_answer'::jsonb, '{"success": true}', 'a locked account: the same answer, no link');
select is(:'answer'::jsonb #>> '{mail,to}', 'reset@alpha.test', 'the link goes to the account''s address');
select is(:'answer'::jsonb #> '{mail,values}',
  '{"user.name": "Deniz Arslan", "organization.name": "Alpha A.Ş.", "reset.minutes": "30"}',
  'with the template''s values: the name, the sending organization, the minutes');
select is(:'answer'::jsonb #>> '{mail,subject}', '{{organization.name}}: reset your password', 'in the language asked for');
select ok(:'answer'::jsonb #>> '{mail,body}' like '%{{reset.link}}%', 'the body as written, the link filled in by the function');
select :'answer'::jsonb #>> '{mail,token}' as token, :'answer'::jsonb #>> '{mail,mail_id}' as mail_id \gset
select ok(char_length(:'token') = 43 and :'token' ~ '^[A-Za-z0-9_-]+$', 'the token: 32 random bytes, base64url');
select is((select array[t.user_id::text, t.organization_id::text, t.mail_id::text] from private.password_reset_tokens t where t.used_at is null),
  array[:'resetter', :'alpha', :'mail_id'], 'one open link: the account, the organization whose mail sends it, its mail');
select is((select token_hash from private.password_reset_tokens where mail_id = :'mail_id'), extensions.digest(:'token', 'sha256'),
  'the token kept as its sha-256');
select is((select count(*)::int from private.password_reset_tokens t where strpos(t::text, :'token') > 0)
          + (select count(*)::int from private.password_reset_requests r where strpos(r::text, 'reset@alpha.test') > 0
                                                                           or strpos(r::text, '198.51.100.2') > 0),
  0, 'neither the token, the e-mail nor the address is kept in clear');
select is((select array[kind, status, array_to_string(recipients, ','), coalesce(body, '<null>')] from private.mail_log where id = :'mail_id'),
  array['password_reset', 'sending', 'reset@alpha.test', '<null>'], 'the mail started through mail_start, no body kept');
select is((select count(*)::int from private.mail_log l where strpos(l::text, :'token') > 0), 0, 'the mail log never holds the link');

-- ---------------------------------------------------------------------------------
-- Throttles: 3 an hour per e-mail, 10 an hour per address, the same for unknown e-mails
-- ---------------------------------------------------------------------------------
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_begin('reset@alpha.test', '198.51.100.3', 'tr', true) as third,
       public.password_reset_begin('reset@alpha.test', '198.51.100.4', 'tr', true) as fourth,
       public.password_reset_begin('nobody@alpha.test', '198.51.100.5', 'tr', true) as unknown_second,
       public.password_reset_begin('nobody@alpha.test', '198.51.100.5', 'tr', true) as unknown_third,
       public.password_reset_begin('nobody@alpha.test', '198.51.100.5', 'tr', true) as unknown_fourth \gset
select count(*) filter (where (public.password_reset_begin(format('x%s@alpha.test', n), '203.0.113.9', 'tr', true) ->> 'success')::boolean)
       as address_passed from generate_series(1, 11) n \gset
select public.password_reset_begin('fresh@alpha.test', '203.0.113.9', 'tr', true) as address_over \gset
reset role;
select tests.reset_role();
select is(:'third'::jsonb - 'mail', '{"success": true}', 'the third request of an hour for an e-mail passes');
select is(:'fourth'::jsonb ->> 'code', 'too_many_attempts', 'the fourth is refused');
select ok((:'fourth'::jsonb ->> 'retry_after_seconds')::int between 1 and 3600, 'saying when to try again');
select is(array[:'unknown_third'::jsonb ->> 'success', :'unknown_fourth'::jsonb ->> 'code'], array['true', 'too_many_attempts'],
  'an unknown e-mail meets the same limit after the same number of requests');
select is(:'address_passed'::int, 10, 'ten requests an hour pass from one address');
select is(:'address_over'::jsonb ->> 'code', 'too_many_attempts', 'the eleventh from that address is refused, whatever the e-mail');
select is((select count(*)::int from private.password_reset_tokens where user_id = :'resetter' and used_at is null), 2,
  'the account has two open links');

-- ---------------------------------------------------------------------------------
-- Completing: rules, lock, single use, sessions, sign-in log, audit
-- ---------------------------------------------------------------------------------
insert into auth.sessions (id, user_id) values (gen_random_uuid(), :'resetter'), (gen_random_uuid(), :'resetter'),
                                                (gen_random_uuid(), :'beta_user');
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_complete('not-a-token', 'Yeni.Sifre-42', '192.0.2.7') as wrong_token,
       public.password_reset_complete(:'token', '12345', '192.0.2.7') as too_short,
       public.password_reset_complete(:'token', 'password', '192.0.2.7') as common \gset
reset role;
select tests.reset_role();
select is(:'wrong_token'::jsonb ->> 'code', 'reset_link_invalid', 'an unknown token is refused');
select is((select array[success::text, failure_reason, source, host(client_address), email] from private.login_attempts
            where client_address = '192.0.2.7'),
  array['false', 'reset_link_invalid', 'password_reset', '192.0.2.7', ''], 'and logged as a failed sign-in of the address (it counts toward its throttle)');
select is(array[:'too_short'::jsonb ->> 'code', :'common'::jsonb ->> 'code'], array['password_too_short', 'password_common'],
  'the password rules of every other path');

-- The lock is obeyed: an admin's lock, then a temporary one; neither is lifted.
update private.profiles set locked_by_admin = true, locked_until = now() + interval '365 days' where id = :'resetter';
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_complete(:'token', 'Yeni.Sifre-42', '192.0.2.8') as admin_locked \gset
reset role;
update private.profiles set locked_by_admin = false, locked_until = now() + interval '20 minutes' where id = :'resetter';
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_complete(:'token', 'Yeni.Sifre-42', '192.0.2.8') as temporarily_locked \gset
reset role;
select tests.reset_role();
select is(array[:'admin_locked'::jsonb ->> 'code', :'temporarily_locked'::jsonb ->> 'code'], array['admin_locked', 'account_locked'],
  'a locked account cannot reset its password (the lock''s own answer)');
select ok((select locked_until > now() from private.profiles where id = :'resetter'), 'and stays locked');
select ok((select u.encrypted_password = extensions.crypt('Test.1234', u.encrypted_password) from auth.users u where u.id = :'resetter'),
  'the password is unchanged');
update private.profiles set locked_until = null, failed_login_attempts = 3 where id = :'resetter';

select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_complete(:'token', 'Yeni.Sifre-42', '192.0.2.9') as done,
       public.password_reset_complete(:'token', 'Baska.Sifre-43', '192.0.2.9') as again \gset
reset role;
select tests.reset_role();
select is(:'done'::jsonb ->> 'success', 'true', 'a usable link with a good password resets it');
select ok((select u.encrypted_password = extensions.crypt('Yeni.Sifre-42', u.encrypted_password) from auth.users u where u.id = :'resetter'),
  'the new password is Auth''s password (bcrypt), as an admin''s reset sets it');
select is((select count(*)::int from auth.sessions where user_id = :'resetter'), 0, 'every session of the account ended');
select is((select count(*)::int from auth.sessions where user_id = :'beta_user'), 1, 'other accounts'' sessions stay');
select is((select count(*)::int from private.password_reset_tokens where user_id = :'resetter' and used_at is null), 0,
  'every other open link of the account is used up');
select is(:'again'::jsonb ->> 'code', 'reset_link_invalid', 'a second use of the link is refused');
select is((select array[success::text, source, email, host(client_address)] from private.login_attempts
            where user_id = :'resetter' and success),
  array['true', 'password_reset', 'reset@alpha.test', '192.0.2.9'], 'the reset is in the account''s sign-in log');
select is((select array[action, organization_id::text, coalesce(actor_id::text, '<none>')] from private.audit_log
            where target_id = :'resetter'),
  array['user.password_reset_by_email', :'alpha', '<none>'], 'and audited in the account''s organization');

-- Expiry: a link older than its 30 minutes is refused.
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_begin('own@beta.test', '198.51.100.6', 'tr', true) #>> '{mail,token}' as beta_token \gset
reset role;
update private.password_reset_tokens set expires_at = now() - interval '1 second' where user_id = :'beta_user';
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_complete(:'beta_token', 'Yeni.Sifre-42', '192.0.2.10') as expired \gset
reset role;
select tests.reset_role();
select is(:'expired'::jsonb ->> 'code', 'reset_link_invalid', 'an expired link is refused');

-- An address over the sign-in throttle (failed sign-ins, wrong links included) is told to wait.
insert into private.login_attempts (email, success, failure_reason, source, client_address)
select '', false, 'reset_link_invalid', 'password_reset', '192.0.2.11' from generate_series(1, 20);
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.password_reset_complete('guess', 'Yeni.Sifre-42', '192.0.2.11') as throttled \gset
reset role;
select tests.reset_role();
select is(:'throttled'::jsonb ->> 'code', 'too_many_attempts', 'guessing links from one address meets the sign-in throttle');

select * from finish();
rollback;
