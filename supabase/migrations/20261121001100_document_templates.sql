-- Quote and contract templates (admin/document-templates): the first RPCs over an
-- organization's own tables. The organization comes from the session binding, the table
-- name from the registry (private.tenant_schema), every value travels as a parameter.

/** The caller's organization schema for an admin RPC, or the failure to answer. */
create function private.admin_tenant_schema(out schema_name text, out problem jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  problem := private.check_organization_admin(private.current_organization_id());
  if problem is null then
    schema_name := private.tenant_schema(private.current_organization_id());
    if schema_name is null then
      problem := private.failure('Required tables not found', 'tables_not_found');
    end if;
  end if;
end;
$$;

/** The organization's quote and contract templates (not deleted), defaults first. */
create function public.list_document_templates()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  templates jsonb;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  execute format($query$
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', t.id, 'kind', t.kind, 'name', t.name, 'body', t.body, 'is_default', t.is_default,
             'owner_id', t.owner_id, 'created_at', t.created_at, 'updated_at', t.updated_at)
             order by t.kind, t.is_default desc, t.name), '[]')
      from %I.document_templates t where t.deleted_at is null$query$, target.schema_name)
    into templates;
  return jsonb_build_object('success', true, 'templates', templates);
end;
$$;

/**
 * Creates (p_id null) or changes a template. Kind quote or contract; a name; a body of at
 * most 200,000 characters (kept as text: the app renders it escaped). Making one the
 * default of its kind takes the flag from the previous default in the same transaction.
 */
create function public.save_document_template(p_id uuid, p_kind text, p_name text, p_body text, p_is_default boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  clean_name text := btrim(p_name);
  saved_id uuid;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  if coalesce(p_kind, '') not in ('quote', 'contract') then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  if clean_name is null or char_length(clean_name) not between 1 and 200 then
    return private.failure('Template name is required (at most 200 characters)', 'invalid_name');
  end if;
  if char_length(coalesce(p_body, '')) > 200000 then
    return private.failure('Template body is too long', 'body_too_long');
  end if;

  if coalesce(p_is_default, false) then
    execute format('update %I.document_templates set is_default = false
                     where kind = $1 and is_default and deleted_at is null and id is distinct from $2', target.schema_name)
      using p_kind, p_id;
  end if;
  if p_id is null then
    execute format('insert into %I.document_templates (kind, name, body, is_default, owner_id, created_by)
                    values ($1, $2, $3, $4, $5, $5) returning id', target.schema_name)
      into saved_id using p_kind, clean_name, coalesce(p_body, ''), coalesce(p_is_default, false), auth.uid();
  else
    execute format('update %I.document_templates set kind = $2, name = $3, body = $4, is_default = $5
                     where id = $1 and deleted_at is null returning id', target.schema_name)
      into saved_id using p_id, p_kind, clean_name, coalesce(p_body, ''), coalesce(p_is_default, false);
    if saved_id is null then
      return private.failure('Template not found', 'template_not_found');
    end if;
  end if;

  perform private.write_audit(private.current_organization_id(), 'template.saved', 'document_template', saved_id::text,
                              jsonb_build_object('kind', p_kind, 'name', clean_name, 'is_default', coalesce(p_is_default, false)));
  return jsonb_build_object('success', true, 'id', saved_id);
end;
$$;

/** Moves a template to the trash (soft delete). */
create function public.delete_document_template(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target record := private.admin_tenant_schema();
  deleted_id uuid;
begin
  if target.problem is not null then
    return target.problem;
  end if;
  execute format('update %I.document_templates set deleted_at = now(), is_default = false
                   where id = $1 and deleted_at is null returning id', target.schema_name)
    into deleted_id using p_id;
  if deleted_id is null then
    return private.failure('Template not found', 'template_not_found');
  end if;
  perform private.write_audit(private.current_organization_id(), 'template.deleted', 'document_template', p_id::text);
  return jsonb_build_object('success', true);
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.list_document_templates() from public, anon, authenticated;
revoke execute on function public.save_document_template(uuid, text, text, text, boolean) from public, anon, authenticated;
revoke execute on function public.delete_document_template(uuid) from public, anon, authenticated;
grant execute on function public.list_document_templates() to authenticated;
grant execute on function public.save_document_template(uuid, text, text, text, boolean) to authenticated;
grant execute on function public.delete_document_template(uuid) to authenticated;
