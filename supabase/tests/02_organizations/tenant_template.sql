-- Provisioning and the tenant template: slug and identifier guards, create_organization,
-- create_organization_tables, template migrations (versions, idempotence, drift, failure).
begin;
select plan(105);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- ---------------------------------------------------------------------------------
-- Fixtures: a super admin; alpha and beta provisioned; delta and epsilon registered only.
-- ---------------------------------------------------------------------------------
\o /dev/null
select tests.create_user('root@platform.test', 'super_admin', 'Sena', 'Kök') as sa \gset
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_organization('delta', 'Delta') as delta \gset
select tests.create_organization('epsilon', 'Epsilon') as epsilon \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.create_user('admin@beta.test', 'admin', 'Bora', 'Tan') as beta_admin \gset
select tests.create_user('admin@delta.test', 'user', 'Deniz', 'Ak') as delta_admin \gset
select tests.create_user('user@delta.test', 'user', 'Duru', 'Er') as delta_user \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'delta_admin', :'delta', 'admin');
select tests.add_member(:'delta_user', :'delta', 'user');
select gen_random_uuid() as s_sa, gen_random_uuid() as s_alpha_admin, gen_random_uuid() as s_alpha_user,
       gen_random_uuid() as s_beta_admin, gen_random_uuid() as s_delta_admin, gen_random_uuid() as s_delta_user,
       gen_random_uuid() as s_unbound \gset
select private.latest_template_version() as v1 \gset

-- Sessions bound once, as the app does after sign-in.
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin');
select public.bind_session_organization(:'alpha');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_alpha_user');
select public.bind_session_organization(:'alpha');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta_admin');
select public.bind_session_organization(:'beta');
select tests.reset_role();
select tests.authenticate_as(:'delta_user', :'s_delta_user');
select public.bind_session_organization(:'delta');
select tests.reset_role();
\o
select is((select array_agg(p.email order by p.email) from private.session_organizations b join private.profiles p on p.id = b.user_id),
  array['admin@alpha.test', 'admin@beta.test', 'user@alpha.test', 'user@delta.test'], 'the fixture sessions are bound');

-- ---------------------------------------------------------------------------------
-- validate_organization_slug (spec section 5)
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.validate_organization_slug(text)', 'execute'),
  'anon may not execute validate_organization_slug');
select ok(has_function_privilege('authenticated', 'public.validate_organization_slug(text)', 'execute'),
  'authenticated may execute validate_organization_slug');
select tests.act_as_anon();
select throws_ok($$select public.validate_organization_slug('demo')$$, '42501', null,
  'anon calling validate_organization_slug is refused by the database');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_alpha_user');
select is(public.validate_organization_slug('demo'), '{"success": true, "valid": true}'::jsonb, 'demo is a valid slug');
select is(public.validate_organization_slug('Acme-2') ->> 'valid', 'true', 'Acme-2 is valid (letters, digit, hyphen)');
select is(public.validate_organization_slug('a_b') ->> 'valid', 'true', 'a_b is valid (underscore)');
select is(public.validate_organization_slug(repeat('a', 30)) ->> 'valid', 'true', '30 characters are still valid');
select is(public.validate_organization_slug(''),
  '{"success": true, "valid": false, "code": "invalid_slug", "error": "Organization slug may contain only letters, digits, underscore and hyphen (at most 30), and no SQL words."}'::jsonb,
  'an empty slug is invalid, with the exact message');
