-- Documents and Storage: the documents bucket, quotas, upload reservations, document
-- rules and details, and signed downloads.

-- ---------------------------------------------------------------------------------
-- Quota and upload reservations (control data)
-- ---------------------------------------------------------------------------------
create table private.document_quotas (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  quota_bytes bigint not null default 1073741824 check (quota_bytes >= 0),
  used_bytes bigint not null default 0 check (used_bytes >= 0)
);

alter table private.document_quotas enable row level security;

comment on table private.document_quotas is
  'Each organization''s document storage: the quota (1 GiB unless set) and the bytes its stored versions use, kept exact by the upload.';

create table private.document_uploads (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references private.organizations (id) on delete cascade,
  user_id uuid not null,
  document_id uuid not null,
  -- True when finishing creates the document (false: a version of an existing one).
  is_new boolean not null,
  version integer not null check (version >= 1),
  object_path text not null unique,
  title text,
  link_module text,
  link_id uuid,
  file_name text not null,
  size_bytes bigint not null,
  mime_type text not null,
  sha256 text not null,
  created_at timestamptz not null default now()
);

create index document_uploads_user_idx on private.document_uploads (user_id);

create index document_uploads_created_idx on private.document_uploads (created_at);

alter table private.document_uploads enable row level security;

comment on table private.document_uploads is
  'Uploads under way: the path begin_document_upload reserved and what finish_document_upload will record.';

/** The largest file a document version may hold: 25 MiB (the bucket and the Edge Function say the same). */
create function private.document_max_bytes()
returns bigint
language sql
immutable
set search_path = ''
as $$ select 26214400::bigint; $$;

/** The file types a document may have (the Edge Function decides the type from the file's first bytes). */
create function private.document_mime_types()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp',
               'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
               'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
               'application/vnd.openxmlformats-officedocument.presentationml.presentation',
               'application/msword', 'application/vnd.ms-excel', 'application/x-cfb', 'application/zip',
               'text/plain', 'text/csv'];
$$;

/**
 * The column of the documents table that links a document to a record of the module (its
 * registry row's document_link), or null when documents cannot belong to its records.
 */
create function private.document_link_column(p_module text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select m.document_link from private.modules m where m.key = p_module);
end;
$$;

/** A file name as it is kept and offered for download: its last path part, no control characters, at most 255 characters; null when nothing is left. */
create function private.clean_file_name(p_name text)
returns text
language sql
immutable
set search_path = ''
as $$
  select nullif(left(btrim(regexp_replace(regexp_replace(coalesce(p_name, ''), '^.*[/\\]', ''),
                                          '[[:cntrl:]]', '', 'g')), 255), '');
$$;

/**
 * The documents module's own rule for the record engine (the title, 1 to 300 characters and
 * required, is its declared type's; a document created so has no file until its first
 * upload): a document links to at most one record through the registry's document links
 * (setting one clears the others). The file columns are written only by an upload.
 */
