-- User administration (spec sections 5, 6, 7): create_user_secure, update_user_secure,
-- delete_user_secure, simple_reset_password, lock_user_secure, unlock_user_secure.
-- Every RPC is tried by anon, a plain user, an admin, a super admin and an admin of
-- another organization. RPC answers are captured with \gset while acting, then checked
-- as the test runner (who alone can read private.*).
begin;
select plan(129);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_organization('dormant', 'Dormant Ltd.') as dormant \gset
update private.organizations set is_active = false where id = :'dormant';
select private.migrate_tenant(:'alpha') as alpha_version \gset
select private.migrate_tenant(:'beta') as beta_version \gset
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset

select tests.create_user('root@crm.test', 'super_admin', 'Sema', 'Kök') as super \gset
select tests.create_user('root2@crm.test', 'super_admin', 'Selin', 'Üst') as super2 \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.create_user('target@alpha.test', 'user', 'Tuna', 'Göl') as target \gset
select tests.create_user('global.admin@alpha.test', 'admin', 'Gül', 'Er') as global_admin \gset
select tests.create_user('dual@alpha.test', 'user', 'Deniz', 'İki') as dual \gset
select tests.create_user('lockme@alpha.test', 'user', 'Kilit', 'Li') as lock_target \gset
select tests.create_user('reset@alpha.test', 'user', 'Sıfır', 'La') as reset_target \gset
select tests.create_user('owner@alpha.test', 'user', 'Sahip', 'Olan') as owner \gset
select tests.create_user('leaver@alpha.test', 'user', 'Giden', 'Kişi') as leaver \gset
select tests.create_user('admin@beta.test', 'user', 'Bora', 'Tan') as beta_admin \gset
select tests.create_user('user@beta.test', 'user', 'Berk', 'Er') as beta_user \gset
select tests.create_user('gone@beta.test', 'user', 'Beta', 'Giden') as beta_leaver \gset
select tests.create_user('only@beta.test', 'user', 'Yalnız', 'Beta') as beta_only \gset

select tests.add_member(:'super2', :'alpha', 'admin');
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'target', :'alpha', 'user');
select tests.add_member(:'global_admin', :'alpha', 'admin');
select tests.add_member(:'dual', :'alpha', 'user');
select tests.add_member(:'dual', :'beta', 'user');
select tests.add_member(:'lock_target', :'alpha', 'user');
select tests.add_member(:'reset_target', :'alpha', 'user');
select tests.add_member(:'owner', :'alpha', 'user');
select tests.add_member(:'leaver', :'alpha', 'user');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'beta_user', :'beta', 'user');
select tests.add_member(:'beta_leaver', :'beta', 'user');
select tests.add_member(:'beta_only', :'beta', 'user');

-- One Auth session per actor; all but the *_free ones are bound to an organization.
select gen_random_uuid() as s_super, gen_random_uuid() as s_super_free, gen_random_uuid() as s_admin,
       gen_random_uuid() as s_admin_free, gen_random_uuid() as s_user, gen_random_uuid() as s_badmin,
       gen_random_uuid() as s_target, gen_random_uuid() as s_reset1, gen_random_uuid() as s_reset2,
       gen_random_uuid() as s_lock \gset

select tests.authenticate_as(:'super', :'s_super');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_super \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_super_free');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_admin \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_user \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.bind_session_organization(:'beta') ->> 'success' as bound_badmin \gset
select tests.reset_role();

select is((select count(*)::int from private.session_organizations
            where session_id in (:'s_super', :'s_admin', :'s_user', :'s_badmin')), 4,
  'the acting sessions of super admin, admin, plain user and beta admin are bound');

-- ---------------------------------------------------------------------------------
-- anon: none of the RPCs is granted
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.create_user_secure('anon@alpha.test', 'Gizli.123', null)$$, '42501', null,
  'anon: create_user_secure is refused by the database');
select throws_ok(format('select public.update_user_secure(%L, %L)', :'target', '{"first_name":"X"}'), '42501', null,
  'anon: update_user_secure is refused by the database');
