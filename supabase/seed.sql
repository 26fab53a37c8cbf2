-- Demo data for local development only (npm start, npm run db:reset). Never a migration.
-- Every password is Demo.1234. Runs on lite (PGlite or PostgreSQL) and on `supabase db reset`.

insert into private.organizations (id, slug, name) values
  ('0a000000-0000-4000-8000-000000000001', 'demo', 'Demo Ticaret A.Ş.'),
  ('0a000000-0000-4000-8000-000000000002', 'acme', 'Acme Sanayi Ltd.');

create temporary table demo_users (id uuid, email text, first_name text, last_name text, role text);
insert into demo_users values
  ('0b000000-0000-4000-8000-000000000001', 'super@demo.test', 'Süper', 'Yönetici', 'super_admin'),
  ('0b000000-0000-4000-8000-000000000002', 'admin@demo.test', 'Ayşe', 'Yılmaz', 'admin'),
  ('0b000000-0000-4000-8000-000000000003', 'satis@demo.test', 'Mehmet', 'Demir', 'user'),
  ('0b000000-0000-4000-8000-000000000004', 'admin@acme.test', 'John', 'Smith', 'admin'),
  ('0b000000-0000-4000-8000-000000000005', 'coklu@demo.test', 'Zeynep', 'Kaya', 'user'),
  ('0b000000-0000-4000-8000-000000000006', 'mudur@demo.test', 'Kerem', 'Aksoy', 'user');

-- Only the columns hosted GoTrue and lite share (DESIGN.md D3). The token columns are ''
-- because hosted GoTrue cannot read NULL there. crypt() with a bf salt gives the $2a$ hash
-- that both pgcrypto and GoTrue verify.
insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change_token_new, email_change,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select id, 'authenticated', 'authenticated', email,
       extensions.crypt('Demo.1234', extensions.gen_salt('bf', 10)), now(),
       '', '', '', '',
       '{"provider":"email","providers":["email"]}'::jsonb,
       jsonb_build_object('first_name', first_name, 'last_name', last_name),
       now(), now()
  from demo_users;

insert into auth.identities (id, provider, provider_id, user_id, identity_data, last_sign_in_at, created_at, updated_at)
select gen_random_uuid(), 'email', id::text, id,
       jsonb_build_object('sub', id::text, 'email', email, 'email_verified', true),
       now(), now(), now()
  from demo_users;

insert into private.profiles (id, email, first_name, last_name, role)
select id, email, first_name, last_name, role from demo_users;

-- The demo organization shows both ways sales teams work, with the default roles as they
-- come: Satış Temsilcisi (sales, held by satis@) sees only the records its members own,
-- while Satış Müdürü (manager, held by mudur@) sees and changes the whole organization's;
-- Kullanıcı (user, coklu@ there) sees every record but changes only its own, so refusals
-- of another owner's record show too.
insert into private.memberships (user_id, organization_id, role) values
  ('0b000000-0000-4000-8000-000000000002', '0a000000-0000-4000-8000-000000000001', 'admin'),
  ('0b000000-0000-4000-8000-000000000003', '0a000000-0000-4000-8000-000000000001', 'sales'),
  ('0b000000-0000-4000-8000-000000000004', '0a000000-0000-4000-8000-000000000002', 'admin'),
  ('0b000000-0000-4000-8000-000000000005', '0a000000-0000-4000-8000-000000000001', 'user'),
  ('0b000000-0000-4000-8000-000000000005', '0a000000-0000-4000-8000-000000000002', 'user'),
  ('0b000000-0000-4000-8000-000000000006', '0a000000-0000-4000-8000-000000000001', 'manager');

drop table demo_users;

-- Each organization's own tables (the stack's tenant-migration runner would provision
-- them too; doing it here keeps `supabase db reset` complete on its own).
select private.migrate_tenant(id) from private.organizations;

