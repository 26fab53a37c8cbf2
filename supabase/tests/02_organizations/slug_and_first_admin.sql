-- The organization manager's creation: the slug made from the name with Turkish letters
-- folded (private.slug_from_name, the same cases as the client's slug.test.ts), the spec rule
-- still checked on it, and the first admin created in the same transaction (all or nothing).
begin;
select plan(33);
select tests.send_request_tokens();

\o /dev/null
select tests.create_user('root@platform.test', 'super_admin', 'Sena', 'Kök') as sa \gset
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.add_member(:'alpha_user', :'alpha', 'user');
\o

-- slug_from_name: the client's cases.
select is(private.slug_from_name('Işık Yazılım'), 'isik-yazilim', 'Turkish letters are folded: Işık Yazılım');
select is(private.slug_from_name('İstanbul Çiğ Köfte Ürünleri'), 'istanbul-cig-kofte-urunleri', 'İ Ç ğ ö Ü are folded');
select is(private.slug_from_name('ŞEKER GÜBRE ÖZ'), 'seker-gubre-oz', 'capitals are folded and lowercased');
select is(private.slug_from_name('Demo Ticaret A.Ş.'), 'demo-ticaret', 'a trailing A.Ş. is dropped');
select is(private.slug_from_name('Acme Sanayi Ltd. Şti.'), 'acme-sanayi', 'a trailing Ltd. Şti. is dropped');
select is(private.slug_from_name('Acme Sanayi ve Ticaret Ltd.'), 'acme-sanayi-ve-ticaret', 'a trailing Ltd. is dropped');
select is(private.slug_from_name('Kâğıt & Baskı (Bursa) 2'), 'kagit-baski-bursa-2', 'circumflex letters folded, other runs one hyphen');
select is(private.slug_from_name('Café Zoë GmbH'), 'cafe-zoe', 'other accented letters folded, GmbH dropped');
select is(private.slug_from_name('  --Ağaç__İşleri--  '), 'agac-isleri', 'no hyphen at either end');
select is(private.slug_from_name('Çok Uzun Bir Şirket Adı Olan Örnek Holding'), 'cok-uzun-bir-sirket-adi-olan-o', 'at most 30 characters');
select is(private.slug_from_name('A.Ş.'), 'a-s', 'a company form alone stays');
select is(private.slug_from_name('Ω東京'), '', 'nothing usable gives an empty slug');
select ok(private.is_valid_slug(private.slug_from_name('Işık Yazılım')), 'a derived slug passes the spec rule');
select ok(not private.is_valid_slug('ışık-yazılım'), 'the spec rule still refuses Turkish letters in a slug given as it is');

-- Denied: not a super admin (nothing is created, no admin either).
select tests.act_as_anon();
select throws_ok($$select public.create_organization('', 'Işık Yazılım', 'basic', 'ilk@isik.test', 'Gizli.1234', 'İlk', 'Yönetici')$$,
  '42501', null, 'anon cannot call create_organization');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin');
select is(public.create_organization('', 'Işık Yazılım', 'basic', 'ilk@isik.test', 'Gizli.1234', 'İlk', 'Yönetici') ->> 'code',
  'super_admin_required', 'an organization admin cannot create an organization with an admin');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user');
select is(public.create_organization('', 'Işık Yazılım') ->> 'code', 'super_admin_required', 'a plain user cannot either');
select tests.reset_role();
select is((select count(*)::int from private.organizations where slug = 'isik-yazilim'), 0, 'the refused calls created no organization');
select is((select count(*)::int from private.profiles where email = 'ilk@isik.test'), 0, 'and no user');

-- Allowed: a super admin, with no slug: the slug comes from the name.
select tests.authenticate_as(:'sa');
select public.create_organization('', 'Işık Yazılım A.Ş.') as isik \gset
select is((:'isik'::jsonb) #>> '{organization,slug}', 'isik-yazilim', 'an empty slug is made from the name');
select ok(not ((:'isik'::jsonb) ? 'first_admin'), 'no first admin was asked for, none is answered');
select is(public.create_organization(null, 'Işık Yazılım') ->> 'code', 'slug_taken', 'a derived slug that is taken is refused as taken');
select is(public.create_organization('', 'Drop Yazılım') ->> 'code', 'invalid_slug', 'a derived slug with an SQL word is refused by the spec rule');
select is(public.create_organization('', '東京') ->> 'code', 'invalid_slug', 'a name that gives no slug is refused');
select is(public.create_organization('ışık', 'Işık') ->> 'code', 'invalid_slug', 'a given slug with Turkish letters is still refused');

-- Allowed: with a first admin, created in the same transaction with the admin role.
select public.create_organization('', 'Kuzey Çelik Ltd. Şti.', 'pro', '  Ilk@Kuzey.Test ', 'Gizli.1234', 'Ayşe', 'Yıldız') as kuzey \gset
select is((:'kuzey'::jsonb) #>> '{organization,slug}', 'kuzey-celik', 'the organization is created');
select is((:'kuzey'::jsonb) #>> '{first_admin,email}', 'ilk@kuzey.test', 'with its first admin, the email normalized');
select tests.reset_role();
select is((select m.role from private.memberships m join private.profiles p on p.id = m.user_id
            where p.email = 'ilk@kuzey.test' and m.organization_id = ((:'kuzey'::jsonb) #>> '{organization,id}')::uuid),
  'admin', 'who is an admin of the new organization');
select is((select count(*)::int from auth.users where email = 'ilk@kuzey.test'), 1, 'and can sign in (an Auth account)');
select tests.authenticate_as(:'sa');

-- A refused admin: nothing is created, the refusal says it is the admin's.
select public.create_organization('', 'Güney Çelik', 'basic', 'ilk@kuzey.test', 'Gizli.1234', 'Ali', 'Veli') as taken \gset
select is((:'taken'::jsonb) - 'error', '{"success": false, "code": "email_in_use", "first_admin": true}'::jsonb,
  'an admin email in use refuses the whole creation, marked as the first admin''s');
select tests.reset_role();
select is((select count(*)::int from private.organizations where slug = 'guney-celik'), 0,
  'and the organization was not created (nor its tables)');
select tests.authenticate_as(:'sa');
select is(public.create_organization('', 'Güney Çelik', 'basic', 'ikinci@guney.test', '123') ->> 'code', 'password_too_short',
  'a weak admin password refuses the whole creation');
select tests.reset_role();
select is((select count(*)::int from information_schema.schemata where schema_name like 'org_guney_celik%'), 0,
  'no schema of the refused organization is left');

select * from finish();
rollback;