select throws_ok(format('select public.delete_user_secure(%L)', :'target'), '42501', null,
  'anon: delete_user_secure is refused by the database');
select throws_ok(format('select public.simple_reset_password(%L, %L)', :'target', 'Gizli.123'), '42501', null,
  'anon: simple_reset_password is refused by the database');
select throws_ok(format('select public.lock_user_secure(%L)', :'target'), '42501', null,
  'anon: lock_user_secure is refused by the database');
select throws_ok(format('select public.unlock_user_secure(%L)', :'target'), '42501', null,
  'anon: unlock_user_secure is refused by the database');
select tests.reset_role();

-- =================================================================================
-- create_user_secure
-- =================================================================================

-- Denied: a plain user, and an admin whose session is bound to no organization.
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.create_user_secure('plain@alpha.test', 'Gizli.123', :'alpha') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Admin yetkisi gerekli', 'create: a plain user gets Admin yetkisi gerekli');
select ok(not exists (select 1 from private.profiles where email = 'plain@alpha.test'),
  'create: nothing was created for the plain user');

select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select public.create_user_secure('unbound@alpha.test', 'Gizli.123', :'alpha') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Admin yetkisi gerekli',
  'create: an admin whose session is not bound gets Admin yetkisi gerekli');

-- Validation, in the spec's order.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_user_secure('not-an-email', '123', :'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Geçerli bir email adresi girin',
  'create: the email is checked before the password');
select is((select array_agg(public.create_user_secure(e, 'Gizli.123', :'alpha') ->> 'error' order by e)
             from unnest(array['', 'a@b', 'a b@c.de', 'no-at.sign.test', 'two@@signs.test']) e),
  array_fill('Geçerli bir email adresi girin'::text, array[5]),
  'create: malformed emails get Geçerli bir email adresi girin');
select public.create_user_secure('short@alpha.test', '12345', :'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Şifre en az 6 karakter olmalı', 'create: a 5-character password is refused');
select public.create_user_secure('short@alpha.test', null, :'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Şifre en az 6 karakter olmalı', 'create: a missing password is refused');
select public.create_user_secure('user@alpha.test', 'Gizli.123', :'beta') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin yetkisi gerekli', 'create: an admin naming another organization is refused');
select public.create_user_secure('bogus.role@alpha.test', 'Gizli.123', :'alpha', 'A', 'B', 'bogus') as r \gset
select is(:'r'::jsonb ->> 'error', 'Geçersiz rol', 'create: an unknown role gets Geçersiz rol');
select public.create_user_secure('wannabe@alpha.test', 'Gizli.123', :'alpha', 'A', 'B', 'super_admin') as r \gset
select is((:'r'::jsonb ->> 'error') || ' / ' || (:'r'::jsonb ->> 'code'), 'Admin yetkisi gerekli / super_admin_required',
  'create: an admin cannot give the super_admin role');
select public.create_user_secure('long.name@alpha.test', 'Gizli.123', :'alpha', repeat('a', 101), 'B') as r \gset
select is(:'r'::jsonb ->> 'error', 'Ad ve soyad en fazla 100 karakter olabilir', 'create: a name over 100 characters is refused');

-- Allowed: the admin, in their own organization; email lowercased and trimmed, names trimmed.
select public.create_user_secure('  New.User@Alpha.TEST  ', 'Gizli.123', :'alpha', '  Nur  ', ' Yıldız ', 'sales') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'success', 'true', 'create: the admin creates a user in their organization');
select is(:'r'::jsonb -> 'user' ->> 'email', 'new.user@alpha.test', 'create: the answer carries the new user');
select (:'r'::jsonb -> 'user' ->> 'id') as new_user \gset
select is((select email || '|' || first_name || '|' || last_name || '|' || role from private.profiles where id = :'new_user'),
  'new.user@alpha.test|Nur|Yıldız|user', 'create: email lowercased and trimmed, names trimmed, global role user');
select is((select email from auth.users where id = :'new_user'), 'new.user@alpha.test',
  'create: the Auth user has the normalized email');
select is((select role || '/' || is_active from private.memberships where user_id = :'new_user' and organization_id = :'alpha'),
  'sales/true', 'create: an active membership with the chosen role');
