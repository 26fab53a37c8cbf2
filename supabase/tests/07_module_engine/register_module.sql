-- private.register_module: one call registers a module, and everything that lists the
-- modules finds it. A throw-away module (gadgets, with its own table and a document link
-- column made here in an existing organization's schema) is registered after the
-- organization exists, and then: its public façade exists with its grants; the existing
-- organization's roles have the default permissions in it, and a permission row an admin
-- removed is not restored by registering it again or another module; its records are
-- written through the façade, take notes, move with a transfer of its kind (analysed,
-- named, not by default) and can hold documents (created linked, listed by record, an
-- upload reserved for one).
begin;
select plan(34);
select tests.send_request_tokens();

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('giver@alpha.test', 'user', 'Veli', 'Veren') as giver \gset
select tests.create_user('taker@alpha.test', 'user', 'Ali', 'Alan') as taker \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'giver', :'alpha', 'sales');
select tests.add_member(:'taker', :'alpha', 'sales');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_giver \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_admin \gset
select tests.reset_role();
select tests.authenticate_as(:'giver', :'s_giver');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_giver \gset
select tests.reset_role();

-- An admin of alpha removed the viewer's view of customers before the module came.
delete from private.role_permissions
 where organization_id = :'alpha' and role_key = 'viewer' and module = 'customers' and action = 'view';

-- The module's table in alpha (what its template step would make), and the documents' link to it.
create table :"alpha_schema".gadgets (id uuid primary key default gen_random_uuid(),
                                      title text not null check (char_length(title) between 1 and 100));
select private.add_record_columns(:'alpha_schema', 'gadgets');
alter table :"alpha_schema".documents add column gadget_id uuid references :"alpha_schema".gadgets (id) on delete set null;

select private.register_module(
  p_key => 'gadgets', p_position => 99, p_table_name => 'gadgets', p_entity_type => 'gadget',
  p_fields => jsonb_build_array(private.field_declaration('title', 'text', 'Başlık', 'Title', '{required,listed,sortable}', 100)),
  p_default_sort => 'title', p_transfer_kind => 'gadgets', p_transfer_default => false, p_document_link => 'gadget_id',
  p_record_label_tr => 'Aygıt', p_record_label_en => 'Gadget');

-- ---------------------------------------------------------------------------------
-- The registry row and the façade
-- ---------------------------------------------------------------------------------
select is((select m.table_name || '|' || m.entity_type || '|' || m.transfer_kind || '|' || m.document_link
             from private.modules m where m.key = 'gadgets'),
  'gadgets|gadget|gadgets|gadget_id', 'the registry row holds the module''s fields');
select is((select array_agg(p.proname::text order by p.proname) from pg_catalog.pg_proc p
            where p.pronamespace = 'public'::regnamespace
              and p.proname in ('list_gadgets', 'get_gadget', 'create_gadget', 'update_gadget', 'bulk_update_gadgets',
                                'delete_gadgets', 'restore_gadgets')
              and p.prosecdef and 'search_path=""' = any (p.proconfig)),
  array['bulk_update_gadgets', 'create_gadget', 'delete_gadgets', 'get_gadget', 'list_gadgets', 'restore_gadgets',
        'update_gadget'],
  'its façade: the seven functions, security definer with an empty search_path');
select is((select count(*)::int from pg_catalog.pg_proc p
            where p.pronamespace = 'public'::regnamespace and p.proname like '%gadget%'
              and has_function_privilege('authenticated', p.oid, 'execute')
              and not has_function_privilege('anon', p.oid, 'execute')), 7,
  'authenticated may call the façade, anon may not');
select throws_ok($$select private.register_module(
  p_key => 'gizmos', p_position => 98, p_table_name => 'gadgets', p_entity_type => 'gizmo',
  p_fields => jsonb_build_array(private.field_declaration('title', 'text', 'Başlık', 'Title', '{listed}')), p_default_sort => 'title')$$,
  'P0001', 'Module gizmos: the default sort title is no sortable column', 'a default sort on a column not declared sortable is refused');
