-- Custom fields (DESIGN.md D11): an organization's own typed fields on a sales module, each a
-- declaration here and a real column of the organization's table (its key is the column's
-- name, always cf_…, so that it can never meet a standard field the product adds later).
-- The record engine (private.prepare_record, private.record_page) reads these declarations
-- beside the module's standard columns; the admin manages them with the RPCs below.

create table private.custom_fields (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  module text not null references private.modules (key) on delete cascade,
  key text not null check (key ~ '^cf_[a-z][a-z0-9_]{0,39}$'),
  type text not null check (type in ('text', 'long_text', 'number', 'money', 'percent', 'date', 'datetime', 'boolean',
                                     'choice', 'multi_choice', 'email', 'phone', 'url', 'link')),
  label_tr text not null check (char_length(btrim(label_tr)) between 1 and 60),
  label_en text check (char_length(btrim(label_en)) between 1 and 60),
  required boolean not null default false,
  -- A choice field's options, in order: [{"value", "label_tr", "label_en", "color"}]; [] for other types.
  options jsonb not null default '[]' check (jsonb_typeof(options) = 'array'),
  -- A money field's currency; null for other types.
  currency text check (currency ~ '^[A-Z]{3}$'),
  -- A link field's module; null for other types.
  link_module text references private.modules (key) on delete cascade,
  position integer not null,
  hidden boolean not null default false,
  listed boolean not null default false,
  filterable boolean not null default false,
  searchable boolean not null default false,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, module, key),
  check ((type = 'money') = (currency is not null)),
  check ((type = 'link') = (link_module is not null)),
  check (type in ('choice', 'multi_choice') or options = '[]'),
  check (not searchable or type in ('text', 'long_text', 'email', 'phone', 'url'))
);

alter table private.custom_fields enable row level security;

comment on table private.custom_fields is
  'Each organization''s custom fields of a sales module: one declaration per field, the field itself a column (key) of the organization''s table.';

-- ---------------------------------------------------------------------------------
-- The rules of a declaration
-- ---------------------------------------------------------------------------------

/**
 * How far an organization may go with custom fields: fields per module (a table has room
 * for 1,600 columns, dropped ones included), options per choice field, an option value's
 * and a label's characters (field and option labels alike), and the characters a text and
 * a long text value may hold (the record engine checks values against the same numbers;
 * src/components/records/custom-fields/custom-fields.ts mirrors them).
 */
create function private.custom_field_limits(out fields_per_module integer, out options_per_field integer,
                                            out option_value_max integer, out label_max integer,
                                            out text_max integer, out long_text_max integer)
language sql
immutable
set search_path = ''
as $$
  select 100, 200, 100, 60, 1000, 10000;
$$;

/** The column type of a custom field type; null for a type that does not exist. */
create function private.custom_field_column_type(p_type text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_type in ('text', 'long_text', 'email', 'phone', 'url', 'choice') then 'text'
    when p_type = 'number' then 'numeric'
    when p_type = 'money' then 'numeric(18,2)'
    when p_type = 'percent' then 'numeric(9,4)'
    when p_type = 'date' then 'date'
    when p_type = 'datetime' then 'timestamptz'
    when p_type = 'boolean' then 'boolean'
    when p_type = 'multi_choice' then 'text[]'
    when p_type = 'link' then 'uuid'
  end;
$$;

/** One field as the app reads it (customFieldSchema of src/components/records/custom-fields/custom-fields.ts). */
create function private.custom_field_json(p_field private.custom_fields)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'key', p_field.key, 'type', p_field.type, 'label_tr', p_field.label_tr, 'label_en', p_field.label_en,
    'required', p_field.required, 'options', p_field.options, 'currency', p_field.currency,
    'link_module', p_field.link_module, 'position', p_field.position, 'hidden', p_field.hidden,
    'listed', p_field.listed, 'filterable', p_field.filterable, 'searchable', p_field.searchable,
    'updated_at', p_field.updated_at);
$$;

/**
 * A label's problem: invalid (not a string), required (blank where one is needed), too_long
 * (over private.custom_field_limits' label_max once trimmed); null when it is fine.
 */
