-- What the caller may do in the sales modules (the app shows only those) and the first
-- module RPC, list_customers. Module RPCs ask private.caller_scope on every request, so a
-- change in the roles screen applies from the next request on.

/** The caller's permission matrix in their session's organization: {module: {action: scope}}. */
create function public.get_my_permissions()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  caller_is_admin boolean;
  permissions jsonb;
begin
  if auth.uid() is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;

  caller_is_admin := private.is_admin_of(auth.uid(), target_org);
  if caller_is_admin then
    -- Admins may do everything, whatever their role's stored matrix says (as caller_scope).
    select jsonb_object_agg(modules.module, full_access.actions) into permissions
      from unnest(array['customers', 'contacts', 'deals', 'quotes', 'contracts', 'documents', 'tasks']) as modules (module),
           (select jsonb_object_agg(actions.action, 'all') as actions
              from unnest(array['view', 'create', 'edit', 'delete', 'export', 'import']) as actions (action)) full_access;
  else
    select private.role_permissions_json(target_org, m.role) into permissions
      from private.memberships m
     where m.user_id = auth.uid() and m.organization_id = target_org and m.is_active;
  end if;

  return jsonb_build_object('success', true, 'organization_id', target_org, 'is_admin', caller_is_admin,
                            'permissions', coalesce(permissions, '{}'));
end;
$$;

/**
 * The customers of the caller's organization the role may see (all, or only the caller's
 * own), not deleted, searched by name (Turkish-aware, wildcards literal), sorted by name
 * or date, one page at a time, with the total.
 */
create function public.list_customers(
  p_search text default null, p_sort text default 'name', p_descending boolean default false,
  p_limit integer default 25, p_offset integer default 0)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  scope text := private.caller_scope('customers', 'view');
  target_schema text;
  sort_key text := coalesce(p_sort, 'name');
  pattern text := '%' || replace(replace(replace(private.fold_search(btrim(coalesce(p_search, ''))), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
  -- Names sort folded (Ç beside C, İ beside I): PGlite has no ICU collations to ask.
  sort_expression text := case sort_key when 'name' then 'private.fold_search(c.name)' else 'c.' || quote_ident(sort_key) end;
  page jsonb;
begin
  if auth.uid() is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  if scope is null then
    return private.failure('Permission denied', 'permission_denied');
  end if;
  if sort_key not in ('name', 'created_at', 'updated_at') or coalesce(p_offset, 0) < 0 then
    return private.failure('Invalid list request', 'invalid_input');
  end if;
  target_schema := private.tenant_schema(target_org);
  if target_schema is null then
    return private.failure('Required tables not found', 'tables_not_found');
  end if;

  -- The sort expression is one of the three above; the direction one of two literals.
  execute format($query$
    select jsonb_build_object(
             'total', coalesce(max(listed.total), 0),
             'customers', coalesce(jsonb_agg(jsonb_build_object(
               'id', listed.id, 'name', listed.name, 'owner_id', listed.owner_id,
               'owner_name', listed.owner_name, 'created_at', listed.created_at,
               'updated_at', listed.updated_at) order by listed.position), '[]'))
      from (select c.id, c.name, c.owner_id, c.created_at, c.updated_at,
                   nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') as owner_name,
                   count(*) over () as total,
                   row_number() over (order by %1$s %2$s, c.id) as position
              from %3$I.customers c
              left join private.profiles p on p.id = c.owner_id
             where c.deleted_at is null
               and ($1 = 'all' or c.owner_id = auth.uid())
               and private.fold_search(c.name) like $2
             order by %1$s %2$s, c.id
             limit $3 offset $4) listed$query$,
    sort_expression, case when coalesce(p_descending, false) then 'desc' else 'asc' end, target_schema)
    into page
    using scope, pattern, page_size, coalesce(p_offset, 0);

  return jsonb_build_object('success', true, 'scope', scope) || page;
end;
$$;

revoke execute on function public.get_my_permissions() from public, anon, authenticated;
revoke execute on function public.list_customers(text, text, boolean, integer, integer) from public, anon, authenticated;
grant execute on function public.get_my_permissions() to authenticated;
grant execute on function public.list_customers(text, text, boolean, integer, integer) to authenticated;
