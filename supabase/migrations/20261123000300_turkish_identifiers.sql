-- Turkish identifiers: tax numbers (VKN), identity numbers (TCKN), phone numbers and
-- websites, checked where customers and contacts are saved. The browser runs the same rules
-- first (src/lib/turkish-identifiers.ts); these are the ones that count. Pure functions of
-- their argument: immutable, usable in check constraints and generated columns.
--
-- "Whitespace" below is exactly ECMAScript's \s, spelled out so both sides agree: tab, line
-- feed, vertical tab, form feed, carriage return, space, U+00A0, U+1680, U+2000–U+200A,
-- U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.

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

revoke execute on all functions in schema private from public, anon, authenticated;
