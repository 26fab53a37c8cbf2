-- Roles and settings (migration 900): get_roles, save_role, delete_role,
-- private.caller_scope, get_organization_settings, update_organization_settings.
-- Every RPC is tried by anon, a plain member, alpha's admin (bound to alpha), beta's admin
-- (bound to beta), an admin whose session is bound to nothing and a super admin bound to
-- alpha. Answers are captured with \gset while acting, then checked as the test runner
-- (who alone can read private.*).
begin;
select plan(97);

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset

select tests.create_user('root@crm.test', 'super_admin', 'Sema', 'Kök') as super \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.create_user('sales@alpha.test', 'user', 'Sena', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Veli', 'Bakan') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Bora', 'Tan') as beta_admin \gset

-- alpha: one admin, one user, one sales, one viewer; the super admin is no member of either.
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- alpha's viewer is also beta's manager: what they may do depends on the session's organization.
select tests.add_member(:'alpha_viewer', :'beta', 'manager');

-- A custom role of beta's, which alpha must never see.
insert into private.organization_roles (organization_id, key, name) values (:'beta', 'beta_only', 'Beta Özel');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'beta', 'beta_only', 'customers', 'view', 'own');

-- One Auth session per actor; all but s_admin_free are bound to an organization.
select gen_random_uuid() as s_super, gen_random_uuid() as s_admin, gen_random_uuid() as s_admin_free,
       gen_random_uuid() as s_user, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_badmin \gset

select tests.bind_session(:'super', :'s_super', :'alpha');
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select tests.reset_role();
select tests.bind_session(:'alpha_user', :'s_user', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_badmin', :'beta');

select is((select count(*) from private.session_organizations
            where (session_id in (:'s_super', :'s_admin', :'s_user', :'s_sales', :'s_viewer') and organization_id = :'alpha')
               or (session_id = :'s_badmin' and organization_id = :'beta'))
          || '/' || (select count(*) from private.session_organizations where session_id = :'s_admin_free'),
  '6/0', 'five sessions are bound to alpha, beta''s admin''s to beta, s_admin_free to nothing');

\set context_required '{"success": false, "error": "Organization context required", "code": "organization_context_required"}'
\set admin_required '{"success": false, "error": "Admin privileges required", "code": "admin_required"}'

-- ---------------------------------------------------------------------------------
-- Test helpers (rolled back with the rest)
-- ---------------------------------------------------------------------------------

-- private.caller_scope as the given user's request would call it: the user's claims, the
-- test runner's role (the function is granted to no API role). Back to the runner after.
create function pg_temp.scope_as(p_user uuid, p_session uuid, p_module text, p_action text)
returns text language plpgsql as $$
declare
  answer text;
begin
  perform tests.set_request_identity('none', p_user::text,
    json_build_object('sub', p_user, 'role', 'authenticated', 'session_id', p_session)::text);
  answer := private.caller_scope(p_module, p_action);
  perform tests.reset_role();
  return answer;
end;
$$;

-- Everything caller_scope allows the user, as {module: {action: scope}}; nulls left out.
create function pg_temp.scopes_of(p_user uuid, p_session uuid)
returns jsonb language sql as $$
  select coalesce(jsonb_object_agg(module, actions), '{}')
    from (select module, jsonb_object_agg(action, scope) as actions
            from (select m.module, a.action, pg_temp.scope_as(p_user, p_session, m.module, a.action) as scope
                    from unnest(array['customers', 'contacts', 'deals', 'quotes', 'contracts', 'documents', 'tasks']) m (module),
                         unnest(array['view', 'create', 'edit', 'delete', 'export', 'import']) a (action)) s
           where scope is not null
           group by module) per_module;
$$;

-- The same actions in every one of the seven modules.
create function pg_temp.every_module(p_actions jsonb)
returns jsonb language sql as $$
  select jsonb_object_agg(m, p_actions)
    from unnest(array['customers', 'contacts', 'deals', 'quotes', 'contracts', 'documents', 'tasks']) m;
$$;

-- update_organization_settings, with an unexpected error turned into an answer so that one
-- broken case cannot abort the whole file.
create function pg_temp.update_settings(p_changes jsonb)
returns jsonb language plpgsql as $$
begin
  return public.update_organization_settings(p_changes);
exception when others then
  return jsonb_build_object('sqlstate', sqlstate, 'error', sqlerrm);
end;
$$;
grant execute on function pg_temp.update_settings(jsonb) to authenticated;

\set all_actions '{"view": "all", "create": "all", "edit": "all", "delete": "all", "export": "all", "import": "all"}'
\set sales_actions '{"view": "own", "create": "own", "edit": "own", "delete": "own", "export": "own"}'
\set user_actions '{"view": "all", "create": "own", "edit": "own", "delete": "own"}'

-- ---------------------------------------------------------------------------------
-- anon: nothing is granted; authenticated may not call private.caller_scope
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.get_roles()$$, '42501', null, 'anon: get_roles is refused by the database');
select throws_ok($$select public.save_role('anon_role', 'Anonim', '{}')$$, '42501', null,
  'anon: save_role is refused by the database');
