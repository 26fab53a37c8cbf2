-- Record transfer (spec sections 3, 7, 9): analyze_user_records, get_users_for_transfer,
-- transfer_user_records. Every RPC is tried by anon, a plain user, an admin, a super
-- admin and an admin of another organization. Answers are captured with \gset while
-- acting and checked as the test runner.
begin;
select plan(60);
-- The privileged RPCs want the request token an Edge Function forwards: every identity sends its session's.
select tests.send_request_tokens();

-- ---------------------------------------------------------------------------------
-- Organizations, people, sessions
-- ---------------------------------------------------------------------------------
select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
-- Registered, never provisioned: no tables.
select tests.create_organization('gamma', 'Gamma Ltd.') as gamma \gset
select private.migrate_tenant(:'alpha') as alpha_version \gset
select private.migrate_tenant(:'beta') as beta_version \gset
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset

select tests.create_user('root@crm.test', 'super_admin', 'Sema', 'Kök') as super \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayla', 'Kaya') as alpha_admin \gset
select tests.create_user('user@alpha.test', 'user', 'Ali', 'Demir') as alpha_user \gset
select tests.create_user('giver@alpha.test', 'user', 'Veren', 'Kişi') as giver \gset
select tests.create_user('taker@alpha.test', 'user', 'Alan', 'Kişi') as taker \gset
select tests.create_user('inactive@alpha.test', 'user', 'Pasif', 'Üye') as inactive_member \gset
select tests.create_user('locked@alpha.test', 'user', 'Kilitli', 'Üye') as locked_member \gset
select tests.create_user('disabled@alpha.test', 'user', 'Kapalı', 'Hesap') as disabled_member \gset
select tests.create_user('admin@beta.test', 'user', 'Bora', 'Tan') as beta_admin \gset
select tests.create_user('user@beta.test', 'user', 'Berk', 'Er') as beta_user \gset
select tests.create_user('giver@beta.test', 'user', 'Beta', 'Veren') as beta_giver \gset
select tests.create_user('admin@gamma.test', 'user', 'Gaye', 'Ma') as gamma_admin \gset

select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_user', :'alpha', 'user');
select tests.add_member(:'giver', :'alpha', 'sales');
select tests.add_member(:'taker', :'alpha', 'sales');
select tests.add_member(:'inactive_member', :'alpha', 'user');
select tests.add_member(:'locked_member', :'alpha', 'user');
select tests.add_member(:'disabled_member', :'alpha', 'user');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select tests.add_member(:'beta_user', :'beta', 'user');
select tests.add_member(:'beta_giver', :'beta', 'user');
select tests.add_member(:'gamma_admin', :'gamma', 'admin');
update private.memberships set is_active = false where user_id = :'inactive_member';
update private.profiles set locked_by_admin = true, locked_until = now() + interval '365 days' where id = :'locked_member';
update private.profiles set is_active = false where id = :'disabled_member';

-- What the giver owns in alpha: 13 transferable rows in 8 tables, plus a document and a
-- note, which stay with their author and are not counted.
insert into :"alpha_schema".customers (name, owner_id, created_by) values ('Acme', :'giver', :'giver');
insert into :"alpha_schema".contacts (first_name, owner_id, created_by)
values ('Ece', :'giver', :'giver'), ('Efe', :'giver', :'giver');
insert into :"alpha_schema".deals (title, owner_id, created_by)
values ('Deal 1', :'giver', :'giver'), ('Deal 2', :'giver', :'giver');
insert into :"alpha_schema".tasks (title, owner_id, created_by)
values ('Call', :'giver', :'giver'), ('Visit', :'giver', :'giver'), ('Mail', :'giver', :'giver');
insert into :"alpha_schema".contracts (title, owner_id, created_by) values ('Contract', :'giver', :'giver');
insert into :"alpha_schema".quotes (quote_number, owner_id, created_by) values ('TKL-1', :'giver', :'giver')
returning id as quote_id \gset
insert into :"alpha_schema".quote_items (quote_id, description, owner_id, created_by)
values (:'quote_id', 'Line 1', :'giver', :'giver'), (:'quote_id', 'Line 2', :'giver', :'giver');
insert into :"alpha_schema".document_templates (kind, name, owner_id, created_by) values ('quote', 'Std', :'giver', :'giver');
insert into :"alpha_schema".documents (title, owner_id, created_by) values ('Scan', :'giver', :'giver');
insert into :"alpha_schema".notes (entity_type, entity_id, body, owner_id, created_by)
values ('deal', gen_random_uuid(), 'Note', :'giver', :'giver');
-- Others' records, which no transfer may touch.
insert into :"alpha_schema".deals (title, owner_id, created_by) values ('Taker deal', :'taker', :'taker');
insert into :"alpha_schema".deals (title, owner_id, created_by) values ('User deal', :'alpha_user', :'alpha_user');
insert into :"alpha_schema".deals (title, owner_id, created_by) values ('Old deal', :'inactive_member', :'inactive_member');
insert into :"beta_schema".deals (title, owner_id, created_by)
values ('Beta 1', :'beta_giver', :'beta_giver'), ('Beta 2', :'beta_giver', :'beta_giver');