select ok(exists (select 1 from private.audit_log
                   where organization_id = :'alpha' and actor_id = :'alpha_admin' and action = 'user.created'
                     and target_id = :'new_user'),
  'create: an audit_log row records who created whom');

-- The new account signs in with its password.
select tests.act_as_anon();
select public.secure_login_prepare_auth('new.user@alpha.test', 'Gizli.123', 'alpha') as r \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '/' || (:'r'::jsonb -> 'organization' ->> 'slug'), 'true/alpha',
  'create: the created user passes secure_login_prepare_auth with its password');

-- Duplicates, whatever the case; also an Auth user without a profile.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_user_secure(' NEW.USER@alpha.test', 'Gizli.123', :'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Bu email adresi zaten kullanımda', 'create: a duplicate email in another case is refused');
select tests.reset_role();
insert into auth.users (id, aud, role, email, encrypted_password, created_at, updated_at)
values (gen_random_uuid(), 'authenticated', 'authenticated', 'Orphan@Alpha.test', '', now(), now());
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_user_secure('orphan@alpha.test', 'Gizli.123', :'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Bu email adresi zaten kullanımda',
  'create: an email already used by an Auth user (no profile) is refused');

-- Text that looks like SQL is stored as text.
select public.create_user_secure('bobby@alpha.test', 'Gizli.123', :'alpha',
  $n$Robert'); drop table private.profiles; --$n$, $n$x' or '1'='1$n$) as r \gset
select tests.reset_role();
select is((select first_name || '|' || last_name from private.profiles where email = 'bobby@alpha.test'),
  $n$Robert'); drop table private.profiles; --|x' or '1'='1$n$, 'create: SQL-looking names are stored literally');
select isnt(to_regclass('private.profiles'), null, 'create: private.profiles is still there');

-- Admin of another organization: allowed in their own, refused in alpha.
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.create_user_secure('intruder@beta.test', 'Gizli.123', :'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin yetkisi gerekli', 'create: the beta admin cannot create in alpha');
select public.create_user_secure('nowhere@beta.test', 'Gizli.123', null, 'Yok', 'Beta') as r \gset
select is(:'r'::jsonb ->> 'error', 'Şirket bilgisi gerekli',
  'create: no organization named is refused even with a bound session (spec section 5)');
select public.create_user_secure('new@beta.test', 'Gizli.123', :'beta', 'Yeni', 'Beta') as r \gset
select tests.reset_role();
select ok(exists (select 1 from private.memberships m join private.profiles p on p.id = m.user_id
                   where p.email = 'new@beta.test' and m.organization_id = :'beta')
          and not exists (select 1 from private.profiles where email in ('intruder@beta.test', 'nowhere@beta.test')),
  'create: the beta admin creates in beta (their session''s organization) only');

-- Super admin: anywhere, may give super_admin; with no organization at all, refused.
select tests.authenticate_as(:'super', :'s_super');
select public.create_user_secure('by.root@beta.test', 'Gizli.123', :'beta', 'Kök', 'Beta', 'manager') as r \gset
select is(:'r'::jsonb ->> 'success', 'true', 'create: the super admin (in alpha) creates a user in beta');
select public.create_user_secure('root3@crm.test', 'Gizli.123', :'alpha', 'Üç', 'Kök', 'super_admin') as r \gset
select tests.reset_role();
select is((select p.role || '/' || m.role from private.profiles p join private.memberships m on m.user_id = p.id
            where p.email = 'root3@crm.test' and m.organization_id = :'alpha'),
  'super_admin/admin', 'create: a super admin gives the super_admin role (admin membership)');
select is((select m.role from private.memberships m join private.profiles p on p.id = m.user_id
            where p.email = 'by.root@beta.test' and m.organization_id = :'beta'),
  'manager', 'create: the super admin''s user is a member of beta with the chosen role');

select tests.authenticate_as(:'super', :'s_super_free');
select public.create_user_secure('homeless@crm.test', 'Gizli.123', null) as r \gset
select is(:'r'::jsonb ->> 'error', 'Şirket bilgisi gerekli', 'create: a super admin without any organization gets Şirket bilgisi gerekli');
select public.create_user_secure('short@crm.test', '12345', null) as r \gset
select is(:'r'::jsonb ->> 'error', 'Şifre en az 6 karakter olmalı', 'create: the password is checked before the organization');
select public.create_user_secure('user@alpha.test', 'Gizli.123', null) as r \gset
select is(:'r'::jsonb ->> 'error', 'Şirket bilgisi gerekli', 'create: the organization is checked before the duplicate email');
select public.create_user_secure('dormant@crm.test', 'Gizli.123', :'dormant') as r \gset
select is(:'r'::jsonb ->> 'error', 'Şirket bilgisi gerekli', 'create: an inactive organization does not count');
select public.create_user_secure('nowhere@crm.test', 'Gizli.123', gen_random_uuid()) as r \gset
select is(:'r'::jsonb ->> 'error', 'Şirket bilgisi gerekli', 'create: an unknown organization id does not count');
select tests.reset_role();

-- =================================================================================
-- update_user_secure
-- =================================================================================

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.update_user_secure(:'target', '{"first_name":"Hacked"}') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'update: a plain user is refused');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_user_secure(:'target', '{"first_name":"  Zeynep ","last_name":" Ak  "}') as r \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '|' || (select first_name || '|' || last_name from private.profiles where id = :'target'),
  'true|Zeynep|Ak', 'update: the admin changes names (trimmed)');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_user_secure(:'target', '{"email":" Target.New@Alpha.TEST "}') as r \gset