select is(private.module_column_list('gadgets', 'writable')::text || private.module_column_list('gadgets', 'listed')::text
          || private.module_column_list('gadgets', 'sortable')::text || private.module_column_list('gadgets', 'filterable')::text,
  '{title}{title}{title,created_at,updated_at}{}', 'the engine''s column lists come from the declared fields');
select is((select f.type || '|' || f.label_tr || '|' || f.max_length || '|' || f.required from private.module_fields f
            where f.module = 'gadgets' and f.key = 'title'),
  'text|Başlık|100|true', 'the field is declared once, with its type, labels and rules');
select is((select count(*)::int from pg_catalog.pg_proc p
            where p.oid = 'private.register_module'::regproc
              and (has_function_privilege('authenticated', p.oid, 'execute') or has_function_privilege('anon', p.oid, 'execute'))),
  0, 'register_module itself is callable by no API role');

-- ---------------------------------------------------------------------------------
-- Permissions of the existing organization's roles
-- ---------------------------------------------------------------------------------
select set_eq(
  format($$select role_key, action, scope from private.role_permissions
            where organization_id = %L and module = 'gadgets'$$, :'alpha'),
  $$select g.role_key, g.action, g.scope from private.default_role_grants() g$$,
  'the existing organization''s roles have the default permissions in the new module');
select is((select count(*)::int from private.role_permissions
            where organization_id = :'alpha' and role_key = 'viewer' and module = 'customers' and action = 'view'), 0,
  'registering another module does not restore a row an admin removed');

delete from private.role_permissions
 where organization_id = :'alpha' and role_key = 'sales' and module = 'gadgets' and action = 'delete';
select private.register_module(
  p_key => 'gadgets', p_position => 99, p_table_name => 'gadgets', p_entity_type => 'gadget',
  p_fields => jsonb_build_array(private.field_declaration('title', 'text', 'Başlık', 'Title', '{required,listed,sortable}', 100)),
  p_default_sort => 'title', p_transfer_kind => 'gadgets', p_transfer_default => false, p_document_link => 'gadget_id',
  p_record_label_tr => 'Aygıt', p_record_label_en => 'Gadget');
select is((select count(*)::int from private.role_permissions
            where organization_id = :'alpha' and role_key = 'sales' and module = 'gadgets' and action = 'delete'), 0,
  'registering the module again does not restore a row an admin removed');
select is((select count(*)::int from private.role_permissions where organization_id = :'alpha' and module = 'gadgets'),
  (select count(*)::int - 1 from private.default_role_grants()),
  'and keeps the rest of the module''s rows as they were');

select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select set_eq(
  format($$select role_key, action, scope from private.role_permissions
            where organization_id = %L and module = 'gadgets'$$, :'beta'),
  $$select g.role_key, g.action, g.scope from private.default_role_grants() g$$,
  'an organization created later has the default permissions in it too');