select is(public.validate_organization_slug(repeat('a', 31)) ->> 'valid', 'false', '31 characters are too many');
select is(public.validate_organization_slug('a b') ->> 'valid', 'false', 'a space is not allowed');
select is(public.validate_organization_slug('şirket') ->> 'valid', 'false', 'non-ASCII letters are not allowed');
select is(public.validate_organization_slug('x;drop') ->> 'valid', 'false', 'a semicolon is not allowed');
select is(public.validate_organization_slug('x"y') ->> 'valid', 'false', 'a double quote is not allowed');
select is(public.validate_organization_slug('drop') ->> 'valid', 'false', 'the SQL word drop is not allowed');
select is(public.validate_organization_slug('select_x') ->> 'valid', 'false', 'a slug containing the word select is not allowed');
select is(public.validate_organization_slug('a.b') ->> 'valid', 'false', 'a dot is not allowed');
select is(public.validate_organization_slug(null) ->> 'valid', 'false', 'a null slug is invalid');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- private.is_safe_identifier: the table-name guard (spec section 5)
-- ---------------------------------------------------------------------------------
select is(private.is_safe_identifier('customers'), true, 'customers is a safe identifier');
select is(private.is_safe_identifier('document_templates'), true, 'underscores are allowed');
select is(private.is_safe_identifier(repeat('a', 50)), true, '50 characters are allowed');
select is(private.is_safe_identifier(repeat('a', 51)), false, '51 characters are refused');
select is(private.is_safe_identifier('Customers'), false, 'uppercase is refused');
select is(private.is_safe_identifier('drop'), false, 'the word drop is refused');
select is(private.is_safe_identifier('my_select_tbl'), false, 'the word select between underscores is refused');
select is(private.is_safe_identifier('old_delete'), false, 'the word delete is refused');
select is(private.is_safe_identifier('1abc'), false, 'a leading digit is refused (not a plain SQL identifier)');
select is(private.is_safe_identifier('cust-omers'), false, 'a hyphen is refused');
select is(private.is_safe_identifier('customers; drop table x'), false, 'statement text is refused');
select is(private.is_safe_identifier(null), false, 'null is refused (false, not null)');

-- ---------------------------------------------------------------------------------
-- create_organization: super admin only
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.create_organization('gamma', 'Gamma')$$, '42501', null,
  'anon calling create_organization is refused by the database');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_alpha_user');
select is(public.create_organization('gamma', 'Gamma'),
  '{"success": false, "error": "Admin privileges required", "code": "super_admin_required"}'::jsonb,
  'a plain user cannot create an organization');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_alpha_admin');
select is(public.create_organization('gamma', 'Gamma') ->> 'error', 'Admin privileges required',
  'an organization admin cannot create an organization');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta_admin');
select is(public.create_organization('gamma', 'Gamma') ->> 'error', 'Admin privileges required',
  'a global admin cannot create an organization');
select tests.reset_role();
select is((select count(*)::int from private.organizations where lower(slug) = 'gamma'), 0,
  'the refused calls created nothing');

select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select public.create_organization('gamma', '  Gamma A.Ş.  ') as gamma_result \gset
select is((:'gamma_result'::jsonb) ->> 'success', 'true', 'a super admin creates an organization');
select is((:'gamma_result'::jsonb) ->> 'message', 'Organization created', 'with the success message');
select is(public.create_organization('x;drop', 'Bad'),
  '{"success": false, "code": "invalid_slug", "error": "Organization slug may contain only letters, digits, underscore and hyphen (at most 30), and no SQL words."}'::jsonb,
  'an invalid slug is refused with the exact message');
select is(public.create_organization('GAMMA', 'Gamma again'),
  '{"success": false, "code": "slug_taken", "error": "Organization slug is already in use"}'::jsonb,
  'a slug differing only in case is already in use');
select is(public.create_organization('Alpha', 'Alpha again') ->> 'code', 'slug_taken',
  'an existing organization''s slug in another case is taken');
select is(public.create_organization('injected', 'Robert''); drop table private.profiles; --') ->> 'success', 'true',
  'a name with SQL text is accepted as plain text');
select tests.reset_role();