select tests.reset_role();
select is((select p.email || '|' || u.email from private.profiles p join auth.users u on u.id = p.id where p.id = :'target'),
  'target.new@alpha.test|target.new@alpha.test', 'update: the email changes, normalized, in profile and Auth');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_user_secure(:'target', '{"email":"USER@alpha.test"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Bu email adresi zaten kullanımda', 'update: another account''s email is refused');
select public.update_user_secure(:'target', '{"email":"not an email"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Geçerli bir email adresi girin', 'update: an invalid email is refused');
select public.update_user_secure(:'target', '{"role":"manager"}') as r \gset
select tests.reset_role();
select is((select role from private.memberships where user_id = :'target' and organization_id = :'alpha'), 'manager',
  'update: the admin changes the organization role');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_user_secure(:'target', '{"role":"bogus"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Geçersiz rol', 'update: an unknown role is refused');
select public.update_user_secure(:'target', '{"role":"user","password":"x"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'User update failed: unknown field password', 'update: an unknown field is refused');
select public.update_user_secure(:'target', '{"is_active":"no"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'User update failed', 'update: a non-boolean is_active is refused');
select public.update_user_secure(:'target', '{"role":"super_admin"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'update: an admin cannot give the super_admin role');
select public.update_user_secure(:'alpha_admin', '{"role":"user"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Kendi rolünüzü veya durumunuzu değiştiremezsiniz', 'update: own role change is refused');
select public.update_user_secure(:'alpha_admin', '{"is_active":false}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Kendi rolünüzü veya durumunuzu değiştiremezsiniz', 'update: own status change is refused');
select public.update_user_secure(:'beta_user', '{"first_name":"X"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'update: another organization''s member is User not found');
select public.update_user_secure(:'beta_user', '{"first_name":"X"}', 'beta') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'update: an admin naming another organization''s slug is refused');
select public.update_user_secure(:'super2', '{"first_name":"X"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'update: an admin cannot touch a super admin');
select public.update_user_secure(:'dual', '{"first_name":"X"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required',
  'update: names of someone also in another organization are a super admin''s to change');
select tests.reset_role();
select is((select role from private.memberships where user_id = :'target' and organization_id = :'alpha')
          || '|' || (select first_name from private.profiles where id = :'beta_user')
          || '|' || (select first_name from private.profiles where id = :'super2')
          || '|' || (select first_name from private.profiles where id = :'dual'),
  'manager|Berk|Selin|Deniz', 'update: the refused updates changed nothing');

-- Demoting a global admin takes away admin status.
select ok(private.is_admin_of(:'global_admin', :'alpha'), 'update: the global admin is an admin of alpha before');
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_user_secure(:'global_admin', '{"role":"user"}') as r \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '|' || (select role from private.profiles where id = :'global_admin')
          || '|' || (select role from private.memberships where user_id = :'global_admin' and organization_id = :'alpha'),
  'true|user|user', 'update: the global admin given role user becomes user globally and in alpha');
select ok(not private.is_admin_of(:'global_admin', :'alpha'), 'update: the demoted user is no longer an admin of alpha');

-- Deactivation ends the member's session binding to the organization.
select tests.authenticate_as(:'target', :'s_target');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_target \gset
select tests.reset_role();
select is((select count(*)::int from private.session_organizations where session_id = :'s_target'), 1,
  'update: the target''s session is bound to alpha before deactivation');
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_user_secure(:'target', '{"is_active":false}') as r \gset
select tests.reset_role();
select is((select is_active from private.memberships where user_id = :'target' and organization_id = :'alpha'), false,
  'update: is_active false deactivates the membership');
select is((select count(*)::int from private.session_organizations where user_id = :'target' and organization_id = :'alpha'), 0,
  'update: the deactivated member''s session binding is gone');

-- Admin of another organization.
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.update_user_secure(:'alpha_user', '{"first_name":"X"}') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'update: the beta admin cannot update an alpha member');
select public.update_user_secure(:'alpha_user', '{"first_name":"X"}', 'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'update: the beta admin naming alpha is refused');
select public.update_user_secure(:'beta_user', '{"last_name":"  Ersoy "}') as r \gset
select tests.reset_role();
select is((select last_name from private.profiles where id = :'beta_user'), 'Ersoy', 'update: the beta admin updates a beta member');

-- Super admin: any organization by slug, and super admins too.
select tests.authenticate_as(:'super', :'s_super');
select public.update_user_secure(:'beta_user', '{"role":"manager"}', 'beta') as r \gset
select public.update_user_secure(:'super2', '{"first_name":"Selen"}') as r2 \gset
select public.update_user_secure(:'dual', '{"first_name":"Derya"}') as r3 \gset
select public.update_user_secure(:'super', '{"role":"user"}') as r4 \gset
select tests.reset_role();
select is((select role from private.memberships where user_id = :'beta_user' and organization_id = :'beta'), 'manager',
  'update: the super admin (in alpha) changes a beta role by naming beta');
select is((select first_name from private.profiles where id = :'super2'), 'Selen', 'update: the super admin edits another super admin');
select is((select first_name from private.profiles where id = :'dual'), 'Derya',
  'update: the super admin edits names of a member of two organizations');
select is(:'r4'::jsonb ->> 'error', 'Kendi rolünüzü veya durumunuzu değiştiremezsiniz', 'update: a super admin cannot change their own role');

-- A success answer means the change happened: a super admin whose session is bound to
-- no organization deactivates someone without naming an organization.
select tests.authenticate_as(:'super', :'s_super_free');
select public.update_user_secure(:'beta_leaver', '{"is_active":false}') as r \gset
select tests.reset_role();
select ok(not (:'r'::jsonb ->> 'success')::boolean
          or not (select is_active from private.profiles where id = :'beta_leaver')
          or not (select bool_or(is_active) from private.memberships where user_id = :'beta_leaver'),
  'update: is_active false never answers success while the user stays active everywhere');

-- =================================================================================
-- simple_reset_password
-- =================================================================================

-- The target has two sessions, one bound.
select tests.authenticate_as(:'reset_target', :'s_reset1');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_reset \gset
select tests.reset_role();
select tests.authenticate_as(:'reset_target', :'s_reset2');
select tests.reset_role();

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.simple_reset_password(:'reset_target', 'Yeni.Sifre9') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'reset: a plain user is refused');
select public.simple_reset_password(:'alpha_user', 'Yeni.Sifre9') as r \gset
select is(:'r'::jsonb ->> 'error', 'Password reset error: change your own password on your profile',
  'reset: a plain user resetting themselves is refused');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.simple_reset_password(:'reset_target', 'Yeni.Sifre9') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'reset: the beta admin cannot reset an alpha member');
select tests.reset_role();
select ok(exists (select 1 from auth.users where id = :'reset_target'
                   and encrypted_password = extensions.crypt('Test.1234', encrypted_password))
          and exists (select 1 from auth.users where id = :'alpha_user'
                   and encrypted_password = extensions.crypt('Test.1234', encrypted_password)),
  'reset: refused resets left the passwords alone');
select is((select count(*)::int from auth.sessions where user_id = :'reset_target'), 2, 'reset: the target has two sessions before');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.simple_reset_password(:'alpha_admin', 'Yeni.Sifre9') as r \gset
select is(:'r'::jsonb ->> 'error', 'Password reset error: change your own password on your profile', 'reset: own password is refused');
select public.simple_reset_password(:'reset_target', '12345') as r \gset
select is(:'r'::jsonb ->> 'error', 'Şifre en az 6 karakter olmalı', 'reset: a short password is refused');
select public.simple_reset_password(:'beta_user', 'Yeni.Sifre9') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'reset: another organization''s member is User not found');
select public.simple_reset_password(:'super2', 'Yeni.Sifre9') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'reset: an admin cannot reset a super admin');
select public.simple_reset_password(:'reset_target', 'Yeni.Sifre9') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'success', 'true', 'reset: the admin resets a member''s password');
select ok(exists (select 1 from auth.users where id = :'reset_target'
                   and encrypted_password = extensions.crypt('Yeni.Sifre9', encrypted_password)),
  'reset: the new hash verifies with extensions.crypt');