-- Demo customers and contacts. The demo organization gets 200 customers (170 companies
-- with a VKN, 30 persons, şahıs, with a TCKN) and two contacts each, spread over its three
-- members (created_by = owner); acme keeps three. Built from fixed word lists with
-- arithmetic over the loop counter (no random()), so every seed gives the same data; only
-- the ids and the dates (relative to now()) differ. Every tax number, phone, email and
-- website passes the rules the RPCs apply (private.is_valid_vkn and friends), checked here.
-- Exactly one customer's search text contains "isik": Işık Yazılım A.Ş., the newest one,
-- owned by satis@demo.test (the end-to-end tests search for it).
do $$
declare
  demo_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000001');
  acme_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000002');
  -- satış, admin, çoklu: the three members of demo who own records.
  owners uuid[] := array(
    select p.id from private.profiles p
     where p.email in ('satis@demo.test', 'admin@demo.test', 'coklu@demo.test')
     order by array_position(array['satis@demo.test', 'admin@demo.test', 'coklu@demo.test'], p.email::text));

  -- Company names: a stem, a trade (with its sector) and a legal form.
  stems text[] := array[
    'Çelik', 'Öztürk', 'Güneş', 'Ağaoğlu', 'Yıldız', 'Doğan', 'Şahin', 'Kılıç', 'Aydın', 'Özdemir',
    'Arslan', 'Koç', 'Bozkurt', 'Erdoğan', 'Çınar', 'Gökçe', 'Ünal', 'Sönmez', 'Türkmen', 'Karadağ',
    'Akdağ', 'Tunç', 'Uğur', 'Başaran', 'Bilgiç', 'Çağlar', 'Demirtaş', 'Anadolu', 'Marmara', 'Karadeniz',
    'Akdeniz', 'Toros', 'Boğaziçi', 'Kapadokya', 'Fırat', 'Dicle', 'Erciyes', 'Uludağ', 'Köroğlu', 'Gürsoy',
    'Yüksel', 'Özkan', 'Çakır', 'Şimşek', 'Ege', 'Trakya', 'Gülermak', 'Ülkü', 'Kalkan', 'Tekin',
    'Bayraktar', 'Güven', 'Ateş', 'Yavuz', 'Kaplan', 'Önder', 'Sezgin', 'Ekinci', 'Altun', 'Gündoğdu',
    'Sarıoğlu', 'Çamlıca', 'Ilgaz', 'Kaçkar', 'Munzur', 'Likya', 'Nemrut', 'Bereket', 'Özgür', 'Yeşil',
    'Birlik', 'Efe', 'Atlas', 'Akın', 'Zümrüt', 'Pınar', 'Kartal', 'Başak', 'Çağdaş', 'Doruk'];
  trades text[] := array[
    'Yazılım', 'Gıda', 'İnşaat', 'Enerji', 'Tekstil', 'Makine', 'Lojistik', 'Mobilya', 'Otomotiv', 'Kozmetik',
    'Danışmanlık', 'Turizm', 'Tarım', 'Plastik', 'Kimya', 'Ambalaj', 'Elektrik', 'Elektronik', 'Medikal', 'Mühendislik',
    'Reklamcılık', 'Döküm', 'Cam', 'Seramik', 'Süt Ürünleri', 'Orman Ürünleri', 'Su Ürünleri', 'Hırdavat',
    'Yapı Malzemeleri', 'Matbaacılık', 'Kuyumculuk', 'Deri', 'Halı', 'Eğitim Hizmetleri', 'Temizlik Hizmetleri',
    'Güvenlik Sistemleri', 'Nakliyat', 'Bilişim'];
  trade_sectors text[] := array[
    'Bilişim', 'Gıda', 'İnşaat', 'Enerji', 'Tekstil', 'Makine', 'Lojistik', 'Mobilya', 'Otomotiv', 'Kozmetik',
    'Danışmanlık', 'Turizm', 'Tarım', 'Kimya', 'Kimya', 'Ambalaj', 'Elektrik ve Elektronik', 'Elektrik ve Elektronik',
    'Sağlık', 'Mühendislik', 'Medya ve Reklam', 'Metal', 'Cam ve Seramik', 'Cam ve Seramik', 'Gıda',
    'Orman Ürünleri', 'Gıda', 'Yapı Malzemeleri', 'Yapı Malzemeleri', 'Matbaa', 'Kuyumculuk', 'Tekstil', 'Tekstil',
    'Eğitim', 'Hizmet', 'Güvenlik', 'Lojistik', 'Bilişim'];
  legal_forms text[] := array['A.Ş.', 'Ltd. Şti.', 'San. ve Tic. A.Ş.', 'San. ve Tic. Ltd. Şti.', '', 'Tic. Ltd. Şti.', 'A.Ş.', ''];
  -- The first companies, written out: [stem, trade, legal form] as indexes into the lists above.
  featured int[] := array[
    [0, 1, 1],      -- Işık Yazılım A.Ş. (stem 0: see below)
    [1, 2, 4],      -- Çelik Gıda San. ve Tic. Ltd. Şti.
    [2, 3, 5],      -- Öztürk İnşaat
    [3, 4, 5],      -- Güneş Enerji
    [4, 5, 1],      -- Ağaoğlu Tekstil A.Ş.
    [15, 2, 2],     -- Çınar Gıda Ltd. Şti.
    [2, 6, 3],      -- Öztürk Makine San. ve Tic. A.Ş.
    [28, 7, 1],     -- Anadolu Lojistik A.Ş.
    [45, 8, 5],     -- Ege Mobilya
    [33, 11, 5],    -- Boğaziçi Danışmanlık
    [30, 27, 5],    -- Karadeniz Su Ürünleri
    [7, 9, 5],      -- Şahin Otomotiv
    [29, 3, 1]];    -- Marmara İnşaat A.Ş.

  first_names text[] := array[
    'Ayşe', 'Mehmet', 'Fatma', 'Mustafa', 'Emine', 'Ahmet', 'Hatice', 'Ali', 'Zeynep', 'Hüseyin',
    'Elif', 'Hasan', 'Özge', 'İbrahim', 'Şule', 'Murat', 'Gülşen', 'Çağrı', 'Büşra', 'Oğuz',
    'Gökhan', 'Merve', 'Ümit', 'Sevgi', 'Tuğba', 'Serkan', 'Nurşen', 'Barış', 'Deniz', 'Ömer',
    'Cansu', 'İsmail', 'Dilek', 'Yusuf', 'Gizem', 'Burak', 'Sibel', 'Kübra', 'Erdem', 'Şeyma', 'Ilgın'];
  last_names text[] := array[
    'Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Yıldırım', 'Öztürk', 'Aydın', 'Özdemir',
    'Arslan', 'Doğan', 'Kılıç', 'Aslan', 'Çetin', 'Kara', 'Koç', 'Kurt', 'Özkan', 'Şimşek',
    'Polat', 'Korkmaz', 'Çakır', 'Erdoğan', 'Akgül', 'Güneş', 'Aksoy', 'Bulut', 'Keskin', 'Ünal',
    'Gül', 'Türkoğlu', 'Sarıkaya', 'Başaran', 'Güler', 'Uçar', 'Bozkurt', 'Eğilmez', 'Ölmez', 'Çağlayan', 'Ilıcalı'];
  titles text[] := array[
    'Genel Müdür', 'Satın Alma Müdürü', 'Muhasebe Uzmanı', 'Finans Müdürü', 'Satış Müdürü',
    'Bilgi İşlem Müdürü', 'İnsan Kaynakları Uzmanı', 'Pazarlama Sorumlusu', 'Üretim Şefi', 'Lojistik Sorumlusu',
    'Kalite Güvence Uzmanı', 'Yönetim Kurulu Başkanı', 'Ön Muhasebe Elemanı', 'Satın Alma Uzmanı', 'Genel Müdür Yardımcısı'];
  title_tags text[] := array['Karar Verici', 'Satın Alma', 'Finans', 'Finans', '', 'Teknik', '', '', 'Teknik', '',
                             'Teknik', 'Karar Verici', 'Finans', 'Satın Alma', 'Karar Verici'];
  person_sectors text[] := array['Perakende', 'Serbest Meslek', 'Tarım', 'Danışmanlık', 'Sağlık', 'Gıda'];
  -- [city, district, area code]; İstanbul, Ankara and İzmir more often, as in life.
  places text[] := array[
    ['İstanbul', 'Kadıköy', '216'], ['İstanbul', 'Şişli', '212'], ['Ankara', 'Çankaya', '312'],
    ['İzmir', 'Karşıyaka', '232'], ['Bursa', 'Nilüfer', '224'], ['İstanbul', 'Beşiktaş', '212'],
    ['İstanbul', 'Ümraniye', '216'], ['Ankara', 'Yenimahalle', '312'], ['İzmir', 'Bornova', '232'],
    ['Antalya', 'Muratpaşa', '242'], ['İstanbul', 'Başakşehir', '212'], ['Konya', 'Selçuklu', '332'],
    ['Kocaeli', 'Gebze', '262'], ['Adana', 'Seyhan', '322'], ['Gaziantep', 'Şahinbey', '342'],
    ['İstanbul', 'Ataşehir', '216'], ['Kayseri', 'Melikgazi', '352'], ['Eskişehir', 'Tepebaşı', '222'],
    ['Trabzon', 'Ortahisar', '462'], ['Samsun', 'Atakum', '362'], ['Denizli', 'Pamukkale', '258'],
    ['Mersin', 'Yenişehir', '324'], ['Tekirdağ', 'Çorlu', '282'], ['Muğla', 'Bodrum', '252'],
    ['Ankara', 'Keçiören', '312'], ['Bursa', 'Osmangazi', '224']];
  streets text[] := array['Atatürk Cad.', 'Cumhuriyet Cad.', 'İnönü Cad.', 'Gazi Mustafa Kemal Bulvarı', 'Fevzi Çakmak Sok.',
                          'Menekşe Sok.', 'Lale Sok.', 'Organize Sanayi Bölgesi 3. Cad.', 'Çiçek Sok.', 'Ihlamur Sok.',
                          'Bağdat Cad.', 'Şehit Mehmet Doğan Sok.', 'Gül Sok.', 'Karanfil Sok.'];
  customer_tags text[] := array['VIP', 'Bayi', 'İhracatçı', 'Fuar 2025', 'Toptan', 'Kamu', 'E-fatura', 'Referans'];
  descriptions text[] := array[
    'Yıllık sözleşme yenilemesi mart ayında görüşülecek.', 'Ödemeler 60 gün vadeli; çek kabul ediyor.',
    'Yeni şubesi için teklif bekliyor.', 'Fuarda tanışıldı; ürün kataloğu gönderildi.', null, null];
  mobile_prefixes text[] := array['532', '533', '535', '542', '543', '544', '505', '506', '552', '554', '555', '530'];
  kvkk_channels text[] := array['form', 'email', 'phone', 'in_person', 'other'];
  kvkk_sources text[] := array['Web formu 2026', 'E-posta ile onay', 'Telefon görüşmesi (kayıt altında)',
                               'Islak imzalı aydınlatma metni', 'Bayi toplantısı 2025'];
  mail_providers text[] := array['gmail.com', 'hotmail.com', 'outlook.com', 'yandex.com'];

  names text[] := '{}';
  n int := 0;                  -- candidate counter for generated company names
  stem_index int;
  trade_index int;
  form_index int;
  customer_name text;
  customer_kind text;
  customer_sector text;
  domain text;
  customer_website text;
  tax_number text;
  digits int[];
  tmp int;
  total int;
  place text[];
  customer_phone text;
  customer_email text;
  age interval;
  owner uuid;
  customer_id uuid;
  contact_first text;
  contact_last text;
  contact_title_index int;
  contact_emails jsonb;
  contact_phones jsonb;
  consent boolean;
  k int;
