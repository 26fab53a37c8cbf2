-- Standard fields as data (private.module_fields, DESIGN.md D11): every field of every
-- sales module declared once; the declarations agree with the organization's tables and
-- the registry's links; the app reads them (list_custom_fields' standard_fields); a field
-- without a rule of its module's own is ruled by its type; and adding a standard field to
-- contacts is its declaration plus its column: a form's write, the record, the list, a
-- filter, an export and an import find it with nothing else changed.
begin;
select plan(22);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');

-- ---------------------------------------------------------------------------------
-- The declarations agree with the tables and the registry
-- ---------------------------------------------------------------------------------
select is((select string_agg(f.module || '.' || f.key, ', ') from private.module_fields f join private.modules m on m.key = f.module
            where not exists (select 1 from pg_catalog.pg_attribute a
                               where a.attrelid = format('%I.%I', :'alpha_schema', m.table_name)::regclass
                                 and a.attname = f.key and a.attnum > 0 and not a.attisdropped)),
  null, 'every declared field is a column of its module''s table');
select is((select string_agg(f.module || '.' || f.key, ', ') from private.module_fields f
            where f.type = 'link' and f.link_module <> f.module and not exists (select 1 from private.module_links(f.module, :'alpha_schema') l
                                                   where l.column_name = f.key and l.target_module = f.link_module)),
  null, 'every link field to another module is a link of its table to that module');
select is((select string_agg(m.key || '.' || l.column_name, ', ') from private.modules m, private.module_links(m.key, :'alpha_schema') l
            where l.column_name not in ('owner_id', 'created_by', 'merged_into', 'root_quote_id', 'superseded_by', 'completed_by')
              and not exists (select 1 from private.module_fields f where f.module = m.key and f.key = l.column_name)),
  null, 'and every link a client sees is declared');
select is((select string_agg(m.key, ', ') from private.modules m
            where m.document_link is not null
              and not exists (select 1 from private.module_fields f where f.module = 'documents' and f.key = m.document_link
                                                                      and f.link_module = m.key)),
  null, 'each module''s document link is a link field of the documents module');
select is(private.module_column_list('deals', 'sortable'),
  array(select f.key from private.module_fields f where f.module = 'deals' and f.sortable order by f.position) || '{created_at,updated_at}'::text[],
  'the engine''s column lists are read from the declarations (a module''s sortable ones, then created_at and updated_at)');
select throws_ok($$select private.field_declaration('x', 'text', 'X', 'X', '{listed,shiny}')$$, 'P0001', null,
  'a declaration with an unknown flag is refused');

-- ---------------------------------------------------------------------------------
-- The app reads them
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.list_custom_fields('customers') as customer_fields \gset
select tests.reset_role();
select is((select array_agg(f ->> 'key' order by n) from jsonb_array_elements(:'customer_fields'::jsonb -> 'standard_fields') with ordinality x (f, n)),
  array(select f.key from private.module_fields f where f.module = 'customers' order by f.position),
  'a member reads the module''s standard fields, in order');
select is((select f - 'key' - 'position' from jsonb_array_elements(:'customer_fields'::jsonb -> 'standard_fields') f where f ->> 'key' = 'status'),
  '{"type": "choice", "label_tr": "Durum", "label_en": "Status", "writable": true, "required": false, "max_length": null,
    "options": [{"value": "lead", "label_tr": "Aday", "label_en": "Lead", "import_names": ["Potansiyel", "Prospect"]},
                {"value": "active", "label_tr": "Aktif", "label_en": "Active", "import_names": ["Etkin"]},
                {"value": "passive", "label_tr": "Pasif", "label_en": "Passive", "import_names": ["Inactive"]}],
    "link_module": null, "listed": true, "sortable": true, "filterable": true, "own_rule": false, "own_ui": true,
    "import_names": ["Müşteri Durumu"]}',
  'each with its type, labels, options, rules, where it shows and the names an import file may use for it');
select is((select f -> 'import_names' from jsonb_array_elements(:'customer_fields'::jsonb -> 'standard_fields') f where f ->> 'key' = 'external_id'),
  '["Harici Kod", "Harici ID", "Harici No", "Dış Kod", "Dış ID", "Dış Kimlik", "Kod", "External ID", "External code", "Code",
    "Cari Kod", "Cari Kodu", "Müşteri Kodu", "Customer code"]',
  'a field several modules declare under one key has the names they share, then the module''s own');