select throws_ok($$select public.delete_role('viewer')$$, '42501', null, 'anon: delete_role is refused by the database');
select throws_ok($$select public.get_organization_settings()$$, '42501', null,
  'anon: get_organization_settings is refused by the database');
select throws_ok($$select public.update_organization_settings('{"name": "Anonim"}')$$, '42501', null,
  'anon: update_organization_settings is refused by the database');
select throws_ok($$select private.caller_scope('customers', 'view')$$, '42501', null,
  'anon: private.caller_scope is refused by the database');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select throws_ok($$select private.caller_scope('customers', 'view')$$, '42501', null,
  'authenticated (even a bound admin): private.caller_scope is refused by the database');
select tests.reset_role();
select ok(not exists (select 1 from private.organization_roles where key = 'anon_role')
          and (select name from private.organizations where id = :'alpha') = 'Alpha A.Ş.',
  'anon: nothing was created or renamed');

-- ---------------------------------------------------------------------------------
-- An admin whose session is bound to no organization: Organization context required
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select public.get_roles() as r_roles \gset
select public.save_role('unbound', 'Bağsız', '{"customers": {"view": "all"}}') as r_save \gset
select public.delete_role('manager') as r_delete \gset
select public.get_organization_settings() as r_settings \gset
select public.update_organization_settings('{"name": "Bağsız"}') as r_update \gset
select tests.reset_role();
select is(:'r_roles'::jsonb, :'context_required'::jsonb, 'unbound: get_roles gets Organization context required');
select is(:'r_save'::jsonb, :'context_required'::jsonb, 'unbound: save_role gets Organization context required');
select is(:'r_delete'::jsonb, :'context_required'::jsonb, 'unbound: delete_role gets Organization context required');
select is(:'r_settings'::jsonb, :'context_required'::jsonb,
  'unbound: get_organization_settings gets Organization context required');
select is(:'r_update'::jsonb, :'context_required'::jsonb,
  'unbound: update_organization_settings gets Organization context required');
select ok(not exists (select 1 from private.organization_roles where key = 'unbound')
          and exists (select 1 from private.organization_roles where organization_id = :'alpha' and key = 'manager')
          and (select name from private.organizations where id = :'alpha') = 'Alpha A.Ş.',
  'unbound: nothing was created, removed or renamed');

-- =================================================================================
-- get_roles
-- =================================================================================
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.get_roles() as r_user_roles \gset
select tests.reset_role();
select is((select array_agg(k order by k) from jsonb_object_keys(:'r_user_roles'::jsonb) k) || array[:'r_user_roles'::jsonb ->> 'success'],
  array['actions', 'modules', 'roles', 'success', 'true'], 'get_roles: a plain member reads the roles');
select is((select array_agg(r ->> 'key' order by n) from jsonb_array_elements(:'r_user_roles'::jsonb -> 'roles') with ordinality e (r, n)),
  array['admin', 'manager', 'sales', 'user', 'viewer'],
  'get_roles: the five default roles, admin first; beta''s custom role is not among them');
select is((select array_agg((r ->> 'name') || '/' || (r ->> 'is_system') order by n)
             from jsonb_array_elements(:'r_user_roles'::jsonb -> 'roles') with ordinality e (r, n)),
  array['Yönetici/true', 'Satış Müdürü/false', 'Satış Temsilcisi/false', 'Kullanıcı/false', 'İzleyici/false'],
  'get_roles: names, and only admin is a system role');
select is((select array_agg((r -> 'member_count')::int order by n)
             from jsonb_array_elements(:'r_user_roles'::jsonb -> 'roles') with ordinality e (r, n)),
  array[1, 0, 1, 1, 1], 'get_roles: member counts (the super admin is no member)');
select is((select jsonb_object_agg(r ->> 'key', r -> 'permissions') from jsonb_array_elements(:'r_user_roles'::jsonb -> 'roles') r),
  jsonb_build_object('admin', pg_temp.every_module(:'all_actions'), 'manager', pg_temp.every_module(:'all_actions'),
                     'sales', pg_temp.every_module(:'sales_actions'), 'user', pg_temp.every_module(:'user_actions'),
                     'viewer', pg_temp.every_module('{"view": "all"}')),
  'get_roles: the default matrices (sales: everything own but import, view included; user: no export or import; viewer: view)');
select is(:'r_user_roles'::jsonb -> 'modules', '["customers", "contacts", "deals", "quotes", "contracts", "documents", "tasks"]'::jsonb,
  'get_roles: the modules, in order');
select is(:'r_user_roles'::jsonb -> 'actions', '["view", "create", "edit", "delete", "export", "import"]'::jsonb,
  'get_roles: the actions, in order');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_roles() as r_admin_roles \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_super');
