-- A refused record action never reads as success: delete, restore, edit and bulk edit of
-- a record another member owns (scope own) answer not_record_owner, with the refused ids
-- and their reason; a batch answers what it did and what it refused; a record the caller
-- may not see, or another organization's, stays not_found (nothing is revealed); the
-- record is still there afterwards. Per role (user, viewer, an own-view role) and for a
-- member of another organization.
begin;
select plan(34);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Umut', 'Kullanıcı') as alpha_user \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vildan', 'İzleyici') as alpha_viewer \gset
select tests.create_user('own@alpha.test', 'user', 'Oya', 'Kendi') as alpha_own \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
-- A role that sees and deletes only its own records.
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'own_only', 'Yalnız Kendi');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
select :'alpha', 'own_only', 'customers', a, 'own' from unnest(array['view', 'create', 'edit', 'delete']) a;
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'alpha_own', :'alpha', 'own_only');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_user, gen_random_uuid() as s_viewer,
       gen_random_uuid() as s_own, gen_random_uuid() as s_beta \gset
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select public.create_customer('{"name": "Ağaoğlu Enerji"}') #>> '{record,id}' as admins \gset
select public.create_customer('{"name": "Çöpteki Firma"}') #>> '{record,id}' as admins_trashed \gset
select public.delete_customers(array[:'admins_trashed']::uuid[]) ->> 'changed' as n \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.bind_session_organization(:'alpha') ->> 'success' as bound \gset
select public.create_customer('{"name": "Kendi Müşterim"}') #>> '{record,id}' as users \gset
select public.get_customer(:'admins') #>> '{record,updated_at}' as admins_at \gset
select tests.reset_role();
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'alpha_own', :'s_own', :'alpha');
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.bind_session_organization(:'beta') ->> 'success' as bound \gset
select public.create_customer('{"name": "Beta Müşterisi"}') #>> '{record,id}' as betas \gset
select tests.reset_role();

-- A member with view all, edit and delete own (role user).
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.delete_customers(array[:'admins']::uuid[]) as answer \gset
select is((:'answer'::jsonb) ->> 'success', 'false', 'deleting another member''s customer is not a success');
select is((:'answer'::jsonb) ->> 'code', 'not_record_owner', 'it is refused as another member''s record');
select is((:'answer'::jsonb) ->> 'error', 'This record belongs to another user', 'with the refusal''s text');
select is((:'answer'::jsonb) -> 'refused', jsonb_build_array(jsonb_build_object('id', :'admins', 'code', 'not_record_owner')),
  'naming the refused record and why');
select is((:'answer'::jsonb) ->> 'changed', '0', 'nothing changed');
select is(public.get_customer(:'admins') ->> 'success', 'true', 'the customer is still there');

select public.delete_customers(array[:'users', :'admins', :'admins']::uuid[]) as answer \gset
select is((:'answer'::jsonb) - 'refused', '{"success": true, "changed": 1, "skipped": 1}'::jsonb,
  'a batch deletes what the caller may and counts the rest (each id once)');
select is((:'answer'::jsonb) -> 'refused', jsonb_build_array(jsonb_build_object('id', :'admins', 'code', 'not_record_owner')),
  'and lists the refused record with its reason');
select is(public.restore_customers(array[:'users']::uuid[]) ->> 'changed', '1', 'the caller restores their own');
select is(public.restore_customers(array[:'admins_trashed']::uuid[]) ->> 'code', 'not_record_owner',
  'restoring another member''s customer is refused as theirs');
select is(public.restore_customers(array[:'users']::uuid[]) ->> 'code', 'not_found',
  'restoring a record that is not in the trash is not found, not a success');
select is(public.delete_customers(array[gen_random_uuid()]) ->> 'code', 'not_found', 'an unknown id is not found');
select is(public.delete_customers(array[:'betas']::uuid[]) ->> 'code', 'not_found',
  'another organization''s customer is not found, not "another member''s"');

select is(public.update_customer(:'admins', '{"name": "Ele Geçti"}', :'admins_at') ->> 'code', 'not_record_owner',
  'editing another member''s customer is refused as theirs');
select is(public.update_customer(:'betas', '{"name": "Ele Geçti"}', now()) ->> 'code', 'not_found',
  'editing another organization''s is not found');