create function private.custom_field_label_error(p_label jsonb, p_required boolean)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_label is not null and jsonb_typeof(p_label) not in ('string', 'null') then 'invalid'
    when coalesce(btrim(p_label #>> '{}'), '') = '' then case when p_required then 'required' end
    when char_length(btrim(p_label #>> '{}')) > (private.custom_field_limits()).label_max then 'too_long'
  end;
$$;

/**
 * The options of a choice field, cleaned: {"options": [{value, label_tr, label_en, color}]}
 * with labels trimmed, a missing value taken from the Turkish label, a Mantine colour name
 * or null; or {"error": code}: invalid (not a list of such objects, another key, a bad
 * colour), required (none, or an option without a Turkish label), too_many, too_long (a
 * value or label), duplicate (two options with one value).
 */
create function private.clean_custom_field_options(p_options jsonb)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  limits record := private.custom_field_limits();
  item jsonb;
  cleaned jsonb := '[]';
  problem text;
  option_value text;
begin
  if coalesce(p_options, 'null') = 'null' then
    return '{"error": "required"}';
  elsif jsonb_typeof(p_options) <> 'array' then
    return '{"error": "invalid"}';
  elsif jsonb_array_length(p_options) = 0 then
    return '{"error": "required"}';
  elsif jsonb_array_length(p_options) > limits.options_per_field then
    return '{"error": "too_many"}';
  end if;
  for item in select o from jsonb_array_elements(p_options) o loop
    if jsonb_typeof(item) <> 'object'
       or exists (select 1 from jsonb_object_keys(item) k where k not in ('value', 'label_tr', 'label_en', 'color'))
       or jsonb_typeof(item -> 'value') not in ('string', 'null')
       or coalesce(item ->> 'color', 'blue') !~ '^[a-z]{1,20}$' then
      return '{"error": "invalid"}';
    end if;
    problem := coalesce(private.custom_field_label_error(item -> 'label_tr', true),
                        private.custom_field_label_error(item -> 'label_en', false));
    if problem is not null then
      return jsonb_build_object('error', problem);
    end if;
    option_value := coalesce(nullif(btrim(item ->> 'value'), ''), btrim(item ->> 'label_tr'));
    if char_length(option_value) > limits.option_value_max then
      return '{"error": "too_long"}';
    end if;
    cleaned := cleaned || jsonb_build_array(jsonb_build_object(
      'value', option_value, 'label_tr', btrim(item ->> 'label_tr'),
      'label_en', nullif(btrim(item ->> 'label_en'), ''), 'color', item ->> 'color'));
  end loop;
  if (select count(distinct o ->> 'value') from jsonb_array_elements(cleaned) o) < jsonb_array_length(cleaned) then
    return '{"error": "duplicate"}';
  end if;
  return jsonb_build_object('options', cleaned);
end;
$$;

/**
 * A declaration as p_field asks for it, on top of p_existing (null: a new field):
 * {"field": the declaration's columns, "errors": {name: code}}. Only the names of
 * customFieldSchema are known (key and updated_at are the caller's business); a name left
 * out keeps its value (a new field: not required, shown, not listed, not filterable, not
 * searchable). Codes: unknown_field, required, invalid, too_long, too_many (options),
 * duplicate (option values). A money field without a currency gets the organization's
 * default currency. When the type changes, settings the new type cannot have
 * (searchable, filterable long text, options, currency, link module) are dropped unless
 * p_field asks for them, which is an error.
 */
create function private.clean_custom_field(p_field jsonb, p_existing private.custom_fields, p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  field jsonb := coalesce(to_jsonb(p_existing), '{"label_en": null, "required": false, "options": [], "currency": null,
    "link_module": null, "position": null, "hidden": false, "listed": false, "filterable": false, "searchable": false}');
  errors jsonb := '{}';
  unknown text;
  flag text;
  problem text;
  options jsonb;
  field_type text;
begin
  select k into unknown from jsonb_object_keys(p_field) k
   where k not in ('key', 'type', 'label_tr', 'label_en', 'required', 'options', 'currency', 'link_module', 'position',
                   'hidden', 'listed', 'filterable', 'searchable', 'updated_at')
   limit 1;
  if unknown is not null then
    errors := jsonb_build_object(left(unknown, 63), 'unknown_field');
  end if;

  if p_field ? 'type' then
    if jsonb_typeof(p_field -> 'type') = 'string' and private.custom_field_column_type(p_field ->> 'type') is not null then
      field := field || jsonb_build_object('type', p_field -> 'type');
    else
      errors := errors || '{"type": "invalid"}';
    end if;
  elsif p_existing is null then
    errors := errors || '{"type": "required"}';
  end if;
  field_type := field ->> 'type';

  if p_field ? 'label_tr' or p_existing is null then
    problem := private.custom_field_label_error(p_field -> 'label_tr', true);
    if problem is null then
      field := field || jsonb_build_object('label_tr', btrim(p_field ->> 'label_tr'));
    else
      errors := errors || jsonb_build_object('label_tr', problem);
    end if;
  end if;
  if p_field ? 'label_en' then
    problem := private.custom_field_label_error(p_field -> 'label_en', false);
    if problem is null then
      field := field || jsonb_build_object('label_en', nullif(btrim(p_field ->> 'label_en'), ''));
    else
      errors := errors || jsonb_build_object('label_en', problem);
    end if;
  end if;

  foreach flag in array array['required', 'hidden', 'listed', 'filterable', 'searchable'] loop
    if p_field ? flag then
      if jsonb_typeof(p_field -> flag) = 'boolean' then
        field := field || jsonb_build_object(flag, p_field -> flag);
      else
        errors := errors || jsonb_build_object(flag, 'invalid');
      end if;
    end if;
  end loop;

  if p_field ? 'position' then
    if jsonb_typeof(p_field -> 'position') = 'number' and (p_field ->> 'position') ~ '^[0-9]{1,6}$' then
      field := field || jsonb_build_object('position', (p_field ->> 'position')::integer);
    else
      errors := errors || '{"position": "invalid"}';
    end if;
  end if;

  -- What only some types have.
  if field_type in ('choice', 'multi_choice') then
    if p_field ? 'options' or field -> 'options' = '[]' then
      options := private.clean_custom_field_options(p_field -> 'options');
      if options ? 'error' then
        errors := errors || jsonb_build_object('options', options -> 'error');
      else
        field := field || options;
      end if;
    end if;
  elsif coalesce(jsonb_array_length(case when jsonb_typeof(p_field -> 'options') = 'array' then p_field -> 'options' end), 0) > 0
        or jsonb_typeof(p_field -> 'options') not in ('array', 'null') then
    errors := errors || '{"options": "invalid"}';
  else
    field := field || '{"options": []}';
  end if;

  if field_type = 'money' then
    if coalesce(p_field -> 'currency', 'null') <> 'null' then
      if jsonb_typeof(p_field -> 'currency') = 'string' and (p_field ->> 'currency') ~ '^[A-Z]{3}$' then
        field := field || jsonb_build_object('currency', p_field -> 'currency');
      else
        errors := errors || '{"currency": "invalid"}';
      end if;
    elsif field ->> 'currency' is null then
      field := field || jsonb_build_object('currency', coalesce(
        (select s.default_currency from private.organization_settings s where s.organization_id = p_organization_id), 'TRY'));
    end if;
  elsif coalesce(p_field -> 'currency', 'null') <> 'null' then
    errors := errors || '{"currency": "invalid"}';
  else
    field := field || '{"currency": null}';
  end if;

  if field_type = 'link' then
    if coalesce(p_field -> 'link_module', 'null') <> 'null' then
      if jsonb_typeof(p_field -> 'link_module') = 'string'
         and exists (select 1 from private.modules m where m.key = p_field ->> 'link_module') then
        field := field || jsonb_build_object('link_module', p_field -> 'link_module');
      else
        errors := errors || '{"link_module": "invalid"}';
      end if;
    elsif field ->> 'link_module' is null then
      errors := errors || '{"link_module": "required"}';
    end if;
  elsif coalesce(p_field -> 'link_module', 'null') <> 'null' then
    errors := errors || '{"link_module": "invalid"}';
  else
    field := field || '{"link_module": null}';
  end if;

  -- Search matches text; a long text is too long for a sorted index (a filter compares whole values).
  if (field -> 'searchable')::boolean and field_type not in ('text', 'long_text', 'email', 'phone', 'url') then
    if p_field -> 'searchable' = 'true' then
      errors := errors || '{"searchable": "invalid"}';
    else
      field := field || '{"searchable": false}';
    end if;
  end if;
  if (field -> 'filterable')::boolean and field_type = 'long_text' then
    if p_field -> 'filterable' = 'true' then
      errors := errors || '{"filterable": "invalid"}';
    else
      field := field || '{"filterable": false}';
    end if;
  end if;
  return jsonb_build_object('field', field, 'errors', errors);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The column
-- ---------------------------------------------------------------------------------

/**
 * The name of a custom field's index ('filter': the list filter's, 'search': the search's):
 * <table>_<key>_filter_idx, or, when that passes PostgreSQL's 63 characters,
 * <table>_cf<first 12 hex of md5(key)>_<kind>_idx. Always the same for one field, so that
 * an index is found again to drop it.
 */
create function private.custom_field_index_name(p_table text, p_key text, p_kind text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when char_length(format('%s_%s_%s_idx', p_table, p_key, p_kind)) <= 63
              then format('%s_%s_%s_idx', p_table, p_key, p_kind)
              else format('%s_cf%s_%s_idx', left(p_table, 30), left(md5(p_key), 12), p_kind) end;
$$;

/**
 * Builds or drops a field's indexes after its flags, on its organization's table (the
 * style of supabase/tenant/08_customers.sql, live records only): filterable, a btree on
 * (value, id) (a gin index on the array of a multi choice); searchable, a trigram gin on
 * its Turkish-folded text (private.fold_search). Built in the call's transaction (writes
 * to the table wait meanwhile: an admin's change, rarely made).
 */
create function private.sync_custom_field_indexes(p_schema text, p_table text, p_field private.custom_fields)
returns void
language plpgsql
security definer
set search_path = ''
set client_min_messages = warning
as $$
declare
  filter_index text := private.custom_field_index_name(p_table, p_field.key, 'filter');
  search_index text := private.custom_field_index_name(p_table, p_field.key, 'search');
begin
  if p_field.filterable and p_field.type = 'multi_choice' then
    execute format('create index if not exists %I on %I.%I using gin (%I) where deleted_at is null',
                   filter_index, p_schema, p_table, p_field.key);
  elsif p_field.filterable then
    execute format('create index if not exists %I on %I.%I (%I, id) where deleted_at is null',
                   filter_index, p_schema, p_table, p_field.key);
  else
    execute format('drop index if exists %I.%I', p_schema, filter_index);
  end if;
  if p_field.searchable then
    execute format('create index if not exists %I on %I.%I using gin (private.fold_search(%I) extensions.gin_trgm_ops) '
                   'where deleted_at is null', search_index, p_schema, p_table, p_field.key);
  else
    execute format('drop index if exists %I.%I', p_schema, search_index);
  end if;
end;
$$;

/**
 * Builds what the declarations of an organization describe and its tables lack: each
 * field's column (of private.custom_field_column_type) and indexes. A restore of a backup
 * calls it after private.migrate_tenant built the template's tables, so that the rows of
 * custom columns have somewhere to go (scripts/stack/backup.ts).
 */
create function private.build_custom_fields(p_organization_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
set client_min_messages = warning
as $$
declare
  tenant text := private.tenant_schema(p_organization_id);
  field private.custom_fields;
  target_table text;
begin
  for field in select * from private.custom_fields f where f.organization_id = p_organization_id order by f.module, f.position loop
    select m.table_name into target_table from private.modules m where m.key = field.module;
    execute format('alter table %I.%I add column if not exists %I %s', tenant, target_table, field.key,
                   private.custom_field_column_type(field.type));
    perform private.sync_custom_field_indexes(tenant, target_table, field);
  end loop;
end;
$$;

/**
 * How many live records of the table hold a value in the column, counted up to 10,001
 * (a column of a million records answers in one short scan): {count, exact}, count at
 * most 10,000 and exact false beyond it.
 */
create function private.count_custom_values(p_schema text, p_table text, p_key text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  counted bigint;
begin
  execute format('select count(*) from (select 1 from %I.%I t where t.deleted_at is null and t.%I is not null limit 10001) v',
                 p_schema, p_table, p_key)
    into counted;
  return jsonb_build_object('count', least(counted, 10000), 'exact', counted <= 10000);
end;
$$;

/**
 * The SQL expression (over the column p_column of type p_from) that gives its value as
 * type p_to, or null when no value converts (into a link: an id must name a record of the
 * linked module; a multi choice becomes text, or a choice when it holds one option). Text
 * into e-mail and phone is normalised as the record engine normalises them
 * (private.normalize_email, private.normalize_phone; null when it is none); the same
 * column type needs no conversion (the column itself).
 */
create function private.custom_field_conversion(p_from text, p_to text, p_column text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_to = 'link' then null
    when p_from = 'multi_choice' and p_to in ('text', 'long_text') then format('array_to_string(%I, '', '')', p_column)
    when p_from = 'multi_choice' and p_to = 'choice' then format('case when cardinality(%1$I) = 1 then %1$I[1] end', p_column)
    when p_from = 'multi_choice' and p_to <> 'multi_choice' then null
    when p_to = 'multi_choice' and p_from <> 'multi_choice' then format('case when %1$I is not null then array[%1$I::text] end', p_column)
    when p_to = 'email' then format('private.normalize_email(%I::text)', p_column)
    when p_to = 'phone' then format('private.normalize_phone(%I::text)', p_column)
    when private.custom_field_column_type(p_from) = private.custom_field_column_type(p_to) then format('%I', p_column)
    else format('%I::%s', p_column, private.custom_field_column_type(p_to))
  end;
$$;

/**
 * The rule every value of a field must keep (a SQL condition over the column p_column):
 * a choice is one of its options, a multi choice holds only options, an e-mail is an
 * address (private.is_valid_email), a URL a website (private.is_valid_website), a text and
 * a long text within their lengths (private.custom_field_limits). Other types: their
 * column type is the rule.
 */
create function private.custom_field_value_rule(p_field private.custom_fields, p_column text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case p_field.type
    when 'choice' then format('%I = any (%L::text[])', p_column, array(select o ->> 'value' from jsonb_array_elements(p_field.options) o))
    when 'multi_choice' then format('%I <@ %L::text[]', p_column, array(select o ->> 'value' from jsonb_array_elements(p_field.options) o))
    when 'email' then format('private.is_valid_email(%I)', p_column)
    when 'url' then format('private.is_valid_website(%I)', p_column)
    when 'text' then format('char_length(%I) <= %s', p_column, (private.custom_field_limits()).text_max)
    when 'long_text' then format('char_length(%I) <= %s', p_column, (private.custom_field_limits()).long_text_max)
    else 'true'
  end;
$$;

/**
 * Gives a field's column the type of p_to (type, options, link module) from p_from's, all
 * or nothing; false when a value would not convert, and then nothing changed. Every row
 * counts, soft-deleted ones too (they may come back). A column holding no value is dropped
 * and added again (no rewrite); else every value must convert
 * (private.custom_field_conversion: no error, no value lost) and then keep the new type's
 * rule (private.custom_field_value_rule), and the column is altered with that conversion.
 * The indexes are dropped first (the caller builds them again for the new type).
 */
create function private.convert_custom_column(p_schema text, p_table text, p_from private.custom_fields,
                                              p_to private.custom_fields)
returns boolean
language plpgsql
security definer
set search_path = ''
set client_min_messages = warning
as $$
declare
  conversion text := private.custom_field_conversion(p_from.type, p_to.type, p_from.key);
  has_values boolean;
  bad_values boolean;
begin
  begin
    execute format('drop index if exists %I.%I, %I.%I', p_schema, private.custom_field_index_name(p_table, p_from.key, 'filter'),
                   p_schema, private.custom_field_index_name(p_table, p_from.key, 'search'));
    execute format('select exists (select 1 from %I.%I t where t.%I is not null)', p_schema, p_table, p_from.key) into has_values;
    if not has_values then
      execute format('alter table %1$I.%2$I drop column %3$I, add column %3$I %4$s', p_schema, p_table, p_from.key,
                     private.custom_field_column_type(p_to.type));
      return true;
    end if;
    if conversion is null then
      raise exception 'no conversion of % from % to %', p_from.key, p_from.type, p_to.type using errcode = 'data_exception';
    end if;
    execute format('select exists (select 1 from %I.%I t where t.%I is not null and (%s) is null)', p_schema, p_table,
                   p_from.key, conversion) into bad_values;
    if conversion <> format('%I', p_from.key) and not bad_values then
      execute format('alter table %I.%I alter column %I type %s using %s', p_schema, p_table, p_from.key,
                     private.custom_field_column_type(p_to.type), conversion);
    end if;
    if not bad_values then
      execute format('select exists (select 1 from %I.%I t where t.%I is not null and not (%s))', p_schema, p_table,
                     p_from.key, private.custom_field_value_rule(p_to, p_from.key)) into bad_values;
    end if;
    if bad_values then
      raise exception 'values of % break the rules of %', p_from.key, p_to.type using errcode = 'data_exception';
    end if;
  exception when data_exception or cannot_coerce or datatype_mismatch or undefined_function then
    return false;
  end;
  return true;
end;
$$;

/** Whether the table has a column of that name (a field's, or one no declaration knows). */
create function private.table_has_column(p_schema text, p_table text, p_column text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select exists (select 1 from pg_catalog.pg_attribute a
                    where a.attrelid = pg_catalog.to_regclass(format('%I.%I', p_schema, p_table))
                      and a.attname = p_column and a.attnum > 0 and not a.attisdropped));
end;
$$;

/**
 * The key of a new field named p_label: cf_ and the label with the Turkish letters folded
 * (ç→c ğ→g ı,İ→i ö→o ş→s ü→u), lowercased, every run of other characters one underscore
 * (alan_ first when it does not start with a letter), at most 43 characters; with _2, _3, …
 * when the module already has that key or its table that column ("Sektör kodu" →
 * cf_sektor_kodu, then cf_sektor_kodu_2).
 */
create function private.custom_field_key(p_schema text, p_table text, p_organization_id uuid, p_module text, p_label text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  slug text := btrim(regexp_replace(lower(translate(p_label, 'ÇĞİIıÖŞÜçğöşü', 'CGIIiOSUcgosu')), '[^a-z0-9]+', '_', 'g'), '_');
  base text;
  candidate text;
  suffix integer := 1;
begin
  if slug !~ '^[a-z]' then
    slug := btrim('alan_' || slug, '_');
  end if;
  base := rtrim(left('cf_' || slug, 43), '_');
  candidate := base;
  while exists (select 1 from private.custom_fields f
                 where f.organization_id = p_organization_id and f.module = p_module and f.key = candidate)
        or private.table_has_column(p_schema, p_table, candidate) loop
    suffix := suffix + 1;
    candidate := rtrim(left(base, 43 - char_length('_' || suffix)), '_') || '_' || suffix;
  end loop;
  return candidate;
end;
$$;

/** The answer to field errors ({"fields": {name: code}}), as the record engine gives them. */
create function private.custom_field_errors(p_errors jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', p_errors));
$$;

-- ---------------------------------------------------------------------------------
-- The RPCs
-- ---------------------------------------------------------------------------------

/**
 * A module's fields: its custom fields in the caller's organization, hidden ones included,
 * in the admin's order, and its standard fields (private.module_fields, in their order):
 * {success, fields, standard_fields}. Anyone who may view the module there reads them
 * (every screen of the module derives its fields from them); an unknown module is
 * invalid_input.
 */
create function public.list_custom_fields(p_module text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
begin
  if not exists (select 1 from private.modules m where m.key = p_module) then
    return private.failure('Unknown module', 'invalid_input');
  end if;
  context := private.module_context(p_module, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  return jsonb_build_object('success', true, 'fields', coalesce(
    (select jsonb_agg(private.custom_field_json(f) order by f.position, f.key)
       from private.custom_fields f where f.organization_id = context.organization_id and f.module = p_module), '[]'),
    'standard_fields', (select jsonb_agg(to_jsonb(f) - 'module' order by f.position)
                          from private.module_fields f where f.module = p_module));
end;
$$;
revoke all on function public.list_custom_fields(p_module text) from public, anon, authenticated;
grant execute on function public.list_custom_fields(p_module text) to authenticated;

/**
 * The admin of the session's organization creates a custom field of a sales module, or
 * changes one: {success, field}. Without a key, or with one the module does not have yet
 * (^cf_[a-z][a-z0-9_]{0,39}$; reserved when the table already has such a column, or when
 * it is, or as a link would take, the name key of a link: cf_bayi's cf_bayi_name), a new
 * field: its key from its Turkish label (private.custom_field_key) unless given, at most
 * private.custom_field_limits' fields per module (too_many_fields), placed last unless a
 * position is given, and its column added to the organization's table (no default: no
 * rewrite, instant whatever the rows). With a key the module has, a change of what p_field
 * names (labels, required, options, position, hidden, listed, filterable, searchable,
 * currency, type, link module); with updated_at, only of the field as read then
 * (stale_record). An option records still hold cannot go (option_in_use, with the count);
 * a new type must take every value (private.convert_custom_column, else
 * type_not_convertible). Indexes follow filterable and searchable. Field errors as the
 * record engine's ({"fields": {name: code}}, private.clean_custom_field). Audited
 * (custom_fields.create with the field, custom_fields.update with what changed). A change
 * the request's statement timeout cuts short (an index or a new type over very many
 * records) changes nothing and is answered too_many_records.
 */
create function public.save_custom_field(p_module text, p_field jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_table text;
  tenant text;
  field_key text;
  existing private.custom_fields;
  cleaned jsonb;
  field private.custom_fields;
  removed text[];
  holders bigint;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  select m.table_name into target_table from private.modules m where m.key = p_module;
  if target_table is null or jsonb_typeof(p_field) is distinct from 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  tenant := private.tenant_schema(caller.organization_id);
  if tenant is null then
    return private.refusal('tables_not_found');
  end if;
  -- One change at a time in a module of an organization: its keys, count and columns are read, then written.
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(caller.organization_id::text || '/' || p_module, 0));

  if coalesce(p_field -> 'key', 'null') <> 'null' then
    if jsonb_typeof(p_field -> 'key') <> 'string' or (p_field ->> 'key') !~ '^cf_[a-z][a-z0-9_]{0,39}$' then
      return private.custom_field_errors('{"key": "invalid"}');
    end if;
    field_key := p_field ->> 'key';
    select * into existing from private.custom_fields f
     where f.organization_id = caller.organization_id and f.module = p_module and f.key = field_key;
  end if;

  if existing.key is null then
    if (select count(*) from private.custom_fields f where f.organization_id = caller.organization_id and f.module = p_module)
       >= (private.custom_field_limits()).fields_per_module then
      return private.failure('Too many custom fields', 'too_many_fields',
                             jsonb_build_object('limit', (private.custom_field_limits()).fields_per_module));
    end if;
    cleaned := private.clean_custom_field(p_field, null, caller.organization_id);
    if field_key is not null and private.table_has_column(tenant, target_table, field_key) then
      cleaned := jsonb_set(cleaned, '{errors,key}', '"reserved"');
    end if;
    if cleaned -> 'errors' <> '{}' then
      return private.custom_field_errors(cleaned -> 'errors');
    end if;
    field := jsonb_populate_record(null::private.custom_fields, cleaned -> 'field' || jsonb_build_object(
      'organization_id', caller.organization_id, 'module', p_module, 'created_by', caller.user_id,
      'created_at', now(), 'updated_at', now(),
      'key', coalesce(field_key, private.custom_field_key(tenant, target_table, caller.organization_id, p_module,
                                                          cleaned #>> '{field,label_tr}')),
      'position', coalesce((cleaned #>> '{field,position}')::integer,
                           (select coalesce(max(f.position), 0) + 1 from private.custom_fields f
                             where f.organization_id = caller.organization_id and f.module = p_module))));
    -- A link's name travels beside it as <key without _id>_name (private.link_names_sql): no field may take that key.
    if exists (select 1 from private.custom_fields f
                where f.organization_id = caller.organization_id and f.module = p_module and f.type = 'link'
                  and regexp_replace(f.key, '_id$', '') || '_name' = field.key)
       or (field.type = 'link' and private.table_has_column(tenant, target_table, regexp_replace(field.key, '_id$', '') || '_name')) then
      return private.custom_field_errors('{"key": "reserved"}');
    end if;
    begin
      execute format('alter table %I.%I add column %I %s', tenant, target_table, field.key,
                     private.custom_field_column_type(field.type));
    exception when too_many_columns then
      -- PostgreSQL's 1,600 columns, dropped ones included: the table must be rebuilt first.
      return private.failure('Too many custom fields', 'too_many_fields',
                             jsonb_build_object('limit', (private.custom_field_limits()).fields_per_module));
    end;
    insert into private.custom_fields select field.*;
    perform private.sync_custom_field_indexes(tenant, target_table, field);
    perform private.write_audit(caller.organization_id, 'custom_fields.create', p_module, field.key,
                                private.custom_field_json(field) - 'updated_at');
    return jsonb_build_object('success', true, 'field', private.custom_field_json(field));
  end if;

  if coalesce(p_field -> 'updated_at', 'null') <> 'null'
     and private.try_timestamptz(p_field -> 'updated_at') is distinct from existing.updated_at then
    return private.failure('The field was changed by someone else', 'stale_record');
  end if;
  cleaned := private.clean_custom_field(p_field, existing, caller.organization_id);
  if cleaned -> 'errors' <> '{}' then
    return private.custom_field_errors(cleaned -> 'errors');
  end if;
  field := jsonb_populate_record(existing, cleaned -> 'field');
  if private.custom_field_json(field) = private.custom_field_json(existing) then
    return jsonb_build_object('success', true, 'field', private.custom_field_json(existing));
  end if;

  if field.type is distinct from existing.type or field.link_module is distinct from existing.link_module then
    if not private.convert_custom_column(tenant, target_table, existing, field) then
      return private.failure('The field''s values cannot take the new type', 'type_not_convertible',
                             jsonb_build_object('fields', jsonb_build_object('type', 'type_not_convertible')));
    end if;
  elsif field.type in ('choice', 'multi_choice') then
    removed := array(select o ->> 'value' from jsonb_array_elements(existing.options) o
                     except select o ->> 'value' from jsonb_array_elements(field.options) o);
    if removed <> '{}' then
      execute format(case when field.type = 'choice' then 'select count(*) from %I.%I t where t.%I = any ($1)'
                          else 'select count(*) from %I.%I t where t.%I && $1' end, tenant, target_table, field.key)
        into holders using removed;
      if holders > 0 then
        return private.failure('Records still hold an option to remove', 'option_in_use',
                               jsonb_build_object('count', holders, 'fields', '{"options": "option_in_use"}'::jsonb));
      end if;
    end if;
  end if;

  field.updated_at := now();
  update private.custom_fields f
     set type = field.type, label_tr = field.label_tr, label_en = field.label_en, required = field.required,
         options = field.options, currency = field.currency, link_module = field.link_module, position = field.position,
         hidden = field.hidden, listed = field.listed, filterable = field.filterable, searchable = field.searchable,
         updated_at = field.updated_at
   where f.organization_id = existing.organization_id and f.module = existing.module and f.key = existing.key;
  perform private.sync_custom_field_indexes(tenant, target_table, field);
  perform private.write_audit(caller.organization_id, 'custom_fields.update', p_module, field.key,
                              jsonb_build_object('label_tr', field.label_tr, 'changes', private.audit_changes(
                                private.custom_field_json(existing) - 'updated_at', private.custom_field_json(field) - 'updated_at')));
  return jsonb_build_object('success', true, 'field', private.custom_field_json(field));
exception when query_canceled then
  -- The request's statement timeout (8 s) ran out building an index or rewriting the table
  -- for a new type (at 1,000,000 records: an index 3-5 s, a rewrite more): nothing changed.
  return private.failure('The change takes longer than a request may for this many records', 'too_many_records');
end;
$$;
revoke all on function public.save_custom_field(p_module text, p_field jsonb) from public, anon, authenticated;
grant execute on function public.save_custom_field(p_module text, p_field jsonb) to authenticated;

/**
 * The admin of the session's organization removes a custom field: its column (with its
 * values and indexes) and its declaration. Audited (custom_fields.delete) with its label,
 * type and how many live records held a value (private.count_custom_values).
 */
create function public.delete_custom_field(p_module text, p_key text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_table text;
  tenant text;
  field private.custom_fields;
  held jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  select m.table_name into target_table from private.modules m where m.key = p_module;
  if target_table is null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  tenant := private.tenant_schema(caller.organization_id);
  if tenant is null then
    return private.refusal('tables_not_found');
  end if;
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(caller.organization_id::text || '/' || p_module, 0));
  select * into field from private.custom_fields f
   where f.organization_id = caller.organization_id and f.module = p_module and f.key = p_key;
  if not found then
    return private.failure('Custom field not found', 'not_found');
  end if;
  held := private.count_custom_values(tenant, target_table, field.key);
  execute format('alter table %I.%I drop column %I', tenant, target_table, field.key);
  delete from private.custom_fields f
   where f.organization_id = field.organization_id and f.module = field.module and f.key = field.key;
  perform private.write_audit(caller.organization_id, 'custom_fields.delete', p_module, field.key,
                              jsonb_build_object('label_tr', field.label_tr, 'type', field.type, 'values', held));
  return jsonb_build_object('success', true);
end;
$$;
revoke all on function public.delete_custom_field(p_module text, p_key text) from public, anon, authenticated;
grant execute on function public.delete_custom_field(p_module text, p_key text) to authenticated;

/**
 * For the admin of the session's organization, before a field is removed: how many live
 * records hold a value in it, {success, count, exact} (private.count_custom_values: exact
 * up to 10,000).
 */
create function public.count_custom_field_values(p_module text, p_key text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  target_table text;
  tenant text;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  select m.table_name into target_table from private.modules m where m.key = p_module;
  if target_table is null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  tenant := private.tenant_schema(caller.organization_id);
  if tenant is null then
    return private.refusal('tables_not_found');
  end if;
  if not exists (select 1 from private.custom_fields f
                  where f.organization_id = caller.organization_id and f.module = p_module and f.key = p_key) then
    return private.failure('Custom field not found', 'not_found');
  end if;
  return jsonb_build_object('success', true) || private.count_custom_values(tenant, target_table, p_key);
end;
$$;
revoke all on function public.count_custom_field_values(p_module text, p_key text) from public, anon, authenticated;
grant execute on function public.count_custom_field_values(p_module text, p_key text) to authenticated;