select public.get_roles() as r_super_roles \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.get_roles() as r_beta_roles \gset
select tests.reset_role();
select is(:'r_admin_roles'::jsonb, :'r_user_roles'::jsonb, 'get_roles: the admin reads the same answer');
select is(:'r_super_roles'::jsonb, :'r_user_roles'::jsonb, 'get_roles: the super admin bound to alpha reads alpha''s roles');
select is((select array_agg((r ->> 'key') || ':' || (r ->> 'member_count') order by n)
             from jsonb_array_elements(:'r_beta_roles'::jsonb -> 'roles') with ordinality e (r, n)),
  array['admin:1', 'beta_only:0', 'manager:1', 'sales:0', 'user:0', 'viewer:0'],
  'get_roles: beta''s admin reads beta''s roles, with its custom role and beta''s member counts');
select is((select r -> 'permissions' from jsonb_array_elements(:'r_beta_roles'::jsonb -> 'roles') r where r ->> 'key' = 'beta_only'),
  '{"customers": {"view": "own"}}'::jsonb, 'get_roles: beta''s custom role with its matrix');

-- =================================================================================
-- save_role
-- =================================================================================

-- A plain member may not, not even their own role.
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.save_role('clone', 'Klon', '{"customers": {"view": "all"}}') as r \gset
select public.save_role('user', 'Kullanıcı', '{"customers": {"view": "all", "import": "all"}}') as r2 \gset
select tests.reset_role();
select is(:'r'::jsonb, :'admin_required'::jsonb, 'save_role: a plain member creating a role gets admin_required');
select is(:'r2'::jsonb, :'admin_required'::jsonb, 'save_role: a plain member changing their own role gets admin_required');
select is((select count(*)::int from private.organization_roles where key = 'clone')
          || '/' || (select count(*) from private.role_permissions where organization_id = :'alpha' and role_key = 'user')
          || '/' || (select count(*) from private.role_permissions where organization_id = :'alpha' and role_key = 'user' and action = 'import'),
  '0/28/0', 'save_role: the plain member created nothing and changed nothing');

-- The admin creates a role: name trimmed, the matrix exactly as given.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_role('partner', '  İş Ortağı  ',
  '{"customers": {"view": "all", "create": "own"}, "deals": {"view": "own"}}') as r_created \gset
select tests.reset_role();
select is(:'r_created'::jsonb,
  '{"success": true, "role": {"key": "partner", "name": "İş Ortağı", "is_system": false,
    "permissions": {"customers": {"view": "all", "create": "own"}, "deals": {"view": "own"}}}}'::jsonb,
  'save_role: the admin creates a role; the answer carries it, name trimmed');
select is((select name || '/' || is_system from private.organization_roles where organization_id = :'alpha' and key = 'partner'),
  'İş Ortağı/false', 'save_role: the role is stored in alpha with the trimmed name');
select is((select string_agg(module || '.' || action || '=' || scope, ',' order by module, action)
             from private.role_permissions where organization_id = :'alpha' and role_key = 'partner'),
  'customers.create=own,customers.view=all,deals.view=own', 'save_role: exactly the three permissions given');

-- ...and changes it: the matrix is replaced, what was left out is gone.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_role('partner', 'Bayi', '{"customers": {"view": "own"}, "tasks": {"view": "all", "edit": "own"}}') as r_changed \gset
select tests.reset_role();
select is(:'r_changed'::jsonb,
  '{"success": true, "role": {"key": "partner", "name": "Bayi", "is_system": false,
    "permissions": {"customers": {"view": "own"}, "tasks": {"view": "all", "edit": "own"}}}}'::jsonb,
  'save_role: the admin changes the role');
select is((select string_agg(name, ',') from private.organization_roles where organization_id = :'alpha' and key = 'partner')
          || '|' || (select string_agg(module || '.' || action || '=' || scope, ',' order by module, action)
                       from private.role_permissions where organization_id = :'alpha' and role_key = 'partner'),
  'Bayi|customers.view=own,tasks.edit=own,tasks.view=all',
  'save_role: one role, renamed; customers.create and deals left out are gone');
select is((select count(*)::int from private.audit_log
            where organization_id = :'alpha' and actor_id = :'alpha_admin' and action = 'role.saved'
              and target_type = 'role' and target_id = 'partner'), 2,
  'save_role: each save writes a role.saved audit row for alpha');
select is((select details from private.audit_log where action = 'role.saved' and target_id = 'partner' order by id desc limit 1),
  '{"name": "Bayi", "permissions": {"customers": {"view": "own"}, "tasks": {"view": "all", "edit": "own"}},
    "old": {"name": "İş Ortağı", "permissions": {"deals": {"view": "own"}, "customers": {"view": "all", "create": "own"}}}}'::jsonb,
  'save_role: the audit row records the name and the matrix, and the name and matrix before (issue 23)');

-- The member's next get_roles shows it.
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.get_roles() as r \gset
select tests.reset_role();
select is((select r - 'member_count' || jsonb_build_object('count', r -> 'member_count')
             from jsonb_array_elements(:'r'::jsonb -> 'roles') r where r ->> 'key' = 'partner'),
  '{"key": "partner", "name": "Bayi", "is_system": false, "count": 0,
    "permissions": {"customers": {"view": "own"}, "tasks": {"view": "all", "edit": "own"}}}'::jsonb,
  'save_role: a member''s next get_roles lists the changed role');

