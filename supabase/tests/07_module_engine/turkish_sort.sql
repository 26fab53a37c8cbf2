-- Turkish sort order: private.turkish_sort_key orders tricky names as Turkish does
-- (C before Ç, I/ı before İ/i, case not counting), the record engine's list sorts by it
-- both ways, its sort index serves the list's order, and search stays accent-insensitive.
begin;
select plan(14);

create temporary table expected (position integer primary key, name text not null);
insert into expected
select n, name from unnest(array['3M Türkiye', 'Ağa', 'Ağaoğlu', 'Ak Yapı', 'Akçay', 'Cansu', 'cem', 'Çamlıca', 'Çelik',
                                 'ılık', 'Işık', 'ilik', 'İzmir', 'Oya', 'Ödemiş', 'ÖZGÜR', 'Sarp', 'Şahin', 'Uğur',
                                 'Ümit', 'Zeynep', 'zeytin']) with ordinality e (name, n);
-- Read while acting as the member too.
grant select on expected to authenticated;

select is(array(select e.name from expected e order by private.turkish_sort_key(e.name) collate "C"),
          array(select e.name from expected e order by e.position),
          'the key orders the names as Turkish does');
select is(array(select e.name from expected e order by private.turkish_sort_key(e.name) collate "C" desc),
          array(select e.name from expected e order by e.position desc),
          'and backwards');
select is(array[private.turkish_sort_key('IŞIK'), private.turkish_sort_key('İZMİR'), private.turkish_sort_key('ÇAĞLA'),
                private.turkish_sort_key(E'  Ak\t Yapı '), private.turkish_sort_key(E'I\u0307zmir'), private.turkish_sort_key('Kâzım')],
          array[private.turkish_sort_key('ışık'), private.turkish_sort_key('izmir'), private.turkish_sort_key('çağla'),
                private.turkish_sort_key('Ak Yapı'), private.turkish_sort_key('İzmir'), private.turkish_sort_key('Kazım')],
          'case does not count, the Turkish way; spaces collapse; İ decomposed or not is İ; â sorts as a');
select ok(private.turkish_sort_key('Işık') collate "C" < private.turkish_sort_key('İnci') collate "C"
          and private.turkish_sort_key('İnci') collate "C" < private.turkish_sort_key('Jale') collate "C"
          and private.turkish_sort_key('Zümrüt') collate "C" < private.turkish_sort_key('Жанна') collate "C",
          'Işık under I before İnci under İ, then J; other scripts after z');
-- The whole documented order, character by character (between two letters, so a space is not trimmed).
select is(array(select pair.c || ' ≥ ' || pair.next from (
                  select u.c, lead(u.c) over (order by u.n) as next
                    from unnest(string_to_array(' !"#$%&''()*+,-./:;<=>?@[\]^_`{|}~0123456789abcçdefgğhıijklmnoöpqrsştuüvwxyz', null))
                         with ordinality u (c, n)) pair
                 where pair.next is not null
                   and not private.turkish_sort_key('a' || pair.c || 'a') collate "C" < private.turkish_sort_key('a' || pair.next || 'a') collate "C"),
          '{}'::text[],
          'space < punctuation < digits < the Turkish alphabet, each character after the one before it');
select is(array(select pair.capital from unnest(string_to_array('ABCÇDEFGĞHIİJKLMNOÖPQRSŞTUÜVWXYZÂÀÁÄÃÅâàáäãåÉÈÊËéèêëÎÍÌÏîíìïÑñÔÓÒÕØôóòõøÛÚÙûúùÝýÿ', null),
                                                  string_to_array('abcçdefgğhıijklmnoöpqrsştuüvwxyzaaaaaaaaaaaaeeeeeeeeiiiiiiiinnoooooooooouuuuuuyyy', null)) pair (capital, base)
                 where private.turkish_sort_key(pair.capital) is distinct from private.turkish_sort_key(pair.base)),
          '{}'::text[],
          'a capital sorts as its small letter the Turkish way (I as ı, İ as i), an accented letter as its base letter');
-- b + U+0301 has no composed form: the mark is still there after NFC, and dropped.
select is(array[private.turkish_sort_key(E'b\u0301c'), private.turkish_sort_key(E'\u00a0a \t\x01 b  c\n'), private.turkish_sort_key('Ж')],
          array['LM', 'K L M', 'Ж'],
          'a leftover combining mark dropped, any run of white space or control characters one space, ends trimmed, other scripts as they are');
select is(private.turkish_sort_key(normalize('Işık İzmir Öğüt Çağ Şen Ünal', NFD)), private.turkish_sort_key('Işık İzmir Öğüt Çağ Şen Ünal'),
          'decomposed text sorts as its composed form');

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select private.migrate_tenant(:'alpha');
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select gen_random_uuid() as s_admin \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select o.schema_name as alpha_schema from private.organizations o where o.id = :'alpha' \gset

-- The names in a shuffled order, so the insertion order (and id) cannot pass for the sort.
select format($$insert into %I.customers (name, owner_id, created_by) select e.name, %L, %L from expected e order by md5(e.name)$$,
              :'alpha_schema', :'alpha_admin', :'alpha_admin') as fill \gset
:fill;
select array(select e.name from expected e where private.fold_search(e.name) like '%i%' order by e.position) as i_matches \gset

select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(array(select r ->> 'name' from jsonb_array_elements(public.list_customers(null, null, 'name', false, 100) -> 'records') r),
          array(select e.name from expected e order by e.position),
          'list_customers sorted by name answers in Turkish order');
select is(array(select r ->> 'name' from jsonb_array_elements(public.list_customers(null, null, 'name', true, 100) -> 'records') r),
          array(select e.name from expected e order by e.position desc),
          'and descending, backwards');
select is(array(select r ->> 'name' from jsonb_array_elements(public.list_customers('i', null, 'name', false, 100) -> 'records') r),
          :'i_matches'::text[],
          'a search''s matches are sorted the same way');
select is(array(select r ->> 'name' from jsonb_array_elements(public.list_customers('isik', null, 'name', false, 100) -> 'records') r),
          array['Işık'], 'search stays accent-insensitive: "isik" finds "Işık"');
select tests.reset_role();

-- The list's order (record_page: not deleted, scope, key collate "C", id) is read from the
-- sort index on a few thousand rows, not sorted whole.
select format($$insert into %I.customers (name, owner_id, created_by) select 'Müşteri ' || g, %L, %L from generate_series(1, 5000) g$$,
              :'alpha_schema', :'alpha_admin', :'alpha_admin') as more \gset
:more;
select format('analyze %I.customers', :'alpha_schema') as analyze_it \gset
:analyze_it;
select format($$explain (format json) select t.id from %I.customers t
                 where t.deleted_at is null and ('all' = 'all' or t.owner_id = %L)
                 order by private.turkish_sort_key(t.name) collate "C" asc, t.id asc limit 50$$,
              :'alpha_schema', :'alpha_admin') as explain_list \gset
create function pg_temp.plan_of(p_query text) returns text language plpgsql as $$
declare
  plan json;
begin
  execute p_query into plan;
  return plan::text;
end;
$$;
select matches(pg_temp.plan_of(:'explain_list'), '"Index Name": "customers_name_sort_idx"',
               'the name sort walks customers_name_sort_idx');
select unalike(pg_temp.plan_of(:'explain_list'), '%"Node Type": "Sort"%', 'and sorts nothing itself');

select * from finish();
rollback;
