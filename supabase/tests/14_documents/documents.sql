-- Documents: template v8 (documents with file, link and versions), the upload RPCs around
-- the Storage write (begin checks permission, link, size, type and quota and reserves the
-- path; finish needs the object Storage holds and keeps the quota exact), the readers
-- (list_record_documents, get_document_details, get_document_usage, the façade), and
-- who may read a document object (public.document_object_readable, which the documents
-- function's signing asks; no member reads storage.objects directly) per organization and per role: another organization's
-- path refused, a deleted document refused, a viewer reads but cannot write or delete, an
-- own-scope role sees only its own; a merge carries a customer's documents along.
begin;
select plan(66);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('solo@alpha.test', 'user', 'Sinan', 'Solo') as alpha_solo \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
-- A role that sees only its own documents (the default roles all see every document).
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'solo', 'Yalnız kendi');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'alpha', 'solo', 'documents', 'view', 'own'), (:'alpha', 'solo', 'documents', 'create', 'own');
select tests.add_member(:'alpha_solo', :'alpha', 'solo');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_solo, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'alpha_solo', :'s_solo', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

insert into :"alpha_schema".customers (name, owner_id, created_by) values ('Işık Yazılım', :'alpha_admin', :'alpha_admin')
returning id as customer \gset
insert into :"alpha_schema".customers (name, owner_id, created_by) values ('Işık Yazılım Ltd.', :'alpha_admin', :'alpha_admin')
returning id as customer_twin \gset
select repeat('a', 64) as sha \gset

-- ---------------------------------------------------------------------------------
-- The schema: template v8, the bucket and its policy
-- ---------------------------------------------------------------------------------

select has_table(:'alpha_schema', 'document_versions', 'template v8 gives every organization document versions');
select has_column(:'alpha_schema', 'documents', 'contract_id', 'documents link to contracts (and customers, contacts, deals, quotes)');
select is((select row(public, file_size_limit)::text from storage.buckets where id = 'documents'), '(f,26214400)',
  'the documents bucket is private with a 25 MiB limit');
select ok((select 'application/pdf' = any (allowed_mime_types) and not ('text/html' = any (allowed_mime_types))
             from storage.buckets where id = 'documents'), 'the bucket allows PDF and not HTML');
select is((select array_agg(cmd::text order by cmd) from pg_policies where schemaname = 'storage' and tablename = 'objects'
             and policyname like 'documents%'), null, 'no Storage policy on document objects: only the documents function reads and signs them');

-- ---------------------------------------------------------------------------------
-- Upload: a new document linked to a customer, then a new version
-- ---------------------------------------------------------------------------------

select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.begin_document_upload(null, 'Sözleşme', 'customers', :'customer', 'C:\belgeler\sözleşme.pdf', 1000,
                                    'application/pdf', :'sha') as begun \gset
select is((:'begun'::jsonb ->> 'version')::int, 1, 'a new document starts at version 1');
select is(:'begun'::jsonb ->> 'object_path', :'alpha' || '/' || (:'begun'::jsonb ->> 'document_id') || '/1',
  'its path is <organization>/<document>/<version>, never the file name');
select is(public.finish_document_upload((:'begun'::jsonb ->> 'upload_id')::uuid) ->> 'code', 'upload_not_found',
  'finishing before Storage holds the object is refused');
select tests.reset_role();
insert into storage.objects (bucket_id, name, metadata) values ('documents', :'begun'::jsonb ->> 'object_path', '{"size": 999}');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.finish_document_upload((:'begun'::jsonb ->> 'upload_id')::uuid) ->> 'code', 'upload_not_found',
  'an object of another size than reserved is not this upload');
select tests.reset_role();
update storage.objects set metadata = '{"size": 1000}' where name = :'begun'::jsonb ->> 'object_path';
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.finish_document_upload((:'begun'::jsonb ->> 'upload_id')::uuid) ->> 'code', 'upload_not_found',
  'another member cannot finish the admin''s upload');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.finish_document_upload((:'begun'::jsonb ->> 'upload_id')::uuid) as finished \gset