-- Refused keys, the admin role, names, matrices; nothing changes.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select array_agg(coalesce(public.save_role(k, 'Rol', '{"customers": {"view": "all"}}') ->> 'code', 'success') order by n) as bad_keys
  from unnest(array['Admin', '1x', 'super_admin', repeat('a', 41), '', null, 'bad-key', 'sales ']) with ordinality u (k, n) \gset
select public.save_role('admin', 'Yönetici', '{"customers": {"view": "own"}}') as r_admin_role \gset
select array_agg(coalesce(public.save_role('partner', nm, '{"customers": {"view": "all"}}') ->> 'code', 'success') order by n) as bad_names
  from unnest(array['', '   ', null, repeat('x', 101)]) with ordinality u (nm, n) \gset
select array_agg(coalesce(public.save_role('partner', 'Değişti', p) ->> 'code', 'success') order by n) as bad_permissions
  from unnest(array[null, 'null', '[]', '"all"', '{"bogus": {"view": "all"}}', '{"Customers": {"view": "all"}}',
                    '{"customers": {"fly": "all"}}', '{"customers": {"view": "some"}}', '{"customers": {"view": "ALL"}}',
                    '{"customers": {"view": null}}', '{"customers": {"view": true}}', '{"customers": ["view"]}',
                    '{"customers": "all"}', '{"customers": {"view": "all"}, "deals": {"view": "all", "fly": "own"}}']::jsonb[])
       with ordinality u (p, n) \gset
select public.save_role('partner', 'Değişti', '{"customers": {"view": "all"}, "bogus": {"view": "all"}}') as r_bad_module \gset
select tests.reset_role();
select is(:'bad_keys'::text[], array_fill('invalid_role_key'::text, array[8]),
  'save_role: keys Admin, 1x, super_admin, 41 characters, empty, null, bad-key, ''sales '' get invalid_role_key');
select is(:'r_admin_role'::jsonb, '{"success": false, "error": "The admin role cannot be changed", "code": "system_role"}'::jsonb,
  'save_role: the admin role is refused (system_role)');
select is(:'bad_names'::text[], array_fill('invalid_role_name'::text, array[4]),
  'save_role: empty, blank, null and 101-character names get invalid_role_name');
select is(:'bad_permissions'::text[], array_fill('invalid_permissions'::text, array[14]),
  'save_role: null, non-objects, unknown modules, actions and scopes get invalid_permissions');
select is(:'r_bad_module'::jsonb, '{"success": false, "error": "Invalid permission bogus.view", "code": "invalid_permissions"}'::jsonb,
  'save_role: the failure names the bad entry');
select is((select string_agg(key || '=' || name, ',' order by key) from private.organization_roles where organization_id = :'alpha')
          || '|' || (select string_agg(module || '.' || action || '=' || scope, ',' order by module, action)
                       from private.role_permissions where organization_id = :'alpha' and role_key = 'partner')
          || '|' || (select count(*) from private.role_permissions where organization_id = :'alpha' and role_key = 'admin' and scope = 'all')
          || '|' || (select count(*) from private.audit_log where action = 'role.saved'),
  'admin=Yönetici,manager=Satış Müdürü,partner=Bayi,sales=Satış Temsilcisi,user=Kullanıcı,viewer=İzleyici'
  || '|customers.view=own,tasks.edit=own,tasks.view=all|42|2',
  'save_role: after the refusals no role, name, permission or audit row changed');

-- The longest key (40 characters) and an empty matrix are fine.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_role(repeat('a', 40), 'Uzun', '{}') as r \gset
select tests.reset_role();
select is(:'r'::jsonb, jsonb_build_object('success', true, 'role',
            jsonb_build_object('key', repeat('a', 40), 'name', 'Uzun', 'is_system', false, 'permissions', '{}'::jsonb)),
  'save_role: a 40-character key with no permissions is saved');

-- The super admin bound to alpha.
select tests.authenticate_as(:'super', :'s_super');
select public.save_role('auditor', 'Denetçi', '{"documents": {"view": "all", "export": "all"}}') as r \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '|' ||
          (select string_agg(r.organization_id::text || ':' || rp.module || '.' || rp.action, ',' order by rp.action)
             from private.organization_roles r join private.role_permissions rp
               on rp.organization_id = r.organization_id and rp.role_key = r.key where r.key = 'auditor'),
  'true|' || :'alpha' || ':documents.export,' || :'alpha' || ':documents.view',
  'save_role: the super admin bound to alpha saves a role in alpha');
select ok(exists (select 1 from private.audit_log where organization_id = :'alpha' and actor_id = :'super'
                   and action = 'role.saved' and target_id = 'auditor'),
  'save_role: the super admin''s save is audited under their name');

-- beta's admin: their own organization only, even with the same key.
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.save_role('partner', 'Beta Bayi', '{"deals": {"view": "all"}}') as r \gset
select tests.reset_role();
select is((select string_agg(r.name || ':' || rp.module || '.' || rp.action || '=' || rp.scope, ',')
             from private.organization_roles r join private.role_permissions rp
               on rp.organization_id = r.organization_id and rp.role_key = r.key
            where r.organization_id = :'beta' and r.key = 'partner'),
  'Beta Bayi:deals.view=all', 'save_role: beta''s admin saves the role in beta');
