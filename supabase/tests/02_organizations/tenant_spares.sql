-- Spare organization schemas (issue 28): built ahead from the template, sealed and invisible
-- until an organization claims one by a rename; a claimed spare is exactly a fresh build; spares
-- of an older template are migrated; nobody but the database's own jobs builds or takes one.
begin;
set local client_min_messages = warning;
select plan(61);
select tests.send_request_tokens();

\o /dev/null
select tests.create_user('root@platform.test', 'super_admin', 'Sena', 'Kök') as sa \gset
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.create_user('admin@beta.test', 'user', 'Bora', 'Tan') as beta_admin \gset
select tests.add_member(:'beta_admin', :'beta', 'admin');
select o.schema_name as alpha_schema from private.organizations o where o.id = :'alpha' \gset
\o

-- ---------------------------------------------------------------------------------
-- The pool: built by the refill, up to its size, once at a time.
-- ---------------------------------------------------------------------------------
select is((select count(*)::int from private.tenant_spares), 0, 'a fresh database has no spare');
select is(private.refill_tenant_spares(1), 1, 'refill with a limit of 1 builds one spare');
select is(private.refill_tenant_spares(), private.tenant_spare_pool_size() - 1, 'refill builds the rest of the pool');
select is(private.refill_tenant_spares(), 0, 'a full pool builds nothing');
select is((select count(*)::int from private.tenant_spares), private.tenant_spare_pool_size(), 'the pool holds its size');
select ok((select bool_and(s.template_version = private.latest_template_version()) from private.tenant_spares s),
  'every spare is at the newest template version');
select ok((select bool_and(exists (select 1 from pg_namespace n where n.nspname = s.schema_name)) from private.tenant_spares s),
  'every registered spare has its schema');
select ok((select bool_and(s.schema_name ~ '^org_pool_[0-9a-f]{12}_spare$') from private.tenant_spares s),
  'spares are named org_pool_<hex>_spare, a name no organization''s schema can have (those end in digits)');
select throws_ok($$insert into private.tenant_spares (schema_name, template_version) values ('org_demo_1700000000000', 1)$$,
  '23514', null, 'an organization''s schema name cannot be registered as a spare');
select min(schema_name) as spare_one from private.tenant_spares \gset
select is(private.tenant_schema_signature(:'spare_one'), private.tenant_schema_signature(:'alpha_schema'),
  'a spare has the structure of an organization built from the template');

-- ---------------------------------------------------------------------------------
-- Sealed and invisible before it is claimed: no privilege for any API role, no finding.
-- ---------------------------------------------------------------------------------
select is((select count(*)::int from private.tenant_security_findings()), 0, 'the security checks find nothing with spares in the pool');
select ok(not has_schema_privilege('anon', :'spare_one', 'usage') and not has_schema_privilege('authenticated', :'spare_one', 'usage'),
  'neither anon nor authenticated may use a spare''s schema');
select is((select count(*)::int from pg_class c where c.relnamespace = :'spare_one'::regnamespace and c.relkind = 'r' and not c.relrowsecurity), 0,
  'row level security is on for every table of a spare');
select is((select count(*)::int from pg_class c where c.relnamespace = :'spare_one'::regnamespace and c.relacl is not null), 0,
  'no relation of a spare has any grant');
select is(private.schema_organization(:'spare_one'), null, 'a spare belongs to no organization');
select ok(not exists (select 1 from private.organizations o where private.tenant_schema(o.id) = :'spare_one'),
  'no organization resolves to a spare');

-- Every identity is refused the spares and the functions that build, migrate or claim them.
select tests.act_as_anon();
select throws_ok(format('select count(*) from %I.customers', :'spare_one'), '42501', null, 'anon cannot read a spare''s table');
select throws_ok($$select private.refill_tenant_spares()$$, '42501', null, 'anon cannot refill the pool');
select throws_ok($$select * from private.tenant_spares$$, '42501', null, 'anon cannot list the spares');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user');
select throws_ok(format('select count(*) from %I.customers', :'spare_one'), '42501', null, 'a sales user cannot read a spare''s table');
select throws_ok(format('insert into %I.customers (name, owner_id, created_by) values (''x'', %L, %L)', :'spare_one', :'alpha_user', :'alpha_user'),
  '42501', null, 'a sales user cannot write into a spare');