select gen_random_uuid() as s_super, gen_random_uuid() as s_super_free, gen_random_uuid() as s_admin,
       gen_random_uuid() as s_admin_free, gen_random_uuid() as s_user, gen_random_uuid() as s_badmin,
       gen_random_uuid() as s_gadmin \gset

select tests.authenticate_as(:'super', :'s_super');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_super \gset
select tests.reset_role();
select tests.authenticate_as(:'super', :'s_super_free');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_admin \gset
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select tests.reset_role();
select tests.authenticate_as(:'alpha_user', :'s_user');
select public.bind_session_organization(:'alpha') ->> 'success' as bound_user \gset
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.bind_session_organization(:'beta') ->> 'success' as bound_badmin \gset
select tests.reset_role();
select tests.authenticate_as(:'gamma_admin', :'s_gadmin');
select public.bind_session_organization(:'gamma') ->> 'success' as bound_gadmin \gset
select tests.reset_role();

select is((select count(*)::int from private.session_organizations
            where session_id in (:'s_super', :'s_admin', :'s_user', :'s_badmin', :'s_gadmin')), 5,
  'the acting sessions are bound');

-- ---------------------------------------------------------------------------------
-- anon: none of the RPCs is granted
-- ---------------------------------------------------------------------------------
select tests.act_as_anon();
select throws_ok(format('select public.analyze_user_records(%L, %L)', :'giver', 'alpha'), '42501', null,
  'anon: analyze_user_records is refused by the database');
select throws_ok($$select public.get_users_for_transfer('alpha')$$, '42501', null,
  'anon: get_users_for_transfer is refused by the database');
select throws_ok(format('select public.transfer_user_records(%L, %L, %L)', :'giver', :'taker', 'alpha'), '42501', null,
  'anon: transfer_user_records is refused by the database');
select tests.reset_role();

-- =================================================================================
-- analyze_user_records
-- =================================================================================

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.analyze_user_records(:'giver') as r \gset
select public.analyze_user_records(:'taker', 'ALPHA') as r2 \gset
select public.analyze_user_records(:'beta_user') as r3 \gset
select public.analyze_user_records(:'beta_giver', 'beta') as r4 \gset
select tests.reset_role();
select is(:'r'::jsonb -> 'counts',
  '{"deals": 2, "customers": 1, "tasks": 3, "contracts": 1, "quotes": 1, "templates": 1}'::jsonb,
  'analyze: counts per transfer kind');
select is(:'r'::jsonb -> 'tables',
  '{"contacts": 2, "quote_items": 2, "document_templates": 1, "deals": 2, "customers": 1, "tasks": 3, "contracts": 1, "quotes": 1}'::jsonb,
  'analyze: the detail per transferable table');
select is((:'r'::jsonb ->> 'total')::int, 13, 'analyze: the total of every transferable table');
select is((:'r2'::jsonb -> 'counts' ->> 'deals') || '|' || (:'r2'::jsonb ->> 'total'), '1|1',
  'analyze: the admin may name their own organization, in any case');