select throws_ok($$select private.field_declaration('kind', 'choice', 'Tür', 'Type', p_options => '{company,Şirket,Company}',
                                                     p_option_import_names => '{"firma": ["Firma"]}')$$,
  'P0001', 'Field kind: import names for an option it does not have', 'import names for an option the field lacks are refused');
select tests.act_as_anon();
select throws_ok($$select public.list_custom_fields('customers')$$, '42501', null, 'anon reads no fields');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Fields ruled by their types
-- ---------------------------------------------------------------------------------
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.create_deal(jsonb_build_object('title', 'Uzun kaynak', 'source', repeat('k', 101))) #>> '{fields,source}', 'too_long',
  'a deal''s source over its declared 100 characters is too long');
select is(public.create_deal('{"title": "Etiket", "tags": [1]}') #>> '{fields,tags}', 'invalid_tags', 'a deal''s tags are its type''s');
select is(public.create_contact(jsonb_build_object('first_name', 'Can', 'title', repeat('u', 101))) #>> '{fields,title}', 'too_long',
  'a contact''s job title over 100 characters is too long');
select is(public.create_contact('{"first_name": "Can", "title": "  Müdür  ", "tags": [" a ", "a"]}') -> 'record' -> 'title',
  '"Müdür"', 'a text is trimmed by its type');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- A standard field added to contacts: its declaration and its column, nothing else
-- ---------------------------------------------------------------------------------
alter table :"alpha_schema".contacts add column nickname text;
select private.register_module(
  p_key => m.key, p_position => m.position, p_table_name => m.table_name, p_entity_type => m.entity_type,
  p_fields => (select jsonb_agg(to_jsonb(f) - 'module' - 'position' order by f.position) from private.module_fields f where f.module = m.key)
              || jsonb_build_array(private.field_declaration('nickname', 'text', 'Lakap', 'Nickname', '{listed,sortable,filterable}', 40)),
  p_default_sort => m.default_sort, p_default_descending => m.default_descending, p_searchable => m.searchable,
  p_title_columns => m.title_columns, p_prepare_function => m.prepare_function, p_transfer_kind => m.transfer_kind,
  p_document_link => m.document_link, p_record_label_tr => m.record_label_tr, p_record_label_en => m.record_label_en)
  from private.modules m where m.key = 'contacts';

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select public.create_contact('{"first_name": "Cem", "last_name": "Kaya", "nickname": "  Kayacan "}') as created \gset
select public.create_contact('{"first_name": "Ece", "nickname": "Ecem"}') as other \gset
select public.create_contact(jsonb_build_object('first_name', 'Uzun', 'nickname', repeat('n', 41))) as too_long \gset
select public.list_contacts(p_filters => '{"nickname": "Kayacan"}', p_sort => 'nickname') as filtered \gset
select public.export_records('contacts', null, null, 'nickname', false, null, 10) as exported \gset
select public.list_custom_fields('contacts') as contact_fields \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.check_import_rows('contacts', 'create', null,
  '[{"row": 2, "values": {"first_name": "Ali", "nickname": " Alim "}}, {"row": 3, "values": {"first_name": "Veli", "nickname": 7}}]') -> 'results'
  as preview \gset
select tests.reset_role();

select is(:'created'::jsonb #>> '{record,nickname}', 'Kayacan', 'a form writes the new field, cleaned by its type');
select is(:'too_long'::jsonb #>> '{fields,nickname}', 'too_long', 'and its declared limit holds');
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.get_contact((:'created'::jsonb #>> '{record,id}')::uuid) #>> '{record,nickname}', 'Kayacan', 'the record carries it');
select tests.reset_role();
select is((select array_agg(r ->> 'nickname') from jsonb_array_elements(:'filtered'::jsonb -> 'records') r), array['Kayacan'],
  'the list carries it and filters and sorts by it');
select is((select array_agg(r ->> 'nickname' order by n) from jsonb_array_elements(:'exported'::jsonb -> 'records') with ordinality x (r, n)
            where r ->> 'nickname' is not null), array['Ecem', 'Kayacan'], 'an export has its column, sorted by it');
select is((select f ->> 'label_tr' from jsonb_array_elements(:'contact_fields'::jsonb -> 'standard_fields') f where f ->> 'key' = 'nickname'),
  'Lakap', 'the app reads its declaration, labels included');
select is(:'preview'::jsonb, '[{"row": 2, "status": "created"}, {"row": 3, "status": "failed", "errors": {"nickname": "invalid"}}]',
  'an import takes it, by its type''s rule');

select * from finish();
rollback;
