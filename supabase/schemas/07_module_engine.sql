-- The module engine (DESIGN.md D8): the registry of sales modules, each module's guard
-- and scope (module_context), the generic record operations (list, get, create, update,
-- bulk update, delete and restore, timeline and notes, duplicates and merge, saved
-- views, links between records) and the public façade generated per module.

-- ---------------------------------------------------------------------------------
-- The registry
-- ---------------------------------------------------------------------------------
create table private.module_actions (
  key text primary key check (key ~ '^[a-z]{1,20}$'),
  position integer not null unique
);

insert into private.module_actions (key, position)
values ('view', 1), ('create', 2), ('edit', 3), ('delete', 4), ('export', 5), ('import', 6);

alter table private.module_actions enable row level security;

comment on table private.module_actions is 'What a role may do in a module (the columns of the roles matrix).';

create table private.modules (
  key text primary key check (key ~ '^[a-z][a-z_]{0,39}$'),
  position integer not null unique,
  -- The tenant table holding the records (template columns: id, owner_id, created_by,
  -- created_at, updated_at, deleted_at).
  table_name text not null unique check (private.is_safe_identifier(table_name)),
  -- What notes and the timeline call a record of this module.
  entity_type text not null unique check (entity_type ~ '^[a-z_]{1,40}$'),
  -- Which columns a client may set, a list carries, sorts or filters by: its declared fields'
  -- (private.module_fields, read through private.module_column_list).
  default_sort text not null default 'created_at',
  default_descending boolean not null default true,
  -- True when the table has a Turkish-folded search_text column with a trigram index.
  searchable boolean not null default false,
  -- What a notification or an activity entry calls a record: these columns' values, joined by a space.
  title_columns text[] not null default '{title}' check (cardinality(title_columns) between 1 and 5),
  -- The transfer kind (spec section 3) that moves this module's records: a module's key (its
  -- own, or another's it moves with, as contacts with customers), and the kind's default.
  transfer_kind text references private.modules (key),
  transfer_default boolean not null default false,
  -- Further tenant tables whose rows move with this module's records (a quote's items).
  transfer_tables text[] not null default '{}',
  -- The column of the documents table that links a document to one of this module's
  -- records; null when documents cannot belong to its records.
  document_link text unique check (document_link is null or private.is_safe_identifier(document_link)),
  -- What one record of the module is called, in Turkish and English (the documents' link
  -- field to its records is labelled so); given with a document link.
  record_label_tr text,
  record_label_en text,
  -- The module's own rules: private.<name>(p_values jsonb, p_existing jsonb) returns
  -- {"values": normalised values, "errors": {column: code}}.
  prepare_function text check (prepare_function ~ '^[a-z_]{1,60}$'),
  check (transfer_kind is not null or (not transfer_default and transfer_tables = '{}'))
);

alter table private.modules enable row level security;

comment on table private.modules is
  'The sales modules, one row each, written by private.register_module: permissions, roles, transfer, notes, document links and the record engine read it.';

-- Every standard field of every sales module, declared once (DESIGN.md D11): written by
-- private.register_module from the module's own file, in the same shape as an
-- organization's custom fields (private.custom_fields), so that the engine and the app
-- read both alike. The engine's column lists (writable, listed, sortable, filterable) are
-- read from these rows (private.module_column_list); a field's rules come from its type unless own_rule says
-- the module's prepare function holds a rule its type cannot say (VKN by kind, a deal's
-- stage, KDV); the app draws a field from its declaration unless own_ui says the module's
-- screens draw it with inputs of their own.
create table private.module_fields (
  module text not null references private.modules (key) on delete cascade,
  key text not null check (private.is_safe_identifier(key) and key !~ '^cf_'),
  position integer not null,
  type text not null check (type in ('text', 'long_text', 'number', 'money', 'percent', 'date', 'datetime', 'boolean',
                                     'choice', 'multi_choice', 'email', 'phone', 'url', 'link', 'tags', 'structured')),
  label_tr text not null check (char_length(btrim(label_tr)) between 1 and 60),
  label_en text not null check (char_length(btrim(label_en)) between 1 and 60),
  -- A client may set it (else the database computes it: a quote's number, a deal's closing time).
  writable boolean not null default true,
  required boolean not null default false,
  -- A text's characters at most (text types); null: the type's (1,000 text, 10,000 long text).
  max_length integer check (max_length between 1 and 100000),
  -- A choice's options, in order: [{"value", "label_tr", "label_en"}]; [] for other types.
  options jsonb not null default '[]' check (jsonb_typeof(options) = 'array'),
  -- A link's module (checked by private.link_errors, as every link between modules).
  link_module text references private.modules (key) on delete cascade,
  listed boolean not null default false,
  sortable boolean not null default false,
  filterable boolean not null default false,
  -- The module's prepare function holds its rule (its type's rule does not run).
  own_rule boolean not null default false,
  -- The module's screens draw it with inputs of their own (else it is drawn from this
  -- declaration wherever a custom field is: a type a generic input can write).
  own_ui boolean not null default false,
  -- Header names an import file may use for it besides its two labels (matched folded: case,
  -- Turkish letters, spaces and punctuation aside); a choice's options carry theirs in
  -- options[].import_names. A link field imports as a reference named by the record's title.
  import_names text[] not null default '{}',
  primary key (module, key),
  check (own_ui or type not in ('tags', 'structured')),
  unique (module, position),
  check ((type = 'link') = (link_module is not null)),
  check (type in ('choice', 'multi_choice') or options = '[]'),
  check (max_length is null or type in ('text', 'long_text', 'email', 'phone', 'url'))
);

alter table private.module_fields enable row level security;

comment on table private.module_fields is
  'Each standard field of a sales module, declared once (private.register_module): type, labels, rules and where it shows.';

/**
 * The header names an import file may use for a field that several modules declare under the
 * same key (its external code, tags, description, customer), whichever module it is in: the
 * one home of those words; a module's declaration adds its own (private.field_declaration).
 */
create function private.shared_import_names(p_key text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case p_key
    when 'external_id' then array['Harici Kod', 'Harici ID', 'Harici No', 'Dış Kod', 'Dış ID', 'Dış Kimlik', 'Kod',
                                  'External ID', 'External code', 'Code']
    when 'tags' then array['Etiket', 'Etiketler', 'Tag', 'Tags', 'Labels']
    when 'description' then array['Açıklama', 'Not', 'Notlar', 'Description', 'Notes']
    when 'customer_id' then array['Müşteri', 'Müşteri Adı', 'Firma', 'Firma Adı', 'Şirket', 'Kurum', 'Cari', 'Cari Adı',
                                  'Customer', 'Company', 'Account']
    else '{}'::text[]
  end;
$$;

/**
 * One field's declaration for private.register_module's p_fields: key, type, labels in
 * Turkish and English, and p_flags among required, listed, sortable, filterable, readonly
 * (not writable), own_rule and own_ui (private.module_fields says what each means);
 * p_options a choice's [value, label_tr, label_en] triples; p_import_names the header names a
 * file may use for it besides its labels (after private.shared_import_names' for its key), and
 * p_option_import_names an option's, by its value ({"company": ["Firma", "Tüzel"]}).
 */
create function private.field_declaration(p_key text, p_type text, p_label_tr text, p_label_en text,
                                          p_flags text[] default '{}', p_max_length integer default null,
                                          p_options text[] default '{}', p_link_module text default null,
                                          p_import_names text[] default '{}', p_option_import_names jsonb default '{}')
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  if not p_flags <@ '{required,listed,sortable,filterable,readonly,own_rule,own_ui}'::text[] then
    raise exception 'Field %: unknown flag among %', p_key, p_flags;
  end if;
  if cardinality(p_options) % 3 <> 0 then
    raise exception 'Field %: options come as value, Turkish label, English label', p_key;
  end if;
  if exists (select 1 from jsonb_object_keys(p_option_import_names) k (value)
              where not exists (select 1 from generate_series(1, cardinality(p_options), 3) i where p_options[i] = k.value)) then
    raise exception 'Field %: import names for an option it does not have', p_key;
  end if;
  return jsonb_build_object(
    'key', p_key, 'type', p_type, 'label_tr', p_label_tr, 'label_en', p_label_en,
    'writable', not 'readonly' = any (p_flags), 'required', 'required' = any (p_flags), 'max_length', p_max_length,
    'options', (select coalesce(jsonb_agg(jsonb_build_object('value', p_options[i], 'label_tr', p_options[i + 1],
                                                             'label_en', p_options[i + 2],
                                                             'import_names', coalesce(p_option_import_names -> p_options[i], '[]'))
                                          order by i), '[]')
                  from generate_series(1, cardinality(p_options), 3) i),
    'link_module', p_link_module, 'listed', 'listed' = any (p_flags), 'sortable', 'sortable' = any (p_flags),
    'filterable', 'filterable' = any (p_flags), 'own_rule', 'own_rule' = any (p_flags), 'own_ui', 'own_ui' = any (p_flags),
    'import_names', private.shared_import_names(p_key) || p_import_names);
end;
$$;

-- A list filter through a link table: a module's records filtered by the records of another
-- module they are linked to through a many-to-many table of the organization's schema (deals
-- by contact_id through deal_contacts), read by private.record_page.
create table private.module_link_filters (
  module text not null references private.modules (key) on delete cascade,
  -- The filter's key, and the link table's column holding the other module's record.
  filter_column text not null check (private.is_safe_identifier(filter_column)),
  -- The module whose records filter_column holds: only those the caller may see filter.
  target_module text not null references private.modules (key) on delete cascade,
  link_table text not null check (private.is_safe_identifier(link_table)),
  -- The link table's column holding this module's record.
  record_column text not null check (private.is_safe_identifier(record_column)),
  primary key (module, filter_column)
);

