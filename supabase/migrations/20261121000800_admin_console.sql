-- What the admin console reads and the organization manager changes (spec sections 2, 6):
-- the organization's users with search, filters, sort and pages; the audit trail; and, for
-- super admins, the organizations with their member counts, plan, status and activity.

/**
 * The checks an organization-admin RPC starts with: a caller, an organization to act in,
 * and admin status there. Null when all hold; otherwise the failure to answer.
 */
create function private.check_organization_admin(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when auth.uid() is null then private.failure('Authentication required', 'authentication_required')
    when p_organization_id is null then private.failure('Organization context required', 'organization_context_required')
    when not private.is_admin_of(auth.uid(), p_organization_id) then private.failure('Admin privileges required', 'admin_required')
  end;
$$;

/**
 * Turkish-aware search folding (DESIGN.md D7): İ/I/ı/i, Ş/ş, Ğ/ğ, Ü/ü, Ö/ö and Ç/ç fold to
 * their plain Latin letters and everything is lowercased, so "isik", "Işık" and "IŞIK"
 * compare equal whatever the database collation.
 */
create function private.fold_search(p_text text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select lower(translate(p_text, 'İIıŞşĞğÜüÖöÇç', 'iiiSsGgUuOoCc'));
$$;

/**
 * The members of the caller's organization (an admin's session organization; a super admin
 * may name one by slug), searched by name or email, filtered by organization role and by
 * status (active, inactive, locked), sorted, one page at a time.
 */
create function public.get_organization_users(
  p_search text default null, p_role text default null, p_status text default null,
  p_sort text default 'name', p_descending boolean default false,
  p_limit integer default 25, p_offset integer default 0, p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.admin_organization(p_organization_slug);
  problem jsonb;
  sort_key text := coalesce(p_sort, 'name');
  descending boolean := coalesce(p_descending, false);
  status_filter text := coalesce(p_status, 'all');
  -- LIKE's wildcards in the search are meant literally.
  pattern text := '%' || replace(replace(replace(private.fold_search(btrim(coalesce(p_search, ''))), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  if status_filter not in ('all', 'active', 'inactive', 'locked')
     or sort_key not in ('name', 'email', 'role', 'last_login_at', 'created_at') then
    return private.failure('Failed to fetch users', 'invalid_input');
  end if;

  return (
    with matching as (
      select p.*, m.role as organization_role, m.is_active as membership_active,
             coalesce(p.locked_until > now(), false) as locked
        from private.memberships m
        join private.profiles p on p.id = m.user_id
       where m.organization_id = target_org
         and (p_role is null or m.role = p_role)
         and (private.fold_search(p.email) like pattern
              or private.fold_search(p.first_name || ' ' || p.last_name) like pattern)
         and case status_filter
               when 'active' then m.is_active and p.is_active and not coalesce(p.locked_until > now(), false)
               when 'inactive' then not (m.is_active and p.is_active)
               when 'locked' then coalesce(p.locked_until > now(), false)
               else true end
    ),
    page as (
      select matching.*,
             row_number() over (order by
               case when not descending then case sort_key when 'email' then matching.email when 'role' then matching.organization_role
                 when 'name' then private.fold_search(matching.first_name || ' ' || matching.last_name) end end asc,
               case when descending then case sort_key when 'email' then matching.email when 'role' then matching.organization_role
                 when 'name' then private.fold_search(matching.first_name || ' ' || matching.last_name) end end desc,
               case when not descending then case sort_key when 'last_login_at' then matching.last_login_at
                 when 'created_at' then matching.created_at end end asc nulls last,
               case when descending then case sort_key when 'last_login_at' then matching.last_login_at
                 when 'created_at' then matching.created_at end end desc nulls last,
               matching.email) as position
        from matching
    )
    select jsonb_build_object(
      'success', true,
      'total', (select count(*) from matching),
      'users', coalesce((
        select jsonb_agg(private.user_json(page.id) || jsonb_build_object(
                 'organization_role', page.organization_role,
                 'membership_active', page.membership_active,
                 'locked', page.locked) order by page.position)
          from page
         where page.position > greatest(coalesce(p_offset, 0), 0)
           and page.position <= greatest(coalesce(p_offset, 0), 0) + page_size), '[]')));
end;
$$;

/** The organization's audit trail, newest first (admins of it; a super admin names one by slug). */
create function public.get_audit_log(p_limit integer default 50, p_before_id bigint default null,
                                     p_organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.admin_organization(p_organization_slug);
  problem jsonb;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  return jsonb_build_object('success', true, 'entries', (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', a.id, 'action', a.action, 'target_type', a.target_type, 'target_id', a.target_id,
             'details', a.details, 'created_at', a.created_at,
             'actor', jsonb_build_object('id', a.actor_id, 'email', p.email,
                                         'first_name', p.first_name, 'last_name', p.last_name))
             order by a.id desc), '[]')
      from (select * from private.audit_log l
             where l.organization_id = target_org and (p_before_id is null or l.id < p_before_id)
             order by l.id desc
             limit least(greatest(coalesce(p_limit, 50), 1), 200)) a
      left join private.profiles p on p.id = a.actor_id));
end;
$$;

/** An organization as the organization manager shows it. */
create function private.organization_json(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', o.id, 'slug', o.slug, 'name', o.name, 'subscription_plan', o.subscription_plan,
    'subscription_status', o.subscription_status, 'is_active', o.is_active,
    'table_prefix_timestamp', o.table_prefix_timestamp, 'template_version', o.template_version,
    'latest_template_version', private.latest_template_version(),
    'last_migration_error', o.last_migration_error, 'created_at', o.created_at,
    'member_count', (select count(*) from private.memberships m where m.organization_id = o.id),
    'active_member_count', (select count(*) from private.memberships m
                             where m.organization_id = o.id and m.is_active))
    from private.organizations o
   where o.id = p_organization_id;
$$;

/** Super admin: every organization with its member counts and table status. */
create function public.list_organizations()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_super_admin(auth.uid()) then
    return private.failure('Admin privileges required', 'super_admin_required');
  end if;
  return jsonb_build_object('success', true, 'organizations', (
    select coalesce(jsonb_agg(private.organization_json(o.id) order by o.name, o.slug), '[]')
      from private.organizations o));
end;
$$;

/**
 * Super admin: changes an organization's name, plan, subscription status or activity. A
 * deactivated organization's members stop working in it at once (their bindings go).
 */
create function public.update_organization(p_organization_id uuid, p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  unknown_field text;
  clean_name text := btrim(p_changes ->> 'name');
begin
  if not private.is_super_admin(auth.uid()) then
    return private.failure('Admin privileges required', 'super_admin_required');
  end if;
  if not exists (select 1 from private.organizations o where o.id = p_organization_id) then
    return private.failure('Organization not found', 'organization_not_found');
  end if;
  if jsonb_typeof(p_changes) is distinct from 'object' then
    return private.failure('Invalid organization change', 'invalid_input');
  end if;
  select key into unknown_field from jsonb_object_keys(p_changes) as keys (key)
   where key not in ('name', 'subscription_plan', 'subscription_status', 'is_active') limit 1;
  if unknown_field is not null
     or (p_changes ? 'name' and (jsonb_typeof(p_changes -> 'name') <> 'string'
                                 or char_length(clean_name) not between 1 and 200))
     or (p_changes ? 'subscription_plan' and (jsonb_typeof(p_changes -> 'subscription_plan') <> 'string'
                                              or (p_changes ->> 'subscription_plan') !~ '^[a-z][a-z0-9_]{0,29}$'))
     or (p_changes ? 'subscription_status' and coalesce(p_changes #>> '{subscription_status}', '') not in ('active', 'trial', 'past_due', 'suspended', 'cancelled'))
     or (p_changes ? 'is_active' and jsonb_typeof(p_changes -> 'is_active') <> 'boolean') then
    return private.failure('Invalid organization change', 'invalid_input');
  end if;

  update private.organizations
     set name = coalesce(clean_name, name),
         subscription_plan = coalesce(p_changes ->> 'subscription_plan', subscription_plan),
         subscription_status = coalesce(p_changes ->> 'subscription_status', subscription_status),
         is_active = coalesce((p_changes ->> 'is_active')::boolean, is_active),
         updated_at = now()
   where id = p_organization_id;
  if (p_changes ->> 'is_active')::boolean is false then
    delete from private.session_organizations s where s.organization_id = p_organization_id;
  end if;
  perform private.write_audit(p_organization_id, 'organization.updated', 'organization', p_organization_id::text, p_changes);
  return jsonb_build_object('success', true, 'organization', private.organization_json(p_organization_id));
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.get_organization_users(text, text, text, text, boolean, integer, integer, text) from public, anon, authenticated;
revoke execute on function public.get_audit_log(integer, bigint, text) from public, anon, authenticated;
revoke execute on function public.list_organizations() from public, anon, authenticated;
revoke execute on function public.update_organization(uuid, jsonb) from public, anon, authenticated;
grant execute on function public.get_organization_users(text, text, text, text, boolean, integer, integer, text) to authenticated;
grant execute on function public.get_audit_log(integer, bigint, text) to authenticated;
grant execute on function public.list_organizations() to authenticated;
grant execute on function public.update_organization(uuid, jsonb) to authenticated;
