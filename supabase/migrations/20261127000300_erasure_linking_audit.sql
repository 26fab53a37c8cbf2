-- Security pass, issue 23 (items 8, 14 and 13's settings and roles part):
-- * KVKK erasure covers every copy of the person in the organization: erase_contact erases
--   the contact with every contact of its merge family (merged into it, or it into them),
--   their notes, field history and the old values imports kept, and then sweeps every
--   text, text[] and jsonb column of every table of the organization's schema (found in the
--   catalogue, so a table added later is covered) plus its notifications and upload
--   reservations for the person's names, e-mails and phones (private.erase_person_values).
--   The audit log is append-only and never holds a record's values (ids, field names,
--   counts), so there is nothing to erase there.
-- * Linking checks the caller's scope on the linked module: a record's link to another
--   module's record (deal → customer, task → contact, document → quote, …; the links are
--   the foreign keys in the catalogue, private.module_links) must be a record the caller
--   may see, else the answer is the one for a record that does not exist. In one place for
--   the forms (private.prepare_record: create, update, bulk update, merge, quotes, contracts)
--   and for imports (private.import_resolve by name or id, private.import_process for id
--   columns); set_deal_contacts likewise.
-- * Settings and role changes are audited with old and new values (a secret-typed setting
--   masked).

-- ---------------------------------------------------------------------------------
-- Links to other modules' records: within the caller's view scope
-- ---------------------------------------------------------------------------------


/**
 * The columns by which a module's records link to another module's records, from the
 * catalogue: the module's writable columns with a foreign key to a registered module's
 * table in the organization's schema (a deal's customer_id, a document's quote_id, …). A
 * module or link added later is covered without a change here.
 */
create function private.module_links(p_module text, p_schema text)
returns table (column_name text, target_module text)
language sql
stable
security definer
set search_path = ''
as $$
  select a.attname::text, target.key
    from private.modules m
    join pg_catalog.pg_namespace n on n.nspname = p_schema
    join pg_catalog.pg_class source on source.relnamespace = n.oid and source.relname = m.table_name
    join pg_catalog.pg_constraint c on c.conrelid = source.oid and c.contype = 'f' and cardinality(c.conkey) = 1
    join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    join pg_catalog.pg_class referenced on referenced.oid = c.confrelid and referenced.relnamespace = n.oid
    join private.modules target on target.table_name = referenced.relname
   where m.key = p_module and a.attname = any (m.writable_columns);
$$;

/**
 * The links of p_values (private.module_links) the caller may not set: each id that is
 * new (not the value p_existing holds) and names no record the caller may see in its
 * module (private.record_visible: not deleted, within their view scope) is not_found, the
 * answer for a record that does not exist, so a hidden record's existence never shows.
 * {column: "not_found"}; a value that is not an id is left to the module's rules.
 */
create function private.link_errors(p_module text, p_values jsonb, p_existing jsonb, p_schema text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  link record;
  linked uuid;
  errors jsonb := '{}';
begin
  if jsonb_typeof(p_values) is distinct from 'object' or p_schema is null then
    return errors;
  end if;
  for link in select l.column_name, l.target_module from private.module_links(p_module, p_schema) l
               where p_values ? l.column_name loop
    linked := private.try_uuid(p_values -> link.column_name);
    continue when linked is null or linked = private.try_uuid(p_existing -> link.column_name);
    if not private.record_visible(link.target_module, linked) then
      errors := errors || jsonb_build_object(link.column_name, 'not_found');
    end if;
  end loop;
  return errors;
end;
$$;


/**
 * What a write may set: the module's writable columns (and owner_id), checked and
 * normalised by the module's prepare function; an external id trimmed (empty clears it).
 * Returns {"values"} or, in "problem", the refusal: unknown fields or field errors
 * ({"fields": {column: code}}). An owner must be an active member of the organization;
 * with scope 'own' only the caller. A link to another module's record (a deal's customer, a
 * task's contact, a document's quote, …: private.link_errors) must be one the caller may see,
 * else it is not_found, as a record that does not exist.
 */
create or replace function private.prepare_record(p_module text, p_values jsonb, p_existing jsonb,
                                                  p_caller uuid, p_organization_id uuid, p_scope text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  module private.modules;
  prepared jsonb;
  errors jsonb := '{}';
  unknown text;
  owner uuid;
  external_id text;
begin
  select * into module from private.modules m where m.key = p_module;
  if jsonb_typeof(p_values) is distinct from 'object' then
    return jsonb_build_object('problem', private.failure('Invalid input', 'invalid_input'));
  end if;
  select k into unknown from jsonb_object_keys(p_values) k
   where not (k = any (module.writable_columns) or k = 'owner_id') limit 1;
  if unknown is not null then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields',
      jsonb_build_object('fields', jsonb_build_object(left(unknown, 63), 'unknown_field'))));
  end if;

  if module.prepare_function is not null then
    execute format('select private.%I($1, $2)', module.prepare_function) into prepared using p_values, p_existing;
    errors := prepared -> 'errors';
    prepared := prepared -> 'values';
  else
    prepared := p_values;
  end if;

  -- Links to other modules' records: within the caller's view scope of that module.
  errors := private.link_errors(p_module, p_values, p_existing, private.tenant_schema(p_organization_id)) || errors;

  if p_values ? 'external_id' then
    external_id := private.clean_external_id(p_values -> 'external_id');
    if external_id is null then
      errors := errors || '{"external_id": "invalid"}';
    else
      prepared := prepared || jsonb_build_object('external_id', nullif(external_id, ''));
    end if;
  end if;

  if p_values ? 'owner_id' then
    begin
      owner := (p_values ->> 'owner_id')::uuid;
    exception when invalid_text_representation then
      owner := null;
    end;
    if owner is null or not exists (select 1 from private.memberships m
                                     where m.user_id = owner and m.organization_id = p_organization_id and m.is_active) then
      errors := errors || '{"owner_id": "invalid_owner"}';
    elsif p_scope = 'own' and owner <> p_caller then
      return jsonb_build_object('problem', private.failure('Permission denied', 'permission_denied'));
    end if;
  end if;
  if errors <> '{}' then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', errors)));
  end if;
  return jsonb_build_object('values', prepared);
end;
$$;

/**
 * References by text to records of a kind (a deal's customer, a task's contact), resolved
 * among the organization's live records by the kind's reference keys in order: the first
 * key that finds anything decides. {text: {"id": uuid} | {"error": "ambiguous"}}; a text
 * found by no key is left out (not_found). Only records the caller may see count (the view
 * scope of the kind's module: own or all; none without the view permission), so a hidden
 * record answers exactly as one that does not exist.
 */
create or replace function private.import_resolve(p_schema text, p_kind text, p_texts text[])
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target private.import_kinds;
  key text;
  keyed jsonb;
  answer jsonb := '{}';
  scope text;