begin
  for i in 1..200 loop
    -- The name, kind and sector.
    if i <= 170 then
      customer_kind := 'company';
      if i <= array_length(featured, 1) then
        stem_index := featured[i][1];
        trade_index := featured[i][2];
        form_index := featured[i][3];
      else
        loop
          stem_index := 1 + n % array_length(stems, 1);
          trade_index := 1 + (n + 7 * (n / array_length(stems, 1))) % array_length(trades, 1);
          form_index := 1 + (n * 5 + n / array_length(stems, 1)) % array_length(legal_forms, 1);
          n := n + 1;
          exit when not (stems[stem_index] || ' ' || trades[trade_index]) = any (names);
        end loop;
      end if;
      customer_name := case when stem_index = 0 then 'Işık' else stems[stem_index] end || ' ' || trades[trade_index];
      names := names || customer_name;
      customer_name := btrim(customer_name || ' ' || legal_forms[form_index]);
      customer_sector := trade_sectors[trade_index];
      domain := lower(translate(split_part(customer_name, ' ', 1) || trades[trade_index], 'çğıöşüÇĞİÖŞÜ ', 'cgiosucgiosu'))
                || case when i % 7 = 3 then '.com' else '.com.tr' end;
      customer_email := case when i % 4 = 2 then 'bilgi@' else 'info@' end || domain;
      customer_website := case i % 5 when 0 then null when 3 then 'www.' || domain when 4 then 'https://' || domain
                                     else 'https://www.' || domain end;
      -- A VKN: nine digits from a bijection of i (7^11 is prime to 9·10^8), then the check digit.
      tax_number := (100000000 + (i::bigint * 1977326743 + 271828183) % 900000000)::text;
      total := 0;
      for d in 1..9 loop
        tmp := (substr(tax_number, d, 1)::int + 10 - d) % 10;
        total := total + case when tmp = 9 then 9 else (tmp * (2 ^ (10 - d))::int) % 9 end;
      end loop;
      tax_number := tax_number || ((10 - total % 10) % 10)::text;
      if not private.is_valid_vkn(tax_number) then
        raise exception 'seed: invalid VKN % for %', tax_number, customer_name;
      end if;
    else
      customer_kind := 'person';
      customer_name := first_names[1 + (i * 7) % array_length(first_names, 1)] || ' '
                       || last_names[1 + (i * 13) % array_length(last_names, 1)];
      customer_sector := person_sectors[1 + i % array_length(person_sectors, 1)];
      customer_email := lower(translate(customer_name, 'çğıöşüÇĞİÖŞÜ ', 'cgiosucgiosu.'))
                        || '@' || mail_providers[1 + i % array_length(mail_providers, 1)];
      domain := null;
      customer_website := null;
      -- A TCKN: a first digit 1-9, eight more, then the two check digits.
      tax_number := (1 + i % 9)::text || lpad(((i::bigint * 40353607 + 31415926) % 100000000)::text, 8, '0');
      digits := array(select substr(tax_number, d, 1)::int from generate_series(1, 9) as d order by d);
      tmp := (((digits[1] + digits[3] + digits[5] + digits[7] + digits[9]) * 7
               - (digits[2] + digits[4] + digits[6] + digits[8])) % 10 + 10) % 10;
      tax_number := tax_number || tmp::text
                    || ((digits[1] + digits[2] + digits[3] + digits[4] + digits[5] + digits[6] + digits[7] + digits[8]
                         + digits[9] + tmp) % 10)::text;
      if not private.is_valid_tckn(tax_number) then
        raise exception 'seed: invalid TCKN % for %', tax_number, customer_name;
      end if;
    end if;

    -- Where, how to reach them, who owns them, since when.
    place := places[1 + (i * 3) % array_length(places, 1):1 + (i * 3) % array_length(places, 1)];
    customer_phone := '+90' || case when customer_kind = 'company'
                                    then place[1][3] || (2000000 + (i * 7349) % 8000000)::text
                                    else mobile_prefixes[1 + i % array_length(mobile_prefixes, 1)]
                                         || (2000000 + (i * 6151) % 8000000)::text end;
    if private.normalize_phone(customer_phone) is distinct from customer_phone or not private.is_valid_email(customer_email)
       or (customer_website is not null and not private.is_valid_website(customer_website)) then
      raise exception 'seed: invalid phone, email or website for %', customer_name;
    end if;
    owner := case when i = 1 then owners[1] else owners[1 + i % 3] end;
    -- Işık Yazılım is the newest; the others go back up to a year and a half.
    age := case when i = 1 then interval '2 hours'
                else (1 + (i * 37) % 540) * interval '1 day' + ((i * 7) % 24) * interval '1 hour' end;

    execute format($insert$
      insert into %I.customers (name, kind, tax_number, tax_office, sector, status, phone, email, website,
                                city, district, address, tags, description, owner_id, created_by, created_at, updated_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, now() - $16,
              least(now(), now() - $16 + mod($17, 30) * interval '1 day'))
      returning id$insert$, demo_schema)
      into customer_id
      using customer_name, customer_kind, tax_number, place[1][2] || ' Vergi Dairesi', customer_sector,
            case when i % 20 < 7 then 'lead' when i % 20 < 16 then 'active' else 'passive' end,
            customer_phone, customer_email, customer_website, place[1][1], place[1][2],
            streets[1 + i % array_length(streets, 1)] || ' No: ' || (1 + (i * 11) % 180)::text
              || case when i % 3 = 0 then ' Kat: ' || (1 + i % 8)::text else '' end
              || ' ' || place[1][2] || '/' || place[1][1],
            array(select customer_tags[1 + (i * (t + 2)) % array_length(customer_tags, 1)]
                    from generate_series(1, i % 4) as t group by 1 order by 1),
            descriptions[1 + i % array_length(descriptions, 1)], owner, age, i;

    -- Two contacts each: for a person, the person and their accountant.
    for j in 1..2 loop
      k := 2 * i + j;
      if customer_kind = 'person' and j = 1 then
        contact_first := split_part(customer_name, ' ', 1);
        contact_last := split_part(customer_name, ' ', 2);
      else
        contact_first := first_names[1 + (k * 7) % array_length(first_names, 1)];
        contact_last := last_names[1 + (k * 11 + i) % array_length(last_names, 1)];
      end if;
      contact_title_index := 1 + (k * 3 + i) % array_length(titles, 1);
      contact_emails := jsonb_build_array(jsonb_build_object('label', 'work', 'value',
        lower(translate(contact_first || '.' || contact_last, 'çğıöşüÇĞİÖŞÜ ', 'cgiosucgiosu'))
        || '@' || coalesce(domain, mail_providers[1 + k % array_length(mail_providers, 1)])));
      if k % 3 = 0 then
        contact_emails := contact_emails || jsonb_build_array(jsonb_build_object('label', case when k % 2 = 0 then 'home' else 'other' end,
          'value', lower(translate(contact_first || contact_last, 'çğıöşüÇĞİÖŞÜ ', 'cgiosucgiosu'))
                   || (10 + k % 90)::text || '@' || mail_providers[1 + (k / 3) % array_length(mail_providers, 1)]));
      end if;
      contact_phones := jsonb_build_array(jsonb_build_object('label', 'mobile', 'value',
        '+90' || mobile_prefixes[1 + k % array_length(mobile_prefixes, 1)] || (2000000 + (k * 4973) % 8000000)::text));
      if k % 2 = 0 and customer_kind = 'company' then
        contact_phones := contact_phones || jsonb_build_array(jsonb_build_object('label', 'work', 'value', customer_phone));
      end if;
      consent := k % 10 not in (0, 7);
      execute format($insert$
        insert into %I.contacts (customer_id, first_name, last_name, title, emails, phones, tags, description,
                                 kvkk_consent, kvkk_consent_channel, kvkk_consent_at, kvkk_consent_source, iys_consent,
                                 owner_id, created_by, created_at, updated_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $15)$insert$, demo_schema)
        using customer_id, contact_first, contact_last,
              case when customer_kind = 'person' then case j when 1 then 'İşletme Sahibi' else 'Mali Müşavir' end
                   else titles[contact_title_index] end,
              contact_emails, contact_phones,
              case when customer_kind = 'person' or title_tags[contact_title_index] = '' then '{}'::text[]
                   else array[title_tags[contact_title_index]] end,
              case when k % 9 = 0 then 'Salı ve perşembe günleri ofiste.' when k % 13 = 0 then 'Teklifleri e-postayla istiyor.' end,
              consent,
              case when consent then kvkk_channels[1 + k % 5] end,
              case when consent then now() - age + j * interval '10 minutes' end,
              case when consent then kvkk_sources[1 + k % 5] end,
              jsonb_build_object('call', consent and k % 3 <> 0, 'sms', consent and k % 4 < 2, 'email', consent and k % 5 <> 4),
              owner, now() - age + j * interval '5 minutes';
    end loop;
  end loop;

  if (select count(distinct x) from unnest(names) as x) <> 170 then
    raise exception 'seed: company names are not unique';
  end if;

  execute format($insert$
    insert into %I.customers (name, owner_id, created_by)
    values ('Toros Çelik A.Ş.', $1, $1), ('Kapadokya Turizm', $1, $1), ('Akdeniz Tarım', $1, $1)$insert$, acme_schema)
    using '0b000000-0000-4000-8000-000000000004'::uuid;
