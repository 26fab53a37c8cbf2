-- The audit log: append-only (no update, delete or truncate), written by every admin
-- action with what changed, and read by the organization's admin.

create table private.audit_log (
  id bigint generated always as identity primary key,
  organization_id uuid references private.organizations (id) on delete cascade,
  actor_id uuid,
  action text not null check (action ~ '^[a-z][a-z0-9_.]{0,63}$'),
  target_type text,
  target_id text,
  details jsonb not null default '{}',
  created_at timestamptz not null default now()
);

create index audit_log_organization_id_created_at_idx on private.audit_log (organization_id, created_at desc);
-- The admin's filters (get_audit_log): by who did it and by action, newest first.
create index audit_log_actor_idx on private.audit_log (organization_id, actor_id, id desc);
create index audit_log_action_idx on private.audit_log (organization_id, action, id desc);

comment on table private.audit_log is 'Who did what, when, in which organization (admin actions).';

alter table private.audit_log enable row level security;

/** Records an admin action for the organization's audit trail: by the caller, or by p_actor for work finished on their behalf (the mail function's result of their sending). */
create function private.write_audit(p_organization_id uuid, p_action text, p_target_type text,
                                    p_target_id text, p_details jsonb default '{}', p_actor uuid default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  values (p_organization_id, coalesce(p_actor, auth.uid()), p_action, p_target_type, p_target_id, coalesce(p_details, '{}'));
end;
$$;

/**
 * What an audit entry is about, in words: a person's name (else e-mail; with the e-mail,
 * which tells two people of one name apart), a custom field's label, an organization's,
 * a role's or a document template's name, an import's file name, or a record's title
 * (private.record_title, also of a soft-deleted record) in its module; null when the target
 * no longer exists (the app then says it was deleted). {name, module, exists}: module is set
 * when the target is a record that can be opened (a registered module, not deleted).
 */
create function private.audit_target(p_organization_id uuid, p_target_type text, p_target_id text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  tenant text;
  target_table text;
  target_id uuid;
  found jsonb;
begin
  if p_target_type is null or p_target_id is null then
    return null;
  end if;
  if p_target_type = 'role' then
    return (select jsonb_build_object('name', r.name, 'exists', true) from private.organization_roles r
             where r.organization_id = p_organization_id and r.key = p_target_id);
  end if;
  -- A custom field of a module (custom_fields.*: target the module, id the field's key): its
  -- label, or once deleted the label its deletion recorded.
  if p_target_id ~ '^cf_' then
    return coalesce(
      (select jsonb_build_object('name', f.label_tr, 'exists', true) from private.custom_fields f
        where f.organization_id = p_organization_id and f.module = p_target_type and f.key = p_target_id),
      (select jsonb_build_object('name', a.details ->> 'label_tr', 'exists', false) from private.audit_log a
        where a.organization_id = p_organization_id and a.action = 'custom_fields.delete'
          and a.target_type = p_target_type and a.target_id = p_target_id
        order by a.id desc limit 1));
  end if;
  if p_target_id !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return null;
  end if;
  target_id := p_target_id::uuid;
  if p_target_type = 'user' then
    return (select jsonb_build_object('name', coalesce(private.profile_name(p.id), p.email), 'email', p.email, 'exists', true)
              from private.profiles p where p.id = target_id);
  elsif p_target_type = 'organization' then
    return (select jsonb_build_object('name', o.name, 'exists', true) from private.organizations o where o.id = target_id);
  end if;
  tenant := private.tenant_schema(p_organization_id);
  if tenant is null then
    return null;
  end if;
  if p_target_type = 'document_template' then
    execute format('select jsonb_build_object(''name'', t.name, ''exists'', true) from %I.document_templates t where t.id = $1', tenant)
      into found using target_id;
  elsif p_target_type = 'import' then
    execute format('select jsonb_build_object(''name'', t.file_name, ''exists'', true) from %I.imports t where t.id = $1', tenant)
      into found using target_id;
  elsif p_target_type = 'products' then
    execute format('select jsonb_build_object(''name'', t.name, ''exists'', true) from %I.products t where t.id = $1', tenant)
      into found using target_id;
  else
    select m.table_name into target_table from private.modules m where m.key = p_target_type;
    if target_table is not null then
      execute format('select jsonb_build_object(''name'', private.record_title($2, to_jsonb(t)), ''exists'', true,
                                                ''module'', case when t.deleted_at is null then $2 end)
                        from %I.%I t where t.id = $1', tenant, target_table)
        into found using target_id, p_target_type;
    end if;
  end if;
  return found;
end;
$$;

/**
 * The organization's audit trail, newest first (admins of it; a super admin names one by
 * slug), one page of up to 200 before p_before_id, filtered on the server by who did it
 * (p_actor_id), the action (p_action, exact) and when (p_from <= created_at < p_to). Each
 * entry names its actor ({id, email, first_name, last_name, deleted: the account is gone})
 * and its target (target: private.audit_target), never only by id.
 */
create function public.get_audit_log(p_limit integer default 50, p_before_id bigint default null,
                                     p_organization_slug text default null, p_actor_id uuid default null,
                                     p_action text default null, p_from timestamptz default null,
                                     p_to timestamptz default null)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin', p_organization_slug => p_organization_slug);
  target_org uuid := caller.organization_id;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'entries', (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', a.id, 'action', a.action, 'target_type', a.target_type, 'target_id', a.target_id,
             'details', a.details, 'created_at', a.created_at,
             'target', private.audit_target(target_org, a.target_type, a.target_id),
             'actor', jsonb_build_object('id', a.actor_id, 'email', p.email,
                                         'first_name', p.first_name, 'last_name', p.last_name,
                                         'deleted', a.actor_id is not null and p.id is null))
             order by a.id desc), '[]')
      from (select * from private.audit_log l
             where l.organization_id = target_org and (p_before_id is null or l.id < p_before_id)
               and (p_actor_id is null or l.actor_id = p_actor_id)
               and (p_action is null or l.action = p_action)
               and (p_from is null or l.created_at >= p_from)
               and (p_to is null or l.created_at < p_to)
             order by l.id desc
             limit least(greatest(coalesce(p_limit, 50), 1), 200)) a
      left join private.profiles p on p.id = a.actor_id));
