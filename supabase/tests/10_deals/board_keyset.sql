-- The deal board's stages page by key (issue 28): the board's first cards, then each stage's
-- next_cursor handed to get_deal_board_stage page after page, give exactly one stage's cards
-- in the board's order (most recently changed first, ties by id), no duplicates or gaps; the
-- filters and scope own hold on every page; malformed or forged cursors are refused
-- (invalid_input); anon, a member without the deals view permission and another
-- organization's member are refused or see only their own.
begin;
select plan(19);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select schema_name as beta_schema from private.organizations where id = :'beta' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('solo@alpha.test', 'user', 'Sinan', 'Solo') as alpha_solo \gset
select tests.create_user('blind@alpha.test', 'user', 'Kör', 'Nokta') as alpha_blind \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- A role that sees only its own deals, and one that sees none.
insert into private.organization_roles (organization_id, key, name) values (:'alpha', 'solo', 'Yalnız kendi'), (:'alpha', 'blind', 'Hiçbiri');
insert into private.role_permissions (organization_id, role_key, module, action, scope)
values (:'alpha', 'solo', 'deals', 'view', 'own');
select tests.add_member(:'alpha_solo', :'alpha', 'solo');
select tests.add_member(:'alpha_blind', :'alpha', 'blind');

select gen_random_uuid() as s_admin, gen_random_uuid() as s_solo, gen_random_uuid() as s_blind, gen_random_uuid() as s_beta \gset
create temporary table sessions (person uuid, session uuid primary key, organization uuid);
insert into sessions values (:'alpha_admin', :'s_admin', :'alpha'), (:'alpha_solo', :'s_solo', :'alpha'),
  (:'alpha_blind', :'s_blind', :'alpha'), (:'beta_admin', :'s_beta', :'beta');
insert into auth.sessions (id, user_id) select session, person from sessions;
insert into private.session_organizations (session_id, user_id, organization_id) select session, person, organization from sessions;
grant select on sessions to authenticated;

/** Acts as the person in the session (as authenticated, as PostgREST would). */
create function pg_temp.act(p_session uuid) returns void language sql as $$
  select tests.authenticate_as((select person from sessions where session = p_session), p_session);
$$;
grant execute on function pg_temp.act(uuid) to authenticated;

/** The ids of the lead stage's cards as the board gives them, p_per_stage first. */
create function pg_temp.board_ids(p_filters jsonb, p_per_stage integer) returns uuid[] language sql as $$
  select array(select (c ->> 'id')::uuid
                 from jsonb_array_elements(public.get_deal_board(p_filters, p_per_stage) -> 'stages') s,
                      jsonb_array_elements(s -> 'cards') with ordinality e (c, n)
                where s ->> 'key' = 'lead' order by n);
$$;
grant execute on function pg_temp.board_ids(jsonb, integer) to authenticated;

/** The lead stage's cards read as the board does: its first p_per_stage, then p_size more a page after each next_cursor. */
create function pg_temp.paged(p_filters jsonb, p_per_stage integer, p_size integer) returns uuid[] language plpgsql as $$
declare
  stage jsonb;
  after jsonb;
  page jsonb;
  ids uuid[];
begin
  select s into stage from jsonb_array_elements(public.get_deal_board(p_filters, p_per_stage) -> 'stages') s where s ->> 'key' = 'lead';
  ids := array(select (c ->> 'id')::uuid from jsonb_array_elements(stage -> 'cards') with ordinality e (c, n) order by n);
  after := nullif(stage -> 'next_cursor', 'null');
  for pages in 1..1000 loop
    if after is null then
      return ids;
    end if;
    page := public.get_deal_board_stage('lead', p_filters, after, p_size);
    if not coalesce((page ->> 'success')::boolean, false) then
      raise exception 'page % refused: %', pages, page;
    end if;
    ids := ids || array(select (c ->> 'id')::uuid from jsonb_array_elements(page -> 'cards') with ordinality e (c, n) order by n);
    after := case when (page ->> 'has_more')::boolean then page -> 'next_cursor' end;
  end loop;
  raise exception 'the stage did not end';
end;
$$;
grant execute on function pg_temp.paged(jsonb, integer, integer) to authenticated;

-- 20 deals in the lead stage, changed at five moments (ties), every third the solo member's; two won.
insert into :"alpha_schema".deals (title, stage, currency, updated_at, owner_id, created_by)
select 'Fırsat ' || i, 'lead', 'TRY', timestamptz '2026-02-01 10:00+03' + (i % 5) * interval '1 minute',
       case when i % 3 = 0 then :'alpha_solo'::uuid else :'alpha_admin'::uuid end, :'alpha_admin'
  from generate_series(1, 20) i;
