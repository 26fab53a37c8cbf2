-- Security, second pass (issue 23, item 16): the throttle's client address is
-- cf-connecting-ip, else the LAST X-Forwarded-For entry (the one the nearest proxy
-- appended), never the first (whatever the client wrote); the function is not callable
-- through the API.
begin;
select plan(12);

select tests.create_organization('front', 'Ön Kapı A.Ş.') as org \gset
select tests.create_user('member@front.test', 'user', 'Kapı', 'Üye') as member \gset
select tests.create_user('admin@front.test', 'user', 'Kapı', 'Yönetici') as admin \gset
select tests.create_user('root@front.test', 'super_admin', 'Kök', 'Kapı') as super \gset
select tests.add_member(:'member', :'org', 'user');
select tests.add_member(:'admin', :'org', 'admin');

-- The address itself.
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.66, 203.0.113.21"}', true);
select is(private.client_address(), '203.0.113.21'::inet,
  'behind an appending proxy, the address is the entry the proxy appended (the last)');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.21"}', true);
select is(private.client_address(), '203.0.113.21'::inet, 'a single entry is the client');
select set_config('request.headers', '{"x-forwarded-for": "1.2.3.4 , 10.1.1.1,  203.0.113.22 "}', true);
select is(private.client_address(), '203.0.113.22'::inet, 'spaces around the entries do not matter');
select set_config('request.headers', '{"x-forwarded-for": "198.51.100.66", "cf-connecting-ip": "203.0.113.23"}', true);
select is(private.client_address(), '203.0.113.23'::inet, 'Cloudflare''s cf-connecting-ip wins over X-Forwarded-For');
select set_config('request.headers', '{"x-forwarded-for": "203.0.113.24, not an address"}', true);
select is(private.client_address(), null, 'a malformed last entry is unknown, never the client-written first');
select set_config('request.headers', '{}', true);
select is(private.client_address(), null, 'no header: unknown');

-- Through the login RPC (anon): the attempt is logged under the appended address, so a
-- client that writes its own first entry still meets its own throttle.
select tests.act_as_anon();
select set_config('request.headers', '{"x-forwarded-for": "192.0.2.77, 203.0.113.25"}', true);
select is(public.secure_login_prepare_auth('nobody@front.test', 'Wrong.123') ->> 'code', 'invalid_credentials',
  'anon: a wrong sign-in is refused');
select set_config('request.headers', '{"x-forwarded-for": "192.0.2.78, 203.0.113.25"}', true);
select is(public.secure_login_prepare_auth('nobody@front.test', 'Wrong.123') ->> 'code', 'invalid_credentials',
  'anon: another client-written first entry');
select tests.reset_role();
select is((select count(*)::int from private.login_attempts where email = 'nobody@front.test' and client_address = '203.0.113.25'), 2,
  'both attempts count against the appended address');
select is((select count(*)::int from private.login_attempts where client_address in ('192.0.2.77', '192.0.2.78')), 0,
  'none against the addresses the client wrote');

-- Nobody calls it through the API: anon, a member, an admin, a super admin.
select is(
  (select count(*)::int from unnest(array['anon', 'authenticated']) as r(role)
    where has_function_privilege(r.role, 'private.client_address()', 'execute')),
  0, 'anon and authenticated (members, admins, super admins) cannot execute private.client_address()');
select tests.authenticate_as(:'super');
select throws_ok('select private.client_address()', '42501', null, 'a super admin''s session cannot call it either');
select tests.reset_role();

select * from finish();
rollback;