select is((select name from private.organization_roles where organization_id = :'alpha' and key = 'partner')
          || '|' || (select string_agg(module || '.' || action || '=' || scope, ',' order by module, action)
                       from private.role_permissions where organization_id = :'alpha' and role_key = 'partner'),
  'Bayi|customers.view=own,tasks.edit=own,tasks.view=all', 'save_role: alpha''s role of the same key is untouched');

-- =================================================================================
-- delete_role
-- =================================================================================
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.delete_role('manager') as r \gset
select tests.reset_role();
select is(:'r'::jsonb, :'admin_required'::jsonb, 'delete_role: a plain member gets admin_required');

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.delete_role('auditor') as r_beta_missing \gset
select public.delete_role('partner') as r_beta_deleted \gset
select tests.reset_role();
select is(:'r_beta_missing'::jsonb, '{"success": false, "error": "Role not found", "code": "role_not_found"}'::jsonb,
  'delete_role: beta''s admin cannot reach alpha''s auditor role (role_not_found)');
select is((:'r_beta_deleted'::jsonb ->> 'success')
          || '|' || (select string_agg(organization_id::text, ',') from private.organization_roles where key in ('partner', 'auditor')),
  'true|' || :'alpha' || ',' || :'alpha',
  'delete_role: beta''s admin removes beta''s partner only; alpha''s partner and auditor stay');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.delete_role('admin') as r_admin \gset
select public.delete_role('user') as r_user \gset
select public.delete_role('sales') as r_sales \gset
select public.delete_role('nope') as r_nope \gset
select public.delete_role('beta_only') as r_other \gset
select tests.reset_role();
select is(:'r_admin'::jsonb, '{"success": false, "error": "This role cannot be removed", "code": "system_role"}'::jsonb,
  'delete_role: the admin role cannot be removed');
select is(:'r_user'::jsonb, '{"success": false, "error": "This role cannot be removed", "code": "system_role"}'::jsonb,
  'delete_role: the user role (the default) cannot be removed');
select is(:'r_sales'::jsonb,
  '{"success": false, "error": "The role still has members", "code": "role_in_use", "member_count": 1}'::jsonb,
  'delete_role: a role with members is refused, with the member count');
select is(:'r_nope'::jsonb, '{"success": false, "error": "Role not found", "code": "role_not_found"}'::jsonb,
  'delete_role: an unknown role gets role_not_found');
select is(:'r_other'::jsonb, '{"success": false, "error": "Role not found", "code": "role_not_found"}'::jsonb,
  'delete_role: beta''s custom role is not found from alpha');
select is((select string_agg(organization_id::text || ':' || key, ',' order by key) from private.organization_roles
            where (organization_id = :'alpha' and key in ('admin', 'user', 'sales')) or key = 'beta_only'),
  :'alpha' || ':admin,' || :'beta' || ':beta_only,' || :'alpha' || ':sales,' || :'alpha' || ':user',
  'delete_role: the refused roles are all still there');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.delete_role('partner') as r \gset
select tests.reset_role();
select is(:'r'::jsonb, '{"success": true}'::jsonb, 'delete_role: the admin removes a role nobody holds');
select is((select count(*) from private.organization_roles where organization_id = :'alpha' and key = 'partner')
          || '/' || (select count(*) from private.role_permissions where organization_id = :'alpha' and role_key = 'partner'),
  '0/0', 'delete_role: the role and its permission rows are gone');
select is((select count(*)::int from private.audit_log where organization_id = :'alpha' and actor_id = :'alpha_admin'
            and action = 'role.deleted' and target_type = 'role' and target_id = 'partner'), 1,
  'delete_role: a role.deleted audit row');

select tests.authenticate_as(:'super', :'s_super');
select public.delete_role('auditor') as r \gset
select tests.reset_role();
select is((:'r'::jsonb ->> 'success') || '/' || (select count(*) from private.organization_roles where key = 'auditor')
          || '/' || (select count(*) from private.role_permissions where role_key = 'auditor'),
  'true/0/0', 'delete_role: the super admin bound to alpha removes alpha''s role');

-- =================================================================================
-- private.caller_scope
-- =================================================================================
select is(pg_temp.scopes_of(:'alpha_admin', :'s_admin'), pg_temp.every_module(:'all_actions'),
  'caller_scope: the admin gets all in every module and action');
select is(pg_temp.scopes_of(:'super', :'s_super'), pg_temp.every_module(:'all_actions'),
  'caller_scope: the super admin bound to alpha gets all everywhere');
select is(pg_temp.scopes_of(:'alpha_user', :'s_user'), pg_temp.every_module(:'user_actions'),
  'caller_scope: a user-role member gets the default user matrix');
