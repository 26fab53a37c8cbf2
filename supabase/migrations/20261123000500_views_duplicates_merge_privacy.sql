-- What the record lists and details need beyond the engine (issue 11):
-- * saved views, personal or shared with the organization;
-- * likely duplicates before a customer or contact is saved (same VKN/TCKN, email or
--   phone, or a similar name by trigram word similarity);
-- * merging two records: the chosen value per field survives, every reference moves to
--   the survivor, the other is soft-deleted and points to it;
-- * KVKK data-subject actions for admins: everything held about a contact as JSON, and
--   erasing it (anonymised; the audit entry holds no personal data).

-- ---------------------------------------------------------------------------------
-- Saved views
-- ---------------------------------------------------------------------------------

/**
 * A view definition the module can show: only search, filters (the module's filterable
 * columns and owner_id), sort (a sortable column), descending and columns (list columns).
 * Null when it fits, else the refusal.
 */
create function private.check_view_definition(p_module text, p_definition jsonb)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case when jsonb_typeof(p_definition) is distinct from 'object'
                or exists (select 1 from jsonb_object_keys(p_definition) k
                            where k not in ('search', 'filters', 'sort', 'descending', 'columns'))
                or (p_definition ? 'sort' and not (p_definition ->> 'sort' = any (m.sortable_columns)))
                or (p_definition ? 'filters' and (jsonb_typeof(p_definition -> 'filters') <> 'object'
                    or exists (select 1 from jsonb_object_keys(p_definition -> 'filters') f
                                where not (f = any (m.filterable_columns) or f = 'owner_id'))))
                or (p_definition ? 'columns' and (jsonb_typeof(p_definition -> 'columns') <> 'array'
                    or exists (select 1 from jsonb_array_elements_text(p_definition -> 'columns') c
                                where not (c = any (m.list_columns) or c in ('owner_name', 'created_at', 'updated_at')))))
              then private.failure('Invalid fields', 'invalid_fields', '{"fields": {"definition": "invalid"}}') end
    from private.modules m where m.key = p_module;
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
  execute format('select coalesce(jsonb_agg(to_jsonb(v) || jsonb_build_object(''is_mine'', v.owner_id = $2) order by v.name, v.id), ''[]'')
                    from %I.saved_views v where v.module = $1 and (v.owner_id = $2 or v.is_shared)', context.schema_name)
    into views using p_module, context.caller;
  return jsonb_build_object('success', true, 'views', views);
end;
$$;

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
  problem := private.check_view_definition(p_module, p_definition);
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

-- ---------------------------------------------------------------------------------
-- Likely duplicates
-- ---------------------------------------------------------------------------------

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
  execute format('select private.%I($1, null) -> ''values''',
                 (select m.prepare_function from private.modules m where m.key = p_module))
    into prepared using p_values;

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

-- ---------------------------------------------------------------------------------
-- Merge
-- ---------------------------------------------------------------------------------

/**
 * Merges p_other into p_survivor (both records of the module the caller may edit): the
 * survivor takes p_values (the value chosen per field, checked like any update), every
 * reference to the other (foreign keys in the organization's tables, notes) moves to the
 * survivor, and the other is soft-deleted with merged_into set. Audited; one transaction.
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

-- ---------------------------------------------------------------------------------
-- KVKK: a contact's data, exported and erased
-- ---------------------------------------------------------------------------------

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
  if not private.is_admin_of(context.caller, context.organization_id) then
    context.problem := private.failure('Admin privileges required', 'admin_required');
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

/**
 * Erases a contact (KVKK right to erasure), for an admin: names, channels, title, notes,
 * tags, consents and the field history go; the row stays, anonymised and deleted, so
 * references hold. The audit entry says only that it happened.
 */
create function public.erase_contact(p_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  context private.module_context := private.data_subject_context(p_id);
begin
  if context.problem is not null then
    return context.problem;
  end if;
  execute format($query$
    update %1$I.contacts
       set first_name = '', last_name = '', title = null, emails = '[]', phones = '[]', tags = '{}', description = null,
           kvkk_consent = false, kvkk_consent_channel = null, kvkk_consent_at = null, kvkk_consent_source = null,
           iys_consent = '{"call": false, "sms": false, "email": false}', anonymized_at = now(),
           deleted_at = coalesce(deleted_at, now())
     where id = $1$query$, context.schema_name)
    using p_id;
  execute format('delete from %I.notes where entity_type = ''contact'' and entity_id = $1', context.schema_name) using p_id;
  execute format('delete from %I.field_history where entity_type = ''contact'' and record_id = $1', context.schema_name) using p_id;
  perform private.write_audit(context.organization_id, 'contacts.erased', 'contacts', p_id::text);
  return jsonb_build_object('success', true);
end;
$$;

-- ---------------------------------------------------------------------------------
-- The façade
-- ---------------------------------------------------------------------------------

/** Customers that are likely the same as the values about to be saved. */
create function public.find_customer_duplicates(p_values jsonb, p_exclude uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_duplicates('customers', p_values, p_exclude); $$;

/** Contacts that are likely the same as the values about to be saved. */
create function public.find_contact_duplicates(p_values jsonb, p_exclude uuid default null)
returns jsonb language sql stable security definer set search_path = ''
as $$ select private.record_duplicates('contacts', p_values, p_exclude); $$;

/** Merges one customer into another. */
create function public.merge_customers(p_survivor uuid, p_other uuid, p_values jsonb default '{}')
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_merge('customers', p_survivor, p_other, p_values); $$;

/** Merges one contact into another. */
create function public.merge_contacts(p_survivor uuid, p_other uuid, p_values jsonb default '{}')
returns jsonb language sql security definer set search_path = ''
as $$ select private.record_merge('contacts', p_survivor, p_other, p_values); $$;

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.hook_password_verification_attempt(jsonb) to supabase_auth_admin;
do $$
declare
  facade regprocedure;
begin
  for facade in
    select p.oid::regprocedure from pg_catalog.pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and p.proname in ('list_saved_views', 'save_saved_view', 'delete_saved_view', 'find_customer_duplicates',
                         'find_contact_duplicates', 'merge_customers', 'merge_contacts', 'export_contact_data', 'erase_contact')
  loop
    execute format('revoke execute on function %s from public, anon, authenticated', facade);
    execute format('grant execute on function %s to authenticated', facade);
  end loop;
end
$$;
