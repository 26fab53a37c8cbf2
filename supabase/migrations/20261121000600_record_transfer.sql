-- Moving a user's records to another user inside one organization (spec sections 3, 7):
-- analyse what they own, list who can receive, transfer the chosen kinds atomically.

/**
 * The checks every transfer RPC starts with: an admin acting in the named organization
 * (their session's; any for a super admin) whose tables exist. Returns the organization's
 * schema in 'schema_name', or the failure to answer.
 */
create function private.check_transfer_access(p_organization_slug text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  target_org uuid := private.admin_organization(p_organization_slug);
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  if not (private.is_super_admin(caller) or private.is_admin_of(caller, target_org)) then
    return private.failure('Admin privileges required', 'admin_required');
  end if;
  if private.tenant_schema(target_org) is null then
    return private.failure('Required tables not found', 'tables_not_found');
  end if;
  return jsonb_build_object('success', true, 'organization_id', target_org,
                            'schema_name', private.tenant_schema(target_org));
end;
$$;

/** What a member owns of each transfer kind, plus the detail per table. */
create function public.analyze_user_records(target_user_id uuid, organization_slug text default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  access jsonb := private.check_transfer_access(organization_slug);
  per_table jsonb;
begin
  if not (access ->> 'success')::boolean then
    return access;
  end if;
  if not exists (select 1 from private.memberships m
                  where m.user_id = target_user_id and m.organization_id = (access ->> 'organization_id')::uuid) then
    return private.failure('User not found', 'user_not_found');
  end if;
  begin
    per_table := private.owned_record_counts(access ->> 'schema_name', target_user_id);
  exception when others then
    return private.failure('Analysis error', 'analysis_failed');
  end;
  return jsonb_build_object('success', true, 'user_id', target_user_id,
    'counts', (select jsonb_object_agg(k.kind, coalesce((per_table ->> k.table_name)::bigint, 0))
                 from private.transfer_kinds() k where k.is_primary),
    'tables', per_table,
    'total', (select coalesce(sum(value::bigint), 0) from jsonb_each_text(per_table)));
end;
$$;

/** Active members who can receive records, without the one giving them. */
create function public.get_users_for_transfer(organization_slug text default null, exclude_user_id uuid default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  access jsonb := private.check_transfer_access(organization_slug);
begin
  if not (access ->> 'success')::boolean and access ->> 'code' <> 'tables_not_found' then
    return access;
  end if;
  return jsonb_build_object('success', true, 'users', (
    select coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'email', p.email, 'first_name', p.first_name,
                                                 'last_name', p.last_name, 'role', m.role)
                              order by p.first_name, p.last_name, p.email), '[]')
      from private.memberships m
      join private.profiles p on p.id = m.user_id
     where m.organization_id = private.admin_organization(organization_slug)
       and m.is_active and private.is_account_usable(p.id)
       and p.id is distinct from exclude_user_id));
end;
$$;

/**
 * Moves the chosen kinds of records from one member to another, all or nothing.
 * Defaults (spec section 9): deals, customers and tasks on; contracts, quotes and
 * templates off.
 */
create function public.transfer_user_records(
  from_user_id uuid, to_user_id uuid, organization_slug text default null,
  transfer_deals boolean default true, transfer_customers boolean default true,
  transfer_tasks boolean default true, transfer_contracts boolean default false,
  transfer_quotes boolean default false, transfer_templates boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  access jsonb := private.check_transfer_access(organization_slug);
  target_org uuid;
  schema_name text;
  chosen text[];
  kind_table record;
  moved bigint;
  transferred jsonb := '{}';
begin
  if not (access ->> 'success')::boolean then
    return access;
  end if;
  target_org := (access ->> 'organization_id')::uuid;
  schema_name := access ->> 'schema_name';
  if from_user_id is null or to_user_id is null or from_user_id = to_user_id then
    return private.failure('Transfer error: choose two different users', 'invalid_users');
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = from_user_id and m.organization_id = target_org)
     or not exists (select 1 from private.memberships m
                     where m.user_id = to_user_id and m.organization_id = target_org and m.is_active)
     or not private.is_account_usable(to_user_id) then
    return private.failure('User not found', 'user_not_found');
  end if;

  chosen := array_remove(array[
    case when coalesce(transfer_deals, true) then 'deals' end,
    case when coalesce(transfer_customers, true) then 'customers' end,
    case when coalesce(transfer_tasks, true) then 'tasks' end,
    case when coalesce(transfer_contracts, false) then 'contracts' end,
    case when coalesce(transfer_quotes, false) then 'quotes' end,
    case when coalesce(transfer_templates, false) then 'templates' end], null);

  begin
    for kind_table in select * from private.transfer_kinds() k where k.kind = any (chosen) loop
      execute format('update %I.%I set owner_id = $1 where owner_id = $2', schema_name, kind_table.table_name)
        using to_user_id, from_user_id;
      get diagnostics moved = row_count;
      if kind_table.is_primary then
        transferred := transferred || jsonb_build_object(kind_table.kind, moved);
      end if;
    end loop;
  exception when others then
    -- The block's changes are rolled back: nothing moved.
    return private.failure('Transfer error', 'transfer_failed');
  end;

  perform private.write_audit(target_org, 'user.records_transferred', 'user', from_user_id::text,
                              jsonb_build_object('to_user_id', to_user_id, 'transferred', transferred));
  return jsonb_build_object('success', true, 'message', 'Kayıtlar aktarıldı', 'kinds', to_jsonb(chosen),
                            'transferred', transferred);
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.analyze_user_records(uuid, text) from public, anon, authenticated;
revoke execute on function public.get_users_for_transfer(text, uuid) from public, anon, authenticated;
revoke execute on function public.transfer_user_records(uuid, uuid, text, boolean, boolean, boolean, boolean, boolean, boolean)
  from public, anon, authenticated;
grant execute on function public.analyze_user_records(uuid, text) to authenticated;
grant execute on function public.get_users_for_transfer(text, uuid) to authenticated;
grant execute on function public.transfer_user_records(uuid, uuid, text, boolean, boolean, boolean, boolean, boolean, boolean)
  to authenticated;
