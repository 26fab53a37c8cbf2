-- The organization's logo: set and removed by its admins only, checked by type, signature
-- and size, read by its members, never by another organization's.
begin;
select plan(20);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_user('admin@alpha.test') as alpha_admin \gset
select tests.create_user('user@alpha.test') as alpha_user \gset
select tests.create_user('admin@beta.test') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_user, gen_random_uuid() as s_beta \gset
\set png 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
select encode('\xffd8ffe000104a464946'::bytea, 'base64') as jpeg,
       encode('RIFF'::bytea || '\x24000000'::bytea || 'WEBPVP8 '::bytea, 'base64') as webp,
       encode('<svg onload="alert(1)"/>'::bytea, 'base64') as svg,
       encode('\x89504e470d0a1a0a'::bytea || decode(repeat('00', 262145), 'hex'), 'base64') as huge_png \gset

select tests.act_as_anon();
select throws_ok('select public.get_organization_logo()', '42501', null, 'anon cannot read a logo');
select throws_ok($$select public.set_organization_logo('image/png', 'x')$$, '42501', null, 'anon cannot set one');
select throws_ok('select public.remove_organization_logo()', '42501', null, 'anon cannot remove one');
select tests.reset_role();

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.set_organization_logo('image/png', :'png') ->> 'code', 'admin_required', 'a plain member cannot set the logo');
select is(public.remove_organization_logo() ->> 'code', 'admin_required', 'nor remove it');
select is(public.get_organization_logo() -> 'logo', 'null'::jsonb, 'an organization starts without a logo');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.set_organization_logo('image/svg+xml', :'svg') ->> 'code', 'invalid_logo_type', 'SVG is refused (it can carry scripts)');
select is(public.set_organization_logo('image/png', :'svg') ->> 'code', 'invalid_logo', 'bytes that are not a PNG are refused');
select is(public.set_organization_logo('image/png', 'not base64 !') ->> 'code', 'invalid_logo', 'text that is not base64 is refused');
select is(public.set_organization_logo('image/png', :'huge_png') ->> 'code', 'logo_too_large', 'more than 256 KB is refused');
select is(public.set_organization_logo('image/jpeg', :'jpeg') ->> 'success', 'true', 'a JPEG is taken');
select is(public.set_organization_logo('image/webp', :'webp') ->> 'success', 'true', 'so is a WebP');
select ok(public.set_organization_logo('image/png', :'png') #>> '{settings,logo_updated_at}' is not null,
  'a PNG replaces it, and the settings say when');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where organization_id = :'alpha' and action = 'settings.logo_updated'), 3,
  'every change is audited');

select tests.authenticate_as(:'alpha_user', :'s_user');
select is(public.get_organization_logo() -> 'logo' ->> 'data_base64', :'png', 'a member reads the logo back, byte for byte');
select is(public.get_organization_logo() -> 'logo' ->> 'content_type', 'image/png', 'with its type');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.bind_session_organization(:'beta') ->> 'success' as bound \gset
select is(public.get_organization_logo() -> 'logo', 'null'::jsonb, 'another organization does not get alpha''s logo');
select is(public.remove_organization_logo() ->> 'success', 'true', 'its admin removes only its own (none)');
select tests.reset_role();
select is((select count(*)::int from private.organization_logos where organization_id = :'alpha'), 1, 'alpha''s logo is still there');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.remove_organization_logo() #>> '{settings,logo_updated_at}', null, 'the admin removes the logo');
select tests.reset_role();

select * from finish();
rollback;
