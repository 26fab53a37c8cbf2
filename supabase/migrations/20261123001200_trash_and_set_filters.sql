-- Follow-ups of the documents work (issue 13), two of them for every module of the engine:
-- * The trash: record_list with the filter {"deleted_at": {"is_null": false}} lists the
--   module's deleted records instead of the live ones (each with its deleted_at), for those
--   who may restore them: the module's delete permission and its scope (own: their own
--   deleted records). A viewer is refused (permission_denied). {"is_null": true} is the
--   default. Every façade list_<module> takes it, so a trash view needs no new RPC.
-- * Set or not set: a filter value {"is_null": true|false} on any filterable column, e.g.
--   documents linked to any customer: {"customer_id": {"is_null": false}}.
-- * Upload reservations of a function that died mid-upload expire after 10 minutes (longer
--   than an Edge Function may run: 400 s wall clock) instead of an hour; begin_document_upload
--   drops the organization's expired ones and names their paths that Storage still holds
--   (orphaned_paths), which the documents function removes with the service role.

/**
 * Lists a module's records the caller may see (scope own: their own), not deleted:
 * Turkish-folded search (trigram index), filters on the module's filterable columns
 * ({column: value | [values] | {"from", "to"} | {"is_null": boolean}}, "me" for owner_id),
 * a sortable column (text sorts folded), one page. With {"deleted_at": {"is_null": false}}
 * the deleted records instead (with deleted_at), checked against the delete permission and
 * its scope. The total is exact up to 10,000 matches and "at least 10,000" beyond, so no
 * page waits on a count of a million rows. A search the planner expects to match more than
 * 20,000 rows is not counted and, when a text column was asked for, comes newest first;
 * sorted_by names the order used.
 */
