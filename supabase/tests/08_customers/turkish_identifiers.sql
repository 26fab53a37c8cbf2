-- Turkish identifiers (supabase/schemas/08_customers.sql): VKN and TCKN checksums,
-- phone normalisation to E.164, websites. The same cases as src/lib/turkish-identifiers.test.ts
-- (pgTAP cannot read a shared file, so each side keeps its own copy): change both together.
begin;
select plan(136);

-- ---------------------------------------------------------------------------------
-- VKN
-- ---------------------------------------------------------------------------------
-- Documented valid numbers: python-stdnum and the npm package stdnum (4540536920), the
-- tcknvkn package (1000036109), published examples of the GİB algorithm (the rest).
select is(private.is_valid_vkn(input), expected, format('VKN %s → %s', coalesce(to_json(input)::text, 'null'), expected))
  from (values
    ('4540536920', true),
    ('1000036109', true),
    ('3973535717', true),
    ('2037637860', true),
    ('2823097943', true),
    ('2012460224', true),
    ('0340362913', true),
    ('4540536921', false),
    ('3973535711', false),
    ('1340362913', false),
    ('9999999999', false),
    ('0000000000', false),
    ('454053692', false),
    ('45405369200', false),
    ('454053692a', false),
    ('4540 536920', false),
    (' 4540536920', false),
    (E'4540536920\n', false),
    ('', false),
    ('４５４０５３６９２０', false),
    ('٤٥٤٠٥٣٦٩٢٠', false),
    (null, false)
  ) as cases (input, expected);

-- Every nine-digit prefix has exactly one check digit: 1,000 spread-out prefixes, each
-- with the ten possible last digits.
select is(
  (select count(*)::int from (
     select prefix from (select lpad(((n * 7919 + 104729)::bigint * 12289 % 1000000000)::text, 9, '0') as prefix
                           from generate_series(1, 1000) as n) as prefixes
       cross join generate_series(0, 9) as last_digit
      where private.is_valid_vkn(prefix || last_digit)
      group by prefix having count(*) = 1) as one_each),
  1000,
  'each of 1,000 VKN prefixes has exactly one valid last digit');

-- ---------------------------------------------------------------------------------
-- TCKN
-- ---------------------------------------------------------------------------------
select is(private.is_valid_tckn(input), expected, format('TCKN %s → %s', coalesce(to_json(input)::text, 'null'), expected))
  from (values
    ('10000000146', true),
    ('17291716060', true),
    ('64211142102', true),
    ('62345678900', true),
    ('10000000145', false),  -- wrong 11th digit
    ('10000000136', false),  -- wrong 10th digit
    ('17291716050', false),
    ('11111111111', false),
    ('01234567890', false),  -- a first digit 0 is never valid…
    ('00000000000', false),  -- …even where the check digits work out
    ('1000000014', false),
    ('100000001460', false),
    ('1000000014a', false),
    ('10000 000146', false),
    ('', false),
    (null, false)
  ) as cases (input, expected);

select ok(not private.is_valid_vkn('10000000146') and not private.is_valid_tckn('4540536920'),
  'a TCKN is never a VKN, nor a VKN a TCKN');

-- The 10th digit's formula can go negative before mod 10: 1 9 0 9 0 9 0 9 0 gives
-- 7·1 − 36 = −29, so the 10th digit is 1 (a plain remainder would say −9); the 11th is 8.
select ok(private.is_valid_tckn('19090909018'), 'the 10th TCKN digit uses a non-negative remainder');

-- ---------------------------------------------------------------------------------
-- Phones
-- ---------------------------------------------------------------------------------
select is(private.normalize_phone(input), expected, format('phone %s → %s', coalesce(to_json(input)::text, 'null'), coalesce(expected, 'null')))
  from (values
    -- Turkish numbers, every way they are written
    ('05321234567', '+905321234567'),
    ('0532 123 45 67', '+905321234567'),
    ('0 (532) 123-45-67', '+905321234567'),
    ('(0532) 123 45 67', '+905321234567'),
    ('0532.123.45.67', '+905321234567'),
    ('5321234567', '+905321234567'),
    ('532 123 4567', '+905321234567'),
    ('+905321234567', '+905321234567'),
    ('+90 532 123 45 67', '+905321234567'),
    ('+90 (532) 123-4567', '+905321234567'),
    ('0090 532 123 45 67', '+905321234567'),
    ('00905321234567', '+905321234567'),
    ('0212 555 12 34', '+902125551234'),
    ('(0216) 444-55-66', '+902164445566'),
    ('0312 123 45 67', '+903121234567'),
    (E'0232\t4641234', '+902324641234'),
    ('0850 222 33 44', '+908502223344'),
    ('4441234567', '+904441234567'),
    (E'0532\u00a0123\u00a045\u00a067', '+905321234567'),
    -- other countries
    ('+49 30 1234567', '+49301234567'),
    ('0049 30 1234567', '+49301234567'),
    ('+1 (415) 555-2671', '+14155552671'),
    ('+44 20 7946 0958', '+442079460958'),
    ('+12345678', '+12345678'),                  -- 8 digits, the shortest kept
    ('+123456789012345', '+123456789012345'),    -- 15 digits, the longest
    -- invalid
    ('+1234567', null),                          -- 7 digits
    ('+1234567890123456', null),                 -- 16 digits
    ('+0123456789', null),                       -- no country code starts with 0
    ('000123456789', null),
    ('0532123456', null),                        -- one digit short
    ('053212345678', null),                      -- one digit too many
    ('532123456', null),
    ('06321234567', null),                       -- no Turkish number starts with 6, 7, 9, 0 or 1
    ('01321234567', null),
    ('09001234567', null),
    ('6321234567', null),
    ('+90532123456', null),                      -- +90 with nine digits is not a Turkish number
    ('+9053212345678', null),
    ('+90 132 123 45 67', null),
    ('009053212345', null),
    ('905321234567', null),                      -- a country code needs + or 00
    ('+90-532-ABC-4567', null),
    ('0532/123 45 67', null),                    -- a slash is not dropped
    ('0532 123 45 67 dahili 12', null),
    ('+', null),
    ('00', null),
    ('', null),
    ('   ', null),
    (null, null)
  ) as cases (input, expected);