select is(array[pg_temp.scope_as(:'alpha_user', :'s_user', 'customers', 'view'),
                pg_temp.scope_as(:'alpha_user', :'s_user', 'customers', 'create'),
                pg_temp.scope_as(:'alpha_user', :'s_user', 'customers', 'import'),
                pg_temp.scope_as(:'alpha_user', :'s_user', 'deals', 'export')],
  array['all', 'own', null, null], 'caller_scope: user role: view all, create own, no import, no export');
select is(pg_temp.scope_as(:'alpha_user', :'s_user', 'invoices', 'view'), null,
  'caller_scope: an unknown module is not allowed');
select is(pg_temp.scopes_of(:'alpha_sales', :'s_sales'), pg_temp.every_module(:'sales_actions'),
  'caller_scope: a sales member gets the default sales matrix');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_role('sales', 'Satış Temsilcisi', '{"deals": {"view": "own", "export": "all"}, "customers": {"view": "all"}}') ->> 'success' as r \gset
select tests.reset_role();
select is(pg_temp.scopes_of(:'alpha_sales', :'s_sales'), '{"deals": {"view": "own", "export": "all"}, "customers": {"view": "all"}}'::jsonb,
  'caller_scope: after the admin changes the sales matrix, the member''s next request sees exactly the new one');

select is(pg_temp.scopes_of(:'alpha_admin', :'s_admin_free'), '{}'::jsonb,
  'caller_scope: an admin''s session bound to nothing gets null everywhere');
select is(pg_temp.scope_as(:'alpha_user', :'s_admin', 'customers', 'view'), null,
  'caller_scope: a member presenting another user''s bound session gets null');
select is(pg_temp.scope_as(:'alpha_viewer', :'s_viewer', 'customers', 'create'), null,
  'caller_scope: alpha''s viewer (beta''s manager) may not create in a session bound to alpha');
select is(pg_temp.scopes_of(:'alpha_viewer', :'s_viewer'), pg_temp.every_module('{"view": "all"}'),
  'caller_scope: a viewer member may view all, nothing else');
update private.memberships set is_active = false where user_id = :'alpha_viewer' and organization_id = :'alpha';
select is(pg_temp.scopes_of(:'alpha_viewer', :'s_viewer'), '{}'::jsonb,
  'caller_scope: once the membership is deactivated, null everywhere');
update private.memberships set is_active = true where user_id = :'alpha_viewer' and organization_id = :'alpha';

-- =================================================================================
-- get_organization_settings
-- =================================================================================
\set default_settings '{"name": "Alpha A.Ş.", "logo_updated_at": null, "default_currency": "TRY", "default_vat_rate": 20, "locale": "tr-TR", "time_zone": "Europe/Istanbul", "deal_stages": [{"key": "lead", "name": "Aday", "probability": 10, "outcome": "open"}, {"key": "qualified", "name": "Nitelikli", "probability": 25, "outcome": "open"}, {"key": "proposal", "name": "Teklif", "probability": 50, "outcome": "open"}, {"key": "negotiation", "name": "Pazarlık", "probability": 75, "outcome": "open"}, {"key": "won", "name": "Kazanıldı", "probability": 100, "outcome": "won"}, {"key": "lost", "name": "Kaybedildi", "probability": 0, "outcome": "lost"}], "task_types": ["call", "meeting", "email", "visit", "other"], "quote_number_pattern": "TKL-{YYYY}-{SEQ:5}", "quote_validity_days": 30}'

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.get_organization_settings() as r_user_settings \gset
select tests.reset_role();
select is(:'r_user_settings'::jsonb #- '{settings,updated_at}', jsonb_build_object('success', true, 'settings', :'default_settings'::jsonb),
  'get_organization_settings: a plain member reads the defaults (TRY, 20, tr-TR, Europe/Istanbul, 6 stages, TKL-{YYYY}-{SEQ:5}, 30 days)');
select is((select array_agg((s ->> 'key') || ':' || (s ->> 'outcome') order by n)
             from jsonb_array_elements(:'r_user_settings'::jsonb -> 'settings' -> 'deal_stages') with ordinality e (s, n)),
  array['lead:open', 'qualified:open', 'proposal:open', 'negotiation:open', 'won:won', 'lost:lost'],
  'get_organization_settings: six deal stages in order, one won and one lost');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_organization_settings() as r_admin_settings \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_super');
select public.get_organization_settings() as r_super_settings \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.get_organization_settings() as r_beta_settings \gset
select tests.reset_role();
select is(:'r_admin_settings'::jsonb, :'r_user_settings'::jsonb, 'get_organization_settings: the admin reads the same');
select is(:'r_super_settings'::jsonb, :'r_user_settings'::jsonb, 'get_organization_settings: the super admin bound to alpha reads alpha''s');
select is(:'r_beta_settings'::jsonb #- '{settings,updated_at}',
  jsonb_build_object('success', true, 'settings', :'default_settings'::jsonb || '{"name": "Beta Ltd."}'),
  'get_organization_settings: beta''s admin reads beta''s settings');

