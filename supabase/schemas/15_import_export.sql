-- Import and export: what can be imported (import kinds), checking and writing batches,
-- matching on keys, undo, saved column mappings, and paged exports.

/**
 * The import's and export's limits: a file of at most 50 MiB, 100,000 data rows and 200
 * columns; batches of at most 1,000 rows and 4 MiB of JSON; export pages of at most 5,000.
 */
create function private.import_limits()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select '{"max_file_bytes": 52428800, "max_rows": 100000, "max_columns": 200,
           "batch_rows": 1000, "batch_bytes": 4194304, "export_rows": 5000}'::jsonb;
$$;

/**
 * An external id as a client sent it: a string or a number, trimmed, at most 100
 * characters. '' when it is empty or JSON null (no id), null when it is invalid.
 */
create function private.clean_external_id(p_value jsonb)
returns text
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case
    when p_value is null or jsonb_typeof(p_value) = 'null' then ''
    when jsonb_typeof(p_value) not in ('string', 'number') then null
    when char_length(btrim(p_value #>> '{}')) <= 100 then btrim(p_value #>> '{}')
  end;
end;
$$;

-- ---------------------------------------------------------------------------------
-- The import kinds
-- ---------------------------------------------------------------------------------
create table private.import_kinds (
  kind text primary key check (kind ~ '^[a-z][a-z_]{0,39}$'),
  position integer not null unique,
  -- The permission: the import action of this module (with scope all when scope_all).
  module text not null references private.modules (key),
  scope_all boolean not null default false,
  table_name text not null check (private.is_safe_identifier(table_name)),
  -- What the field history calls a record of this kind.
  entity_type text not null check (entity_type ~ '^[a-z_]{1,40}$'),
  -- The row's rules: private.<name>(p_values jsonb, p_existing jsonb) → {"values", "errors"}.
  prepare_function text not null check (prepare_function ~ '^[a-z_]{1,60}$'),
  -- The columns a row may write; null: the module's writable columns.
  columns text[],
  -- Fields the engine turns into columns before the rules: owner (a member's email or
  -- name), customer, contact and deal (a reference by text), stage (a key or its name),
  -- email, phone and mobile_phone (a contact's channels).
  reference_fields text[] not null default '{}'
    check (reference_fields <@ '{owner,customer,contact,deal,stage,email,phone,mobile_phone}'),
  -- The keys an import may match rows on, in the order offered (id and external_id mean
  -- the same for every kind), and the keys a reference to this kind is resolved by.
  match_keys text[] not null,
  reference_keys text[] not null default '{}',
  -- Each further key's value in a record, an SQL expression over t (its row), compared with
  -- the row's value normalised by private.import_key_sql.
  match_expressions jsonb not null default '{}' check (jsonb_typeof(match_expressions) = 'object'),
  check (match_keys[1:2] = '{id,external_id}' and reference_keys <@ match_keys)
);

alter table private.import_kinds enable row level security;

comment on table private.import_kinds is
  'What can be imported (private.register_import_kind): permission, table, match keys and the rules a row goes through.';

/**
 * Declares an import kind (private.import_kinds; each parameter is the column of that
 * name), or redeclares it: its permission is p_module's import action (a module of the
 * registry), and its table, entity type and rules are that module's unless the kind names
 * its own (products, imported with the quotes module's permission into a table of their own).
 */
create function private.register_import_kind(
  p_kind text, p_position integer, p_module text, p_match_keys text[],
  p_reference_fields text[] default '{}', p_reference_keys text[] default '{}', p_match_expressions jsonb default '{}',
  p_scope_all boolean default false, p_table_name text default null, p_entity_type text default null,
  p_prepare_function text default null, p_columns text[] default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.import_kinds (kind, position, module, scope_all, table_name, entity_type, prepare_function, columns,
                                    reference_fields, match_keys, reference_keys, match_expressions)
  values (p_kind, p_position, p_module, p_scope_all,
          coalesce(p_table_name, (select m.table_name from private.modules m where m.key = p_module)),
          coalesce(p_entity_type, (select m.entity_type from private.modules m where m.key = p_module)),
          coalesce(p_prepare_function, (select m.prepare_function from private.modules m where m.key = p_module)),
          p_columns, p_reference_fields, p_match_keys, p_reference_keys, p_match_expressions)
  on conflict (kind) do update
    set position = excluded.position, module = excluded.module, scope_all = excluded.scope_all,
        table_name = excluded.table_name, entity_type = excluded.entity_type, prepare_function = excluded.prepare_function,
        columns = excluded.columns, reference_fields = excluded.reference_fields, match_keys = excluded.match_keys,
        reference_keys = excluded.reference_keys, match_expressions = excluded.match_expressions;
end;
$$;

select private.register_import_kind(
  p_kind => 'customers', p_position => 1, p_module => 'customers',
  p_reference_fields => '{owner}', p_match_keys => '{id,external_id,tax_number,email,name}',
  p_reference_keys => '{id,external_id,tax_number,name}',
  p_match_expressions => '{"tax_number": "t.tax_number", "email": "t.email", "name": "private.fold_search(t.name)"}');

select private.register_import_kind(
  p_kind => 'contacts', p_position => 2, p_module => 'contacts',
  p_reference_fields => '{owner,customer,email,phone,mobile_phone}', p_match_keys => '{id,external_id,email,name}',
  p_reference_keys => '{id,external_id,email,name}',
  p_match_expressions => '{"email": "jsonb_array_elements(t.emails) ->> ''value''", "name": "private.fold_search(btrim(t.first_name || '' '' || t.last_name))"}');

select private.register_import_kind(
  p_kind => 'deals', p_position => 3, p_module => 'deals',
  p_reference_fields => '{owner,customer,stage}', p_match_keys => '{id,external_id,title}',
  p_reference_keys => '{id,external_id,title}', p_match_expressions => '{"title": "private.fold_search(t.title)"}');

select private.register_import_kind(
  p_kind => 'tasks', p_position => 4, p_module => 'tasks',
  p_reference_fields => '{owner,customer,contact,deal}', p_match_keys => '{id,external_id,title}',
  p_match_expressions => '{"title": "private.fold_search(t.title)"}');

select private.register_import_kind(
  p_kind => 'products', p_position => 5, p_module => 'quotes', p_scope_all => true,
  p_table_name => 'products', p_entity_type => 'product', p_prepare_function => 'prepare_product',
  p_columns => '{name,unit,unit_price,currency,vat_rate,description,active,external_id}',
  p_match_keys => '{id,external_id,name}', p_match_expressions => '{"name": "private.fold_search(t.name)"}');

/**
 * The SQL expression of a text (p_text, an SQL expression) as the value of a match key:
 * an id (a uuid, lower case), an external id (trimmed, 1-100), a tax number (without
 * spaces), an email (normalised) or a name or title (trimmed, Turkish-folded); null when
 * it cannot be one. Embedded in a batch's statements rather than called per row: a
 * function with a fixed search_path is never inlined, and a call per row and key cost a
 * tenth of a batch's time.
 */
create function private.import_key_sql(p_key text, p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select format(case p_key
    when 'id' then 'case when btrim(%1$s) ~* ''^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'' then lower(btrim(%1$s)) end'
    when 'external_id' then 'case when char_length(btrim(%1$s)) between 1 and 100 then btrim(%1$s) end'
    when 'tax_number' then 'nullif(regexp_replace(%1$s, ''\s'', '''', ''g''), '''')'
    when 'email' then 'private.normalize_email(%1$s)'
    else 'nullif(private.fold_search(btrim(%1$s)), '''')'
  end, p_text);
$$;

/**
 * The SQL expression of the match key's value in a row's values (p_values, an SQL
 * expression of jsonb): the field of that name (a contact's name is its first and last
 * name, its email the email field or the first of its emails), normalised as
 * private.import_key_sql says. Null without a value.
 */
create function private.import_key_value_sql(p_key text, p_values text)
returns text
language sql
immutable
set search_path = ''
as $$
  select private.import_key_sql(p_key, case p_key
    when 'name' then format('case when %1$s ? ''name'' then %1$s ->> ''name''
                                  else concat_ws('' '', %1$s ->> ''first_name'', %1$s ->> ''last_name'') end', p_values)
    when 'email' then format('case when %1$s ? ''email'' then %1$s ->> ''email'' else %1$s #>> ''{emails,0,value}'' end', p_values)
    else format('%s ->> %L', p_values, p_key) end);
$$;

/**
 * The live records of a kind whose key has one of the given (normalised) values, within
 * the scope ('all', or 'own': the caller's records): one row per value found, with the
 * ids of the records it names. One statement for the whole list.
 */
create function private.import_find(p_schema text, p_kind private.import_kinds, p_key text, p_values text[],
                                    p_scope text, p_caller uuid)
returns table (value text, ids uuid[])
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- "= any" over the values lets the planner probe the key's index once per value (a
  -- key without one, as a contact's emails, is one scan); joining the values to every
  -- live record instead hashed the whole table each batch, and the scope is left out
  -- rather than or-ed, which hid the table's size from the planner.
  return query execute format(
    'select m.value::text, array_agg(distinct m.id)
       from (select t.id, %2$s as value from %3$I.%4$I t where t.deleted_at is null %5$s) m
      where m.value = any ($1::%1$s[])
      group by m.value',
    case when p_key = 'id' then 'uuid' else 'text' end,
    case p_key when 'id' then 't.id' when 'external_id' then 't.external_id' else p_kind.match_expressions ->> p_key end,
    p_schema, p_kind.table_name, case when p_scope = 'all' then '' else 'and t.owner_id = $2' end)
    using p_values, p_caller;
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
create function private.import_resolve(p_schema text, p_kind text, p_texts text[])
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
 * Owners named by text: an active member of the organization by email (any case) or by
 * full name (Turkish-folded). {text: {"id": uuid} | {"error": "owner_not_found" | "owner_ambiguous"}}.
 */
create function private.import_owners(p_organization_id uuid, p_texts text[])
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_object_agg(t.text, case
             when by_email.ids is not null then jsonb_build_object('id', by_email.ids[1])
             when cardinality(by_name.ids) = 1 then jsonb_build_object('id', by_name.ids[1])
             when cardinality(by_name.ids) > 1 then '{"error": "owner_ambiguous"}'
             else '{"error": "owner_not_found"}' end), '{}')
      from unnest(p_texts) t (text)
      left join lateral (
        select array_agg(p.id) as ids from private.memberships m join private.profiles p on p.id = m.user_id
         where m.organization_id = p_organization_id and m.is_active and p.is_active
           and p.email = lower(btrim(t.text))) by_email on true
      left join lateral (
        select array_agg(p.id) as ids from private.memberships m join private.profiles p on p.id = m.user_id
         where m.organization_id = p_organization_id and m.is_active and p.is_active
           and private.fold_search(btrim(concat_ws(' ', p.first_name, p.last_name))) = private.fold_search(btrim(t.text))) by_name on true);
end;
$$;

/**
 * What the import engine knows of a row between its statements: its position in the
 * batch and the client's row number; what it does (create, update, unchanged, skip, fail)
 * and why (exists, not_found, ambiguous_match, duplicate_in_file); the record's id; the
 * field errors; on an update the record as it was and the changed columns' old values;
 * the values to write and, for a new record, what the engine sets over them (id, owner,
 * creator, external id).
 */
create type private.import_row as (
  n integer,
  line integer,
  action text,
  reason text,
  id uuid,
  errors jsonb,
  existing jsonb,
  write jsonb,
  previous jsonb,
  extra jsonb
);

/**
 * A row's fields that the engine turns into columns before the kind's rules, from the
 * batch's lookups (private.import_process): owner → owner_id (an active member; scope own:
 * only the caller), customer, contact and deal → their ids, stage → its key, and a
 * contact's email, phone and mobile_phone → entries of its emails and phones (labelled
 * work, work and mobile), added to the row's own lists or, on an update, the record's,
 * unless the value is there already. {"columns", "errors", "owner_id"}.
 */
create function private.import_references(p_values jsonb, p_existing jsonb, p_lookups jsonb, p_caller uuid, p_scope text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  columns jsonb := '{}';
  errors jsonb := '{}';
  owner_id uuid;
  resolved jsonb;
  field text;
  channel record;
  normalized text;
  entries jsonb;
begin
  if p_values ? 'owner' then
    resolved := case when jsonb_typeof(p_values -> 'owner') = 'string' then p_lookups #> array['owners', p_values ->> 'owner'] end;
    if resolved ? 'id' and p_scope = 'own' and resolved ->> 'id' <> p_caller::text then
      errors := errors || '{"owner": "permission_denied"}';
    elsif resolved ? 'id' then
      owner_id := (resolved ->> 'id')::uuid;
    else
      errors := errors || jsonb_build_object('owner', coalesce(resolved ->> 'error', 'owner_not_found'));
    end if;
  end if;
  foreach field in array array['customer', 'contact', 'deal'] loop
    if p_values ? field then
      resolved := case when jsonb_typeof(p_values -> field) in ('string', 'number') then p_lookups #> array[field, p_values ->> field] end;
      if resolved ? 'id' then
        columns := columns || jsonb_build_object(field || '_id', resolved -> 'id');
      else
        errors := errors || jsonb_build_object(field, coalesce(resolved ->> 'error', 'not_found'));
      end if;
    end if;
  end loop;
  if p_values ? 'stage' and p_lookups ? 'stages' then
    columns := columns || jsonb_build_object('stage', coalesce(
      case when jsonb_typeof(p_values -> 'stage') = 'string'
           then coalesce(p_lookups #> array['stages', btrim(p_values ->> 'stage')],
                         p_lookups #> array['stage_names', private.fold_search(btrim(p_values ->> 'stage'))]) end,
      p_values -> 'stage'));
  end if;
  for channel in
    select * from (values ('email', 'emails', 'work'), ('phone', 'phones', 'work'), ('mobile_phone', 'phones', 'mobile')) c (field, list, label)
     where p_values ? c.field and p_lookups ? 'channels'
  loop
    normalized := case when jsonb_typeof(p_values -> channel.field) <> 'string' then null
                  when channel.field = 'email' then private.normalize_email(p_values ->> channel.field)
                  else private.normalize_phone(p_values ->> channel.field) end;
    if normalized is null or (channel.field = 'email' and not private.is_valid_email(normalized)) then
      errors := errors || jsonb_build_object(channel.field, case when channel.field = 'email' then 'invalid_email' else 'invalid_phone' end);
      continue;
    end if;
    entries := coalesce(columns -> channel.list, p_values -> channel.list, p_existing -> channel.list, '[]');
    if not exists (select 1 from jsonb_array_elements(entries) e where e ->> 'value' = normalized) then
      columns := columns || jsonb_build_object(channel.list,
                                               entries || jsonb_build_array(jsonb_build_object('label', channel.label, 'value', normalized)));
    end if;
  end loop;
  return jsonb_build_object('columns', columns, 'errors', errors, 'owner_id', owner_id);
end;
$$;

/**
 * The rules' field errors under the names the row used: a column the row filled through a
 * reference (customer_id from customer, emails from email, …) is reported on that field.
 */
create function private.import_field_errors(p_errors jsonb, p_values jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(coalesce(
           (select f.field from (values ('customer_id', 'customer'), ('contact_id', 'contact'), ('deal_id', 'deal'),
                                        ('emails', 'email'), ('phones', 'phone'), ('phones', 'mobile_phone')) f (column_name, field)
             where f.column_name = e.key and not p_values ? e.key and p_values ? f.field limit 1),
           e.key), e.value), '{}')
    from jsonb_each(p_errors) e;
$$;

/**
 * The SQL of a set-based insert into a table from p_source, a query of (write jsonb, extra
 * jsonb) rows: each row's columns are its write values with extra over them. Every column
 * is inserted; one a row leaves out gets its default, evaluated once for the statement (so
 * rows of different shapes go in one statement, and a volatile default, like a new id,
 * must come with each row). Returns the new ids and updated_at.
 */
create function private.import_insert_sql(p_relation regclass, p_source text)
returns text
language plpgsql
stable
set search_path = ''
as $$
begin
  return (select format('insert into %1$s as t (%2$s)
                         select %3$s from (%4$s) s
                         cross join lateral jsonb_populate_record(jsonb_populate_record((select jsonb_populate_record(null::%1$s, %5$s)), s.write), s.extra) r
                         returning t.id, t.updated_at',
                        p_relation,
                        string_agg(format('%I', a.attname), ', ' order by a.attnum),
                        string_agg(format('r.%I', a.attname), ', ' order by a.attnum),
                        p_source,
                        'jsonb_build_object(' || coalesce(string_agg(format('%L, %s', a.attname, pg_catalog.pg_get_expr(d.adbin, d.adrelid)), ', ')
                                                            filter (where d.adbin is not null), '') || ')')
            from pg_catalog.pg_attribute a
            left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
           where a.attrelid = p_relation and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' and a.attidentity = '');
end;
$$;

/**
 * The SQL of a set-based update of a table from p_source, a query of (id uuid, write jsonb)
 * rows: each sets some of the columns given on its record, the others keep their value.
 * Returns the ids and their new updated_at.
 */
create function private.import_update_sql(p_relation regclass, p_columns text[], p_source text)
returns text
language plpgsql
stable
set search_path = ''
as $$
begin
  return (select format('update %1$s as t set %2$s
                           from (select s.id, s.write, jsonb_populate_record(null::%1$s, s.write) as r from (%3$s) s) u
                          where t.id = u.id
                         returning t.id, t.updated_at',
                        p_relation,
                        (select string_agg(format('%1$I = case when u.write ? %1$L then (u.r).%1$I else t.%1$I end', c), ', ') from unnest(p_columns) c),
                        p_source));
end;
$$;

/**
 * One row through a statement of the import engine ($1: rows, answering rows) after the
 * statement refused the whole batch: the row as the statement answers it, or the row
 * failed ({"record": "invalid"}) when it is the one refused.
 */
create function private.import_row_retry(p_statement text, p_row private.import_row)
returns private.import_row
language plpgsql
security definer
set search_path = ''
as $$
declare
  answer private.import_row[];
begin
  execute p_statement into answer using array[p_row];
  return answer[1];
exception when data_exception then
  p_row.action := 'fail';
  p_row.errors := p_row.errors || '{"record": "invalid"}';
  return p_row;
end;
$$;

/**
 * Writes the batch's new records (p_update false) or changes (true) with one set-based
 * statement that also notes them in import_rows (and, for changes, the field history);
 * row by row only when that one hits a constraint. Returns the rows, those refused failed
 * with the engine's constraint codes (required, not_found, duplicate, invalid).
 */
create function private.import_write(p_kind private.import_kinds, p_schema text, p_update boolean,
                                     p_work private.import_row[], p_import_id uuid, p_caller uuid)
returns private.import_row[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  relation regclass := format('%I.%I', p_schema, p_kind.table_name)::regclass;
  chosen_action text := case when p_update then 'update' else 'create' end;
  source text := format('select w.id, w.write, w.extra from unnest($1::private.import_row[]) w where w.action = %L', chosen_action);
  statement text;
  result private.import_row[] := '{}';
  item private.import_row;
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  if not exists (select 1 from unnest(p_work) w where w.action = chosen_action) then
    return p_work;
  end if;
  statement := format('with written as (%s)', case
                 when p_update then private.import_update_sql(relation, array(
                   select distinct k from unnest(p_work) w, jsonb_object_keys(w.write) k where w.action = chosen_action), source)
                 else private.import_insert_sql(relation, source) end)
    || case when p_update then format(', history as (
           insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
           select %L, w.id, c.key, w.previous -> c.key, c.value, $3
             from unnest($1::private.import_row[]) w join written x on x.id = w.id cross join lateral jsonb_each(w.write) c)',
           p_schema, p_kind.entity_type) else '' end
    || format(' insert into %I.import_rows as i (import_id, record_id, action, previous, written_at)
                select $2, x.id, %L, w.previous, x.updated_at from written x join unnest($1::private.import_row[]) w on w.id = x.id
                on conflict (import_id, record_id) do update set previous = excluded.previous || i.previous, written_at = excluded.written_at',
              p_schema, case when p_update then 'updated' else 'created' end);
  begin
    execute statement using p_work, p_import_id, p_caller;
    return p_work;
  exception when integrity_constraint_violation or data_exception then
    null;
  end;
  foreach item in array p_work loop
    if item.action = chosen_action then
      begin
        execute statement using array[item], p_import_id, p_caller;
      exception when integrity_constraint_violation or data_exception then
        get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
        item.action := 'fail';
        item.errors := item.errors || (private.constraint_failure(p_kind.table_name, failed_column, failed_constraint, failed_state) -> 'fields');
      end;
    end if;
    result := result || item;
  end loop;
  return result;
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
 * The organization's custom fields of the kind's module are fields of the kind too, under
 * their keys, in the shapes a form sends them (the browser reads a file's cells into them:
 * numbers, dates, yes/no, an option's value), checked as a form's are
 * (private.apply_field_rules, the declarations read once per batch).
 */
create function private.import_process(p_kind private.import_kinds, p_context private.module_context, p_mode text,
                                       p_match_key text, p_rows jsonb, p_import_id uuid,
                                       p_prepare boolean default false, p_prepared jsonb default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  columns text[] := coalesce(p_kind.columns, private.module_column_list(p_kind.module, 'writable'));
  -- The fields of the kind's module ruled by their types (standard and the organization's
  -- custom fields, private.field_declarations), when the kind writes that module's table
  -- (not products): custom ones importable under their keys, read once for the batch.
  fields jsonb := case when p_kind.table_name = (select m.table_name from private.modules m where m.key = p_kind.module)
                       then private.field_declarations(p_context.organization_id, p_kind.module) else '{}' end;
  rules_sql text;
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
  columns := columns || array(select k from jsonb_object_keys(fields) k where not k = any (columns));
  -- A row's rules: its fields' types' (by the declarations read above, $14), then the
  -- kind's own (private.apply_field_rules), over the row and its references' columns.
  rules_sql := format('private.apply_field_rules(%L, case when t.vals ?| $9 then (t.vals - $5) || (x.refs -> ''columns'') else t.vals end,
                                                 case when t.action = ''update'' then t.existing end, $14)', p_kind.prepare_function);
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
                 case when t.action in ('create', 'update') and not t.prepared then %1$s end as ruled
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
    rules_sql,
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
            p_kind.reference_fields, unknown, null::uuid, keys, null::jsonb, fields;
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
              p_kind.reference_fields, unknown, p_import_id, keys, p_prepared -> 'rows', fields;
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
          p_kind.reference_fields, unknown, null::uuid, keys, p_prepared -> 'rows', fields;

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
 * The guard of an import RPC: the caller's context for the kind's import permission (the
 * module_context of private.import_kinds.module, its table the kind's), refused for an
 * unknown kind (unknown_kind) or, for a kind that needs it, a scope other than all.
 */
create function private.import_context(p_kind text)
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  kind private.import_kinds;
  context private.module_context;
begin
  select * into kind from private.import_kinds k where k.kind = p_kind;
  if not found then
    context.problem := private.failure('Unknown import kind', 'unknown_kind');
    return context;
  end if;
  context := private.module_context(kind.module, 'import');
  if context.problem is null and kind.scope_all and context.scope <> 'all' then
    context.problem := private.refusal('permission_denied');
  end if;
  context.table_name := kind.table_name;
  return context;
end;
$$;

/** A mode and match key for a kind: null when valid, else the refusal (invalid_mode, invalid_match_key). */
create function private.import_mode_problem(p_kind private.import_kinds, p_mode text, p_match_key text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when p_mode is null or p_mode not in ('create', 'upsert', 'update') then private.failure('Invalid import mode', 'invalid_mode')
    when p_match_key is null and p_mode <> 'create' then private.failure('This mode needs a match key', 'invalid_match_key')
    when p_match_key is not null and not p_match_key = any (p_kind.match_keys) then private.failure('Invalid match key', 'invalid_match_key')
  end;
$$;

/**
 * A batch's rows: null when valid, else the refusal. A non-empty array of {row: the
 * client's row number, values: object} (invalid_input), at most 1,000 rows and 4 MiB
 * (batch_too_large).
 */
create function private.import_rows_problem(p_rows jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_rows) is distinct from 'array' then private.failure('Rows must be an array of {row, values}', 'invalid_input')
    when jsonb_array_length(p_rows) = 0 then private.failure('Rows must be an array of {row, values}', 'invalid_input')
    when jsonb_array_length(p_rows) > (private.import_limits() ->> 'batch_rows')::integer
      then private.failure('A batch holds at most 1,000 rows and 4 MiB', 'batch_too_large')
    -- The stored size first (cheap; a little above the text's), the text's only near the limit.
    when pg_column_size(p_rows) > (private.import_limits() ->> 'batch_bytes')::integer
         and octet_length(p_rows::text) > (private.import_limits() ->> 'batch_bytes')::integer
      then private.failure('A batch holds at most 1,000 rows and 4 MiB', 'batch_too_large')
    when jsonb_path_exists(p_rows, '$[*] ? (@.type() != "object" || !exists(@.values ? (@.type() == "object"))
                                     || !exists(@.row ? (@.type() == "number" && @ >= 0 && @ <= 2147483647 && @ == @.floor())))')
      then private.failure('Rows must be an array of {row, values}', 'invalid_input')
  end;
$$;

/** A column mapping ({"<header>": "<field>" | null}, at most 200 columns): null when valid, else invalid_mapping. */
create function private.import_mapping_problem(p_mapping jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when jsonb_typeof(p_mapping) is distinct from 'object' then private.failure('Invalid mapping', 'invalid_mapping')
    when (select count(*) from jsonb_object_keys(p_mapping)) > (private.import_limits() ->> 'max_columns')::integer
         or octet_length(p_mapping::text) > 65536
         or exists (select 1 from jsonb_each(p_mapping) e
                     where char_length(e.key) > 255 or jsonb_typeof(e.value) not in ('string', 'null')
                        or char_length(e.value #>> '{}') > 63)
      then private.failure('Invalid mapping', 'invalid_mapping')
  end;
$$;

/** An import as the app reads it (Import: without its mapping, with the creator's name). */
create function private.import_json(p_import jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select (p_import - 'mapping' - 'reverted_by')
           || jsonb_build_object('created_by_name', private.profile_name((p_import ->> 'created_by')::uuid)));
end;
$$;

/**
 * An import of the caller's organization that the caller may see (their own, or any with
 * the kind's import permission in scope all), locked with p_lock: {"import": its row,
 * "context": the caller's context for its kind}, or the refusal (not_found for another
 * organization's or another member's import).
 */
create function private.import_lookup(p_import_id uuid, p_lock boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  schema_name text := private.tenant_schema(caller.organization_id);
  found_import jsonb;
  context private.module_context;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if schema_name is null then
    return private.refusal('tables_not_found');
  end if;
  execute format('select to_jsonb(i) from %I.imports i where i.id = $1 %s', schema_name, case when p_lock then 'for update' else '' end)
    into found_import using p_import_id;
  if found_import is null then
    return private.failure('Import not found', 'not_found');
  end if;
  context := private.import_context(found_import ->> 'kind');
  if context.problem is not null then
    return context.problem;
  end if;
  if context.scope = 'own' and found_import ->> 'created_by' <> context.caller::text then
    return private.failure('Import not found', 'not_found');
  end if;
  return jsonb_build_object('import', found_import, 'context', to_jsonb(context));
end;
$$;

/**
 * Starts an import of a file (its name, size, sha256 and the column mapping chosen) in a
 * mode matched on a key; its batches follow through private.import_run_batch.
 */
create function private.import_start(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text,
                                     p_match_key text, p_total_rows integer, p_mapping jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  kind private.import_kinds;
  problem jsonb;
  started jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select * into kind from private.import_kinds k where k.kind = p_kind;
  problem := coalesce(private.import_mode_problem(kind, p_mode, p_match_key), private.import_mapping_problem(p_mapping));
  if problem is not null then
    return problem;
  end if;
  if char_length(btrim(coalesce(p_file_name, ''))) not between 1 and 255 or coalesce(p_file_hash, '') !~ '^[0-9a-f]{64}$'
     or coalesce(p_file_size, 0) < 1 or coalesce(p_total_rows, 0) < 1 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  if p_file_size > (private.import_limits() ->> 'max_file_bytes')::bigint then
    return private.failure('The file is larger than 50 MiB', 'file_too_large');
  end if;
  if p_total_rows > (private.import_limits() ->> 'max_rows')::integer then
    return private.failure('The file has more than 100,000 rows', 'too_many_rows');
  end if;
  execute format('insert into %I.imports as i (kind, file_name, file_size, file_hash, mode, match_key, mapping, total_rows, created_by)
                  values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning to_jsonb(i)', context.schema_name)
    into started using p_kind, btrim(p_file_name), p_file_size, p_file_hash, p_mode, p_match_key, p_mapping, p_total_rows, context.caller;
  return jsonb_build_object('success', true, 'import', private.import_json(started));
end;
$$;

/** The preview: what importing these rows would do, by the same rules as a batch; writes nothing. */
create function private.import_check(p_kind text, p_mode text, p_match_key text, p_rows jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  kind private.import_kinds;
  problem jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select * into kind from private.import_kinds k where k.kind = p_kind;
  problem := coalesce(private.import_mode_problem(kind, p_mode, p_match_key), private.import_rows_problem(p_rows));
  if problem is not null then
    return problem;
  end if;
  return jsonb_build_object('success', true) || private.import_process(kind, context, p_mode, p_match_key, p_rows, null);
end;
$$;

/**
 * Whether a batch of a running import may run now: {"answer": …} when it must not (a
 * refusal, or the stored answer of a batch applied before, with replayed true), else the
 * import and the caller's context (private.import_lookup). Without p_lock the rows' shape is
 * checked; with p_lock the import is locked until the transaction ends (so batches apply one
 * at a time) and the batch before must be applied (batch_out_of_order).
 */
create function private.import_batch_gate(p_import_id uuid, p_batch integer, p_rows jsonb, p_lock boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, p_lock);
  run jsonb := lookup -> 'import';
  schema_name text := lookup #>> '{context,schema_name}';
  stored jsonb;
  previous_applied boolean;
  problem jsonb;
begin
  if lookup ? 'success' then
    return jsonb_build_object('answer', lookup);
  end if;
  if run ->> 'created_by' <> lookup #>> '{context,caller}' then
    return jsonb_build_object('answer', private.failure('Only the person who started the import may run it', 'permission_denied'));
  end if;
  if p_batch is null or p_batch not between 0 and (private.import_limits() ->> 'max_rows')::integer then
    return jsonb_build_object('answer', private.failure('Invalid batch number', 'invalid_input'));
  end if;
  execute format('select b.result from %I.import_batches b where b.import_id = $1 and b.batch = $2', schema_name)
    into stored using p_import_id, p_batch;
  if stored is not null then
    return jsonb_build_object('answer', stored || '{"replayed": true}');
  end if;
  if run ->> 'status' <> 'running' then
    return jsonb_build_object('answer', private.failure('The import is not running', 'import_not_running'));
  end if;
  if p_lock and p_batch > 0 then
    execute format('select exists (select from %I.import_batches b where b.import_id = $1 and b.batch = $2)', schema_name)
      into previous_applied using p_import_id, p_batch - 1;
    if not previous_applied then
      return jsonb_build_object('answer', private.failure('The batch before this one has not been applied yet', 'batch_out_of_order'));
    end if;
  end if;
  -- The rows' shape is checked once, before the lock.
  problem := case when p_lock or p_rows = '[]' then null else private.import_rows_problem(p_rows) end;
  if problem is not null then
    return jsonb_build_object('answer', problem);
  end if;
  if (run ->> 'created')::integer + (run ->> 'updated')::integer + (run ->> 'skipped')::integer + (run ->> 'failed')::integer
     + jsonb_array_length(p_rows) > (run ->> 'total_rows')::integer then
    return jsonb_build_object('answer', private.failure('More rows than the file has', 'too_many_rows'));
  end if;
  return lookup;
end;
$$;

/**
 * Applies one batch of a running import (its creator only). A batch number applied before
 * answers as it did then, with replayed true, and changes nothing; so a resumed or repeated
 * batch never writes twice. Batches apply in the file's order: one whose predecessor is not
 * applied yet is refused with batch_out_of_order and changes nothing (the page keeps two
 * batches on their way and sends such a one again once the one before it is answered), so a
 * later row of the file always wins over an earlier one. A batch may be empty (every row of
 * it failed the browser's checks). The counts add up on the import; its rows may not exceed
 * the file's (too_many_rows).
 *
 * The rows go through the kind's rules as new records before the import is locked, while
 * the batch before may still be running (private.import_process, p_prepare); locked, the
 * batch is matched and written, the rows that are new taking that result.
 */
create function private.import_run_batch(p_import_id uuid, p_batch integer, p_rows jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  gate jsonb := private.import_batch_gate(p_import_id, p_batch, p_rows, false);
  run jsonb;
  context private.module_context;
  kind private.import_kinds;
  prepared jsonb;
  answer jsonb;
begin
  if gate ? 'answer' then
    return gate -> 'answer';
  end if;
  context := jsonb_populate_record(null::private.module_context, gate -> 'context');
  select * into kind from private.import_kinds k where k.kind = gate #>> '{import,kind}';
  if p_rows <> '[]' and gate #>> '{import,mode}' <> 'update' then
    prepared := private.import_process(kind, context, 'create', null, p_rows, null, true);
  end if;
  gate := private.import_batch_gate(p_import_id, p_batch, p_rows, true);
  if gate ? 'answer' then
    return gate -> 'answer';
  end if;
  run := gate -> 'import';
  answer := jsonb_build_object('success', true, 'batch', p_batch, 'replayed', false)
            || case when p_rows = '[]' then '{"created": 0, "updated": 0, "skipped": 0, "failed": 0, "results": []}'
                    else private.import_process(kind, context, run ->> 'mode', run ->> 'match_key', p_rows, p_import_id, false, prepared) end;
  execute format('insert into %I.import_batches (import_id, batch, result) values ($1, $2, $3);
                  update %I.imports set created = created + $4, updated = updated + $5, skipped = skipped + $6, failed = failed + $7
                   where id = $1', context.schema_name, context.schema_name)
    using p_import_id, p_batch, answer, (answer ->> 'created')::integer, (answer ->> 'updated')::integer,
          (answer ->> 'skipped')::integer, (answer ->> 'failed')::integer;
  return answer;
end;
$$;

/**
 * Ends a running import (its creator): completed, or cancelled; audited as <kind>.import with
 * its mode and counts (not the file name, which may name a person: the audit log is
 * append-only, so it never holds what an erasure must reach).
 */
create function private.import_finish(p_import_id uuid, p_cancelled boolean)
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

/** An import the caller may see, with its mapping and the batch numbers applied (for a resume). */
create function private.import_get(p_import_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, false);
  context private.module_context;
  batches jsonb;
begin
  if lookup ? 'success' then
    return lookup;
  end if;
  context := jsonb_populate_record(null::private.module_context, lookup -> 'context');
  execute format('select coalesce(jsonb_agg(b.batch order by b.batch), ''[]'') from %I.import_batches b where b.import_id = $1',
                 context.schema_name)
    into batches using p_import_id;
  return jsonb_build_object('success', true, 'import', private.import_json(lookup -> 'import')
    || jsonb_build_object('mapping', lookup #> '{import,mapping}', 'batches', batches));
end;
$$;

/**
 * The imports of the kinds the caller may import (p_kind: one of them), newest first, at
 * most p_limit (1-200): all of a kind with scope all, the caller's own with scope own.
 */
create function private.import_list(p_kind text, p_limit integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.caller_context := private.caller_context('organization');
  caller uuid := context.user_id;
  schema_name text := private.tenant_schema(context.organization_id);
  kinds_all text[];
  kinds_own text[];
  imports jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if schema_name is null then
    return private.refusal('tables_not_found');
  end if;
  if p_kind is not null and not exists (select 1 from private.import_kinds k where k.kind = p_kind) then
    return private.failure('Unknown import kind', 'unknown_kind');
  end if;
  select array_agg(k.kind) filter (where s.scope = 'all'), array_agg(k.kind) filter (where s.scope = 'own' and not k.scope_all)
    into kinds_all, kinds_own
    from private.import_kinds k
    join private.caller_scopes('import') s on s.module = k.module
   where p_kind is null or k.kind = p_kind;
  if kinds_all is null and kinds_own is null then
    return private.refusal('permission_denied');
  end if;
  execute format('select coalesce(jsonb_agg(private.import_json(to_jsonb(i)) order by i.created_at desc, i.id desc), ''[]'')
                    from (select * from %I.imports i
                           where i.kind = any ($1) or (i.kind = any ($2) and i.created_by = $3)
                           order by i.created_at desc, i.id desc limit $4) i', schema_name)
    into imports using coalesce(kinds_all, '{}'), coalesce(kinds_own, '{}'), caller, least(greatest(coalesce(p_limit, 50), 1), 200);
  return jsonb_build_object('success', true, 'imports', imports);
end;
$$;

/**
 * Undoes a finished import (its creator, or anyone with the kind's import permission in
 * scope all): the records it created are soft-deleted, the ones it updated get their
 * previous values back (field history, audit <kind>.import_revert). Refused while running
 * or once reverted (import_not_revertible), and when any of its records was edited or
 * deleted since the import wrote it (import_changed_since, with how many).
 */
create function private.import_revert(p_import_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  lookup jsonb := private.import_lookup(p_import_id, true);
  run jsonb := lookup -> 'import';
  context private.module_context;
  kind private.import_kinds;
  relation regclass;
  changed integer;
  deleted integer;
  restored integer := 0;
  restore_columns text[];
  quiet text := current_setting('crm.quiet_assignments', true);
begin
  if lookup ? 'success' then
    return lookup;
  end if;
  context := jsonb_populate_record(null::private.module_context, lookup -> 'context');
  if run ->> 'status' not in ('completed', 'cancelled') then
    return private.failure('Only a finished import can be undone', 'import_not_revertible');
  end if;
  select * into kind from private.import_kinds k where k.kind = run ->> 'kind';
  relation := format('%I.%I', context.schema_name, kind.table_name)::regclass;

  -- The import's records, locked; any changed since the import wrote it refuses the undo.
  execute format('select count(*) from (select 1 from %s t join %I.import_rows r on r.record_id = t.id and r.import_id = $1 for update of t) locked',
                 relation, context.schema_name)
    using p_import_id;
  execute format('select count(*) from %I.import_rows r left join %s t on t.id = r.record_id
                   where r.import_id = $1 and (t.id is null or t.deleted_at is not null or t.updated_at <> r.written_at)',
                 context.schema_name, relation)
    into changed using p_import_id;
  if changed > 0 then
    return private.failure('Records of this import were changed since', 'import_changed_since', jsonb_build_object('changed', changed));
  end if;

  perform pg_catalog.set_config('crm.quiet_assignments', 'on', true);
  begin
    execute format('with gone as (update %s t set deleted_at = now() from %I.import_rows r
                                   where r.import_id = $1 and r.action = ''created'' and t.id = r.record_id returning t.id)
                    select count(*) from gone', relation, context.schema_name)
      into deleted using p_import_id;
    execute format('select array(select distinct k from %I.import_rows r, jsonb_object_keys(r.previous) k
                                   where r.import_id = $1 and r.action = ''updated'')', context.schema_name)
      into restore_columns using p_import_id;
    if cardinality(restore_columns) > 0 then
      execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                      select $2, t.id, p.key, to_jsonb(t) -> p.key, p.value, $3
                        from %I.import_rows r
                        join %s t on t.id = r.record_id
                        cross join lateral jsonb_each(r.previous) p
                       where r.import_id = $1 and r.action = ''updated'' and (to_jsonb(t) -> p.key) is distinct from p.value',
                     context.schema_name, context.schema_name, relation)
        using p_import_id, kind.entity_type, context.caller;
      execute format('with written as (%s) select count(*) from written',
                     private.import_update_sql(relation, restore_columns, format(
                       'select r.record_id as id, r.previous as write from %I.import_rows r where r.import_id = $1 and r.action = ''updated''',
                       context.schema_name)))
        into restored using p_import_id;
    end if;
  exception when integrity_constraint_violation or data_exception then
    perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);
    return private.failure('A previous value cannot be restored', 'import_revert_conflict');
  end;
  perform pg_catalog.set_config('crm.quiet_assignments', coalesce(quiet, ''), true);

  execute format('update %I.imports set status = ''reverted'', reverted_at = now(), reverted_by = $2 where id = $1', context.schema_name)
    using p_import_id, context.caller;
  perform private.write_audit(context.organization_id, kind.kind || '.import_revert', 'import', p_import_id::text,
                              jsonb_build_object('deleted', deleted, 'restored', restored));
  return jsonb_build_object('success', true, 'deleted', deleted, 'restored', restored);
end;
$$;

/** A saved mapping as the app reads it. */
create function private.import_mapping_json(p_mapping jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('id', p_mapping -> 'id', 'name', p_mapping -> 'name', 'mapping', p_mapping -> 'mapping',
                            'owner_id', p_mapping -> 'owner_id', 'updated_at', p_mapping -> 'updated_at');
$$;

/** The caller's saved mappings of a kind they may import, by name. */
create function private.import_mapping_list(p_kind text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  mappings jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select coalesce(jsonb_agg(private.import_mapping_json(to_jsonb(m)) order by private.turkish_sort_key(m.name) collate "C", m.id), ''[]'')
                    from %I.import_mappings m where m.kind = $1 and m.owner_id = $2 and m.deleted_at is null', context.schema_name)
    into mappings using p_kind, context.caller;
  return jsonb_build_object('success', true, 'mappings', mappings);
end;
$$;

/** Saves a mapping under a name (1-100 characters; the caller's mapping of that name and kind is replaced). */
create function private.import_mapping_save(p_kind text, p_name text, p_mapping jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.import_context(p_kind);
  clean_name text := btrim(coalesce(p_name, ''));
  problem jsonb;
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if clean_name = '' or char_length(clean_name) > 100 then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(
      'name', case when clean_name = '' then 'required' else 'too_long' end)));
  end if;
  problem := private.import_mapping_problem(p_mapping);
  if problem is not null then
    return problem;
  end if;
  execute format('insert into %I.import_mappings as m (kind, name, mapping, owner_id, created_by) values ($1, $2, $3, $4, $4)
                  on conflict (owner_id, kind, name) where deleted_at is null do update set mapping = excluded.mapping
                  returning to_jsonb(m)', context.schema_name)
    into saved using p_kind, clean_name, p_mapping, context.caller;
  return jsonb_build_object('success', true, 'mapping', private.import_mapping_json(saved));
end;
$$;

/** Deletes one of the caller's saved mappings. */
create function private.import_mapping_delete(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  guard private.caller_context := private.caller_context('organization');
  caller uuid := guard.user_id;
  schema_name text := private.tenant_schema(guard.organization_id);
  kind text;
  context private.module_context;
begin
  if guard.problem is not null then
    return guard.problem;
  end if;
  if schema_name is null then
    return private.refusal('tables_not_found');
  end if;
  execute format('select m.kind from %I.import_mappings m where m.id = $1 and m.owner_id = $2 and m.deleted_at is null', schema_name)
    into kind using p_id, caller;
  if kind is null then
    return private.failure('Mapping not found', 'not_found');
  end if;
  context := private.import_context(kind);
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('update %I.import_mappings set deleted_at = now() where id = $1', schema_name) using p_id;
  return jsonb_build_object('success', true);
end;
$$;

/**
 * A page of a module's records the caller may see for an action ('view' for the lists,
 * 'export' for the export; scope own: their own), not deleted: Turkish-folded search
 * (trigram index; the organization's searchable custom fields are or-ed in, each by
 * private.fold_search of its column, which has a trigram index of its own), filters on the
 * module's filterable columns and the custom fields marked filterable ({column: value |
 * [values] | {"from", "to"} | {"is_null": boolean}}, by the column's type: an array column,
 * such as a multi_choice field, matches any of the values; "me" for owner_id; through a link table
 * (private.module_link_filters): {column: id | [ids]}, the records linked to any of those the
 * caller may see in the other module), a sortable column or custom field (any type but
 * long_text and multi_choice; text sorts
 * in Turkish order, private.turkish_sort_key; a link column such as customer_id by the
 * linked record's name, records without one last), at most p_max_limit rows; list rows (the
 * module's list columns and every custom field that is not hidden, which the list's column
 * picker offers) or
 * whole rows (every column but the search column, with owner_name), each with the names of
 * its linked records as private.link_names_sql gives them (customer_name, deal_name, …:
 * null where the caller may not see the linked record), joined to the page's rows only. With {"deleted_at": {"is_null":
 * false}} the deleted records instead (with deleted_at), checked against the delete
 * permission and its scope. The total is exact up to 10,000 matches and "at least 10,000"
 * beyond, so no page waits on a count of a million rows. A search the planner expects to
 * match more than 20,000 rows is not counted and, when a text column was asked for, comes
 * newest first; sorted_by names the order used.
 * The page starts after p_offset rows, or after p_after: a cursor as private.record_cursor
 * makes it, {"sort", "descending", "value", "id"} of the row before (by key: the next page
 * reads only its own rows through the sort index, where an offset re-reads every row before
 * it), or {"offset": n} when the order is by a link (keyset false in the answer: its order
 * is a linked record's name, looked up, so it has no key to start from). A cursor of another
 * order or of another shape is refused.
 */
create function private.record_page(p_module text, p_action text, p_search text, p_filters jsonb, p_sort text,
                                    p_descending boolean, p_limit integer, p_offset integer, p_max_limit integer,
                                    p_whole_rows boolean, p_after jsonb default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  module private.modules;
  -- The organization's custom fields of the module (private.custom_field_declarations).
  custom_fields jsonb;
  -- The search condition: the search column, or-ed with the searchable custom fields.
  search_condition text;
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
  link_filter private.module_link_filters;
  -- {"deleted_at": {"is_null": false}}: the deleted records instead (the trash), for those who may restore them.
  deleted boolean := coalesce(p_filters -> 'deleted_at' = '{"is_null": false}', false);
  conditions text := case when coalesce(p_filters -> 'deleted_at' = '{"is_null": false}', false)
                          then 't.deleted_at is not null' else 't.deleted_at is null' end
                     || ' and ($1 = ''all'' or t.owner_id = $2)';
  folded text := private.fold_search(btrim(coalesce(p_search, '')));
  -- The JSON of a page row r.
  projection text;
  -- The linked records' names (private.link_names_sql): joins over the page rows r, their JSON.
  link_joins text;
  link_names text;
  -- Sorting by a link: the join naming the linked record of each row t, and the name; the linked
  -- table, the rule of what the caller may see of it (over its rows n), its one title column;
  -- the ids of the rows up to the page's end.
  sort_join text := '';
  sort_name text;
  sort_target text;
  sort_visible text;
  sort_title text;
  page_ids uuid[];
  page_offset integer := coalesce(p_offset, 0);
  page_end integer;
  -- The keyset cursor's condition: the rows after the cursor's in the page's order.
  after_condition text := '';
  after_value text;
  after_key text;
  sort_nullable boolean;
  pattern text;
  source text;
  page jsonb;
  counted bigint;
  broad boolean := false;
  count_cap constant integer := 10000;
  -- Searches the planner expects to match more rows than this are not counted.
  broad_estimate constant integer := 20000;
  -- The module's declared filterable columns (private.module_column_list), read once.
  filterable text[];
begin
  context := private.module_context(p_module, case when deleted then 'delete' else p_action end);
  if context.problem is not null then
    return context.problem;
  end if;
  select * into module from private.modules m where m.key = p_module;
  custom_fields := private.custom_field_declarations(context.organization_id, p_module);
  filterable := private.module_column_list(p_module, 'filterable');
  relation := format('%I.%I', context.schema_name, context.table_name)::regclass;
  sort_key := coalesce(nullif(p_sort, ''), module.default_sort);
  direction := case when coalesce(p_descending, module.default_descending and p_sort is null) then 'desc' else 'asc' end;
  if not (sort_key = any (private.module_column_list(module.key, 'sortable'))
          or coalesce(custom_fields #>> array[sort_key, 'type'], 'long_text') not in ('long_text', 'multi_choice'))
     or coalesce(p_offset, 0) < 0
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
    select * into link_filter from private.module_link_filters f where f.module = p_module and f.filter_column = filter_key;
    if found then
      -- Through a link table: records linked to any of the given records of the other module
      -- that the caller may see there (a hidden contact's deals are not told apart from none).
      filter_value := case when jsonb_typeof(filters -> filter_key) = 'array' then filters -> filter_key
                           else jsonb_build_array(filters -> filter_key) end;
      if exists (select 1 from jsonb_array_elements(filter_value) v where private.try_uuid(v) is null) then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      select coalesce(array_agg(v), '{}') into filter_values
        from jsonb_array_elements_text(filter_value) v
       where private.record_visible(link_filter.target_module, v::uuid);
      conditions := conditions || format(' and exists (select 1 from %I.%I l where l.%I = t.id and l.%I = any(%L::uuid[]))',
                                         context.schema_name, link_filter.link_table, link_filter.record_column,
                                         link_filter.filter_column, filter_values);
      continue;
    end if;
    if not (filter_key = any (filterable) or filter_key = 'owner_id'
            or coalesce((custom_fields #>> array[filter_key, 'filterable'])::boolean, false)) then
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
    select '(t.search_text like $4' || coalesce(string_agg(format(' or private.fold_search(t.%I) like $4', f.key), '' order by f.key), '')
           || ')'
      into search_condition
      from jsonb_each(custom_fields) f where (f.value ->> 'searchable')::boolean;
    conditions := conditions || ' and ' || search_condition;
  end if;

  -- A list row: the module's list columns; a whole row: every column but the search column.
  -- Either with the names of the linked records (customer_name, ...), joined to the page's rows only.
  select coalesce(string_agg(l.join_sql, ' '), ''),
         coalesce('jsonb_build_object(' || string_agg(format('%L, %s', l.name_key, l.name_sql), ', ') || ')', '''{}''::jsonb')
    into link_joins, link_names
    from private.link_names_sql(p_module, context.schema_name, 'r') l;
  if p_whole_rows then
    projection := '(to_jsonb(r) - ''search_text'' - ''position'') || ' || link_names;
  else
    select format('jsonb_build_object(''id'', r.id, ''owner_id'', r.owner_id, ''owner_name'', r.owner_name, '
                  '''created_at'', r.created_at, ''updated_at'', r.updated_at, %s) || %s',
                  string_agg(format('%L, r.%I', c, c), ', '), link_names)
      into projection from unnest(private.module_column_list(module.key, 'listed')) c;
    -- The custom fields that are not hidden (the column picker offers them), 40 to a
    -- jsonb_build_object (a function takes at most 100 arguments).
    select projection || coalesce(string_agg(g.pairs, ''), '')
      into projection
      from (select format(' || jsonb_build_object(%s)', string_agg(format('%L, r.%I', f.key, f.key), ', ' order by f.key)) as pairs
              from (select f.key, row_number() over (order by f.key) as n from jsonb_each(custom_fields) f
                     where not (f.value ->> 'hidden')::boolean) f
             group by (f.n - 1) / 40) g;
  end if;
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

    -- Text sorts in Turkish order (C before Ç, I before İ) by its key: PGlite has no ICU collations to ask.
    select pg_catalog.format_type(a.atttypid, a.atttypmod) into sort_type
      from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = sort_key;
    -- A link sorts by the linked record's name (what the caller may see of it), in Turkish
    -- order. A link is a uuid column: any other sort needs no look at the module's links.
    if sort_type = 'uuid' then
      select l.join_sql, l.name_sql, l.target_sql, l.visible_sql, m.title_columns[1]
        into sort_join, sort_name, sort_target, sort_visible, sort_title
        from private.link_names_sql(p_module, context.schema_name, 't') l
        join private.module_links(p_module, context.schema_name) ml on ml.column_name = l.column_name
        join private.modules m on m.key = ml.target_module and cardinality(m.title_columns) = 1
       where l.column_name = sort_key;
    end if;
    if sort_name is not null then
      sort_type := 'text';
    end if;
    sort_join := coalesce(sort_join, '');
    if broad and sort_type = 'text' then
      -- Matches of a broad search cluster in name order (a name search meets them all at
      -- one letter); in date order they are spread, so the newest come at once.
      sort_key := 'created_at';
      sort_type := 'timestamp with time zone';
      direction := 'desc';
      sort_name := null;
      sort_join := '';
    end if;
    -- (A link's name, then the linked record, then the row; records without a name last, either way.)
    sort_expression := case when sort_name is not null
                              then format('(%1$s) is null, private.turkish_sort_key(%1$s) collate "C" %2$s, case when (%1$s) is not null then t.%3$I end',
                                          sort_name, direction, sort_key)
                            when sort_type = 'text' then format('private.turkish_sort_key(t.%I) collate "C"', sort_key)
                            else format('t.%I', sort_key) end;

    -- Where the page starts: an offset cursor for a link's order, else the row the cursor names.
    if p_after is not null and sort_name is not null then
      if jsonb_typeof(p_after) <> 'object' or coalesce((select array_agg(k) from jsonb_object_keys(p_after) k), '{}') <> '{offset}'
         or coalesce(p_after ->> 'offset', '') !~ '^[0-9]{1,9}$' or page_offset <> 0 then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      page_offset := (p_after ->> 'offset')::integer;
    elsif p_after is not null then
      if jsonb_typeof(p_after) <> 'object'
         or coalesce((select array_agg(k order by k) from jsonb_object_keys(p_after) k), '{}') <> '{descending,id,sort,value}'
         or p_after -> 'sort' <> to_jsonb(sort_key) or p_after -> 'descending' <> to_jsonb(direction = 'desc')
         or private.try_uuid(p_after -> 'id') is null or jsonb_typeof(p_after -> 'value') not in ('string', 'null')
         or page_offset <> 0 then
        return private.failure('Invalid list request', 'invalid_input');
      end if;
      -- The cursor's values are quoted literals (%L) cast to the column's type: a value that is
      -- not one fails the cast (invalid_input below), and none is ever read as SQL.
      after_value := p_after ->> 'value';
      after_key := case when sort_type = 'text' then format('private.turkish_sort_key(%L::text) collate "C"', after_value)
                        else format('%L::%s', after_value, sort_type) end;
      select not a.attnotnull into sort_nullable
        from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = sort_key;
      -- Ascending puts empty values last, descending first (PostgreSQL's default, the list's order).
      after_condition := ' and ' || case
        when direction = 'asc' and after_value is null
          then format('(%s) is null and t.id > %L::uuid', sort_expression, p_after ->> 'id')
        when direction = 'asc'
          then format('((%1$s, t.id) > (%2$s, %3$L::uuid)%4$s)', sort_expression, after_key, p_after ->> 'id',
                      case when sort_nullable then format(' or (%s) is null', sort_expression) else '' end)
        when after_value is null
          then format('((%1$s) is not null or t.id < %2$L::uuid)', sort_expression, p_after ->> 'id')
        else format('(%1$s, t.id) < (%2$s, %3$L::uuid)', sort_expression, after_key, p_after ->> 'id') end;
      -- Cast once here, so that a value that is not of the column's type is refused as such.
      execute format('select %s', after_key);
    end if;
    page_end := page_offset + least(greatest(coalesce(p_limit, 50), 1), p_max_limit);

    -- A search matching at most count_cap rows: fetch its matches through the trigram index,
    -- then sort them (the planner, misjudging a pattern, may walk the whole sort index
    -- instead: 190 ms at a million rows). Denser matches: the sort index finds a page fast.
    if folded <> '' and counted <= count_cap then
      source := format('(select * from %s t where %s offset 0)', relation, conditions);
    else
      source := relation::text;
    end if;
    -- Sorting by a link to a module that names a record by one column (a customer, a deal):
    -- the linked records of the first pages walked in their Turkish sort index (keeping those
    -- linked to a row of the list, so that only they pay for their sort key), their rows, then,
    -- past them, the rows whose link names nothing the caller may see; the page is made of
    -- those rows only. Sorting every row by a name looked up row by row took 460 ms at 5,000
    -- contacts.
    if sort_name is not null and sort_visible is not null and sort_title is not null and source = relation::text
       and page_end <= count_cap then
      execute format($query$
        select array(select t.id
                       from unnest(array(select n.id from %2$s n
                                          where %4$s and (select true from %1$s t where t.%3$I = n.id and %5$s limit 1)
                                          order by private.turkish_sort_key(n.%6$I) collate "C" %7$s, n.id %7$s
                                          limit $5)) with ordinality linked (id, place)
                       join %1$s t on t.%3$I = linked.id
                      where %5$s
                      order by linked.place, t.id %7$s limit $5)$query$,
        relation, sort_target, sort_key, sort_visible, conditions, sort_title, direction)
        into page_ids
        using context.scope, context.caller, filters, pattern, page_end;
      if cardinality(page_ids) < page_end then
        execute format($query$
          select $6 || array(select t.id from %1$s t
                              where %5$s and not exists (select 1 from %2$s n where n.id = t.%3$I and %4$s)
                              order by t.id %6$s limit $5 - cardinality($6))$query$,
          relation, sort_target, sort_key, sort_visible, conditions, direction)
          into page_ids
          using context.scope, context.caller, filters, pattern, page_end, page_ids;
      end if;
      source := format('(select * from %s t where t.id = any (%L::uuid[]))', relation, page_ids);
    end if;
    execute format($query$
      select coalesce(jsonb_agg(%1$s
                                || case when %6$L then jsonb_build_object('deleted_at', r.deleted_at) else '{}' end
                                order by r.position), '[]')
        from (select t.*, nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') as owner_name,
                     row_number() over (order by %2$s %3$s, t.id %3$s) as position
                from %4$s t
                left join private.profiles p on p.id = t.owner_id
                %7$s
               where %5$s%9$s
               order by %2$s %3$s, t.id %3$s
               limit $5 offset $6) r
        %8$s$query$,
      projection, sort_expression, direction, source, conditions, deleted, sort_join, link_joins, after_condition)
      into page
      using context.scope, context.caller, filters, pattern,
            least(greatest(coalesce(p_limit, 50), 1), p_max_limit), page_offset;
  exception when invalid_text_representation or invalid_datetime_format or datatype_mismatch
                 or datetime_field_overflow or numeric_value_out_of_range then
    return private.failure('Invalid list request', 'invalid_input');
  end;

  return jsonb_build_object('success', true, 'scope', context.scope, 'records', page,
                            'total', least(counted, count_cap), 'total_exact', counted <= count_cap,
                            'sorted_by', sort_key, 'descending', direction = 'desc', 'keyset', sort_name is null);
end;
$$;

/**
 * One page of a module's export: the module's export permission and scope, the list's
 * search, filters and sort (private.record_page), p_limit whole rows (1-5,000) after
 * p_cursor (null: from the first); next_cursor where the next page starts (null after the
 * last), to be handed back as it is: after the page's last row by key (its sort value and
 * id), or an offset for an order by a link. One row more than asked tells whether there
 * are more. The first page (no cursor) writes the audit entry <module>.export with the
 * filters and whether a search narrowed it (not the words searched, which may name a
 * person: the audit log is append-only, so it never holds what an erasure must reach).
 */
create function private.record_export(p_module text, p_search text, p_filters jsonb, p_sort text, p_descending boolean,
                                      p_cursor jsonb, p_limit integer)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'export');
  max_rows constant integer := (private.import_limits() ->> 'export_rows')::integer;
  page jsonb;
  records jsonb;
  last jsonb;
  more boolean;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_limit is null or p_limit not between 1 and max_rows then
    return private.failure('Invalid export request', 'invalid_input');
  end if;
  page := private.record_page(p_module, 'export', p_search, p_filters, p_sort, p_descending, p_limit + 1, 0,
                              max_rows + 1, true, nullif(p_cursor, 'null'));
  if not (page ->> 'success')::boolean then
    return page;
  end if;
  if nullif(p_cursor, 'null') is null then
    perform private.write_audit(context.organization_id, p_module || '.export', p_module, null,
                                jsonb_build_object('searched', btrim(coalesce(p_search, '')) <> '', 'filters', p_filters));
  end if;
  records := page -> 'records';
  more := jsonb_array_length(records) > p_limit;
  if more then
    records := records - p_limit;
  end if;
  last := records -> -1;
  return jsonb_build_object('success', true, 'records', records, 'total', page -> 'total',
    'total_exact', page -> 'total_exact',
    'next_cursor', case when not more then null
                        when (page ->> 'keyset')::boolean
                          then jsonb_build_object('sort', page -> 'sorted_by', 'descending', page -> 'descending',
                                                  'value', last ->> (page ->> 'sorted_by'), 'id', last ->> 'id')
                        else jsonb_build_object('offset', coalesce((p_cursor ->> 'offset')::integer, 0) + p_limit) end);
end;
$$;

/** Starts an import of a file: kind, file name, size and sha256, mode, match key, row count, column mapping. */
create function public.start_import(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text,
                                    p_match_key text, p_total_rows integer, p_mapping jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_start(p_kind, p_file_name, p_file_size, p_file_hash, p_mode, p_match_key, p_total_rows, p_mapping); $$;
revoke all on function public.start_import(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text, p_match_key text, p_total_rows integer, p_mapping jsonb) from public, anon, authenticated;
grant execute on function public.start_import(p_kind text, p_file_name text, p_file_size bigint, p_file_hash text, p_mode text, p_match_key text, p_total_rows integer, p_mapping jsonb) to authenticated;

/** What importing these rows would do (the preview); writes nothing. */
create function public.check_import_rows(p_kind text, p_mode text, p_match_key text, p_rows jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_check(p_kind, p_mode, p_match_key, p_rows); $$;
revoke all on function public.check_import_rows(p_kind text, p_mode text, p_match_key text, p_rows jsonb) from public, anon, authenticated;
grant execute on function public.check_import_rows(p_kind text, p_mode text, p_match_key text, p_rows jsonb) to authenticated;

/** Applies one batch (up to 1,000 rows) of a running import; a batch applied before answers as before. */
create function public.run_import_batch(p_import_id uuid, p_batch integer, p_rows jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_run_batch(p_import_id, p_batch, p_rows); $$;
revoke all on function public.run_import_batch(p_import_id uuid, p_batch integer, p_rows jsonb) from public, anon, authenticated;
grant execute on function public.run_import_batch(p_import_id uuid, p_batch integer, p_rows jsonb) to authenticated;

/** Ends a running import: completed, or cancelled. */
create function public.finish_import(p_import_id uuid, p_cancelled boolean default false)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_finish(p_import_id, p_cancelled); $$;
revoke all on function public.finish_import(p_import_id uuid, p_cancelled boolean) from public, anon, authenticated;
grant execute on function public.finish_import(p_import_id uuid, p_cancelled boolean) to authenticated;

/** An import with its mapping and applied batches. */
create function public.get_import(p_import_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_get(p_import_id); $$;
revoke all on function public.get_import(p_import_id uuid) from public, anon, authenticated;
grant execute on function public.get_import(p_import_id uuid) to authenticated;

/** The imports the caller may see, newest first. */
create function public.list_imports(p_kind text default null, p_limit integer default 50)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_list(p_kind, p_limit); $$;
revoke all on function public.list_imports(p_kind text, p_limit integer) from public, anon, authenticated;
grant execute on function public.list_imports(p_kind text, p_limit integer) to authenticated;

/** Undoes a finished import, unless its records were changed since. */
create function public.revert_import(p_import_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_revert(p_import_id); $$;
revoke all on function public.revert_import(p_import_id uuid) from public, anon, authenticated;
grant execute on function public.revert_import(p_import_id uuid) to authenticated;

/** The caller's saved column mappings of a kind. */
create function public.list_import_mappings(p_kind text)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.import_mapping_list(p_kind); $$;
revoke all on function public.list_import_mappings(p_kind text) from public, anon, authenticated;
grant execute on function public.list_import_mappings(p_kind text) to authenticated;

/** Saves a column mapping under a name (replacing the caller's mapping of that name). */
create function public.save_import_mapping(p_kind text, p_name text, p_mapping jsonb)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_mapping_save(p_kind, p_name, p_mapping); $$;
revoke all on function public.save_import_mapping(p_kind text, p_name text, p_mapping jsonb) from public, anon, authenticated;
grant execute on function public.save_import_mapping(p_kind text, p_name text, p_mapping jsonb) to authenticated;

/** Deletes one of the caller's saved mappings. */
create function public.delete_import_mapping(p_id uuid)
returns jsonb language sql security definer set search_path = ''
as $$ select private.import_mapping_delete(p_id); $$;
revoke all on function public.delete_import_mapping(p_id uuid) from public, anon, authenticated;
grant execute on function public.delete_import_mapping(p_id uuid) to authenticated;

/**
 * One page (up to 5,000 whole rows) of a module's export, with the list's search, filters
 * and sort, after p_cursor (the previous page's next_cursor, as it came).
 */
create function public.export_records(p_module text, p_search text default null, p_filters jsonb default null,
                                      p_sort text default null, p_descending boolean default null,
                                      p_cursor jsonb default null, p_limit integer default 5000)
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_export(p_module, p_search, p_filters, p_sort, p_descending, p_cursor, p_limit); $$;
revoke all on function public.export_records(p_module text, p_search text, p_filters jsonb, p_sort text, p_descending boolean, p_cursor jsonb, p_limit integer) from public, anon, authenticated;
grant execute on function public.export_records(p_module text, p_search text, p_filters jsonb, p_sort text, p_descending boolean, p_cursor jsonb, p_limit integer) to authenticated;
