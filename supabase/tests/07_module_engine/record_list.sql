-- The record engine's list: range filters on dates and numbers, and a broad search (the
-- planner expects more than 20,000 matches) that is neither counted nor sorted by name,
-- answered newest first and saying so (sorted_by).
begin;
select plan(14);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select gen_random_uuid() as s_admin \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select o.schema_name as alpha_schema from private.organizations o where o.id = :'alpha' \gset

-- Within this test only, customers may be filtered on created_at (a timestamp column): a
-- declared field of that name, as a module would declare it.
insert into private.module_fields (module, key, position, type, label_tr, label_en, writable, filterable, own_rule, own_ui)
values ('customers', 'created_at', 1000, 'datetime', 'Eklenme', 'Added', false, true, true, true);

-- 25,000 customers: "Işık" in one of every hundred names, created a minute apart (the
-- newest is "Işık 25000"), then analyzed so the planner knows the table.
select format($$insert into %I.customers (name, owner_id, created_by, created_at)
  select case when g %% 100 = 0 then 'Işık ' else 'Kuzey ' end || g, %L, %L, now() - ((25000 - g) || ' minutes')::interval
    from generate_series(1, 25000) g$$, :'alpha_schema', :'alpha_admin', :'alpha_admin') as fill \gset
select lives_ok(:'fill', '25,000 customers are inserted');
select format('analyze %I.customers', :'alpha_schema') as analyze_it \gset
:analyze_it;

select tests.authenticate_as(:'alpha_admin', :'s_admin');

-- Ranges: from inclusive, to exclusive, either may be absent.
select is((public.list_customers(null, jsonb_build_object('created_at', jsonb_build_object(
  'from', (now() - interval '10 minutes 30 seconds')::text)), null, null, 200) ->> 'total')::int, 11,
  'a range with only "from" keeps the newest eleven');
select is((public.list_customers(null, jsonb_build_object('created_at', jsonb_build_object(
  'from', (now() - interval '10 minutes 30 seconds')::text, 'to', (now() - interval '5 minutes 30 seconds')::text)),
  null, null, 200) ->> 'total')::int, 5, 'with "to" as well, five');
select is(public.list_customers(null, '{"created_at": {"from": "yesterday-ish"}}') ->> 'code', 'invalid_input',
  'a range bound that is not a date is refused');
select is(public.list_customers(null, '{"created_at": {"after": "2026-01-01"}}') ->> 'code', 'invalid_input',
  'a range knows only from and to');
select is(public.list_customers(null, '{"status": {"from": "a"}}') ->> 'code', 'invalid_input',
  'a text column takes no range');

-- A narrow search is counted exactly and sorted by name as asked.
select public.list_customers('isik', null, 'name', false, 5) as narrow \gset
select is((:'narrow'::jsonb) ->> 'total', '250', 'a search matching 250 is counted exactly');
select is((:'narrow'::jsonb) ->> 'sorted_by', 'name', 'and sorted by name');
select is((:'narrow'::jsonb) #>> '{records,0,name}', 'Işık 100', 'folded, in Turkish order');

-- A broad search: not counted, newest first, and the answer says so.
select public.list_customers('e', null, 'name', false, 3) as broad \gset
select is((:'broad'::jsonb) ->> 'total_exact', 'false', 'a broad search is not counted exactly');
select is((:'broad'::jsonb) ->> 'sorted_by', 'created_at', 'nor sorted by name: newest first');
select is((:'broad'::jsonb) #>> '{records,0,name}', 'Kuzey 24999', 'the newest match comes first');
select is((:'broad'::jsonb) ->> 'descending', 'true', 'the answer names the direction');
-- Sorted by a date, a broad search keeps the order asked for.
select is(public.list_customers('e', null, 'created_at', false, 1) #>> '{records,0,name}', 'Kuzey 1',
  'a broad search sorted by date keeps that order');
select tests.reset_role();

select * from finish();
rollback;