-- =================================================================================
-- update_organization_settings
-- =================================================================================
select private.settings_json(:'alpha') as alpha_before \gset

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.update_organization_settings('{"default_currency": "USD"}') as r \gset
select tests.reset_role();
select is(:'r'::jsonb, :'admin_required'::jsonb, 'update_organization_settings: a plain member gets admin_required');
select is(private.settings_json(:'alpha'), :'alpha_before'::jsonb, 'update_organization_settings: nothing changed for the plain member');

-- The admin changes every field at once.
\set full_settings '{"name": "Alpha Teknoloji A.Ş.", "logo_updated_at": null, "default_currency": "EUR", "default_vat_rate": 18, "locale": "en-US", "time_zone": "Europe/Berlin", "deal_stages": [{"key": "new", "name": "Yeni", "probability": 5, "outcome": "open"}, {"key": "signed", "name": "İmzalandı", "probability": 100, "outcome": "won"}, {"key": "dropped", "name": "Düştü", "probability": 0, "outcome": "lost"}], "task_types": ["call", "demo"], "quote_number_pattern": "Q-{SEQ:4}", "quote_validity_days": 45}'
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_organization_settings(:'full_settings'::jsonb - 'logo_updated_at' || '{"name": "  Alpha Teknoloji A.Ş.  "}') as r \gset
select tests.reset_role();
select is(:'r'::jsonb #- '{settings,updated_at}', jsonb_build_object('success', true, 'settings', :'full_settings'::jsonb),
  'update_organization_settings: the admin changes every field; the answer carries the new settings');
select is(private.settings_json(:'alpha') - 'updated_at', :'full_settings'::jsonb,
  'update_organization_settings: every field is stored');
select is((select name from private.organizations where id = :'alpha'), 'Alpha Teknoloji A.Ş.',
  'update_organization_settings: the name (trimmed) is the organization''s name too');
select is((select updated_by from private.organization_settings where organization_id = :'alpha'), :'alpha_admin'::uuid,
  'update_organization_settings: updated_by is the admin');
select is((select array(select jsonb_array_elements_text(details -> 'fields') order by 1) from private.audit_log
            where organization_id = :'alpha' and actor_id = :'alpha_admin' and action = 'settings.updated'
              and target_type = 'organization' and target_id = :'alpha'),
  array['deal_stages', 'default_currency', 'default_vat_rate', 'locale', 'name',
        'quote_number_pattern', 'quote_validity_days', 'task_types', 'time_zone'],
  'update_organization_settings: one settings.updated audit row naming the changed fields');

-- A partial change leaves the other fields alone.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.update_organization_settings('{"default_vat_rate": 0}') ->> 'success' as r \gset
select tests.reset_role();
select is(private.settings_json(:'alpha') - 'updated_at', :'full_settings'::jsonb || '{"default_vat_rate": 0}',
  'update_organization_settings: VAT 0, nothing else changed');

-- Invalid values: the whole change is refused, naming the field.
select private.settings_json(:'alpha') as alpha_before \gset
select count(*) as audits_before from private.audit_log where action = 'settings.updated' \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select array_agg(coalesce(a.answer ->> 'code', a.answer ->> 'sqlstate', 'success') || ':' || coalesce(a.answer ->> 'field', '-') order by n) as bad_settings
  from unnest(array[
    '{"default_currency": "try"}', '{"default_currency": "TRYX"}', '{"default_currency": 949}',
    '{"default_vat_rate": 101}', '{"default_vat_rate": "20"}', '{"default_vat_rate": -1}',
    '{"locale": "de-DE"}', '{"time_zone": "Mars/Base"}', '{"time_zone": null}',
    -- no won stage; duplicate keys; probability 150; one stage; no lost stage; an unknown outcome; not an array
    '{"deal_stages": [{"key": "a", "name": "A", "probability": 10, "outcome": "open"}, {"key": "b", "name": "B", "probability": 0, "outcome": "lost"}]}',
    '{"deal_stages": [{"key": "a", "name": "A", "probability": 100, "outcome": "won"}, {"key": "a", "name": "B", "probability": 0, "outcome": "lost"}]}',
    '{"deal_stages": [{"key": "a", "name": "A", "probability": 150, "outcome": "won"}, {"key": "b", "name": "B", "probability": 0, "outcome": "lost"}]}',
    '{"deal_stages": [{"key": "a", "name": "A", "probability": 100, "outcome": "won"}]}',
    '{"deal_stages": [{"key": "a", "name": "A", "probability": 10, "outcome": "open"}, {"key": "b", "name": "B", "probability": 100, "outcome": "won"}]}',
    '{"deal_stages": [{"key": "a", "name": "A", "probability": 100, "outcome": "won"}, {"key": "b", "name": "B", "probability": 0, "outcome": "maybe"}]}',
    '{"deal_stages": "lead"}',
    '{"task_types": []}', '{"task_types": [1, 2]}', '{"task_types": ["call", "  "]}', '{"task_types": "call"}',
    '{"quote_number_pattern": "TKL-{YYYY}"}', '{"quote_number_pattern": "Q-{SEQ:0}"}',
    '{"quote_validity_days": 0}', '{"quote_validity_days": 1.5}', '{"quote_validity_days": 366}', '{"quote_validity_days": "30"}',
    '{"name": "   "}', jsonb_build_object('name', repeat('x', 201))::text, '{"logo_path": "logos/alpha.png"}',
    '{"color": "red"}',
    '{"name": "Geçerli Ad", "default_currency": "try"}',
    '[]'
  ]::jsonb[]) with ordinality u (changes, n),
  lateral (select pg_temp.update_settings(u.changes) as answer) a \gset
