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

comment on table private.audit_log is 'Who did what, when, in which organization (admin actions).';

alter table private.audit_log enable row level security;

/** Records an admin action for the organization's audit trail. */
create function private.write_audit(p_organization_id uuid, p_action text, p_target_type text,
                                    p_target_id text, p_details jsonb default '{}')
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  values (p_organization_id, auth.uid(), p_action, p_target_type, p_target_id, coalesce(p_details, '{}'));
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
revoke all on function public.get_audit_log(p_limit integer, p_before_id bigint, p_organization_slug text) from public, anon, authenticated;
grant execute on function public.get_audit_log(p_limit integer, p_before_id bigint, p_organization_slug text) to authenticated;

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
language sql
security definer
set search_path = ''
as $$
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id, details)
  select organizations.id, auth.uid(), p_action, 'user', p_target::text, coalesce(p_details, '{}')
    from (select p_acting_organization as id where p_acting_organization is not null
          union
          select m.organization_id from private.memberships m where m.user_id = p_target
          union
          select null where p_acting_organization is null
                        and not exists (select 1 from private.memberships m where m.user_id = p_target)) organizations;
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