create or replace function private.record_list(p_module text, p_search text, p_filters jsonb, p_sort text,
                                               p_descending boolean, p_limit integer, p_offset integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  module private.modules;
  relation regclass;
  sort_key text;
  sort_type text;
  sort_expression text;
  direction text;
  filters jsonb := coalesce(p_filters, '{}');
  filter_key text;
  filter_type text;
  filter_value jsonb;
  filter_values text[];
  -- {"deleted_at": {"is_null": false}}: the deleted records instead (the trash), for those who may restore them.
  deleted boolean := coalesce(p_filters -> 'deleted_at' = '{"is_null": false}', false);
  conditions text := case when coalesce(p_filters -> 'deleted_at' = '{"is_null": false}', false)
                          then 't.deleted_at is not null' else 't.deleted_at is null' end
                     || ' and ($1 = ''all'' or t.owner_id = $2)';
  folded text := private.fold_search(btrim(coalesce(p_search, '')));
  projection text;
  pattern text;
  source text;
  page jsonb;
  counted bigint;
  broad boolean := false;
  count_cap constant integer := 10000;
  -- Searches the planner expects to match more rows than this are not counted.
  broad_estimate constant integer := 20000;
begin
  context := private.module_context(p_module, case when deleted then 'delete' else 'view' end);
  if context.problem is not null then
    return context.problem;
  end if;
  select * into module from private.modules m where m.key = p_module;
  relation := format('%I.%I', context.schema_name, context.table_name)::regclass;
  sort_key := coalesce(nullif(p_sort, ''), module.default_sort);
  direction := case when coalesce(p_descending, module.default_descending and p_sort is null) then 'desc' else 'asc' end;
  if not (sort_key = any (module.sortable_columns)) or coalesce(p_offset, 0) < 0
     or jsonb_typeof(filters) <> 'object' or (folded <> '' and not module.searchable) then
    return private.failure('Invalid list request', 'invalid_input');
  end if;

  for filter_key in select k from jsonb_object_keys(filters) k loop
    if filter_key = 'deleted_at' then
      -- Only the two states: not deleted (the default) or deleted (handled above).
      if filters -> filter_key not in ('{"is_null": false}', '{"is_null": true}') then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      continue;
    end if;
    if not (filter_key = any (module.filterable_columns) or filter_key = 'owner_id') then
      return private.failure('Invalid list request', 'invalid_input');
    end if;
    select pg_catalog.format_type(a.atttypid, a.atttypmod) into filter_type
      from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = filter_key;
    filter_value := filters -> filter_key;
    if jsonb_typeof(filter_value) = 'object' and filter_value ? 'is_null' then
      -- Set or not set, on any filterable column: {"is_null": true|false} alone.
      if jsonb_typeof(filter_value -> 'is_null') <> 'boolean' or (select count(*) from jsonb_object_keys(filter_value)) <> 1 then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      conditions := conditions || format(' and t.%I is %s null', filter_key,
                                         case when (filter_value ->> 'is_null')::boolean then '' else 'not' end);
      continue;
    end if;
    if jsonb_typeof(filter_value) = 'object' then
      -- A range: only on dates, times and numbers, only "from" and "to".
      if filter_type !~ '^(date|timestamp|numeric|integer|bigint|smallint)'
         or exists (select 1 from jsonb_object_keys(filter_value) k where k not in ('from', 'to'))
         or exists (select 1 from jsonb_each(filter_value) e where jsonb_typeof(e.value) not in ('string', 'number')) then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      conditions := conditions
        || case when filter_value ? 'from' then format(' and t.%I >= %L::%s', filter_key, filter_value ->> 'from', filter_type) else '' end
        || case when filter_value ? 'to' then format(' and t.%I < %L::%s', filter_key, filter_value ->> 'to', filter_type) else '' end;
      continue;
    end if;
    if jsonb_typeof(filter_value) <> 'array' then
      filters := jsonb_set(filters, array[filter_key], jsonb_build_array(filter_value));
    end if;
    if filter_key = 'owner_id' then
      filters := jsonb_set(filters, '{owner_id}', (
        select jsonb_agg(case when v = '"me"' then to_jsonb(context.caller) else v end)
          from jsonb_array_elements(filters -> 'owner_id') v));
    end if;
    -- The column and its type come from the registry and the catalog; the values are quoted
    -- literals (%L), so the planner sees them: as a subquery over the parameter it guessed a
    -- third of the table for any value and walked a 500,000-row index for three rows (1.7 s).
    select array_agg(v) into filter_values from jsonb_array_elements_text(filters -> filter_key) v;
    conditions := conditions || case
      when filter_type like '%[]' then format(' and t.%I && %L::%s', filter_key, filter_values, filter_type)
      else format(' and t.%I = any(%L::%s[])', filter_key, filter_values, filter_type) end;
  end loop;
  if folded <> '' then
    conditions := conditions || ' and t.search_text like $4';
  end if;

  select string_agg(format('%L, r.%I', c, c), ', ') into projection from unnest(module.list_columns) c;
  pattern := '%' || replace(replace(replace(folded, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  begin
    if folded <> '' then
      broad := private.estimated_list_rows(format('select 1 from %s t where %s', relation, conditions),
                                           context.scope, context.caller, filters, pattern) > broad_estimate;
    end if;
    if broad then
      counted := count_cap + 1;
    else
      execute format('select count(*) from (select 1 from %s t where %s limit %s) capped', relation, conditions, count_cap + 1)
        into counted using context.scope, context.caller, filters, pattern;
    end if;

    -- Text sorts folded (Ç beside C, İ beside I): PGlite has no ICU collations to ask.
    select pg_catalog.format_type(a.atttypid, a.atttypmod) into sort_type
      from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = sort_key;
    if broad and sort_type = 'text' then
      -- Matches of a broad search cluster in name order (a name search meets them all at
      -- one letter); in date order they are spread, so the newest come at once.
      sort_key := 'created_at';
      sort_type := 'timestamp with time zone';
      direction := 'desc';
    end if;
    sort_expression := case when sort_type = 'text' then format('private.fold_search(t.%I)', sort_key)
                            else format('t.%I', sort_key) end;

    -- A search matching at most count_cap rows: fetch its matches through the trigram index,
    -- then sort them (the planner, misjudging a pattern, may walk the whole sort index
    -- instead: 190 ms at a million rows). Denser matches: the sort index finds a page fast.
    if folded <> '' and counted <= count_cap then
      source := format('(select * from %s t where %s offset 0)', relation, conditions);
    else
      source := relation::text;
    end if;
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'owner_id', r.owner_id, 'owner_name', r.owner_name,
                                                   'created_at', r.created_at, 'updated_at', r.updated_at, %1$s)
                                || case when %6$L then jsonb_build_object('deleted_at', r.deleted_at) else '{}' end
                                order by r.position), '[]')
        from (select t.*, nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') as owner_name,
                     row_number() over (order by %2$s %3$s, t.id %3$s) as position
                from %4$s t
                left join private.profiles p on p.id = t.owner_id
               where %5$s
               order by %2$s %3$s, t.id %3$s
               limit $5 offset $6) r$query$,
      projection, sort_expression, direction, source, conditions, deleted)
      into page
      using context.scope, context.caller, filters, pattern,
            least(greatest(coalesce(p_limit, 50), 1), 200), coalesce(p_offset, 0);
  exception when invalid_text_representation or invalid_datetime_format or datatype_mismatch
                 or datetime_field_overflow or numeric_value_out_of_range then
    return private.failure('Invalid list request', 'invalid_input');
  end;

  return jsonb_build_object('success', true, 'scope', context.scope, 'records', page,
                            'total', least(counted, count_cap), 'total_exact', counted <= count_cap,
                            'sorted_by', sort_key, 'descending', direction = 'desc');
end;
$$;


/** How long an upload reservation lives: 10 minutes, longer than an Edge Function may run (400 s). */
create function private.document_upload_lifetime()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '10 minutes'; $$;

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
create or replace function private.document_upload_begin(p_document_id uuid, p_title text, p_module text, p_record_id uuid,
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


revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