select public.update_organization_settings('{"default_currency": "try"}') as r_bad_currency \gset
select tests.reset_role();
select is(:'bad_settings'::text[], array[
    'invalid_setting:default_currency', 'invalid_setting:default_currency', 'invalid_setting:default_currency',
    'invalid_setting:default_vat_rate', 'invalid_setting:default_vat_rate', 'invalid_setting:default_vat_rate',
    'invalid_setting:locale', 'invalid_setting:time_zone', 'invalid_setting:time_zone',
    'invalid_setting:deal_stages', 'invalid_setting:deal_stages', 'invalid_setting:deal_stages',
    'invalid_setting:deal_stages', 'invalid_setting:deal_stages', 'invalid_setting:deal_stages',
    'invalid_setting:deal_stages',
    'invalid_setting:task_types', 'invalid_setting:task_types', 'invalid_setting:task_types', 'invalid_setting:task_types',
    'invalid_setting:quote_number_pattern', 'invalid_setting:quote_number_pattern',
    'invalid_setting:quote_validity_days', 'invalid_setting:quote_validity_days', 'invalid_setting:quote_validity_days',
    'invalid_setting:quote_validity_days',
    'invalid_setting:name', 'invalid_setting:name', 'invalid_setting:logo_path',
    'invalid_setting:color',
    'invalid_setting:default_currency',
    'invalid_input:-'],
  'update_organization_settings: every invalid value gets invalid_setting with its field (a non-object: invalid_input)');
select is(:'r_bad_currency'::jsonb,
  '{"success": false, "error": "Invalid setting: default_currency", "code": "invalid_setting", "field": "default_currency"}'::jsonb,
  'update_organization_settings: the exact failure answer');
select is(private.settings_json(:'alpha'), :'alpha_before'::jsonb,
  'update_organization_settings: after the refusals nothing changed (not even the valid name sent alongside)');
select is((select count(*) from private.audit_log where action = 'settings.updated'), :'audits_before'::bigint,
  'update_organization_settings: refusals write no audit row');

-- The super admin bound to alpha.
select tests.authenticate_as(:'super', :'s_super');
select public.update_organization_settings('{"quote_validity_days": 60}') as r \gset
select tests.reset_role();
select is((:'r'::jsonb -> 'settings' -> 'quote_validity_days')::text || '|' || (select quote_validity_days || '/' || updated_by
             from private.organization_settings where organization_id = :'alpha'),
  '60|60/' || :'super', 'update_organization_settings: the super admin bound to alpha changes alpha''s settings');
select ok(exists (select 1 from private.audit_log where organization_id = :'alpha' and actor_id = :'super'
                   and action = 'settings.updated' and details = '{"fields": ["quote_validity_days"],
                                                     "changes": {"quote_validity_days": {"old": 45, "new": 60}}}'),
  'update_organization_settings: the super admin''s change is audited under their name');

-- beta's admin changes beta only.
select private.settings_json(:'alpha') as alpha_before \gset
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.update_organization_settings('{"name": "Beta Holding", "default_currency": "USD"}') as r \gset
select tests.reset_role();
select is((select o.name || '/' || s.default_currency from private.organizations o join private.organization_settings s
             on s.organization_id = o.id where o.id = :'beta'),
  'Beta Holding/USD', 'update_organization_settings: beta''s admin changes beta''s settings');
select is(private.settings_json(:'alpha'), :'alpha_before'::jsonb, 'update_organization_settings: alpha''s are untouched');

-- A stage without a probability is no usable stage; a validity beyond integer range is
-- an invalid value like any other (an answer, not a database error).
select private.settings_json(:'alpha') as alpha_before \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select pg_temp.update_settings('{"deal_stages": [{"key": "a", "name": "A", "outcome": "won"}, {"key": "b", "name": "B", "probability": 0, "outcome": "lost"}]}') as r_no_probability \gset
select pg_temp.update_settings('{"quote_validity_days": 99999999999}') as r_huge_days \gset
select tests.reset_role();
select is(:'r_no_probability'::jsonb,
  '{"success": false, "error": "Invalid setting: deal_stages", "code": "invalid_setting", "field": "deal_stages"}'::jsonb,
  'update_organization_settings: a stage without a probability is refused');
select is(:'r_huge_days'::jsonb,
  '{"success": false, "error": "Invalid setting: quote_validity_days", "code": "invalid_setting", "field": "quote_validity_days"}'::jsonb,
  'update_organization_settings: a validity of 99999999999 days is refused as invalid_setting');
select is(private.settings_json(:'alpha'), :'alpha_before'::jsonb, 'update_organization_settings: and nothing changed');

select * from finish();
rollback;
