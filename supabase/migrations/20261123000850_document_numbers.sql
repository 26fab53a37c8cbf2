-- Document numbers (issue 13): quotes and contracts get gapless numbers per organization,
-- kind and year from one row-locked counter (private.document_counters). The counter is
-- taken inside the caller's transaction (insert … on conflict do update … returning), so
-- concurrent creators wait for each other and a rolled-back create gives its number back.
-- Patterns: {YYYY}, {YY}, {MM}, {SEQ:n} (n 1..9, zero padded; {SEQ} unpadded); anything
-- else is literal. A quote number pattern without {SEQ…} is refused by the settings RPC
-- and, as a last line, by a check constraint on private.organization_settings.

create table private.document_counters (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  kind text not null check (kind in ('quote', 'contract')),
  year integer not null check (year between 1900 and 9999),
  last_value bigint not null check (last_value >= 0),
  primary key (organization_id, kind, year)
);
alter table private.document_counters enable row level security;
comment on table private.document_counters is
  'The last number given per organization, document kind and year (gapless: taken in the creating transaction).';

/** True when a numbering pattern holds exactly the known tokens and at least one {SEQ} or {SEQ:n} (n 1..9). */
create function private.is_valid_number_pattern(p_pattern text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_pattern is not null
     and char_length(p_pattern) between 1 and 60
     and p_pattern ~ '\{SEQ(:[1-9])?\}';
$$;

/**
 * A document number from a pattern: {YYYY} the four-digit year, {YY} its last two digits,
 * {MM} the two-digit month (all of p_on), {SEQ:n} the sequence zero padded to n digits
 * (a longer sequence is never cut), {SEQ} the sequence as is. Anything else is literal.
 */
create function private.render_document_number(p_pattern text, p_on date, p_sequence bigint)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  result text := p_pattern;
  token text[];
  width integer;
begin
  result := replace(result, '{YYYY}', to_char(p_on, 'YYYY'));
  result := replace(result, '{YY}', to_char(p_on, 'YY'));
  result := replace(result, '{MM}', to_char(p_on, 'MM'));
  for token in select regexp_matches(p_pattern, '\{SEQ(?::([1-9]))?\}', 'g') loop
    width := coalesce(token[1]::integer, 1);
    result := replace(result, '{SEQ' || coalesce(':' || token[1], '') || '}',
                      lpad(p_sequence::text, greatest(width, char_length(p_sequence::text)), '0'));
  end loop;
  return result;
end;
$$;

/**
 * The next number of a kind ('quote' or 'contract') for an organization in the year of
 * p_on, rendered with p_pattern. Gapless: the counter row is locked until the caller's
 * transaction ends, and a rollback gives the number back. Numbers restart at 1 each year.
 * Raises invalid_parameter_value for an unknown kind or a pattern without {SEQ}.
 */
create function private.next_document_number(p_organization_id uuid, p_kind text, p_pattern text, p_on date)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  sequence bigint;
begin
  if p_kind is null or p_kind not in ('quote', 'contract') then
    raise exception 'Unknown document kind: %', p_kind using errcode = 'invalid_parameter_value';
  end if;
  if not private.is_valid_number_pattern(p_pattern) then
    raise exception 'A number pattern needs {SEQ}: %', p_pattern using errcode = 'invalid_parameter_value';
  end if;
  insert into private.document_counters as c (organization_id, kind, year, last_value)
  values (p_organization_id, p_kind, extract(year from coalesce(p_on, current_date))::integer, 1)
  on conflict (organization_id, kind, year) do update set last_value = c.last_value + 1
  returning c.last_value into sequence;
  return private.render_document_number(p_pattern, coalesce(p_on, current_date), sequence);
end;
$$;

-- The settings RPC already refuses a quote pattern without {SEQ}; the constraint keeps
-- any other writer honest too.
alter table private.organization_settings
  add constraint organization_settings_quote_number_pattern_seq
  check (private.is_valid_number_pattern(quote_number_pattern));

revoke execute on function private.is_valid_number_pattern(text) from public, anon, authenticated;
revoke execute on function private.render_document_number(text, date, bigint) from public, anon, authenticated;
revoke execute on function private.next_document_number(uuid, text, text, date) from public, anon, authenticated;
