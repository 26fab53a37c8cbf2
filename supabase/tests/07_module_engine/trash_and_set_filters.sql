-- The record engine's trash and set/not-set filters (every module's list_<module>), and
-- the documents upload reservations' expiry:
-- * {"deleted_at": {"is_null": false}} lists the deleted records (with deleted_at) for those
--   who may restore them: admin all, sales (delete own) only their own, viewer refused,
--   another organization's admin and a member of both organizations only their bound
--   organization's; restore takes a record out of the trash; bad shapes refused.
-- * {"<column>": {"is_null": false|true}} on a filterable column: documents linked to any
--   customer (the /documents filter by module alone), within the caller's scope; bad
--   shapes and columns off the list refused.
-- * begin_document_upload drops its organization's reservations older than 10 minutes and
--   names the objects Storage still holds for them; younger ones and another
--   organization's stay; the freed path can be reserved again.
begin;
select plan(31);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.create_user('both@alpha.test', 'user', 'Çoklu', 'Üye') as both_member \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'both_member', :'alpha', 'sales');
select tests.add_member(:'both_member', :'beta', 'admin');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_beta, gen_random_uuid() as s_both_alpha, gen_random_uuid() as s_both_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
select tests.bind_session(:'both_member', :'s_both_alpha', :'alpha');
select tests.bind_session(:'both_member', :'s_both_beta', :'beta');

-- Alpha: two customers of the admin (one deleted), two of the sales member (one deleted);
-- beta: one deleted customer.
insert into :"alpha_schema".customers (name, owner_id, created_by) values ('Işık Yazılım', :'alpha_admin', :'alpha_admin')
returning id as c_admin_live \gset
insert into :"alpha_schema".customers (name, owner_id, created_by, deleted_at)
values ('Eski Müşteri', :'alpha_admin', :'alpha_admin', now()) returning id as c_admin_gone \gset
insert into :"alpha_schema".customers (name, owner_id, created_by) values ('Satış Canlı', :'alpha_sales', :'alpha_sales')
returning id as c_sales_live \gset
insert into :"alpha_schema".customers (name, owner_id, created_by, deleted_at)
values ('Satış Silinen', :'alpha_sales', :'alpha_sales', now()) returning id as c_sales_gone \gset
insert into :"beta_schema".customers (name, owner_id, created_by, deleted_at)
values ('Beta Silinen', :'beta_admin', :'beta_admin', now()) returning id as c_beta_gone \gset
select '{"deleted_at": {"is_null": false}}' as trash \gset

-- ---------------------------------------------------------------------------------
-- The trash, per role and organization
-- ---------------------------------------------------------------------------------

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.list_customers(null, :'trash') as admin_trash \gset
select is(jsonb_path_query_array(:'admin_trash'::jsonb, '$.records[*].name') @> '["Eski Müşteri", "Satış Silinen"]'
          and (:'admin_trash'::jsonb ->> 'total')::int = 2, true, 'an admin''s trash holds every deleted customer and only those');
