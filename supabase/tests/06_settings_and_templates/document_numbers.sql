-- Document numbers (issue 13): pattern rendering, per-year reset, per-organization and
-- per-kind independence, a rolled-back number given back, unknown kinds and patterns
-- without {SEQ} refused, the quote pattern constraint, nothing granted to the API roles.
begin;
select plan(22);

select tests.create_organization('numone', 'Numara Bir A.Ş.') as one \gset
select tests.create_organization('numtwo', 'Numara İki Ltd.') as two \gset

-- Rendering
select is(private.render_document_number('TKL-{YYYY}-{SEQ:5}', date '2026-11-23', 7), 'TKL-2026-00007', 'year and padded sequence');
select is(private.render_document_number('T{YY}{MM}/{SEQ:3}', date '2026-03-05', 42), 'T2603/042', 'two-digit year and month');
select is(private.render_document_number('Q-{SEQ}', date '2026-01-01', 12), 'Q-12', '{SEQ} unpadded');
select is(private.render_document_number('Q-{SEQ:2}', date '2026-01-01', 1234), 'Q-1234', 'a longer sequence is never cut');
select is(private.render_document_number('{SEQ:1}-{seq}-{XX}-{YYYY', date '2026-01-01', 3), '3-{seq}-{XX}-{YYYY', 'anything else is literal');

-- Sequence per organization, kind and year
select is(private.next_document_number(:'one', 'quote', 'TKL-{YYYY}-{SEQ:5}', date '2026-02-01'), 'TKL-2026-00001', 'first quote of 2026');
select is(private.next_document_number(:'one', 'quote', 'TKL-{YYYY}-{SEQ:5}', date '2026-12-31'), 'TKL-2026-00002', 'second quote of 2026');
select is(private.next_document_number(:'one', 'quote', 'TKL-{YYYY}-{SEQ:5}', date '2027-01-01'), 'TKL-2027-00001', 'a new year starts at 1');
select is(private.next_document_number(:'one', 'quote', 'TKL-{YYYY}-{SEQ:5}', date '2026-06-01'), 'TKL-2026-00003', 'the old year continues');
select is(private.next_document_number(:'two', 'quote', 'TKL-{YYYY}-{SEQ:5}', date '2026-02-01'), 'TKL-2026-00001', 'another organization counts on its own');
select is(private.next_document_number(:'one', 'contract', 'SZL-{YYYY}-{SEQ:5}', date '2026-02-01'), 'SZL-2026-00001', 'another kind counts on its own');
select is((select last_value from private.document_counters where organization_id = :'one' and kind = 'quote' and year = 2026),
          3::bigint, 'the counter holds the last number given');

-- A rolled-back create gives its number back
savepoint before_create;
select is(private.next_document_number(:'one', 'quote', 'TKL-{YYYY}-{SEQ:5}', date '2026-07-01'), 'TKL-2026-00004', 'taken inside a transaction');
rollback to savepoint before_create;
select is(private.next_document_number(:'one', 'quote', 'TKL-{YYYY}-{SEQ:5}', date '2026-07-01'), 'TKL-2026-00004', 'after the rollback the same number comes again (no gap)');

-- Refusals
select throws_ok($$select private.next_document_number('$$ || :'one' || $$', 'invoice', 'F-{SEQ:3}', current_date)$$,
                 '22023', null, 'an unknown kind is refused');
select throws_ok($$select private.next_document_number('$$ || :'one' || $$', 'quote', 'TKL-{YYYY}', current_date)$$,
                 '22023', null, 'a pattern without {SEQ} is refused');
select ok(not private.is_valid_number_pattern('TKL-{SEQ:0}'), '{SEQ:0} is not a sequence token');
select ok(private.is_valid_number_pattern('TKL-{SEQ}'), '{SEQ} is');
select throws_ok($$update private.organization_settings set quote_number_pattern = 'TKL-{YYYY}' where organization_id = '$$ || :'one' || $$'$$,
                 '23514', null, 'the settings table refuses a quote pattern without {SEQ}');
select lives_ok($$update private.organization_settings set quote_number_pattern = 'TK/{YY}/{SEQ:4}' where organization_id = '$$ || :'one' || $$'$$,
                'and accepts one with it');

-- Nothing for the API roles
select ok(not has_function_privilege('authenticated', 'private.next_document_number(uuid, text, text, date)', 'execute'),
          'authenticated may not take numbers directly');
select ok(not has_table_privilege('authenticated', 'private.document_counters', 'select'), 'nor read the counters');

select * from finish();
rollback;