begin
  select * into target from private.import_kinds k where k.kind = p_kind;
  scope := private.caller_scope(target.module, 'view');
  if scope is null then
    return answer;
  end if;
  foreach key in array target.reference_keys loop
    -- The texts not resolved yet, each with its value under this key ({text: value}).
    execute format('select coalesce(jsonb_object_agg(t.text, k.value), ''{}'')
                      from unnest($1::text[]) t (text), lateral (select %s as value) k
                     where not $2 ? t.text and k.value is not null', private.import_key_sql(key, 't.text'))
      into keyed using p_texts, answer;
    continue when keyed = '{}';
    select answer || coalesce(jsonb_object_agg(t.text, case when cardinality(f.ids) = 1 then jsonb_build_object('id', f.ids[1])
                                                            else '{"error": "ambiguous"}' end), '{}')
      into answer
      from jsonb_each_text(keyed) t (text, value)
      join private.import_find(p_schema, target, key, array(select distinct x.value from jsonb_each_text(keyed) x), scope, auth.uid()) f
        on f.value = t.value;
  end loop;
  return answer;
end;
$$;

/**
 * The import engine: one batch of rows ([{row, values}], its shape checked by the caller)
 * of a kind, in a mode (create, upsert, update) and matched on a key, within the caller's
 * context (the kind's import permission and scope). Set-based: one lookup each for the
 * owners, the references and the matches of the whole batch (within the scope) and for
 * the records to update; then one statement gives every row its fields (the kind's
 * columns, references resolved, unknown fields refused), what it does, and its values
 * through the kind's rules (on an update against the record as it is). A batch that only
 * creates records writes them in that same statement; otherwise updates keep the columns
 * whose stored value changes (none: unchanged) and private.import_write writes. Without
 * p_import_id nothing is written (the preview). Returns {created, updated, skipped
 * (unchanged ones too), failed, results: [{row, status, id?, reason?, errors?}]}.
 *
 * What does not depend on the records matched can be worked out before: with p_prepare the
 * engine returns the batch's lookups and each row as a new record ({lookups, unknown, rows:
 * [{errors, write, extra}]}) and writes nothing; given back as p_prepared, rows that turn
 * out new take that result instead of going through the rules again. So a batch does its
 * rules while the one before it still holds the import (private.import_run_batch).
 * A row naming another module's record by its id column (customer_id, …) is held to the
 * caller's view scope of that module like a form (private.link_errors); one naming it by
 * text is resolved within that scope (private.import_resolve).
 */
create or replace function private.import_process(p_kind private.import_kinds, p_context private.module_context, p_mode text,
                                       p_match_key text, p_rows jsonb, p_import_id uuid,
                                       p_prepare boolean default false, p_prepared jsonb default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  columns text[] := coalesce(p_kind.columns, (select m.writable_columns from private.modules m where m.key = p_kind.module));
  engine_fields text[] := '{id,external_id}'::text[] || p_kind.reference_fields;
  relation regclass := format('%I.%I', p_context.schema_name, p_kind.table_name)::regclass;
  lookups jsonb := '{}';
  existing jsonb;
  field text;
  texts text[];
  keys text[];
  prepared_rows jsonb;
  rows_sql text;
  results_sql text;
  unknown boolean;
  answer jsonb;
  work private.import_row[];
  statement text;
  quiet text := current_setting('crm.quiet_assignments', true);
begin
  -- The batch's lookups: owners, references, the pipeline's stages (prepared before, or
  -- here), then the matches and the records to update.
  if p_prepared is not null then
    lookups := p_prepared -> 'lookups';
  elsif 'owner' = any (p_kind.reference_fields) then
    texts := array(select distinct r #>> '{values,owner}' from jsonb_array_elements(p_rows) r
                    where jsonb_typeof(r #> '{values,owner}') = 'string');
    if cardinality(texts) > 0 then
      lookups := lookups || jsonb_build_object('owners', private.import_owners(p_context.organization_id, texts));
    end if;
  end if;
  foreach field in array array['customer', 'contact', 'deal'] loop
    continue when p_prepared is not null or not field = any (p_kind.reference_fields);
    texts := array(select distinct r #>> array['values', field] from jsonb_array_elements(p_rows) r
                    where jsonb_typeof(r #> array['values', field]) in ('string', 'number'));
    if cardinality(texts) > 0 then
      lookups := lookups || jsonb_build_object(field, private.import_resolve(p_context.schema_name, field || 's', texts));
    end if;
  end loop;
  if p_prepared is null and 'stage' = any (p_kind.reference_fields) then
    select lookups || jsonb_build_object('stages', coalesce(jsonb_object_agg(s ->> 'key', s -> 'key'), '{}'),
                                         'stage_names', coalesce(jsonb_object_agg(private.fold_search(s ->> 'name'), s -> 'key'), '{}'))
      into lookups
      from private.organization_settings o, jsonb_array_elements(o.deal_stages) s
     where o.organization_id = p_context.organization_id;
  end if;
  if p_prepared is null and p_kind.reference_fields && '{email,phone,mobile_phone}' then
    lookups := lookups || '{"channels": true}';
  end if;
  if p_match_key is not null and not p_prepare then
    -- Each row's key, computed once (in the rows' order): the rows' statement below reads
    -- it back beside the row rather than working it out a second time.
    execute format('select array_agg(%s order by r.n) from jsonb_array_elements($1) with ordinality r (item, n)',
                   private.import_key_value_sql(p_match_key, '(r.item -> ''values'')'))
      into keys using p_rows;
    select lookups || jsonb_build_object('matches', coalesce(jsonb_object_agg(f.value, to_jsonb(f.ids)), '{}'))
      into lookups
      from private.import_find(p_context.schema_name, p_kind, p_match_key,
                               array(select distinct k from unnest(keys) k where k is not null),
                               p_context.scope, p_context.caller) f;
    if p_mode <> 'create' and lookups -> 'matches' <> '{}' then
      execute format('select coalesce(jsonb_object_agg(x.id, x.record), ''{}'')
                        from (select t.id, to_jsonb(t) - ''search_text'' as record from %s t
                               where t.id = any ($1) and t.deleted_at is null %s) x',
                     relation, case when p_import_id is not null then 'for update' else '' end)
        into existing
        using array(select (m.value ->> 0)::uuid from jsonb_each(lookups -> 'matches') m where jsonb_array_length(m.value) = 1);
      lookups := lookups || jsonb_build_object('existing', existing);
    end if;
  end if;
  -- Any unknown field in the batch (one look at all its fields; then row by row).
  unknown := coalesce((p_prepared ->> 'unknown')::boolean,
                      exists (select 1 from jsonb_array_elements(p_rows) r, jsonb_object_keys(r -> 'values') k
                               where not (k = any (columns) or k = any (engine_fields))));

  -- Every row: what it does, its fields, its values through the kind's rules. checked has
  -- the rows, in no particular order; results_sql answers for rows (n, line, action,
  -- reason, id, errors) in order.
  rows_sql := format($rows$
    with input as (
      select r.n::integer as n, (r.item ->> 'row')::integer as line, r.item -> 'values' as vals, r.key, r.pre
        from rows from (jsonb_array_elements($1), unnest($12::text[]), jsonb_array_elements($13)) with ordinality r (item, key, pre, n)
    ), matched as (
      -- (#> reads the entry in place; -> would copy the whole sub-object for each row.)
      select i.*, $2 #> array['matches', i.key] as ids, %2$s as repeated
        from input i
    ), decided as (
      select m.n, m.line, m.vals, m.pre,
             case when m.repeated or jsonb_array_length(m.ids) > 1 then 'fail'
                  when m.ids is null then case when $3 = 'update' then 'skip' else 'create' end
                  when $3 = 'create' then 'skip' else 'update' end as action,
             case when m.repeated then 'duplicate_in_file' when jsonb_array_length(m.ids) > 1 then 'ambiguous_match'
                  when m.ids is null then case when $3 = 'update' then 'not_found' end
                  when $3 = 'create' then 'exists' end as reason,
             case when not m.repeated and jsonb_array_length(m.ids) = 1 then (m.ids ->> 0)::uuid end as id
        from matched m
    ), targeted as (
      -- A record matched by two rows (a contact by two of its emails) is updated by the
      -- first; one deleted since the lookup is not found.
      select d.n, d.line, d.vals, d.id, d.existing, d.action = 'create' and d.pre is not null as prepared, d.pre,
             case when d.action <> 'update' then d.action when d.twice then 'fail'
                  when d.existing is null then 'skip' else 'update' end as action,
             case when d.action <> 'update' then d.reason when d.twice then 'duplicate_in_file'
                  when d.existing is null then 'not_found' end as reason
        from (select d.*, %3$s as twice, $2 #> array['existing', d.id::text] as existing from decided d) d
    ), checked as (
      -- A new row prepared before takes its prepared result (private.import_process, p_prepared).
      select t.n, t.line, case when t.prepared then (t.pre #>> '{extra,id}')::uuid else x.id end as id, t.reason, r.existing,
             case when t.action in ('create', 'update') and e.errors <> '{}' then 'fail' else t.action end as action,
             e.errors,
             case when t.prepared then t.pre -> 'write'
                  when t.action = 'create' and e.errors = '{}' then r.ruled -> 'values'
                  when t.action = 'update' and e.errors = '{}' then
                    ((r.ruled -> 'values') - '{id,external_id}'::text[])
                    || jsonb_strip_nulls(jsonb_build_object('external_id', nullif(x.external_id, ''), 'owner_id', x.refs -> 'owner_id')) end
               as write,
             case when t.prepared then t.pre -> 'extra'
                  when t.action = 'create' then jsonb_build_object('id', x.id, 'owner_id', coalesce((x.refs ->> 'owner_id')::uuid, $7),
                                                                   'created_by', $7, 'external_id', nullif(x.external_id, '')) end
               as extra
        from targeted t
        -- Each step that calls a function is a subquery of its own (offset 0), so that the call
        -- runs once per row however often its result is used.
        cross join lateral (
          select case when t.prepared then null when t.action = 'create' then gen_random_uuid() else t.id end as id,
                 case when t.prepared or not t.vals ? 'external_id' then '' else private.clean_external_id(t.vals -> 'external_id') end
                   as external_id,
                 case when not t.prepared and t.vals ?| $9 then private.import_references(t.vals, t.existing, $2, $7, $8) end as refs
          offset 0) x
        cross join lateral (
          -- The rules see the row's columns (with id and external_id, which they pass over; the
          -- engine sets both) and the references' columns.
          select case when t.action = 'update' then t.existing end as existing,
                 case when t.action in ('create', 'update') and not t.prepared
                      then private.%1$I(case when t.vals ?| $9 then (t.vals - $5) || (x.refs -> 'columns') else t.vals end,
                                        case when t.action = 'update' then t.existing end) end as ruled
          offset 0) r
        cross join lateral (
          select case when t.prepared then t.pre -> 'errors'
                      else case when $10 and t.vals - $6 <> '{}'
                                then (select jsonb_object_agg(left(k, 63), 'unknown_field') from jsonb_object_keys(t.vals - $6) k)
                                else '{}' end
                           || coalesce(x.refs -> 'errors', '{}')
                           || case when x.external_id is null then '{"external_id": "invalid"}'::jsonb else '{}' end
                           || case when r.ruled -> 'errors' <> '{}' then private.import_field_errors(r.ruled -> 'errors', t.vals) else '{}' end
                           || case when t.action in ('create', 'update') and t.vals ?| %4$L::text[]
                                   then private.link_errors(%5$L, t.vals, t.existing, %6$L) - array(select jsonb_object_keys(r.ruled -> 'errors'))
                                   else '{}' end
                 end as errors
          offset 0) e
    )$rows$,
    p_kind.prepare_function,
    -- (4, 5, 6: the module's link columns, the module and the schema, for private.link_errors.)
    -- Rows after the first with the same key, and rows after the first matching the same
    -- record: only where there is a key (window functions sort the batch).
    case when p_match_key is null then 'false'
         else 'i.key is not null and row_number() over (partition by i.key order by i.n) > 1' end,
    case when p_match_key is null or p_mode = 'create' then 'false'
         else 'd.action = ''update'' and row_number() over (partition by d.action, d.id order by d.n) > 1' end,
    (select coalesce(array_agg(l.column_name), '{}') from private.module_links(p_kind.module, p_context.schema_name) l),
    p_kind.module, p_context.schema_name);
  results_sql := format($results$
    select jsonb_build_object(
             'created', count(*) filter (where s.action = 'create'),
             'updated', count(*) filter (where s.action = 'update'),
             'skipped', count(*) filter (where s.action in ('skip', 'unchanged')),
             'failed', count(*) filter (where s.action = 'fail'),
             'results', coalesce(jsonb_agg(case
                          when s.action = 'create' and not %1$L then jsonb_build_object('row', s.line, 'status', 'created')
                          when s.action in ('create', 'update', 'unchanged')
                            then jsonb_build_object('row', s.line, 'status', case s.action when 'create' then 'created'
                                                                                          when 'update' then 'updated'
                                                                                          else 'unchanged' end, 'id', s.id)
                          else jsonb_strip_nulls(jsonb_build_object('row', s.line,
                            'status', case s.action when 'skip' then 'skipped' else 'failed' end, 'reason', s.reason,
                            'id', case when s.reason = 'exists' then s.id end,
                            'errors', case when s.action = 'fail' and s.errors <> '{}' then s.errors end)) end
                        order by s.n), '[]'))
      from (%%s) s$results$, p_import_id is not null);

  if p_prepare then
    execute rows_sql || ' select jsonb_agg(jsonb_build_object(''errors'', c.errors, ''write'', c.write, ''extra'', c.extra) order by c.n)
                            from checked c'
      into prepared_rows
      using p_rows, lookups, p_mode, p_match_key, engine_fields, columns || engine_fields, p_context.caller, p_context.scope,
            p_kind.reference_fields, unknown, null::uuid, keys, null::jsonb;
    return jsonb_build_object('lookups', lookups, 'unknown', unknown, 'rows', prepared_rows);
  end if;
  if p_import_id is not null then
    -- The import tells no owner about each record (one import, not thousands of notices).
    perform pg_catalog.set_config('crm.quiet_assignments', 'on', true);
  end if;
  -- A batch without updates writes its new records and answers in one statement (a
  -- constraint error leaves it to the steps below, which find the rows at fault).
  if p_import_id is not null and coalesce(lookups -> 'existing', '{}') = '{}' then
    begin
      execute rows_sql || format(', written as (%s), noted as (
                                    insert into %I.import_rows (import_id, record_id, action, written_at)
                                    select $11, x.id, ''created'', x.updated_at from written x) ',
                                 private.import_insert_sql(relation,
                                   'select c.write, c.extra from checked c where c.action = ''create'''),
                                 p_context.schema_name)
                      || format(results_sql, 'select c.n, c.line, c.action, c.reason, c.id, c.errors from checked c')
        into answer
        using p_rows, lookups, p_mode, p_match_key, engine_fields, columns || engine_fields, p_context.caller, p_context.scope,
              p_kind.reference_fields, unknown, p_import_id, keys, p_prepared -> 'rows';
      perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);
      return answer;
    exception when integrity_constraint_violation or data_exception then
      null;
    end;
  end if;

  execute rows_sql || ' select array_agg(row(c.n, c.line, c.action, c.reason, c.id, c.errors, c.existing, c.write, null, c.extra)
                                         ::private.import_row) from checked c'
    into work
    using p_rows, lookups, p_mode, p_match_key, engine_fields, columns || engine_fields, p_context.caller, p_context.scope,
          p_kind.reference_fields, unknown, null::uuid, keys, p_prepared -> 'rows';

  -- Updates keep the columns whose value, as the table stores it, differs; none: unchanged.
  if lookups -> 'existing' <> '{}' then
    statement := format(
      'select array_agg(case when w.action <> ''update'' then w
                             else row(w.n, w.line, case when d.changes = ''{}'' then ''unchanged'' else ''update'' end, w.reason, w.id,
                                      w.errors, w.existing, d.changes, d.previous, w.extra)::private.import_row end)
         from unnest($1::private.import_row[]) w
         left join lateral (
           select coalesce(jsonb_object_agg(k, typed.record -> k), ''{}'') as changes,
                  coalesce(jsonb_object_agg(k, w.existing -> k), ''{}'') as previous
             from (select to_jsonb(jsonb_populate_record(null::%s, w.write))) typed (record),
                  jsonb_object_keys(w.write) k
            where (typed.record -> k) is distinct from (w.existing -> k)) d on w.action = ''update''',
      relation);
    begin
      execute statement into work using work;
    exception when data_exception then
      work := array(select case when w.action = 'update' then private.import_row_retry(statement, w) else w end
                      from unnest(work) w);
    end;
  end if;

  if p_import_id is not null then
    work := private.import_write(p_kind, p_context.schema_name, false, work, p_import_id, p_context.caller);
    work := private.import_write(p_kind, p_context.schema_name, true, work, p_import_id, p_context.caller);
    perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);
  end if;
  execute format(results_sql, 'select w.n, w.line, w.action, w.reason, w.id, w.errors from unnest($1::private.import_row[]) w')
    into answer using work;
  return answer;
end;
$$;

/**
 * Sets the contacts of a deal the caller may edit (the list replaces the previous one; at
 * most 50; each an existing, not deleted contact of the organization, and each one added a
 * contact the caller may see: their view scope of contacts; a hidden one is not_found, as one
 * that does not exist). The change goes to the deal's field history (contact_ids) and the
 * audit log (deals.contacts).
 */
create or replace function private.deal_set_contacts(p_id uuid, p_contact_ids uuid[])
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('deals', 'edit');
  wanted uuid[];
  before uuid[];
  locked uuid;
  known integer;
  contact_scope text := private.caller_scope('contacts', 'view');
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_contact_ids is null or array_position(p_contact_ids, null) is not null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  wanted := array(select distinct c from unnest(p_contact_ids) c order by c);
  if cardinality(wanted) > 50 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"contact_ids": "invalid"}}');
  end if;
  execute format('select t.id from %I.deals t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 context.schema_name)
    into locked using p_id, context.scope, context.caller;
  if locked is null then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('select array(select dc.contact_id from %I.deal_contacts dc where dc.deal_id = $1 order by dc.contact_id)',
                 context.schema_name)
    into before using p_id;
  -- Every contact live; the ones added also visible to the caller.
  execute format('select count(*) from %I.contacts c where c.id = any ($1) and c.deleted_at is null
                    and (c.id = any ($2) or $3 = ''all'' or ($3 = ''own'' and c.owner_id = $4))', context.schema_name)
    into known using wanted, before, contact_scope, context.caller;
  if known <> cardinality(wanted) then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"contact_ids": "not_found"}}');
  end if;

  if before is distinct from wanted then
    execute format('delete from %I.deal_contacts where deal_id = $1 and not (contact_id = any ($2))', context.schema_name)
      using p_id, wanted;
    execute format('insert into %I.deal_contacts (deal_id, contact_id, created_by) select $1, c, $3 from unnest($2) c on conflict do nothing',
                   context.schema_name)
      using p_id, wanted, context.caller;
    execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                    values (''deal'', $1, ''contact_ids'', $2, $3, $4)', context.schema_name)
      using p_id, to_jsonb(before), to_jsonb(wanted), context.caller;
    perform private.write_audit(context.organization_id, 'deals.contacts', 'deals', p_id::text, jsonb_build_object(
      'added', (select coalesce(jsonb_agg(c), '[]') from unnest(wanted) c where not (c = any (before))),
      'removed', (select coalesce(jsonb_agg(c), '[]') from unnest(before) c where not (c = any (wanted)))));
  end if;
  return jsonb_build_object('success', true, 'contacts', private.deal_contacts_json(context.schema_name, p_id, context.caller));
end;
$$;

-- ---------------------------------------------------------------------------------
-- KVKK erasure: every copy of the person in the organization
-- ---------------------------------------------------------------------------------

/** A text as a regular expression that matches exactly that text (every character that is not a letter, digit or space escaped). */
create function private.regex_literal(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select regexp_replace(p_text, '([^[:alnum:][:space:]])', '\\\1', 'g');
$$;

/** p_value with every match of p_pattern (case-insensitive) in its strings (not its keys) replaced by ***. */
create function private.scrub_jsonb(p_value jsonb, p_pattern text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case jsonb_typeof(p_value)
    when 'string' then to_jsonb(regexp_replace(p_value #>> '{}', p_pattern, '***', 'gi'))
    when 'array' then (select coalesce(jsonb_agg(private.scrub_jsonb(e.value, p_pattern) order by e.n), '[]')
                         from jsonb_array_elements(p_value) with ordinality e (value, n))
    when 'object' then (select coalesce(jsonb_object_agg(e.key, private.scrub_jsonb(e.value, p_pattern)), '{}')
                          from jsonb_each(p_value) e)
    else p_value end;
end;
$$;

/** p_values with every match of p_pattern (case-insensitive) replaced by ***. */
create function private.scrub_texts(p_values text[], p_pattern text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case when p_values is null then null
              else array(select regexp_replace(v.value, p_pattern, '***', 'gi')
                           from unnest(p_values) with ordinality v (value, n) order by v.n) end;
$$;

/**
 * Replaces a person's values wherever the organization keeps text: every text, text[] and
 * jsonb column (not generated ones, which follow) of every table of its schema, found in
 * the catalogue, so a table or column added later is covered; then its notifications'
 * titles and its upload reservations' titles and file names, case-insensitively: p_channels
 * (e-mails, phones) everywhere; p_full_names too except in other people's records (another
 * contact or customer may be a namesake); p_names (the first and last names alone, as
 * words) too in the rows linked to the person: their contacts (p_family), the rows
 * with a contact_id of theirs (a task, quote, contract, document, …), the imports that
 * wrote one of those, and the notes, history, imported rows, notifications and uploads of
 * any of them. A row whose new value
 * a constraint refuses has that column cleared instead (when it may be null). Returns how
 * many rows changed. A row is looked at once, all its text in one lower-cased string
 * (about 0.4 s for 200,000 rows), so the sweep costs roughly a second per 300,000 rows of
 * the organization.
 */
create function private.erase_person_values(p_schema text, p_organization_id uuid, p_family uuid[],
                                            p_channels text[], p_full_names text[], p_names text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  relation record;
  target record;
  linked text;
  row_pattern text;
  assignments text;
  conditions text;
  linked_ids uuid[] := p_family;
  found_ids uuid[];
  changed integer;
  total integer := 0;
  never constant text := 'a^';  -- (matches nothing: ^ only at the start)
  -- Other people's records: the person's e-mails and phones only.
  people constant text[] := '{customers,contacts}';
  channel_pattern text := coalesce((select string_agg(private.regex_literal(v), '|' order by char_length(v) desc)
                                      from unnest(p_channels) v where char_length(v) >= 2), never);
  pattern text := coalesce((select string_agg(private.regex_literal(v), '|' order by char_length(v) desc)
                              from unnest(p_channels || p_full_names) v where char_length(v) >= 2), never);
  linked_pattern text := coalesce(nullif(concat_ws('|', nullif(pattern, never),
    (select '\m(?:' || string_agg(private.regex_literal(n), '|' order by char_length(n) desc) || ')\M'
       from unnest(p_names) n where char_length(n) >= 2)), ''), never);
  -- The values as lower-cased LIKE patterns: one cheap look at each row's text.
  likes text[] := array(select '%' || replace(replace(replace(lower(v), '\', '\\'), '%', '\%'), '_', '\_') || '%'
                          from unnest(p_channels || p_full_names) v where char_length(v) >= 2);
  channel_likes text[] := array(select '%' || replace(replace(replace(lower(v), '\', '\\'), '%', '\%'), '_', '\_') || '%'
                                  from unnest(p_channels) v where char_length(v) >= 2);
  texts text;
begin
  -- The rows linked to the person: theirs, and those with a contact_id of theirs (tasks,
  -- quotes, contracts, documents, …).
  for relation in
    select c.oid, c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p')
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'contact_id'
                      and a.atttypid = 'uuid'::regtype and not a.attisdropped)
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'id'
                      and a.atttypid = 'uuid'::regtype and not a.attisdropped)
  loop
    execute format('select array_agg(t.id) from %I.%I t where t.contact_id = any ($1)', p_schema, relation.relname)
      into found_ids using p_family;
    linked_ids := linked_ids || coalesce(found_ids, '{}');
  end loop;
  -- And the imports that wrote one of them (their file names).
  if to_regclass(format('%I.import_rows', p_schema)) is not null then
    execute format('select array_agg(distinct r.import_id) from %I.import_rows r where r.record_id = any ($1)', p_schema)
      into found_ids using linked_ids;
    linked_ids := linked_ids || coalesce(found_ids, '{}');
  end if;

  for relation in
    select c.oid, c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p') order by c.relname
  loop
    -- A linked row: one of linked_ids ($3), or one hanging off one (any uuid column named
    -- *_id holds one of them: a note's entity_id, a history or imported row's record_id, a
    -- quote line's quote_id, a document version's document_id, a contact_id, …).
    select string_agg(format('t.%I = any ($3)', a.attname), ' or ' order by a.attnum) into linked
      from pg_catalog.pg_attribute a
     where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.atttypid = 'uuid'::regtype
       and (a.attname = 'id' or a.attname like '%\_id') and a.attname <> 'owner_id';
    linked := coalesce(nullif(linked, ''), 'false');
    row_pattern := format('(case when %s then $2 else $1 end)', linked);
    -- ($1 and $4: what unlinked rows of this table lose; $2 what linked rows lose.)
    select string_agg(format('%I = %s', a.attname, case
             when a.atttypid = 'jsonb'::regtype then format('private.scrub_jsonb(t.%I, %s)', a.attname, row_pattern)
             when a.atttypid = 'text[]'::regtype then format('private.scrub_texts(t.%I, %s)', a.attname, row_pattern)
             else format('regexp_replace(t.%I, %s, ''***'', ''gi'')', a.attname, row_pattern) end), ', '),
           format('lower(concat_ws(chr(1), %s)) like any ($4)', string_agg(format('t.%I::text', a.attname), ', '))
      into assignments, texts
      from pg_catalog.pg_attribute a
     where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
       and a.atttypid in ('text'::regtype, 'character varying'::regtype, 'text[]'::regtype, 'jsonb'::regtype);
    continue when assignments is null;
    conditions := format('(%s) or %s', linked, texts);
    begin
      execute format('with changed as (update %I.%I t set %s where %s returning 1) select count(*) from changed',
                     p_schema, relation.relname, assignments, conditions)
        into changed using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
      total := total + changed;
    exception when integrity_constraint_violation or data_exception then
      -- Column by column; a value the table refuses (a phone's format, a unique key) goes.
      for target in
        select a.attname, a.atttypid, a.attnotnull from pg_catalog.pg_attribute a
         where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
           and a.atttypid in ('text'::regtype, 'character varying'::regtype, 'text[]'::regtype, 'jsonb'::regtype)
      loop
        begin
          execute format('update %I.%I t set %I = %s where (%s) or lower(t.%I::text) like any ($4)', p_schema, relation.relname, target.attname,
                         case when target.atttypid = 'jsonb'::regtype then format('private.scrub_jsonb(t.%I, %s)', target.attname, row_pattern)
                              when target.atttypid = 'text[]'::regtype then format('private.scrub_texts(t.%I, %s)', target.attname, row_pattern)
                              else format('regexp_replace(t.%I, %s, ''***'', ''gi'')', target.attname, row_pattern) end,
                         linked, target.attname)
            using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
        exception when integrity_constraint_violation or data_exception then
          if not target.attnotnull then
            execute format('update %I.%I t set %I = null where t.%I::text ~* %s', p_schema, relation.relname, target.attname,
                           target.attname, row_pattern)
              using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
          end if;
        end;
      end loop;
    end;
  end loop;

  update private.notifications n
     set title = regexp_replace(n.title, case when n.record_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi')
   where n.organization_id = p_organization_id
     and n.title ~* case when n.record_id = any (linked_ids) then linked_pattern else pattern end;
  get diagnostics changed = row_count;
  total := total + changed;
  update private.document_uploads u
     set title = regexp_replace(u.title, case when u.link_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi'),
         file_name = regexp_replace(u.file_name, case when u.link_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi')
   where u.organization_id = p_organization_id
     and concat_ws(' ', u.title, u.file_name) ~* case when u.link_id = any (linked_ids) then linked_pattern else pattern end;
  get diagnostics changed = row_count;
  return total + changed;
end;
$$;

/**
 * Erases a contact (KVKK right to erasure), for an admin, with every copy of the person the
 * organization holds:
 * - the contact and every contact of its merge family (those merged into it, the one it was
 *   merged into, and theirs: a merge said they are one person) are anonymised and deleted,
 *   their rows kept so references hold; their notes and field history go, and the imports'
 *   old values of them are emptied (such an import can no longer be undone anyway);
 * - their names, e-mails and phones, as they are and as history and imports knew them, are
 *   replaced by *** wherever else the organization keeps text (private.erase_person_values:
 *   task titles and descriptions, notes, deals, quotes, contracts, documents' titles and
 *   file names, other records' history, imports, saved views, notifications): e-mails and
 *   phones everywhere, full names everywhere but in other contacts and customers (a
 *   namesake keeps their name), first and last names alone in the rows linked to the
 *   person (a task, quote, contract or document of theirs).
 * The audit log never holds a record's values (ids, field names, counts), so it keeps its
 * entries; the erasure's own entries name only the contacts' ids.
 * Files' contents in Storage are not read; delete a document that holds the person's data.
 */
create or replace function public.erase_contact(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.data_subject_context(p_id);
  family uuid[];
  names text[];
  full_names text[];
  channels text[];
begin
  if context.problem is not null then
    return context.problem;
  end if;
  -- The merge family: merged into it, it into another, and so on both ways.
  execute format($query$
    with recursive family (id) as (
      select $1
      union
      select c.id from family f
        join %1$I.contacts me on me.id = f.id
        join %1$I.contacts c on c.merged_into = me.id or c.id = me.merged_into
    )
    select array_agg(f.id order by f.id) from family f$query$, context.schema_name)
    into family using p_id;
  execute format('select 1 from %I.contacts c where c.id = any ($1) for update', context.schema_name) using family;

  -- The person's values: as the rows hold them, as their history and the imports knew them.
  execute format($query$
    with person as (
      select c.first_name, c.last_name, c.emails, c.phones from %1$I.contacts c where c.id = any ($1)
    ), known (field, value) as (
      select 'first_name', to_jsonb(p.first_name) from person p
      union all select 'last_name', to_jsonb(p.last_name) from person p
      union all select 'emails', p.emails from person p
      union all select 'phones', p.phones from person p
      union all select 'full_name', to_jsonb(p.first_name || ' ' || p.last_name) from person p
       where btrim(p.first_name) <> '' and btrim(p.last_name) <> ''
      union all select h.field, v.value from %1$I.field_history h
                 cross join lateral (values (h.old_value), (h.new_value)) v (value)
       where h.entity_type = 'contact' and h.record_id = any ($1) and h.field in ('first_name', 'last_name', 'emails', 'phones')
      union all select p.key, p.value from %1$I.import_rows r cross join lateral jsonb_each(r.previous) p
       where r.record_id = any ($1) and p.key in ('first_name', 'last_name', 'emails', 'phones')
    ), flat (field, value) as (
      select k.field, btrim(k.value #>> '{}') from known k where jsonb_typeof(k.value) = 'string'
      union all select k.field, btrim(e ->> 'value') from known k cross join lateral jsonb_array_elements(k.value) e
       where jsonb_typeof(k.value) = 'array' and jsonb_typeof(e) = 'object'
    )
    select array(select distinct f.value from flat f where f.field in ('first_name', 'last_name') and char_length(f.value) >= 2),
           array(select distinct f.value from flat f where f.field = 'full_name' and char_length(f.value) >= 2),
           array(select distinct f.value from flat f where f.field in ('emails', 'phones') and char_length(f.value) >= 2)$query$,
    context.schema_name)
    into names, full_names, channels using family;

  -- The contacts themselves, their notes, history and imported old values.
  execute format($query$
    update %1$I.contacts
       set first_name = '', last_name = '', title = null, emails = '[]', phones = '[]', tags = '{}', description = null,
           external_id = null, kvkk_consent = false, kvkk_consent_channel = null, kvkk_consent_at = null,
           kvkk_consent_source = null, iys_consent = '{"call": false, "sms": false, "email": false}',
           anonymized_at = coalesce(anonymized_at, now()), deleted_at = coalesce(deleted_at, now())
     where id = any ($1)$query$, context.schema_name)
    using family;
  execute format('delete from %I.notes where entity_type = ''contact'' and entity_id = any ($1)', context.schema_name) using family;
  execute format('delete from %I.field_history where entity_type = ''contact'' and record_id = any ($1)', context.schema_name)
    using family;
  execute format('update %I.import_rows set previous = ''{}'' where record_id = any ($1) and previous is not null', context.schema_name)
    using family;

  -- Every other copy.
  perform private.erase_person_values(context.schema_name, context.organization_id, family, channels, full_names, names);

  perform private.write_audit(context.organization_id, 'contacts.erased', 'contacts', f::text,
                              case when f = p_id and cardinality(family) > 1
                                   then jsonb_build_object('with', (select jsonb_agg(o) from unnest(family) o where o <> p_id))
                                   else '{}' end)
     from unnest(family) f;
  return jsonb_build_object('success', true, 'erased', to_jsonb(family));
end;
$$;


-- ---------------------------------------------------------------------------------
-- The audit log holds no record values: an import's entry names the import by id (its
-- file name stays in the import's row, where an erasure reaches it) and an export's entry
-- says whether a search narrowed it, not the words searched
-- ---------------------------------------------------------------------------------

/**
 * Ends a running import (its creator): completed, or cancelled; audited as <kind>.import with
 * its mode and counts (not the file name, which may name a person: the audit log is
 * append-only, so it never holds what an erasure must reach).
 */
create or replace function private.import_finish(p_import_id uuid, p_cancelled boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, true);
  run jsonb := lookup -> 'import';
  context private.module_context;
begin
  if lookup ? 'success' then
    return lookup;
  end if;
  context := jsonb_populate_record(null::private.module_context, lookup -> 'context');
  if run ->> 'created_by' <> context.caller::text then
    return private.failure('Only the person who started the import may finish it', 'permission_denied');
  end if;
  if run ->> 'status' <> 'running' then
    return private.failure('The import is not running', 'import_not_running');
  end if;
  execute format('update %I.imports i set status = $2, finished_at = now() where i.id = $1 returning to_jsonb(i)', context.schema_name)
    into run using p_import_id, case when coalesce(p_cancelled, false) then 'cancelled' else 'completed' end;
  perform private.write_audit(context.organization_id, (run ->> 'kind') || '.import', 'import', p_import_id::text,
    jsonb_build_object('mode', run -> 'mode', 'match_key', run -> 'match_key',
                       'status', run -> 'status', 'total_rows', run -> 'total_rows', 'created', run -> 'created',
                       'updated', run -> 'updated', 'skipped', run -> 'skipped', 'failed', run -> 'failed'));
  return jsonb_build_object('success', true, 'import', private.import_json(run));
end;
$$;

/**
 * One page of a module's export: the module's export permission and scope, the list's
 * search, filters and sort (private.record_page), p_limit whole rows (1-5,000) from
 * p_offset; next_offset where the next page starts (null after the last). The first page
 * (offset 0) writes the audit entry <module>.export with the filters and whether a search
 * narrowed it (not the words searched, which may name a person: the audit log is
 * append-only, so it never holds what an erasure must reach).
 */
create or replace function private.record_export(p_module text, p_search text, p_filters jsonb, p_sort text, p_descending boolean,
                                      p_offset integer, p_limit integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'export');
  page jsonb;
  fetched integer;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_limit is null or p_limit not between 1 and (private.import_limits() ->> 'export_rows')::integer
     or p_offset is null or p_offset < 0 then
    return private.failure('Invalid export request', 'invalid_input');
  end if;
  page := private.record_page(p_module, 'export', p_search, p_filters, p_sort, p_descending, p_limit, p_offset,
                              (private.import_limits() ->> 'export_rows')::integer, true);
  if not (page ->> 'success')::boolean then
    return page;
  end if;
  if p_offset = 0 then
    perform private.write_audit(context.organization_id, p_module || '.export', p_module, null,
                                jsonb_build_object('searched', btrim(coalesce(p_search, '')) <> '', 'filters', p_filters));
  end if;
  fetched := jsonb_array_length(page -> 'records');
  return jsonb_build_object('success', true, 'records', page -> 'records', 'total', page -> 'total',
    'total_exact', page -> 'total_exact',
    'next_offset', case when fetched = p_limit and (not (page ->> 'total_exact')::boolean or p_offset + fetched < (page ->> 'total')::integer)
                        then p_offset + fetched end);
end;
$$;

-- ---------------------------------------------------------------------------------
-- Settings and roles: old and new values in the audit log
-- ---------------------------------------------------------------------------------

/**
 * Whether a setting's value is a secret that the audit log must not show (a password, a
 * token, an API or private key, a credential): by its name. No setting is one today; one
 * added later with such a name is masked without a change here.
 */
create function private.is_secret_setting(p_key text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_key, '') ~* '(secret|password|passwd|token|api_?key|private_?key|credential)';
$$;

/**
 * The fields of p_new whose value differs from p_old, each as {"old", "new"} (a field
 * either lacks is null there); a secret setting's values (private.is_secret_setting) are
 * "***", with "changed" true.
 */
create function private.audit_changes(p_old jsonb, p_new jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(k.key, case
           when private.is_secret_setting(k.key) then '{"old": "***", "new": "***", "changed": true}'::jsonb
           else jsonb_build_object('old', coalesce(p_old, '{}') -> k.key, 'new', coalesce(p_new, '{}') -> k.key) end), '{}')
    from (select jsonb_object_keys(coalesce(p_old, '{}')) as key
          union select jsonb_object_keys(coalesce(p_new, '{}'))) k
   where (coalesce(p_old, '{}') -> k.key) is distinct from (coalesce(p_new, '{}') -> k.key);
$$;

/** An organization's settings as the audit compares them: every setting and the name, not who or when. */
create function private.settings_audit_json(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select (to_jsonb(s) - 'organization_id' - 'updated_by' - 'updated_at' - 'created_at') || jsonb_build_object('name', o.name)
    from private.organization_settings s
    join private.organizations o on o.id = s.organization_id
   where s.organization_id = p_organization_id;
$$;


/**
 * Admin: changes the organization's settings. Fields: name, default_currency,
 * default_vat_rate, locale, time_zone, deal_stages, task_types, quote_number_pattern,
 * quote_validity_days, contract_number_pattern (private.is_valid_number_pattern: 1-60 characters
 * with a {SEQ:n} token),
 * exchange_rates ({"USD": 41.2}: one unit is that many of the default currency). Any
 * invalid field refuses the whole change. A deal_stages change that removes stages still
 * holding deals is refused (stage_in_use, with {"stages": [{key, count}]}) unless
 * deal_stage_moves ({old key: new key}) says where they go; they move in the same
 * transaction. Deals may only be moved into a lost stage with a lost reason
 * (lost_reason_required). The audit entry names the changed fields and, under "changes",
 * each changed field's old and new value (private.audit_changes: secret-typed settings
 * masked).
 */
create or replace function public.update_organization_settings(p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  invalid_field text;
  tenant text;
  new_stages jsonb;
  removed text[] := '{}';
  moves jsonb := coalesce(p_changes -> 'deal_stage_moves', '{}');
  in_use jsonb;
  moved jsonb;
  before_settings jsonb;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  if jsonb_typeof(p_changes) is distinct from 'object' then
    return private.failure('Invalid settings', 'invalid_input');
  end if;

  select key into invalid_field
    from jsonb_each(p_changes) as change (key, value)
   where not case key
     when 'name' then jsonb_typeof(value) = 'string' and char_length(btrim(value #>> '{}')) between 1 and 200
     when 'default_currency' then coalesce(value #>> '{}', '') ~ '^[A-Z]{3}$'
     when 'default_vat_rate' then jsonb_typeof(value) = 'number' and (value #>> '{}')::numeric between 0 and 100
     when 'locale' then coalesce(value #>> '{}', '') in ('tr-TR', 'en-US')
     when 'time_zone' then exists (select 1 from pg_catalog.pg_timezone_names z where z.name = value #>> '{}')
     when 'deal_stages' then private.is_valid_pipeline(value)
     when 'task_types' then jsonb_typeof(value) = 'array' and jsonb_array_length(value) between 1 and 30
                            and not exists (select 1 from jsonb_array_elements(value) t
                                             where jsonb_typeof(t) <> 'string' or char_length(btrim(t #>> '{}')) not between 1 and 40)
     when 'quote_number_pattern' then char_length(coalesce(value #>> '{}', '')) between 1 and 60
                                      and (value #>> '{}') ~ '\{SEQ(:[1-9])?\}'
     when 'quote_validity_days' then jsonb_typeof(value) = 'number' and (value #>> '{}') ~ '^\d+$'
                                     and (value #>> '{}')::numeric between 1 and 365
     when 'contract_number_pattern' then jsonb_typeof(value) = 'string' and private.is_valid_number_pattern(value #>> '{}')
     when 'exchange_rates' then private.is_valid_exchange_rates(value)
     -- Where the deals of removed stages go: only with deal_stages, stage keys both ways.
     when 'deal_stage_moves' then p_changes ? 'deal_stages' and jsonb_typeof(value) = 'object'
                                  and not exists (select 1 from jsonb_each(value) m
                                                   where m.key !~ '^[a-z][a-z0-9_]{0,39}$' or jsonb_typeof(m.value) <> 'string')
     else false end
   limit 1;
  if invalid_field is not null then
    return private.failure(format('Invalid setting: %s', left(invalid_field, 40)), 'invalid_setting',
                           jsonb_build_object('field', left(invalid_field, 40)));
  end if;

  if p_changes ? 'deal_stages' then
    new_stages := p_changes -> 'deal_stages';
    removed := array(select old.stage ->> 'key'
                       from private.organization_settings s, jsonb_array_elements(s.deal_stages) old (stage)
                      where s.organization_id = target_org
                        and private.deal_stage(new_stages, old.stage ->> 'key') is null);
    -- Each move takes a removed stage to a stage of the new pipeline.
    if exists (select 1 from jsonb_each_text(moves) m
                where not (m.key = any (removed)) or private.deal_stage(new_stages, m.value) is null) then
      return private.failure('Invalid setting: deal_stage_moves', 'invalid_setting', '{"field": "deal_stage_moves"}');
    end if;
    tenant := private.tenant_schema(target_org);
    if tenant is not null and cardinality(removed) > 0 then
      execute format('select jsonb_agg(jsonb_build_object(''key'', g.stage, ''count'', g.n) order by g.stage)
                        from (select t.stage, count(*) as n from %I.deals t
                               where t.stage = any ($1) and t.deleted_at is null group by t.stage) g', tenant)
        into in_use using array(select r from unnest(removed) r where not moves ? r);
      if in_use is not null then
        return private.failure('Deal stages still hold deals', 'stage_in_use',
                               jsonb_build_object('field', 'deal_stages', 'stages', in_use));
      end if;
      execute format('select jsonb_agg(jsonb_build_object(''key'', g.stage, ''count'', g.n) order by g.stage)
                        from (select t.stage, count(*) as n from %I.deals t
                               where t.stage = any ($1) and t.deleted_at is null and t.lost_reason is null group by t.stage) g', tenant)
        into in_use
        using array(select m.key from jsonb_each_text(moves) m where private.deal_stage(new_stages, m.value) ->> 'outcome' = 'lost');
      if in_use is not null then
        return private.failure('Deals moved to a lost stage need a lost reason', 'lost_reason_required',
                               jsonb_build_object('field', 'deal_stage_moves', 'stages', in_use));
      end if;
    end if;
  end if;

  before_settings := private.settings_audit_json(target_org);
  if p_changes ? 'name' then
    update private.organizations set name = btrim(p_changes ->> 'name'), updated_at = now() where id = target_org;
  end if;
  update private.organization_settings
     set default_currency = coalesce(p_changes ->> 'default_currency', default_currency),
         default_vat_rate = coalesce((p_changes ->> 'default_vat_rate')::numeric, default_vat_rate),
         locale = coalesce(p_changes ->> 'locale', locale),
         time_zone = coalesce(p_changes ->> 'time_zone', time_zone),
         deal_stages = coalesce(p_changes -> 'deal_stages', deal_stages),
         task_types = coalesce(p_changes -> 'task_types', task_types),
         quote_number_pattern = coalesce(p_changes ->> 'quote_number_pattern', quote_number_pattern),
         quote_validity_days = coalesce((p_changes ->> 'quote_validity_days')::integer, quote_validity_days),
         contract_number_pattern = coalesce(p_changes ->> 'contract_number_pattern', contract_number_pattern),
         exchange_rates = coalesce(p_changes -> 'exchange_rates', exchange_rates),
         updated_at = now(),
         updated_by = auth.uid()
   where organization_id = target_org;
  if tenant is not null and moves <> '{}' then
    moved := private.move_deals_off_stages(target_org, tenant, moves, new_stages);
  end if;
  perform private.write_audit(target_org, 'settings.updated', 'organization', target_org::text,
                              jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p_changes) k),
                                                 'changes', private.audit_changes(before_settings, private.settings_audit_json(target_org)))
                              || case when moved is not null then jsonb_build_object('moved_deals', moved) else '{}' end);
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org))
         || case when moved is not null then jsonb_build_object('moved_deals', moved) else '{}' end;
end;
$$;

/**
 * An admin saves a role (not the admin role) with its matrix; every entry names a registered
 * module and action. The audit entry has the name and matrix saved and, under "old", the
 * role's name and matrix before (null for a new role).
 */
create or replace function public.save_role(p_key text, p_name text, p_permissions jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  clean_name text := btrim(p_name);
  bad_entry text;
  before_role jsonb;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  if coalesce(p_key, '') !~ '^[a-z][a-z0-9_]{0,39}$' or p_key = 'super_admin' then
    return private.failure('Invalid role key', 'invalid_role_key');
  end if;
  if p_key = 'admin' then
    return private.failure('The admin role cannot be changed', 'system_role');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 100 then
    return private.failure('Invalid role name', 'invalid_role_name');
  end if;
  if jsonb_typeof(p_permissions) is distinct from 'object' then
    return private.failure('Invalid permissions', 'invalid_permissions');
  end if;
  select format('%s.%s', modules.key, actions.key) into bad_entry
    from jsonb_each(p_permissions) modules
    left join lateral jsonb_each(case when jsonb_typeof(modules.value) = 'object' then modules.value else '{"": null}' end) actions on true
   where not exists (select 1 from private.modules m where m.key = modules.key)
      or actions.key is null
      or not exists (select 1 from private.module_actions a where a.key = actions.key)
      or actions.value not in ('"own"', '"all"')
   limit 1;
  if bad_entry is not null then
    return private.failure(format('Invalid permission %s', left(bad_entry, 80)), 'invalid_permissions');
  end if;

  select jsonb_build_object('name', r.name, 'permissions', private.role_permissions_json(target_org, r.key)) into before_role
    from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  insert into private.organization_roles (organization_id, key, name)
  values (target_org, p_key, clean_name)
  on conflict (organization_id, key) do update set name = excluded.name, updated_at = now();
  delete from private.role_permissions where organization_id = target_org and role_key = p_key;
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select target_org, p_key, modules.key, actions.key, actions.value #>> '{}'
    from jsonb_each(p_permissions) modules, jsonb_each(modules.value) actions;

  perform private.write_audit(target_org, 'role.saved', 'role', p_key,
                              jsonb_build_object('name', clean_name, 'permissions', private.role_permissions_json(target_org, p_key),
                                                 'old', before_role));
  return jsonb_build_object('success', true, 'role', jsonb_build_object(
    'key', p_key, 'name', clean_name, 'is_system', false,
    'permissions', private.role_permissions_json(target_org, p_key)));
end;
$$;

/** Admin: removes a role nobody holds; admin and user (the default) stay. The audit entry keeps the role's name and matrix. */
create or replace function public.delete_role(p_key text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  holders bigint;
  before_role jsonb;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  if p_key in ('admin', 'user') then
    return private.failure('This role cannot be removed', 'system_role');
  end if;
  if not exists (select 1 from private.organization_roles r where r.organization_id = target_org and r.key = p_key) then
    return private.failure('Role not found', 'role_not_found');
  end if;
  select count(*) into holders from private.memberships m where m.organization_id = target_org and m.role = p_key;
  if holders > 0 then
    return private.failure('The role still has members', 'role_in_use', jsonb_build_object('member_count', holders));
  end if;
  select jsonb_build_object('name', r.name, 'permissions', private.role_permissions_json(target_org, r.key)) into before_role
    from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  delete from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  perform private.write_audit(target_org, 'role.deleted', 'role', p_key, jsonb_build_object('old', before_role));
  return jsonb_build_object('success', true);
end;
$$;

-- Grants: the new private functions to nobody; the changed façades as before.
revoke execute on function private.module_links(text, text), private.link_errors(text, jsonb, jsonb, text),
  private.regex_literal(text), private.scrub_jsonb(jsonb, text), private.scrub_texts(text[], text),
  private.erase_person_values(text, uuid, uuid[], text[], text[], text[]), private.is_secret_setting(text),
  private.audit_changes(jsonb, jsonb), private.settings_audit_json(uuid)
  from public, anon, authenticated;
do $$
declare
  facade regprocedure;
begin
  for facade in
    select p.oid::regprocedure from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and p.proname in ('erase_contact', 'update_organization_settings', 'save_role', 'delete_role')
  loop
    execute format('revoke execute on function %s from public, anon, authenticated', facade);
    execute format('grant execute on function %s to authenticated', facade);
  end loop;
end
$$;