select ok(not exists (select 1 from auth.users where id = :'reset_target'
                       and encrypted_password = extensions.crypt('Test.1234', encrypted_password)),
  'reset: the old password no longer verifies');
select is((select count(*)::int from auth.sessions where user_id = :'reset_target'), 0, 'reset: every session of the user ended');
select is((select count(*)::int from private.session_organizations where user_id = :'reset_target'), 0,
  'reset: the session bindings went with them');

select tests.authenticate_as(:'super', :'s_super');
select public.simple_reset_password(:'beta_user', 'Kok.Sifre7') as r \gset
select tests.reset_role();
select ok((:'r'::jsonb ->> 'success')::boolean and exists (select 1 from auth.users where id = :'beta_user'
                   and encrypted_password = extensions.crypt('Kok.Sifre7', encrypted_password)),
  'reset: the super admin resets a beta member''s password');

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.simple_reset_password(:'beta_user', 'Beta.Sifre8') as r \gset
select tests.reset_role();
select ok((:'r'::jsonb ->> 'success')::boolean and exists (select 1 from auth.users where id = :'beta_user'
                   and encrypted_password = extensions.crypt('Beta.Sifre8', encrypted_password)),
  'reset: the beta admin resets a beta member''s password');

-- =================================================================================
-- lock_user_secure / unlock_user_secure
-- =================================================================================

