-- The colleagues a record may be given to. Owner pickers (bulk owner change, the owner
-- field, task assignees, the owner filter) need the active members of the session's
-- organization for every member, not only for admins (get_users_for_transfer is the
-- admins' transfer list and answers others "Admin privileges required").

/**
 * The active, usable members of the caller's bound organization: id, names, email and
 * membership role, by name. Any active member may read it; another organization's
 * members are never listed.
 */
create function public.list_organization_members()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  organization uuid := private.current_organization_id();
begin
  if auth.uid() is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if organization is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  return jsonb_build_object('success', true, 'members', (
    select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'email', p.email, 'first_name', p.first_name,
                                                 'last_name', p.last_name, 'role', m.role)
                              order by p.first_name, p.last_name, p.email), '[]')
      from private.memberships m
      join private.profiles p on p.id = m.user_id
     where m.organization_id = organization and m.is_active and private.is_account_usable(p.id)));
end;
$$;

revoke execute on function public.list_organization_members() from public, anon, authenticated;
grant execute on function public.list_organization_members() to authenticated;