insert into :"alpha_schema".deals (title, stage, currency, owner_id, created_by)
values ('Kazanılan 1', 'won', 'TRY', :'alpha_admin', :'alpha_admin'), ('Kazanılan 2', 'won', 'TRY', :'alpha_admin', :'alpha_admin');
insert into :"beta_schema".deals (title, stage, currency, owner_id, created_by) values ('Beta fırsatı', 'lead', 'TRY', :'beta_admin', :'beta_admin');
select array(select id from :"alpha_schema".deals where stage = 'lead' order by updated_at desc, id desc) as lead_order,
       array(select id from :"alpha_schema".deals where stage = 'lead' and owner_id = :'alpha_solo' order by updated_at desc, id desc) as solo_order,
       array(select id from :"alpha_schema".deals where stage = 'lead' and owner_id = :'alpha_admin' order by updated_at desc, id desc) as admin_order \gset

select pg_temp.act(:'s_admin');
select is(pg_temp.board_ids(null, 200), :'lead_order'::uuid[], 'the board: the stage''s cards, most recently changed first, ties by id');
select is(pg_temp.paged(null, 3, 4), :'lead_order'::uuid[], 'paged by cursor (3 on the board, then 4 a page): the same cards, in order');
select is(pg_temp.paged(null, 5, 1), :'lead_order'::uuid[], 'one card a page');
select is(pg_temp.paged(null, 2, 200), :'lead_order'::uuid[], 'the rest at once');
select is(pg_temp.paged(jsonb_build_object('owner_id', :'alpha_admin'), 2, 3), :'admin_order'::uuid[], 'an owner filter holds on every page');
select is((select s -> 'next_cursor' from jsonb_array_elements(public.get_deal_board(null, 50) -> 'stages') s where s ->> 'key' = 'won'),
          'null', 'a stage whose cards all came has no cursor');
select public.get_deal_board_stage('lead', null, null, 4) -> 'next_cursor' as cursor \gset
select is(public.get_deal_board_stage('lead', null, null, 4) -> 'cards' -> 0 ->> 'id', (:'lead_order'::uuid[])[1]::text,
          'without a cursor: from the first card');
select is(public.get_deal_board_stage('lead', null, jsonb_set(:'cursor', '{id}', '"x"'), 4) ->> 'code', 'invalid_input',
          'a cursor whose id is not one is refused');
select is(public.get_deal_board_stage('lead', null, jsonb_set(:'cursor', '{updated_at}', '"dün"'), 4) ->> 'code', 'invalid_input',
          'a cursor whose time is not one is refused');
select is(public.get_deal_board_stage('lead', null,
            jsonb_set(:'cursor', '{updated_at}', to_jsonb($$2026-01-01'::timestamptz) or true or (now() > '2026$$::text)), 4) ->> 'code',
          'invalid_input', 'nor is SQL in it read');
select is(public.get_deal_board_stage('lead', null, jsonb_set(:'cursor', '{updated_at}', '20260101'), 4) ->> 'code', 'invalid_input',
          'a number for a time is refused');
select is(public.get_deal_board_stage('lead', null, (:'cursor'::jsonb) || '{"offset": 3}', 4) ->> 'code', 'invalid_input',
          'a cursor with more keys is refused');
select is(public.get_deal_board_stage('lead', null, '[]', 4) ->> 'code', 'invalid_input', 'a cursor that is not an object is refused');
select tests.reset_role();

select pg_temp.act(:'s_solo');
select is(pg_temp.paged(null, 2, 2), :'solo_order'::uuid[], 'scope own: every page holds only the member''s own cards, all of them');
select tests.reset_role();

select pg_temp.act(:'s_beta');
select is((select array_agg(c ->> 'title') from jsonb_array_elements(public.get_deal_board_stage('lead', null, :'cursor', 50) -> 'cards') c),
          null, 'another organization''s member with a cursor of theirs: none of their cards (theirs is newer)');
select is((select array_agg(c ->> 'title') from jsonb_array_elements(
             public.get_deal_board_stage('lead', null, jsonb_set(:'cursor', '{updated_at}', to_jsonb(now() + interval '1 day')), 50) -> 'cards') c),
          array['Beta fırsatı'], 'only their own');
select tests.reset_role();

select pg_temp.act(:'s_blind');
select is(public.get_deal_board_stage('lead', null, :'cursor', 4) ->> 'code', 'permission_denied',
          'a member without the deals view permission is refused');
select tests.reset_role();

select tests.act_as_anon();
select throws_ok(format('select public.get_deal_board_stage(%L, null, %L, 4)', 'lead', :'cursor'), '42501', null, 'anon is refused');
select tests.reset_role();

select tests.act_as_anon();
select throws_ok('select public.get_deal_board_stage(''lead'')', '42501', null, 'anon is refused without a cursor too');
select tests.reset_role();

select * from finish();
rollback;