select tests.authenticate_as(:'lock_target', :'s_lock');
select tests.reset_role();

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.lock_user_secure(:'lock_target') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'lock: a plain user is refused');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.lock_user_secure(:'lock_target') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'lock: the beta admin cannot lock an alpha member');
select tests.reset_role();

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.lock_user_secure(:'alpha_admin') as r \gset
select is(:'r'::jsonb ->> 'error', 'Kendi hesabınızı kilitleyemezsiniz', 'lock: own account is refused');
select public.lock_user_secure(:'beta_user') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'lock: another organization''s member is User not found');
select public.lock_user_secure(:'super2') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'lock: an admin cannot lock a super admin');
select tests.reset_role();
select is((select count(*)::int from private.profiles where id in (:'lock_target', :'beta_user', :'super2', :'alpha_admin')
            and (locked_by_admin or locked_until is not null)), 0, 'lock: the refused locks locked nobody');
select is((select count(*)::int from auth.sessions where user_id = :'lock_target'), 1, 'lock: the target has a session before');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.lock_user_secure(:'lock_target') as r \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '|' || (:'r'::jsonb -> 'user' ->> 'locked_by_admin'), 'true|true',
  'lock: the admin locks a member');
select ok((select locked_by_admin and locked_until between now() + interval '364 days' and now() + interval '366 days'
             from private.profiles where id = :'lock_target'),
  'lock: locked_by_admin with a lock of about 365 days');
