-- Notifications by e-mail (22_notification_digests.sql): a member turns the digest on for
-- their organization (save_notification_preferences); only the notification-digests
-- function's secret key asks for the digests due; a digest lists the unread notifications of
-- the kinds the member wants, made since they turned it on or since their last digest, of
-- that organization only; at most one an hour; nothing for a disabled account or membership,
-- nor where no mail can be sent; the organization's hourly mail limit holds.
begin;
select plan(32);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_user('ece@alpha.test', 'user', 'Ece', 'Demir') as ece \gset
select tests.create_user('off@alpha.test') as off_user \gset
select tests.create_user('no@alpha.test') as no_digest \gset
select tests.add_member(:'ece', :'alpha', 'sales');
select tests.add_member(:'ece', :'beta', 'sales');
select tests.add_member(:'off_user', :'alpha', 'sales');
select tests.add_member(:'no_digest', :'alpha', 'sales');

-- ---------------------------------------------------------------------------------
-- Grants: the function's secret key only
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.notification_digests_begin(boolean)', 'execute'), 'anon cannot ask for digests');
select ok(not has_function_privilege('authenticated', 'public.notification_digests_begin(boolean)', 'execute'),
  'a signed-in member cannot ask for digests (they would be mail for others)');
select ok(has_function_privilege('service_role', 'public.notification_digests_begin(boolean)', 'execute'), 'the function''s secret key may');
select tests.authenticate_as(:'ece');
select throws_ok($$select public.notification_digests_begin(true)$$, '42501', null, 'a member calling it is refused by the database');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- The preference: per organization, off by default
-- ---------------------------------------------------------------------------------
select tests.bind_session(:'ece', '00000000-0000-4000-8000-00000000a001', :'alpha');
select tests.authenticate_as(:'ece', '00000000-0000-4000-8000-00000000a001');
select is(public.get_notification_preferences() -> 'email_digest', 'false', 'the digest is off until the member turns it on');
select is(public.save_notification_preferences(array['task_assigned', 'task_due', 'task_overdue', 'task_reminder', 'deal_assigned', 'customer_assigned', 'contract_renewal'], true) -> 'email_digest', 'true', 'the member turns it on');
select is(public.save_notification_preferences(array['task_assigned', 'task_due']) -> 'email_digest', 'true',
  'changing the kinds alone keeps it on');
select is(public.save_notification_preferences(array['bogus'], false) ->> 'code', 'invalid_fields', 'a bad kind refuses the whole change');
select is(public.get_notification_preferences() -> 'email_digest', 'true', '(and leaves the digest on)');
select tests.reset_role();
select tests.bind_session(:'ece', '00000000-0000-4000-8000-00000000a002', :'beta');
select tests.authenticate_as(:'ece', '00000000-0000-4000-8000-00000000a002');
select is(public.get_notification_preferences() -> 'email_digest', 'false', 'in the other organization it is still off');
select is(public.save_notification_preferences(array['task_assigned', 'task_due', 'task_overdue', 'task_reminder', 'deal_assigned', 'customer_assigned', 'contract_renewal'], true) -> 'email_digest', 'true', 'and on there too, on its own');
select tests.reset_role();
select tests.bind_session(:'no_digest', '00000000-0000-4000-8000-00000000a003', :'alpha');
select tests.authenticate_as(:'no_digest', '00000000-0000-4000-8000-00000000a003');
select lives_ok($$select public.save_notification_preferences(array['task_assigned'], false)$$, 'another member keeps it off');
select tests.reset_role();
insert into private.notification_preferences (user_id, organization_id, kinds, email_digest, digest_from)
values (:'off_user', :'alpha', private.notification_kinds(), true, now() - interval '1 day');
update private.profiles set is_active = false where id = :'off_user';
-- What was made before the member turned it on is not mailed.
update private.notification_preferences set digest_from = now() - interval '10 minutes' where user_id = :'ece';

insert into private.notifications (organization_id, user_id, kind, module, record_id, title, created_at) values
  (:'alpha', :'ece', 'task_assigned', 'tasks', gen_random_uuid(), 'Teklifi ara', now() - interval '5 minutes'),
  (:'alpha', :'ece', 'task_due', 'tasks', gen_random_uuid(), 'Sözleşmeyi gönder', now() - interval '4 minutes'),
  (:'alpha', :'ece', 'deal_assigned', 'deals', gen_random_uuid(), 'Kind not wanted in alpha', now() - interval '3 minutes'),
  (:'alpha', :'ece', 'task_assigned', 'tasks', gen_random_uuid(), 'Before the digest was on', now() - interval '1 hour'),
  (:'beta', :'ece', 'customer_assigned', 'customers', gen_random_uuid(), 'Beta müşterisi', now() - interval '2 minutes'),
  (:'alpha', :'off_user', 'task_assigned', 'tasks', gen_random_uuid(), 'To a disabled account', now() - interval '2 minutes'),
  (:'alpha', :'no_digest', 'task_assigned', 'tasks', gen_random_uuid(), 'To a member without digest', now() - interval '2 minutes');
insert into private.notifications (organization_id, user_id, kind, module, record_id, title, created_at, read_at) values
  (:'alpha', :'ece', 'task_assigned', 'tasks', gen_random_uuid(), 'Already read', now() - interval '1 minute', now());

-- ---------------------------------------------------------------------------------
-- No mail anywhere: nothing is due
-- ---------------------------------------------------------------------------------
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.notification_digests_begin(false) as no_mail \gset
reset role;
select tests.reset_role();
select is(:'no_mail'::jsonb, '{"success": true, "digests": []}', 'without the installation''s mail or the organization''s own, no digest');

