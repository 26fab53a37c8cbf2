-- Document templates over the organization's own table: allowed and denied per caller,
-- one default per kind, soft delete, isolation between organizations, values as parameters.
begin;
select plan(18);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_organization('bare', 'Bare Ltd.') as bare \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test') as alpha_admin \gset
select tests.create_user('user@alpha.test') as alpha_user \gset
select tests.create_user('admin@beta.test') as beta_admin \gset
select tests.create_user('admin@bare.test') as bare_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'bare_admin', :'bare', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_user, gen_random_uuid() as s_beta, gen_random_uuid() as s_bare \gset

select tests.act_as_anon();
select throws_ok('select public.list_document_templates()', '42501', null, 'anon cannot list templates');
select tests.reset_role();

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select is(public.save_document_template(null, 'quote', 'X', '') ->> 'code', 'admin_required', 'a plain member cannot save');
select tests.reset_role();

select tests.authenticate_as(:'bare_admin', :'s_bare');
select public.bind_session_organization(:'bare') ->> 'success' as bound \gset
select is(public.list_document_templates() ->> 'code', 'tables_not_found', 'an organization without tables says so');
select tests.reset_role();

-- The alpha admin keeps one default per kind.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select public.save_document_template(null, 'quote', '  Standart Teklif ', '<p>{{customer.name}}</p>', true) ->> 'id' as first \gset
select public.save_document_template(null, 'quote', 'Kısa Teklif', 'x'' ); drop table private.profiles; --', true) ->> 'id' as second \gset
select public.save_document_template(null, 'contract', 'Sözleşme', '', true) ->> 'id' as contract \gset
select is((public.list_document_templates() -> 'templates' -> 0 ->> 'name'), 'Sözleşme', 'contracts come first, by kind');
select is((select count(*)::int from jsonb_array_elements(public.list_document_templates() -> 'templates') t
            where t ->> 'kind' = 'quote' and (t ->> 'is_default')::boolean), 1, 'one default quote template');
select is((select t ->> 'id' from jsonb_array_elements(public.list_document_templates() -> 'templates') t
            where t ->> 'kind' = 'quote' and (t ->> 'is_default')::boolean), :'second', 'the newer default took the flag');
select is((select t ->> 'name' from jsonb_array_elements(public.list_document_templates() -> 'templates') t
            where t ->> 'id' = :'first'), 'Standart Teklif', 'names are trimmed');
select is(public.save_document_template(null, 'invoice', 'X', '') ->> 'code', 'invalid_kind', 'only quote and contract');
select is(public.save_document_template(null, 'quote', '  ', '') ->> 'code', 'invalid_name', 'a name is required');
select is(public.save_document_template(null, 'quote', 'Big', repeat('x', 200001)) ->> 'code', 'body_too_long', 'the body is bounded');
select is(public.save_document_template(gen_random_uuid(), 'quote', 'Ghost', '') ->> 'code', 'template_not_found', 'an unknown id is refused');
select is(public.delete_document_template(:'second') ->> 'success', 'true', 'a template moves to the trash');
select is(jsonb_array_length(public.list_document_templates() -> 'templates'), 2, 'and is no longer listed');
select is(public.delete_document_template(:'second') ->> 'code', 'template_not_found', 'deleting twice is refused');
select tests.reset_role();

select is((select body from :"alpha_schema".document_templates where id = :'second'),
  'x'' ); drop table private.profiles; --', 'text that looks like SQL is stored as text');
select ok(to_regclass('private.profiles') is not null, 'and did nothing');

-- Beta's admin neither sees nor changes alpha's templates.
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.bind_session_organization(:'beta') ->> 'success' as bound \gset
select is(public.delete_document_template(:'first') ->> 'code', 'template_not_found', 'another organization''s template is not found');
select tests.reset_role();
select is((select count(*)::int from :"alpha_schema".document_templates where deleted_at is null), 2,
  'alpha''s templates are untouched');

select * from finish();
rollback;
