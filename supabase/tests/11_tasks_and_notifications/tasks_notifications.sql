-- Tasks, notifications and the home dashboard (issue 12): the task rules (type, priority,
-- status and completion, reminder, related records of the same organization), scope by
-- role and organization, complete_task, the task views as range filters; notifications on
-- assignment by someone else, the due-items step (each kind once, preferences respected),
-- the bell RPCs scoped to the caller and the bound organization, the retention clean-up,
-- a record transfer that notifies nobody, realtime broadcasts where realtime exists; the
-- dashboard's numbers per scope; anon refused on every new RPC.
begin;
select plan(96);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('sales2@alpha.test', 'user', 'Sena', 'İkinci') as alpha_sales2 \gset
select tests.create_user('solo@alpha.test', 'user', 'Sami', 'Yalnız') as alpha_solo \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.create_user('multi@both.test', 'user', 'Çoklu', 'Üye') as multi \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_sales2', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role views every record here (its default is only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select tests.add_member(:'multi', :'alpha', 'sales');
select tests.add_member(:'multi', :'beta', 'user');
-- A role that sees only its own tasks and deals (and every customer).
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'solo', 'Yalnız');
insert into private.role_permissions (organization_id, role_key, module, action, scope) values
  (:'alpha', 'solo', 'tasks', 'view', 'own'), (:'alpha', 'solo', 'tasks', 'create', 'own'),
  (:'alpha', 'solo', 'tasks', 'edit', 'own'), (:'alpha', 'solo', 'deals', 'view', 'own'),
  (:'alpha', 'solo', 'customers', 'view', 'all');
select tests.add_member(:'alpha_solo', :'alpha', 'solo');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_sales2,
       gen_random_uuid() as s_solo, gen_random_uuid() as s_viewer, gen_random_uuid() as s_beta,
       gen_random_uuid() as s_multi_a, gen_random_uuid() as s_multi_b, gen_random_uuid() as s_unbound \gset
create temporary table sessions (person uuid, session uuid primary key, organization uuid);
insert into sessions values (:'alpha_admin', :'s_admin', :'alpha'), (:'alpha_sales', :'s_sales', :'alpha'),
  (:'alpha_sales2', :'s_sales2', :'alpha'), (:'alpha_solo', :'s_solo', :'alpha'), (:'alpha_viewer', :'s_viewer', :'alpha'),
  (:'beta_admin', :'s_beta', :'beta'), (:'multi', :'s_multi_a', :'alpha'), (:'multi', :'s_multi_b', :'beta');
insert into auth.sessions (id, user_id) select session, person from sessions;
insert into auth.sessions (id, user_id) values (:'s_unbound', :'alpha_admin');
insert into private.session_organizations (session_id, user_id, organization_id) select session, person, organization from sessions;
grant select on sessions to authenticated;

/** Acts as the person in the session (as authenticated, as PostgREST would). */
create function pg_temp.act(p_session uuid) returns void language sql as $$
  select tests.authenticate_as((select person from sessions where session = p_session), p_session);
$$;
grant execute on function pg_temp.act(uuid) to authenticated;

-- Records of alpha and beta to relate tasks to.
insert into :"alpha_schema".customers (id, name, owner_id, created_by) values
  ('c0000000-0000-4000-8000-000000000001', 'Işık Yazılım', :'alpha_admin', :'alpha_admin');