-- Alpha's own mail settings (and its own digest template): alpha's digest is due, beta's is not.
insert into private.mail_templates (organization_id, kind, language, subject, body)
values (:'alpha', 'notification_digest', 'tr', 'Alpha CRM: {{digest.count}} bildirim', E'{{digest.items}}');
insert into private.mail_settings (organization_id, host, port, security, sender_address)
values (:'alpha', 'smtp.alpha.test', 587, 'starttls', 'crm@alpha.test');
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.notification_digests_begin(false) as first_call \gset
reset role;
select tests.reset_role();
select is(jsonb_array_length(:'first_call'::jsonb -> 'digests'), 1, 'one digest: the member with the digest on, in the organization with mail');
select is(:'first_call'::jsonb #>> '{digests,0,to}', 'ece@alpha.test', 'to the member''s own e-mail');
select is(:'first_call'::jsonb #> '{digests,0,values}',
  '{"user.name": "Ece Demir", "organization.name": "Alpha A.Ş.", "digest.count": "2"}', 'its values: name, organization, count');
select is((select array_agg(i.item ->> 'title' order by i.position) from jsonb_array_elements(:'first_call'::jsonb #> '{digests,0,items}') with ordinality i (item, position)),
  array['Sözleşmeyi gönder', 'Teklifi ara'],
  'the unread notifications of the kinds wanted, made since it was turned on, newest first: not read ones, not other kinds, not older ones');
select is(:'first_call'::jsonb #>> '{digests,0,subject}', 'Alpha CRM: {{digest.count}} bildirim',
  'the organization''s own digest template in its language');
select is((select count(*)::int from private.mail_log where kind = 'notification_digest' and organization_id = :'alpha'
             and recipients = array['ece@alpha.test'] and status = 'sending'), 1, 'started as a mail of the organization (its hourly limit counts it)');

-- Within the hour: nothing again, even with a new notification.
insert into private.notifications (organization_id, user_id, kind, module, record_id, title)
values (:'alpha', :'ece', 'task_due', 'tasks', gen_random_uuid(), 'Yeni iş');
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.notification_digests_begin(false) as second_call \gset
reset role;
select tests.reset_role();
select is(:'second_call'::jsonb -> 'digests', '[]', 'at most one digest an hour');

-- An hour later: only what is new since the last one.
update private.notification_preferences set last_digest_at = now() - interval '61 minutes' where user_id = :'ece' and organization_id = :'alpha';
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.notification_digests_begin(false) as third_call \gset
reset role;
select tests.reset_role();
select is((select array_agg(i ->> 'title') from jsonb_array_elements(:'third_call'::jsonb #> '{digests,0,items}') i), array['Yeni iş'],
  'the next digest lists only what came after the last one');

-- The installation's mail: beta's digest now, with beta's notification only.
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.notification_digests_begin(true) as beta_call \gset
reset role;
select tests.reset_role();
select is(jsonb_array_length(:'beta_call'::jsonb -> 'digests'), 1, 'with the installation''s mail, the other organization''s digest is due');
select is((select array_agg(i ->> 'title') from jsonb_array_elements(:'beta_call'::jsonb #> '{digests,0,items}') i), array['Beta müşterisi'],
  'a member of two organizations: each digest holds that organization''s notifications only');
select is(:'beta_call'::jsonb #>> '{digests,0,values,organization.name}', 'Beta Ltd.', 'named by that organization');
select is(:'beta_call'::jsonb #>> '{digests,0,subject}', '{{organization.name}}: {{digest.count}} yeni bildirim',
  'with the product''s template where the organization has not written its own');
select is((select count(*)::int from private.mail_log where kind = 'notification_digest' and recipients && array['off@alpha.test', 'no@alpha.test']), 0,
  'nothing for a disabled account or a member who did not turn it on');

-- A membership ended: nothing.
update private.memberships set is_active = false where user_id = :'ece' and organization_id = :'alpha';
update private.notification_preferences set last_digest_at = null where user_id = :'ece';
insert into private.notifications (organization_id, user_id, kind, module, record_id, title)
values (:'alpha', :'ece', 'task_due', 'tasks', gen_random_uuid(), 'After leaving');
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.notification_digests_begin(true) as left_call \gset
reset role;
select tests.reset_role();
select is(:'left_call'::jsonb -> 'digests', '[]', 'a member who left the organization gets no digest from it');
update private.memberships set is_active = true where user_id = :'ece' and organization_id = :'alpha';

-- The organization's hourly limit: the digest waits, unstamped.
insert into private.mail_log (organization_id, kind, recipients, subject)
select :'alpha', 'test', array['x@alpha.test'], 'filler' from generate_series(1, (private.mail_limits() ->> 'per_hour')::integer);
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.notification_digests_begin(true) as limited_call \gset
reset role;
select tests.reset_role();
select is(:'limited_call'::jsonb -> 'digests', '[]', 'over the organization''s hourly mail limit, no digest is started');
select is((select last_digest_at from private.notification_preferences where user_id = :'ece' and organization_id = :'alpha'), null,
  'and the member is left due for the next call');

-- Turning it off stops it; on again counts from then.
select tests.bind_session(:'ece', '00000000-0000-4000-8000-00000000a001', :'alpha');
select tests.authenticate_as(:'ece', '00000000-0000-4000-8000-00000000a001');
select is(public.save_notification_preferences(array['task_due'], false) -> 'email_digest', 'false', 'the member turns it off');
select is(public.save_notification_preferences(array['task_due'], true) -> 'email_digest', 'true', 'and on again');
select tests.reset_role();
select ok((select digest_from > now() - interval '1 minute' from private.notification_preferences where user_id = :'ece' and organization_id = :'alpha'),
  'turned on again: only what comes from now on is mailed');

select * from finish();
rollback;