select is(:'r3'::jsonb ->> 'error', 'User not found', 'analyze: another organization''s member is User not found');
select is(:'r4'::jsonb ->> 'error', 'Organization context required', 'analyze: an admin naming another organization is refused');

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.analyze_user_records(:'giver') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'analyze: a plain user is refused');

select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select public.analyze_user_records(:'giver') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Organization context required', 'analyze: an unbound session is refused');

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.analyze_user_records(:'giver') as r \gset
select public.analyze_user_records(:'giver', 'alpha') as r2 \gset
select public.analyze_user_records(:'beta_giver') as r3 \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'User not found', 'analyze: the beta admin cannot analyze an alpha member');
select is(:'r2'::jsonb ->> 'error', 'Organization context required', 'analyze: the beta admin naming alpha is refused');
select is(:'r3'::jsonb -> 'counts' ->> 'deals', '2', 'analyze: the beta admin analyzes a beta member');

select tests.authenticate_as(:'gamma_admin', :'s_gadmin');
select public.analyze_user_records(:'gamma_admin') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Required tables not found', 'analyze: an organization without tables');

select tests.authenticate_as(:'super', :'s_super_free');
select public.analyze_user_records(:'beta_giver', 'beta') as r \gset
select public.analyze_user_records(:'giver', 'alpha') as r2 \gset
select public.analyze_user_records(:'giver') as r3 \gset
select tests.reset_role();
select is(:'r'::jsonb -> 'counts' ->> 'deals', '2', 'analyze: the super admin names beta');
select is((:'r2'::jsonb ->> 'total')::int, 13, 'analyze: the super admin names alpha');
select is(:'r3'::jsonb ->> 'error', 'Organization context required', 'analyze: a super admin with no organization at all is refused');

-- =================================================================================
-- get_users_for_transfer
-- =================================================================================

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_users_for_transfer(null, :'giver') as r \gset
select public.get_users_for_transfer() as r2 \gset
select public.get_users_for_transfer('beta') as r3 \gset
select tests.reset_role();
select is((select array_agg(u ->> 'email' order by u ->> 'email') from jsonb_array_elements(:'r'::jsonb -> 'users') u),
  array['admin@alpha.test', 'taker@alpha.test', 'user@alpha.test'],
  'transfer list: active usable alpha members, without the excluded one');
select is((select array_agg(u ->> 'email' order by u ->> 'email') from jsonb_array_elements(:'r2'::jsonb -> 'users') u),
  array['admin@alpha.test', 'giver@alpha.test', 'taker@alpha.test', 'user@alpha.test'],
  'transfer list: without exclusion the giver is listed too; inactive, locked and disabled never');
select is(:'r3'::jsonb ->> 'error', 'Organization context required', 'transfer list: an admin naming another organization is refused');

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.get_users_for_transfer() as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'transfer list: a plain user is refused');

select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select public.get_users_for_transfer() as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Organization context required', 'transfer list: an unbound session is refused');

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.get_users_for_transfer() as r \gset
select public.get_users_for_transfer('alpha') as r2 \gset
select tests.reset_role();
select is((select array_agg(u ->> 'email' order by u ->> 'email') from jsonb_array_elements(:'r'::jsonb -> 'users') u),
  array['admin@beta.test', 'giver@beta.test', 'user@beta.test'], 'transfer list: the beta admin sees beta members only');
select is(:'r2'::jsonb ->> 'error', 'Organization context required', 'transfer list: the beta admin naming alpha is refused');

select tests.authenticate_as(:'super', :'s_super');
select public.get_users_for_transfer('beta', :'beta_giver') as r \gset
select tests.reset_role();
select is((select array_agg(u ->> 'email' order by u ->> 'email') from jsonb_array_elements(:'r'::jsonb -> 'users') u),
  array['admin@beta.test', 'user@beta.test'], 'transfer list: the super admin (in alpha) lists beta by slug');

-- =================================================================================
-- transfer_user_records: refusals
-- =================================================================================

select tests.authenticate_as(:'alpha_user', :'s_user');
select public.transfer_user_records(:'giver', :'alpha_user') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Admin privileges required', 'transfer: a plain user is refused');

select tests.authenticate_as(:'alpha_admin', :'s_admin_free');
select public.transfer_user_records(:'giver', :'taker') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Organization context required', 'transfer: an unbound session is refused');