alter table private.module_link_filters enable row level security;

comment on table private.module_link_filters is
  'List filters through a link table (a module''s records by a record of another module linked many-to-many), read by private.record_page.';

alter table private.role_permissions
  add constraint role_permissions_module_fkey foreign key (module) references private.modules (key) on delete cascade,
  add constraint role_permissions_action_fkey foreign key (action) references private.module_actions (key);

/** The modules as the app lists them: key, entity type and the actions, in menu order. */
create function private.modules_json()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_agg(m.key order by m.position), '[]') from private.modules m);
end;
$$;

/** The actions as the roles matrix lists them. */
create function private.module_actions_json()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_agg(a.key order by a.position), '[]') from private.module_actions a);
end;
$$;

/** What the guard hands a module RPC (see private.module_context). */
create type private.module_context as (
  caller uuid,
  organization_id uuid,
  schema_name text,
  table_name text,
  -- 'own' or 'all' records.
  scope text,
  -- The refusal to answer; null when the call may go on.
  problem jsonb
);

/**
 * The guard of every tenant record RPC: who calls, the organization their session is
 * bound to, its schema, the module's table and the scope the role grants for the action
 * ('own' or 'all'); or, in problem, the refusal to answer (private.caller_context's need
 * 'module', then the organization's tables).
 */
create function private.module_context(p_module text, p_action text)
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('module', p_module, p_action);
  context private.module_context;
begin
  context.caller := caller.user_id;
  context.organization_id := caller.organization_id;
  context.scope := caller.scope;
  context.problem := caller.problem;
  if context.problem is not null then
    return context;
  end if;
  select m.table_name into context.table_name from private.modules m where m.key = p_module;
  context.schema_name := private.tenant_schema(context.organization_id);
  if context.schema_name is null then
    context.problem := private.refusal('tables_not_found');
  end if;
  return context;
end;
$$;

/** A record answer: the row without its search column, with the owner's name. */
create function private.record_json(p_row jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select (p_row - 'search_text') || jsonb_build_object('owner_name', (
      select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '')
        from private.profiles p where p.id = (p_row ->> 'owner_id')::uuid)));
end;
$$;

/**
 * A single record answer of the record engine: private.record_json (the row without its
 * search column, with the owner's name) and, for each link of the module
 * (private.module_links), the linked record's title as <column without _id>_name
 * (customer_id: customer_name), by the set-based joins of private.link_names_sql: null
 * when nothing is linked or the caller may not see the linked record.
 */
create function private.record_answer(p_module text, p_row jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  table_name text := (select m.table_name from private.modules m where m.key = p_module);
  -- The caller's organization as every guard has it (private.caller_context's, without its other checks).
  schema_name text := private.tenant_schema(private.current_organization_id());
  joins text;
  names text;
  found_names jsonb;
