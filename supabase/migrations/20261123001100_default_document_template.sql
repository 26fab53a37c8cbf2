-- The default document template of a kind, for the people who print quotes and contracts.
-- Document templates are managed by admins (20261121001100_document_templates.sql: list,
-- save, delete stay admin-only); rendering a quote or a contract to PDF needs only the
-- organization's default body of that kind, so any active member who may view quotes
-- (kind quote) or contracts (kind contract) reads that one template, nothing more.

/**
 * The organization's default template of a kind ('quote' or 'contract'), for a member with
 * view permission on quotes or contracts in the session's organization:
 * {success, template: {id, name, body, updated_at} | null} (null: no default, the app uses
 * its built-in body). The body is plain text; the app fills its placeholders from a fixed list.
 */
create function public.get_default_document_template(p_kind text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  template jsonb;
begin
  if coalesce(p_kind, '') not in ('quote', 'contract') then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  context := private.module_context(case p_kind when 'quote' then 'quotes' else 'contracts' end, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  execute format($query$
    select jsonb_build_object('id', t.id, 'name', t.name, 'body', t.body, 'updated_at', t.updated_at)
      from %I.document_templates t
     where t.kind = $1 and t.is_default and t.deleted_at is null
     order by t.updated_at desc
     limit 1$query$, context.schema_name)
    into template using p_kind;
  return jsonb_build_object('success', true, 'template', template);
end;
$$;

revoke execute on function public.get_default_document_template(text) from public, anon, authenticated;
grant execute on function public.get_default_document_template(text) to authenticated;