create function private.prepare_document(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  prepared jsonb := p_values;
  errors jsonb := '{}';
  links text[] := array(select m.document_link from private.modules m where m.document_link is not null order by m.position);
  set_links text[];
  link text;
begin
  set_links := array(select l from unnest(links) l where p_values ? l and jsonb_typeof(p_values -> l) <> 'null');
  if cardinality(set_links) > 1 then
    errors := errors || jsonb_build_object(set_links[2], 'one_link_only');
  elsif cardinality(set_links) = 1 then
    foreach link in array links loop
      if link <> set_links[1] then
        prepared := prepared || jsonb_build_object(link, null);
      end if;
    end loop;
  end if;
  return jsonb_build_object('values', prepared, 'errors', errors);
end;
$$;

-- Its link fields (customer_id, contact_id, …) are the document links the other modules'
-- registrations name (private.register_module declares them after these).
select private.register_module(
  p_key => 'documents', p_position => 6, p_table_name => 'documents', p_entity_type => 'document',
  p_fields => jsonb_build_array(
    private.field_declaration('title', 'text', 'Başlık', 'Title', '{required,listed,sortable,own_ui}', 300),
    private.field_declaration('file_name', 'text', 'Dosya', 'File', '{readonly,listed,own_ui}'),
    private.field_declaration('mime_type', 'text', 'Tür', 'Type', '{readonly,listed,filterable,own_ui}'),
    private.field_declaration('size_bytes', 'number', 'Boyut', 'Size', '{readonly,listed,sortable,own_ui}'),
    private.field_declaration('current_version', 'number', 'Sürüm', 'Version', '{readonly,listed,own_ui}')),
  p_default_sort => 'updated_at', p_default_descending => true, p_searchable => true,
  p_prepare_function => 'prepare_document');

/**
 * Documents as lists show them (the engine's record answer, with the linked records'
 * names of private.link_names_sql, plus uploaded_by_name and uploaded_at of the current
 * version), by an SQL condition over `d` with $1 scope, $2 caller, $3 and $4 free
 * parameters; newest change first.
 */
create function private.documents_json(p_schema text, p_condition text, p_scope text, p_caller uuid, p_first uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_rows jsonb;
  joins text;
  names text;
begin
  -- The linked records' names (customer_name, deal_name, ...), as the record engine gives them.
  select coalesce(string_agg(l.join_sql, ' '), ''),
         coalesce('jsonb_build_object(' || string_agg(format('%L, %s', l.name_key, l.name_sql), ', ') || ')', '''{}''::jsonb')
    into joins, names
    from private.link_names_sql('documents', p_schema, 'd') l;
  execute format($query$
    select coalesce(jsonb_agg(private.record_json(to_jsonb(d)) || %3$s
                              || jsonb_build_object('uploaded_by_name', private.profile_name(v.uploaded_by),
                                                    'uploaded_at', v.uploaded_at)
                              order by d.updated_at desc, d.id desc), '[]')
      from %1$I.documents d
      left join %1$I.document_versions v on v.document_id = d.id and v.version = d.current_version
      %4$s
     where d.deleted_at is null and ($1 = 'all' or d.owner_id = $2) and %2$s$query$, p_schema, p_condition, names, joins)
    into found_rows using p_scope, p_caller, p_first;
  return found_rows;
end;
$$;

/**
 * The documents linked to one record the caller may see (of a module documents can belong
 * to: its registry row's document_link), those the caller may see among documents, newest
 * change first; invalid_input for a module documents cannot belong to.
 */
create function private.record_documents(p_module text, p_record_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents', 'view');
  link text := private.document_link_column(p_module);
  found_record jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if link is null or p_record_id is null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  found_record := private.record_get(p_module, p_record_id);
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  return jsonb_build_object('success', true, 'documents',
    private.documents_json(context.schema_name, format('d.%I = $3', link), context.scope, context.caller, p_record_id));
end;
$$;

/**
 * One document the caller may see with its versions, newest first: {document, versions:
 * [{version, file_name, size_bytes, mime_type, sha256, uploaded_by, uploaded_by_name,
 * uploaded_at, object_path}]}. Another organization's id is simply not found.
 */
create function private.document_details(p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents', 'view');
  found_document jsonb;
  versions jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  found_document := private.documents_json(context.schema_name, 'd.id = $3', context.scope, context.caller, p_id) -> 0;
  if found_document is null then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('version', v.version, 'file_name', v.file_name, 'size_bytes', v.size_bytes,
                                                 'mime_type', v.mime_type, 'sha256', v.sha256, 'uploaded_by', v.uploaded_by,
                                                 'uploaded_by_name', private.profile_name(v.uploaded_by),
                                                 'uploaded_at', v.uploaded_at, 'object_path', v.object_path)
                              order by v.version desc), '[]')
      from %I.document_versions v where v.document_id = $1$query$, context.schema_name)
    into versions using p_id;
  return jsonb_build_object('success', true, 'document', found_document, 'versions', versions);
end;
$$;

/** The organization's document storage: {used_bytes, quota_bytes}, for anyone who may see documents. */
create function private.document_usage()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents', 'view');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  return jsonb_build_object('success', true,
    'used_bytes', coalesce((select q.used_bytes from private.document_quotas q where q.organization_id = context.organization_id), 0),
    'quota_bytes', coalesce((select q.quota_bytes from private.document_quotas q where q.organization_id = context.organization_id),
                            1073741824));
end;
$$;

/**
 * Checks an upload by the signed-in caller and reserves its object path: a new document (documents
 * create; with p_module and p_record_id, a record the caller may see) or a new version of
 * a document the caller may edit (p_document_id). The file's size (1 byte to 25 MiB), its
 * type (allow-list), its sha256 and the quota are checked here too. Drops the
 * organization's reservations older than private.document_upload_lifetime(). Returns
 * {upload_id, object_path, document_id, version, orphaned_paths: the dropped reservations'
 * objects Storage still holds, for the function to remove}. Refusals: file_empty,
 * file_too_large, file_type_not_allowed, quota_exceeded, link_not_found, not_found,
 * upload_in_progress.
 */
create function private.document_upload_begin(p_document_id uuid, p_title text, p_module text, p_record_id uuid,
                                              p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('documents',
                                                           case when p_document_id is null then 'create' else 'edit' end);
  file_name text := private.clean_file_name(p_file_name);
  title text := left(coalesce(nullif(btrim(p_title), ''), file_name), 300);
  document_id uuid := coalesce(p_document_id, gen_random_uuid());
  version integer;
  path text;
  upload_id uuid;
  orphaned_paths text[];
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if file_name is null or p_sha256 is null or p_sha256 !~ '^[0-9a-f]{64}$' or p_size_bytes is null
     or (p_module is null) <> (p_record_id is null) or (p_document_id is not null and p_module is not null) then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if p_size_bytes < 1 then
    return private.failure('The file is empty', 'file_empty');
  end if;
  if p_size_bytes > private.document_max_bytes() then
    return private.failure('File too large', 'file_too_large');
  end if;
  if p_mime_type is null or not (p_mime_type = any (private.document_mime_types())) then
    return private.failure('File type not allowed', 'file_type_not_allowed');
  end if;
  if p_module is not null and (private.document_link_column(p_module) is null
                               or not (private.record_get(p_module, p_record_id) ->> 'success')::boolean) then
    return private.failure('Linked record not found', 'link_not_found');
  end if;
  if p_size_bytes + coalesce((select q.used_bytes from private.document_quotas q where q.organization_id = context.organization_id), 0)
     > coalesce((select q.quota_bytes from private.document_quotas q where q.organization_id = context.organization_id), 1073741824) then
    return private.failure('Storage quota exceeded', 'quota_exceeded');
  end if;
  if p_document_id is null then
    version := 1;
  else
    execute format('select t.current_version + 1 from %I.documents t where t.id = $1 and t.deleted_at is null
                      and ($2 = ''all'' or t.owner_id = $3)', context.schema_name)
      into version using p_document_id, context.scope, context.caller;
    if version is null then
      return private.failure('Record not found', 'not_found');
    end if;
  end if;
  path := format('%s/%s/%s', context.organization_id, document_id, version);
  -- The organization's reservations nobody finished within 10 minutes (a function stopped
  -- mid-upload; a live one cannot run that long) are dropped, and the objects Storage still
  -- holds for them are named for the function to remove. A live reservation for this path
  -- is an upload under way.
  with expired as (
    delete from private.document_uploads u
     where u.organization_id = context.organization_id and u.created_at < now() - private.document_upload_lifetime()
    returning u.object_path)
  select coalesce(array_agg(e.object_path order by e.object_path), '{}') into orphaned_paths
    from expired e
   where exists (select 1 from storage.objects o where o.bucket_id = 'documents' and o.name = e.object_path);
  insert into private.document_uploads (organization_id, user_id, document_id, is_new, version, object_path, title,
                                        link_module, link_id, file_name, size_bytes, mime_type, sha256)
  values (context.organization_id, context.caller, document_id, p_document_id is null, version, path, title, p_module, p_record_id,
          file_name, p_size_bytes, p_mime_type, p_sha256)
  on conflict (object_path) do nothing
  returning id into upload_id;
  if upload_id is null then
    return private.failure('Another upload of this document is under way', 'upload_in_progress');
  end if;
  return jsonb_build_object('success', true, 'upload_id', upload_id, 'object_path', path,
                            'document_id', document_id, 'version', version, 'orphaned_paths', to_jsonb(orphaned_paths));
end;
$$;

/**
 * Records an upload the caller reserved once Storage holds its object (at the reserved
 * path, with the reserved size): the quota counts it (refused when it would be exceeded),
 * then the new document (owned by the caller, linked to the record) or the document's
 * new version is written with its version row, in one transaction; audited. Returns
 * {success, document}. Refusals: upload_not_found, quota_exceeded, not_found,
 * link_not_found, stale_record (another version came first).
 */
create function private.document_upload_finish(p_upload_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  upload private.document_uploads;
  context private.module_context;
  stored_size bigint;
  current integer;
  link text;
  written jsonb;
begin
  select * into upload from private.document_uploads u
   where u.id = p_upload_id and u.user_id = auth.uid() and u.organization_id = private.current_organization_id()
     for update;
  if upload.id is null then
    return private.failure('Upload not found', 'upload_not_found');
  end if;
  context := private.module_context('documents', case when upload.is_new then 'create' else 'edit' end);
  if context.problem is not null then
    return context.problem;
  end if;
  select (o.metadata ->> 'size')::bigint into stored_size
    from storage.objects o where o.bucket_id = 'documents' and o.name = upload.object_path;
  if stored_size is distinct from upload.size_bytes then
    return private.failure('Upload not found', 'upload_not_found');
  end if;

  if upload.is_new then
    link := private.document_link_column(upload.link_module);
    if upload.link_module is not null and not (private.record_get(upload.link_module, upload.link_id) ->> 'success')::boolean then
      return private.failure('Linked record not found', 'link_not_found');
    end if;
  else
    execute format('select t.current_version from %I.documents t where t.id = $1 and t.deleted_at is null
                      and ($2 = ''all'' or t.owner_id = $3) for update', context.schema_name)
      into current using upload.document_id, context.scope, context.caller;
    if current is null then
      return private.failure('Record not found', 'not_found');
    end if;
    if current <> upload.version - 1 then
      return private.failure('The record was changed by someone else', 'stale_record');
    end if;
  end if;

  -- The quota last among the checks: nothing after it refuses, so the count stays exact.
  insert into private.document_quotas (organization_id) values (context.organization_id) on conflict do nothing;
  update private.document_quotas q set used_bytes = q.used_bytes + upload.size_bytes
   where q.organization_id = context.organization_id and q.used_bytes + upload.size_bytes <= q.quota_bytes;
  if not found then
    return private.failure('Storage quota exceeded', 'quota_exceeded');
  end if;

  if upload.is_new then
    execute format('insert into %I.documents (id, title, file_name, mime_type, size_bytes, current_version, owner_id, created_by%s)
                    values ($1, $2, $3, $4, $5, 1, $6, $6%s) returning to_jsonb(documents)',
                   context.schema_name,
                   case when link is not null then format(', %I', link) else '' end,
                   case when link is not null then ', $7' else '' end)
      into written
      using upload.document_id, upload.title, upload.file_name, upload.mime_type, upload.size_bytes, context.caller, upload.link_id;
    perform private.write_audit(context.organization_id, 'documents.create', 'documents', upload.document_id::text,
                                jsonb_build_object('version', 1, 'size_bytes', upload.size_bytes));
  else
    execute format('update %I.documents t set file_name = $2, mime_type = $3, size_bytes = $4, current_version = $5
                     where t.id = $1 returning to_jsonb(t)', context.schema_name)
      into written using upload.document_id, upload.file_name, upload.mime_type, upload.size_bytes, upload.version;
    execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                    values (''document'', $1, ''current_version'', $2, $3, $4)', context.schema_name)
      using upload.document_id, to_jsonb(current), to_jsonb(upload.version), context.caller;
    perform private.write_audit(context.organization_id, 'documents.version', 'documents', upload.document_id::text,
                                jsonb_build_object('version', upload.version, 'size_bytes', upload.size_bytes));
  end if;
  execute format('insert into %I.document_versions (document_id, version, object_path, file_name, size_bytes, mime_type,
                                                     sha256, uploaded_by) values ($1, $2, $3, $4, $5, $6, $7, $8)',
                 context.schema_name)
    using upload.document_id, upload.version, upload.object_path, upload.file_name, upload.size_bytes, upload.mime_type,
          upload.sha256, context.caller;
  delete from private.document_uploads u where u.id = upload.id;
  return jsonb_build_object('success', true, 'document',
    private.record_answer('documents', written) || jsonb_build_object('uploaded_by_name', private.profile_name(context.caller),
                                                       'uploaded_at', now()));
end;
$$;

/** Drops the caller's own upload reservation (the Edge Function, after a failed Storage write). */
create function private.document_upload_cancel(p_upload_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.document_uploads u where u.id = p_upload_id and u.user_id = auth.uid();
  return jsonb_build_object('success', true);
end;
$$;

/**
 * Storage RLS's question for one object name of the documents bucket: true only when its
 * first folder is the organization the caller's session is bound to, the caller may view
 * documents there, and the name is a version of a document they may see (own/all scope)
 * that is not deleted. In public because the policy runs as the caller (who has no access
 * to the private schema); it answers only about the caller's own organization.
 */
create function public.document_object_readable(p_name text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('module', 'documents', 'view');
  schema_name text;
  readable boolean;
begin
  if caller.problem is not null or p_name is null or split_part(p_name, '/', 1) <> caller.organization_id::text then
    return false;
  end if;
  schema_name := private.tenant_schema(caller.organization_id);
  if schema_name is null then
    return false;
  end if;
  execute format('select exists (select 1 from %1$I.document_versions v join %1$I.documents d on d.id = v.document_id
                   where v.object_path = $1 and d.deleted_at is null and ($2 = ''all'' or d.owner_id = $3))', schema_name)
    into readable using p_name, caller.scope, caller.user_id;
  return readable;
end;
$$;
revoke all on function public.document_object_readable(p_name text) from public, anon, authenticated;
grant execute on function public.document_object_readable(p_name text) to authenticated;

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('documents', 'documents', false, private.document_max_bytes(), private.document_mime_types())
on conflict (id) do update
  set public = false, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

/** The documents linked to one record (of a module documents can belong to). */
create function public.list_record_documents(p_module text, p_record_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_documents(p_module, p_record_id); $$;
revoke all on function public.list_record_documents(p_module text, p_record_id uuid) from public, anon, authenticated;
grant execute on function public.list_record_documents(p_module text, p_record_id uuid) to authenticated;

/** One document with its versions (newest first, each with its Storage object path). */
create function public.get_document_details(p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.document_details(p_id); $$;
revoke all on function public.get_document_details(p_id uuid) from public, anon, authenticated;
grant execute on function public.get_document_details(p_id uuid) to authenticated;

/** The organization's document storage: bytes used and the quota. */
create function public.get_document_usage()
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.document_usage(); $$;
revoke all on function public.get_document_usage() from public, anon, authenticated;
grant execute on function public.get_document_usage() to authenticated;

/** Checks an upload and reserves its object path (called by the documents Edge Function as the caller). */
create function public.begin_document_upload(p_document_id uuid, p_title text, p_module text, p_record_id uuid,
                                             p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.document_upload_begin(p_document_id, p_title, p_module, p_record_id, p_file_name, p_size_bytes,
                                           p_mime_type, p_sha256); $$;
revoke all on function public.begin_document_upload(p_document_id uuid, p_title text, p_module text, p_record_id uuid, p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text) from public, anon, authenticated;
grant execute on function public.begin_document_upload(p_document_id uuid, p_title text, p_module text, p_record_id uuid, p_file_name text, p_size_bytes bigint, p_mime_type text, p_sha256 text) to authenticated;

/** Records a reserved upload once Storage holds its object (called by the documents Edge Function). */
create function public.finish_document_upload(p_upload_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.document_upload_finish(p_upload_id); $$;
revoke all on function public.finish_document_upload(p_upload_id uuid) from public, anon, authenticated;
grant execute on function public.finish_document_upload(p_upload_id uuid) to authenticated;

/** Drops the caller's upload reservation after a failed Storage write. */
create function public.cancel_document_upload(p_upload_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.document_upload_cancel(p_upload_id); $$;
revoke all on function public.cancel_document_upload(p_upload_id uuid) from public, anon, authenticated;
grant execute on function public.cancel_document_upload(p_upload_id uuid) to authenticated;

/** How long an upload reservation lives: 10 minutes, longer than an Edge Function may run (400 s). */
create function private.document_upload_lifetime()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '10 minutes'; $$;

create table private.document_downloads (
  token_hash bytea primary key,
  user_id uuid not null references private.profiles (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  organization_id uuid not null references private.organizations (id) on delete cascade,
  object_path text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);

create index document_downloads_user_id_idx on private.document_downloads (user_id, expires_at);

create index document_downloads_session_id_idx on private.document_downloads (session_id);

create index document_downloads_organization_id_idx on private.document_downloads (organization_id);

alter table private.document_downloads enable row level security;

comment on table private.document_downloads is
  'Signed download URLs of the documents bucket: who signed (user, Auth session, organization), which object, until when, sha-256 of the URL''s token.';

/** The longest life of a signed download URL: 60 seconds (the app asks for exactly that). */
create function private.document_download_seconds()
returns integer
language sql
immutable
set search_path = ''
as $$
  select 60;
$$;

/**
 * The documents Edge Function's question, asked as the caller, before it hands out a signed
 * URL it made for the object: may the caller read this object now (session bound to its
 * organization, documents view permission in scope, the document not deleted and holding that
 * version: public.document_object_readable)? When yes, the signing is recorded (who, which
 * session and object, until when, the sha-256 of the URL's token, hex) for p_seconds (at most
 * 60); the caller's expired records go. Another organization's or a deleted document's object
 * is not_found, like one that does not exist.
 */
create function public.sign_document_download(p_object_path text, p_token_hash text, p_seconds integer default 60)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('usable_session');
  caller uuid := context.user_id;
  session uuid := context.session_id;
  organization_id uuid := context.organization_id;
  expires timestamptz;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if organization_id is null then
    return private.refusal('organization_context_required');
  end if;
  if p_object_path is null or char_length(p_object_path) > 200 or coalesce(p_token_hash, '') !~ '^[0-9a-f]{64}$'
     or p_seconds is null or p_seconds < 1 or p_seconds > private.document_download_seconds() then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if not public.document_object_readable(p_object_path) then
    return private.failure('Record not found', 'not_found');
  end if;
  expires := now() + make_interval(secs => p_seconds);
  delete from private.document_downloads d where d.user_id = caller and d.expires_at < now();
  insert into private.document_downloads (token_hash, user_id, session_id, organization_id, object_path, expires_at)
  values (decode(p_token_hash, 'hex'), caller, session, organization_id, p_object_path, expires)
  on conflict (token_hash) do nothing;
  -- Storage's token names only the object and its times: two signings of one object in the
  -- same second with the same life are the same token. It is recorded for its first signer
  -- only; the function signs again with a shorter life (another token).
  if not found then
    return private.failure('This link is already given out; sign again', 'token_in_use');
  end if;
  return jsonb_build_object('success', true, 'expires_at', expires);
end;
$$;
revoke all on function public.sign_document_download(p_object_path text, p_token_hash text, p_seconds integer) from public, anon, authenticated;
grant execute on function public.sign_document_download(p_object_path text, p_token_hash text, p_seconds integer) to authenticated;

/**
 * The local stack front's question before it serves a signed download of the documents
 * bucket (GET /storage/v1/object/sign/documents/…): is this URL token one the documents
 * function recorded, still within its recorded life, and may its signer still read the
 * object now? The last is public.document_object_readable asked as the signer in the
 * session they signed in: false once the document is deleted, the signer is deactivated,
 * locked, no longer an active member, without documents view permission, or signed out.
 */
create function private.document_download_allowed(p_token text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  download private.document_downloads;
  previous_claims text := current_setting('request.jwt.claims', true);
  previous_sub text := current_setting('request.jwt.claim.sub', true);
  readable boolean;
begin
  if p_token is null or char_length(p_token) > 4096 then
    return false;
  end if;
  select * into download from private.document_downloads d
   where d.token_hash = extensions.digest(p_token, 'sha256') and d.expires_at > now();
  if not found then
    return false;
  end if;
  perform set_config('request.jwt.claim.sub', download.user_id::text, true);
  perform set_config('request.jwt.claims', jsonb_build_object('sub', download.user_id, 'role', 'authenticated',
                                                              'session_id', download.session_id)::text, true);
  readable := split_part(download.object_path, '/', 1) = download.organization_id::text
              and public.document_object_readable(download.object_path);
  perform set_config('request.jwt.claim.sub', coalesce(previous_sub, ''), true);
  perform set_config('request.jwt.claims', coalesce(previous_claims, ''), true);
  return coalesce(readable, false);
end;
$$;