select is(
  array(select private.normalize_phone(private.normalize_phone(v))
          from unnest(array['05321234567', '+49 30 1234567', '0090 212 555 12 34']) as v),
  array['+905321234567', '+49301234567', '+902125551234'],
  'normalising a normalised number changes nothing');

-- ---------------------------------------------------------------------------------
-- Websites
-- ---------------------------------------------------------------------------------
select is(private.is_valid_website(input), expected, format('website %s → %s', coalesce(to_json(input)::text, 'null'), expected))
  from (values
    ('isikyazilim.com.tr', true),
    ('www.isikyazilim.com.tr', true),
    ('http://isikyazilim.com.tr', true),
    ('https://www.isikyazilim.com.tr/', true),
    ('HTTPS://WWW.ORNEK.COM', true),
    ('https://ornek.com.tr/urunler?kategori=gida#liste', true),
    ('https://ornek.com:8443/giris', true),
    ('ışık-yazılım.com.tr', true),
    ('https://güneş-enerji.com.tr/hakkımızda', true),
    ('a.co', true),
    ('xn--k-yazlm-8ya.com.tr', true),
    ('ornek.xn--90ae', true),
    ('https://' || repeat('a', 63) || '.com', true),
    ('ornek', false),                            -- no dot
    ('https://localhost', false),
    ('ornek.c', false),                          -- one-letter top-level domain
    ('ornek.123', false),
    ('ornek.com.', false),
    ('.ornek.com', false),
    ('ornek..com', false),
    ('-ornek.com', false),
    ('ornek-.com', false),
    ('isik yazilim.com', false),
    ('https://ornek.com/bir sayfa', false),
    (E'https://ornek.com/\u00a0', false),
    (E'ornek.com\n', false),
    (' ornek.com', false),
    ('ftp://ornek.com', false),
    ('https//ornek.com', false),
    ('https://', false),
    ('mailto:info@ornek.com', false),
    ('info@ornek.com', false),
    ('https://kullanici@ornek.com', false),
    ('https://' || repeat('a', 64) || '.com', false),   -- a label is at most 63 characters
    ('https://ornek.com:123456', false),
    ('', false),
    (null, false)
  ) as cases (input, expected);

select is(private.is_valid_website('https://ornek.com/' || repeat('a', 282)), true, 'a website of 300 characters is taken');
select is(private.is_valid_website('https://ornek.com/' || repeat('a', 283)), false, 'one of 301 is not');
select is(private.is_valid_website('https://ornek.com/' || repeat('ş', 282)), true, 'characters are counted, not bytes');
select is(private.is_valid_website('https://ornek.com/' || repeat('😀', 282)), true, 'an emoji is one character');
select is(private.is_valid_website('https://ornek.com/' || repeat('😀', 283)), false, 'and 301 of them are too many');

-- ---------------------------------------------------------------------------------
-- The functions themselves
-- ---------------------------------------------------------------------------------
select is(
  array(select format('%s %s %s', p.proname, p.provolatile, array_to_string(p.proconfig, ','))
          from pg_catalog.pg_proc p
         where p.pronamespace = 'private'::regnamespace
           and p.proname in ('is_valid_vkn', 'is_valid_tckn', 'normalize_phone', 'is_valid_website')
         order by p.proname),
  array['is_valid_tckn i search_path=""', 'is_valid_vkn i search_path=""',
        'is_valid_website i search_path=""', 'normalize_phone i search_path=""'],
  'all four are immutable with an empty search_path');

select tests.act_as_anon();
select throws_ok($$select private.is_valid_vkn('4540536920')$$, '42501', null, 'anon cannot call them');
select tests.reset_role();
select ok(not has_function_privilege('authenticated', 'private.normalize_phone(text)', 'execute'),
  'nor can a signed-in user');

select * from finish();
rollback;