end;
$$;

-- =================================================================================
-- Deals (issue 12, deals part) — demo pipeline
-- =================================================================================
-- 150 deals of the demo organization over every stage of its pipeline (30 lead, 20
-- qualified, 30 proposal, 20 negotiation, 30 won, 20 lost), owned in turn by satis@,
-- admin@ and coklu@demo.test, each on a demo customer with one or two of its contacts.
-- Amounts mostly in TRY, 14 in EUR and 14 in USD (demo exchange rates below); expected
-- close dates from two months ago to six months ahead; won and lost deals have closed_at
-- (lost ones a reason); every deal's stage history walks the pipeline up to its stage,
-- by its owner. Arithmetic over the loop counter only (no random()), so the numbers
-- are the same on every seed; ids and dates (relative to now()) differ.
update private.organization_settings set exchange_rates = '{"USD": 41.2, "EUR": 44.9}'
 where organization_id = '0a000000-0000-4000-8000-000000000001';

-- The demo organization's own details, printed on its quotes and contracts: a VKN and
-- IBANs with valid check digits (no real company's or account's).
update private.organization_settings
   set legal_name = 'Demo Ticaret Anonim Şirketi', address = 'Barbaros Bulvarı No: 145 Kat: 4',
       province = 'İstanbul', district = 'Beşiktaş', tax_office = 'Beşiktaş', tax_number = '2910045871',
       mersis_number = '0291004587100015', phone = '+902123450100', email = 'teklif@demoticaret.com.tr',
       website = 'www.demoticaret.com.tr',
       bank_accounts = '[{"iban": "TR180006200119000006672315", "bank_name": "Garanti BBVA"},
                         {"iban": "TR080006400000112340012345", "bank_name": "Türkiye İş Bankası"}]'
 where organization_id = '0a000000-0000-4000-8000-000000000001';