insert into :"alpha_schema".contacts (id, customer_id, first_name, owner_id, created_by) values
  ('c0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'Ece', :'alpha_admin', :'alpha_admin');
insert into :"alpha_schema".deals (id, customer_id, title, owner_id, created_by, deleted_at) values
  ('c0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000001', 'Lisans', :'alpha_admin', :'alpha_admin', null),
  ('c0000000-0000-4000-8000-000000000004', null, 'Silinmiş', :'alpha_admin', :'alpha_admin', now());
insert into :"beta_schema".customers (id, name, owner_id, created_by) values
  ('b0000000-0000-4000-8000-000000000001', 'Beta Müşteri', :'beta_admin', :'beta_admin');

-- ---------------------------------------------------------------------------------
-- anon: refused by the database on every new RPC
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok($$select public.complete_task(gen_random_uuid())$$, '42501', null, 'anon: complete_task is refused');
select throws_ok($$select public.get_task_views()$$, '42501', null, 'anon: get_task_views is refused');
select throws_ok($$select public.get_notifications()$$, '42501', null, 'anon: get_notifications is refused');
select throws_ok($$select public.get_unread_notification_count()$$, '42501', null, 'anon: get_unread_notification_count is refused');
select throws_ok($$select public.mark_notifications_read(array[gen_random_uuid()])$$, '42501', null,
  'anon: mark_notifications_read is refused');
select throws_ok($$select public.mark_all_notifications_read()$$, '42501', null, 'anon: mark_all_notifications_read is refused');
select throws_ok($$select public.get_notification_preferences()$$, '42501', null, 'anon: get_notification_preferences is refused');
select throws_ok($$select public.save_notification_preferences('{}')$$, '42501', null,
  'anon: save_notification_preferences is refused');
select throws_ok($$select public.get_dashboard()$$, '42501', null, 'anon: get_dashboard is refused');
select throws_ok($$select public.can_receive_realtime_topic('org:x')$$, '42501', null, 'anon: can_receive_realtime_topic is refused');
select throws_ok($$select public.create_task('{"title": "Anon"}')$$, '42501', null, 'anon: create_task is refused');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Task rules
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.create_task(jsonb_build_object('title', '  Teklifi ara  ', 'type', 'call', 'priority', 'high',
  'description', 'Fiyatı konuş', 'due_at', now() + interval '2 days', 'remind_at', now() + interval '1 day',
  'customer_id', 'c0000000-0000-4000-8000-000000000001', 'contact_id', 'c0000000-0000-4000-8000-000000000002',
  'deal_id', 'c0000000-0000-4000-8000-000000000003')) as t1 \gset
select is((:'t1'::jsonb) ->> 'success', 'true', 'an admin creates a task with a type, priority, reminder and related records');
select is(jsonb_build_array((:'t1'::jsonb) #>> '{record,title}', (:'t1'::jsonb) #>> '{record,status}',
                            (:'t1'::jsonb) #>> '{record,priority}', (:'t1'::jsonb) #>> '{record,deal_id}'),
  '["Teklifi ara", "open", "high", "c0000000-0000-4000-8000-000000000003"]'::jsonb,
  'the title is trimmed, the status starts open, priority and deal are kept');
select (:'t1'::jsonb) #>> '{record,id}' as t1_id, (:'t1'::jsonb) #>> '{record,updated_at}' as t1_at \gset
select is(public.create_task('{"title": "X", "type": "fax"}') #>> '{fields,type}', 'invalid_type',
  'a type that is not in the organization''s task types is refused');
select is(public.create_task('{"description": "başlıksız"}') #>> '{fields,title}', 'required', 'a title is required');
select is(public.create_task(jsonb_build_object('title', repeat('x', 201))) #>> '{fields,title}', 'too_long',
  'a title of more than 200 characters is refused');
select is(public.create_task('{"title": "X", "priority": "asap", "status": "later"}') -> 'fields',
  '{"priority": "invalid", "status": "invalid"}'::jsonb, 'an unknown priority or status is refused');
select is(public.create_task(jsonb_build_object('title', 'X', 'due_at', now(), 'remind_at', now() + interval '1 hour'))
  #>> '{fields,remind_at}', 'after_due', 'a reminder after the due time is refused');
select is(public.create_task('{"title": "X", "due_at": "yarın"}') #>> '{fields,due_at}', 'invalid', 'a due time must be a time');
select is(public.create_task('{"title": "X", "customer_id": "b0000000-0000-4000-8000-000000000001"}') #>> '{fields,customer_id}',
  'not_found', 'a customer of another organization is not found');
select is(public.create_task('{"title": "X", "deal_id": "c0000000-0000-4000-8000-000000000004", "contact_id": "nope"}') -> 'fields',
  '{"deal_id": "not_found", "contact_id": "not_found"}'::jsonb, 'a deleted deal or a malformed id is not found');
select is(public.create_task(jsonb_build_object('title', 'X', 'owner_id', :'beta_admin')) #>> '{fields,owner_id}', 'invalid_owner',
  'an assignee from another organization is refused');
select is(public.create_task('{"title": "X", "completed_at": "2026-01-01T00:00:00Z"}') #>> '{fields,completed_at}', 'unknown_field',
  'completion is not written directly');
select public.create_task('{"title": "Bitmiş iş", "status": "done"}') as done_task \gset
select ok((:'done_task'::jsonb) #>> '{record,completed_at}' is not null
          and (:'done_task'::jsonb) #>> '{record,completed_by}' = :'alpha_admin',
  'a task created done records when and by whom');
select public.update_task(:'t1_id', '{"status": "done"}', :'t1_at') as t1_done \gset
select ok((:'t1_done'::jsonb) #>> '{record,completed_at}' is not null
          and (:'t1_done'::jsonb) #>> '{record,completed_by}' = :'alpha_admin', 'becoming done records completed_at and completed_by');
select public.update_task(:'t1_id', '{"status": "in_progress"}', ((:'t1_done'::jsonb) #>> '{record,updated_at}')::timestamptz) as t1_open \gset
select is(jsonb_build_array((:'t1_open'::jsonb) #>> '{record,status}', (:'t1_open'::jsonb) #>> '{record,completed_at}',
                            (:'t1_open'::jsonb) #>> '{record,completed_by}'),
  '["in_progress", null, null]'::jsonb, 'leaving done clears both');
select (:'t1_open'::jsonb) #>> '{record,updated_at}' as t1_at \gset
select is(public.update_task(:'t1_id', jsonb_build_object('due_at', now() + interval '12 hours'), :'t1_at') #>> '{fields,remind_at}',
  'after_due', 'moving the due time before the reminder is refused');
select tests.reset_role();

-- Own scope: assign only to oneself, read only one's own; viewer; another organization.
select pg_temp.act(:'s_sales');
select is(public.create_task(jsonb_build_object('title', 'Başkasına', 'owner_id', :'alpha_sales2')) ->> 'code', 'permission_denied',
  'an own-scope member cannot assign a task to someone else');
select public.create_task('{"title": "Kendi işim", "priority": "urgent"}') as own_task \gset
select is((:'own_task'::jsonb) #>> '{record,owner_id}', :'alpha_sales', 'an own-scope member creates their own task');
select (:'own_task'::jsonb) #>> '{record,id}' as own_id, (:'own_task'::jsonb) #>> '{record,updated_at}' as own_at \gset
select is(public.complete_task(:'t1_id') ->> 'code', 'not_record_owner', 'complete_task: an own-scope member cannot complete another''s task');
select is(public.complete_task(:'own_id', (:'own_at')::timestamptz - interval '1 second') ->> 'code', 'stale_record',
  'complete_task: a stale read is refused');
select public.complete_task(:'own_id', :'own_at') as completed \gset
select is(jsonb_build_array((:'completed'::jsonb) #>> '{record,status}', (:'completed'::jsonb) #>> '{record,completed_by}'),
  jsonb_build_array('done', :'alpha_sales'), 'complete_task: the owner completes their task from the list');
select is(public.complete_task(:'own_id') #>> '{record,updated_at}', (:'completed'::jsonb) #>> '{record,updated_at}',
  'complete_task: a task already done is answered unchanged');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where target_id = :'own_id' and action = 'tasks.update'), 1,
  'complete_task is audited once');
select is((select array_agg(field order by field) from :"alpha_schema".field_history where record_id = :'own_id'),
  array['completed_at', 'completed_by', 'status'], 'and its fields are in the task''s history');

select pg_temp.act(:'s_admin');
select public.create_task(jsonb_build_object('title', 'Sami''nin işi', 'owner_id', :'alpha_solo')) ->> 'success' as ok_solo \gset
select public.create_task('{"title": "Yönetici işi"}') #>> '{record,id}' as admin_task \gset
select tests.reset_role();
select pg_temp.act(:'s_solo');
select is(public.get_task(:'admin_task') ->> 'code', 'not_found', 'own view scope: another''s task cannot be read by id');
select is((select array_agg(r ->> 'title') from jsonb_array_elements(public.list_tasks() -> 'records') r), array['Sami''nin işi'],
  'own view scope: the list holds only one''s own tasks');
select tests.reset_role();
select pg_temp.act(:'s_viewer');
select is(public.create_task('{"title": "İzleyici"}') ->> 'code', 'permission_denied', 'a viewer cannot create a task');
select is(public.complete_task(:'admin_task') ->> 'code', 'permission_denied', 'a viewer cannot complete a task');
select is(public.get_task(:'admin_task') #>> '{record,title}', 'Yönetici işi', 'a viewer reads a task');
select tests.reset_role();
select pg_temp.act(:'s_beta');
select is(public.get_task(:'admin_task') ->> 'code', 'not_found', 'another organization''s task is not found');
select is(public.complete_task(:'admin_task') ->> 'code', 'not_found', 'nor completed');
select tests.reset_role();

-- The task views as range filters (one transaction: now() is the same throughout).
select pg_temp.act(:'s_admin');
select public.create_task(jsonb_build_object('title', 'Dün', 'due_at', now() - interval '1 day')) #>> '{record,id}' as v_overdue \gset
select public.create_task(jsonb_build_object('title', 'Şimdi', 'due_at', now())) #>> '{record,id}' as v_today \gset
select public.create_task(jsonb_build_object('title', 'Sonra', 'due_at', now() + interval '3 days')) #>> '{record,id}' as v_later \gset
select public.create_task(jsonb_build_object('title', 'Dün bitti', 'due_at', now() - interval '1 day', 'status', 'done'))
  #>> '{record,id}' as v_done \gset
select public.get_task_views() as views \gset
select is(array(select r ->> 'id' from jsonb_array_elements(public.list_tasks(null, (:'views'::jsonb) #> '{views,overdue,filters}') -> 'records') r),
  array[:'v_overdue'], 'the overdue view lists the open tasks past their due time');
select ok(array(select r ->> 'id' from jsonb_array_elements(public.list_tasks(null, (:'views'::jsonb) #> '{views,today,filters}') -> 'records') r)
          @> array[:'v_today']
          and not array(select r ->> 'id' from jsonb_array_elements(public.list_tasks(null, (:'views'::jsonb) #> '{views,today,filters}') -> 'records') r)
          && array[:'v_later', :'v_done'],
  'the today view lists what is due today in the organization''s time zone, not later or done');
select is(array(select r ->> 'id' from jsonb_array_elements(public.list_tasks(null, '{"priority": "urgent"}') -> 'records') r),
  array[:'own_id'], 'tasks filter by priority');
select is(array(select r ->> 'priority' from jsonb_array_elements(public.list_tasks(null, null, 'priority', true, 3) -> 'records') r),
  array['urgent', 'high', 'normal'], 'priority sorts by urgency, not by name');
select is(public.list_tasks('teklifi') #>> '{records,0,id}', :'t1_id', 'tasks are found by a Turkish-folded search');
-- Merging customers moves the tasks of the merged one (the engine's generic merge follows the foreign key).
select public.create_customer('{"name": "Işık Yazılım (kopya)"}') #>> '{record,id}' as copy_customer \gset
select public.create_task(jsonb_build_object('title', 'Kopyadaki iş', 'customer_id', :'copy_customer')) #>> '{record,id}' as copy_task \gset
select public.merge_customers('c0000000-0000-4000-8000-000000000001', :'copy_customer') ->> 'success' as merged \gset
select is(public.get_task(:'copy_task') #>> '{record,customer_id}', 'c0000000-0000-4000-8000-000000000001',
  'merging two customers moves the merged one''s tasks to the one that stays');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Notifications on assignment
-- ---------------------------------------------------------------------------------
select is((select count(*)::int from private.notifications where user_id in (:'alpha_admin', :'alpha_sales')), 0,
  'nobody is told about tasks they made for themselves');
select is((select jsonb_build_array(kind, module, title, actor_id) from private.notifications where user_id = :'alpha_solo'),
  jsonb_build_array('task_assigned', 'tasks', 'Sami''nin işi', :'alpha_admin'),
  'a task created for someone else tells them: kind, module, title and who');

select pg_temp.act(:'s_admin');
select public.update_task(:'t1_id', jsonb_build_object('owner_id', :'alpha_sales2'), :'t1_at') ->> 'success' as reassigned \gset
select public.bulk_update_customers(array['c0000000-0000-4000-8000-000000000001'::uuid],
                                    jsonb_build_object('owner_id', :'alpha_sales2')) ->> 'updated' as customers_moved \gset
select tests.reset_role();
select is((select array_agg(kind || ':' || title order by kind) from private.notifications where user_id = :'alpha_sales2'),
  array['customer_assigned:Işık Yazılım', 'task_assigned:Teklifi ara'],
  'a task and a customer given to someone else tell their new owner');

-- Realtime where it exists: a stand-in realtime.send records what would be broadcast.
create schema realtime;
create table realtime.sent (topic text, event text, payload jsonb);
create function realtime.send(payload jsonb, event text, topic text, private boolean default true) returns void
language sql as $$ insert into realtime.sent values (topic, event, payload) $$;

/** Acts as the person for a direct table write (the runner's role, the person's identity). */
create function pg_temp.as_actor(p_person uuid) returns void language sql as $$
  select tests.set_request_identity('none', p_person::text, json_build_object('sub', p_person, 'role', 'authenticated')::text);
$$;
select pg_temp.as_actor(:'alpha_admin');
insert into :"alpha_schema".deals (title, owner_id, created_by) values ('Büyük fırsat', :'alpha_sales2', :'alpha_admin')
returning id as big_deal \gset
insert into :"alpha_schema".deals (title, owner_id, created_by) values ('Kendi fırsatım', :'alpha_admin', :'alpha_admin');
select pg_temp.as_actor(:'alpha_sales2');
update :"alpha_schema".deals set title = 'Büyük fırsat (2)' where id = :'big_deal';
select tests.reset_role();
select is((select array_agg(kind || ':' || title) from private.notifications where user_id = :'alpha_sales2' and module = 'deals'),
  array['deal_assigned:Büyük fırsat'], 'a deal created for someone else tells them; their own edit and one''s own deal tell nobody');
select is((select array_agg(event || ' ' || (payload ->> 'kind')) from realtime.sent where topic = format('user:%s:%s', :'alpha', :'alpha_sales2')),
  array['notification deal_assigned'], 'the notification is broadcast on the recipient''s topic user:<organization>:<user>');
select is((select array_agg(distinct event || ' ' || (payload ->> 'module')) from realtime.sent where topic = format('org:%s', :'alpha')),
  array['deals_changed deals'], 'deal changes are broadcast on the organization''s board topic, without deal data');
set local client_min_messages = warning;
drop schema realtime cascade;
set local client_min_messages = notice;

select pg_temp.act(:'s_admin');
select is(jsonb_build_array(public.can_receive_realtime_topic(format('org:%s', :'alpha')),
                            public.can_receive_realtime_topic(format('user:%s:%s', :'alpha', :'alpha_admin')),
                            public.can_receive_realtime_topic(format('org:%s', :'beta')),
                            public.can_receive_realtime_topic(format('user:%s:%s', :'alpha', :'alpha_sales'))),
  '[true, true, false, false]'::jsonb,
  'realtime: a member receives their organization''s board topic and their own topic, no other');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_unbound');
select is(public.can_receive_realtime_topic(format('org:%s', :'alpha')), false, 'realtime: an unbound session receives nothing');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- The due-items step
-- ---------------------------------------------------------------------------------
insert into :"alpha_schema".tasks (id, title, due_at, remind_at, status, completed_at, deleted_at, owner_id, created_by) values
  ('d0000000-0000-4000-8000-000000000001', 'Hatırlat', now() + interval '1 day', now() - interval '1 minute', 'open', null, null, :'alpha_sales', :'alpha_sales'),
  ('d0000000-0000-4000-8000-000000000002', 'Yakında', now() + interval '30 minutes', null, 'in_progress', null, null, :'alpha_sales', :'alpha_sales'),
  ('d0000000-0000-4000-8000-000000000003', 'Gecikti', now() - interval '1 hour', null, 'open', null, null, :'alpha_sales', :'alpha_sales'),
  ('d0000000-0000-4000-8000-000000000004', 'Bitti', now() - interval '1 hour', now() - interval '2 hours', 'done', now(), null, :'alpha_sales', :'alpha_sales'),
  ('d0000000-0000-4000-8000-000000000005', 'Silindi', now() - interval '1 hour', null, 'open', null, now(), :'alpha_sales', :'alpha_sales'),
  ('d0000000-0000-4000-8000-000000000006', 'Uzak', now() + interval '3 days', now() + interval '2 days', 'open', null, null, :'alpha_sales', :'alpha_sales'),
  ('d0000000-0000-4000-8000-000000000007', 'Vazgeçildi', now() - interval '1 hour', null, 'cancelled', null, null, :'alpha_sales', :'alpha_sales'),
  ('d0000000-0000-4000-8000-000000000008', 'Sena gecikti', now() - interval '1 hour', null, 'open', null, null, :'alpha_sales2', :'alpha_sales2'),
  ('d0000000-0000-4000-8000-000000000009', 'Sena hatırlat', now() + interval '1 day', now() - interval '1 minute', 'open', null, null, :'alpha_sales2', :'alpha_sales2');

-- Sena wants no overdue notices.
select pg_temp.act(:'s_sales2');
select public.save_notification_preferences(array['task_assigned', 'task_reminder', 'task_due', 'deal_assigned']) as prefs \gset
select is((:'prefs'::jsonb) -> 'kinds', '["task_assigned", "task_due", "task_reminder", "deal_assigned"]'::jsonb,
  'preferences are saved and answered in the list''s order');
select is(public.get_notification_preferences() -> 'available',
  '["task_assigned", "task_due", "task_overdue", "task_reminder", "deal_assigned", "customer_assigned", "contract_renewal"]'::jsonb,
  'preferences list every kind');
select is(public.save_notification_preferences(array['task_assigned', 'birthday']) #>> '{fields,kinds}', 'invalid',
  'an unknown kind is refused');
select is(public.get_notification_preferences() -> 'kinds', (:'prefs'::jsonb) -> 'kinds', 'and changes nothing');
select tests.reset_role();
select pg_temp.act(:'s_sales');
select is(public.get_notification_preferences() -> 'kinds', public.get_notification_preferences() -> 'available',
  'a member without preferences wants every kind');
select tests.reset_role();

-- The tasks as a person last read them (a day ago; triggers off to set it).
set session_replication_role = replica;
update :"alpha_schema".tasks set updated_at = '2026-01-01 12:00+00' where id::text like 'd0000000%';
set session_replication_role = default;
select private.notify_due_items(:'alpha') as first_run \gset
select private.notify_due_items(:'alpha') as second_run \gset
select is((select array_agg(distinct updated_at) from :"alpha_schema".tasks where id::text like 'd0000000%'), array['2026-01-01 12:00+00'::timestamptz],
  'the step''s marks leave the tasks'' updated_at as it was: a save begun before is not refused as stale');
select is(current_setting('crm.bookkeeping_update', true), 'off', 'and the bookkeeping flag is off again after the step');
select is((select jsonb_object_agg(t.title, coalesce(n.kinds, '[]'))
             from :"alpha_schema".tasks t
             left join (select record_id, jsonb_agg(kind order by kind) as kinds from private.notifications group by record_id) n
               on n.record_id = t.id
            where t.id::text like 'd0000000%'),
  '{"Hatırlat": ["task_reminder"], "Yakında": ["task_due"], "Gecikti": ["task_overdue"], "Bitti": [], "Silindi": [],
    "Uzak": [], "Vazgeçildi": [], "Sena gecikti": [], "Sena hatırlat": ["task_reminder"]}'::jsonb,
  'the due-items step: a reminder come, a task due within the hour, an overdue task; nothing done, cancelled, deleted or far');
select is((:'second_run'::jsonb), '{"task_due": 0, "task_overdue": 0, "task_reminder": 0}'::jsonb,
  'a second run announces nothing again');
select is((select count(*)::int from private.notifications where record_id::text like 'd0000000%' and user_id = :'alpha_sales'), 3,
  'each kind once per task');
select ok((select overdue_notified_at is not null from :"alpha_schema".tasks where id = 'd0000000-0000-4000-8000-000000000008'),
  'a kind the owner turned off is skipped but counted as announced');
select is((select array_agg(n.title order by n.title) from private.notifications n
            where n.kind = 'task_overdue' and n.user_id = :'alpha_admin'), array['Dün', 'Şimdi'],
  'the admin''s own overdue tasks are announced to them');

-- A new due time lets the notices go out again.
select pg_temp.act(:'s_sales');
select public.update_task('d0000000-0000-4000-8000-000000000003', jsonb_build_object('due_at', now() - interval '10 minutes'),
  (select updated_at from jsonb_to_record(public.get_task('d0000000-0000-4000-8000-000000000003') -> 'record') as r (updated_at timestamptz)))
  ->> 'success' as rescheduled \gset
select tests.reset_role();
select private.notify_due_items(:'alpha') ->> 'task_overdue' as third_run \gset
select is(:'third_run'::text, '1', 'a task given a new due time is announced overdue again');

-- ---------------------------------------------------------------------------------
-- The bell: only the caller's, only in the bound organization
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select public.create_task(jsonb_build_object('title', 'Alfa işi', 'owner_id', :'multi')) ->> 'success' as multi_alpha \gset
select tests.reset_role();
select pg_temp.act(:'s_beta');
select public.create_task(jsonb_build_object('title', 'Beta işi', 'owner_id', :'multi')) ->> 'success' as multi_beta \gset
select tests.reset_role();
select pg_temp.act(:'s_multi_a');
select public.get_notifications() as multi_a \gset
select tests.reset_role();
select pg_temp.act(:'s_multi_b');
select public.get_notifications() as multi_b \gset
select tests.reset_role();
select is(jsonb_build_array((:'multi_a'::jsonb) #>> '{notifications,0,title}', (:'multi_a'::jsonb) -> 'unread',
                            jsonb_array_length((:'multi_a'::jsonb) -> 'notifications')),
  '["Alfa işi", 1, 1]'::jsonb, 'a member of two organizations sees only the bound one''s notifications (alpha)');
select is(jsonb_build_array((:'multi_b'::jsonb) #>> '{notifications,0,title}', (:'multi_b'::jsonb) -> 'unread',
                            (:'multi_b'::jsonb) #>> '{notifications,0,actor_name}'),
  '["Beta işi", 1, "Berk Beta"]'::jsonb, '(and beta), with who did it');

select id as solo_notice from private.notifications where user_id = :'alpha_solo' limit 1 \gset
select pg_temp.act(:'s_sales');
select public.get_notifications(2) as page1 \gset
select public.get_notifications(10, ((:'page1'::jsonb) #>> '{notifications,1,created_at}')::timestamptz) as page2 \gset
select public.mark_notifications_read(array[:'solo_notice'::uuid]) as foreign_read \gset
select public.mark_notifications_read(array[((:'page1'::jsonb) #>> '{notifications,0,id}')::uuid]) as own_read \gset
select public.get_notifications(10, null, true) as unread_only \gset
select public.get_unread_notification_count() as unread_count \gset
select public.mark_notifications_read('{}') ->> 'code' as empty_read \gset
select public.mark_all_notifications_read() as all_read \gset
select public.get_unread_notification_count() ->> 'unread' as unread_after \gset
select tests.reset_role();
select is(jsonb_build_array(jsonb_array_length((:'page1'::jsonb) -> 'notifications'), (:'page1'::jsonb) -> 'unread',
                            jsonb_array_length((:'page2'::jsonb) -> 'notifications')),
  '[2, 4, 2]'::jsonb, 'notifications come a page at a time, newest first, older ones before a time');
select ok(((:'page1'::jsonb) #>> '{notifications,0,created_at}')::timestamptz > ((:'page1'::jsonb) #>> '{notifications,1,created_at}')::timestamptz
          and ((:'page2'::jsonb) #>> '{notifications,0,created_at}')::timestamptz < ((:'page1'::jsonb) #>> '{notifications,1,created_at}')::timestamptz,
  'the pages do not overlap');
select is((:'foreign_read'::jsonb) ->> 'updated', '0', 'marking another member''s notification read changes nothing');
select ok((select read_at is null from private.notifications where id = :'solo_notice'), 'it stays unread for its owner');
select is(jsonb_build_array((:'own_read'::jsonb) -> 'updated', (:'own_read'::jsonb) -> 'unread',
                            jsonb_array_length((:'unread_only'::jsonb) -> 'notifications'), (:'unread_count'::jsonb) -> 'unread'),
  '[1, 3, 3, 3]'::jsonb, 'marking one''s own read counts down; unread only lists the rest');
select is(:'empty_read'::text, 'invalid_input', 'an empty id list is refused');
select is(jsonb_build_array((:'all_read'::jsonb) -> 'updated', :'unread_after'::int), '[3, 0]'::jsonb, 'mark all read');
select is((select count(*)::int from private.notifications where user_id <> :'alpha_sales' and read_at is not null), 0,
  'no one else''s notification was marked read');
select tests.authenticate_as(:'alpha_admin', :'s_unbound');
select is(public.get_notifications() ->> 'code', 'organization_context_required', 'an unbound session gets no notifications');
select is(public.save_notification_preferences('{}') ->> 'code', 'organization_context_required', 'nor saves preferences');
select tests.reset_role();

-- Retention: read notifications older than 90 days go.
insert into private.notifications (organization_id, user_id, kind, title, created_at, read_at) values
  (:'alpha', :'alpha_sales', 'task_due', 'eski okunmuş', now() - interval '91 days', now() - interval '90 days'),
  (:'alpha', :'alpha_sales', 'task_due', 'eski okunmamış', now() - interval '91 days', null),
  (:'alpha', :'alpha_sales', 'task_due', 'yeni okunmuş', now() - interval '10 days', now());
select private.run_maintenance() ->> 'notifications' as pruned \gset
select is(jsonb_build_array(:'pruned'::int, (select array_agg(title order by title) from private.notifications where title like '%okun%')),
  '[1, ["eski okunmamış", "yeni okunmuş"]]'::jsonb, 'maintenance drops read notifications older than 90 days, keeps the rest');

-- ---------------------------------------------------------------------------------
-- Record transfer: tasks move with their reminders; nobody is told per record
-- ---------------------------------------------------------------------------------
insert into :"alpha_schema".tasks (id, title, due_at, remind_at, owner_id, created_by) values
  ('e0000000-0000-4000-8000-000000000001', 'Devredilen', now() + interval '2 days', now() - interval '1 minute', :'alpha_solo', :'alpha_solo');
select count(*) as notices_before from private.notifications \gset
select pg_temp.act(:'s_admin');
select public.transfer_user_records(:'alpha_solo', :'alpha_sales') #>> '{transferred,tasks}' as moved_tasks \gset
select tests.reset_role();
select is(jsonb_build_array(:'moved_tasks'::int, (select count(*)::int from private.notifications) - :notices_before),
  '[2, 0]'::jsonb, 'a transfer moves the tasks and notifies nobody per record');
select private.notify_due_items(:'alpha') as after_transfer \gset
select is((select array_agg(user_id) from private.notifications where record_id = 'e0000000-0000-4000-8000-000000000001'),
  array[:'alpha_sales'::uuid], 'the moved task''s reminder goes to its new owner');
select pg_temp.act(:'s_admin');
select public.create_task(jsonb_build_object('title', 'Devirden sonra', 'owner_id', :'alpha_sales2')) ->> 'success' as after \gset
select tests.reset_role();
select is((select count(*)::int from private.notifications where title = 'Devirden sonra'), 1,
  'after the transfer, assignments notify again in the same transaction');

-- ---------------------------------------------------------------------------------
-- The home dashboard (delta: New York time, 1 USD = 40 TRY, no EUR rate)
-- ---------------------------------------------------------------------------------
select tests.create_organization('delta', 'Delta A.Ş.') as delta \gset
select private.migrate_tenant(:'delta');
select schema_name as delta_schema from private.organizations where id = :'delta' \gset
update private.organization_settings set time_zone = 'America/New_York', exchange_rates = '{"USD": 40}' where organization_id = :'delta';
select tests.create_user('admin@delta.test', 'user', 'Deniz', 'Delta') as d_admin \gset
select tests.create_user('solo@delta.test', 'user', 'Defne', 'Kendi') as d_solo \gset
select tests.create_user('deals@delta.test', 'user', 'Doruk', 'Fırsat') as d_dealer \gset
select tests.add_member(:'d_admin', :'delta', 'admin');
insert into private.organization_roles (organization_id, key, name) values (:'delta', 'solo', 'Yalnız'), (:'delta', 'dealer', 'Fırsatçı');
insert into private.role_permissions (organization_id, role_key, module, action, scope) values
  (:'delta', 'solo', 'tasks', 'view', 'own'), (:'delta', 'solo', 'tasks', 'create', 'own'), (:'delta', 'solo', 'tasks', 'edit', 'own'),
  (:'delta', 'solo', 'deals', 'view', 'own'), (:'delta', 'solo', 'customers', 'view', 'all'),
  (:'delta', 'dealer', 'deals', 'view', 'all');
select tests.add_member(:'d_solo', :'delta', 'solo');
select tests.add_member(:'d_dealer', :'delta', 'dealer');
select gen_random_uuid() as s_d_admin, gen_random_uuid() as s_d_solo, gen_random_uuid() as s_d_dealer \gset
insert into sessions values (:'d_admin', :'s_d_admin', :'delta'), (:'d_solo', :'s_d_solo', :'delta'), (:'d_dealer', :'s_d_dealer', :'delta');
insert into auth.sessions (id, user_id) values (:'s_d_admin', :'d_admin'), (:'s_d_solo', :'d_solo'), (:'s_d_dealer', :'d_dealer');
insert into private.session_organizations (session_id, user_id, organization_id)
values (:'s_d_admin', :'d_admin', :'delta'), (:'s_d_solo', :'d_solo', :'delta'), (:'s_d_dealer', :'d_dealer', :'delta');

select date_trunc('month', now() at time zone 'America/New_York') at time zone 'America/New_York' as m0,
       date_trunc('quarter', now() at time zone 'America/New_York') at time zone 'America/New_York' as q0 \gset
select (:'m0'::timestamptz = :'q0'::timestamptz) as first_month \gset
insert into :"delta_schema".deals (id, title, stage, amount, currency, closed_at, lost_reason, deleted_at, owner_id, created_by) values
  ('da000000-0000-4000-8000-000000000001', 'L1', 'lead', 100, 'TRY', null, null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-000000000002', 'L2', 'lead', 10, 'USD', null, null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-000000000003', 'Defne''nin teklifi', 'proposal', 1000, 'TRY', null, null, null, :'d_solo', :'d_solo'),
  ('da000000-0000-4000-8000-000000000004', 'A', 'won', 1000, 'TRY', now(), null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-000000000005', 'B', 'won', 100, 'USD', now(), null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-000000000006', 'C', 'won', 500, 'TRY', :'q0', null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-000000000007', 'D', 'won', 700, 'TRY', (:'q0'::timestamptz) - interval '1 day', null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-000000000008', 'F', 'won', 50, 'EUR', now(), null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-000000000009', 'G', 'won', 999, 'TRY', now(), null, now(), :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-00000000000a', 'H', 'won', 200, 'TRY', now(), null, null, :'d_solo', :'d_solo'),
  ('da000000-0000-4000-8000-00000000000b', 'X', 'won', 10, 'TRY', :'m0', null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-00000000000c', 'Y', 'won', 20, 'TRY', (:'m0'::timestamptz) - interval '1 second', null, null, :'d_admin', :'d_admin'),
  ('da000000-0000-4000-8000-00000000000d', 'E', 'lost', 300, 'TRY', now(), 'fiyat', null, :'d_admin', :'d_admin');
insert into :"delta_schema".tasks (title, due_at, status, completed_at, deleted_at, priority, owner_id, created_by) values
  ('Gecikmiş', now() - interval '1 day', 'open', null, null, 'high', :'d_admin', :'d_admin'),
  ('Yarın', now() + interval '1 day', 'open', null, null, 'normal', :'d_admin', :'d_admin'),
  ('İki saat', now() + interval '2 hours', 'in_progress', null, null, 'urgent', :'d_admin', :'d_admin'),
  ('Tarihsiz', null, 'open', null, null, 'low', :'d_admin', :'d_admin'),
  ('Üç gün', now() + interval '3 days', 'open', null, null, 'normal', :'d_admin', :'d_admin'),
  ('Dört gün', now() + interval '4 days', 'open', null, null, 'normal', :'d_admin', :'d_admin'),
  ('Beş gün', now() + interval '5 days', 'open', null, null, 'normal', :'d_admin', :'d_admin'),
  ('Bitti', now() - interval '2 days', 'done', now(), null, 'normal', :'d_admin', :'d_admin'),
  ('Silindi', now() - interval '2 days', 'open', null, now(), 'normal', :'d_admin', :'d_admin'),
  ('Defne''nin', now() - interval '2 days', 'open', null, null, 'normal', :'d_solo', :'d_solo');
-- Defne's customers: ten changed now, one untouched for a year.
insert into :"delta_schema".customers (name, owner_id, created_by) select 'Müşteri ' || g, :'d_solo', :'d_solo' from generate_series(1, 10) g;
insert into :"delta_schema".customers (id, name, owner_id, created_by, created_at, updated_at)
values ('da000000-0000-4000-8000-0000000000c1', 'Eski Müşteri', :'d_solo', :'d_solo', now() - interval '1 year', now() - interval '1 year');

-- Activity on Defne's records (one transaction: the audit entries share a time and follow their ids).
select pg_temp.act(:'s_d_solo');
select public.create_task('{"title": "Defne''nin görevi"}') as solo_task \gset
select tests.reset_role();
select pg_temp.act(:'s_d_admin');
select public.update_task(((:'solo_task'::jsonb) #>> '{record,id}')::uuid, '{"title": "Defne''nin görevi (2)"}',
                          ((:'solo_task'::jsonb) #>> '{record,updated_at}')::timestamptz) ->> 'success' as solo_task_edited \gset
select public.add_record_note('deals', 'da000000-0000-4000-8000-000000000003', 'Fiyatı sordu') ->> 'success' as deal_note \gset
select public.add_record_note('customers', 'da000000-0000-4000-8000-0000000000c1', 'Yeniden aradı') ->> 'success' as customer_note \gset
select public.create_task('{"title": "Yöneticinin kendi işi"}') ->> 'success' as admin_own \gset
select public.get_dashboard() as dash_admin \gset
select tests.reset_role();
select pg_temp.act(:'s_d_solo');
select public.get_dashboard() as dash_solo \gset
select tests.reset_role();
select pg_temp.act(:'s_d_dealer');
select public.get_dashboard() as dash_dealer \gset
select tests.reset_role();
select pg_temp.act(:'s_beta');
select public.get_dashboard() as dash_beta \gset
select tests.reset_role();
select tests.authenticate_as(:'d_admin', :'s_unbound');
select public.get_dashboard() ->> 'code' as dash_unbound \gset
select tests.reset_role();

select is((select jsonb_agg(jsonb_build_array(p ->> 'key', p -> 'count', p -> 'amount', p -> 'totals') order by n)
             from jsonb_array_elements((:'dash_admin'::jsonb) -> 'pipeline') with ordinality e (p, n)),
  '[["lead", 2, 500, [{"currency": "TRY", "amount": 100}, {"currency": "USD", "amount": 10}]],
    ["qualified", 0, 0, []], ["proposal", 1, 1000, [{"currency": "TRY", "amount": 1000}]], ["negotiation", 0, 0, []]]'::jsonb,
  'dashboard: the pipeline per open stage in order, totals per currency and converted with the organization''s rate');
select is((:'dash_admin'::jsonb) #> '{won,quarter}',
  jsonb_build_object('count', case when :'first_month' then 6 else 7 end,
                     'totals', jsonb_build_array(jsonb_build_object('currency', 'TRY', 'amount', case when :'first_month' then 1710 else 1730 end),
                                                 '{"currency": "EUR", "amount": 50}'::jsonb, '{"currency": "USD", "amount": 100}'::jsonb),
                     'amount', case when :'first_month' then 5710 else 5730 end, 'unconverted', '["EUR"]'::jsonb),
  'dashboard: won this quarter (New York time): count, totals, converted amount, and the currency without a rate');
select is((:'dash_admin'::jsonb) #> '{won,month}',
  jsonb_build_object('count', case when :'first_month' then 6 else 5 end,
                     'totals', jsonb_build_array(jsonb_build_object('currency', 'TRY', 'amount', case when :'first_month' then 1710 else 1210 end),
                                                 '{"currency": "EUR", "amount": 50}'::jsonb, '{"currency": "USD", "amount": 100}'::jsonb),
                     'amount', case when :'first_month' then 5710 else 5210 end, 'unconverted', '["EUR"]'::jsonb),
  'dashboard: won this month, from the first moment of the month in the organization''s time zone');
select is(jsonb_build_array((:'dash_admin'::jsonb) #> '{lost,month,count}', (:'dash_admin'::jsonb) #> '{lost,quarter,amount}'),
  '[1, 300]'::jsonb, 'dashboard: lost this month and quarter');
select is(jsonb_build_array((:'dash_admin'::jsonb) #> '{tasks,open}', (:'dash_admin'::jsonb) #> '{tasks,overdue}',
                            (select jsonb_agg(t ->> 'title' order by n) from jsonb_array_elements((:'dash_admin'::jsonb) #> '{tasks,next}') with ordinality e (t, n))),
  '[8, 1, ["Gecikmiş", "İki saat", "Yarın", "Üç gün", "Dört gün"]]'::jsonb,
  'dashboard: my open and overdue tasks and the next five by due time (in progress too; done, deleted and others'' not)');
select is(((:'dash_admin'::jsonb) #> '{tasks,next,1}') - 'id' - 'due_at', '{"title": "İki saat", "priority": "urgent", "status": "in_progress"}'::jsonb,
  'dashboard: a next task carries its title, due time and priority');
select is((select jsonb_agg(jsonb_build_array(a ->> 'action', a ->> 'module', a ->> 'title', a ->> 'actor_name') order by n)
             from jsonb_array_elements((:'dash_solo'::jsonb) -> 'recent_activity') with ordinality e (a, n)),
  '[["note", "customers", "Eski Müşteri", "Deniz Delta"], ["note", "deals", "Defne''nin teklifi", "Deniz Delta"],
    ["update", "tasks", "Defne''nin görevi (2)", "Deniz Delta"], ["create", "tasks", "Defne''nin görevi (2)", "Defne Kendi"]]'::jsonb,
  'dashboard: recent activity on my records, newest first, with who did it (a note on a long-untouched record too; nothing of others'')');
select is(jsonb_build_array((:'dash_solo'::jsonb) ->> 'deals_scope',
                            (select jsonb_agg(jsonb_build_array(p ->> 'key', p -> 'count')) from jsonb_array_elements((:'dash_solo'::jsonb) -> 'pipeline') p
                              where (p ->> 'count')::int > 0),
                            (:'dash_solo'::jsonb) #> '{won,month,amount}', (:'dash_solo'::jsonb) #> '{tasks,open}'),
  '["own", [["proposal", 1]], 200, 2]'::jsonb, 'dashboard: own scope counts only one''s own deals and tasks');
select is(jsonb_build_array((:'dash_dealer'::jsonb) -> 'tasks', (:'dash_dealer'::jsonb) #> '{won,quarter,count}' is not null),
  '[null, true]'::jsonb, 'dashboard: a module one may not view is left out');
select is(jsonb_build_array((:'dash_beta'::jsonb) #> '{won,quarter,count}', (:'dash_beta'::jsonb) -> 'recent_activity',
                            (select sum((p ->> 'count')::int) from jsonb_array_elements((:'dash_beta'::jsonb) -> 'pipeline') p)),
  '[0, [], 0]'::jsonb, 'dashboard: another organization sees none of it');
select is(:'dash_unbound'::text, 'organization_context_required', 'dashboard: an unbound session is refused');
