-- The record engine's list, second version (issue 11 speed, issue 12 task views):
-- * Filter values reach the query as quoted literals, so the planner estimates them.
-- * A filter value may be a range on a date, time or number column:
--   {"due_at": {"from": "...", "to": "..."}} (from inclusive, to exclusive, either may be
--   absent), besides {column: value | [values]}.
-- * A broad search stays fast at a million rows. Measured at 1,000,000 customers, "isik"
--   matches 100,000 of them: walking the name index to the first match read 500,000 rows
--   (2.1 s); sorting all matches by name took 0.9 s; even counting to 10,001 took 160 ms.
--   Now the planner's estimate of the matches decides first: up to 20,000 the matches are
--   counted (capped) and sorted as asked; beyond, nothing is counted and the page comes
--   from the newest records (a walk of the date index meets matches at once when they
--   are that dense). The answer says which order it used (sorted_by), so the screen can
--   tell the person the search is broad and show the newest first.

/**
 * The planner's estimate of the rows a list query of the record engine matches (its
 * parameters as record_list passes them). Volatile only because PostgreSQL allows EXPLAIN
 * in volatile functions alone; it reads nothing and writes nothing.
 */
create function private.estimated_list_rows(p_query text, p_scope text, p_caller uuid, p_filters jsonb, p_pattern text)
returns numeric
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  plan jsonb;
begin
  execute 'explain (format json) ' || p_query into plan using p_scope, p_caller, p_filters, p_pattern;
  return (plan #>> '{0,Plan,Plan Rows}')::numeric;
end;
$$;

/**
 * Lists a module's records the caller may see (scope own: their own), not deleted:
 * Turkish-folded search (trigram index), filters on the module's filterable columns
 * ({column: value | [values] | {"from", "to"}}, "me" for owner_id), a sortable column
 * (text sorts folded), one page. The total is exact up to 10,000 matches and "at least
 * 10,000" beyond, so no page waits on a count of a million rows. A search the planner
 * expects to match more than 20,000 rows is not counted and, when a text column was asked
 * for, comes newest first; sorted_by names the order used.
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
  conditions text := 't.deleted_at is null and ($1 = ''all'' or t.owner_id = $2)';
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
  context := private.module_context(p_module, 'view');
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
    if not (filter_key = any (module.filterable_columns) or filter_key = 'owner_id') then
      return private.failure('Invalid list request', 'invalid_input');
    end if;
    select pg_catalog.format_type(a.atttypid, a.atttypmod) into filter_type
      from pg_catalog.pg_attribute a where a.attrelid = relation and a.attname = filter_key;
    filter_value := filters -> filter_key;
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
                                order by r.position), '[]')
        from (select t.*, nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') as owner_name,
                     row_number() over (order by %2$s %3$s, t.id %3$s) as position
                from %4$s t
                left join private.profiles p on p.id = t.owner_id
               where %5$s
               order by %2$s %3$s, t.id %3$s
               limit $5 offset $6) r$query$,
      projection, sort_expression, direction, source, conditions)
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

revoke execute on function private.estimated_list_rows(text, text, uuid, jsonb, text) from public, anon, authenticated;