select is((select count(*)::int from auth.sessions where user_id = :'lock_target'), 0, 'lock: the user''s sessions ended');
select tests.act_as_anon();
select public.secure_login_prepare_auth('lockme@alpha.test', 'Test.1234', 'alpha') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Account is locked by administrator', 'lock: the locked user cannot sign in');

select tests.authenticate_as(:'super', :'s_super');
select public.lock_user_secure(:'beta_user') as r \gset
select tests.reset_role();
select is((select locked_by_admin from private.profiles where id = :'beta_user'), true,
  'lock: the super admin (in alpha) locks a beta member');

-- Unlock. A failure count to clear as well.
update private.profiles set failed_login_attempts = 4, last_failed_attempt = now() where id = :'lock_target';

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.unlock_user_secure(:'lock_target') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'unlock: a plain user is refused');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.unlock_user_secure(:'lock_target') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'unlock: the beta admin cannot unlock an alpha member');
select tests.reset_role();
select is((select locked_by_admin from private.profiles where id = :'lock_target'), true, 'unlock: refused unlocks left the lock');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.unlock_user_secure(:'beta_user') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'unlock: another organization''s member is User not found');
select public.unlock_user_secure(:'super2') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'unlock: an admin cannot unlock a super admin');
select public.unlock_user_secure(:'lock_target') as r \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '|' || (select row(locked_until, locked_by_admin, failed_login_attempts)::text
                                                  from private.profiles where id = :'lock_target'),
  'true|(,f,0)', 'unlock: locked_until, locked_by_admin and failed_login_attempts are cleared');
select tests.act_as_anon();
select public.secure_login_prepare_auth('lockme@alpha.test', 'Test.1234', 'alpha') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'success', 'true', 'unlock: the user signs in again');

-- A temporary lock (failed attempts) is ended by the super admin.
update private.profiles set failed_login_attempts = 5, locked_until = now() + interval '30 minutes', locked_by_admin = false
 where id = :'dual';
select tests.authenticate_as(:'super', :'s_super');
select public.unlock_user_secure(:'beta_user') as r \gset
select public.unlock_user_secure(:'dual') as r2 \gset
select tests.reset_role();
select is((select count(*)::int from private.profiles where id in (:'beta_user', :'dual')
            and locked_until is null and not locked_by_admin and failed_login_attempts = 0), 2,
  'unlock: the super admin unlocks an admin lock in beta and a temporary lock');

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.lock_user_secure(:'beta_user') as r \gset
select public.unlock_user_secure(:'beta_user') as r2 \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '|' || (:'r2'::jsonb ->> 'success'), 'true|true',
  'lock/unlock: the beta admin locks and unlocks a beta member');

-- =================================================================================
-- delete_user_secure
-- =================================================================================

-- The owner still owns records in alpha.
select format('insert into %I.customers (name, owner_id, created_by) values (%L, %L, %L)',
              :'alpha_schema', 'Acme', :'owner', :'owner') \gexec
select format('insert into %I.deals (title, owner_id, created_by) values (%L, %L, %L), (%L, %L, %L)',
              :'alpha_schema', 'Deal 1', :'owner', :'owner', 'Deal 2', :'owner', :'owner') \gexec
select format('insert into %I.tasks (title, owner_id, created_by) values (%L, %L, %L)',
              :'alpha_schema', 'Call', :'owner', :'owner') \gexec

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.delete_user_secure(:'leaver') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'delete: a plain user is refused');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.delete_user_secure(:'leaver') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'delete: the beta admin cannot delete an alpha member');
select public.delete_user_secure(:'leaver', :'alpha') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'delete: the beta admin naming alpha is refused');
select tests.reset_role();
select ok(exists (select 1 from private.memberships where user_id = :'leaver' and organization_id = :'alpha'),
  'delete: the refused deletions left the member in place');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.delete_user_secure(:'alpha_admin') as r \gset
