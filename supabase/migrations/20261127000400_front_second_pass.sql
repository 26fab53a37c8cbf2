-- Security, second pass (issue 23, item 16): the throttle's client address is the one the
-- nearest proxy saw, never one the client wrote.

/**
 * The client's address as the API gateway saw it: Cloudflare's cf-connecting-ip on hosted
 * Supabase (a client cannot set it), else the LAST X-Forwarded-For entry, the one the
 * nearest proxy appended (Kong and nginx append the peer's address to what the client
 * sent; the local stack's front writes the header itself, from the socket or a trusted
 * proxy). The first entry is whatever the client wrote and is never taken. Null when
 * unknown or not an address.
 */
create or replace function private.client_address()
returns inet
language plpgsql
stable
set search_path = ''
as $$
declare
  headers jsonb;
  forwarded text[];
begin
  headers := nullif(current_setting('request.headers', true), '')::jsonb;
  forwarded := string_to_array(headers ->> 'x-forwarded-for', ',');
  return nullif(btrim(coalesce(headers ->> 'cf-connecting-ip',
                               forwarded[cardinality(forwarded)])), '')::inet;
exception when others then
  return null;
end;
$$;

revoke execute on function private.client_address() from public, anon, authenticated;
