-- The one guard (private.caller_context) and its refusals (private.refusal): what it
-- answers for an anonymous request, an unbound session, a bound member, a bound admin
-- asking about another organization, a person in two organizations bound to each, a super
-- admin with and without a live session, a locked account, a code session, and module
-- scopes all, own and none; and the order of its refusals per need.
begin;
select plan(62);

select tests.create_organization('ctx-alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('ctx-beta', 'Beta Ltd.') as beta \gset
select tests.create_user('admin@ctx-alpha.test') as a_admin \gset
select tests.create_user('member@ctx-alpha.test') as a_member \gset
select tests.create_user('viewer@ctx-alpha.test') as a_viewer \gset
select tests.create_user('both@ctx.test') as both_user \gset
select tests.create_user('locked@ctx-alpha.test') as locked_user \gset
select tests.create_user('root@ctx.test', 'super_admin') as super \gset
select tests.add_member(:'a_admin', :'alpha', 'admin');
select tests.add_member(:'a_member', :'alpha', 'user');
select tests.add_member(:'a_viewer', :'alpha', 'viewer');
-- A plain user in alpha, the admin of beta.
select tests.add_member(:'both_user', :'alpha', 'user');
select tests.add_member(:'both_user', :'beta', 'admin');
select tests.add_member(:'locked_user', :'alpha', 'user');

-- ---------------------------------------------------------------------------------
-- Helpers (rolled back with the rest)
-- ---------------------------------------------------------------------------------

-- A live Auth session of the user, bound to the organization (null: not bound).
create function pg_temp.session_of(p_user uuid, p_organization uuid)
returns uuid language plpgsql as $$
declare
  session uuid := gen_random_uuid();
begin
  insert into auth.sessions (id, user_id) values (session, p_user);
  if p_organization is not null then
    insert into private.session_organizations (session_id, user_id, organization_id) values (session, p_user, p_organization);
  end if;
  return session;
end;
$$;

-- private.caller_context as the user's request in that session would see it (null user:
-- an anonymous request; p_amr: the JWT's amr claim), as JSON; run as the test runner (the
-- guard is granted to no API role), back to the runner after.
create function pg_temp.context_as(p_user uuid, p_session uuid, p_need text default 'signed_in',
                                   p_module text default null, p_action text default null,
                                   p_slug text default null, p_organization uuid default null, p_amr jsonb default null)
returns jsonb language plpgsql as $$
declare
  answer jsonb;
begin
  if p_user is null then
    perform tests.set_request_identity('none', '', '{"role": "anon"}');
  else
    perform tests.set_request_identity('none', p_user::text, jsonb_strip_nulls(jsonb_build_object(
      'sub', p_user, 'role', 'authenticated', 'session_id', p_session, 'amr', p_amr))::text);
  end if;
  answer := to_jsonb(private.caller_context(p_need, p_module, p_action, p_slug, p_organization));
  perform tests.reset_role();
  return answer;
end;
$$;

-- Who the context says the caller is: the fields without the problem and the session id.
create function pg_temp.who(p_context jsonb)
returns jsonb language sql as $$
  select p_context - 'problem' - 'session_id' - 'scope';
$$;

-- The refusal code of the context (null: the call may go on).
create function pg_temp.code(p_context jsonb)
returns text language sql as $$
  select p_context #>> '{problem,code}';
$$;

select pg_temp.session_of(:'a_admin', null) as s_admin_free,
       pg_temp.session_of(:'a_admin', :'alpha') as s_admin,
       pg_temp.session_of(:'a_member', :'alpha') as s_member,
       pg_temp.session_of(:'a_viewer', :'alpha') as s_viewer,
       pg_temp.session_of(:'both_user', :'alpha') as s_both_alpha,
       pg_temp.session_of(:'both_user', :'beta') as s_both_beta,
       pg_temp.session_of(:'locked_user', :'alpha') as s_locked,
       pg_temp.session_of(:'super', :'alpha') as s_super,
       pg_temp.session_of(:'super', null) as s_super_free,
       gen_random_uuid() as s_gone \gset