select is(:'r'::jsonb ->> 'error', 'Kendi hesabınızı silemezsiniz', 'delete: an admin cannot delete themselves');
select public.delete_user_secure(:'super2') as r \gset
select is((:'r'::jsonb ->> 'success') || '|' || (:'r'::jsonb ->> 'code'), 'false|super_admin_required',
  'delete: an admin cannot delete a super admin');
select public.delete_user_secure(:'beta_user') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'delete: another organization''s member is User not found');
select public.delete_user_secure(gen_random_uuid()) as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'delete: an unknown user is User not found');
select public.delete_user_secure(:'leaver', :'beta') as r \gset
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'delete: an admin naming another organization is refused');
select public.delete_user_secure(:'owner') as r \gset
select is((:'r'::jsonb ->> 'code') || '|' || (:'r'::jsonb ->> 'error'),
  'has_records|Kullanıcının kayıtları var; önce kayıtlarını başka bir kullanıcıya aktarın',
  'delete: someone who still owns records is refused with has_records');
select ok(:'r'::jsonb -> 'records' @> '{"deals": 2, "customers": 1, "tasks": 1, "contracts": 0, "quotes": 0}',
  'delete: the answer counts the records per table');
select public.delete_user_secure(:'dual') as r \gset
select public.delete_user_secure(:'leaver') as r2 \gset
select tests.reset_role();
select ok(exists (select 1 from private.profiles where id = :'owner')
          and exists (select 1 from private.profiles where id = :'super2')
          and exists (select 1 from private.profiles where id = :'alpha_admin'),
  'delete: the refused deletions deleted nobody');

select is(:'r'::jsonb ->> 'message', 'Kullanıcı şirketten çıkarıldı', 'delete: a member of two organizations is removed from this one');
select ok(not exists (select 1 from private.memberships where user_id = :'dual' and organization_id = :'alpha')
          and exists (select 1 from private.memberships where user_id = :'dual' and organization_id = :'beta')
          and exists (select 1 from auth.users where id = :'dual'),
  'delete: their beta membership and their account remain');
select is(:'r2'::jsonb ->> 'message', 'Kullanıcı silindi', 'delete: the admin deletes a member without records');
select ok(not exists (select 1 from auth.users where id = :'leaver') and not exists (select 1 from private.profiles where id = :'leaver'),
  'delete: the Auth user and the profile are gone');
select ok(exists (select 1 from private.audit_log where action = 'user.deleted' and target_id = :'leaver'
                   and actor_id = :'alpha_admin' and organization_id = :'alpha'),
  'delete: an audit_log row records the deletion');

-- The beta admin deletes in beta.
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.delete_user_secure(:'beta_leaver') as r \gset
select tests.reset_role();
select ok((:'r'::jsonb ->> 'success')::boolean and not exists (select 1 from private.profiles where id = :'beta_leaver'),
  'delete: the beta admin deletes a beta member');

-- The super admin deletes a super admin, and cannot delete themselves.
select tests.authenticate_as(:'super', :'s_super');
select public.delete_user_secure(:'super') as r \gset
select is(:'r'::jsonb ->> 'error', 'Kendi hesabınızı silemezsiniz', 'delete: a super admin cannot delete themselves');
select public.delete_user_secure(:'super2') as r \gset
select tests.reset_role();
select ok((:'r'::jsonb ->> 'success')::boolean and not exists (select 1 from auth.users where id = :'super2'),
  'delete: the super admin deletes another super admin');

-- A success answer means something happened: the super admin, working in alpha, asks
-- to delete someone who belongs to beta only.
select tests.authenticate_as(:'super', :'s_super');
select public.delete_user_secure(:'beta_only') as r \gset
select tests.reset_role();
select ok(not (:'r'::jsonb ->> 'success')::boolean
          or not exists (select 1 from private.memberships where user_id = :'beta_only'),
  'delete: a success answer is never given while the user stays untouched');

select * from finish();
rollback;