-- ---------------------------------------------------------------------------------
-- Records through the façade, notes and the title
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'giver', :'s_giver');
select public.create_gadget('{"title": "Dişli"}') as g1 \gset
select public.create_gadget('{"title": "Yay"}') as g2 \gset
select (:'g1'::jsonb #>> '{record,id}') as gadget, (:'g2'::jsonb #>> '{record,id}') as gadget2 \gset
select public.list_gadgets() as listed \gset
select public.add_record_note('gadgets', :'gadget', 'Dişli için not') as noted \gset
select public.get_record_timeline('gadgets', :'gadget') as timeline \gset
select tests.reset_role();

select is((:'g1'::jsonb ->> 'success') || '|' || (:'g1'::jsonb #>> '{record,owner_id}'), 'true|' || :'giver',
  'a sales member creates a record through the façade, owning it');
select is(jsonb_array_length(:'listed'::jsonb -> 'records'), 2, 'the façade lists the module''s records');
select is(:'noted'::jsonb ->> 'success', 'true', 'a note can be added to the module''s record');
select is((select entity_type from :"alpha_schema".notes where entity_id = :'gadget'), 'gadget',
  'the note names the record by the module''s entity type');
select is((select count(*)::int from jsonb_array_elements(:'timeline'::jsonb -> 'entries') e
            where e ->> 'kind' = 'note' and e ->> 'body' = 'Dişli için not'), 1, 'the record''s timeline shows the note');
select is(private.record_title('gadgets', :'g1'::jsonb -> 'record'), 'Dişli',
  'a notification or an activity entry calls the record by its title');

-- ---------------------------------------------------------------------------------
-- Transfer
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.analyze_user_records(:'giver') as analysis \gset
select public.transfer_user_records(:'giver', :'taker') as by_default \gset
select tests.reset_role();
select count(*) as kept from :"alpha_schema".gadgets where owner_id = :'giver' \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'giver', :'taker', null, array['gadgets']) as named \gset
select tests.reset_role();

select is(:'analysis'::jsonb #>> '{counts,gadgets}', '2', 'analyze_user_records counts the module''s records as a transfer kind');
select is(:'analysis'::jsonb #>> '{tables,gadgets}', '2', 'and its table among the transferable tables');
select is(:'by_default'::jsonb -> 'kinds', '["customers", "deals", "tasks"]'::jsonb,
  'a transfer without kinds takes the kinds on by default, not the new module (its default is off)');
select is(:'kept'::int, 2, 'so the module''s records stay with the giver');
select is(:'named'::jsonb -> 'transferred', '{"gadgets": 2}'::jsonb, 'naming the module''s kind moves its records');
select is((select count(*)::int from :"alpha_schema".gadgets where owner_id = :'taker'), 2, 'to the receiver');

-- ---------------------------------------------------------------------------------
-- Documents
-- ---------------------------------------------------------------------------------
select is(private.document_link_column('gadgets'), 'gadget_id', 'the module''s document link column comes from the registry');
select ok('gadget_id' = any (private.module_column_list('documents', 'writable'))
          and 'gadget_id' = any (private.module_column_list('documents', 'filterable'))
          and 'gadget_id' = any (private.module_column_list('documents', 'listed')),
  'the documents module writes, filters and lists the new link');
select is((select f.type || '|' || f.link_module || '|' || f.label_tr || '|' || f.label_en
             from private.module_fields f where f.module = 'documents' and f.key = 'gadget_id'),
  'link|gadgets|Aygıt|Gadget', 'as a link field the documents module declares, labelled by what one record is called');
select is((select max(f.position) from private.module_fields f where f.module = 'documents'),
  (select f.position from private.module_fields f where f.module = 'documents' and f.key = 'gadget_id'),
  'after the documents'' own fields and the earlier modules'' links');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_document(jsonb_build_object('title', 'Dişli çizimi', 'gadget_id', :'gadget')) as document \gset
select public.list_record_documents('gadgets', :'gadget') as of_record \gset
select public.list_documents(p_filters => '{"gadget_id": {"is_null": false}}') as filtered \gset
select public.create_document(jsonb_build_object('title', 'Çift', 'gadget_id', :'gadget', 'customer_id', gen_random_uuid()))
  as two_links \gset
select public.begin_document_upload(null, 'Dişli.pdf', 'gadgets', :'gadget', 'Dişli.pdf', 1024, 'application/pdf',
                                    repeat('ab', 32)) as upload \gset
select public.create_document(jsonb_build_object('title', 'Yok', 'gadget_id', gen_random_uuid())) as unknown_link \gset
select tests.reset_role();

select is(:'document'::jsonb #>> '{record,gadget_id}', :'gadget', 'a document can be created linked to the module''s record');
select is((select array_agg(d ->> 'id') from jsonb_array_elements(:'of_record'::jsonb -> 'documents') d),
  array[:'document'::jsonb #>> '{record,id}'], 'the record''s documents list it');
select is(jsonb_array_length(:'filtered'::jsonb -> 'records'), 1, 'the documents list filters by the new link');
select is(:'two_links'::jsonb #>> '{fields,gadget_id}', 'one_link_only',
  'the new link counts among a document''s links: one link only');
select is(:'upload'::jsonb ->> 'success', 'true', 'an upload may be reserved for a document of the module''s record');
select is(:'unknown_link'::jsonb #>> '{fields,gadget_id}', 'not_found', 'a link to no record of the module is not found');

select * from finish();
rollback;