select is(:'finished'::jsonb #>> '{document,file_name}', 'sözleşme.pdf', 'the file name is kept without its path');
select is((:'finished'::jsonb #>> '{document,customer_id}')::uuid, :'customer'::uuid, 'the document is linked to the customer');
select is((:'finished'::jsonb #>> '{document,current_version}')::int, 1, 'version 1 is current');
select is(:'finished'::jsonb #>> '{document,uploaded_by_name}', 'Ayşe Yönetici', 'with who uploaded it');
select :'finished'::jsonb #>> '{document,id}' as doc \gset
select is(public.finish_document_upload((:'begun'::jsonb ->> 'upload_id')::uuid) ->> 'code', 'upload_not_found',
  'an upload is recorded once');

select public.begin_document_upload(:'doc', null, null, null, 'imzalı.pdf', 2500, 'application/pdf', :'sha') as begun2 \gset
select is(:'begun2'::jsonb ->> 'object_path', :'alpha' || '/' || :'doc' || '/2', 'a new version goes to version 2');
select is(public.begin_document_upload(:'doc', null, null, null, 'imzalı.pdf', 2500, 'application/pdf', :'sha') ->> 'code',
  'upload_in_progress', 'a second upload of the same version meanwhile is refused');
select tests.reset_role();
insert into storage.objects (bucket_id, name, metadata) values ('documents', :'begun2'::jsonb ->> 'object_path', '{"size": 2500}');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is((public.finish_document_upload((:'begun2'::jsonb ->> 'upload_id')::uuid) #>> '{document,current_version}')::int, 2,
  'the new version is current');
select public.get_document_details(:'doc') as details \gset
select is(jsonb_path_query_array(:'details'::jsonb, '$.versions[*].version'), '[2, 1]'::jsonb, 'the details list both versions, newest first');
select is(:'details'::jsonb #>> '{versions,0,file_name}', 'imzalı.pdf', 'each version keeps its file name');
select is(:'details'::jsonb #>> '{versions,1,object_path}', :'alpha' || '/' || :'doc' || '/1', 'and its object path');
select is(jsonb_array_length(public.list_record_documents('customers', :'customer') -> 'documents'), 1,
  'the customer''s page lists the document');
select is(public.list_documents(null, jsonb_build_object('customer_id', :'customer')) ->> 'total', '1',
  'the documents list filters by the linked record');
select is(public.list_documents('sozlesme') ->> 'total', '1', 'and finds it by a Turkish-folded title search');
select is(public.get_document_usage() ->> 'used_bytes', '3500', 'the usage counts both versions');
select tests.reset_role();
select is((select used_bytes from private.document_quotas where organization_id = :'alpha'),
  (select sum(size_bytes)::bigint from :"alpha_schema".document_versions), 'the used bytes equal the stored versions exactly');

-- ---------------------------------------------------------------------------------
-- Refusals of begin, and the façade's writes
-- ---------------------------------------------------------------------------------

select tests.reset_role();
select updated_at as doc_updated from :"alpha_schema".documents where id = :'doc' \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.begin_document_upload(null, null, null, null, 'a.html', 10, 'text/html', :'sha') ->> 'code',
  'file_type_not_allowed', 'a type off the list is refused');
select is(public.begin_document_upload(null, null, null, null, 'a.pdf', 26214401, 'application/pdf', :'sha') ->> 'code',
  'file_too_large', 'more than 25 MiB is refused');
select is(public.begin_document_upload(null, null, null, null, 'a.pdf', 0, 'application/pdf', :'sha') ->> 'code',
  'file_empty', 'an empty file is refused');
select is(public.begin_document_upload(null, null, null, null, 'a.pdf', 10, 'application/pdf', 'not-a-hash') ->> 'code',
  'invalid_input', 'a malformed sha256 is refused');
select is(public.begin_document_upload(null, null, 'users', :'customer', 'a.pdf', 10, 'application/pdf', :'sha') ->> 'code',
  'link_not_found', 'a module documents cannot link to is refused');
select public.create_document('{"title": "Boş"}') as empty_document \gset
select is(:'empty_document'::jsonb #>> '{record,current_version}', '0', 'a document made through the engine has no file yet');
select is(public.begin_document_upload((:'empty_document'::jsonb #>> '{record,id}')::uuid, null, null, null, 'e.pdf', 10,
                                       'application/pdf', :'sha') ->> 'version', '1', 'its first upload is its version 1');
select is(public.update_document(:'doc', jsonb_build_object('deal_id', null, 'customer_id', :'customer', 'contract_id', :'customer'),
                                 :'doc_updated') ->> 'code',
  'invalid_fields', 'a document links to at most one record');
select is(public.update_document(:'doc', '{"title": "İmzalı sözleşme"}',
                                 :'doc_updated') #>> '{record,title}',
  'İmzalı sözleşme', 'the title is edited through the engine');

-- Quota: refused by begin when it would be exceeded, and again by finish (exactly, under the row lock).
select tests.reset_role();
update private.document_quotas set quota_bytes = 4000 where organization_id = :'alpha';
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.begin_document_upload(null, null, null, null, 'b.pdf', 501, 'application/pdf', :'sha') ->> 'code',
  'quota_exceeded', 'begin refuses a file over the quota');
select public.begin_document_upload(null, null, null, null, 'b.pdf', 500, 'application/pdf', :'sha') as begun3 \gset
select tests.reset_role();
insert into storage.objects (bucket_id, name, metadata) values ('documents', :'begun3'::jsonb ->> 'object_path', '{"size": 500}');
update private.document_quotas set quota_bytes = 3900 where organization_id = :'alpha';
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.finish_document_upload((:'begun3'::jsonb ->> 'upload_id')::uuid) ->> 'code', 'quota_exceeded',
  'finish refuses it when the quota shrank meanwhile');
select is(public.get_document_usage() ->> 'used_bytes', '3500', 'and counts nothing');
select is(public.get_document_usage() ->> 'quota_bytes', '3900', 'the usage shows the quota');
select tests.reset_role();
delete from storage.objects where name = :'begun3'::jsonb ->> 'object_path';
update private.document_quotas set quota_bytes = 1073741824 where organization_id = :'alpha';

-- ---------------------------------------------------------------------------------
-- Storage RLS per role and organization
-- ---------------------------------------------------------------------------------

select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.document_object_readable(:'begun'::jsonb ->> 'object_path') and public.document_object_readable(:'begun2'::jsonb ->> 'object_path'), true, 'the admin may read both versions (through the documents function)');
select tests.reset_role();
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.document_object_readable(:'begun'::jsonb ->> 'object_path') and public.document_object_readable(:'begun2'::jsonb ->> 'object_path'), true, 'a viewer may read them too');
with gone as (delete from storage.objects where bucket_id = 'documents' returning 1)
select is(count(*)::int, 0, 'a viewer deletes nothing') from gone;
select throws_ok($$insert into storage.objects (bucket_id, name, metadata) values ('documents', 'x/y/1', '{"size": 1}')$$,
  '42501', null, 'a viewer cannot write an object');
select is(public.begin_document_upload(null, null, null, null, 'a.pdf', 10, 'application/pdf', :'sha') ->> 'code',
  'permission_denied', 'a viewer cannot upload');
select is(public.delete_documents(array[:'doc']::uuid[]) ->> 'code', 'permission_denied', 'nor delete a document');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
with changed as (update storage.objects set name = name || 'x' where bucket_id = 'documents' returning 1)
select is(count(*)::int, 0, 'not even an admin changes objects directly (only the function writes them)') from changed;

select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.document_object_readable(:'begun'::jsonb ->> 'object_path') and public.document_object_readable(:'begun2'::jsonb ->> 'object_path'), true, 'a sales member (view all) may read them');
select is(public.begin_document_upload(:'doc', null, null, null, 'c.pdf', 10, 'application/pdf', :'sha') ->> 'code',
  'not_found', 'but, with edit scope own, adds no version to the admin''s document');
select is(public.delete_documents(array[:'doc']::uuid[]) ->> 'changed', '0', 'nor deletes it');

select tests.reset_role();
select tests.authenticate_as(:'alpha_solo', :'s_solo');
select is((select count(*)::int from storage.objects where bucket_id = 'documents'), 0, 'an own-scope role reads none of another''s files');
select is(public.document_object_readable(:'alpha' || '/' || :'doc' || '/1'), false, 'its Storage check says no');
select is(public.get_document_details(:'doc') ->> 'code', 'not_found', 'nor sees the document');

select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is((select count(*)::int from storage.objects where bucket_id = 'documents'), 0, 'another organization''s admin reads no object');
select is(public.document_object_readable(:'alpha' || '/' || :'doc' || '/1'), false, 'another organization''s path is refused');
select is(public.get_document_details(:'doc') ->> 'code', 'not_found', 'another organization''s document is not found');
select is(public.begin_document_upload(:'doc', null, null, null, 'd.pdf', 10, 'application/pdf', :'sha') ->> 'code',
  'not_found', 'nor can it get a version from there');
select is(public.begin_document_upload(null, null, 'customers', :'customer', 'd.pdf', 10, 'application/pdf', :'sha') ->> 'code',
  'link_not_found', 'nor link to another organization''s customer');
select is(public.list_record_documents('customers', :'customer') ->> 'code', 'not_found', 'nor list its documents');

-- A deleted document's files are refused; restored, they are readable again.
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.delete_documents(array[:'doc']::uuid[]) ->> 'changed', '1', 'the admin deletes the document');
select is(public.document_object_readable(:'begun'::jsonb ->> 'object_path') and public.document_object_readable(:'begun2'::jsonb ->> 'object_path'), false, 'its files are not readable');
select is(public.restore_documents(array[:'doc']::uuid[]) ->> 'changed', '1', 'restores it');
select is(public.document_object_readable(:'begun'::jsonb ->> 'object_path') and public.document_object_readable(:'begun2'::jsonb ->> 'object_path'), true, 'and they are readable again');

-- A merge of two customers carries the other's documents to the survivor.
select tests.reset_role();
update :"alpha_schema".documents set customer_id = :'customer_twin' where id = :'doc';
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.merge_customers(:'customer', :'customer_twin', '{}') ->> 'success', 'true', 'two customers are merged');
select is(jsonb_array_length(public.list_record_documents('customers', :'customer') -> 'documents'), 1,
  'the document now belongs to the survivor');

select tests.act_as_anon();
select throws_ok($$select public.begin_document_upload(null, null, null, null, 'a.pdf', 10, 'application/pdf', repeat('a', 64))$$,
  '42501', null, 'anon cannot begin an upload');
select is((select count(*)::int from storage.objects where bucket_id = 'documents'), 0, 'nor read any document object');
select tests.reset_role();

select * from finish();
rollback;