select public.bulk_update_customers(array[:'admins']::uuid[], '{"status": "passive"}') as answer \gset
select is((:'answer'::jsonb) ->> 'code', 'not_record_owner', 'a bulk edit of only others'' records is refused');
select is((:'answer'::jsonb) ->> 'updated', '0', 'having updated none');
select public.bulk_update_customers(array[:'users', :'admins']::uuid[], '{"status": "passive"}') as answer \gset
select is((:'answer'::jsonb) - 'refused', '{"success": true, "updated": 1, "skipped": 1}'::jsonb,
  'a mixed bulk edit updates the caller''s own');
select is((:'answer'::jsonb) #>> '{refused,0,code}', 'not_record_owner', 'and names why the other was skipped');
select tests.reset_role();

-- A viewer may not delete at all: the module guard answers, before any record.
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.delete_customers(array[:'admins']::uuid[]) ->> 'code', 'permission_denied', 'a viewer may not delete');
select is(public.update_customer(:'admins', '{"name": "X"}', :'admins_at') ->> 'code', 'permission_denied', 'nor edit');
select tests.reset_role();

-- A role that sees only its own records learns nothing about others'.
select tests.authenticate_as(:'alpha_own', :'s_own');
select is(public.delete_customers(array[:'admins']::uuid[]) ->> 'code', 'not_found',
  'an own-view member deleting a record they cannot see gets not_found');
select is(public.update_customer(:'admins', '{"name": "X"}', :'admins_at') ->> 'code', 'not_found', 'editing it too');
select is(public.bulk_update_customers(array[:'admins']::uuid[], '{"status": "passive"}') ->> 'code', 'not_found',
  'bulk editing it too');
select tests.reset_role();

-- Another organization's admin.
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.delete_customers(array[:'admins']::uuid[]) as answer \gset
select is((:'answer'::jsonb) ->> 'code', 'not_found', 'another organization''s admin gets not_found');
select is((:'answer'::jsonb) -> 'refused', jsonb_build_array(jsonb_build_object('id', :'admins', 'code', 'not_found')),
  'with the id listed as not found');
select tests.reset_role();

-- The owner's side: the record is untouched, and an admin (scope all) deletes it.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.get_customer(:'admins') #>> '{record,name}', 'Ağaoğlu Enerji', 'the refused calls changed nothing');
select is(public.get_customer(:'admins') #>> '{record,status}', 'lead', 'not even the status');
select is(public.delete_customers(array[:'admins']::uuid[]) - 'refused', '{"success": true, "changed": 1, "skipped": 0}'::jsonb,
  'an admin deletes it');
select is(public.delete_customers(array[:'admins']::uuid[]) ->> 'code', 'not_found', 'deleting it twice is not a success');
select tests.reset_role();

-- A record that cannot come back because a live one has taken its place under a unique rule
-- (the external id here, a contract's next term likewise) is refused as restore_conflict,
-- named among the others; the rest of the batch is restored.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.create_customer('{"name": "Eski Kayıt", "external_id": "ERP-1"}') #>> '{record,id}' as old_one \gset
select public.create_customer('{"name": "Başka Silinen"}') #>> '{record,id}' as other_one \gset
select public.delete_customers(array[:'old_one', :'other_one']::uuid[]) ->> 'changed' as n \gset
select public.create_customer('{"name": "Yeni Kayıt", "external_id": "ERP-1"}') #>> '{record,id}' as new_one \gset
select public.restore_customers(array[:'old_one', :'other_one']::uuid[]) as answer \gset
select is(jsonb_build_array((:'answer'::jsonb) ->> 'changed', (:'answer'::jsonb) -> 'refused'),
  jsonb_build_array('1', jsonb_build_array(jsonb_build_object('id', :'old_one', 'code', 'restore_conflict'))),
  'a record whose place a live one took stays in the trash, named; the rest is restored');
select is(public.restore_customers(array[:'old_one']::uuid[]) ->> 'code', 'restore_conflict',
  'alone, its restore is refused with that reason, not an error');
select tests.reset_role();
select is((select count(*)::int from private.audit_log where action = 'customers.restore' and target_id in (:'old_one', :'other_one')), 1,
  'only the restored record is audited');
select is((select deleted_at is not null from :"alpha_schema".customers where id = :'old_one'), true, 'and it is still deleted');

select * from finish();
rollback;