-- ---------------------------------------------------------------------------------
-- Anonymous
-- ---------------------------------------------------------------------------------
select is(pg_temp.context_as(null, null),
  jsonb_build_object('user_id', null, 'session_id', null, 'live_session', false, 'method_allowed', true, 'usable', false,
                     'is_super_admin', false, 'bound_organization_id', null, 'organization_id', null, 'is_admin', false,
                     'scope', null, 'problem', private.refusal('authentication_required')),
  'anon: nobody, nothing, and the refusal Authentication required');
select is(pg_temp.context_as(null, null, 'signed_in') -> 'problem',
  '{"success": false, "error": "Authentication required", "code": "authentication_required"}'::jsonb,
  'anon: the refusal''s text and code are the ones the app knows');
select is(array[pg_temp.code(pg_temp.context_as(null, null, 'organization')),
                pg_temp.code(pg_temp.context_as(null, null, 'module', 'customers', 'view')),
                pg_temp.code(pg_temp.context_as(null, null, 'admin', p_slug => 'ctx-alpha')),
                pg_temp.code(pg_temp.context_as(null, null, 'super_admin'))],
  array['authentication_required', 'authentication_required', 'authentication_required', 'authentication_required'],
  'anon: every need is refused first as not signed in');

-- ---------------------------------------------------------------------------------
-- An unbound session
-- ---------------------------------------------------------------------------------
select is(pg_temp.who(pg_temp.context_as(:'a_admin', :'s_admin_free')),
  jsonb_build_object('user_id', :'a_admin'::uuid, 'live_session', true, 'method_allowed', true, 'usable', true,
                     'is_super_admin', false, 'bound_organization_id', null, 'organization_id', null, 'is_admin', false),
  'unbound session: signed in, live and usable, bound to nothing, admin of nothing');