end;
$$;
revoke all on function public.get_audit_log(p_limit integer, p_before_id bigint, p_organization_slug text, p_actor_id uuid,
                                            p_action text, p_from timestamptz, p_to timestamptz) from public, anon, authenticated;
grant execute on function public.get_audit_log(p_limit integer, p_before_id bigint, p_organization_slug text, p_actor_id uuid,
                                               p_action text, p_from timestamptz, p_to timestamptz) to authenticated;

/** The audit log is append-only: no update, no delete, no truncate. */
create function private.refuse_audit_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'the audit log is append-only' using errcode = 'insufficient_privilege';
end;
$$;

create trigger audit_log_append_only
  before update or delete on private.audit_log
  for each row execute function private.refuse_audit_change();

create trigger audit_log_no_truncate
  before truncate on private.audit_log
  for each statement execute function private.refuse_audit_change();

/**
 * Records an action on a person in the log of the organization it was done in and of
 * every organization the person belongs to, so each of their admins sees what happened
 * to their member (with no organization at all, one row without one).
 */
create function private.write_user_audit(p_target uuid, p_action text, p_details jsonb default '{}',
                                         p_acting_organization uuid default private.current_organization_id())
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  select organizations.id, auth.uid(), p_action, 'user', p_target::text, coalesce(p_details, '{}')
    from (select p_acting_organization as id where p_acting_organization is not null
          union
          select m.organization_id from private.memberships m where m.user_id = p_target
          union
          select null where p_acting_organization is null
                        and not exists (select 1 from private.memberships m where m.user_id = p_target)) organizations;
end;
$$;

-- A record's audit entries, newest first (the dashboard's recent activity and the record
-- timeline look entries up by their target).
create index audit_log_target_idx on private.audit_log (organization_id, target_type, target_id, created_at desc);

/**
 * The fields of p_new whose value differs from p_old, each as {"old", "new"} (a field
 * either lacks is null there); a secret setting's values (private.is_secret_setting) are
 * "***", with "changed" true.
 */
create function private.audit_changes(p_old jsonb, p_new jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_object_agg(k.key, case
           when private.is_secret_setting(k.key) then '{"old": "***", "new": "***", "changed": true}'::jsonb
           else jsonb_build_object('old', coalesce(p_old, '{}') -> k.key, 'new', coalesce(p_new, '{}') -> k.key) end), '{}')
    from (select jsonb_object_keys(coalesce(p_old, '{}')) as key
          union select jsonb_object_keys(coalesce(p_new, '{}'))) k
   where (coalesce(p_old, '{}') -> k.key) is distinct from (coalesce(p_new, '{}') -> k.key);
$$;
