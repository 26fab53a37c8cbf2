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
 * column, at most p_limit. Each {id, title, subtitle}: the title from the registry's title
 * columns, the subtitle the title of the record the first registered link points to (a
 * contact's, deal's or quote's customer) when p_link_scopes lets the caller see it.
 * The plan follows the planner's estimate of the matches:
 * - at most 200: every match through the trigram index, sorted (at most 300 of them, should
 *   the estimate be low: then the best of the first 300 found);
 * - more (a broad search, e.g. two letters over a million customers): the titles starting
 *   with the text through the title's sort index, range by range
 *   (private.search_prefix_ranges); only when they are fewer than p_limit the others, walking
 *   the sort index over at most 5,000 records, then, for 3 characters or more, the best of
 *   300 found through the trigram index. No search sorts more than a few hundred rows.
 */
create function private.search_module(p_module text, p_schema text, p_scope text, p_caller uuid, p_folded text,
                                      p_limit integer, p_link_scopes jsonb)
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
  title text;
  first_title text;
  sort_key text;
  link record;
  subtitle text := 'null::text';
  subtitle_join text := '';
  link_scope text;
  conditions text;
  candidates jsonb;
  more jsonb;
  found jsonb;
  -- Searches expected to match more rows than this are broad.
  broad_estimate constant integer := 200;
  -- The most matches a narrow search sorts (the planner's estimate may be low).
  narrow_cap constant integer := 300;
  -- The most records a broad search walks in title order for matches that do not start with the text.
  walk_cap constant integer := 5000;
begin
  select * into module from private.modules m where m.key = p_module;
  relation := format('%I.%I', p_schema, module.table_name);
  pattern := '%' || escaped || '%';
  prefix := escaped || '%';
  -- The title over a row r; the prefix test and the order over the first title column of a row t.
  title := format('left(nullif(btrim(concat_ws(%L, %s)), %L), 300)', ' ',
                  (select string_agg(format('r.%I::text', c), ', ' order by n)
                     from unnest(module.title_columns) with ordinality u (c, n)), '');
  first_title := format('private.fold_search(t.%I)', module.title_columns[1]);
  sort_key := format('private.turkish_sort_key(t.%I) collate "C"', module.title_columns[1]);
  conditions := 't.deleted_at is null and ($1 = ''all'' or t.owner_id = $2) and t.search_text like $3';

  -- The subtitle: the record the first link (in module order) points to, if the caller may see it.
  -- (The foreign keys of this one table, read by its oid: private.module_links' catalogue
  -- joins by name take 16 ms a call, too long for a search that asks for seven modules.)
  for link in select a.attname::text as column_name, target.table_name, target.key, target.title_columns
                from pg_catalog.pg_constraint c
                join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
                join private.modules target on to_regclass(format('%I.%I', p_schema, target.table_name)) = c.confrelid
               where c.conrelid = relation::regclass and c.contype = 'f' and cardinality(c.conkey) = 1
                 and a.attname = any (module.writable_columns)
               order by target.position, a.attname loop
    link_scope := p_link_scopes ->> link.key;
    if link_scope is not null then
      subtitle := format('left(nullif(btrim(concat_ws(%L, %s)), %L), 300)', ' ',
                         (select string_agg(format('s.%I::text', c), ', ' order by n)
                            from unnest(link.title_columns) with ordinality u (c, n)), '');
      subtitle_join := format('left join %I.%I s on s.id = r.%I and s.deleted_at is null and (%L = ''all'' or s.owner_id = $2)',
                              p_schema, link.table_name, link.column_name, link_scope);
    end if;
    exit;
  end loop;

  -- Candidates: [{id, relevance (0: the title starts with the text), sort_key}].
  if private.estimated_list_rows(format('select 1 from %s t where %s', relation, replace(conditions, '$3', '$4')),
                                 p_scope, p_caller, null, pattern) <= broad_estimate then
    execute format($query$
      select coalesce(jsonb_agg(c), '[]') from (
        select t.id, case when %3$s like $4 then 0 else 1 end as relevance, %4$s as sort_key
          from (select * from %1$s t where %2$s limit %5$s offset 0) t
         order by 2, 3, t.id limit $5) c$query$,
      relation, conditions, first_title, sort_key, narrow_cap)
      into candidates using p_scope, p_caller, pattern, prefix, p_limit;
  else
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
  end if;

  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'title', %1$s, 'subtitle', %2$s)
                              order by c.relevance, c.sort_key collate "C", c.id), '[]')
      from jsonb_to_recordset($1) as c (id uuid, relevance integer, sort_key text)
      join %3$s r on r.id = c.id
      %4$s$query$,
    title, subtitle, relation, replace(subtitle_join, '$2', '$3'))
    into found using candidates, null, p_caller;
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
  context private.module_context;
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

  -- The view scope of each module (the guard, module by module); the links' subtitles need them too.
  for module in select m.key from private.modules m order by m.position loop
    context := private.module_context(module.key, 'view');
    if context.problem is null then
      scopes := scopes || jsonb_build_object(module.key, context.scope);
    end if;
  end loop;

  for module in select m.key from private.modules m
                 where m.searchable and scopes ? m.key order by m.position loop
    items := private.search_module(module.key, private.tenant_schema(caller.organization_id), scopes ->> module.key,
                                   caller.user_id, folded, coalesce(p_limit, 5), scopes);
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
