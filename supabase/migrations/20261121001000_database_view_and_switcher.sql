-- admin/database: the organization's own tables with row counts and sizes, its template
-- version and tenant-migration status. admin/super-admin-switcher: a super admin moves the
-- current session to another organization through the database, recorded in both
-- organizations' audit logs (never a client-side switch).

/** Admin: the organization's tables (row counts and sizes) and where its template stands. */
create function public.get_organization_tables(p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.admin_organization(p_organization_slug);
  problem jsonb;
  organization private.organizations;
  schema_name text;
  tables jsonb := '[]';
  table_name text;
  row_count bigint;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  select * into organization from private.organizations where id = target_org;
  schema_name := private.tenant_schema(target_org);

  if schema_name is not null then
    for table_name in
      select c.relname from pg_catalog.pg_class c
       where c.relnamespace = schema_name::regnamespace and c.relkind = 'r' order by c.relname
    loop
      execute format('select count(*) from %I.%I', schema_name, table_name) into row_count;
      tables := tables || jsonb_build_array(jsonb_build_object(
        'name', table_name, 'row_count', row_count,
        'total_bytes', pg_catalog.pg_total_relation_size(format('%I.%I', schema_name, table_name)::regclass)));
    end loop;
  end if;

  return jsonb_build_object('success', true,
    'schema_name', organization.schema_name,
    'provisioned', schema_name is not null,
    'template_version', organization.template_version,
    'latest_template_version', private.latest_template_version(),
    'last_migrated_at', organization.last_migrated_at,
    'last_migration_error', organization.last_migration_error,
    'needs_provisioning', schema_name is null or organization.template_version < private.latest_template_version(),
    'tables', tables);
end;
$$;

/**
 * Super admin: moves this Auth session to another active organization. The previous
 * binding ends and the new one is recorded in the audit logs of both organizations.
 */
create function public.super_admin_switch_organization(p_organization_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  session uuid := private.current_session_id();
  previous uuid;
  target private.organizations;
begin
  if caller is null or session is null
     or not exists (select 1 from auth.sessions s where s.id = session and s.user_id = caller) then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if not private.is_super_admin(caller) then
    return private.failure('Admin privileges required', 'super_admin_required');
  end if;
  select * into target from private.organizations where id = p_organization_id and is_active;
  if not found then
    return private.failure('Organization not found', 'organization_not_found');
  end if;

  delete from private.session_organizations where session_id = session returning organization_id into previous;
  insert into private.session_organizations (session_id, user_id, organization_id) values (session, caller, target.id);
  if previous is not null and previous <> target.id then
    perform private.write_audit(previous, 'session.super_admin_left', 'organization', target.id::text);
  end if;
  perform private.write_audit(target.id, 'session.super_admin_switched', 'organization', target.id::text,
                              jsonb_build_object('from_organization_id', previous));
  return jsonb_build_object('success', true,
    'organization', jsonb_build_object('id', target.id, 'slug', target.slug, 'name', target.name, 'role', 'admin'));
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.get_organization_tables(text) from public, anon, authenticated;
revoke execute on function public.super_admin_switch_organization(uuid) from public, anon, authenticated;
grant execute on function public.get_organization_tables(text) to authenticated;
grant execute on function public.super_admin_switch_organization(uuid) to authenticated;
