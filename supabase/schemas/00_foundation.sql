-- Foundation: the schemas, the default privileges every later file relies on (nothing
-- in public is callable by the API roles unless a file grants it), the API roles'
-- statement timeout, and the small helpers every concern shares (identifier and e-mail
-- checks, Turkish-folded search text, clean text and tags, tolerant casts).
--
-- The files of supabase/schemas/ are the current text of the database, one concern per
-- file, applied in name order on an empty database (npm run db:diff compares them with
-- supabase/migrations/). Functions are created without checking their bodies (as
-- pg_dump restores do), so a function may read a table another file creates later;
-- anything evaluated while a file is applied (defaults, checks, calls) must come after
-- what it uses. Functions are written `create function`, never `or replace`: a second
-- definition of one anywhere in these files fails to apply (and so npm test fails).

set local check_function_bodies = off;

-- Control data: organizations, profiles and memberships.
-- It lives in the private schema, which the Data API does not expose; the public schema
-- only holds the RPC façade (DESIGN.md D4). Every function is security definer with an
-- empty search_path and grants exactly what it intends (D6).
create schema if not exists private;

-- No new function is executable by PUBLIC or the API roles unless a migration grants it.
alter default privileges revoke execute on functions from public;

alter default privileges in schema public revoke execute on functions from anon, authenticated;

