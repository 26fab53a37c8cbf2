-- Customers: the Turkish identifiers (VKN, TCKN, phone, website) and the customer rules
-- built on them, duplicates and merging.

/**
 * Whether p is a Vergi Kimlik Numarası: exactly ten ASCII digits (no spaces), the last the
 * check digit of Gelir İdaresi's algorithm. For i = 1..9: tmp = (d_i + 10 - i) mod 10;
 * v = 9 when tmp = 9, else (tmp * 2^(10 - i)) mod 9; the check digit is
 * (10 - (sum of v) mod 10) mod 10. A first digit 0 is allowed. Null gives false.
 */
create function private.is_valid_vkn(p text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  tmp int;
  total int := 0;
begin
  if p is null or p !~ '^[0-9]{10}$' then
    return false;
  end if;
  for i in 1..9 loop
    tmp := (ascii(substr(p, i, 1)) - 48 + 10 - i) % 10;
    total := total + case when tmp = 9 then 9 else (tmp * (2 ^ (10 - i))::int) % 9 end;
  end loop;
  return (10 - total % 10) % 10 = ascii(substr(p, 10, 1)) - 48;
end;
$$;

/**
 * Whether p is a T.C. Kimlik No: exactly eleven ASCII digits, the first not 0;
 * d10 = ((d1+d3+d5+d7+d9)*7 - (d2+d4+d6+d8)) mod 10 (never negative) and
 * d11 = (d1 + … + d10) mod 10. Null gives false.
 */
create function private.is_valid_tckn(p text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  d int[];
  tenth int;
begin
  if p is null or p !~ '^[1-9][0-9]{10}$' then
    return false;
  end if;
  select array_agg(ascii(substr(p, i, 1)) - 48 order by i) into d from generate_series(1, 11) as i;
  tenth := (((d[1] + d[3] + d[5] + d[7] + d[9]) * 7 - (d[2] + d[4] + d[6] + d[8])) % 10 + 10) % 10;
  return d[10] = tenth
     and d[11] = (d[1] + d[2] + d[3] + d[4] + d[5] + d[6] + d[7] + d[8] + d[9] + d[10]) % 10;
end;
$$;

/**
 * p as an E.164 phone number, or null when it is not one. Whitespace, dashes, dots and
 * parentheses are dropped first. A Turkish number (ten national digits starting with 2–5
 * or 8) written 0XXXXXXXXXX, XXXXXXXXXX, +90XXXXXXXXXX or 0090XXXXXXXXXX becomes
 * +90XXXXXXXXXX; anything else starting with +90 or 0090 is null. Another country's number
 * written +<8 to 15 digits> or 00<8 to 15 digits> (the first not 0) is kept as +<digits>.
 */
create function private.normalize_phone(p text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  compact text := regexp_replace(p,
    '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff().-]', '', 'g');
  international text;
begin
  if compact is null then
    return null;
  end if;
  -- 0 and ten digits is a Turkish number dialled at home; 00 starts an international one.
  if compact ~ '^0[1-9][0-9]{9}$' then
    return case when compact ~ '^0[2-58]' then '+90' || substr(compact, 2) end;
  end if;
  if compact ~ '^[2-58][0-9]{9}$' then
    return '+90' || compact;
  end if;
  if left(compact, 1) = '+' then
    international := substr(compact, 2);
  elsif left(compact, 2) = '00' then
    international := substr(compact, 3);
  else
    return null;
  end if;
  if left(international, 2) = '90' then
    return case when international ~ '^90[2-58][0-9]{9}$' then '+' || international end;
  end if;
  return case when international ~ '^[1-9][0-9]{7,14}$' then '+' || international end;
end;
$$;

/**
 * Whether p is a website: at most 300 characters, no whitespace, an optional http:// or
 * https:// (any case), a host of dot-separated labels (ASCII and Turkish letters, digits,
 * hyphens inside; at most 63 characters each) ending in a top-level domain of 2–63 letters
 * or xn--…, an optional port, then an optional path, query or fragment. Null gives false.
 */
create function private.is_valid_website(p text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(char_length(p) <= 300 and p ~ (
    '^([Hh][Tt][Tt][Pp][Ss]?://)?'
    || '([0-9A-Za-zÇĞİÖŞÜçğıöşü]([0-9A-Za-zÇĞİÖŞÜçğıöşü-]{0,61}[0-9A-Za-zÇĞİÖŞÜçğıöşü])?\.)+'
    || '([A-Za-z]{2,63}|[Xx][Nn]--[0-9A-Za-z-]{1,59})'
    || '(:[0-9]{1,5})?'
    || '([/?#][^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*)?$'), false);
$$;

/**
 * A customer's own rule, the one its fields' types cannot say (the others are declared
 * below and checked by private.prepare_typed_values first): the tax number follows the
 * kind, a company's a VKN (10 digits) and a person's a TCKN (11 digits) with the checksum,
 * spaces dropped, checked again when either changes. Returns {"values", "errors"}.
 */
create function private.prepare_customer(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  kind text := case when p_values ? 'kind' then p_values ->> 'kind' else coalesce(p_existing ->> 'kind', 'company') end;
  tax_number text;
begin
  if not (p_values ? 'tax_number' or p_values ? 'kind') then
    return jsonb_build_object('values', p_values, 'errors', '{}'::jsonb);
  end if;
  if jsonb_typeof(p_values -> 'tax_number') not in ('string', 'null') then
    return jsonb_build_object('values', p_values, 'errors', '{"tax_number": "invalid"}'::jsonb);
  end if;
  tax_number := nullif(regexp_replace(case when p_values ? 'tax_number' then coalesce(p_values ->> 'tax_number', '')
                                           else coalesce(p_existing ->> 'tax_number', '') end, '\s', '', 'g'), '');
  if tax_number is not null and kind = 'company' and not private.is_valid_vkn(tax_number) then
    return jsonb_build_object('values', p_values, 'errors', '{"tax_number": "invalid_vkn"}'::jsonb);
  elsif tax_number is not null and kind = 'person' and not private.is_valid_tckn(tax_number) then
    return jsonb_build_object('values', p_values, 'errors', '{"tax_number": "invalid_tckn"}'::jsonb);
  end if;
  return jsonb_build_object('values', p_values || jsonb_build_object('tax_number', tax_number), 'errors', '{}'::jsonb);
end;
$$;

select private.register_module(
  p_key => 'customers', p_position => 1, p_table_name => 'customers', p_entity_type => 'customer',
  p_fields => jsonb_build_array(
    private.field_declaration('name', 'text', 'Unvan / Ad Soyad', 'Company / Full name', '{required,listed,sortable,own_ui}', 300,
                              p_import_names => '{"Ad","Adı","Unvan","Ünvan","Ticari Unvan","Firma","Firma Adı","Firma Unvanı","Müşteri","Müşteri Adı","Cari Adı","Cari Unvanı","Ad Soyad","Name","Company","Company name","Customer","Customer name"}'),
    private.field_declaration('kind', 'choice', 'Tür', 'Type', '{listed,filterable,own_ui}',
                              p_options => '{company,Şirket,Company,person,Şahıs,Person}',
                              p_import_names => '{Tip,"Müşteri Türü",Kind,"Customer type"}',
                              p_option_import_names => '{"company": ["Firma", "Tüzel", "Tüzel Kişi", "Kurumsal", "Corporate", "Business"],
                                                         "person": ["Şahıs Firması", "Gerçek Kişi", "Bireysel", "Individual"]}'),
    private.field_declaration('tax_number', 'text', 'VKN / TCKN', 'Tax number (VKN / TCKN)', '{listed,own_rule,own_ui}',
                              p_import_names => '{"VKN","TCKN","Vergi No","Vergi Numarası","Vergi Kimlik No","Vergi Kimlik Numarası","TC Kimlik No","T.C. Kimlik No","Kimlik No","Tax number","Tax no","Tax ID","VAT number"}'),
    private.field_declaration('tax_office', 'text', 'Vergi dairesi', 'Tax office', '{own_ui}', 100, p_import_names => '{VD}'),
    private.field_declaration('sector', 'text', 'Sektör', 'Sector', '{listed,filterable,own_ui}', 100,
                              p_import_names => '{"Faaliyet Alanı",Industry}'),
    private.field_declaration('status', 'choice', 'Durum', 'Status', '{listed,sortable,filterable,own_ui}',
                              p_options => '{lead,Aday,Lead,active,Aktif,Active,passive,Pasif,Passive}',
                              p_import_names => '{"Müşteri Durumu"}',
                              p_option_import_names => '{"lead": ["Potansiyel", "Prospect"], "active": ["Etkin"],
                                                         "passive": ["Inactive"]}'),
    private.field_declaration('phone', 'phone', 'Telefon', 'Phone', '{listed,own_ui}',
                              p_import_names => '{Tel,"Tel No","Telefon No","Telefon Numarası",GSM,Cep,"Phone number",Telephone}'),
    private.field_declaration('email', 'email', 'E-posta', 'Email', '{listed,own_ui}', 254,
                              p_import_names => '{"E-posta Adresi",Mail,E-mail,"Email address"}'),
    private.field_declaration('website', 'url', 'Web sitesi', 'Website', '{own_ui}', 300,
                              p_import_names => '{Web,"Web Adresi","İnternet Sitesi",URL}'),
    private.field_declaration('city', 'text', 'İl', 'Province', '{listed,sortable,filterable,own_ui}', 60,
                              p_import_names => '{Şehir,City}'),
    private.field_declaration('district', 'text', 'İlçe', 'District', '{listed,own_ui}', 60),
    private.field_declaration('address', 'long_text', 'Adres', 'Address', '{own_ui}', 1000, p_import_names => '{"Açık Adres"}'),
    private.field_declaration('tags', 'tags', 'Etiketler', 'Tags', '{listed,filterable,own_ui}'),
    private.field_declaration('description', 'long_text', 'Açıklama', 'Description', '{own_ui}', 10000),
    private.field_declaration('external_id', 'text', 'Harici kod', 'External code', '{own_rule,own_ui}',
                              p_import_names => '{"Cari Kod","Cari Kodu","Müşteri Kodu","Customer code"}')),
  p_default_sort => 'name', p_default_descending => false, p_searchable => true,
  p_title_columns => '{name}', p_prepare_function => 'prepare_customer',
  p_transfer_kind => 'customers', p_transfer_default => true,
  p_document_link => 'customer_id',
  p_record_label_tr => 'Müşteri', p_record_label_en => 'Customer');

/** Customers that are likely the same as the values about to be saved. */
create function public.find_customer_duplicates(p_values jsonb, p_exclude uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_duplicates('customers', p_values, p_exclude); $$;
revoke all on function public.find_customer_duplicates(p_values jsonb, p_exclude uuid) from public, anon, authenticated;
grant execute on function public.find_customer_duplicates(p_values jsonb, p_exclude uuid) to authenticated;

/** Merges one customer into another. */
create function public.merge_customers(p_survivor uuid, p_other uuid, p_values jsonb default '{}')
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_merge('customers', p_survivor, p_other, p_values); $$;
revoke all on function public.merge_customers(p_survivor uuid, p_other uuid, p_values jsonb) from public, anon, authenticated;
grant execute on function public.merge_customers(p_survivor uuid, p_other uuid, p_values jsonb) to authenticated;