select throws_ok($$select private.refill_tenant_spares()$$, '42501', null, 'a sales user cannot refill the pool');
select throws_ok(format('select private.claim_tenant_spare(%L, %L)', :'alpha', 'org_alpha_1'), '42501', null, 'a sales user cannot claim a spare');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin');
select throws_ok(format('select count(*) from %I.customers', :'spare_one'), '42501', null, 'an organization admin cannot read a spare''s table');
select throws_ok($$select private.build_tenant_spare()$$, '42501', null, 'an organization admin cannot build a spare');
select throws_ok($$select private.migrate_tenant_spares()$$, '42501', null, 'an organization admin cannot migrate the spares');
select is(public.create_organization('gamma', 'Gamma') ->> 'code', 'super_admin_required', 'an organization admin cannot create an organization (and claim a spare)');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin');
select throws_ok(format('select count(*) from %I.customers', :'spare_one'), '42501', null, 'another organization''s admin cannot read a spare''s table');
select throws_ok(format('select private.apply_tenant_steps(%L, 0)', :'spare_one'), '42501', null, 'another organization''s admin cannot run template steps');
select is(public.create_organization('gamma', 'Gamma') ->> 'code', 'super_admin_required', 'another organization''s admin cannot create one either');
select tests.reset_role();
select tests.authenticate_as(:'sa');
select throws_ok(format('select count(*) from %I.customers', :'spare_one'), '42501', null, 'a super admin cannot read a spare''s table through the API role either');
select throws_ok($$select private.refill_tenant_spares()$$, '42501', null, 'a super admin cannot call the refill directly (the database''s job does)');
select tests.reset_role();
select is((select count(*)::int from private.tenant_spares), private.tenant_spare_pool_size(), 'the refused calls took no spare');
select is((select count(*)::int from private.organizations where slug = 'gamma'), 0, 'and created no organization');

-- ---------------------------------------------------------------------------------
-- Claimed by create_organization: a rename, exactly a fresh build.
-- ---------------------------------------------------------------------------------
select s.schema_name as next_spare from private.tenant_spares s order by s.template_version desc, s.created_at, s.schema_name limit 1 \gset
select tests.authenticate_as(:'sa');
select public.create_organization('gamma', 'Gamma Yazılım') as gamma_answer \gset
select tests.reset_role();
select is((:'gamma_answer'::jsonb) ->> 'success', 'true', 'a super admin creates an organization');
select o.id as gamma, o.schema_name as gamma_schema from private.organizations o where o.slug = 'gamma' \gset
select ok(not exists (select 1 from pg_namespace where nspname = :'next_spare'), 'the spare''s name is gone');
select ok(not exists (select 1 from private.tenant_spares where schema_name = :'next_spare'), 'and it left the pool');
select is((select count(*)::int from private.tenant_spares), private.tenant_spare_pool_size() - 1, 'the pool is one spare short until the next refill');
select is(private.tenant_schema(:'gamma'), :'gamma_schema', 'the organization''s schema is provisioned');
select is((select template_version from private.organizations where id = :'gamma'), private.latest_template_version(),
  'at the newest template version');
select is(array(select version from private.tenant_migrations where organization_id = :'gamma' order by version),
  array(select version from private.tenant_template_steps order by version), 'every template step is recorded for it');
select is(private.tenant_schema_signature(:'gamma_schema'), private.tenant_schema_signature(:'alpha_schema'),
  'the claimed schema is exactly one built from the template');
select is((select count(*)::int from private.tenant_security_findings()), 0, 'and it is sealed');
select ok((select matches_template from private.tenant_schema_drift() where organization_id = :'gamma'), 'the drift check agrees');

-- A refused first admin undoes the claim with the organization.
select count(*)::int as spares_before from private.tenant_spares \gset
select tests.authenticate_as(:'sa');
select is(public.create_organization('delta', 'Delta', 'basic', 'admin@alpha.test', 'Gizli.1234', 'Dora', 'Ak') ->> 'code', 'email_in_use',
  'a first admin whose email is in use refuses the creation');