begin
  if p_row is null then
    return null;
  end if;
  if schema_name is not null and table_name is not null then
    select coalesce(string_agg(l.join_sql, ' '), ''),
           coalesce('jsonb_build_object(' || string_agg(format('%L, %s', l.name_key, l.name_sql), ', ') || ')', '''{}''::jsonb')
      into joins, names
      from private.link_names_sql(p_module, schema_name, 'r') l;
    execute format('select %s from (select (jsonb_populate_record(null::%I.%I, $1)).*) r %s', names, schema_name, table_name, joins)
      into found_names using p_row;
  end if;
  return private.record_json(p_row) || coalesce(found_names, '{}');
end;
$$;

/**
 * An organization's custom fields of a module (private.custom_fields), as the record engine
 * reads them: {key: {"type", "required", "options": [option values], "link_module",
 * "hidden", "filterable", "searchable"}}; {} when it has none. One read of the declarations:
 * a caller that needs them several times (prepare_record, record_page, an import batch)
 * reads them once and hands them on. PL/pgSQL, so that the table (18_custom_fields.sql,
 * after this file) needs to exist only when it runs.
 */
create function private.custom_field_declarations(p_organization_id uuid, p_module text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_object_agg(f.key, jsonb_build_object(
                   'type', f.type, 'required', f.required, 'link_module', f.link_module, 'hidden', f.hidden,
                   'filterable', f.filterable, 'searchable', f.searchable,
                   'options', (select coalesce(jsonb_agg(o -> 'value'), '[]') from jsonb_array_elements(f.options) o))), '{}')
            from private.custom_fields f
           where f.organization_id = p_organization_id and f.module = p_module);
end;
$$;

/**
 * The fields of a module whose rules are their types' (private.prepare_typed_values), as
 * the record engine reads them: the module's standard fields without a rule of the
 * module's own (private.module_fields: not own_rule, not a link, which
 * private.link_errors checks, not structured) and the organization's custom fields
 * (private.custom_field_declarations), {key: {"type", "required", "options",
 * "link_module", "max_length", …}}. Read once per write or import batch.
 */
create function private.field_declarations(p_organization_id uuid, p_module text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(jsonb_object_agg(f.key, jsonb_build_object(
             'type', f.type, 'required', f.required, 'max_length', f.max_length,
             'options', (select coalesce(jsonb_agg(o -> 'value'), '[]') from jsonb_array_elements(f.options) o))), '{}')
           || private.custom_field_declarations(p_organization_id, p_module)
      from private.module_fields f
     where f.module = p_module and f.writable and not f.own_rule and f.type not in ('link', 'structured'));
end;
$$;

/**
 * The custom fields' columns of a module for a statement that copies a record with an
 * explicit column list (a quote's revision, a contract's next term), so that the copy keeps
 * the organization's custom values: '' without custom fields, else ', <key>, …' (p_alias
 * null) or ', <p_alias>.<key>, …', to append to the insert's and the select's lists.
 */
create function private.custom_columns_sql(p_organization_id uuid, p_module text, p_alias text default null)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select coalesce(string_agg(', ' || case when p_alias is null then format('%I', f.key)
                                                  else format('%I.%I', p_alias, f.key) end, '' order by f.key), '')
            from jsonb_object_keys(private.custom_field_declarations(p_organization_id, p_module)) f (key));
end;
$$;

/**
 * The typed values of a write (DESIGN.md D11): each field of p_fields (a module's fields
 * whose rules are their types', private.field_declarations) that p_values names, cleaned
 * and checked by its declared type. Text types are trimmed (empty is null): at most the
 * field's max_length characters, else text 1,000 and long_text 10,000 (too_long); email
 * normalised (invalid_email), phone to E.164 (invalid_phone), url a website
 * (invalid_website); number (|x| < 10^15, 8 decimals), money (|x| < 10^16, 2 decimals) and
 * percent (-1,000 to 1,000, 4 decimals): a JSON number or a numeric string; date
 * 'YYYY-MM-DD' (a real date); datetime an ISO timestamp with its offset (Z or ±hh:mm), so
 * that it names one instant; boolean; choice one of the options' values, multi_choice an
 * array of them (each once, in the order given; empty is null), else invalid_option; tags
 * private.clean_tags (invalid_tags; null is none); link the id of a record of the field's
 * link module the caller may see (private.record_visible), else not_found as for a record
 * that does not exist (a value the record already holds is not checked again). Anything
 * else of the wrong shape is invalid. A required field is required on a create
 * (p_existing null) when missing or null, on an update when p_values sets it to null.
 * Returns {"values", "errors"} as a module's rules do; keys not in p_fields are left alone.
 */
create function private.prepare_typed_values(p_values jsonb, p_existing jsonb, p_fields jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  fields jsonb := coalesce(p_fields, '{}');
  field record;
  value jsonb;
  cleaned jsonb;
  code text;
  text_value text;
  number_value numeric;
  chosen jsonb;
  refused boolean;
  parts text[];
  values jsonb := '{}';
  errors jsonb := '{}';
begin
  if fields = '{}' or jsonb_typeof(p_values) is distinct from 'object' then
    return jsonb_build_object('values', values, 'errors', errors);
  end if;
  for field in select f.key, f.value ->> 'type' as type, (f.value ->> 'required')::boolean as required,
                      f.value -> 'options' as options, f.value ->> 'link_module' as link_module,
                      coalesce((f.value ->> 'max_length')::integer,
                               case f.value ->> 'type' when 'long_text' then 10000 else 1000 end) as max_length
                 from jsonb_each(fields) f
                where p_values ? f.key or (p_existing is null and (f.value ->> 'required')::boolean) loop
    value := coalesce(p_values -> field.key, 'null');
    cleaned := null;
    code := null;
    text_value := null;
    if field.type in ('text', 'long_text', 'email', 'phone', 'url', 'choice') and jsonb_typeof(value) = 'string' then
      -- Text: trimmed, empty is no value.
      text_value := nullif(btrim(value #>> '{}'), '');
      value := coalesce(to_jsonb(text_value), 'null');
    elsif field.type = 'multi_choice' and jsonb_typeof(value) = 'array' and jsonb_array_length(value) = 0 then
      value := 'null';
    end if;

    if field.type = 'tags' then
      -- Tags: null is none; anything but a list of short texts is refused.
      cleaned := to_jsonb(private.clean_tags(value));
      if jsonb_typeof(value) <> 'null' and cleaned is null then
        code := 'invalid_tags';
      elsif field.required and coalesce(cleaned, '[]') = '[]' then
        code := 'required';
      end if;
    end if;

    if field.type = 'tags' then
      null;
    elsif jsonb_typeof(value) = 'null' then
      if field.required then
        code := 'required';
      end if;
    elsif field.type in ('text', 'long_text', 'email', 'phone', 'url', 'choice') then
      case
        when text_value is null then code := 'invalid';
        when char_length(text_value) > field.max_length then code := 'too_long';
        when field.type = 'email' then
          text_value := private.normalize_email(text_value);
          code := case when not private.is_valid_email(text_value) then 'invalid_email' end;
        when field.type = 'phone' then
          text_value := private.normalize_phone(text_value);
          code := case when text_value is null then 'invalid_phone' end;
        when field.type = 'url' then
          code := case when not private.is_valid_website(text_value) then 'invalid_website' end;
        when field.type = 'choice' then
          code := case when not field.options ? text_value then 'invalid_option' end;
        else null;
      end case;
      cleaned := to_jsonb(text_value);
    elsif field.type in ('number', 'money', 'percent') then
      number_value := private.json_numeric(value);
      number_value := case field.type when 'number' then round(number_value, 8) when 'money' then round(number_value, 2)
                                      else round(number_value, 4) end;
      if number_value is null
         or (field.type = 'number' and abs(number_value) >= 1e15)
         or (field.type = 'money' and abs(number_value) >= 1e16)
         or (field.type = 'percent' and number_value not between -1000 and 1000) then
        code := 'invalid';
      else
        cleaned := to_jsonb(number_value);
      end if;
    elsif field.type in ('date', 'datetime') then
      -- Checked by its parts, then cast: a cast that may fail needs an exception block, a
      -- subtransaction that an import would pay for each row.
      parts := case when jsonb_typeof(value) = 'string' then regexp_match(value #>> '{}', case field.type
                 when 'date' then '^([1-9]\d{3})-(\d{2})-(\d{2})$'
                 else '^([1-9]\d{3})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:[Zz]|[+-](\d{2})(?::?(\d{2}))?)$' end) end;
      code := 'invalid';
      if parts is not null and parts[2]::integer between 1 and 12 then
        if parts[3]::integer between 1 and extract(day from make_date(parts[1]::integer, parts[2]::integer, 1) + interval '1 month - 1 day')
           and (field.type = 'date' or (parts[4]::integer <= 23 and parts[5]::integer <= 59 and coalesce(parts[6]::integer, 0) <= 59
                                        and coalesce(parts[7]::integer, 0) <= 15 and coalesce(parts[8]::integer, 0) <= 59)) then
          code := null;
          cleaned := case when field.type = 'date' then to_jsonb((value #>> '{}')::date) else to_jsonb((value #>> '{}')::timestamptz) end;
        end if;
      end if;
    elsif field.type = 'boolean' then
      if jsonb_typeof(value) = 'boolean' then
        cleaned := value;
      else
        code := 'invalid';
      end if;
    elsif field.type = 'multi_choice' then
      if jsonb_typeof(value) <> 'array' then
        code := 'invalid';
      else
        select coalesce(jsonb_agg(c.item order by c.first), '[]'),
               bool_or(jsonb_typeof(c.item) <> 'string' or not field.options @> jsonb_build_array(c.item))
          into chosen, refused
          from (select v.item, min(v.n) as first from jsonb_array_elements(value) with ordinality v (item, n) group by v.item) c;
        if refused then
          code := 'invalid_option';
        else
          cleaned := chosen;
        end if;
      end if;
    elsif field.type = 'link' then
      if private.try_uuid(value) is null then
        code := 'invalid';
      elsif private.try_uuid(value) is distinct from private.try_uuid(p_existing -> field.key)
            and not private.record_visible(field.link_module, private.try_uuid(value)) then
        code := 'not_found';
      else
        cleaned := to_jsonb(private.try_uuid(value));
      end if;
    end if;

    if code is not null then
      errors := errors || jsonb_build_object(field.key, code);
    elsif p_values ? field.key then
      values := values || jsonb_build_object(field.key, coalesce(cleaned, 'null'));
    end if;
  end loop;
  return jsonb_build_object('values', values, 'errors', errors);
end;
$$;

/**
 * A module's rules over a write's values: first the typed fields' (p_fields, the module's
 * private.field_declarations: standard fields without a rule of their own and the
 * organization's custom fields, private.prepare_typed_values), then the module's own
 * (p_prepare_function, private.<name>(p_values, p_existing) → {"values", "errors"}) over
 * the values so cleaned, for what a type cannot say. Returns {"values", "errors"}. The one
 * way a form, an import row and a duplicates check are ruled.
 */
create function private.apply_field_rules(p_prepare_function text, p_values jsonb, p_existing jsonb, p_fields jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  typed jsonb := private.prepare_typed_values(p_values, p_existing, p_fields);
  own jsonb;
begin
  if p_prepare_function is null then
    return jsonb_build_object('values', p_values || (typed -> 'values'), 'errors', typed -> 'errors');
  end if;
  execute format('select private.%I($1, $2)', p_prepare_function) into own using p_values || (typed -> 'values'), p_existing;
  return jsonb_build_object('values', own -> 'values', 'errors', (typed -> 'errors') || (own -> 'errors'));
end;
$$;

/**
 * What a write may set: the module's writable columns (and owner_id) and the
 * organization's custom fields of the module, checked and normalised by their types and
 * the module's own rules (private.apply_field_rules, the declarations read once here); an
 * external id trimmed (empty clears it). Returns {"values"} or, in "problem", the refusal:
 * unknown fields (a custom field of another organization or module is one) or field
 * errors ({"fields": {column: code}}). An owner must be an active member of the
 * organization; with scope 'own' only the caller. A link to another module's record (a
 * deal's customer, a task's contact, a document's quote, …: private.link_errors) must be
 * one the caller may see, else it is not_found, as a record that does not exist.
 */
create function private.prepare_record(p_module text, p_values jsonb, p_existing jsonb,
                                                  p_caller uuid, p_organization_id uuid, p_scope text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  module private.modules;
  fields jsonb := private.field_declarations(p_organization_id, p_module);
  prepared jsonb;
  errors jsonb := '{}';
  unknown text;
  owner uuid;
  external_id text;
  -- The module's declared writable columns, read once (not once per key below).
  writable text[] := private.module_column_list(p_module, 'writable');
begin
  select * into module from private.modules m where m.key = p_module;
  if jsonb_typeof(p_values) is distinct from 'object' then
    return jsonb_build_object('problem', private.failure('Invalid input', 'invalid_input'));
  end if;
  select k into unknown from jsonb_object_keys(p_values) k
   where not (k = any (writable) or k = 'owner_id' or fields ? k) limit 1;
  if unknown is not null then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields',
      jsonb_build_object('fields', jsonb_build_object(left(unknown, 63), 'unknown_field'))));
  end if;

  prepared := private.apply_field_rules(module.prepare_function, p_values, p_existing, fields);
  errors := prepared -> 'errors';
  prepared := prepared -> 'values';

  -- Links to other modules' records: within the caller's view scope of that module.
  errors := private.link_errors(p_module, p_values, p_existing, private.tenant_schema(p_organization_id)) || errors;

  if p_values ? 'external_id' then
    external_id := private.clean_external_id(p_values -> 'external_id');
    if external_id is null then
      errors := errors || '{"external_id": "invalid"}';
    else
      prepared := prepared || jsonb_build_object('external_id', nullif(external_id, ''));
    end if;
  end if;

  if p_values ? 'owner_id' then
    begin
      owner := (p_values ->> 'owner_id')::uuid;
    exception when invalid_text_representation then
      owner := null;
    end;
    if owner is null or not exists (select 1 from private.memberships m
                                     where m.user_id = owner and m.organization_id = p_organization_id and m.is_active) then
      errors := errors || '{"owner_id": "invalid_owner"}';
    elsif p_scope = 'own' and owner <> p_caller then
      return jsonb_build_object('problem', private.refusal('permission_denied'));
    end if;
  end if;
  if errors <> '{}' then
    return jsonb_build_object('problem', private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', errors)));
  end if;
  return jsonb_build_object('values', prepared);
end;
$$;

/**
 * Lists a module's records the caller may see: one page of private.record_page for the
 * view permission, at most 200 list rows (the façade list_<module>).
 */
create function private.record_list(p_module text, p_search text, p_filters jsonb, p_sort text,
                                               p_descending boolean, p_limit integer, p_offset integer)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select private.record_page(p_module, 'view', p_search, p_filters, p_sort, p_descending, p_limit, p_offset, 200, false));
end;
$$;

/** One record the caller may see (not deleted), with its owner's name; another organization's id is simply not found. */
create function private.record_get(p_module text, p_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  found_row jsonb;
begin
  context := private.module_context(p_module, 'view');
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select to_jsonb(t) from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3)',
                 context.schema_name, context.table_name)
    into found_row using p_id, context.scope, context.caller;
  if found_row is null then
    return private.failure('Record not found', 'not_found');
  end if;
  return jsonb_build_object('success', true, 'record', private.record_answer(p_module, found_row));
end;
$$;

/** Creates a record owned by the caller (or, with scope all, by the member named); audited. */
create function private.record_create(p_module text, p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  prepared jsonb;
  columns text[];
  created jsonb;
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  context := private.module_context(p_module, 'create');
  if context.problem is not null then
    return context.problem;
  end if;
  prepared := private.prepare_record(p_module, p_values, null, context.caller, context.organization_id, context.scope);
  if prepared ? 'problem' then
    return prepared -> 'problem';
  end if;
  prepared := (prepared -> 'values') || jsonb_build_object('owner_id', coalesce(prepared #>> '{values,owner_id}', context.caller::text),
                                                           'created_by', context.caller);
  select array_agg(k) into columns from jsonb_object_keys(prepared) k;
  begin
    execute format('insert into %1$I.%2$I as t (%3$s) select %4$s from jsonb_populate_record(null::%1$I.%2$I, $1) r returning to_jsonb(t)',
                   context.schema_name, context.table_name,
                   (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                   (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
      into created using prepared;
  exception when integrity_constraint_violation or data_exception then
    get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
    return private.constraint_failure(context.table_name, failed_column, failed_constraint, failed_state);
  end;
  perform private.write_audit(context.organization_id, p_module || '.create', p_module, created ->> 'id');
  return jsonb_build_object('success', true, 'record', private.record_answer(p_module, created));
end;
$$;

/**
 * Why the caller's action (scope in p_context) left these records alone, one {"id", "code"}
 * each: not_record_owner when the record is there in the state the action needs (in the
 * trash when p_in_trash, else not) and the caller may see it (view scope all) but another
 * member owns it; not_found otherwise (no such record, another organization's, in the other
 * state, or one the caller may not see), so a refusal never tells more than the list shows.
 */
create function private.record_refusals(p_module text, p_context private.module_context, p_ids uuid[], p_in_trash boolean)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  view_scope text := (private.module_context(p_module, 'view')).scope;
  refused jsonb;
begin
  execute format('select coalesce(jsonb_agg(jsonb_build_object(''id'', i.id, ''code'',
                    case when t.id is not null and $3 = ''all'' and $4 = ''own'' and t.owner_id <> $5
                         then ''not_record_owner'' else ''not_found'' end) order by i.position), ''[]'')
                    from unnest($1::uuid[]) with ordinality i (id, position)
                    left join %I.%I t on t.id = i.id and (t.deleted_at is not null) = $2',
                 p_context.schema_name, p_context.table_name)
    into refused using p_ids, p_in_trash, view_scope, p_context.scope, p_context.caller;
  return refused;
end;
$$;

/**
 * Writes changes to one record the caller may edit, inside a module RPC: each changed
 * field goes to the field history, the change to the audit log. A record the caller sees
 * but another member owns (edit scope own) is refused as not_record_owner, any other record
 * out of reach is not_found (private.record_refusals). With p_expected set, a
 * record changed since (another updated_at) is refused as stale, never overwritten.
 */
create function private.record_write(p_module text, p_context private.module_context, p_id uuid, p_values jsonb,
                                     p_expected timestamptz, p_check_stale boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing jsonb;
  prepared jsonb;
  columns text[];
  changed jsonb;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  failed_column text;
  failed_constraint text;
  failed_state text;
begin
  execute format('select to_jsonb(t) from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3) for update',
                 p_context.schema_name, p_context.table_name)
    into existing using p_id, p_context.scope, p_context.caller;
  if existing is null then
    if private.record_refusals(p_module, p_context, array[p_id], false) #>> '{0,code}' = 'not_record_owner' then
      return private.refusal('not_record_owner');
    end if;
    return private.failure('Record not found', 'not_found');
  end if;
  if p_check_stale and (p_expected is null or (existing ->> 'updated_at')::timestamptz <> p_expected) then
    return private.failure('The record was changed by someone else', 'stale_record',
                           jsonb_build_object('record', private.record_answer(p_module, existing)));
  end if;
  prepared := private.prepare_record(p_module, p_values, existing, p_context.caller, p_context.organization_id, p_context.scope);
  if prepared ? 'problem' then
    return prepared -> 'problem';
  end if;
  prepared := prepared -> 'values';
  select array_agg(k) into columns from jsonb_object_keys(prepared) k;
  if columns is null then
    return jsonb_build_object('success', true, 'record', private.record_answer(p_module, existing));
  end if;
  begin
    execute format('update %1$I.%2$I as t set (%3$s) = (select %4$s from jsonb_populate_record(null::%1$I.%2$I, $1) r) where t.id = $2 returning to_jsonb(t)',
                   p_context.schema_name, p_context.table_name,
                   (select string_agg(format('%I', c), ', ') from unnest(columns) c),
                   (select string_agg(format('r.%I', c), ', ') from unnest(columns) c))
      into changed using prepared, p_id;
  exception when integrity_constraint_violation or data_exception then
    get stacked diagnostics failed_column = column_name, failed_constraint = constraint_name, failed_state = returned_sqlstate;
    return private.constraint_failure(p_context.table_name, failed_column, failed_constraint, failed_state);
  end;
  execute format('insert into %I.field_history (entity_type, record_id, field, old_value, new_value, changed_by)
                  select $1, $2, c, $3 -> c, $4 -> c, $5 from unnest($6::text[]) c where ($3 -> c) is distinct from ($4 -> c)',
                 p_context.schema_name)
    using entity, p_id, existing, changed, p_context.caller, columns;
  perform private.write_audit(p_context.organization_id, p_module || '.update', p_module, p_id::text,
    jsonb_build_object('fields', (select coalesce(jsonb_agg(c), '[]') from unnest(columns) c
                                   where (existing -> c) is distinct from (changed -> c))));
  return jsonb_build_object('success', true, 'record', private.record_answer(p_module, changed));
end;
$$;

/** Updates one record; p_updated_at must be the updated_at the caller read (stale writes are refused). */
create function private.record_update(p_module text, p_id uuid, p_values jsonb, p_updated_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  return private.record_write(p_module, context, p_id, p_values, p_updated_at, true);
end;
$$;

/**
 * The answer of a batch over records (bulk edit, delete, restore): {"success": true,
 * <p_count_key>: done, "skipped": how many were refused, "refused": [{"id", "code"}]}; when
 * records were refused and none done, the refusal itself (not_record_owner when any was
 * another member's, else restore_conflict when any could not come back, else not_found)
 * with the same counts and list, so a refused call never reads as success.
 */
create function private.batch_answer(p_count_key text, p_done integer, p_refused jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when p_done = 0 and jsonb_array_length(p_refused) > 0 then
      case when exists (select 1 from jsonb_array_elements(p_refused) r where r ->> 'code' = 'not_record_owner')
           then private.refusal('not_record_owner', 'en', counts)
           when exists (select 1 from jsonb_array_elements(p_refused) r where r ->> 'code' = 'restore_conflict')
           then private.failure('A live record has taken its place', 'restore_conflict', counts)
           else private.failure('Record not found', 'not_found', counts) end
    else jsonb_build_object('success', true) || counts
  end
  from (select jsonb_build_object(p_count_key, p_done, 'skipped', jsonb_array_length(p_refused), 'refused', p_refused) as counts) c;
$$;

/**
 * The same change for up to 500 records; each is checked and written like a single
 * update (scope, rules, history, audit). Records the caller may not edit, or that do not
 * exist, are counted as skipped and listed in refused with the reason
 * (private.record_refusals: not_record_owner or not_found); when none was updated the
 * call is refused with that code (not_record_owner when any record was another member's).
 * A field error refuses the whole batch.
 */
create function private.record_bulk_update(p_module text, p_ids uuid[], p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  record_id uuid;
  answer jsonb;
  updated integer := 0;
  refused jsonb := '[]';
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  foreach record_id in array (select array_agg(distinct i) from unnest(p_ids) i) loop
    answer := private.record_write(p_module, context, record_id, p_values, null, false);
    if (answer ->> 'success')::boolean then
      updated := updated + 1;
    elsif answer ->> 'code' in ('not_found', 'not_record_owner') then
      refused := refused || jsonb_build_array(jsonb_build_object('id', record_id, 'code', answer ->> 'code'));
    else
      -- Field errors are the same for every record: refuse the batch, change nothing.
      raise exception using errcode = 'P0001', message = answer::text;
    end if;
  end loop;
  return private.batch_answer('updated', updated, refused);
exception when sqlstate 'P0001' then
  return sqlerrm::jsonb;
end;
$$;

/**
 * Soft-deletes (p_deleted true) or restores (false) records the caller may delete; each
 * is audited. Returns how many changed; the others are skipped and listed in refused with
 * the reason (private.record_refusals: another member's record, or not found: out of
 * scope, already in that state, another organization's; restore_conflict: a record that
 * cannot come back because a live one has taken its place under a unique rule, such as a
 * contract's next term). When none changed the call is refused (private.batch_answer).
 */
create function private.record_set_deleted(p_module text, p_ids uuid[], p_deleted boolean)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  untouched uuid[];
  changed uuid[];
  conflicted uuid[] := '{}';
  one_id uuid;
  one_changed uuid[];
  statement text;
begin
  context := private.module_context(p_module, 'delete');
  if context.problem is not null then
    return context.problem;
  end if;
  if p_ids is null or cardinality(p_ids) not between 1 and 500 then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  statement := format('with changed as (update %I.%I t set deleted_at = case when $4 then now() end
                         where t.id = any($1) and (t.deleted_at is null) = $4 and ($2 = ''all'' or t.owner_id = $3)
                         returning t.id) select array_agg(id) from changed',
                      context.schema_name, context.table_name);
  begin
    execute statement into changed using p_ids, context.scope, context.caller, p_deleted;
  exception when unique_violation then
    -- A record coming back where a live one has taken its place: one by one, to tell which.
    changed := '{}';
    foreach one_id in array (select array_agg(distinct i) from unnest(p_ids) i) loop
      begin
        execute statement into one_changed using array[one_id], context.scope, context.caller, p_deleted;
        changed := changed || coalesce(one_changed, '{}');
      exception when unique_violation then
        conflicted := conflicted || one_id;
      end;
    end loop;
  end;
  changed := coalesce(changed, '{}');
  untouched := array(select distinct i from unnest(p_ids) i where not i = any (changed) and not i = any (conflicted));
  insert into private.audit_log (organization_id, actor_id, action, target_type, target_id)
  select context.organization_id, context.caller, p_module || case when p_deleted then '.delete' else '.restore' end,
         p_module, c::text
    from unnest(changed) c;
  return private.batch_answer('changed', cardinality(changed),
                              private.record_refusals(p_module, context, untouched, not p_deleted)
                              || coalesce((select jsonb_agg(jsonb_build_object('id', c, 'code', 'restore_conflict'))
                                             from unnest(conflicted) c), '[]'));
end;
$$;

/**
 * A value of a record's field history in words, when it is an id: a person's name (else
 * e-mail) for owner_id and the *_by columns, the linked record's name for a link column,
 * by the rule of the lists (private.link_names_sql, custom link fields included): null
 * when that record is deleted or gone, or the caller may not open it (outside their view
 * scope of its module, 'own': not theirs), so its name never shows; null for any other value.
 */
create function private.timeline_value_label(p_module text, p_schema text, p_field text, p_value jsonb)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  value_id uuid;
  link_join text;
  link_name text;
  title text;
begin
  if p_value is null or jsonb_typeof(p_value) <> 'string'
     or p_value #>> '{}' !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return null;
  end if;
  value_id := (p_value #>> '{}')::uuid;
  if p_field = 'owner_id' or p_field like '%\_by' then
    return (select coalesce(private.profile_name(p.id), p.email) from private.profiles p where p.id = value_id);
  end if;
  select l.join_sql, l.name_sql into link_join, link_name
    from private.link_names_sql(p_module, p_schema, 'v') l where l.column_name = p_field;
  if link_name is null then
    return null;
  end if;
  execute format('select %s from (select $1 as %I) v %s', link_name, p_field, link_join) into title using value_id;
  return title;
end;
$$;

/**
 * A record's timeline, newest first: its notes, its field history, the audit entries
 * about it and the e-mails sent from it (private.mail_log: recipients, cc, subject, body,
 * the attached document's title when the caller may see it, status and error code; the
 * mail.sent/mail.failed audit entries are these), a customer's with the e-mails of its
 * quotes and contracts the caller may see (private.record_visible, the one visibility
 * rule), for someone who may see the record. Each entry names who did it (by_name: name,
 * else e-mail; by_deleted: that account is gone) and a change whose value is an id names
 * it too (old_label, new_label: private.timeline_value_label), so no id needs showing.
 */
create function private.record_timeline(p_module text, p_id uuid, p_limit integer default 100)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_record jsonb := private.record_get(p_module, p_id);
  context private.module_context;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  entries jsonb;
begin
  if not (found_record ->> 'success')::boolean then
    return found_record;
  end if;
  context := private.module_context(p_module, 'view');
  execute format($query$
    select coalesce(jsonb_agg(newest.e order by newest.e ->> 'at' desc), '[]') from (
     select everything.e from (
      select jsonb_build_object('kind', 'note', 'id', n.id, 'body', n.body, 'by', n.created_by, 'at', n.created_at) as e
        from %1$I.notes n where n.entity_type = $1 and n.entity_id = $2 and n.deleted_at is null
      union all
      select jsonb_build_object('kind', 'change', 'field', h.field, 'old', h.old_value, 'new', h.new_value,
                                'by', h.changed_by, 'at', h.changed_at)
        from %1$I.field_history h where h.record_id = $2 and h.entity_type = $1
      union all
      select jsonb_build_object('kind', 'event', 'action', a.action, 'by', a.actor_id, 'at', a.created_at)
        from private.audit_log a where a.organization_id = $3 and a.target_type = $4 and a.target_id = $2::text
         and a.action not in ('mail.sent', 'mail.failed')
      union all
      select jsonb_build_object('kind', 'mail', 'id', l.id, 'mail_kind', l.kind, 'module', l.module, 'record_id', l.record_id,
                                'to', to_jsonb(l.recipients), 'cc', to_jsonb(l.cc), 'subject', l.subject, 'body', l.body,
                                'document_id', d.id, 'document_title', d.title, 'status', l.status,
                                'error_code', l.error_code, 'by', l.created_by, 'at', l.created_at)
        from private.mail_log l
        left join %1$I.documents d on d.id = l.document_id and private.record_visible('documents', d.id)
       where l.organization_id = $3 and l.record_id is not null
         and ((l.module = $4 and l.record_id = $2)
              or ($4 = 'customers' and l.customer_id = $2 and l.module in ('quotes', 'contracts')
                  and private.record_visible(l.module, l.record_id)))
     ) everything(e)
     order by everything.e ->> 'at' desc limit $5) newest$query$, context.schema_name)
    into entries using entity, p_id, context.organization_id, p_module, least(greatest(coalesce(p_limit, 100), 1), 500);
  return jsonb_build_object('success', true, 'entries', (
    select coalesce(jsonb_agg(e || jsonb_build_object('by_name', coalesce(private.profile_name(p.id), p.email),
                                                      'by_deleted', e ->> 'by' is not null and p.id is null)
                                || case when e ->> 'kind' = 'change' then jsonb_build_object(
                                     'old_label', private.timeline_value_label(p_module, context.schema_name, e ->> 'field', e -> 'old'),
                                     'new_label', private.timeline_value_label(p_module, context.schema_name, e ->> 'field', e -> 'new'))
                                   else '{}' end
                              order by e ->> 'at' desc), '[]')
      from jsonb_array_elements(entries) e
      left join private.profiles p on p.id = (e ->> 'by')::uuid));
end;
$$;

/** Adds a note to a record the caller may edit (1 to 20,000 characters). */
create function private.record_add_note(p_module text, p_id uuid, p_body text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context;
  entity text := (select m.entity_type from private.modules m where m.key = p_module);
  visible boolean;
  note jsonb;
begin
  context := private.module_context(p_module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  if char_length(btrim(coalesce(p_body, ''))) not between 1 and 20000 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"body": "required"}}');
  end if;
  execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3))',
                 context.schema_name, context.table_name)
    into visible using p_id, context.scope, context.caller;
  if not visible then
    return private.failure('Record not found', 'not_found');
  end if;
  execute format('insert into %I.notes as n (entity_type, entity_id, body, owner_id, created_by) values ($1, $2, $3, $4, $4) returning to_jsonb(n)',
                 context.schema_name)
    into note using entity, p_id, btrim(p_body), context.caller;
  perform private.write_audit(context.organization_id, p_module || '.note', p_module, p_id::text);
  return jsonb_build_object('success', true, 'note', note);
end;
$$;

/**
 * Installs a module's public façade from its registry row: list_<key>, get_<entity>,
 * create_<entity>, update_<entity>, bulk_update_<key>, delete_<key> and restore_<key>, each
 * a one-line call into the record engine (security definer, empty search_path) with a
 * comment and its own grant to authenticated. So registering a module gives it its API;
 * the generated types name every call with its arguments.
 */
create function private.install_module_facade(p_module text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  module private.modules;
  facade record;
begin
  select * into module from private.modules m where m.key = p_module;
  if not found or module.entity_type !~ '^[a-z][a-z_]{0,39}$' then
    raise exception 'no module %', p_module;
  end if;
  for facade in
    select * from (values
      ('list_' || module.key,
       'p_search text default null, p_filters jsonb default null, p_sort text default null, '
       || 'p_descending boolean default null, p_limit integer default 50, p_offset integer default 0',
       'stable', format('private.record_list(%L, p_search, p_filters, p_sort, p_descending, p_limit, p_offset)', module.key),
       format('The %s the caller may see: search, filters, sort, one page.', module.key)),
      ('get_' || module.entity_type, 'p_id uuid', 'stable', format('private.record_get(%L, p_id)', module.key),
       format('One %s the caller may see.', module.entity_type)),
      ('create_' || module.entity_type, 'p_values jsonb', 'volatile', format('private.record_create(%L, p_values)', module.key),
       format('Creates a %s.', module.entity_type)),
      ('update_' || module.entity_type, 'p_id uuid, p_values jsonb, p_updated_at timestamptz', 'volatile',
       format('private.record_update(%L, p_id, p_values, p_updated_at)', module.key),
       format('Updates a %s read at p_updated_at (a stale read is refused).', module.entity_type)),
      ('bulk_update_' || module.key, 'p_ids uuid[], p_values jsonb', 'volatile',
       format('private.record_bulk_update(%L, p_ids, p_values)', module.key), format('The same change for many %s.', module.key)),
      ('delete_' || module.key, 'p_ids uuid[]', 'volatile', format('private.record_set_deleted(%L, p_ids, true)', module.key),
       format('Soft-deletes %s.', module.key)),
      ('restore_' || module.key, 'p_ids uuid[]', 'volatile', format('private.record_set_deleted(%L, p_ids, false)', module.key),
       format('Restores deleted %s.', module.key))
    ) as f (name, arguments, volatility, body, doc)
  loop
    execute format('create or replace function public.%I(%s) returns jsonb language sql %s security definer set search_path = %L '
                   'as $facade$ select %s; $facade$', facade.name, facade.arguments, facade.volatility, '', facade.body);
    execute format('comment on function public.%I is %L', facade.name, facade.doc);
    execute format('revoke execute on function public.%I from public, anon, authenticated', facade.name);
    execute format('grant execute on function public.%I to authenticated', facade.name);
  end loop;
end;
$$;

/**
 * A registry column list derived from a module's declared fields (private.module_fields),
 * in their order: writable (every field not readonly), listed, sortable (then created_at
 * and updated_at, which every record has) or filterable.
 */
create function private.module_columns(p_fields private.module_fields[], p_list text)
returns text[]
language plpgsql
immutable
set search_path = ''
as $$
begin
  return (select array(select f.key from unnest(p_fields) f
                  where case p_list when 'writable' then f.writable when 'listed' then f.listed
                                    when 'sortable' then f.sortable when 'filterable' then f.filterable end
                  order by f.position)
           || case when p_list = 'sortable' then '{created_at,updated_at}'::text[] else '{}' end);
end;
$$;

/**
 * A registered module's column list, from its declared fields (private.module_columns):
 * 'writable' (a client may set; owner_id is the engine's for every module), 'listed' (a list
 * row carries, besides id, owner_id, owner_name, created_at, updated_at), 'sortable' or
 * 'filterable'.
 */
create function private.module_column_list(p_module text, p_list text)
returns text[]
language plpgsql
stable
set search_path = ''
as $$
begin
  return (select private.module_columns(array(select f from private.module_fields f where f.module = p_module order by f.position), p_list));
end;
$$;

/**
 * Registers a sales module, or updates its registration: the one call a module's concern
 * file makes (its tenant table is a template step, its rules its own p_prepare_function).
 * Writes its registry row (private.modules; each parameter is the column of that name) and
 * its fields (p_fields: an array of private.field_declaration, in order, into
 * private.module_fields; a field left out is no longer declared), from which the engine
 * reads its column lists (private.module_column_list; p_default_sort must be a sortable
 * one). Installs its public façade
 * (private.install_module_facade), and gives the roles of every existing organization the
 * default permissions in it (private.grant_default_permissions: an organization that
 * already has permission rows in the module keeps them as its admins left them, so a
 * removed row is never restored). p_document_link names the documents table's column that
 * links a document to one of this module's records: the documents module declares it as a
 * link field labelled p_record_label_tr / p_record_label_en (what one record is called),
 * whichever of the two registers first. Notes, the transfer kinds, the import kinds and
 * the document links read the registry, so nothing else names the module.
 */
create function private.register_module(
  p_key text, p_position integer, p_table_name text, p_entity_type text, p_fields jsonb,
  p_default_sort text default 'created_at', p_default_descending boolean default true,
  p_searchable boolean default false, p_title_columns text[] default '{title}', p_prepare_function text default null,
  p_transfer_kind text default null, p_transfer_default boolean default false, p_transfer_tables text[] default '{}',
  p_document_link text default null, p_record_label_tr text default null, p_record_label_en text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  declared private.module_fields[];
  links private.module_fields[];
begin
  if exists (select 1 from unnest(p_transfer_tables) t where not private.is_safe_identifier(t)) then
    raise exception 'Module %: every transfer table must be a plain table name', p_key;
  end if;
  if p_document_link is not null and (p_record_label_tr is null or p_record_label_en is null) then
    raise exception 'Module %: a document link needs what one record is called (p_record_label_tr, p_record_label_en)', p_key;
  end if;
  select array_agg(jsonb_populate_record(null::private.module_fields,
                                         f.item || jsonb_build_object('module', p_key, 'position', f.n)) order by f.n)
    into declared from jsonb_array_elements(p_fields) with ordinality f (item, n);
  if not p_default_sort = any (private.module_columns(declared, 'sortable')) then
    raise exception 'Module %: the default sort % is no sortable column', p_key, p_default_sort;
  end if;
  insert into private.modules (key, position, table_name, entity_type, default_sort, default_descending, searchable,
                               title_columns, prepare_function, transfer_kind, transfer_default, transfer_tables,
                               document_link, record_label_tr, record_label_en)
  values (p_key, p_position, p_table_name, p_entity_type, p_default_sort, p_default_descending, p_searchable, p_title_columns,
          p_prepare_function, p_transfer_kind, p_transfer_default, p_transfer_tables, p_document_link,
          p_record_label_tr, p_record_label_en)
  on conflict (key) do update
    set position = excluded.position, table_name = excluded.table_name, entity_type = excluded.entity_type,
        default_sort = excluded.default_sort, default_descending = excluded.default_descending,
        searchable = excluded.searchable, title_columns = excluded.title_columns,
        prepare_function = excluded.prepare_function, transfer_kind = excluded.transfer_kind,
        transfer_default = excluded.transfer_default, transfer_tables = excluded.transfer_tables,
        document_link = excluded.document_link, record_label_tr = excluded.record_label_tr,
        record_label_en = excluded.record_label_en;
  delete from private.module_fields f where f.module = p_key;
  insert into private.module_fields select * from unnest(declared);

  -- The documents' link fields, one per module with a document link, after the documents'
  -- own fields: declared again whenever a module or the documents module registers.
  if exists (select 1 from private.modules m where m.key = 'documents') and (p_key = 'documents' or p_document_link is not null) then
    delete from private.module_fields f where f.module = 'documents' and f.type = 'link';
    select array_agg(jsonb_populate_record(null::private.module_fields, l.declaration) order by l.n)
      into links
      from (select private.field_declaration(m.document_link, 'link', m.record_label_tr, m.record_label_en,
                                             '{listed,sortable,filterable,own_rule,own_ui}', p_link_module => m.key)
                   || jsonb_build_object('module', 'documents', 'position', own_fields + row_number() over (order by m.position))
                     as declaration,
                   row_number() over (order by m.position) as n
              from private.modules m, (select max(f.position) as own_fields from private.module_fields f
                                        where f.module = 'documents' and f.type <> 'link') o
             where m.document_link is not null) l;
    insert into private.module_fields select * from unnest(links);
  end if;

  perform private.install_module_facade(p_key);
  perform private.grant_default_permissions(o.id, p_key) from private.organizations o;
end;
$$;

/** A record's timeline (notes, field history, audit) in any registered module. */
create function public.get_record_timeline(p_module text, p_id uuid)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_timeline(p_module, p_id); $$;
revoke all on function public.get_record_timeline(p_module text, p_id uuid) from public, anon, authenticated;
grant execute on function public.get_record_timeline(p_module text, p_id uuid) to authenticated;

/** Adds a note to a record of any registered module. */
create function public.add_record_note(p_module text, p_id uuid, p_body text)
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_add_note(p_module, p_id, p_body); $$;
revoke all on function public.add_record_note(p_module text, p_id uuid, p_body text) from public, anon, authenticated;
grant execute on function public.add_record_note(p_module text, p_id uuid, p_body text) to authenticated;

/**
 * A view definition the module can show: only search, filters (the module's filterable
 * columns, owner_id and the organization's filterable custom fields), sort (a sortable
 * column, or a custom field that sorts: not long_text or multi_choice), descending and
 * columns (list columns and any custom field). Null when it fits, else the refusal.
 */
create function private.check_view_definition(p_module text, p_definition jsonb, p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select case when jsonb_typeof(p_definition) is distinct from 'object'
                        or exists (select 1 from jsonb_object_keys(p_definition) k
                                    where k not in ('search', 'filters', 'sort', 'descending', 'columns'))
                        or (p_definition ? 'sort' and not (p_definition ->> 'sort' = any (private.module_column_list(m.key, 'sortable'))
                            or coalesce(c.fields #>> array[p_definition ->> 'sort', 'type'], 'long_text') not in ('long_text', 'multi_choice')))
                        or (p_definition ? 'filters' and (jsonb_typeof(p_definition -> 'filters') <> 'object'
                            or exists (select 1 from jsonb_object_keys(p_definition -> 'filters') f
                                        where not (f = any (private.module_column_list(m.key, 'filterable')) or f = 'owner_id'
                                                   or coalesce((c.fields #>> array[f, 'filterable'])::boolean, false)))))
                        or (p_definition ? 'columns' and (jsonb_typeof(p_definition -> 'columns') <> 'array'
                            or exists (select 1 from jsonb_array_elements_text(p_definition -> 'columns') k
                                        where not (k = any (private.module_column_list(m.key, 'listed')) or k in ('owner_name', 'created_at', 'updated_at')
                                                   or c.fields ? k))))
                      then private.failure('Invalid fields', 'invalid_fields', '{"fields": {"definition": "invalid"}}') end
            from private.modules m, (select private.custom_field_declarations(p_organization_id, p_module) as fields) c
           where m.key = p_module);
end;
$$;

/** The caller's own saved views of a module and those shared in the organization, by name. */
create function public.list_saved_views(p_module text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  views jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select coalesce(jsonb_agg(to_jsonb(v) || jsonb_build_object(''is_mine'', v.owner_id = $2) order by private.turkish_sort_key(v.name) collate "C", v.id), ''[]'')
                    from %I.saved_views v where v.module = $1 and (v.owner_id = $2 or v.is_shared)', context.schema_name)
    into views using p_module, context.caller;
  return jsonb_build_object('success', true, 'views', views);
end;
$$;
revoke all on function public.list_saved_views(p_module text) from public, anon, authenticated;
grant execute on function public.list_saved_views(p_module text) to authenticated;

/**
 * Saves a view (p_id null: a new one). Anyone who may view the module keeps views of
 * their own and may share them; only the view's owner or an admin changes a saved one.
 */
create function public.save_saved_view(p_id uuid, p_module text, p_name text, p_definition jsonb, p_is_shared boolean default false)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  problem jsonb;
  saved jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if char_length(btrim(coalesce(p_name, ''))) not between 1 and 100 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"name": "required"}}');
  end if;
  problem := private.check_view_definition(p_module, p_definition, context.organization_id);
  if problem is not null then
    return problem;
  end if;
  if p_id is null then
    execute format('insert into %I.saved_views as v (module, name, owner_id, is_shared, definition)
                    values ($1, $2, $3, $4, $5) returning to_jsonb(v)', context.schema_name)
      into saved using p_module, btrim(p_name), context.caller, coalesce(p_is_shared, false), p_definition;
  else
    execute format('update %I.saved_views as v set name = $2, is_shared = $4, definition = $5
                     where v.id = $6 and v.module = $1 and (v.owner_id = $3 or $7) returning to_jsonb(v)', context.schema_name)
      into saved using p_module, btrim(p_name), context.caller, coalesce(p_is_shared, false), p_definition, p_id,
                       private.is_admin_of(context.caller, context.organization_id);
    if saved is null then
      return private.failure('Record not found', 'not_found');
    end if;
  end if;
  return jsonb_build_object('success', true, 'view', saved);
end;
$$;
revoke all on function public.save_saved_view(p_id uuid, p_module text, p_name text, p_definition jsonb, p_is_shared boolean) from public, anon, authenticated;
grant execute on function public.save_saved_view(p_id uuid, p_module text, p_name text, p_definition jsonb, p_is_shared boolean) to authenticated;

/** Deletes a saved view: its owner, or an admin for a shared one. */
create function public.delete_saved_view(p_module text, p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  deleted uuid;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('delete from %I.saved_views v where v.id = $1 and v.module = $2 and (v.owner_id = $3 or $4) returning v.id',
                 context.schema_name)
    into deleted using p_id, p_module, context.caller, private.is_admin_of(context.caller, context.organization_id);
  if deleted is null then
    return private.failure('Record not found', 'not_found');
  end if;
  return jsonb_build_object('success', true);
end;
$$;
revoke all on function public.delete_saved_view(p_module text, p_id uuid) from public, anon, authenticated;
grant execute on function public.delete_saved_view(p_module text, p_id uuid) to authenticated;

/**
 * Records of the module the caller may see that are likely the same as the values about
 * to be saved: the same tax number, email or phone, or a name whose Turkish-folded words
 * are similar (pg_trgm word similarity of at least 0.6). At most 10, each with its
 * reasons; p_exclude leaves out the record being edited.
 */
create function private.record_duplicates(p_module text, p_values jsonb, p_exclude uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  prepared jsonb;
  name_text text;
  emails text[];
  phones text[];
  matches jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  if p_module not in ('customers', 'contacts') or jsonb_typeof(p_values) is distinct from 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  -- The values as they would be saved (normalised); invalid ones simply match nothing.
  prepared := private.apply_field_rules((select m.prepare_function from private.modules m where m.key = p_module), p_values,
                                       null, private.field_declarations(context.organization_id, p_module)) -> 'values';

  if p_module = 'customers' then
    name_text := private.fold_search(prepared ->> 'name');
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name, 'tax_number', c.tax_number, 'email', c.email,
                                                   'phone', c.phone, 'city', c.city, 'reasons', reasons.list)), '[]')
        from (select * from %I.customers t
               where t.deleted_at is null and t.id is distinct from $1 and ($2 = 'all' or t.owner_id = $3)
                 and ((t.tax_number = $4) or (t.email = $5) or (t.phone = $6)
                      or (char_length($7) >= 3 and $7 operator(extensions.<%%) t.search_text))
               limit 10) c,
             lateral (select jsonb_agg(r) as list from (
                        select 'tax_number' as r where c.tax_number = $4
                        union all select 'email' where c.email = $5
                        union all select 'phone' where c.phone = $6
                        union all select 'name' where char_length($7) >= 3
                                                 and extensions.word_similarity($7, private.fold_search(c.name)) >= 0.6) rs) reasons
       where reasons.list is not null$query$, context.schema_name)
      into matches
      using p_exclude, context.scope, context.caller, prepared ->> 'tax_number', prepared ->> 'email', prepared ->> 'phone',
            coalesce(name_text, '');
  else
    name_text := private.fold_search(btrim(concat_ws(' ', prepared ->> 'first_name', prepared ->> 'last_name')));
    -- (Lists the rules refused, such as a text for the emails, match nothing.)
    emails := array(select e ->> 'value' from jsonb_array_elements(case when jsonb_typeof(prepared -> 'emails') = 'array'
                                                                         then prepared -> 'emails' else '[]' end) e);
    phones := array(select e ->> 'value' from jsonb_array_elements(case when jsonb_typeof(prepared -> 'phones') = 'array'
                                                                         then prepared -> 'phones' else '[]' end) e);
    execute format($query$
      select coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'first_name', c.first_name, 'last_name', c.last_name,
                                                   'customer_id', c.customer_id, 'emails', c.emails, 'phones', c.phones,
                                                   'reasons', reasons.list)), '[]')
        from (select * from %I.contacts t
               where t.deleted_at is null and t.id is distinct from $1 and ($2 = 'all' or t.owner_id = $3)
                 and (exists (select 1 from jsonb_array_elements(t.emails) e where e ->> 'value' = any ($4))
                      or exists (select 1 from jsonb_array_elements(t.phones) e where e ->> 'value' = any ($5))
                      or (char_length($6) >= 3 and $6 operator(extensions.<%%) t.search_text))
               limit 10) c,
             lateral (select jsonb_agg(r) as list from (
                        select 'email' as r where exists (select 1 from jsonb_array_elements(c.emails) e where e ->> 'value' = any ($4))
                        union all select 'phone' where exists (select 1 from jsonb_array_elements(c.phones) e where e ->> 'value' = any ($5))
                        union all select 'name' where char_length($6) >= 3 and extensions.word_similarity(
                                    $6, private.fold_search(c.first_name || ' ' || c.last_name)) >= 0.6) rs) reasons
       where reasons.list is not null$query$, context.schema_name)
      into matches
      using p_exclude, context.scope, context.caller, emails, phones, coalesce(name_text, '');
  end if;
  return jsonb_build_object('success', true, 'duplicates', matches);
end;
$$;

/**
 * Merges p_other into p_survivor (both records of the module the caller may edit): the
 * survivor takes p_values (the value chosen per field, custom fields too, checked like any
 * update), every reference to the other (foreign keys in the organization's tables, custom
 * link fields naming this module, notes) moves to the survivor, and the other is
 * soft-deleted with merged_into set. Audited; one transaction.
 */
create function private.record_merge(p_module text, p_survivor uuid, p_other uuid, p_values jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'edit');
  module private.modules;
  editable integer;
  reference record;
  written jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  select * into module from private.modules m where m.key = p_module;
  if p_survivor is null or p_other is null or p_survivor = p_other then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  -- Both must be records the caller may edit (locked for the merge).
  execute format('select count(*) from (select 1 from %I.%I t where t.id = any($1) and t.deleted_at is null
                    and ($2 = ''all'' or t.owner_id = $3) for update) editable', context.schema_name, context.table_name)
    into editable using array[p_survivor, p_other], context.scope, context.caller;
  if editable <> 2 then
    return private.failure('Record not found', 'not_found');
  end if;

  written := private.record_write(p_module, context, p_survivor, coalesce(p_values, '{}'), null, false);
  if not (written ->> 'success')::boolean then
    return written;
  end if;

  -- Every foreign key in the organization's schema that points at the module's table
  -- (records merged into the other earlier follow it to the survivor too).
  for reference in
    select c.conrelid::regclass as referencing, a.attname as column_name
      from pg_catalog.pg_constraint c
      join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where c.contype = 'f' and c.confrelid = format('%I.%I', context.schema_name, context.table_name)::regclass
       and cardinality(c.conkey) = 1
  loop
    execute format('update %s set %I = $1 where %I = $2', reference.referencing, reference.column_name, reference.column_name)
      using p_survivor, p_other;
  end loop;
  -- Custom link fields (uuid columns without a foreign key) that name a record of this module.
  for reference in
    select m.table_name as referencing, f.key as column_name
      from private.custom_fields f join private.modules m on m.key = f.module
     where f.organization_id = context.organization_id and f.type = 'link' and f.link_module = p_module
  loop
    execute format('update %I.%I set %I = $1 where %I = $2', context.schema_name, reference.referencing,
                   reference.column_name, reference.column_name)
      using p_survivor, p_other;
  end loop;
  execute format('update %I.notes set entity_id = $1 where entity_type = $3 and entity_id = $2', context.schema_name)
    using p_survivor, p_other, module.entity_type;
  execute format('update %I.%I set deleted_at = now(), merged_into = $1 where id = $2', context.schema_name, context.table_name)
    using p_survivor, p_other;
  perform private.write_audit(context.organization_id, p_module || '.merge', p_module, p_survivor::text,
                              jsonb_build_object('merged', p_other));
  perform private.write_audit(context.organization_id, p_module || '.merged_away', p_module, p_other::text,
                              jsonb_build_object('into', p_survivor));
  return private.record_get(p_module, p_survivor);
end;
$$;

/**
 * The planner's estimate of the rows a list query of the record engine matches (its
 * parameters as record_list passes them). Volatile only because PostgreSQL allows EXPLAIN
 * in volatile functions alone; it reads nothing and writes nothing.
 */
create function private.estimated_list_rows(p_query text, p_scope text, p_caller uuid, p_filters jsonb, p_pattern text)
returns numeric
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  plan jsonb;
begin
  execute 'explain (format json) ' || p_query into plan using p_scope, p_caller, p_filters, p_pattern;
  return (plan #>> '{0,Plan,Plan Rows}')::numeric;
end;
$$;

/**
 * What a notification or an activity entry calls a record: the values of its module's
 * title columns (a name, a title, a number, a person's first and last name) joined by a
 * space, at most 300 characters; null when they are all empty.
 */
create function private.record_title(p_module text, p_row jsonb)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select left(nullif(btrim(array_to_string(array(select p_row ->> c from unnest(m.title_columns) with ordinality t (c, n)
                                                    order by t.n), ' ')), ''), 300)
      from private.modules m where m.key = p_module);
end;
$$;

/** True when the caller may see this record of the module (not deleted, within their view scope). */
create function private.record_visible(p_module text, p_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context(p_module, 'view');
  visible boolean;
begin
  if context.problem is not null or p_id is null then
    return false;
  end if;
  execute format('select exists (select 1 from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3))',
                 context.schema_name, context.table_name)
    into visible using p_id, context.scope, context.caller;
  return visible;
end;
$$;

/**
 * The columns by which a module's records link to another module's records, from the
 * catalogue: the module's writable columns with a foreign key to a registered module's
 * table in the organization's schema (a deal's customer_id, a document's quote_id, …), in
 * the registry's order of the linked modules (then by column). A module or link added
 * later is covered without a change here. The table is found by its oid (to_regclass) and
 * its foreign keys through the catalogue's oid indexes: joining pg_namespace and pg_class
 * by name made the planner's work alone cost more than a search of a million rows.
 */
create function private.module_links(p_module text, p_schema text)
returns table (column_name text, target_module text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  -- Read once (in the query's condition it could be asked again for every foreign key).
  writable text[] := private.module_column_list(p_module, 'writable');
begin
  -- PL/pgSQL, so that the plan is kept for the session (a SQL function's is made again at each call).
  return query
    select a.attname::text, target.key
      from private.modules m
      join pg_catalog.pg_constraint c on c.conrelid = to_regclass(format('%I.%I', p_schema, m.table_name))
                                     and c.contype = 'f' and cardinality(c.conkey) = 1
      join pg_catalog.pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_catalog.pg_class referenced on referenced.oid = c.confrelid and referenced.relnamespace = c.connamespace
      join private.modules target on target.table_name = referenced.relname
     where m.key = p_module and a.attname = any (writable)
     order by target.position, a.attname;
end;
$$;

/**
 * record_title as SQL: the expression of a record's title (its module's title columns
 * joined by a space, at most 300 characters, null when all are empty) over the row alias
 * p_alias, for set-based queries that name many records at once.
 */
create function private.record_title_sql(p_module text, p_alias text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  -- PL/pgSQL, so that the plan is kept for the session (a SQL function's is made again at each call).
  return (select format('left(nullif(btrim(concat_ws('' '', %s)), ''''), 300)',
                        string_agg(format('%I.%I::text', p_alias, t.c), ', ' order by t.n))
            from private.modules m, unnest(m.title_columns) with ordinality t (c, n)
           where m.key = p_module);
