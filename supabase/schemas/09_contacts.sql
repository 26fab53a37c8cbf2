-- Contacts: labelled e-mails and phones, the contact rules, duplicates and merging, and
-- a person's data under KVKK (export and erasure everywhere their values appear).

/**
 * Labelled emails or phones of a contact: [{label, value}], labels work/home/mobile/other,
 * values checked (and phones normalised). Null when any entry is invalid.
 */
create function private.clean_contact_channels(p_entries jsonb, p_kind text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
declare
  entry jsonb;
  value text;
  cleaned jsonb := '[]';
begin
  if p_entries is null or jsonb_typeof(p_entries) = 'null' then
    return '[]';
  end if;
  if jsonb_typeof(p_entries) <> 'array' or jsonb_array_length(p_entries) > 10 then
    return null;
  end if;
  for entry in select e from jsonb_array_elements(p_entries) e loop
    if jsonb_typeof(entry) <> 'object' or coalesce(entry ->> 'label', 'other') not in ('work', 'home', 'mobile', 'other') then
      return null;
    end if;
    value := case p_kind when 'email' then private.normalize_email(entry ->> 'value')
                         else private.normalize_phone(entry ->> 'value') end;
    if value is null or (p_kind = 'email' and not private.is_valid_email(value)) then
      return null;
    end if;
    cleaned := cleaned || jsonb_build_array(jsonb_build_object('label', coalesce(entry ->> 'label', 'other'), 'value', value));
  end loop;
  return cleaned;
end;
$$;

/**
 * A contact's own rules, those its fields' types cannot say (the others are declared below
 * and checked by private.prepare_typed_values first): a first or last name (each kept as
 * '' when blank); labelled emails and phones; KVKK consent with its channel and date (the
 * date defaults to now); İYS consent per channel (call, sms, email) as booleans. Returns
 * {"values", "errors"} like private.prepare_customer.
 */
create function private.prepare_contact(p_values jsonb, p_existing jsonb)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb := p_values;
  errors jsonb := '{}';
  field text;
  cleaned jsonb;
  consent boolean;
begin
  foreach field in array array['first_name', 'last_name', 'kvkk_consent_channel', 'kvkk_consent_source'] loop
    if p_values ? field then
      if jsonb_typeof(p_values -> field) not in ('string', 'null') then
        errors := errors || jsonb_build_object(field, 'invalid');
      else
        result := result || jsonb_build_object(field, coalesce(private.clean_text(p_values -> field),
                                                               case when field in ('first_name', 'last_name') then '' end));
      end if;
    end if;
  end loop;
  if coalesce(result ->> 'first_name', p_existing ->> 'first_name', '') = ''
     and coalesce(result ->> 'last_name', p_existing ->> 'last_name', '') = '' then
    errors := errors || '{"first_name": "required"}';
  end if;
  foreach field in array array['emails', 'phones'] loop
    if p_values ? field then
      cleaned := private.clean_contact_channels(p_values -> field, case field when 'emails' then 'email' else 'phone' end);
      if cleaned is null then
        errors := errors || jsonb_build_object(field, case field when 'emails' then 'invalid_email' else 'invalid_phone' end);
      else
        result := result || jsonb_build_object(field, cleaned);
      end if;
    end if;
  end loop;
  if p_values ? 'kvkk_consent' then
    if jsonb_typeof(p_values -> 'kvkk_consent') <> 'boolean' then
      errors := errors || '{"kvkk_consent": "invalid"}';
    else
      consent := (p_values ->> 'kvkk_consent')::boolean;
      if consent then
        if coalesce(result ->> 'kvkk_consent_channel', p_existing ->> 'kvkk_consent_channel') is null
           or coalesce(result ->> 'kvkk_consent_channel', p_existing ->> 'kvkk_consent_channel')
              not in ('form', 'email', 'phone', 'in_person', 'other') then
          errors := errors || '{"kvkk_consent_channel": "required"}';
        end if;
        if coalesce(result ->> 'kvkk_consent_at', p_existing ->> 'kvkk_consent_at') is null then
          result := result || jsonb_build_object('kvkk_consent_at', now());
        end if;
      else
        result := result || '{"kvkk_consent_channel": null, "kvkk_consent_at": null, "kvkk_consent_source": null}';
      end if;
    end if;
  end if;
  if p_values ? 'iys_consent' then
    if jsonb_typeof(p_values -> 'iys_consent') <> 'object'
       or exists (select 1 from jsonb_each(p_values -> 'iys_consent') c
                   where c.key not in ('call', 'sms', 'email') or jsonb_typeof(c.value) <> 'boolean') then
      errors := errors || '{"iys_consent": "invalid"}';
    else
      result := result || jsonb_build_object('iys_consent',
        '{"call": false, "sms": false, "email": false}'::jsonb || coalesce(p_existing -> 'iys_consent', '{}') || (p_values -> 'iys_consent'));
    end if;
  end if;
  return jsonb_build_object('values', result, 'errors', errors);
end;
$$;

-- A contact's records move with its customers (the transfer kind customers).
select private.register_module(
  p_key => 'contacts', p_position => 2, p_table_name => 'contacts', p_entity_type => 'contact',
  p_fields => jsonb_build_array(
    private.field_declaration('customer_id', 'link', 'Müşteri', 'Customer', '{listed,sortable,filterable,own_ui}',
                              p_link_module => 'customers'),
    private.field_declaration('first_name', 'text', 'Ad', 'First name', '{listed,sortable,own_rule,own_ui}', 100,
                              p_import_names => '{Adı,İsim,"Given name"}'),
    private.field_declaration('last_name', 'text', 'Soyad', 'Last name', '{listed,sortable,own_rule,own_ui}', 100,
                              p_import_names => '{Soyadı,Soyisim,Surname,"Family name"}'),
    private.field_declaration('title', 'text', 'Unvan', 'Job title', '{listed,own_ui}', 100,
                              p_import_names => '{Ünvan,Görev,Görevi,Pozisyon,Title,Position}'),
    private.field_declaration('emails', 'structured', 'E-posta adresleri', 'Email addresses', '{listed,own_rule,own_ui}'),
    private.field_declaration('phones', 'structured', 'Telefon numaraları', 'Phone numbers', '{listed,own_rule,own_ui}'),
    private.field_declaration('tags', 'tags', 'Etiketler', 'Tags', '{listed,filterable,own_ui}'),
    private.field_declaration('description', 'long_text', 'Açıklama', 'Description', '{own_ui}', 10000),
    private.field_declaration('kvkk_consent', 'boolean', 'KVKK açık rızası alındı', 'KVKK explicit consent obtained',
                              '{listed,filterable,own_rule,own_ui}',
                              p_import_names => '{KVKK,"KVKK Onayı","KVKK Rızası","Açık Rıza",Consent,"KVKK consent"}'),
    private.field_declaration('kvkk_consent_channel', 'choice', 'Rızanın alındığı kanal', 'Channel of consent',
                              '{own_rule,own_ui}', p_options => '{form,Form,Form,email,E-posta,Email,phone,Telefon,Phone,in_person,Yüz yüze,In person,other,Diğer,Other}',
                              p_import_names => '{"Rıza Kanalı","Onay Kanalı","Consent channel"}',
                              p_option_import_names => '{"email": ["Mail"]}'),
    private.field_declaration('kvkk_consent_at', 'datetime', 'Rıza tarihi', 'Consent date', '{own_rule,own_ui}',
                              p_import_names => '{"Onay Tarihi"}'),
    private.field_declaration('kvkk_consent_source', 'text', 'Rızanın kaynağı (ör. form adı)', 'Source of consent (e.g. form name)',
                              '{own_rule,own_ui}', 200, p_import_names => '{"Rıza Kaynağı","Onay Kaynağı","Consent source"}'),
    private.field_declaration('iys_consent', 'structured', 'İYS izinleri', 'İYS permissions', '{own_rule,own_ui}'),
    private.field_declaration('external_id', 'text', 'Harici kod', 'External code', '{own_rule,own_ui}',
                              p_import_names => '{"Kişi Kodu","Contact code"}')),
  p_default_sort => 'last_name', p_default_descending => false, p_searchable => true,
  p_title_columns => '{first_name,last_name}', p_prepare_function => 'prepare_contact',
  p_transfer_kind => 'customers', p_document_link => 'contact_id',
  p_record_label_tr => 'Kişi', p_record_label_en => 'Contact');

/** The checks of a data-subject action: an admin of the session's organization, and the contact's schema. */
create function private.data_subject_context(p_contact uuid)
returns private.module_context
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.module_context('contacts', 'view');
  known boolean;
begin
  if context.problem is not null then
    return context;
  end if;
  context.problem := (private.caller_context('admin')).problem;
  if context.problem is not null then
    return context;
  end if;
  execute format('select exists (select 1 from %I.contacts where id = $1 and anonymized_at is null)', context.schema_name)
    into known using p_contact;
  if not known then
    context.problem := private.failure('Record not found', 'not_found');
  end if;
  return context;
end;
$$;

/**
 * Everything the organization holds about a contact (KVKK right of access), for an admin:
 * the contact, its customer's name, notes, field history and audit entries. Audited.
 */
create function public.export_contact_data(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.data_subject_context(p_id);
  held jsonb;
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format($query$
    select jsonb_build_object(
      'contact', (select to_jsonb(c) - 'search_text' from %1$I.contacts c where c.id = $1),
      'customer', (select jsonb_build_object('id', cu.id, 'name', cu.name) from %1$I.contacts c
                     join %1$I.customers cu on cu.id = c.customer_id where c.id = $1),
      'notes', (select coalesce(jsonb_agg(jsonb_build_object('body', n.body, 'created_at', n.created_at) order by n.created_at), '[]')
                  from %1$I.notes n where n.entity_type = 'contact' and n.entity_id = $1),
      'field_history', (select coalesce(jsonb_agg(jsonb_build_object('field', h.field, 'old', h.old_value, 'new', h.new_value,
                                                                     'changed_at', h.changed_at) order by h.changed_at), '[]')
                          from %1$I.field_history h where h.entity_type = 'contact' and h.record_id = $1),
      'audit', (select coalesce(jsonb_agg(jsonb_build_object('action', a.action, 'at', a.created_at) order by a.id), '[]')
                  from private.audit_log a where a.organization_id = $2 and a.target_type = 'contacts' and a.target_id = $1::text))$query$,
    context.schema_name)
    into held using p_id, context.organization_id;
  perform private.write_audit(context.organization_id, 'contacts.data_exported', 'contacts', p_id::text);
  return jsonb_build_object('success', true, 'exported_at', now(), 'data', held);
end;
$$;
revoke all on function public.export_contact_data(p_id uuid) from public, anon, authenticated;
grant execute on function public.export_contact_data(p_id uuid) to authenticated;

/**
 * Erases a contact (KVKK right to erasure), for an admin, with every copy of the person the
 * organization holds:
 * - the contact and every contact of its merge family (those merged into it, the one it was
 *   merged into, and theirs: a merge said they are one person) are anonymised and deleted,
 *   their rows kept so references hold; their notes and field history go, and the imports'
 *   old values of them are emptied (such an import can no longer be undone anyway);
 * - their names, e-mails and phones, as they are and as history and imports knew them, are
 *   replaced by *** wherever else the organization keeps text (private.erase_person_values:
 *   task titles and descriptions, notes, deals, quotes, contracts, documents' titles and
 *   file names, other records' history, imports, saved views, notifications): e-mails and
 *   phones everywhere, full names everywhere but in other contacts and customers (a
 *   namesake keeps their name), first and last names alone in the rows linked to the
 *   person (a task, quote, contract or document of theirs).
 * The audit log never holds a record's values (ids, field names, counts), so it keeps its
 * entries; the erasure's own entries name only the contacts' ids.
 * Files' contents in Storage are not read; delete a document that holds the person's data.
 */
create function public.erase_contact(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.data_subject_context(p_id);
  family uuid[];
  names text[];
  full_names text[];
  channels text[];
begin
  if context.problem is not null then
    return context.problem;
  end if;
  -- The merge family: merged into it, it into another, and so on both ways.
  execute format($query$
    with recursive family (id) as (
      select $1
      union
      select c.id from family f
        join %1$I.contacts me on me.id = f.id
        join %1$I.contacts c on c.merged_into = me.id or c.id = me.merged_into
    )
    select array_agg(f.id order by f.id) from family f$query$, context.schema_name)
    into family using p_id;
  execute format('select 1 from %I.contacts c where c.id = any ($1) for update', context.schema_name) using family;

  -- The person's values: as the rows hold them, as their history and the imports knew them.
  execute format($query$
    with person as (
      select c.first_name, c.last_name, c.emails, c.phones from %1$I.contacts c where c.id = any ($1)
    ), known (field, value) as (
      select 'first_name', to_jsonb(p.first_name) from person p
      union all select 'last_name', to_jsonb(p.last_name) from person p
      union all select 'emails', p.emails from person p
      union all select 'phones', p.phones from person p
      union all select 'full_name', to_jsonb(p.first_name || ' ' || p.last_name) from person p
       where btrim(p.first_name) <> '' and btrim(p.last_name) <> ''
      union all select h.field, v.value from %1$I.field_history h
                 cross join lateral (values (h.old_value), (h.new_value)) v (value)
       where h.entity_type = 'contact' and h.record_id = any ($1) and h.field in ('first_name', 'last_name', 'emails', 'phones')
      union all select p.key, p.value from %1$I.import_rows r cross join lateral jsonb_each(r.previous) p
       where r.record_id = any ($1) and p.key in ('first_name', 'last_name', 'emails', 'phones')
    ), flat (field, value) as (
      select k.field, btrim(k.value #>> '{}') from known k where jsonb_typeof(k.value) = 'string'
      union all select k.field, btrim(e ->> 'value') from known k cross join lateral jsonb_array_elements(k.value) e
       where jsonb_typeof(k.value) = 'array' and jsonb_typeof(e) = 'object'
    )
    select array(select distinct f.value from flat f where f.field in ('first_name', 'last_name') and char_length(f.value) >= 2),
           array(select distinct f.value from flat f where f.field = 'full_name' and char_length(f.value) >= 2),
           array(select distinct f.value from flat f where f.field in ('emails', 'phones') and char_length(f.value) >= 2)$query$,
    context.schema_name)
    into names, full_names, channels using family;

  -- The contacts themselves, their notes, history and imported old values.
  execute format($query$
    update %1$I.contacts
       set first_name = '', last_name = '', title = null, emails = '[]', phones = '[]', tags = '{}', description = null,
           external_id = null, kvkk_consent = false, kvkk_consent_channel = null, kvkk_consent_at = null,
           kvkk_consent_source = null, iys_consent = '{"call": false, "sms": false, "email": false}',
           anonymized_at = coalesce(anonymized_at, now()), deleted_at = coalesce(deleted_at, now())
     where id = any ($1)$query$, context.schema_name)
    using family;
  execute format('delete from %I.notes where entity_type = ''contact'' and entity_id = any ($1)', context.schema_name) using family;
  execute format('delete from %I.field_history where entity_type = ''contact'' and record_id = any ($1)', context.schema_name)
    using family;
  execute format('update %I.import_rows set previous = ''{}'' where record_id = any ($1) and previous is not null', context.schema_name)
    using family;

  -- Every other copy.
  perform private.erase_person_values(context.schema_name, context.organization_id, family, channels, full_names, names);

  perform private.write_audit(context.organization_id, 'contacts.erased', 'contacts', f::text,
                              case when f = p_id and cardinality(family) > 1
                                   then jsonb_build_object('with', (select jsonb_agg(o) from unnest(family) o where o <> p_id))
                                   else '{}' end)
     from unnest(family) f;
  return jsonb_build_object('success', true, 'erased', to_jsonb(family));
end;
$$;
revoke all on function public.erase_contact(p_id uuid) from public, anon, authenticated;
grant execute on function public.erase_contact(p_id uuid) to authenticated;

/** Contacts that are likely the same as the values about to be saved. */
create function public.find_contact_duplicates(p_values jsonb, p_exclude uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_duplicates('contacts', p_values, p_exclude); $$;
revoke all on function public.find_contact_duplicates(p_values jsonb, p_exclude uuid) from public, anon, authenticated;
grant execute on function public.find_contact_duplicates(p_values jsonb, p_exclude uuid) to authenticated;

/** Merges one contact into another. */
create function public.merge_contacts(p_survivor uuid, p_other uuid, p_values jsonb default '{}')
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_merge('contacts', p_survivor, p_other, p_values); $$;
revoke all on function public.merge_contacts(p_survivor uuid, p_other uuid, p_values jsonb) from public, anon, authenticated;
grant execute on function public.merge_contacts(p_survivor uuid, p_other uuid, p_values jsonb) to authenticated;

/** p_value with every match of p_pattern (case-insensitive) in its strings (not its keys) replaced by ***. */
create function private.scrub_jsonb(p_value jsonb, p_pattern text)
returns jsonb
language plpgsql
immutable
set search_path = ''
as $$
begin
  return case jsonb_typeof(p_value)
    when 'string' then to_jsonb(regexp_replace(p_value #>> '{}', p_pattern, '***', 'gi'))
    when 'array' then (select coalesce(jsonb_agg(private.scrub_jsonb(e.value, p_pattern) order by e.n), '[]')
                         from jsonb_array_elements(p_value) with ordinality e (value, n))
    when 'object' then (select coalesce(jsonb_object_agg(e.key, private.scrub_jsonb(e.value, p_pattern)), '{}')
                          from jsonb_each(p_value) e)
    else p_value end;
end;
$$;

/** p_values with every match of p_pattern (case-insensitive) replaced by ***. */
create function private.scrub_texts(p_values text[], p_pattern text)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case when p_values is null then null
              else array(select regexp_replace(v.value, p_pattern, '***', 'gi')
                           from unnest(p_values) with ordinality v (value, n) order by v.n) end;
$$;

/**
 * Replaces a person's values wherever the organization keeps text: every text, text[] and
 * jsonb column (not generated ones, which follow) of every table of its schema, found in
 * the catalogue, so a table or column added later is covered; then its notifications'
 * titles and its upload reservations' titles and file names, case-insensitively: p_channels
 * (e-mails, phones) everywhere; p_full_names too except in other people's records (another
 * contact or customer may be a namesake); p_names (the first and last names alone, as
 * words) too in the rows linked to the person: their contacts (p_family), the rows
 * with a contact_id of theirs (a task, quote, contract, document, …), the imports that
 * wrote one of those, and the notes, history, imported rows, notifications and uploads of
 * any of them. A row whose new value
 * a constraint refuses has that column cleared instead (when it may be null). Returns how
 * many rows changed. A row is looked at once, all its text in one lower-cased string
 * (about 0.4 s for 200,000 rows), so the sweep costs roughly a second per 300,000 rows of
 * the organization.
 */
create function private.erase_person_values(p_schema text, p_organization_id uuid, p_family uuid[],
                                            p_channels text[], p_full_names text[], p_names text[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  relation record;
  target record;
  linked text;
  row_pattern text;
  assignments text;
  conditions text;
  linked_ids uuid[] := p_family;
  found_ids uuid[];
  changed integer;
  total integer := 0;
  never constant text := 'a^';  -- (matches nothing: ^ only at the start)
  -- Other people's records: the person's e-mails and phones only.
  people constant text[] := '{customers,contacts}';
  channel_pattern text := coalesce((select string_agg(private.regex_literal(v), '|' order by char_length(v) desc)
                                      from unnest(p_channels) v where char_length(v) >= 2), never);
  pattern text := coalesce((select string_agg(private.regex_literal(v), '|' order by char_length(v) desc)
                              from unnest(p_channels || p_full_names) v where char_length(v) >= 2), never);
  linked_pattern text := coalesce(nullif(concat_ws('|', nullif(pattern, never),
    (select '\m(?:' || string_agg(private.regex_literal(n), '|' order by char_length(n) desc) || ')\M'
       from unnest(p_names) n where char_length(n) >= 2)), ''), never);
  -- The values as lower-cased LIKE patterns: one cheap look at each row's text.
  likes text[] := array(select '%' || replace(replace(replace(lower(v), '\', '\\'), '%', '\%'), '_', '\_') || '%'
                          from unnest(p_channels || p_full_names) v where char_length(v) >= 2);
  channel_likes text[] := array(select '%' || replace(replace(replace(lower(v), '\', '\\'), '%', '\%'), '_', '\_') || '%'
                                  from unnest(p_channels) v where char_length(v) >= 2);
  texts text;
begin
  -- The rows linked to the person: theirs, and those with a contact_id of theirs (tasks,
  -- quotes, contracts, documents, …).
  for relation in
    select c.oid, c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p')
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'contact_id'
                      and a.atttypid = 'uuid'::regtype and not a.attisdropped)
       and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid = c.oid and a.attname = 'id'
                      and a.atttypid = 'uuid'::regtype and not a.attisdropped)
  loop
    execute format('select array_agg(t.id) from %I.%I t where t.contact_id = any ($1)', p_schema, relation.relname)
      into found_ids using p_family;
    linked_ids := linked_ids || coalesce(found_ids, '{}');
  end loop;
  -- And the imports that wrote one of them (their file names).
  if to_regclass(format('%I.import_rows', p_schema)) is not null then
    execute format('select array_agg(distinct r.import_id) from %I.import_rows r where r.record_id = any ($1)', p_schema)
      into found_ids using linked_ids;
    linked_ids := linked_ids || coalesce(found_ids, '{}');
  end if;

  for relation in
    select c.oid, c.relname from pg_catalog.pg_class c
     where c.relnamespace = p_schema::regnamespace and c.relkind in ('r', 'p') order by c.relname
  loop
    -- A linked row: one of linked_ids ($3), or one hanging off one (any uuid column named
    -- *_id holds one of them: a note's entity_id, a history or imported row's record_id, a
    -- quote line's quote_id, a document version's document_id, a contact_id, …).
    select string_agg(format('t.%I = any ($3)', a.attname), ' or ' order by a.attnum) into linked
      from pg_catalog.pg_attribute a
     where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.atttypid = 'uuid'::regtype
       and (a.attname = 'id' or a.attname like '%\_id') and a.attname <> 'owner_id';
    linked := coalesce(nullif(linked, ''), 'false');
    row_pattern := format('(case when %s then $2 else $1 end)', linked);
    -- ($1 and $4: what unlinked rows of this table lose; $2 what linked rows lose.)
    select string_agg(format('%I = %s', a.attname, case
             when a.atttypid = 'jsonb'::regtype then format('private.scrub_jsonb(t.%I, %s)', a.attname, row_pattern)
             when a.atttypid = 'text[]'::regtype then format('private.scrub_texts(t.%I, %s)', a.attname, row_pattern)
             else format('regexp_replace(t.%I, %s, ''***'', ''gi'')', a.attname, row_pattern) end), ', '),
           format('lower(concat_ws(chr(1), %s)) like any ($4)', string_agg(format('t.%I::text', a.attname), ', '))
      into assignments, texts
      from pg_catalog.pg_attribute a
     where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
       and a.atttypid in ('text'::regtype, 'character varying'::regtype, 'text[]'::regtype, 'jsonb'::regtype);
    continue when assignments is null;
    conditions := format('(%s) or %s', linked, texts);
    begin
      execute format('with changed as (update %I.%I t set %s where %s returning 1) select count(*) from changed',
                     p_schema, relation.relname, assignments, conditions)
        into changed using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
      total := total + changed;
    exception when integrity_constraint_violation or data_exception then
      -- Column by column; a value the table refuses (a phone's format, a unique key) goes.
      for target in
        select a.attname, a.atttypid, a.attnotnull from pg_catalog.pg_attribute a
         where a.attrelid = relation.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
           and a.atttypid in ('text'::regtype, 'character varying'::regtype, 'text[]'::regtype, 'jsonb'::regtype)
      loop
        begin
          execute format('update %I.%I t set %I = %s where (%s) or lower(t.%I::text) like any ($4)', p_schema, relation.relname, target.attname,
                         case when target.atttypid = 'jsonb'::regtype then format('private.scrub_jsonb(t.%I, %s)', target.attname, row_pattern)
                              when target.atttypid = 'text[]'::regtype then format('private.scrub_texts(t.%I, %s)', target.attname, row_pattern)
                              else format('regexp_replace(t.%I, %s, ''***'', ''gi'')', target.attname, row_pattern) end,
                         linked, target.attname)
            using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
        exception when integrity_constraint_violation or data_exception then
          if not target.attnotnull then
            execute format('update %I.%I t set %I = null where t.%I::text ~* %s', p_schema, relation.relname, target.attname,
                           target.attname, row_pattern)
              using case when relation.relname = any (people) then channel_pattern else pattern end, linked_pattern, linked_ids,
                case when relation.relname = any (people) then channel_likes else likes end;
          end if;
        end;
      end loop;
    end;
  end loop;

  update private.notifications n
     set title = regexp_replace(n.title, case when n.record_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi')
   where n.organization_id = p_organization_id
     and n.title ~* case when n.record_id = any (linked_ids) then linked_pattern else pattern end;
  get diagnostics changed = row_count;
  total := total + changed;
  update private.document_uploads u
     set title = regexp_replace(u.title, case when u.link_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi'),
         file_name = regexp_replace(u.file_name, case when u.link_id = any (linked_ids) then linked_pattern else pattern end, '***', 'gi')
   where u.organization_id = p_organization_id
     and concat_ws(' ', u.title, u.file_name) ~* case when u.link_id = any (linked_ids) then linked_pattern else pattern end;
  get diagnostics changed = row_count;
  return total + changed;
end;
$$;