select tests.authenticate_as(:'gamma_admin', :'s_gadmin');
select public.transfer_user_records(:'gamma_admin', :'gamma_admin') as r \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'Required tables not found', 'transfer: an organization without tables');

select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.transfer_user_records(:'giver', :'taker') as r \gset
select public.transfer_user_records(:'giver', :'taker', 'alpha') as r2 \gset
select public.transfer_user_records(:'beta_giver', :'giver') as r3 \gset
select tests.reset_role();
select is(:'r'::jsonb ->> 'error', 'User not found', 'transfer: the beta admin cannot move alpha members'' records');
select is(:'r2'::jsonb ->> 'error', 'Organization context required', 'transfer: the beta admin naming alpha is refused');
select is(:'r3'::jsonb ->> 'error', 'User not found', 'transfer: the beta admin cannot give to an alpha member');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'giver', :'taker', 'beta') as r \gset
select is(:'r'::jsonb ->> 'error', 'Organization context required', 'transfer: the alpha admin naming beta is refused');
select public.transfer_user_records(:'giver', :'giver') as r \gset
select is(:'r'::jsonb ->> 'error', 'Transfer error: choose two different users', 'transfer: from = to is refused');
select public.transfer_user_records(:'giver', :'beta_user') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'transfer: a receiver from another organization is User not found');
select public.transfer_user_records(:'beta_giver', :'taker') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'transfer: a giver from another organization is User not found');
select public.transfer_user_records(:'giver', :'inactive_member') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'transfer: an inactive member cannot receive');
select public.transfer_user_records(:'giver', :'locked_member') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'transfer: a locked account cannot receive');
select public.transfer_user_records(:'giver', :'disabled_member') as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'transfer: a disabled account cannot receive');
select public.transfer_user_records(:'giver', gen_random_uuid()) as r \gset
select is(:'r'::jsonb ->> 'error', 'User not found', 'transfer: an unknown receiver is User not found');
select public.transfer_user_records(:'giver', :'taker', null, array['deals', 'documents']) as r \gset
select is(:'r'::jsonb ->> 'code', 'invalid_transfer_kind', 'transfer: a kind that is not a transfer kind is refused, with the others');
select tests.reset_role();

select is((select count(*)::int from :"alpha_schema".deals where owner_id = :'giver')
          + (select count(*)::int from :"alpha_schema".tasks where owner_id = :'giver')
          + (select count(*)::int from :"alpha_schema".customers where owner_id = :'giver'), 6,
  'transfer: the refused transfers moved nothing');

-- Atomicity: a failing table rolls back the tables already moved.
create function tests.refuse_update_070() returns trigger language plpgsql as $$
begin
  raise exception 'updates refused for the test';
end;
$$;
create trigger refuse_update_070 before update on :"alpha_schema".tasks
  for each row execute function tests.refuse_update_070();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'giver', :'taker') as r \gset
select tests.reset_role();
drop trigger refuse_update_070 on :"alpha_schema".tasks;
select is((:'r'::jsonb ->> 'success') || '|' || (:'r'::jsonb ->> 'error'), 'false|Transfer error',
  'transfer: a failure in one table answers Transfer error');
select is((select count(*)::int from :"alpha_schema".deals where owner_id = :'giver'), 2,
  'transfer: after the failure the deals (moved first) are still the giver''s');
select is((select count(*)::int from :"alpha_schema".customers where owner_id = :'giver')
          + (select count(*)::int from :"alpha_schema".contacts where owner_id = :'giver')
          + (select count(*)::int from :"alpha_schema".tasks where owner_id = :'giver'), 6,
  'transfer: after the failure customers, contacts and tasks are still the giver''s');
select is((select count(*)::int from :"alpha_schema".deals where owner_id = :'taker'), 1,
  'transfer: after the failure the receiver has only their own deal');

-- =================================================================================
-- transfer_user_records: what moves
-- =================================================================================

-- Defaults: deals, customers (with contacts) and tasks.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'giver', :'taker') as r \gset
select tests.reset_role();
select is(:'r'::jsonb -> 'transferred', '{"deals": 2, "customers": 1, "tasks": 3}'::jsonb,
  'transfer: by default deals, customers and tasks move, with their counts');