select id as gamma, schema_name as gamma_schema from private.organizations where slug = 'gamma' \gset
select is((select name from private.organizations where id = :'gamma'), 'Gamma A.Ş.', 'the registry row has the trimmed name');
select is((:'gamma_result'::jsonb) -> 'organization' ->> 'id', :'gamma', 'the answer names the created organization');
select has_schema(:'gamma_schema', 'the organization has its own schema');
select tables_are(:'gamma_schema',
  array['customers', 'contacts', 'deals', 'quotes', 'quote_items', 'contracts', 'documents', 'tasks', 'notes', 'document_templates',
        'field_history', 'saved_views', 'deal_contacts', 'deal_stage_history', 'deal_stage_totals', 'deal_forecast_totals',
        'task_due_totals', 'document_versions', 'products', 'imports', 'import_batches', 'import_rows', 'import_mappings'],
  'the schema has exactly the twenty-three template tables');
select is((select template_version from private.organizations where id = :'gamma'), private.latest_template_version(),
  'the organization is at the latest template version');
select is(((:'gamma_result'::jsonb) -> 'organization' ->> 'template_version')::int, private.latest_template_version(),
  'the answer reports the latest template version');
select is((select count(*)::int from private.tenant_migrations where organization_id = :'gamma'), private.latest_template_version(),
  'every template step is recorded for the organization');
select is((select array_agg(key order by key) from private.organization_roles where organization_id = :'gamma'),
  array['admin', 'manager', 'sales', 'user', 'viewer'], 'the five default roles exist');
select is((select default_currency || ' ' || default_vat_rate::int from private.organization_settings where organization_id = :'gamma'),
  'TRY 20', 'the settings row has TRY and 20 percent KDV');
select is((select count(*)::int from private.audit_log
            where organization_id = :'gamma' and action = 'organization.created' and actor_id = :'sa'
              and target_id = :'gamma'), 1, 'the creation is in the audit log, by the super admin');
select is((select name from private.organizations where slug = 'injected'), 'Robert''); drop table private.profiles; --',
  'the name with SQL text is stored literally');
select isnt(to_regclass('private.profiles'), null, 'private.profiles still exists');

-- ---------------------------------------------------------------------------------
-- create_organization_tables
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.create_organization_tables('delta')$$, '42501', null,
  'anon calling create_organization_tables is refused by the database');
select tests.reset_role();
select tests.authenticate_as(:'delta_user', :'s_delta_user');
select is(public.create_organization_tables('delta'),
  '{"success": false, "error": "Admin privileges required", "code": "admin_required"}'::jsonb,
  'a plain member cannot provision their organization');
select tests.reset_role();
select tests.authenticate_as(:'delta_admin', :'s_unbound');
select is(public.create_organization_tables('delta') ->> 'error', 'Admin privileges required',
  'an admin whose session is not bound is refused');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta_admin');
select is(public.create_organization_tables('delta') ->> 'error', 'Admin privileges required',
  'the admin of another organization is refused');
select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select is(public.create_organization_tables('no-such-org') ->> 'error', 'Admin privileges required',
  'an unknown slug is refused');
select tests.reset_role();
select is((select template_version from private.organizations where id = :'delta'), 0,
  'the refused calls provisioned nothing');
select is(private.tenant_schema(:'delta'), null, 'delta still has no schema');

select tests.reset_role();
select tests.authenticate_as(:'delta_admin', :'s_delta_admin');
select public.bind_session_organization(:'delta') ->> 'success' as delta_bound \gset
select is(:'delta_bound'::text, 'true', 'delta''s admin binds a session to delta');
select public.create_organization_tables('delta') as delta_result \gset
select is((:'delta_result'::jsonb) ->> 'success', 'true', 'the admin of the bound organization provisions it');
select is((:'delta_result'::jsonb) -> 'tables',
  '["contacts", "contracts", "customers", "deal_contacts", "deal_forecast_totals", "deal_stage_history", "deal_stage_totals", "deals", "document_templates", "document_versions", "documents", "field_history", "import_batches", "import_mappings", "import_rows", "imports", "notes", "products", "quote_items", "quotes", "saved_views", "task_due_totals", "tasks"]'::jsonb,
  'the answer lists the twenty-three tables');
