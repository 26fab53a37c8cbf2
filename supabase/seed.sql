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
  ('0b000000-0000-4000-8000-000000000005', 'coklu@demo.test', 'Zeynep', 'Kaya', 'user');

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

insert into private.memberships (user_id, organization_id, role) values
  ('0b000000-0000-4000-8000-000000000002', '0a000000-0000-4000-8000-000000000001', 'admin'),
  ('0b000000-0000-4000-8000-000000000003', '0a000000-0000-4000-8000-000000000001', 'user'),
  ('0b000000-0000-4000-8000-000000000004', '0a000000-0000-4000-8000-000000000002', 'admin'),
  ('0b000000-0000-4000-8000-000000000005', '0a000000-0000-4000-8000-000000000001', 'sales'),
  ('0b000000-0000-4000-8000-000000000005', '0a000000-0000-4000-8000-000000000002', 'user');

drop table demo_users;

-- Each organization's own tables (the stack's tenant-migration runner would provision
-- them too; doing it here keeps `supabase db reset` complete on its own).
select private.migrate_tenant(id) from private.organizations;

-- Demo customers, owned by different members, so the lists show what each role may see.
do $$
declare
  demo_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000001');
  acme_schema text := private.tenant_schema('0a000000-0000-4000-8000-000000000002');
begin
  execute format($insert$
    insert into %I.customers (name, owner_id, created_by, created_at)
    select customer.name, customer.owner_id::uuid, customer.owner_id::uuid, now() - customer.age * interval '1 day'
      from (values
        ('Işık Tekstil A.Ş.', '0b000000-0000-4000-8000-000000000003', 2),
        ('Çınar Gıda Ltd. Şti.', '0b000000-0000-4000-8000-000000000003', 5),
        ('Öztürk Makine San. ve Tic. A.Ş.', '0b000000-0000-4000-8000-000000000003', 9),
        ('Güneş Enerji Sistemleri', '0b000000-0000-4000-8000-000000000003', 14),
        ('Anadolu Lojistik A.Ş.', '0b000000-0000-4000-8000-000000000002', 20),
        ('Ege Mobilya', '0b000000-0000-4000-8000-000000000002', 31),
        ('Boğaziçi Danışmanlık', '0b000000-0000-4000-8000-000000000002', 45),
        ('Karadeniz Su Ürünleri', '0b000000-0000-4000-8000-000000000005', 3),
        ('Şahin Otomotiv', '0b000000-0000-4000-8000-000000000005', 12),
        ('Yıldız Yazılım Hizmetleri', '0b000000-0000-4000-8000-000000000005', 60),
        ('Doğa Kozmetik', '0b000000-0000-4000-8000-000000000003', 75),
        ('Marmara İnşaat A.Ş.', '0b000000-0000-4000-8000-000000000002', 90)
      ) as customer (name, owner_id, age)$insert$, demo_schema);
  execute format($insert$
    insert into %I.customers (name, owner_id, created_by)
    values ('Toros Çelik A.Ş.', $1, $1), ('Kapadokya Turizm', $1, $1), ('Akdeniz Tarım', $1, $1)$insert$, acme_schema)
    using '0b000000-0000-4000-8000-000000000004'::uuid;
end;
$$;
