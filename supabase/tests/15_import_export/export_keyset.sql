-- Exports page by key (issue 28): paging an export with next_cursor gives exactly the rows of
-- one unpaged export (the list's order) in the same order, no duplicates or gaps, by a text
-- column with Turkish letters (both ways), a text column with empty values (both ways), a
-- time with ties, a date descending with ties and empty values, and a link (by offset); the
-- filters and scope own hold on every page; the audit entry comes once; malformed, forged or
-- foreign cursors are refused (invalid_input), never read as SQL; anon, a member without the
-- export permission and another organization's member are refused or see only their own.
begin;
select plan(31);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer, gen_random_uuid() as s_beta \gset
create temporary table sessions (person uuid, session uuid primary key, organization uuid);
insert into sessions values (:'alpha_admin', :'s_admin', :'alpha'), (:'alpha_sales', :'s_sales', :'alpha'),
  (:'alpha_viewer', :'s_viewer', :'alpha'), (:'beta_admin', :'s_beta', :'beta');
insert into auth.sessions (id, user_id) select session, person from sessions;
insert into private.session_organizations (session_id, user_id, organization_id) select session, person, organization from sessions;
grant select on sessions to authenticated;

/** Acts as the person in the session (as authenticated, as PostgREST would). */
create function pg_temp.act(p_session uuid) returns void language sql as $$
  select tests.authenticate_as((select person from sessions where session = p_session), p_session);
$$;
grant execute on function pg_temp.act(uuid) to authenticated;

/** The ids of a whole export in one call (the list's order). */
create function pg_temp.unpaged(p_module text, p_filters jsonb, p_sort text, p_descending boolean) returns uuid[]
language sql as $$
  select array(select (r ->> 'id')::uuid
                 from jsonb_array_elements(public.export_records(p_module, null, p_filters, p_sort, p_descending) -> 'records')
                      with ordinality e (r, n) order by n);
$$;
grant execute on function pg_temp.unpaged(text, jsonb, text, boolean) to authenticated;

/** The ids of an export read p_size rows a page, each page after the last one's next_cursor, as the app does. */
create function pg_temp.paged(p_module text, p_filters jsonb, p_sort text, p_descending boolean, p_size integer) returns uuid[]
language plpgsql as $$
declare
  after jsonb;
  page jsonb;
  ids uuid[] := '{}';
begin
  for pages in 1..1000 loop
    page := public.export_records(p_module, null, p_filters, p_sort, p_descending, after, p_size);
    if not coalesce((page ->> 'success')::boolean, false) then
      raise exception 'page % refused: %', pages, page;
    end if;
    ids := ids || array(select (r ->> 'id')::uuid from jsonb_array_elements(page -> 'records') with ordinality e (r, n) order by n);
    after := nullif(page -> 'next_cursor', 'null');
    if after is null then
      return ids;
    end if;
  end loop;
  raise exception 'the export did not end';
end;
$$;
grant execute on function pg_temp.paged(text, jsonb, text, boolean, integer) to authenticated;

/** Whether a list of ids has no id twice. */
create function pg_temp.distinct_ids(p_ids uuid[]) returns boolean language sql as $$
  select count(distinct i) = count(*) from unnest(p_ids) i;
$$;
grant execute on function pg_temp.distinct_ids(uuid[]) to authenticated;

-- Customers: names with Turkish letters and equal names (ties), cities with empty ones, creation
-- times with ties; every third one the sales member's.
insert into :"alpha_schema".customers (name, city, status, created_at, owner_id, created_by)
select n.name, case when i % 4 = 0 then null else (array['İzmir', 'Çanakkale', 'Istanbul', 'Ordu', 'Şırnak'])[1 + i % 5] end,
       case when i % 3 = 0 then 'active' else 'lead' end,
       timestamptz '2026-01-01 09:00+03' + (i / 4) * interval '1 hour',
       case when i % 3 = 1 then :'alpha_sales'::uuid else :'alpha_admin'::uuid end, :'alpha_admin'
  from unnest(array['Çiçek', 'Cam', 'İnci', 'Ilık', 'ılgaz', 'Öz', 'Oya', 'Şeker', 'Su', 'Ümit', 'Uğur', 'Ağaç', 'Ada',
                    'Çiçek', 'Işık', 'ışık', 'Zeytin', 'Ödül', 'İnci', 'Gül', 'Ğ', 'Özlem', 'Cam', 'Ümit', 'Deniz', 'Çam'])
       with ordinality n (name, i);
-- Deals: expected close dates with ties and empty ones, some without a customer.
insert into :"alpha_schema".deals (title, customer_id, expected_close_date, owner_id, created_by)
select 'Fırsat ' || i, case when i % 5 = 0 then null else c.id end,
       case when i % 4 = 0 then null else date '2026-03-01' + (i % 3) end, :'alpha_admin', :'alpha_admin'
  from generate_series(1, 17) i
  cross join lateral (select id from :"alpha_schema".customers order by name, id offset i % 7 limit 1) c;
insert into :"beta_schema".customers (name, owner_id, created_by) values ('Beta Müşteri', :'beta_admin', :'beta_admin');

-- The Turkish name order as SQL writes it: every customer, and the sales member's.
select array(select id from :"alpha_schema".customers order by private.turkish_sort_key(name) collate "C", id) as name_order,
       array(select id from :"alpha_schema".customers where owner_id = :'alpha_sales'
              order by private.turkish_sort_key(name) collate "C", id) as sales_order \gset

-- ---------------------------------------------------------------------------------
-- Paged = unpaged, in every order
-- ---------------------------------------------------------------------------------
select pg_temp.act(:'s_admin');
select is(cardinality(pg_temp.unpaged('customers', null, 'name', false)), 26, 'the unpaged export has every customer');
select is(pg_temp.unpaged('customers', null, 'name', false),
          :'name_order'::uuid[],
          'in the list''s Turkish order by name');
select is(pg_temp.paged('customers', null, 'name', false, 4), pg_temp.unpaged('customers', null, 'name', false),
          'by name (Turkish letters, equal names), 4 a page: the same rows in the same order');
select is(pg_temp.paged('customers', null, 'name', true, 3), pg_temp.unpaged('customers', null, 'name', true),
          'by name descending, 3 a page');
select is(pg_temp.paged('customers', null, 'name', false, 1), pg_temp.unpaged('customers', null, 'name', false),
          'one row a page');
select ok(pg_temp.distinct_ids(pg_temp.paged('customers', null, 'name', false, 4)), 'no row twice');
select is(pg_temp.paged('customers', null, 'city', false, 2), pg_temp.unpaged('customers', null, 'city', false),
          'by a text column with empty values (last), 2 a page');
select is(pg_temp.paged('customers', null, 'city', true, 2), pg_temp.unpaged('customers', null, 'city', true),
          'by it descending (empty values first)');
select is(pg_temp.paged('customers', null, 'created_at', true, 3), pg_temp.unpaged('customers', null, 'created_at', true),
          'by creation time descending with ties, 3 a page');
select is(pg_temp.paged('deals', null, 'expected_close_date', true, 2), pg_temp.unpaged('deals', null, 'expected_close_date', true),
          'deals by a date descending with ties and empty values, 2 a page');
select is(pg_temp.paged('deals', null, 'expected_close_date', false, 3), pg_temp.unpaged('deals', null, 'expected_close_date', false),
          'and ascending');
select is(cardinality(pg_temp.paged('deals', null, 'expected_close_date', true, 2)), 17, 'every deal');
select is(pg_temp.paged('deals', null, 'customer_id', false, 2), pg_temp.unpaged('deals', null, 'customer_id', false),
          'by a link (the customer''s name, by offset), 2 a page');
select is(public.export_records('deals', null, null, 'customer_id', false, null, 2) -> 'next_cursor', '{"offset": 2}',
          'whose cursor is an offset');
select is(pg_temp.paged('customers', '{"status": "active"}', 'name', false, 2), pg_temp.unpaged('customers', '{"status": "active"}', 'name', false),
          'a filter holds on every page');
select is(cardinality(pg_temp.paged('customers', '{"status": "active"}', 'name', false, 2)), 8, 'only the filtered rows');

-- ---------------------------------------------------------------------------------
-- Cursors refused: malformed, forged, of another order; never read as SQL
-- ---------------------------------------------------------------------------------
select public.export_records('customers', null, null, 'name', false, null, 3) -> 'next_cursor' as name_cursor \gset
select is(public.export_records('customers', null, null, 'name', false, jsonb_set(:'name_cursor', '{id}', '"x"'), 3) ->> 'code',
          'invalid_input', 'a cursor whose id is not one is refused');
select is(public.export_records('customers', null, null, 'name', false, (:'name_cursor'::jsonb) || '{"extra": 1}', 3) ->> 'code',
          'invalid_input', 'a cursor with more keys is refused');
select is(public.export_records('customers', null, null, 'city', false, :'name_cursor', 3) ->> 'code', 'invalid_input',
          'a cursor of another order is refused');
select is(public.export_records('customers', null, null, 'name', true, :'name_cursor', 3) ->> 'code', 'invalid_input',
          'and of the other direction');
select is(public.export_records('customers', null, null, 'name', false, '{"offset": 3}', 3) ->> 'code', 'invalid_input',
          'an offset where the order has a key is refused');
select is(public.export_records('deals', null, null, 'customer_id', false, '{"offset": -1}', 3) ->> 'code', 'invalid_input',
          'a negative offset is refused');
select is(public.export_records('customers', null, null, 'name', false, '[1, 2]', 3) ->> 'code', 'invalid_input',
          'a cursor that is not an object is refused');
select is(public.export_records('customers', null, null, 'created_at', false,
            jsonb_build_object('sort', 'created_at', 'descending', false, 'id', gen_random_uuid(),
                               'value', $$2026-01-01'::timestamptz) or true or (t.created_at > '2026-01-01$$), 3) ->> 'code',
          'invalid_input', 'a value that is not of the column''s type (here SQL) is refused');
select is(public.export_records('customers', null, null, 'name', false,
            jsonb_build_object('sort', 'name', 'descending', false, 'id', gen_random_uuid(), 'value', $$zz') or true --$$), 3) -> 'records',
          '[]', 'a text value is only a value: after it in Turkish order, nothing');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Audit, scope, others
-- ---------------------------------------------------------------------------------
select count(*) as audits_before from private.audit_log where action = 'customers.export' and organization_id = :'alpha' \gset
select pg_temp.act(:'s_admin');
select is(cardinality(pg_temp.paged('customers', null, 'name', false, 5)), 26, 'an export of six pages');
select tests.reset_role();
select is((select count(*) from private.audit_log where action = 'customers.export' and organization_id = :'alpha')::int, :audits_before + 1,
          'is audited once, on its first page');

select pg_temp.act(:'s_sales');
select is(pg_temp.paged('customers', null, 'name', false, 2),
          :'sales_order'::uuid[],
          'scope own: every page holds only the member''s own rows, all of them');
select tests.reset_role();

select pg_temp.act(:'s_beta');
select is((select array_agg(r ->> 'name') from jsonb_array_elements(
             public.export_records('customers', null, null, 'name', false, jsonb_set(:'name_cursor', '{value}', '"A"'), 3) -> 'records') r),
          array['Beta Müşteri'], 'another organization''s member with a cursor of theirs: only their own rows');
select tests.reset_role();

select pg_temp.act(:'s_viewer');
select is(public.export_records('customers', null, null, 'name', false, :'name_cursor', 3) ->> 'code', 'permission_denied',
          'a member without the export permission is refused, with a cursor too');
select tests.reset_role();

select tests.act_as_anon();
select throws_ok(format('select public.export_records(%L, null, null, %L, false, %L, 3)', 'customers', 'name', :'name_cursor'),
                 '42501', null, 'anon is refused');
select tests.reset_role();

select * from finish();
rollback;