do $$
declare
  demo_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000001');
  owners uuid[] := array(
    select p.id from private.profiles p
     where p.email in ('satis@demo.test', 'admin@demo.test', 'coklu@demo.test')
     order by array_position(array['satis@demo.test', 'admin@demo.test', 'coklu@demo.test'], p.email::text));
  stages jsonb := (select s.deal_stages from private.organization_settings s
                    where s.organization_id = '0a000000-0000-4000-8000-000000000001');
  -- 15 slots: lead ×3, qualified ×2, proposal ×3, negotiation ×2, won ×3, lost ×2.
  stage_slots text[] := array['lead', 'qualified', 'proposal', 'lead', 'negotiation', 'won', 'proposal', 'lost',
                              'won', 'qualified', 'lead', 'proposal', 'won', 'negotiation', 'lost'];
  open_path text[] := array['lead', 'qualified', 'proposal', 'negotiation'];
  offers text[] := array[
    'ERP lisans yenilemesi', 'Yıllık bakım sözleşmesi', 'CRM kurulumu', 'Depo otomasyonu', 'Çatı tipi güneş paneli',
    'Filo kiralama', 'Ofis mobilyası yenileme', 'Sunucu altyapısı', 'Satış ekibi eğitimi', 'Kurumsal web sitesi',
    'Ambalaj makinesi', 'ISO 9001 danışmanlığı', 'Enerji verimliliği etüdü', 'Güvenlik kamerası sistemi',
    'Yedek parça tedariki', 'Soğuk zincir lojistiği', 'E-fatura entegrasyonu', 'Bulut yedekleme', 'Personel servisi',
    'Tanıtım filmi', 'Bayi portalı', 'Üretim planlama yazılımı'];
  sources text[] := array['Web sitesi', 'Fuar', 'Referans', 'Telefon', 'E-posta kampanyası', 'Bayi', null];
  deal_tags text[] := array['Öncelikli', 'Yenileme', 'Kamu ihalesi', 'Çapraz satış', 'İhracat'];
  lost_reasons text[] := array['Fiyat yüksek bulundu', 'Rakip firmayı seçti', 'Bütçe gelecek yıla ertelendi',
                               'Proje iptal edildi', 'Teknik gereksinimler karşılanamadı'];
  descriptions text[] := array[
    'Karar verici satın alma müdürü; teklif revizyonu bekleniyor.', 'Pilot uygulama için iki şube seçildi.',
    'Ödeme planı 3 taksit olarak konuşuldu.', null, null];
  customers uuid[];
  customer_names text[];
  stage text;
  final_index int;
  path text[];
  outcome text;
  currency text;
  amount numeric;
  probability int;
  created timestamptz;
  closed timestamptz;
  expected date;
  last_change timestamptz;
  step_time timestamptz;
  owner uuid;
  deal_id uuid;
  customer_index int;
