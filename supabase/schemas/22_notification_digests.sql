-- Notifications by e-mail (issue 27, part 6): a member who turned the digest on in their
-- notification preferences (11_tasks_and_notifications.sql) gets, at most once an hour per
-- organization, one e-mail listing the unread notifications of the kinds they want that were
-- made since their last digest. The notification-digests function (secret key only) asks for
-- the digests due and sends them; the local stack calls it every minute, hosted Supabase from
-- pg_cron (README). Every digest starts with private.mail_start: the organization's hourly
-- mail limit holds for digests too.

/** At most this many notifications are listed in one digest (the rest: "and N more" with the link). */
create function private.notification_digest_limits(out items integer, out members integer)
language sql
immutable
set search_path = ''
as $$
  select 20, 200;
$$;

/**
 * The notification-digests function only (secret key): the digests due now, each started as a
 * mail (private.mail_start, kind notification_digest) and stamped, so that a second call within
 * the hour finds nothing for that member. Due: an active member of an organization, active
 * account, with email_digest on, whose last digest was an hour ago or more (or never), with
 * unread notifications of the kinds they want in that organization made after digest_from;
 * only where the organization has mail settings of its own, or the installation has mail
 * (p_installation_mail). A member of two organizations gets one digest each, each with that
 * organization's notifications only. An organization over its hourly limit: that member is
 * left as they are, due again next time. At most private.notification_digest_limits().members
 * a call. Returns {success, digests: [{mail_id, to, subject, body (the template), language,
 * values {user.name, organization.name, digest.count}, items [{kind, title, module,
 * record_id, created_at}] (newest first, at most .items), more (how many not listed)}]}.
 */
create function public.notification_digests_begin(p_installation_mail boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  limits record := private.notification_digest_limits();
  member record;
  due jsonb;
  due_count integer;
  newest timestamptz;
  language text;
  template jsonb;
  started jsonb;
  digests jsonb := '[]';
begin
  for member in
    select p.user_id, p.organization_id, p.kinds, p.digest_from, pr.email, o.name as organization_name,
           coalesce(private.profile_name(p.user_id), pr.email) as user_name,
           case when st.locale = 'en-US' then 'en' else 'tr' end as language
      from private.notification_preferences p
      join private.memberships m on m.user_id = p.user_id and m.organization_id = p.organization_id and m.is_active
      join private.profiles pr on pr.id = p.user_id and pr.is_active
      join private.organizations o on o.id = p.organization_id
      left join private.organization_settings st on st.organization_id = p.organization_id
     where p.email_digest
       and (p.last_digest_at is null or p.last_digest_at <= now() - interval '1 hour')
       and (coalesce(p_installation_mail, false)
            or exists (select 1 from private.mail_settings s where s.organization_id = p.organization_id))
       and exists (select 1 from private.notifications n
                    where n.user_id = p.user_id and n.organization_id = p.organization_id and n.read_at is null
                      and n.kind = any (p.kinds) and n.created_at > coalesce(p.digest_from, '-infinity'))
     order by p.last_digest_at nulls first, p.user_id, p.organization_id
     limit limits.members
       for update of p skip locked
  loop
    select coalesce(jsonb_agg(jsonb_build_object('kind', n.kind, 'title', n.title, 'module', n.module,
                                                 'record_id', n.record_id, 'created_at', n.created_at)
                              order by n.created_at desc, n.id desc) filter (where n.position <= limits.items), '[]'),
           count(*), max(n.created_at)
      into due, due_count, newest
      from (select x.*, row_number() over (order by x.created_at desc, x.id desc) as position
              from private.notifications x
             where x.user_id = member.user_id and x.organization_id = member.organization_id and x.read_at is null
               and x.kind = any (member.kinds) and x.created_at > coalesce(member.digest_from, '-infinity')) n;
    template := private.mail_template(member.organization_id, 'notification_digest', member.language);
    started := private.mail_start(jsonb_populate_record(null::private.mail_log, jsonb_build_object(
      'organization_id', member.organization_id, 'kind', 'notification_digest', 'recipients', array[member.email],
      'subject', template ->> 'subject', 'created_by', member.user_id)));
    continue when not (started ->> 'success')::boolean;
    update private.notification_preferences p
       set last_digest_at = now(), digest_from = newest
     where p.user_id = member.user_id and p.organization_id = member.organization_id;
    digests := digests || jsonb_build_object(
      'mail_id', started ->> 'mail_id', 'to', member.email, 'language', member.language,
      'subject', template ->> 'subject', 'body', template ->> 'body',
      'values', jsonb_build_object('user.name', member.user_name, 'organization.name', member.organization_name,
                                   'digest.count', due_count::text),
      'items', due, 'more', greatest(due_count - limits.items, 0));
  end loop;
  return jsonb_build_object('success', true, 'digests', digests);
end;
$$;

revoke all on function public.notification_digests_begin(p_installation_mail boolean) from public, anon, authenticated;
grant execute on function public.notification_digests_begin(p_installation_mail boolean) to service_role;