select ok((:'admin_trash'::jsonb #>> '{records,0,deleted_at}') is not null, 'each with when it was deleted');
select is(public.list_customers() ->> 'total', '2', 'the ordinary list still shows only the live customers');
select ok(not (public.list_customers() #> '{records,0}') ? 'deleted_at', 'and keeps its shape (no deleted_at)');
select is(public.list_customers(null, '{"deleted_at": {"is_null": true}}') ->> 'total', '2', '{"is_null": true} is the ordinary list');
select is(public.list_customers('eski', :'trash') ->> 'total', '1', 'the trash is searchable');
select is(public.list_customers(null, jsonb_build_object('deleted_at', jsonb_build_object('is_null', false), 'owner_id', 'me'))
            ->> 'total', '1', 'and filterable like the list');
select is(public.list_customers(null, '{"deleted_at": {"is_null": "no"}}') ->> 'code', 'invalid_input', 'a malformed trash filter is refused');
select is(public.list_customers(null, '{"deleted_at": true}') ->> 'code', 'invalid_input', 'deleted_at takes only is_null');
select is(public.list_customers(null, '{"deleted_at": {"from": "2020-01-01"}}') ->> 'code', 'invalid_input', 'not a range');
select is(public.restore_customers(array[:'c_admin_gone']::uuid[]) ->> 'success', 'true', 'the admin restores one');
select is(public.list_customers(null, :'trash') ->> 'total', '1', 'and it leaves the trash');
select tests.reset_role();

select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(jsonb_path_query_array(public.list_customers(null, :'trash'), '$.records[*].name'), '["Satış Silinen"]',
  'a sales member (delete own) sees only their own deleted customers');
select tests.reset_role();

select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.list_customers(null, :'trash') ->> 'code', 'permission_denied', 'a viewer (no delete) has no trash');
select is(public.list_customers() ->> 'success', 'true', 'but still their list');
select tests.reset_role();

select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(jsonb_path_query_array(public.list_customers(null, :'trash'), '$.records[*].name'), '["Beta Silinen"]',
  'another organization''s admin sees only their organization''s trash');
select tests.reset_role();

select tests.authenticate_as(:'both_member', :'s_both_beta');
select is(jsonb_path_query_array(public.list_customers(null, :'trash'), '$.records[*].name'), '["Beta Silinen"]',
  'a member of both organizations bound to beta sees beta''s trash only');
select tests.reset_role();
select tests.authenticate_as(:'both_member', :'s_both_alpha');
select is(public.list_customers(null, :'trash') ->> 'total', '0',
  'and bound to alpha as sales, none of the others'' deleted customers');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Set / not set: documents linked to any customer
-- ---------------------------------------------------------------------------------

insert into :"alpha_schema".deals (title, customer_id, owner_id, created_by)
values ('Fırsat', :'c_admin_live', :'alpha_admin', :'alpha_admin') returning id as deal \gset
insert into :"alpha_schema".documents (title, customer_id, owner_id, created_by) values
  ('Müşteri belgesi', :'c_admin_live', :'alpha_admin', :'alpha_admin'),
  ('Satışın müşteri belgesi', :'c_sales_live', :'alpha_sales', :'alpha_sales');
insert into :"alpha_schema".documents (title, deal_id, owner_id, created_by) values ('Fırsat belgesi', :'deal', :'alpha_admin', :'alpha_admin');
insert into :"alpha_schema".documents (title, owner_id, created_by) values ('Bağsız', :'alpha_admin', :'alpha_admin');
insert into :"alpha_schema".documents (title, customer_id, owner_id, created_by, deleted_at)
values ('Silinmiş müşteri belgesi', :'c_admin_live', :'alpha_admin', :'alpha_admin', now()) returning id as doc_gone \gset

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(jsonb_path_query_array(public.list_documents(null, '{"customer_id": {"is_null": false}}', 'title'), '$.records[*].title'),
  '["Müşteri belgesi", "Satışın müşteri belgesi"]', 'documents linked to any customer (module alone)');
select is(public.list_documents(null, '{"customer_id": {"is_null": true}}') ->> 'total', '2', 'and those linked to none');
select is(public.list_documents(null, '{"deal_id": {"is_null": false}, "customer_id": {"is_null": false}}') ->> 'total', '0',
  'set filters combine (a document links to one record)');
select is(public.list_documents(null, '{"customer_id": {"is_null": false, "from": "x"}}') ->> 'code', 'invalid_input',
  'is_null stands alone');
select is(public.list_documents(null, '{"customer_id": {"is_null": 1}}') ->> 'code', 'invalid_input', 'is_null is a boolean');
select is(public.list_documents(null, '{"title": {"is_null": false}}') ->> 'code', 'invalid_input',
  'only on filterable columns');
select is(jsonb_path_query_array(public.list_documents(null, jsonb_build_object('customer_id', :'c_admin_live', 'deleted_at',
            jsonb_build_object('is_null', false))), '$.records[*].title'), '["Silinmiş müşteri belgesi"]',
  'a record panel''s deleted documents: its link and the trash together');
select tests.reset_role();

-- Sales see only their own documents (their default, set here all the same).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'own', 'documents');
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(jsonb_path_query_array(public.list_documents(null, '{"customer_id": {"is_null": false}}'), '$.records[*].title'),
  '["Satışın müşteri belgesi"]', 'an own-scope member: only their own among them');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.list_documents(null, '{"customer_id": {"is_null": false}}') ->> 'total', '0', 'another organization: none');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Upload reservations expire after 10 minutes; Storage's leftovers are named
-- ---------------------------------------------------------------------------------

select repeat('a', 64) as sha \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.begin_document_upload(null, 'Yarım', null, null, 'yarım.pdf', 100, 'application/pdf', :'sha') as dead \gset
select public.begin_document_upload(null, 'Boş', null, null, 'boş.pdf', 100, 'application/pdf', :'sha') as dead_empty \gset
select public.begin_document_upload(null, 'Sürüyor', null, null, 'sürüyor.pdf', 100, 'application/pdf', :'sha') as young \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.begin_document_upload(null, 'Beta yarım', null, null, 'b.pdf', 100, 'application/pdf', :'sha') as beta_dead \gset
select tests.reset_role();
-- The first function died after its Storage write, the second before; the third is 9 minutes in.
insert into storage.objects (bucket_id, name, metadata) values
  ('documents', :'dead'::jsonb ->> 'object_path', '{"size": 100}'),
  ('documents', :'beta_dead'::jsonb ->> 'object_path', '{"size": 100}');
update private.document_uploads set created_at = now() - interval '11 minutes'
 where id in ((:'dead'::jsonb ->> 'upload_id')::uuid, (:'dead_empty'::jsonb ->> 'upload_id')::uuid,
              (:'beta_dead'::jsonb ->> 'upload_id')::uuid);
update private.document_uploads set created_at = now() - interval '9 minutes' where id = (:'young'::jsonb ->> 'upload_id')::uuid;

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.begin_document_upload(null, 'Yeni', null, null, 'yeni.pdf', 100, 'application/pdf', :'sha') as next_begin \gset
select is(:'next_begin'::jsonb -> 'orphaned_paths', jsonb_build_array(:'dead'::jsonb ->> 'object_path'),
  'the next begin names the leftover object of a reservation older than 10 minutes (not another organization''s)');
select is(public.finish_document_upload((:'dead'::jsonb ->> 'upload_id')::uuid) ->> 'code', 'upload_not_found',
  'the expired reservation is gone');
select tests.reset_role();
select is((select array_agg(object_path order by object_path) from private.document_uploads),
  (select array_agg(p order by p) from unnest(array[:'young'::jsonb ->> 'object_path', :'beta_dead'::jsonb ->> 'object_path',
                                                     :'next_begin'::jsonb ->> 'object_path']) p),
  'a 9-minute-old reservation and another organization''s stay');
select is((select count(*)::int from :"alpha_schema".documents where title in ('Yarım', 'Boş')), 0, 'no document was made for them');

rollback;