/** Spec section 5: a simple address pattern (something@something.something, no spaces). */
create function private.is_valid_email(p_email text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_email is not null
     and char_length(p_email) <= 254
     and p_email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$';
$$;

/** Emails are compared and stored lowercased and trimmed (spec section 5). */
create function private.normalize_email(p_email text)
returns text
language sql
immutable
set search_path = ''
as $$
  select nullif(lower(btrim(p_email)), '');
$$;

/** The failure answer every RPC gives: the catalogue text plus a code the app translates. */
create function private.failure(p_error text, p_code text, p_extra jsonb default '{}')
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object('success', false, 'error', p_error, 'code', p_code) || p_extra;
$$;

/**
 * The spec's table-name guard (section 5): letters, digits and underscore, lowercase,
 * at most 50 characters, and none of the SQL words that could turn a name into a
 * statement (checked as whole words between underscores).
 */
create function private.is_safe_identifier(p_name text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_name is not null
     and p_name ~ '^[a-z_][a-z0-9_]{0,49}$'
     and not (string_to_array(p_name, '_') && array[
       'drop', 'delete', 'select', 'insert', 'update', 'truncate', 'alter', 'create', 'grant',
       'revoke', 'union', 'exec', 'execute', 'copy', 'pg', 'information', 'schema']);
$$;

/**
 * Keeps updated_at current on every tenant table. A scheduled step's own bookkeeping (the
 * "notified at" marks of notify_due_items and the contracts' renewal step, made with
 * crm.bookkeeping_update on for that statement) is no change of the record: its updated_at,
 * which a person's next save is checked against, stays as it was.
 */
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := case when current_setting('crm.bookkeeping_update', true) = 'on' then old.updated_at else now() end;
  return new;
end;
$$;

/**
 * Turkish-aware search folding (DESIGN.md D7): İ/I/ı/i, Ş/ş, Ğ/ğ, Ü/ü, Ö/ö and Ç/ç fold to
 * their plain Latin letters and everything is lowercased, so "isik", "Işık" and "IŞIK"
 * compare equal whatever the database collation.
 */
create function private.fold_search(p_text text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select lower(translate(p_text, 'İIıŞşĞğÜüÖöÇç', 'iiiSsGgUuOoCc'));
$$;

/**
 * The Turkish sort key of a name, compared byte by byte: `order by
 * private.turkish_sort_key(x) collate "C"` (the collate is required; an index on the
 * same expression serves the order). PGlite has no ICU collations, so the order is built
 * here and is the same on PGlite, PostgreSQL and hosted Supabase whatever their collation:
 *   space < punctuation ! " # $ % & ' ( ) * + , - . / : ; < = > ? @ [ \ ] ^ _ ` { | } ~
 *   < digits 0-9 < letters a b c ç d e f g ğ h ı i j k l m n o ö p q r s ş t u ü v w x y z
 *   < everything else (other scripts, symbols) in code point order.
 * Case does not count, the Turkish way (I and ı are one letter before İ and i: "ılık"
 * before "ilik", "Işık" under I, "İzmir" under İ); â, é, î, û and the like sort as their
 * base letter (Ç, Ğ, Ö, Ş, Ü stay letters of their own), q, w and x sit where ICU's
 * Turkish puts them. Text is NFC-normalized first and leftover combining marks dropped
 * (JavaScript's "İ".toLowerCase() gives i + U+0307); runs of whitespace and control
 * characters count as one space and ends are trimmed, so "Ak Yapı" comes before "Akçay".
 * Each character maps to one ASCII code in that order, by one translate: a character of the
 * first list becomes the one at its place in the second (a letter its code, a capital or an
 * accented letter its base letter's; space and '.' stay). translate reads its list from the
 * start for every character, so the list runs from the most frequent in Turkish names to
 * the rarest, and the costly steps run only where needed (NFC only on text not already NFC,
 * a whitespace run rewritten only when it is not one plain space): a key costs about a third
 * of its two-translate form, and a list sorted by name computes one per row it reads.
 * Search does not use this key (private.fold_search stays accent-insensitive).
 */
create function private.turkish_sort_key(p_text text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select translate(
           btrim(regexp_replace(regexp_replace(case when p_text is nfc normalized then p_text else normalize(p_text, NFC) end,
                                               '[\u0300-\u036f]', '', 'g'),
                                '[\x01-\x1f\x7f\u00a0]|[\x01-\x20\x7f\u00a0]{2,}', ' ', 'g'), ' '),
           ' aeinrlıkdmytsuobüşzgçhğvcöpf.AMSTKEBDİYLÖÇPGHUNRŞOCÜFIVZĞJjwqxWQX0123456789ÂÀÁÄÃÅâàáäãåÉÈÊËéèêëÎÍÌÏîíìïÑñÔÓÒÕØôóòõøÛÚÙûúùÝýÿ:;<=>?@[\]^_`{|}~',
           ' KPV[`YUXOZicad\LebjRNTSfM]^Q.KZacXPLOViY]N^RTd[`b\MeQUfjSWWg_hg_hABCDEFGHIJKKKKKKKKKKKKPPPPPPPPVVVVVVVV[[\\\\\\\\\\ddddddiii0123456789:;<=>?@');
$$;

/** Whether these bytes start with the file signature of this image type. */
create function private.is_image_of_type(p_image bytea, p_content_type text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select case p_content_type
    when 'image/png' then substring(p_image from 1 for 8) = '\x89504e470d0a1a0a'::bytea
    when 'image/jpeg' then substring(p_image from 1 for 3) = '\xffd8ff'::bytea
    when 'image/webp' then substring(p_image from 1 for 4) = '\x52494646'::bytea
                       and substring(p_image from 9 for 4) = '\x57454250'::bytea
    else false
  end;
$$;

-- PostgREST applies role settings to each request; the local stack reads these and
-- applies them to the connection lite serves requests on.
alter role anon set statement_timeout = '8s';

alter role authenticated set statement_timeout = '8s';

-- Trigram indexes on the Turkish-folded search columns of every organization's tables.
create extension if not exists pg_trgm with schema extensions;

/**
 * Tags: at most 20 distinct strings of 1 to 40 characters, trimmed (sorted); null when
 * invalid. (The same rules as before, without a query per call: the rules of every import
 * row run it.)
 */
create function private.clean_tags(p_tags jsonb)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
declare
  value text;
  cleaned text[] := '{}';
  position integer;
begin
  if p_tags is null or jsonb_typeof(p_tags) = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(p_tags) <> 'array' or jsonb_array_length(p_tags) > 20 then
    return null;
  end if;
  for i in 0 .. jsonb_array_length(p_tags) - 1 loop
    if jsonb_typeof(p_tags -> i) <> 'string' then
      return null;
    end if;
    value := btrim(p_tags ->> i);
    if char_length(value) not between 1 and 40 then
      return null;
    end if;
    -- Kept sorted and distinct, as array_agg(distinct) would give them.
    position := 1;
    while position <= cardinality(cleaned) and cleaned[position] < value loop
      position := position + 1;
    end loop;
    if position > cardinality(cleaned) or cleaned[position] <> value then
      cleaned := cleaned[1:position - 1] || value || cleaned[position:];
    end if;
  end loop;
  return cleaned;
end;
$$;

/** Trimmed text, null when empty or not a JSON string (a number or boolean is refused by the caller). */
create function private.clean_text(p_value jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_value) = 'string' then nullif(btrim(p_value #>> '{}'), '') end;
$$;

/** A refused write's constraint error as a field error: {"fields": {column: code}}. */
create function private.constraint_failure(p_table text, p_column text, p_constraint text, p_sqlstate text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(
    coalesce(nullif(p_column, ''),
             substring(p_constraint from '^' || p_table || '_(.*)_(check|fkey|key)$'),
             'record'),
    case p_sqlstate when '23502' then 'required' when '23503' then 'not_found' when '23505' then 'duplicate'
                    else 'invalid' end)));
$$;

/** A JSON array of ids as uuid[]; null for anything else (no filter). */
create function private.uuid_array(p_ids jsonb)
returns uuid[]
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_ids) = 'array' then array(select jsonb_array_elements_text(p_ids))::uuid[] end;
$$;

/** A JSON string as a timestamp; null when it is not one. */
create function private.try_timestamptz(p_value jsonb)
returns timestamptz
language plpgsql
stable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' then
    return null;
  end if;
  return (p_value #>> '{}')::timestamptz;
exception when others then
  return null;
end;
$$;

/** A JSON string as a uuid; null when it is not one. */
create function private.try_uuid(p_value jsonb)
returns uuid
language plpgsql
immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_value) is distinct from 'string' then
    return null;
  end if;
  return (p_value #>> '{}')::uuid;
exception when others then
  return null;
end;
$$;

/** A JSON number, or a string holding a plain decimal number, as numeric; null otherwise. */
create function private.json_numeric(p_value jsonb)
returns numeric
language sql
immutable
set search_path = ''
as $$
  select case when jsonb_typeof(p_value) = 'number' then (p_value #>> '{}')::numeric
              when jsonb_typeof(p_value) = 'string' and btrim(p_value #>> '{}') ~ '^-?\d{1,15}(\.\d{1,8})?$'
                then btrim(p_value #>> '{}')::numeric end;
$$;

/** A JSON string 'YYYY-MM-DD' of the years 2000-2999 as a date; null when it is not one. */
create function private.try_calendar_date(p_value jsonb)
returns date
language plpgsql
immutable
set search_path = ''
as $$
declare
  parsed date;
begin
  if jsonb_typeof(p_value) is distinct from 'string' or (p_value #>> '{}') !~ '^\d{4}-\d{2}-\d{2}$' then
    return null;
  end if;
  parsed := (p_value #>> '{}')::date;
  return case when extract(year from parsed) between 2000 and 2999 then parsed end;
exception when others then
  return null;
end;
$$;

/**
 * private.clean_text for many fields at once: of p_values' fields named in p_fields, the
 * strings trimmed (empty as null) and the nulls under "values", any other JSON type under
 * "errors" as invalid. One call for all of a row's text fields.
 */
create function private.clean_text_fields(p_values jsonb, p_fields text[])
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  field text;
  value jsonb;
  keys text[] := '{}';
  texts text[] := '{}';
  errors jsonb := '{}';
begin
  foreach field in array p_fields loop
    value := p_values -> field;
    continue when value is null;
    case jsonb_typeof(value)
      when 'string' then
        keys := keys || field;
        texts := texts || nullif(btrim(value #>> '{}'), '');
      when 'null' then
        keys := keys || field;
        texts := texts || null::text;
      else
        errors := errors || jsonb_build_object(field, 'invalid');
    end case;
  end loop;
  return jsonb_build_object('values', jsonb_object(keys, texts), 'errors', errors);
end;
$$;

/** A text as a regular expression that matches exactly that text (every character that is not a letter, digit or space escaped). */
create function private.regex_literal(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select regexp_replace(p_text, '([^[:alnum:][:space:]])', '\\\1', 'g');
$$;

/**
 * What a scheduled job runs (private.scheduled_jobs.command): the private function once, or
 * once in every active organization that has its tables, each organization committed before
 * the next. In one transaction a thousand organizations' tables and indexes outgrow the lock
 * table ("out of shared memory"); so the job holds one organization's locks at a time, and
 * an organization whose step fails is reported (a warning naming it) while the others still
 * run. The per-organization form is a DO block, which may commit when run on its own (as
 * pg_cron and the local stack run a job), never inside a transaction block; a function or a
 * procedure with a fixed search_path could not commit.
 */
create function private.scheduled_job_command(p_function_name text, p_in_each_organization boolean)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when not p_in_each_organization then 'select private.' || p_function_name || '()' else
'do $job$
declare
  organization record;
begin
  for organization in
    select o.id, o.slug from private.organizations o
     where o.is_active and o.template_version > 0
       and exists (select 1 from pg_catalog.pg_namespace n where n.nspname = o.schema_name)
     order by o.created_at, o.id
  loop
    begin
      perform private.' || p_function_name || '(organization.id);
    exception when others then
      raise warning ''scheduled step private.' || p_function_name || ' failed in organization %: %'', organization.slug, sqlerrm;
    end;
    commit;
  end loop;
end
$job$' end;
$$;

-- The database's scheduled work, one row a job, inserted by the schema file of the
-- function it runs. On hosted Supabase pg_cron runs it (private.sync_cron_job keeps
-- cron.job in step); the local stack's timers read the same rows
-- (scripts/stack/scheduled-jobs.ts). Rows are reference data: `npm run db:diff` carries
-- a new, changed or removed job into the migration it writes, so no migration is edited
-- by hand. Two schedules only, the ones the local timers understand: every minute, or
-- hourly at a given minute.
create table private.scheduled_jobs (
  name text primary key check (name ~ '^crm-[a-z0-9-]+$'),
  schedule text not null check (schedule = '* * * * *' or schedule ~ '^[1-5]?[0-9] \* \* \* \*$'),
  -- The private function it runs: without arguments, or with each organization's id.
  function_name text not null check (function_name ~ '^[a-z_]+$'),
  in_each_organization boolean not null default false,
  command text generated always as (private.scheduled_job_command(function_name, in_each_organization)) stored
);

alter table private.scheduled_jobs enable row level security;

/**
 * Keeps pg_cron's jobs in step with private.scheduled_jobs where pg_cron is installed
 * (hosted Supabase): a new or changed row is scheduled under its name (cron.schedule
 * replaces a job of the same name), a removed or renamed one unscheduled. Without
 * pg_cron (the local stack, PGlite) it does nothing.
 */
create function private.sync_cron_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if to_regprocedure('cron.schedule(text, text, text)') is null then
    return null;
  end if;
  if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.name <> new.name) then
    perform cron.unschedule(old.name) where exists (select 1 from cron.job where jobname = old.name);
  end if;
  if tg_op <> 'DELETE' then
    perform cron.schedule(new.name, new.schedule, new.command);
  end if;
  return null;
end;
$$;

create trigger scheduled_jobs_sync_cron
after insert or update or delete on private.scheduled_jobs
for each row execute function private.sync_cron_job();