select tests.reset_role();
select is((select count(*)::int from private.tenant_spares), :spares_before, 'the spare went back to the pool');
select ok((select bool_and(exists (select 1 from pg_namespace n where n.nspname = s.schema_name)) from private.tenant_spares s),
  'under its own name');

-- A registered spare whose schema was dropped by hand is forgotten, the next one is taken.
select s.schema_name as dropped_spare from private.tenant_spares s order by s.template_version desc, s.created_at, s.schema_name limit 1 \gset
select format('drop schema %I cascade', :'dropped_spare') as drop_sql \gset
:drop_sql;
select tests.authenticate_as(:'sa');
select is(public.create_organization('epsilon', 'Epsilon') ->> 'success', 'true', 'creation still works when a spare''s schema is gone');
select tests.reset_role();
select is(private.tenant_schema_signature((select schema_name from private.organizations where slug = 'epsilon')),
  private.tenant_schema_signature(:'alpha_schema'), 'with a whole schema');

-- No spare ready: the template is built inside the call, as before.
select private.refill_tenant_spares();
delete from private.tenant_spares;
select tests.authenticate_as(:'sa');
select is(public.create_organization('zeta', 'Zeta') ->> 'success', 'true', 'with no spare ready, an organization is still created');
select tests.reset_role();
select is(private.tenant_schema_signature((select schema_name from private.organizations where slug = 'zeta')),
  private.tenant_schema_signature(:'alpha_schema'), 'built from the template in the call');
select ok(exists (select 1 from private.tenant_security_findings() where finding = 'schema is not registered to an organization'),
  'an org_ schema registered nowhere (a spare forgotten by hand) is a security finding');
do $$
declare
  orphan text;
begin
  for orphan in select nspname from pg_namespace where nspname like 'org\_pool\_%' loop
    execute format('drop schema %I cascade', orphan);
  end loop;
end
$$;

-- ---------------------------------------------------------------------------------
-- A grant on a spare is found; spares of an older template are migrated, and claimed whole.
-- ---------------------------------------------------------------------------------
select private.refill_tenant_spares();
select min(schema_name) as spare_two from private.tenant_spares \gset
select format('grant select on %I.customers to authenticated', :'spare_two') as leak_sql \gset
:leak_sql;
select ok(exists (select 1 from private.tenant_security_findings() where schema_name = :'spare_two' and finding = 'API role has a privilege on the table'),
  'a grant on a spare''s table is a security finding');
select format('revoke select on %I.customers from authenticated', :'spare_two') as unleak_sql \gset
:unleak_sql;

insert into private.tenant_template_steps (version, description, ddl)
select max(version) + 1, 'test: a column and an index',
       'alter table customers add column probe text; create index customers_probe_idx on customers (probe) where deleted_at is null;'
  from private.tenant_template_steps;
select private.migrate_tenant(:'alpha');
select is(private.migrate_tenant_spares(), private.tenant_spare_pool_size(), 'migrate_tenant_spares brings every older spare to the new step');
select ok((select bool_and(s.template_version = private.latest_template_version()) from private.tenant_spares s),
  'every spare is at the new version');
select is(private.tenant_schema_signature(:'spare_two'), private.tenant_schema_signature(:'alpha_schema'),
  'a migrated spare has the structure of a migrated organization');
select is((select count(*)::int from private.tenant_security_findings()), 0, 'and is sealed again');
select is(private.migrate_tenant_spares(), 0, 'spares at the newest version are left alone');

-- An older spare still claimed is brought up inside the claim.
insert into private.tenant_template_steps (version, description, ddl)
select max(version) + 1, 'test: a second column', 'alter table customers add column probe_two text;'
  from private.tenant_template_steps;
select private.migrate_tenant(:'alpha');
select tests.authenticate_as(:'sa');
select is(public.create_organization('eta', 'Eta') ->> 'success', 'true', 'an organization created while the spares are one step behind');
select tests.reset_role();
select is(private.tenant_schema_signature((select schema_name from private.organizations where slug = 'eta')),
  private.tenant_schema_signature(:'alpha_schema'), 'gets the missing step in the same call');
select is((select template_version from private.organizations where slug = 'eta'), private.latest_template_version(), 'and the newest version');

select * from finish();
rollback;
