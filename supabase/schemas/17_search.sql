-- One search across the sales modules (the header's search and Ctrl+K): every searchable
-- module of the registry at once, within the caller's permissions.

/**
 * The sort-key ranges (private.turkish_sort_key, compared collate "C") a title whose
 * Turkish-folded text (private.fold_search) starts with p_folded may start in: folding
 * merges c/ç, g/ğ, ı/i, o/ö, s/ş and u/ü, which the sort key keeps apart, so each of
 * those letters of the prefix opens a range of its own. Only the first letters are
 * expanded so that at most 16 ranges come back; the rest of the prefix is left to the
 * caller's recheck (the ranges are then wider, never narrower). ([lows], [highs]).
 */
create function private.search_prefix_ranges(p_folded text)
returns table (low text, high text)
language plpgsql
immutable
set search_path = ''
as $$
declare
  prefixes text[] := array[''];
  letter text;
  choices text[];
begin
  foreach letter in array regexp_split_to_array(p_folded, '') loop
    choices := case letter when 'c' then '{c,ç}' when 'g' then '{g,ğ}' when 'i' then '{ı,i}'
                           when 'o' then '{o,ö}' when 's' then '{s,ş}' when 'u' then '{u,ü}'
                           else array[letter] end;
    exit when cardinality(prefixes) * cardinality(choices) > 16;
    prefixes := array(select p || c from unnest(prefixes) p, unnest(choices) c);
  end loop;
  return query
    select k, k || chr(1114111)
      from (select distinct private.turkish_sort_key(p) as k from unnest(prefixes) p) keys
     order by k collate "C";
end;
$$;

/**
 * One module's best matches for the search (private.search_records): records of the
 * module's table in p_schema, not deleted, within p_scope ('own': the caller's), whose
 * Turkish-folded search column (trigram index) holds p_folded; those whose title starts
 * with it first (its first column: a contact's first name), then in Turkish order of that
 * column, at most p_limit. Each {id, title, subtitle}: the title as the registry names a
 * record (private.record_title_sql), the subtitle the name of the record its first link
 * (private.link_names_sql, in module order) points to: a contact's, deal's or quote's
 * customer, null when the caller may not open it (p_scopes: their view scopes).
 * The plan follows the table's size and the planner's estimate of the matches:
 * - a small table (under 8 MB, about 30,000 customers) with fewer than 300 matches, or at
 *   most 200 estimated matches: every match through the trigram index, sorted and named in
 *   the same statement (at most 300 of them, should the estimate be low: then the best of
 *   the first 300 found);
 * - more (a broad search, e.g. two letters over a million customers): the titles starting
 *   with the text through the title's sort index, range by range
 *   (private.search_prefix_ranges); only when they are fewer than p_limit the others, walking
 *   the sort index over at most 1,000 records, then, for 3 characters or more, the best of
 *   300 found through the trigram index. No search sorts more than a few hundred rows.
 */
create function private.search_module(p_module text, p_schema text, p_scope text, p_caller uuid, p_folded text,
                                      p_limit integer, p_scopes jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
-- Its plans are short index walks; JIT compiling them would cost more than running them.
set jit = off
as $$
declare
  module private.modules;
  relation text;
  escaped text := replace(replace(replace(p_folded, '\', '\\'), '%', '\%'), '_', '\_');
  pattern text;
  prefix text;
  item text;
  first_title text;
  sort_key text;
  subtitle_join text;
  conditions text;
  candidates jsonb;
  more jsonb;
  found jsonb;
  narrow text;
  -- Tables smaller than this (bytes on disk, about 30,000 customers) are searched without asking the planner.
  small_table constant bigint := 8 * 1024 * 1024;
  -- Searches expected to match more rows than this are broad.
  broad_estimate constant integer := 200;
  -- The most matches a narrow search sorts (the planner's estimate may be low).
  narrow_cap constant integer := 300;
  -- The most records a broad search walks in title order for matches that do not start with the
  -- text: enough where a match is common (1 in 200 or more), and a bounded cost when the heap
  -- pages are not cached (5,000 rows read 0.5 s cold at 1,000,000 customers; sparser matches
  -- come from the trigram index next).
  walk_cap constant integer := 1000;
begin
  select * into module from private.modules m where m.key = p_module;
  relation := format('%I.%I', p_schema, module.table_name);
  pattern := '%' || escaped || '%';
  prefix := escaped || '%';
  -- An item over a row r (the record, its first link's name joined by subtitle_join).
  select format('jsonb_build_object(''id'', r.id, ''title'', %s, ''subtitle'', %s)',
                private.record_title_sql(p_module, 'r'), coalesce(min(l.name_sql), 'null::text')),
         coalesce(min(l.join_sql), '')
    into item, subtitle_join
    from (select l.name_sql, l.join_sql from private.link_names_sql(p_module, p_schema, 'r', p_scopes) l limit 1) l;
  -- The prefix test and the order over the first title column of a row t.
  first_title := format('private.fold_search(t.%I)', module.title_columns[1]);
  sort_key := format('private.turkish_sort_key(t.%I) collate "C"', module.title_columns[1]);
  conditions := 't.deleted_at is null and ($1 = ''all'' or t.owner_id = $2) and t.search_text like $3';

  -- Few matches: every match (at most narrow_cap) sorted and named in one statement; with $6, none
  -- (null) when narrow_cap were found. A small table is searched so at once; one where that finds
  -- narrow_cap matches, or a larger one, after the planner's estimate.
  narrow := format($query$
    with matches as (
      select t.*, case when %3$s like $4 then 0 else 1 end as relevance, %4$s as sort_key
        from (select * from %1$s t where %2$s limit %5$s offset 0) t)
    select case when not $6 or (select count(*) from matches) < %5$s then (
      select coalesce(jsonb_agg(%6$s order by r.relevance, r.sort_key collate "C", r.id), '[]')
        from (select * from matches t order by relevance, sort_key, t.id limit $5) r
        %7$s) end$query$,
    relation, conditions, first_title, sort_key, narrow_cap, item, subtitle_join);
  if pg_catalog.pg_relation_size(relation::regclass) < small_table then
    execute narrow into found using p_scope, p_caller, pattern, prefix, p_limit, true;
  end if;
  if found is null and private.estimated_list_rows(format('select 1 from %s t where %s', relation, replace(conditions, '$3', '$4')),
                                                   p_scope, p_caller, null, pattern) <= broad_estimate then
    execute narrow into found using p_scope, p_caller, pattern, prefix, p_limit, false;
  end if;
  if found is not null then
    return found;
  end if;

  -- Candidates of a broad search: [{id, relevance (0: the title starts with the text), sort_key}].
  -- Each range walks the sort index alone (a filter there makes the planner sort the whole
  -- range instead); the few titles in it that fold otherwise (â, î, …) are dropped after.
  execute format($query$
    select coalesce(jsonb_agg(c), '[]') from (
      select p.id, 0 as relevance, p.sort_key from private.search_prefix_ranges($5) r
       cross join lateral (select w.id, w.sort_key
                             from (select t.id, %3$s as sort_key, %4$s as folded from %1$s t
                                    where t.deleted_at is null and ($1 = 'all' or t.owner_id = $2)
                                      and %3$s >= r.low and %3$s < r.high
                                    order by %3$s, t.id limit $6 * 4) w
                            where w.folded like $4 limit $6) p
       order by 3, 1 limit $6) c$query$,
    relation, conditions, sort_key, first_title)
    into candidates using p_scope, p_caller, pattern, prefix, p_folded, p_limit;
  if jsonb_array_length(candidates) < p_limit then
    execute format($query$
      select coalesce(jsonb_agg(c), '[]') from (
        select t.id, 1 as relevance, t.sort_key
          from (select t.id, t.search_text, %3$s as sort_key, %4$s like $4 as starts
                  from %1$s t where t.deleted_at is null and ($1 = 'all' or t.owner_id = $2)
                 order by %3$s, t.id limit %5$s) t
         where t.search_text like $3 and not coalesce(t.starts, false)
         order by 3, 1 limit $5) c$query$,
      relation, conditions, sort_key, first_title, walk_cap)
      into more using p_scope, p_caller, pattern, prefix, p_limit - jsonb_array_length(candidates);
    candidates := candidates || more;
  end if;
  if jsonb_array_length(candidates) < p_limit and char_length(p_folded) >= 3 then
    execute format($query$
      select coalesce(jsonb_agg(c), '[]') from (
        select t.id, 1 as relevance, %3$s as sort_key
          from (select * from %1$s t
                 where %2$s and not coalesce(%4$s like $4, false) and t.id <> all ($6) limit %5$s offset 0) t
         order by 3, 1 limit $5) c$query$,
      relation, conditions, sort_key, first_title, narrow_cap)
      into more using p_scope, p_caller, pattern, prefix, p_limit - jsonb_array_length(candidates),
                       array(select (e ->> 'id')::uuid from jsonb_array_elements(candidates) e);
    candidates := candidates || more;
  end if;

  execute format($query$
    select coalesce(jsonb_agg(%1$s order by c.relevance, c.sort_key collate "C", c.id), '[]')
      from jsonb_to_recordset($1) as c (id uuid, relevance integer, sort_key text)
      join %2$s r on r.id = c.id
      %3$s$query$,
    item, relation, subtitle_join)
    into found using candidates;
  return found;
end;
$$;

/**
 * The header's search (Ctrl+K): the records of every searchable module of the registry
 * (private.modules.searchable) whose Turkish-folded search text holds p_query ("isik"
 * finds "IŞIK" and "Işık"; a quote by its number or part of it), p_limit (1-20, default
 * 5) per module, those whose title starts with it first, then in Turkish order
 * (private.search_module). Each module only if the caller may view it
 * (private.module_context), its records within their scope ('own': their own); a module
 * they may not view is left out without a word. p_query is trimmed and must be 2-200
 * characters. {success, groups: [{module, items: [{id, title, subtitle}]}]} in module
 * order, modules without matches left out; or the guard's refusal (anonymous, a session
 * bound to no organization) or invalid_input. Reads only.
 */
create function private.search_records(p_query text, p_limit integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  query text := btrim(coalesce(p_query, ''));
  folded text;
  schema text;
  module record;
  scopes jsonb := '{}';
  items jsonb;
  groups jsonb := '[]';
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if char_length(query) < 2 then
    return private.failure('Search text too short', 'query_too_short', jsonb_build_object('minimum', 2));
  end if;
  if char_length(query) > 200 or p_limit not between 1 and 20 then
    return private.failure('Invalid search', 'invalid_input');
  end if;
  folded := private.fold_search(query);

  -- The view scope of each module (private.scope_in over the one guard's answer); the links' subtitles need them too.
  schema := private.tenant_schema(caller.organization_id);
  select coalesce(jsonb_object_agg(s.key, s.scope), '{}') into scopes
    from (select m.key, private.scope_in(caller, m.key, 'view') as scope from private.modules m) s
   where s.scope is not null;

  for module in select m.key from private.modules m
                 where m.searchable and scopes ? m.key and schema is not null order by m.position loop
    items := private.search_module(module.key, schema, scopes ->> module.key, caller.user_id, folded,
                                   coalesce(p_limit, 5), scopes);
    if jsonb_array_length(items) > 0 then
      groups := groups || jsonb_build_array(jsonb_build_object('module', module.key, 'items', items));
    end if;
  end loop;
  return jsonb_build_object('success', true, 'groups', groups);
end;
$$;

/** The header's search across the modules the caller may view (private.search_records). */
create function public.search_records(p_query text, p_limit integer default 5)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.search_records(p_query, p_limit);
$$;
revoke all on function public.search_records(p_query text, p_limit integer) from public, anon, authenticated;
grant execute on function public.search_records(p_query text, p_limit integer) to authenticated;
