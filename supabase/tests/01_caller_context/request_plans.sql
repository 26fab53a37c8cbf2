-- The helpers a request calls keep their plans: PostgreSQL 15 plans a SQL function's body
-- again on every call when it cannot inline it, and SET search_path or SECURITY DEFINER
-- (every function of the product has one) forbids inlining, so the guard's helpers and the
-- engine's lookups are plpgsql (01_caller_context.sql's header). Counted per request in this
-- transaction (track_functions): the private SQL functions a request called that read
-- anything (not immutable). Immutable expressions (failure, fold_search, turkish_sort_key)
-- read no table and cost little to plan; the public façades are one call each. And in the
-- catalogue: no private function but an immutable expression is SQL, so a helper added
-- later is held to the rule before any request calls it.
begin;
select plan(8);

select is((select array_agg(p.oid::regprocedure::text order by p.oid::regprocedure::text)
             from pg_catalog.pg_proc p
             join pg_catalog.pg_namespace n on n.oid = p.pronamespace
             join pg_catalog.pg_language l on l.oid = p.prolang
            where n.nspname = 'private' and l.lanname = 'sql' and p.provolatile <> 'i'),
          null, 'every private function that is not an immutable expression is plpgsql');

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as admin \gset
select tests.add_member(:'admin', :'alpha', 'admin');
select gen_random_uuid() as s_admin \gset
select tests.bind_session(:'admin', :'s_admin', :'alpha');

set local track_functions = 'all';
create temporary view planned_per_call as
  select f.schemaname || '.' || f.funcname as name, f.calls::int as calls
    from pg_stat_xact_user_functions f
    join pg_catalog.pg_proc p on p.oid = f.funcid
    join pg_catalog.pg_language l on l.oid = p.prolang
   where l.lanname = 'sql' and p.provolatile <> 'i' and f.schemaname = 'private';
create temporary view called_since as
  select c.name from planned_per_call c
   where c.calls > coalesce((nullif(current_setting('tests.calls_before', true), '')::jsonb ->> c.name)::int, 0);
grant select on planned_per_call, called_since to authenticated;
create function pg_temp.mark() returns void language sql as $$
  select set_config('tests.calls_before', (select coalesce(jsonb_object_agg(name, calls), '{}')::text from planned_per_call), false);
$$;
grant execute on function pg_temp.mark() to authenticated;

select tests.authenticate_as(:'admin', :'s_admin');
select pg_temp.mark();
select public.get_current_user_context() ->> 'success' as answered \gset
select is((select array_agg(name order by name) from called_since), null, 'get_current_user_context calls no SQL helper');
select is(:'answered'::text, 'true', 'and answers');
select pg_temp.mark();
select public.create_customer('{"name": "Çelik Yapı", "email": "bilgi@celik.test"}') as created \gset
select is((select array_agg(name order by name) from called_since), null, 'create_customer calls no SQL helper');
select :'created'::jsonb #>> '{record,id}' as c, :'created'::jsonb #>> '{record,updated_at}' as c_at \gset
select pg_temp.mark();
select public.get_customer(:'c') ->> 'success' as got \gset
select is((select array_agg(name order by name) from called_since), null, 'get_customer calls no SQL helper');
select pg_temp.mark();
select public.update_customer(:'c', '{"city": "İzmir"}', :'c_at') ->> 'success' as updated \gset
select is((select array_agg(name order by name) from called_since), null, 'update_customer calls no SQL helper');
select pg_temp.mark();
select public.list_customers(p_sort => 'name', p_limit => 25) ->> 'success' as listed \gset
select public.list_customers(p_search => 'çel', p_limit => 25) ->> 'success' as searched \gset
select is((select array_agg(name order by name) from called_since), null, 'a list and a search call no SQL helper');
select is(array[:'created'::jsonb ->> 'success', :'got', :'updated', :'listed', :'searched']::text[],
          array['true', 'true', 'true', 'true', 'true'], 'and every one of them answers');
select tests.reset_role();

select * from finish();
rollback;