select is((select count(*)::int from :"alpha_schema".deals where owner_id = :'taker') || '|'
          || (select count(*)::int from :"alpha_schema".customers where owner_id = :'taker') || '|'
          || (select count(*)::int from :"alpha_schema".contacts where owner_id = :'taker') || '|'
          || (select count(*)::int from :"alpha_schema".tasks where owner_id = :'taker'),
  '3|1|2|3', 'transfer: the receiver now owns the deals, customers, contacts and tasks');
select is((select count(*)::int from :"alpha_schema".contracts where owner_id = :'giver') || '|'
          || (select count(*)::int from :"alpha_schema".quotes where owner_id = :'giver') || '|'
          || (select count(*)::int from :"alpha_schema".quote_items where owner_id = :'giver') || '|'
          || (select count(*)::int from :"alpha_schema".document_templates where owner_id = :'giver'),
  '1|1|2|1', 'transfer: by default contracts, quotes (and items) and templates stay');
select is((select count(*)::int from :"alpha_schema".deals where owner_id = :'alpha_user'), 1,
  'transfer: a third member''s deal is untouched');
select is((select count(*)::int from :"alpha_schema".deals where created_by = :'giver' and owner_id = :'taker'), 2,
  'transfer: created_by is kept');
select ok(exists (select 1 from private.audit_log where organization_id = :'alpha' and actor_id = :'alpha_admin'
                   and action = 'user.records_transferred' and target_id = :'giver'
                   and details ->> 'to_user_id' = :'taker'),
  'transfer: an audit_log row records the transfer');

-- Kinds named: the rest.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'giver', :'taker', 'alpha', array['contracts', 'quotes', 'templates']) as r \gset
select tests.reset_role();
select is(:'r'::jsonb -> 'transferred', '{"contracts": 1, "quotes": 1, "templates": 1}'::jsonb,
  'transfer: the kinds named move contracts, quotes and templates, with their counts');
select is((select count(*)::int from :"alpha_schema".contracts where owner_id = :'taker') || '|'
          || (select count(*)::int from :"alpha_schema".quotes where owner_id = :'taker') || '|'
          || (select count(*)::int from :"alpha_schema".quote_items where owner_id = :'taker') || '|'
          || (select count(*)::int from :"alpha_schema".document_templates where owner_id = :'taker'),
  '1|1|2|1', 'transfer: the receiver now owns contracts, quotes, quote items and templates');
select is((select count(*)::int from :"alpha_schema".deals where owner_id = :'taker'), 3,
  'transfer: kinds not named move nothing more');

-- An inactive member's records can still be handed over.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'inactive_member', :'alpha_user') as r \gset
select tests.reset_role();
select is((select count(*)::int from :"alpha_schema".deals where owner_id = :'alpha_user'), 2,
  'transfer: a deactivated member''s records go to an active one');

-- The beta admin in beta, and the super admin naming any organization.
select tests.authenticate_as(:'beta_admin', :'s_badmin');
select public.transfer_user_records(:'beta_giver', :'beta_user', null, array['deals']) as r \gset
select tests.reset_role();
select is(:'r'::jsonb -> 'transferred', '{"deals": 2}'::jsonb, 'transfer: the beta admin moves beta records');
select tests.authenticate_as(:'super', :'s_super');
select public.transfer_user_records(:'beta_user', :'beta_admin', 'beta', array['deals']) as r \gset
select tests.reset_role();
select is((select count(*)::int from :"beta_schema".deals where owner_id = :'beta_admin'), 2,
  'transfer: the super admin (in alpha) moves beta records by naming beta');

-- After every kind has moved, the giver no longer blocks deletion.
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.transfer_user_records(:'giver', :'taker', 'alpha', array['deals', 'customers', 'tasks', 'contracts', 'quotes', 'templates']) as r \gset
select public.delete_user_secure(:'giver') as r2 \gset
select tests.reset_role();
select is(:'r2'::jsonb ->> 'code', null,
  'transfer: once every transfer kind has been moved, delete_user_secure does not refuse with has_records');

select * from finish();
rollback;
