-- Custom field values in the lists (issue 26): list rows carry the custom fields that are not
-- hidden; a custom field sorts (text in Turkish order) with keyset pages, except long texts
-- and multiple choices; filterable ones filter by their type (one of the options, a number
-- range, any of a multiple choice, set or not set), others are refused; searchable text
-- fields are found by the list's search; another organization's lists know none of them.
begin;
select plan(23);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'beta_admin', :'beta', 'admin');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

select tests.add_custom_field(:'alpha', 'customers', 'cf_label', '{"type": "text", "filterable": true, "searchable": true}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_note', '{"type": "text"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_bio', '{"type": "long_text"}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_amount', '{"type": "money", "filterable": true}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_tier', '{"type": "choice", "options": ["gold", "silver"], "filterable": true}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_tags', '{"type": "multi_choice", "options": ["a", "b", "c"], "filterable": true}');
select tests.add_custom_field(:'alpha', 'customers', 'cf_secret', '{"type": "text", "hidden": true}');

select tests.authenticate_as(:'alpha_admin', :'s_admin');
create temporary table made (n integer, id uuid);
grant all on made to authenticated;
insert into made
select v.n, (public.create_customer(jsonb_build_object('name', 'Müşteri ' || v.n) || v.custom) #>> '{record,id}')::uuid
  from (values (1, '{"cf_label": "Zeytin", "cf_amount": 100, "cf_tier": "gold", "cf_tags": ["a"], "cf_note": "gizli söz", "cf_secret": "s"}'::jsonb),
               (2, '{"cf_label": "Çam", "cf_amount": 250.5, "cf_tier": "silver", "cf_tags": ["b", "c"]}'),
               (3, '{"cf_label": "Cam", "cf_amount": 10, "cf_tags": ["a", "c"]}'),
               (4, '{"cf_label": "İnce", "cf_amount": 999}'),
               (5, '{"cf_label": "Ilık", "cf_tier": "gold"}'),
               (6, '{}')) v (n, custom)
 order by v.n;
select is((select count(*)::integer from made where id is not null), 6, 'six customers with custom values');

-- ---------------------------------------------------------------------------------
-- List rows
-- ---------------------------------------------------------------------------------
select public.list_customers(null, null, 'name', false) -> 'records' -> 0 as first_row \gset
select is((select jsonb_build_object('label', r -> 'cf_label', 'amount', r -> 'cf_amount', 'tier', r -> 'cf_tier', 'tags', r -> 'cf_tags',
                                     'note', r -> 'cf_note', 'bio', r ? 'cf_bio')
             from (select :'first_row'::jsonb as r) x),
  '{"label": "Zeytin", "amount": 100.00, "tier": "gold", "tags": ["a"], "note": "gizli söz", "bio": true}',
  'a list row carries the custom fields');
select is((:'first_row'::jsonb) ? 'cf_secret', false, 'but not a hidden one');

-- ---------------------------------------------------------------------------------
-- Sort
-- ---------------------------------------------------------------------------------
select is(array(select r ->> 'cf_label' from jsonb_array_elements(public.list_customers(null, null, 'cf_label', false) -> 'records') r),
  array['Cam', 'Çam', 'Ilık', 'İnce', 'Zeytin', null], 'a custom text sorts in Turkish order, empty last');
select is(array(select r ->> 'cf_label' from jsonb_array_elements(public.list_customers(null, null, 'cf_label', true) -> 'records') r),
  array[null, 'Zeytin', 'İnce', 'Ilık', 'Çam', 'Cam'], 'and descending, empty first');

/** Every page of an export sorted by p_sort, p_size rows a page, each after the last one's next_cursor (keyset). */
create function pg_temp.paged(p_sort text, p_descending boolean, p_size integer) returns text[] language plpgsql as $$
declare
  page jsonb;
  after jsonb;
  seen text[] := '{}';
begin
  loop
    page := public.export_records('customers', null, null, p_sort, p_descending, after, p_size);
    if not (page ->> 'success')::boolean then
      raise exception 'export refused: %', page;
    end if;
    seen := seen || array(select r ->> 'name' from jsonb_array_elements(page -> 'records') r);
    after := nullif(page -> 'next_cursor', 'null');
    exit when after is null;
  end loop;
  return seen;
end;
$$;
grant execute on function pg_temp.paged(text, boolean, integer) to authenticated;
select is((public.export_records('customers', null, null, 'cf_label', false, null, 2) -> 'next_cursor') - 'id'::text,
  '{"sort": "cf_label", "descending": false, "value": "Çam"}', 'the export''s cursor after the second row names its custom value');
select is(pg_temp.paged('cf_label', false, 2),
  array['Müşteri 3', 'Müşteri 2', 'Müşteri 5', 'Müşteri 4', 'Müşteri 1', 'Müşteri 6'], 'keyset pages of a custom text, ascending');
select is(pg_temp.paged('cf_label', true, 4),
  array['Müşteri 6', 'Müşteri 1', 'Müşteri 4', 'Müşteri 5', 'Müşteri 2', 'Müşteri 3'], 'and descending');
select is(pg_temp.paged('cf_amount', true, 2),
  array(select r ->> 'name' from jsonb_array_elements(public.list_customers(null, null, 'cf_amount', true) -> 'records') r),
  'keyset pages of a custom amount, descending: the list''s order (empty first, by id)');
select is(array(select r ->> 'name' from jsonb_array_elements(public.list_customers(null, null, 'cf_amount', true) -> 'records') r offset 2),
  array['Müşteri 4', 'Müşteri 2', 'Müşteri 1', 'Müşteri 3'], 'which is by the amount');
select is(public.list_customers(null, null, 'cf_bio') ->> 'code', 'invalid_input', 'a long text does not sort');
select is(public.list_customers(null, null, 'cf_tags') ->> 'code', 'invalid_input', 'nor a multiple choice');

-- ---------------------------------------------------------------------------------
-- Filters
-- ---------------------------------------------------------------------------------
create function pg_temp.names(p_filters jsonb, p_search text default null) returns text[] language sql as $$
  select array(select r ->> 'name' from jsonb_array_elements(public.list_customers(p_search, p_filters, 'name', false) -> 'records') r);
$$;
grant execute on function pg_temp.names(jsonb, text) to authenticated;
select is(pg_temp.names('{"cf_tier": "gold"}'), array['Müşteri 1', 'Müşteri 5'], 'a choice filters by its option');
select is(pg_temp.names('{"cf_amount": {"from": 100, "to": 999}}'), array['Müşteri 1', 'Müşteri 2'], 'an amount by a range');
select is(pg_temp.names('{"cf_tags": ["c"]}'), array['Müşteri 2', 'Müşteri 3'], 'a multiple choice by any of the options');
select is(pg_temp.names('{"cf_tier": {"is_null": true}}'), array['Müşteri 3', 'Müşteri 4', 'Müşteri 6'], 'a custom field not set');
select is(pg_temp.names('{"cf_label": {"is_null": false}, "cf_tier": ["silver"]}'), array['Müşteri 2'], 'set, with another filter');
select is(public.list_customers(null, '{"cf_note": "gizli söz"}') ->> 'code', 'invalid_input', 'a field that is not filterable is refused');
select is(public.list_customers(null, '{"cf_tier": {"from": 1}}') ->> 'code', 'invalid_input', 'a choice takes no range');

-- ---------------------------------------------------------------------------------
-- Search
-- ---------------------------------------------------------------------------------
select is(pg_temp.names(null, 'zeytın'), array['Müşteri 1'], 'a searchable custom text is found by the search (Turkish-folded)');
select is(pg_temp.names(null, 'gizli'), '{}'::text[], 'one that is not searchable is not');
select is(pg_temp.names(null, 'müşteri 4'), array['Müşteri 4'], 'the standard search still works beside it');

-- ---------------------------------------------------------------------------------
-- Another organization
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select public.create_customer('{"name": "Beta Müşteri"}');
select is((select count(*)::integer from jsonb_array_elements(public.list_customers() -> 'records') r, jsonb_object_keys(r) k
            where k like 'cf\_%'), 0, 'another organization''s rows carry none of alpha''s fields');
select tests.reset_role();

select * from finish();
rollback;