select is(pg_temp.context_as(:'a_admin', :'s_admin_free') ->> 'session_id', :'s_admin_free', 'unbound session: the session is the JWT''s');
select is(array[pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin_free', 'signed_in')),
                pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin_free', 'usable_session'))],
  array[null, null]::text[], 'unbound session: signed in and a usable live session');
select is(pg_temp.context_as(:'a_admin', :'s_admin_free', 'organization') -> 'problem',
  '{"success": false, "error": "Organization context required", "code": "organization_context_required"}'::jsonb,
  'unbound session: need organization gives Organization context required');
select is(array[pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin_free', 'admin')),
                pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin_free', 'module', 'customers', 'view')),
                pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin_free', 'admin', p_slug => 'ctx-alpha'))],
  array['organization_context_required', 'organization_context_required', 'organization_context_required'],
  'unbound session: an admin of alpha is no admin anywhere, even naming alpha');

-- ---------------------------------------------------------------------------------
-- A bound member
-- ---------------------------------------------------------------------------------
select is(pg_temp.who(pg_temp.context_as(:'a_member', :'s_member', 'organization')),
  jsonb_build_object('user_id', :'a_member'::uuid, 'live_session', true, 'method_allowed', true, 'usable', true,
                     'is_super_admin', false, 'bound_organization_id', :'alpha'::uuid, 'organization_id', :'alpha'::uuid,
                     'is_admin', false),
  'bound member: bound to alpha, acting in alpha, no admin');
select is(pg_temp.code(pg_temp.context_as(:'a_member', :'s_member', 'organization')), null, 'bound member: need organization passes');
select is(pg_temp.context_as(:'a_member', :'s_member', 'admin') -> 'problem',
  '{"success": false, "error": "Admin privileges required", "code": "admin_required"}'::jsonb,
  'bound member: need admin gives Admin privileges required (admin_required)');
select is(pg_temp.context_as(:'a_member', :'s_member', 'super_admin') -> 'problem',
  '{"success": false, "error": "Admin privileges required", "code": "super_admin_required"}'::jsonb,
  'bound member: need super_admin gives Admin privileges required (super_admin_required)');
select is(array[pg_temp.code(pg_temp.context_as(:'a_member', :'s_admin', 'live_session')),
                pg_temp.code(pg_temp.context_as(:'a_member', :'s_admin', 'organization'))],
  array['authentication_required', 'organization_context_required'],
  'a member presenting another user''s session: not a live session of theirs, and not bound');
select is(pg_temp.who(pg_temp.context_as(:'a_member', :'s_admin')) -> 'bound_organization_id', 'null'::jsonb,
  'a member presenting another user''s session: bound to nothing');

-- ---------------------------------------------------------------------------------
-- A bound admin of alpha asking about beta
-- ---------------------------------------------------------------------------------
select is(pg_temp.who(pg_temp.context_as(:'a_admin', :'s_admin', 'admin')),
  jsonb_build_object('user_id', :'a_admin'::uuid, 'live_session', true, 'method_allowed', true, 'usable', true,
                     'is_super_admin', false, 'bound_organization_id', :'alpha'::uuid, 'organization_id', :'alpha'::uuid,
                     'is_admin', true),
  'bound admin: admin of alpha, acting in alpha');
select is(pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin', 'admin')), null, 'bound admin: need admin passes');
select is(pg_temp.context_as(:'a_admin', :'s_admin', 'admin', p_slug => 'CTX-ALPHA') ->> 'organization_id', :'alpha',
  'bound admin naming their own organization (any case) acts in it');
select is(pg_temp.who(pg_temp.context_as(:'a_admin', :'s_admin', 'admin', p_slug => 'ctx-beta')),
  jsonb_build_object('user_id', :'a_admin'::uuid, 'live_session', true, 'method_allowed', true, 'usable', true,
                     'is_super_admin', false, 'bound_organization_id', :'alpha'::uuid, 'organization_id', null,
                     'is_admin', false),
  'bound admin of alpha naming beta by slug: no organization to act in, admin of nothing');
select is(pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin', 'admin', p_slug => 'ctx-beta')), 'organization_context_required',
  'bound admin of alpha naming beta by slug: Organization context required');
select is(pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin', 'admin', p_organization => :'beta')), 'organization_context_required',
  'bound admin of alpha naming beta by id: Organization context required');
select is(pg_temp.context_as(:'a_admin', :'s_admin', 'admin', p_slug => 'no-such-org', p_organization => :'alpha') ->> 'organization_id',
  null, 'a slug that names no organization names none, whatever the id');
select is(array[pg_temp.context_as(:'a_admin', :'s_admin', 'module', 'customers', 'view', p_slug => 'ctx-beta') ->> 'scope',
                pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin', 'module', 'customers', 'view', p_slug => 'ctx-beta'))],
  array[null, 'organization_context_required'], 'bound admin of alpha naming beta: no module scope there either');

-- ---------------------------------------------------------------------------------
-- A person in two organizations (user in alpha, admin in beta), bound to each
-- ---------------------------------------------------------------------------------
select is(array[pg_temp.context_as(:'both_user', :'s_both_alpha') ->> 'bound_organization_id',
                pg_temp.context_as(:'both_user', :'s_both_alpha') ->> 'is_admin',
                pg_temp.code(pg_temp.context_as(:'both_user', :'s_both_alpha', 'admin'))],
  array[:'alpha', 'false', 'admin_required'],
  'two organizations, bound to alpha: a plain member there, need admin refused');
select is(array[pg_temp.context_as(:'both_user', :'s_both_beta') ->> 'bound_organization_id',
                pg_temp.context_as(:'both_user', :'s_both_beta') ->> 'is_admin',
                coalesce(pg_temp.code(pg_temp.context_as(:'both_user', :'s_both_beta', 'admin')), 'none')],
  array[:'beta', 'true', 'none'],
  'two organizations, bound to beta: the admin there, need admin passes');
select is(array[pg_temp.context_as(:'both_user', :'s_both_alpha', 'admin', p_slug => 'ctx-beta') ->> 'organization_id',
                pg_temp.context_as(:'both_user', :'s_both_alpha', 'admin', p_slug => 'ctx-beta') ->> 'is_admin',
                pg_temp.code(pg_temp.context_as(:'both_user', :'s_both_alpha', 'admin', p_slug => 'ctx-beta'))],
  array[null, 'false', 'organization_context_required'],
  'two organizations, bound to alpha and naming beta (where they are admin): the power stays in beta''s session');
select is(pg_temp.code(pg_temp.context_as(:'both_user', :'s_both_alpha', 'admin', p_organization => :'beta')),
  'organization_context_required', 'two organizations, bound to alpha and naming beta by id: refused the same');
select is(pg_temp.context_as(:'both_user', :'s_both_beta', 'admin', p_slug => 'ctx-alpha') ->> 'organization_id', null,
  'two organizations, bound to beta and naming alpha: no organization to act in');

-- ---------------------------------------------------------------------------------
-- A super admin with and without a live session
-- ---------------------------------------------------------------------------------
select is(pg_temp.who(pg_temp.context_as(:'super', :'s_super', 'super_admin')),
  jsonb_build_object('user_id', :'super'::uuid, 'live_session', true, 'method_allowed', true, 'usable', true,
                     'is_super_admin', true, 'bound_organization_id', :'alpha'::uuid, 'organization_id', :'alpha'::uuid,
                     'is_admin', true),
  'super admin, live session bound to alpha (no membership): super admin and admin of alpha');
select is(array[pg_temp.code(pg_temp.context_as(:'super', :'s_super', 'super_admin')),
                pg_temp.code(pg_temp.context_as(:'super', :'s_super', 'admin'))],
  array[null, null]::text[], 'super admin, live session: needs super_admin and admin pass');
select is(array[pg_temp.context_as(:'super', :'s_super', 'module', 'deals', 'delete', p_slug => 'ctx-beta') ->> 'organization_id',
                pg_temp.context_as(:'super', :'s_super', 'module', 'deals', 'delete', p_slug => 'ctx-beta') ->> 'is_admin',
                pg_temp.context_as(:'super', :'s_super', 'module', 'deals', 'delete', p_slug => 'ctx-beta') ->> 'scope'],
  array[:'beta', 'true', 'all'], 'super admin bound to alpha names beta: acts in beta as its admin, scope all');
select is(array[pg_temp.context_as(:'super', :'s_super_free', 'admin', p_organization => :'beta') ->> 'organization_id',
                pg_temp.context_as(:'super', :'s_super_free') ->> 'organization_id',
                pg_temp.code(pg_temp.context_as(:'super', :'s_super_free', 'admin'))],
  array[:'beta', null, 'organization_context_required'],
  'super admin, unbound: acts where they name (by id), nowhere without a name');
select is(pg_temp.who(pg_temp.context_as(:'super', :'s_gone', 'admin', p_slug => 'ctx-beta')),
  jsonb_build_object('user_id', :'super'::uuid, 'live_session', false, 'method_allowed', true, 'usable', true,
                     'is_super_admin', false, 'bound_organization_id', null, 'organization_id', null, 'is_admin', false),
  'super admin whose session is not in auth.sessions: no super admin, and naming beta gives nothing');
select is(array[pg_temp.code(pg_temp.context_as(:'super', :'s_gone', 'super_admin')),
                pg_temp.code(pg_temp.context_as(:'super', :'s_gone', 'live_session')),
                coalesce(pg_temp.code(pg_temp.context_as(:'super', :'s_gone', 'signed_in')), 'none')],
  array['super_admin_required', 'authentication_required', 'none'],
  'super admin without a live session: need super_admin refused, need live_session refused, signed in still');
select is(pg_temp.context_as(:'super', null) ->> 'is_super_admin', 'false', 'super admin with no session claim at all: no super admin');
delete from auth.sessions where id = :'s_super';
select is(array[pg_temp.context_as(:'super', :'s_super') ->> 'is_super_admin',
                pg_temp.context_as(:'super', :'s_super') ->> 'bound_organization_id'],
  array['false', null], 'super admin after signing out (the session row gone): neither super admin nor bound');

-- ---------------------------------------------------------------------------------
-- A locked account, a disabled one, a locked super admin
-- ---------------------------------------------------------------------------------
select is(pg_temp.code(pg_temp.context_as(:'locked_user', :'s_locked', 'organization')), null, 'before the lock: bound to alpha');
update private.profiles set locked_until = now() + interval '30 minutes' where id = :'locked_user';
select is(pg_temp.who(pg_temp.context_as(:'locked_user', :'s_locked')),
  jsonb_build_object('user_id', :'locked_user'::uuid, 'live_session', true, 'method_allowed', true, 'usable', false,
                     'is_super_admin', false, 'bound_organization_id', null, 'organization_id', null, 'is_admin', false),
  'locked account: signed in with a live session, but not usable and bound to nothing');
select is(array[pg_temp.code(pg_temp.context_as(:'locked_user', :'s_locked', 'usable')),
                pg_temp.code(pg_temp.context_as(:'locked_user', :'s_locked', 'usable_session')),
                pg_temp.code(pg_temp.context_as(:'locked_user', :'s_locked', 'organization')),
                coalesce(pg_temp.code(pg_temp.context_as(:'locked_user', :'s_locked', 'live_session')), 'none')],
  array['authentication_required', 'authentication_required', 'organization_context_required', 'none'],
  'locked account: needs usable and usable_session refused, no organization, the session itself still live');
update private.profiles set locked_until = null, is_active = false where id = :'locked_user';
select is(array[pg_temp.context_as(:'locked_user', :'s_locked') ->> 'usable',
                pg_temp.code(pg_temp.context_as(:'locked_user', :'s_locked', 'organization'))],
  array['false', 'organization_context_required'], 'disabled account: not usable, no organization');
update private.profiles set is_active = true where id = :'locked_user';
select is(pg_temp.code(pg_temp.context_as(:'locked_user', :'s_locked', 'organization')), null, 'enabled again: bound to alpha again');
select pg_temp.session_of(:'super', :'beta') as s_super_beta \gset
update private.profiles set locked_by_admin = true, locked_until = now() + interval '365 days' where id = :'super';
select is(array[pg_temp.context_as(:'super', :'s_super_beta') ->> 'is_super_admin',
                pg_temp.context_as(:'super', :'s_super_beta') ->> 'organization_id',
                pg_temp.code(pg_temp.context_as(:'super', :'s_super_beta', 'super_admin'))],
  array['false', null, 'super_admin_required'], 'locked super admin: no super admin, no organization');
update private.profiles set locked_by_admin = false, locked_until = null where id = :'super';

-- ---------------------------------------------------------------------------------
-- A session signed in by a code (JWT amr), refused by is_account_usable
-- ---------------------------------------------------------------------------------
select is(pg_temp.who(pg_temp.context_as(:'a_member', :'s_member', p_amr => '[{"method": "otp", "timestamp": 1764270000}]')),
  jsonb_build_object('user_id', :'a_member'::uuid, 'live_session', true, 'method_allowed', false, 'usable', false,
                     'is_super_admin', false, 'bound_organization_id', null, 'organization_id', null, 'is_admin', false),
  'code session: the method may not work, the account is not usable for it, the binding does not count');
select is(array[pg_temp.code(pg_temp.context_as(:'a_member', :'s_member', 'allowed_method', p_amr => '["otp"]')),
                pg_temp.code(pg_temp.context_as(:'a_member', :'s_member', 'usable', p_amr => '["otp"]')),
                pg_temp.code(pg_temp.context_as(:'a_member', :'s_member', 'organization', p_amr => '["otp"]')),
                coalesce(pg_temp.code(pg_temp.context_as(:'a_member', :'s_member', 'live_session', p_amr => '["otp"]')), 'none')],
  array['authentication_required', 'authentication_required', 'organization_context_required', 'none'],
  'code session: allowed_method and usable refused, no organization');
select is(pg_temp.code(pg_temp.context_as(:'a_member', :'s_member', 'allowed_method', p_amr => '["password", "otp"]')), null,
  'a session with password among its methods is a password session');

-- ---------------------------------------------------------------------------------
-- Module scopes: all, own, none
-- ---------------------------------------------------------------------------------
select is(array[pg_temp.context_as(:'a_admin', :'s_admin', 'module', 'customers', 'import') ->> 'scope',
                coalesce(pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin', 'module', 'customers', 'import')), 'none')],
  array['all', 'none'], 'admin: scope all, even for import');
select is(array[pg_temp.context_as(:'a_member', :'s_member', 'module', 'customers', 'view') ->> 'scope',
                pg_temp.context_as(:'a_member', :'s_member', 'module', 'customers', 'create') ->> 'scope',
                coalesce(pg_temp.code(pg_temp.context_as(:'a_member', :'s_member', 'module', 'customers', 'create')), 'none')],
  array['all', 'own', 'none'], 'user role: view all, create own');
select is(pg_temp.context_as(:'a_member', :'s_member', 'module', 'customers', 'import') -> 'problem',
  '{"success": false, "error": "Permission denied", "code": "permission_denied"}'::jsonb,
  'user role: no import scope gives Permission denied');
select is(array[pg_temp.context_as(:'a_viewer', :'s_viewer', 'module', 'deals', 'view') ->> 'scope',
                pg_temp.context_as(:'a_viewer', :'s_viewer', 'module', 'deals', 'edit') ->> 'scope',
                pg_temp.code(pg_temp.context_as(:'a_viewer', :'s_viewer', 'module', 'deals', 'edit'))],
  array['all', null, 'permission_denied'], 'viewer role: view all, edit none (Permission denied)');
select is(pg_temp.context_as(:'both_user', :'s_both_beta', 'module', 'deals', 'delete') ->> 'scope', 'all',
  'two organizations: bound to beta, the admin''s scope all');
select is(pg_temp.context_as(:'both_user', :'s_both_alpha', 'module', 'deals', 'delete') ->> 'scope', 'own',
  'two organizations: bound to alpha, the user role''s scope own');
select is(pg_temp.context_as(:'a_member', :'s_member', 'signed_in', 'customers', 'import') -> 'problem', 'null'::jsonb,
  'a scope of none refuses only the need module');
select is(array[pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin', 'module', 'no_such_module', 'view')),
                pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin', 'module', 'customers', 'approve')),
                pg_temp.code(pg_temp.context_as(:'a_admin', :'s_admin_free', 'module', 'no_such_module', 'view')),
                pg_temp.code(pg_temp.context_as(null, null, 'module', 'no_such_module', 'view'))],
  array['unknown_module', 'unknown_module', 'unknown_module', 'authentication_required'],
  'an unknown module or action: unknown_module, after signed in and before the organization');
select is(pg_temp.context_as(:'a_admin', :'s_admin', 'signed_in') ->> 'scope', null, 'no module asked: no scope');

-- ---------------------------------------------------------------------------------
-- The needs and refusals themselves
-- ---------------------------------------------------------------------------------
select throws_ok($$select private.caller_context('anything')$$, '22023', 'unknown caller need anything',
  'an unknown need is a programming error');
select throws_ok($$select private.caller_context(null)$$, '22023', null, 'a null need is a programming error');
select is(private.refusal('admin_required', 'tr'),
  '{"success": false, "error": "Admin yetkisi gerekli", "code": "admin_required"}'::jsonb,
  'refusal in Turkish (spec section 5): Admin yetkisi gerekli');
select is(private.refusal('organization_required', 'tr'),
  '{"success": false, "error": "Şirket bilgisi gerekli", "code": "organization_required"}'::jsonb,
  'refusal in Turkish: Şirket bilgisi gerekli');
select is(private.refusal('sign_in_method_refused', p_extra => '{"method": "otp"}'),
  '{"success": false, "error": "Authentication required", "code": "sign_in_method_refused", "method": "otp"}'::jsonb,
  'a refusal carries its extra fields');
select is(array[private.refusal('organization_required') ->> 'error', private.refusal('organization_not_available') ->> 'error',
                private.refusal('shared_account') ->> 'error', private.refusal('tables_not_found') ->> 'error'],
  array['Organization context required', 'Organization context required', 'Admin privileges required', 'Required tables not found'],
  'one text per refusal, several codes sharing one');
select throws_ok($$select private.refusal('not_a_refusal')$$, '22023', 'no refusal not_a_refusal in language en',
  'an unknown refusal is a programming error');
select throws_ok($$select private.refusal('permission_denied', 'tr')$$, '22023', null,
  'a refusal without a text in the language asked is a programming error');

-- The guard is for the database's own functions only.
select tests.authenticate_as(:'a_admin', :'s_admin');
select throws_ok($$select private.caller_context('admin')$$, '42501', null, 'authenticated may not call private.caller_context');
select tests.reset_role();

select * from finish();
rollback;