end;
$$;

/**
 * The names of a module's links (private.module_links) as set-based SQL over rows aliased
 * p_alias of the organization's schema p_schema, in the order of module_links: per link
 * its name key (<column without _id>_name), a left join lateral (join_sql, one index
 * lookup per row, so a page of rows is named in one query) and the name's expression
 * (name_sql). A name follows what the caller may see: the linked record's title when it
 * is not deleted and within the caller's view scope of its module ('own': their own
 * records), else null, so the title of a record the caller may not open never shows; with
 * no view permission in that module there is no join and the name is null. Also the
 * linked table (target_sql) and the rule as a condition over its rows aliased n
 * (visible_sql; null without view permission), for queries that walk the linked table
 * itself (sorting by a link, private.record_page). The organization's custom link fields
 * (private.custom_fields, type link) come after the module's own links, named the same way
 * (cf_bayi: cf_bayi_name). This is the one home of that rule
 * (private.timeline_value_label and private.search_module name records through it).
 * p_scopes: the caller's view scopes ({module: 'all'|'own'}, a module left out: none) when
 * the caller already looked them up, else private.caller_scopes('view'), read only when the
 * module has a link (a subquery PostgreSQL runs on first use: a module without links, such
 * as customers, asks nothing of the caller).
 */
create function private.link_names_sql(p_module text, p_schema text, p_alias text, p_scopes jsonb default null)
returns table (column_name text, name_key text, join_sql text, name_sql text, target_sql text, visible_sql text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
    select v.column_name, v.name_key,
           case when v.visible_sql is null then ''
                else format('left join lateral (select %1$s as name from %2$s n where n.id = %3$I.%4$I and %5$s) %6$I on true',
                            private.record_title_sql(v.target_module, 'n'), v.target_sql, p_alias, v.column_name,
                            v.visible_sql, 'name_' || v.column_name) end,
           case when v.visible_sql is null then 'null::text' else format('%I.name', 'name_' || v.column_name) end,
           v.target_sql, v.visible_sql
      from (select l.column_name, l.target_module, l.custom, target.position,
                   regexp_replace(l.column_name, '_id$', '') || '_name' as name_key,
                   format('%I.%I', p_schema, target.table_name) as target_sql,
                   case when l.scope = 'all' then 'n.deleted_at is null'
                        when l.scope is not null
                          then format('n.deleted_at is null and n.owner_id = %L::uuid', auth.uid()) end as visible_sql
              from (select linked.*,
                           coalesce(p_scopes, (select coalesce(jsonb_object_agg(s.module, s.scope), '{}')
                                                 from private.caller_scopes('view') s where s.scope is not null))
                             ->> linked.target_module as scope
                      from (select ml.column_name, ml.target_module, false as custom from private.module_links(p_module, p_schema) ml
                            union all
                            select f.key, f.link_module, true from private.custom_fields f
                             where f.organization_id = private.schema_organization(p_schema) and f.module = p_module
                               and f.type = 'link' and f.link_module is not null) linked
                    -- Kept a subquery of its own (not pulled up), so the scopes are read once, not once per use.
                    offset 0) l
              join private.modules target on target.key = l.target_module) v
     order by v.custom, v.position, v.column_name;
end;
$$;

/**
 * The links of p_values (private.module_links) the caller may not set: each id that is
 * new (not the value p_existing holds) and names no record the caller may see in its
 * module (private.record_visible: not deleted, within their view scope) is not_found, the
 * answer for a record that does not exist, so a hidden record's existence never shows.
 * {column: "not_found"}; a value that is not an id is left to the module's rules.
 */
create function private.link_errors(p_module text, p_values jsonb, p_existing jsonb, p_schema text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  link record;
  linked uuid;
  errors jsonb := '{}';
begin
  if jsonb_typeof(p_values) is distinct from 'object' or p_schema is null then
    return errors;
  end if;
  for link in select l.column_name, l.target_module from private.module_links(p_module, p_schema) l
               where p_values ? l.column_name loop
    linked := private.try_uuid(p_values -> link.column_name);
    continue when linked is null or linked = private.try_uuid(p_existing -> link.column_name);
    if not private.record_visible(link.target_module, linked) then
      errors := errors || jsonb_build_object(link.column_name, 'not_found');
    end if;
  end loop;
  return errors;
end;
$$;
