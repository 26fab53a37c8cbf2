-- The default document template of a kind, read by the people who print quotes and
-- contracts: allowed for an active member with view permission on the kind's module in the
-- bound organization (admin, sales, viewer, a member of two organizations in the one it is
-- bound to); refused for anon, a member whose role cannot view the module, an inactive
-- member, a session with no organization, and another organization's admin (who reads only
-- their own organization's default). The admin-only template list stays admin-only.
begin;
select plan(26);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test') as alpha_admin \gset
select tests.create_user('sales@alpha.test') as alpha_sales \gset
select tests.create_user('viewer@alpha.test') as alpha_viewer \gset
select tests.create_user('noquotes@alpha.test') as alpha_noquotes \gset
select tests.create_user('gone@alpha.test') as alpha_gone \gset
select tests.create_user('both@alpha.test') as both_member \gset
select tests.create_user('admin@beta.test') as beta_admin \gset
select tests.create_user('nobody@none.test') as nobody \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'alpha_gone', :'alpha', 'sales');
select tests.add_member(:'both_member', :'alpha', 'sales');
select tests.add_member(:'both_member', :'beta', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- A role that may view contracts but not quotes.
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'contracts_only', 'Yalnız sözleşmeler');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'alpha', 'contracts_only', 'contracts', 'view', 'all');
select tests.add_member(:'alpha_noquotes', :'alpha', 'contracts_only');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer, gen_random_uuid() as s_noquotes,
       gen_random_uuid() as s_gone, gen_random_uuid() as s_both, gen_random_uuid() as s_beta, gen_random_uuid() as s_nobody \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'alpha_noquotes', :'s_noquotes', :'alpha');
select tests.bind_session(:'alpha_gone', :'s_gone', :'alpha');
select tests.bind_session(:'both_member', :'s_both', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
-- Deactivated after binding: the next request is refused.
update private.memberships set is_active = false where user_id = :'alpha_gone' and organization_id = :'alpha';

-- Alpha: a default quote template (after a replaced one and a deleted one), a contract
-- template that is not the default. Beta: its own default quote template.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_document_template(null, 'quote', 'Eski Teklif', 'Eski', true) ->> 'id' as old_quote \gset
select public.save_document_template(null, 'quote', 'Silinen Teklif', 'Silinen', true) ->> 'id' as deleted_quote \gset
select public.delete_document_template(:'deleted_quote') ->> 'success' as deleted \gset
select public.save_document_template(null, 'quote', 'Standart Teklif', E'Sayın {{customer.name}},\n{{items_table}}', true) ->> 'id' as alpha_quote \gset
select public.save_document_template(null, 'contract', 'Taslak Sözleşme', 'Taslak', false) ->> 'id' as alpha_contract \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.save_document_template(null, 'quote', 'Beta Teklif', 'Beta gövde', true) ->> 'id' as beta_quote \gset
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- anon and the catalogue
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok('select public.get_default_document_template(''quote'')', '42501', null, 'anon cannot read a default template');
select tests.reset_role();
select ok(not has_function_privilege('anon', 'public.get_default_document_template(text)', 'execute'), 'anon has no execute grant');
select ok(has_function_privilege('authenticated', 'public.get_default_document_template(text)', 'execute'),
  'signed-in callers may call it (the body decides)');
select is((select p.prosecdef and p.proconfig @> array['search_path=""'] from pg_catalog.pg_proc p
            where p.oid = 'public.get_default_document_template(text)'::regprocedure), true,
  'security definer with an empty search_path');

-- ---------------------------------------------------------------------------------
-- Allowed
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.get_default_document_template('quote') #>> '{template,id}', :'alpha_quote', 'admin: the current default quote template');
select is(public.get_default_document_template('quote') - 'template',
  '{"success": true}'::jsonb, 'the answer is the envelope with the template');
select is((select array_agg(k order by k) from jsonb_object_keys(public.get_default_document_template('quote') -> 'template') k),
  array['body', 'id', 'name', 'updated_at'], 'the template carries id, name, body and updated_at');
select is(public.get_default_document_template('quote') #>> '{template,body}', E'Sayın {{customer.name}},\n{{items_table}}',
  'the body comes as stored');
select is(public.get_default_document_template('contract') -> 'template', 'null'::jsonb,
  'no default contract template: null (a template that is not the default does not count)');
select tests.reset_role();

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.get_default_document_template('quote') #>> '{template,name}', 'Standart Teklif', 'sales: reads the default quote template');
select is(public.list_document_templates() ->> 'code', 'admin_required', 'sales: the template list stays admin-only');
select is(public.save_document_template(null, 'quote', 'X', 'x', true) ->> 'code', 'admin_required', 'sales: cannot save a template');
select tests.reset_role();

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.get_default_document_template('quote') #>> '{template,id}', :'alpha_quote', 'viewer: reads the default quote template');
select is(public.list_document_templates() ->> 'code', 'admin_required', 'viewer: the template list stays admin-only');
select tests.reset_role();

select tests.authenticate_as(:'both_member', :'s_both');
select is(public.get_default_document_template('quote') #>> '{template,id}', :'alpha_quote',
  'a member of two organizations reads the default of the one the session is bound to');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.get_default_document_template('quote') #>> '{template,id}', :'beta_quote',
  'another organization''s admin reads their own default, never alpha''s');
select tests.reset_role();

-- The default moves: a new default replaces the answer.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_document_template(:'alpha_contract', 'contract', 'Taslak Sözleşme', 'Sözleşme gövdesi', true) ->> 'id' as made_default \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_noquotes', :'s_noquotes');
select is(public.get_default_document_template('contract') #>> '{template,body}', 'Sözleşme gövdesi',
  'a role that views contracts reads the contract default once one is set');

-- ---------------------------------------------------------------------------------
-- Refused
-- ---------------------------------------------------------------------------------
select is(public.get_default_document_template('quote') ->> 'code', 'permission_denied',
  'a role that cannot view quotes cannot read the quote template');
select is(public.get_default_document_template('quote') ->> 'success', 'false', 'and the answer is a failure');
select is(public.get_default_document_template('invoice') ->> 'code', 'invalid_kind', 'an unknown kind is refused');
select is(public.get_default_document_template(null) ->> 'code', 'invalid_kind', 'no kind is refused');
select tests.reset_role();

select tests.authenticate_as(:'alpha_gone', :'s_gone');
select is(public.get_default_document_template('quote') ->> 'code', 'organization_context_required',
  'an inactive member is refused (the session''s binding no longer holds)');
select tests.reset_role();

select tests.authenticate_as(:'nobody', :'s_nobody');
select is(public.get_default_document_template('quote') ->> 'code', 'organization_context_required',
  'a user with no bound organization is refused');
select is(public.bind_session_organization(:'alpha') ->> 'success', 'false', 'and a non-member cannot bind to alpha');
select is(public.get_default_document_template('contract') ->> 'code', 'organization_context_required',
  'so still nothing to read');
select tests.reset_role();

-- Nothing changed on the way.
select is((select count(*)::int from :"alpha_schema".document_templates where is_default and deleted_at is null), 2,
  'alpha keeps one default per kind');

select * from finish();
rollback;
