-- The organization's roles with their permission matrix (module × action → own or all
-- records) and its settings (general and operations), read by members and changed by its
-- admins. The sales modules ask private.caller_scope() on every request, so a change
-- applies from the next request on.

/**
 * What the caller may do in a module of their session's organization: 'all' records,
 * 'own' records, or null (not allowed). Admins and super admins may do everything.
 */
create function private.caller_scope(p_module text, p_action text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  -- The session's organization is looked up once: this runs on every module request.
  select case
    when bound.organization_id is null then null
    when private.is_admin_of(auth.uid(), bound.organization_id) then 'all'
    else (select rp.scope
            from private.memberships m
            join private.role_permissions rp on rp.organization_id = m.organization_id and rp.role_key = m.role
           where m.user_id = auth.uid() and m.organization_id = bound.organization_id
             and m.is_active and rp.module = p_module and rp.action = p_action)
  end
    from (select private.current_organization_id() as organization_id) as bound;
$$;

/** The permission matrix of one role as {module: {action: scope}}. */
create function private.role_permissions_json(p_organization_id uuid, p_role text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(per_module.module, per_module.actions), '{}')
    from (select rp.module, jsonb_object_agg(rp.action, rp.scope) as actions
            from private.role_permissions rp
           where rp.organization_id = p_organization_id and rp.role_key = p_role
           group by rp.module) per_module;
$$;

/** The roles of the caller's organization with their matrices and member counts (members may read). */
create function public.get_roles()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
begin
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  return jsonb_build_object('success', true,
    'modules', to_jsonb(array['customers', 'contacts', 'deals', 'quotes', 'contracts', 'documents', 'tasks']),
    'actions', to_jsonb(array['view', 'create', 'edit', 'delete', 'export', 'import']),
    'roles', (select coalesce(jsonb_agg(jsonb_build_object(
                'key', r.key, 'name', r.name, 'is_system', r.is_system,
                'member_count', (select count(*) from private.memberships m
                                  where m.organization_id = target_org and m.role = r.key),
                'permissions', private.role_permissions_json(target_org, r.key))
                order by r.is_system desc, r.key), '[]')
                from private.organization_roles r where r.organization_id = target_org));
end;
$$;

/**
 * Admin: creates or changes a role and replaces its permission matrix. The admin role is
 * fixed (it may do everything). p_permissions: {module: {action: 'own' | 'all'}}; an action
 * left out is not allowed.
 */
create function public.save_role(p_key text, p_name text, p_permissions jsonb)
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
   where modules.key not in ('customers', 'contacts', 'deals', 'quotes', 'contracts', 'documents', 'tasks')
      or actions.key is null
      or actions.key not in ('view', 'create', 'edit', 'delete', 'export', 'import')
      or actions.value not in ('"own"', '"all"')
   limit 1;
  if bad_entry is not null then
    return private.failure(format('Invalid permission %s', left(bad_entry, 80)), 'invalid_permissions');
  end if;

  insert into private.organization_roles (organization_id, key, name)
  values (target_org, p_key, clean_name)
  on conflict (organization_id, key) do update set name = excluded.name, updated_at = now();
  delete from private.role_permissions where organization_id = target_org and role_key = p_key;
  insert into private.role_permissions (organization_id, role_key, module, action, scope)
  select target_org, p_key, modules.key, actions.key, actions.value #>> '{}'
    from jsonb_each(p_permissions) modules, jsonb_each(modules.value) actions;

  perform private.write_audit(target_org, 'role.saved', 'role', p_key,
                              jsonb_build_object('name', clean_name, 'permissions', p_permissions));
  return jsonb_build_object('success', true, 'role', jsonb_build_object(
    'key', p_key, 'name', clean_name, 'is_system', false,
    'permissions', private.role_permissions_json(target_org, p_key)));
end;
$$;

/** Admin: removes a role nobody holds; admin and user (the default) stay. */
create function public.delete_role(p_key text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  holders bigint;
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
  delete from private.organization_roles r where r.organization_id = target_org and r.key = p_key;
  perform private.write_audit(target_org, 'role.deleted', 'role', p_key);
  return jsonb_build_object('success', true);
end;
$$;

/** The settings of one organization, with its name (general and operations). */
create function private.settings_json(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(s) - 'organization_id' - 'updated_by' || jsonb_build_object('name', o.name)
    from private.organization_settings s
    join private.organizations o on o.id = s.organization_id
   where s.organization_id = p_organization_id;
$$;

/** The caller's organization settings (every member reads them: currency, KDV, stages...). */
create function public.get_organization_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
begin
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;

/** Are these deal stages a usable pipeline: unique keys, probabilities 0-100, a won and a lost stage? */
create function private.is_valid_pipeline(p_stages jsonb)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select jsonb_typeof(p_stages) = 'array'
     and jsonb_array_length(p_stages) between 2 and 30
     and not exists (
       select 1 from jsonb_array_elements(p_stages) stage
        where jsonb_typeof(stage) <> 'object'
           or coalesce(stage ->> 'key', '') !~ '^[a-z][a-z0-9_]{0,39}$'
           or char_length(btrim(coalesce(stage ->> 'name', ''))) not between 1 and 60
           or coalesce(jsonb_typeof(stage -> 'probability'), '') <> 'number'
           or (stage ->> 'probability')::numeric not between 0 and 100
           or coalesce(stage ->> 'outcome', '') not in ('open', 'won', 'lost'))
     and (select count(distinct stage ->> 'key') = count(*) from jsonb_array_elements(p_stages) stage)
     and exists (select 1 from jsonb_array_elements(p_stages) stage where stage ->> 'outcome' = 'won')
     and exists (select 1 from jsonb_array_elements(p_stages) stage where stage ->> 'outcome' = 'lost');
$$;

/**
 * Admin: changes the organization's settings. Fields: name, logo_path, default_currency,
 * default_vat_rate, locale, time_zone, deal_stages, task_types, quote_number_pattern,
 * quote_validity_days. Any invalid field refuses the whole change.
 */
create function public.update_organization_settings(p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  invalid_field text;
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
     when 'logo_path' then value = 'null' or (jsonb_typeof(value) = 'string' and char_length(value #>> '{}') <= 500)
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
     else false end
   limit 1;
  if invalid_field is not null then
    return private.failure(format('Invalid setting: %s', left(invalid_field, 40)), 'invalid_setting',
                           jsonb_build_object('field', left(invalid_field, 40)));
  end if;

  if p_changes ? 'name' then
    update private.organizations set name = btrim(p_changes ->> 'name'), updated_at = now() where id = target_org;
  end if;
  update private.organization_settings
     set logo_path = case when p_changes ? 'logo_path' then p_changes ->> 'logo_path' else logo_path end,
         default_currency = coalesce(p_changes ->> 'default_currency', default_currency),
         default_vat_rate = coalesce((p_changes ->> 'default_vat_rate')::numeric, default_vat_rate),
         locale = coalesce(p_changes ->> 'locale', locale),
         time_zone = coalesce(p_changes ->> 'time_zone', time_zone),
         deal_stages = coalesce(p_changes -> 'deal_stages', deal_stages),
         task_types = coalesce(p_changes -> 'task_types', task_types),
         quote_number_pattern = coalesce(p_changes ->> 'quote_number_pattern', quote_number_pattern),
         quote_validity_days = coalesce((p_changes ->> 'quote_validity_days')::integer, quote_validity_days),
         updated_at = now(),
         updated_by = auth.uid()
   where organization_id = target_org;
  perform private.write_audit(target_org, 'settings.updated', 'organization', target_org::text,
                              jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p_changes) k)));
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.get_roles() from public, anon, authenticated;
revoke execute on function public.save_role(text, text, jsonb) from public, anon, authenticated;
revoke execute on function public.delete_role(text) from public, anon, authenticated;
revoke execute on function public.get_organization_settings() from public, anon, authenticated;
revoke execute on function public.update_organization_settings(jsonb) from public, anon, authenticated;
grant execute on function public.get_roles() to authenticated;
grant execute on function public.save_role(text, text, jsonb) to authenticated;
grant execute on function public.delete_role(text) to authenticated;
grant execute on function public.get_organization_settings() to authenticated;
grant execute on function public.update_organization_settings(jsonb) to authenticated;