select is(public.create_organization_tables('delta') ->> 'template_version', (:'delta_result'::jsonb) ->> 'template_version',
  'a second call by the admin answers the same version');
select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select public.create_organization_tables('epsilon') as epsilon_result \gset
select is(((:'epsilon_result'::jsonb) ->> 'template_version')::int, :v1,
  'a super admin provisions any organization, to the latest version');
select is(public.create_organization_tables('EPSILON'), :'epsilon_result'::jsonb,
  'calling again is idempotent (same answer, no error)');
select tests.reset_role();
select is((select template_version from private.organizations where id = :'delta'), :v1, 'delta is at the latest version');
select is((:'delta_result'::jsonb) ->> 'schema_name', private.tenant_schema(:'delta'), 'the answer names delta''s schema');
select is((select count(*)::int from private.tenant_migrations where organization_id = :'epsilon'), :v1,
  'the repeated call recorded no extra migrations');
select is((select count(*)::int from private.audit_log where organization_id = :'delta' and action = 'organization.tables_provisioned'),
  2, 'each provisioning call is audited');

-- ---------------------------------------------------------------------------------
-- Template migration: a new step reaches every organization, once
-- ---------------------------------------------------------------------------------
select :v1 + 1 as v2 \gset
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
insert into private.tenant_template_steps (version, description, ddl)
values (:v2, 'Deal win score', 'alter table deals add column win_score integer');
select is(private.latest_template_version(), :v2, 'the new step is the latest version');
select is((select count(*)::int from private.organizations where template_version = :v2), 0,
  'no organization has the new version before migrating');
select ok(not has_function_privilege('authenticated', 'private.migrate_tenant(uuid)', 'execute'),
  'authenticated may not execute migrate_tenant');
select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select throws_ok(format('select private.migrate_tenant(%L)', :'alpha'), '42501', null,
  'not even a super admin can run a migration through the API');
select tests.reset_role();

-- A grant slipped in by hand is removed by the next migration's sealing.
select format('grant select on %I.deals to authenticated', :'alpha_schema') as leak \gset
:leak;
\o /dev/null
select private.migrate_tenant(id) from private.organizations order by created_at, id;
\o
select ok(not has_table_privilege('authenticated', format('%I.deals', :'alpha_schema'), 'select'),
  'migrating re-seals the schema (the hand-made grant is gone)');
select is((select count(*)::int from private.organizations where template_version <> :v2), 0,
  'every organization is at the new version');
select is((select count(*)::int from private.tenant_migrations where version = :v2),
  (select count(*)::int from private.organizations), 'the new version is recorded once per organization');
select has_column(:'alpha_schema', 'deals', 'win_score', 'alpha.deals has the new column');
select has_column(:'gamma_schema', 'deals', 'win_score', 'gamma.deals has the new column');

select lives_ok(format('select private.migrate_tenant(%L)', :'alpha'), 'migrating again does not fail');
select is(private.migrate_tenant(:'beta'), :v2, 'migrating again answers the same version');
select is((select count(*)::int from private.tenant_migrations where version = :v2),
  (select count(*)::int from private.organizations), 'migrating again records nothing new');

select is((select count(*)::int from private.tenant_schema_drift()), (select count(*)::int from private.organizations),
  'the drift check covers every provisioned organization');
select is((select count(*)::int from private.tenant_schema_drift() where not matches_template), 0,
  'every organization matches the template');

-- An organization created after the template change starts at the new version.
select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select public.create_organization('zeta', 'Zeta') -> 'organization' ->> 'id' as zeta \gset
select tests.reset_role();
select is((select template_version from private.organizations where id = :'zeta'), :v2,
  'a new organization starts at the new version');