begin
  execute format('select array_agg(c.id order by c.tax_number), array_agg(c.name order by c.tax_number)
                    from %I.customers c where c.deleted_at is null', demo_schema)
    into customers, customer_names;

  for i in 1..150 loop
    stage := stage_slots[1 + (i * 4) % 15];
    outcome := (select s ->> 'outcome' from jsonb_array_elements(stages) s where s ->> 'key' = stage);
    owner := owners[1 + i % 3];
    customer_index := 1 + (i * 7) % array_length(customers, 1);
    currency := case i % 11 when 3 then 'EUR' when 7 then 'USD' else 'TRY' end;
    amount := case when currency = 'TRY' then (3 + (i * 7919) % 97) * 12500
                   else (2 + (i * 7919) % 37) * 1000 end;
    probability := (select (s ->> 'probability')::int from jsonb_array_elements(stages) s where s ->> 'key' = stage);
    if outcome = 'open' and i % 9 = 0 then
      probability := probability + 5;
    end if;

    -- The path through the pipeline: open stages up to this one; a won deal walks them
    -- all; a lost one leaves from one of them.
    if outcome = 'open' then
      final_index := array_position(open_path, stage);
      path := open_path[1:final_index];
    elsif outcome = 'won' then
      path := open_path[1:2 + i % 3] || stage;
    else
      path := open_path[1:1 + i % 4] || stage;
    end if;

    if outcome = 'open' then
      closed := null;
      created := now() - (20 + (i * 17) % 150) * interval '1 day' - (i % 9) * interval '1 hour';
      -- From two months ago to six months ahead.
      expected := current_date + ((i * 37) % 240) - 60;
      last_change := now() - ((i * 5) % 15 + 1) * interval '1 day';
    else
      closed := now() - (1 + (i * 13) % 60) * interval '1 day' - (i % 7) * interval '1 hour';
      created := closed - (25 + i % 90) * interval '1 day';
      expected := (closed + ((i % 11) - 5) * interval '1 day')::date;
      last_change := closed;
    end if;

    execute format($insert$
      insert into %I.deals (title, customer_id, amount, currency, stage, probability, expected_close_date, source,
                            description, tags, lost_reason, closed_at, owner_id, created_by, created_at, updated_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $15)
      returning id$insert$, demo_schema)
      into deal_id
      using offers[1 + (i * 5) % array_length(offers, 1)] || ' – '
              || array_to_string((string_to_array(customer_names[customer_index], ' '))[1:2], ' '),
            customers[customer_index], amount, currency, stage, probability, expected,
            sources[1 + i % array_length(sources, 1)], descriptions[1 + i % array_length(descriptions, 1)],
            case when i % 4 = 0 then array[deal_tags[1 + (i / 4) % array_length(deal_tags, 1)]] else '{}'::text[] end,
            case when outcome = 'lost' then lost_reasons[1 + i % array_length(lost_reasons, 1)] end,
            closed, owner, created, last_change;

    -- The stage history the path gives: the first stage at creation, each next one spread
    -- evenly up to the last change.
    execute format('delete from %I.deal_stage_history where deal_id = $1', demo_schema) using deal_id;
    for step in 1..array_length(path, 1) loop
      step_time := case when step = 1 then created
                        else created + (last_change - created) * (step - 1) / (array_length(path, 1) - 1) end;
      execute format('insert into %I.deal_stage_history (deal_id, from_stage, to_stage, changed_by, changed_at)
                      values ($1, $2, $3, $4, $5)', demo_schema)
        using deal_id, case when step > 1 then path[step - 1] end, path[step], owner, step_time;
    end loop;

    -- One or two of the customer's contacts.
    execute format('insert into %1$I.deal_contacts (deal_id, contact_id, created_by, created_at)
                    select $1, c.id, $2, $3 from %1$I.contacts c
                     where c.customer_id = $4 and c.deleted_at is null
                     order by c.created_at, c.last_name limit $5', demo_schema)
      using deal_id, owner, created, customers[customer_index], case when i % 3 = 0 then 2 else 1 end;
  end loop;

  if (select count(distinct s) from unnest(stage_slots) s) <> jsonb_array_length(stages) then
    raise exception 'seed: the deals do not cover every stage of the demo pipeline';
  end if;
end;
$$;

-- =================================================================================
-- Tasks and notifications (issue 12, tasks part)
-- =================================================================================
-- 300 tasks of the demo organization owned in turn by satis@, admin@ and coklu@demo.test
-- (every fifth assigned by admin@ to someone else): every task type of the organization,
-- every priority and status (half open, a fifth in progress, a fifth done, a tenth
-- cancelled), two dozen due earlier or later today (Istanbul time), some overdue,
-- some without a due date, a quarter with a reminder; each on a demo customer, a third
-- with one of its contacts, a quarter on one of the customer's deals (when the deals
-- block above made them). What was already due or reminded when the seed ran counts as
-- announced, so the first due-items run announces only what comes due from then on. A
-- few unread notifications (and a read one) per demo member so the bell shows something
-- at first sign-in; acme gets one task for coklu@ to show the bell per organization.
-- Arithmetic over the loop counter only (no random()): the same tasks on every seed.
do $$
declare
  demo_org constant uuid := '0a000000-0000-4000-8000-000000000001';
  demo_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000001');
  acme_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000002');
  owners uuid[] := array(
    select p.id from private.profiles p
     where p.email in ('satis@demo.test', 'admin@demo.test', 'coklu@demo.test')
     order by array_position(array['satis@demo.test', 'admin@demo.test', 'coklu@demo.test'], p.email::text));
  admin_id constant uuid := '0b000000-0000-4000-8000-000000000002';
  zone text := (select s.time_zone from private.organization_settings s where s.organization_id = '0a000000-0000-4000-8000-000000000001');
  task_types text[] := (select array_agg(t order by n) from private.organization_settings s,
                                jsonb_array_elements_text(s.task_types) with ordinality e (t, n)
                         where s.organization_id = '0a000000-0000-4000-8000-000000000001');
  titles_by_type text[] := array[
    'Telefonla teklif durumunu sor', 'Yıllık değerlendirme toplantısı', 'Fiyat listesini e-postayla gönder',
    'Fabrika ziyareti', 'Sözleşme taslağını gözden geçir',
    'Ödeme vadesini görüş', 'Ürün demosu toplantısı', 'Teşekkür e-postası gönder',
    'Yeni şubeyi ziyaret et', 'Referans mektubunu hazırla',
    'Satın almayı ara', 'Proje başlangıç toplantısı', 'Revize teklifi gönder', 'Depo ziyareti', 'Numune gönderimini takip et'];
  descriptions text[] := array[
    'Geçen görüşmede fiyatın yüksek bulunduğunu söylediler; indirim payını sor.',
    'Toplantı notlarını CRM''e eklemeyi unutma.', 'Karar verici genel müdür; asistanı üzerinden randevu alınıyor.',
    null, null, null];
  priorities text[] := array['low', 'normal', 'normal', 'high', 'urgent'];
  today_start timestamptz := date_trunc('day', now() at time zone zone) at time zone zone;
  customers uuid[];
  customer_names text[];
  deals uuid[];
  deal_customers uuid[];
  deal_titles text[];
  task_type text;
  title text;
  status text;
  due timestamptz;
  remind timestamptz;
  created timestamptz;
  owner uuid;
  creator uuid;
  customer_id uuid;
  contact_id uuid;
  deal_id uuid;
  customer_index int;
  deal_index int;
  complete boolean;
begin
  if cardinality(task_types) is distinct from 5 then
    raise exception 'seed: the demo organization should have the five default task types';
  end if;
  execute format('select array_agg(c.id order by c.tax_number), array_agg(c.name order by c.tax_number)
                    from %I.customers c where c.deleted_at is null', demo_schema)
    into customers, customer_names;
  execute format('select array_agg(d.id order by d.created_at, d.title), array_agg(d.customer_id order by d.created_at, d.title),
                         array_agg(d.title order by d.created_at, d.title)
                    from %I.deals d where d.deleted_at is null and d.customer_id is not null', demo_schema)
    into deals, deal_customers, deal_titles;

  for i in 1..300 loop
    task_type := task_types[1 + i % 5];
    title := titles_by_type[1 + (i % 5) + 5 * ((i / 5) % 3)];
    status := case when i % 10 < 5 then 'open' when i % 10 < 7 then 'in_progress' when i % 10 < 9 then 'done' else 'cancelled' end;
    owner := owners[1 + (i * 7) % 3];
    creator := case when i % 5 = 0 and owner <> admin_id then admin_id else owner end;
    created := now() - (2 + (i * 13) % 40) * interval '1 day' - (i % 8) * interval '1 hour';
    -- When: two dozen today (some past, some later), overdue ones, undated ones, the rest
    -- from five days ago to five weeks ahead.
    due := case
      when i % 25 = 0 then null
      when i % 12 = 0 then today_start + (8 + i % 11) * interval '1 hour'
      when i % 12 = 1 then now() - (1 + i % 9) * interval '1 day' - (i % 5) * interval '1 hour'
      else now() + ((i * 17) % 45 - 5) * interval '1 day' + (9 + i % 8 - extract(hour from now() at time zone zone)::int) * interval '1 hour' end;
    remind := case when due is not null and i % 4 = 0 then due - case when i % 8 = 0 then interval '1 day' else interval '1 hour' end end;

    -- On what: a customer; a third of them with a contact of its own; a quarter on a deal
    -- (and that deal's customer).
    customer_index := 1 + (i * 11) % array_length(customers, 1);
    customer_id := customers[customer_index];
    deal_id := null;
    if i % 4 = 1 and coalesce(array_length(deals, 1), 0) > 0 then
      deal_index := 1 + (i * 13) % array_length(deals, 1);
      deal_id := deals[deal_index];
      customer_id := deal_customers[deal_index];
    end if;
    contact_id := null;
    if i % 3 = 0 then
      execute format('select c.id from %I.contacts c where c.customer_id = $1 and c.deleted_at is null
                       order by c.created_at, c.last_name limit 1', demo_schema)
        into contact_id using customer_id;
    end if;

    execute format($insert$
      insert into %I.tasks (title, description, type, priority, status, due_at, remind_at, completed_at, completed_by,
                            customer_id, contact_id, deal_id, reminded_at, due_notified_at, overdue_notified_at,
                            owner_id, created_by, created_at, updated_at)
      values ($1, $2, $3, $4::private.task_priority, $5::private.task_status, $6, $7,
              case when $5 = 'done' then least(now(), coalesce($6, $14 + interval '3 days')) end,
              case when $5 = 'done' then $12 end,
              $8, $9, $10,
              case when $7 <= now() then now() end,
              case when $6 <= now() + interval '1 hour' then now() end,
              case when $6 <= now() then now() end,
              $12, $13, $14, least(now(), $14 + mod($11, 5) * interval '1 day'))$insert$, demo_schema)
      using title, descriptions[1 + i % array_length(descriptions, 1)], task_type, priorities[1 + (i * 3 + i / 10) % 5], status,
            due, remind, customer_id, contact_id, deal_id, i, owner, creator, created;
  end loop;

  -- Every type, priority and status is there; and today, overdue and reminders too.
  execute format($check$
    select count(distinct type) = 5 and count(distinct priority) = 4 and count(distinct status) = 4
           and count(*) filter (where status in ('open', 'in_progress') and due_at < now()) >= 20
           and count(*) filter (where due_at >= $1 and due_at < $1 + interval '1 day') >= 10
           and count(*) filter (where remind_at is not null and status in ('open', 'in_progress') and remind_at > now()) >= 10
      from %I.tasks$check$, demo_schema)
    into complete using today_start;
  if not complete then
    raise exception 'seed: the demo tasks miss a type, priority, status, overdue, today or reminder case';
  end if;

  -- The bell: a few unread notifications per member (newest first), and a read one.
  execute format($notify$
    with picked as (
      select distinct on (t.owner_id, kind.kind) t.owner_id, kind.kind, kind.position, t.id, t.title, t.created_by
        from %I.tasks t
       cross join (values ('task_assigned', 1), ('task_overdue', 2), ('task_reminder', 3), ('task_due', 4)) kind (kind, position)
       where t.deleted_at is null and t.status in ('open', 'in_progress')
         and case kind.kind
               when 'task_assigned' then t.created_by <> t.owner_id
               when 'task_overdue' then t.due_at < now()
               when 'task_reminder' then t.remind_at is not null
               else t.due_at > now() end
       order by t.owner_id, kind.kind,
                case kind.kind when 'task_assigned' then -extract(epoch from t.created_at)
                               when 'task_reminder' then extract(epoch from t.remind_at)
                               else extract(epoch from t.due_at) end,
                t.title
    )
    insert into private.notifications (organization_id, user_id, kind, module, record_id, title, actor_id, created_at, read_at)
    select $1, p.owner_id, p.kind, 'tasks', p.id, p.title, case when p.kind = 'task_assigned' then p.created_by end,
           now() - (p.position * 47) * interval '1 minute',
           case when p.kind = 'task_due' then now() - interval '5 minutes' end
      from picked p$notify$, demo_schema)
    using demo_org;
  if coalesce(array_length(deals, 1), 0) > 0 then
    execute format($notify$
      insert into private.notifications (organization_id, user_id, kind, module, record_id, title, actor_id, created_at)
      select $1, d.owner_id, 'deal_assigned', 'deals', d.id, d.title, $2, now() - interval '25 minutes'
        from (select distinct on (d.owner_id) * from %I.deals d where d.owner_id <> $2 and d.deleted_at is null
               order by d.owner_id, d.created_at desc, d.title) d$notify$, demo_schema)
      using demo_org, admin_id;
  end if;

  -- acme: coklu@ works there too and has one task from John (their bell there is separate).
  execute format($insert$
    insert into %I.tasks (title, type, priority, due_at, owner_id, created_by)
    values ('Toros Çelik siparişini teyit et', 'call', 'high', now() + interval '2 days', $1, $2)
    returning id$insert$, acme_schema)
    into deal_id using '0b000000-0000-4000-8000-000000000005'::uuid, '0b000000-0000-4000-8000-000000000004'::uuid;
  insert into private.notifications (organization_id, user_id, kind, module, record_id, title, actor_id, created_at)
  values ('0a000000-0000-4000-8000-000000000002', '0b000000-0000-4000-8000-000000000005', 'task_assigned', 'tasks', deal_id,
          'Toros Çelik siparişini teyit et', '0b000000-0000-4000-8000-000000000004', now() - interval '3 hours');
end;
$$;

-- =================================================================================
-- Contracts (issue 13, contracts part)
-- =================================================================================
-- 24 contracts of the demo organization owned in turn by satis@, admin@ and coklu@demo.test,
-- on demo customers, of every type: drafts, active ones (four of them ending within 60
-- days, some renewing themselves), expired and terminated ones, mostly in TRY, some in EUR;
-- and one renewal chain (a term renewed into the current one). acme has one contract of
-- its own. Numbers come from the pattern (SZL-{YYYY}-{SEQ:5}) as the trigger gives them.
-- Arithmetic over the loop counter only (no random()); dates are relative to today.
do $$
declare
  demo_org constant uuid := '0a000000-0000-4000-8000-000000000001';
  demo_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000001');
  acme_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000002');
  owners uuid[] := array(
    select p.id from private.profiles p
     where p.email in ('satis@demo.test', 'admin@demo.test', 'coklu@demo.test')
     order by array_position(array['satis@demo.test', 'admin@demo.test', 'coklu@demo.test'], p.email::text));
  types text[] := array['service', 'sales', 'maintenance', 'license', 'nda', 'other'];
  subjects text[] := array['Hizmet sözleşmesi', 'Satış sözleşmesi', 'Yıllık bakım sözleşmesi', 'Yazılım lisans sözleşmesi',
                           'Gizlilik sözleşmesi', 'Danışmanlık çerçeve sözleşmesi'];
  reasons text[] := array['Müşteri hizmeti sonlandırdı', 'Ödeme koşulları yerine getirilmedi', 'Firma birleşmesi'];
  today date := (now() at time zone 'Europe/Istanbul')::date;
  customers uuid[];
  customer_names text[];
  status text;
  starts date;
  ends date;
  currency text;
  amount numeric;
  customer_index int;
  old_term jsonb;
begin
  execute format('select array_agg(c.id order by c.tax_number), array_agg(c.name order by c.tax_number)
                    from %I.customers c where c.deleted_at is null', demo_schema)
    into customers, customer_names;

  for i in 1..24 loop
    status := case i % 8 when 0 then 'draft' when 6 then 'expired' when 7 then 'terminated' else 'active' end;
    ends := case status when 'expired' then today - 20 - i
                        when 'active' then today + 5 + (i * 13) % 300
                        else today + 30 * (1 + i % 11) end;
    starts := (ends + 1 - interval '12 months')::date;
    customer_index := 1 + (i * 11) % array_length(customers, 1);
    currency := case when i % 5 = 0 then 'EUR' else 'TRY' end;
    amount := case when currency = 'TRY' then (5 + (i * 37) % 50) * 10000 else (2 + i % 7) * 1000 end;
    execute format($insert$
      insert into %I.contracts (title, customer_id, contract_type, start_date, end_date, value, currency, status,
                                customer_signed_on, company_signed_on, auto_renew, renewal_notice_days, renewal_term_months,
                                terminated_at, termination_reason, notes, owner_id, created_by, created_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8::private.contract_status, $9, $10, $11, $12, 12, $13, $14, $15, $16, $16, $17)$insert$,
      demo_schema)
      using format('%s — %s', subjects[1 + i % 6], customer_names[customer_index]), customers[customer_index], types[1 + i % 6],
            case when status = 'draft' then null else starts end, case when status = 'draft' then null else ends end,
            amount, currency, status,
            case when status <> 'draft' then starts - 5 end, case when status <> 'draft' then starts - 3 end,
            i % 3 = 0, case when i % 2 = 0 then 60 else 30 end,
            case when status = 'terminated' then now() - make_interval(days => i) end,
            case when status = 'terminated' then reasons[1 + i % 3] end,
            case when i % 4 = 1 then 'Fiyatlar her yıl TÜFE oranında güncellenir.' end,
            owners[1 + i % 3], now() - make_interval(days => 400 - i * 10);
  end loop;

  -- A renewal chain: last year's term, renewed into this year's.
  execute format($insert$
    insert into %I.contracts as c (title, customer_id, contract_type, start_date, end_date, value, currency, status,
                                   customer_signed_on, company_signed_on, auto_renew, renewal_notice_days, renewal_term_months,
                                   owner_id, created_by, created_at)
    values ($1, $2, 'maintenance', $3, $4, 180000, 'TRY', 'active', $3 - 7, $3 - 5, true, 45, 12, $5, $5, now() - interval '400 days')
    returning to_jsonb(c)$insert$, demo_schema)
    into old_term
    using format('Yıllık bakım sözleşmesi — %s', customer_names[1]), customers[1], (today - interval '13 months')::date,
          (today - interval '1 month' - interval '1 day')::date, owners[1];
  perform private.contract_renew_row(demo_org, demo_schema, old_term, owners[1]);

  execute format($insert$
    insert into %I.contracts (title, customer_id, contract_type, start_date, end_date, value, currency, status, owner_id, created_by)
    select 'Tedarik sözleşmesi — Toros Çelik', c.id, 'sales', $1, $2, 250000, 'TRY', 'active', $3, $3
      from %I.customers c where c.name = 'Toros Çelik A.Ş.'$insert$, acme_schema, acme_schema)
    using today - 100, today + 265, '0b000000-0000-4000-8000-000000000004'::uuid;
end;
$$;

-- =================================================================================
-- Products and quotes (issue 13, quotes part)
-- =================================================================================
-- Seven products of the demo organization (Turkish names, units, prices in TRY, one in
-- EUR, one exempt from KDV) and three quotes on demo deals and their customers: a draft of
-- satis@ (KDV-included prices, a line discount), a sent EUR quote of admin@ (a document
-- discount, withholding on a service line, the rate of the day frozen) and an accepted one
-- of coklu@ (its deal at a won stage). Numbers come from the pattern (TKL-{YYYY}-{SEQ:5})
-- as the quotes' trigger gives them; the stored totals from private.quote_totals.
do $$
declare
  demo_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000001');
  admin_id constant uuid := (select p.id from private.profiles p where p.email = 'admin@demo.test');
  satis_id constant uuid := (select p.id from private.profiles p where p.email = 'satis@demo.test');
  coklu_id constant uuid := (select p.id from private.profiles p where p.email = 'coklu@demo.test');
  today date := (now() at time zone 'Europe/Istanbul')::date;
  quote_id uuid;
  deal record;
begin
  execute format($insert$
    insert into %I.products (name, unit, unit_price, currency, vat_rate, description, owner_id, created_by) values
      ('Web Sitesi Tasarımı', 'adet', 45000, 'TRY', 20, 'Kurumsal web sitesi, 10 sayfaya kadar', $1, $1),
      ('Yazılım Danışmanlığı', 'saat', 2500, 'TRY', 20, 'Kıdemli danışman saat ücreti', $1, $1),
      ('Yıllık Bakım Paketi', 'ay', 3750, 'TRY', 20, 'Aylık bakım ve destek', $1, $1),
      ('Bulut Sunucu Kiralama', 'ay', 180, 'EUR', 20, '4 vCPU, 16 GB bellek', $1, $1),
      ('Eğitim (Yerinde)', 'gün', 12000, 'TRY', 10, 'Kullanıcı eğitimi, en fazla 12 katılımcı', $1, $1),
      ('Barkod Okuyucu', 'adet', 1850.90, 'TRY', 20, null, $1, $1),
      ('İhracat Paketi Hizmeti', 'paket', 9500, 'TRY', 0, 'Yurt dışı müşteriler için', $1, $1)$insert$, demo_schema)
    using admin_id;

  -- The draft: satis@'s deal in the proposal stage.
  execute format('select d.id, d.customer_id from %I.deals d where d.owner_id = $1 and d.stage = ''proposal''
                   and d.customer_id is not null and d.deleted_at is null order by d.title limit 1', demo_schema)
    into deal using satis_id;
  execute format($insert$
    insert into %I.quotes (customer_id, deal_id, quote_date, prices_include_vat, payment_terms, notes, owner_id, created_by)
    values ($1, $2, $3, true, 'Siparişte %%50, teslimde %%50', 'Fiyatlara KDV dahildir.', $4, $4) returning id$insert$, demo_schema)
    into quote_id using deal.customer_id, deal.id, today - 2, satis_id;
  execute format($insert$
    insert into %I.quote_items (quote_id, position, product_id, description, quantity, unit, unit_price, discount_type,
                                discount_value, vat_rate, owner_id, created_by)
    select $1, 1, p.id, p.name, 1, p.unit, 54000, 'percent', 10, 20, $2, $2 from %I.products p where p.name = 'Web Sitesi Tasarımı'
    union all
    select $1, 2, p.id, p.name, 12, p.unit, 4500, null, 0, 20, $2, $2 from %I.products p where p.name = 'Yıllık Bakım Paketi'$insert$,
    demo_schema, demo_schema, demo_schema)
    using quote_id, satis_id;
  execute format('update %I.quotes set updated_at = now() where id = $1', demo_schema) using quote_id;

  -- The sent EUR quote: admin@'s deal in negotiation.
  execute format('select d.id, d.customer_id from %I.deals d where d.owner_id = $1 and d.stage = ''negotiation''
                   and d.customer_id is not null and d.deleted_at is null order by d.title limit 1', demo_schema)
    into deal using admin_id;
  execute format($insert$
    insert into %I.quotes (customer_id, deal_id, quote_date, currency, document_discount_type, document_discount_value,
                           payment_terms, owner_id, created_by)
    values ($1, $2, $3, 'EUR', 'amount', 150, '30 gün vadeli, havale ile', $4, $4) returning id$insert$, demo_schema)
    into quote_id using deal.customer_id, deal.id, today - 5, admin_id;
  execute format($insert$
    insert into %I.quote_items (quote_id, position, product_id, description, quantity, unit, unit_price, vat_rate,
                                withholding_rate, owner_id, created_by)
    select $1, 1, p.id, p.name, 12, p.unit, p.unit_price, 20, null, $2, $2 from %I.products p where p.name = 'Bulut Sunucu Kiralama'
    union all
    select $1, 2, null, 'Kurulum ve taşıma hizmeti', 16, 'saat', 65, 20, '9/10', $2, $2$insert$, demo_schema, demo_schema)
    using quote_id, admin_id;
  execute format('update %I.quotes set status = ''sent'', sent_at = now() - interval ''4 days'' where id = $1', demo_schema)
    using quote_id;

  -- The accepted quote: coklu@'s deal already won.
  execute format('select d.id, d.customer_id from %I.deals d where d.owner_id = $1 and d.stage = ''won''
                   and d.customer_id is not null and d.deleted_at is null order by d.title limit 1', demo_schema)
    into deal using coklu_id;
  execute format($insert$
    insert into %I.quotes (customer_id, deal_id, quote_date, owner_id, created_by)
    values ($1, $2, $3, $4, $4) returning id$insert$, demo_schema)
    into quote_id using deal.customer_id, deal.id, today - 20, coklu_id;
  execute format($insert$
    insert into %I.quote_items (quote_id, position, product_id, description, quantity, unit, unit_price, vat_rate,
                                vat_exemption_reason, owner_id, created_by)
    select $1, 1, p.id, p.name, 2, p.unit, p.unit_price, p.vat_rate, null, $2, $2 from %I.products p where p.name = 'Eğitim (Yerinde)'
    union all
    select $1, 2, p.id, p.name, 25, p.unit, p.unit_price, p.vat_rate, null, $2, $2 from %I.products p where p.name = 'Barkod Okuyucu'
    union all
    select $1, 3, p.id, p.name, 1, p.unit, p.unit_price, 0, '3065 sayılı KDV Kanunu 11/1-a (ihracat istisnası)', $2, $2
      from %I.products p where p.name = 'İhracat Paketi Hizmeti'$insert$, demo_schema, demo_schema, demo_schema, demo_schema)
    using quote_id, coklu_id;
  execute format('update %I.quotes set status = ''sent'', sent_at = now() - interval ''18 days'' where id = $1', demo_schema)
    using quote_id;
  execute format('update %I.quotes set status = ''accepted'', accepted_at = now() - interval ''12 days'' where id = $1', demo_schema)
    using quote_id;
end;
$$;