select is((select matches_template from private.tenant_schema_drift() where organization_id = :'zeta'), true,
  'a new organization matches the template');

-- A change made by hand shows up as drift for that organization only.
select format('alter table %I.deals add column hand_made text', :'alpha_schema') as hand_change \gset
select lives_ok(:'hand_change', 'a column is added to alpha by hand');
select is((select array_agg(slug) from private.tenant_schema_drift() where not matches_template), array['alpha'],
  'the drift check reports alpha and only alpha');
select is((select matches_template from private.tenant_schema_drift() where organization_id = :'beta'), true,
  'beta still matches');
select format('alter table %I.deals drop column hand_made', :'alpha_schema') as hand_revert \gset
select lives_ok(:'hand_revert', 'the hand-made column is removed again');
select is((select count(*)::int from private.tenant_schema_drift() where not matches_template), 0,
  'alpha matches the template again');

-- A step that fails raises, changes nothing and leaves the version where it was.
select :v2 + 1 as v3 \gset
insert into private.tenant_template_steps (version, description, ddl)
values (:v3, 'Broken step', 'alter table deals add column half_done integer; alter table no_such_table add column x integer');
select throws_ok(format('select private.migrate_tenant(%L)', :'beta'), '42P01', null,
  'a failing step raises from migrate_tenant');
select is((select template_version from private.organizations where id = :'beta'), :v2, 'beta stays at the previous version');
select is((select count(*)::int from private.tenant_migrations where organization_id = :'beta' and version = :v3), 0,
  'the failed step is not recorded');
select hasnt_column(:'beta_schema', 'deals', 'half_done', 'the failed step''s first statement was rolled back');
delete from private.tenant_template_steps where version = :v3;
select is(private.migrate_tenant(:'beta'), :v2, 'once the step is removed, migrating beta works again');

-- ---------------------------------------------------------------------------------
-- The registry refuses slugs with SQL words, whoever inserts
-- ---------------------------------------------------------------------------------
select throws_ok($$insert into private.organizations (slug, name) values ('drop', 'X')$$, '23514', null,
  'a slug that is a forbidden word violates a check');
select throws_ok($$insert into private.organizations (slug, name) values ('my-select', 'X')$$, '23514', null,
  'a forbidden word between hyphens violates a check');
select throws_ok($$insert into private.organizations (slug, name) values ('DELETE', 'X')$$, '23514', null,
  'a forbidden word in capitals violates a check');
select throws_ok($$insert into private.organizations (slug, name) values ('x"y', 'X')$$, '23514', null,
  'a quote in the slug violates a check');
select lives_ok($$insert into private.organizations (slug, name) values ('dropbox', 'X')$$,
  'a word merely starting with drop is a valid slug');
select throws_ok($$insert into private.organizations (slug, name) values ('BETA', 'X')$$, '23505', null,
  'a slug differing only in case violates the unique index');

-- The registry never loses track of a tenant schema, and no two organizations get
-- schema names told apart by the timestamp alone.
create function pg_temp.outcome(p_sql text) returns text language plpgsql as $$
begin
  execute p_sql;
  return 'done';
exception when others then
  return 'refused';
end;
$$;
select pg_temp.outcome(format('update private.organizations set slug = %L where id = %L', 'alpha-renamed', :'alpha')) as renamed \gset
select ok(:'renamed'::text = 'refused' or private.tenant_schema(:'alpha') is not null,
  'renaming a provisioned organization''s slug does not orphan its schema');
select tests.reset_role();
select tests.authenticate_as(:'sa', :'s_sa');
select is(public.create_organization('acme-co', 'Acme') ->> 'success', 'true', 'acme-co is created');
select is(public.create_organization('acme_co', 'Acme bis') ->> 'code', 'slug_taken',
  'acme_co would share acme-co''s schema name up to the timestamp, so it is taken');
select tests.reset_role();

select * from finish();
rollback;
