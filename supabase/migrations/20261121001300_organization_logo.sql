-- The organization's logo, kept in the database: a PNG, JPEG or WebP image of at most
-- 256 KB, checked by its first bytes. (lite's Storage has no access rules yet, and a logo
-- this small travels well inside an RPC answer.) It replaces the free-text logo_path.

create table private.organization_logos (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
  image bytea not null check (octet_length(image) between 1 and 262144),
  updated_at timestamptz not null default now(),
  updated_by uuid
);
comment on table private.organization_logos is 'Each organization''s logo image (at most one; 256 KB at most).';
alter table private.organization_logos enable row level security;

alter table private.organization_settings drop column logo_path;

/** The settings of one organization, with its name and when its logo last changed (null: none). */
create or replace function private.settings_json(p_organization_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(s) - 'organization_id' - 'updated_by'
         || jsonb_build_object('name', o.name, 'logo_updated_at', l.updated_at)
    from private.organization_settings s
    join private.organizations o on o.id = s.organization_id
    left join private.organization_logos l on l.organization_id = s.organization_id
   where s.organization_id = p_organization_id;
$$;

-- Unchanged but for the logo_path field, which is gone.
/**
 * Admin: changes the organization's settings. Fields: name, default_currency, default_vat_rate,
 * locale, time_zone, deal_stages, task_types, quote_number_pattern,
 * quote_validity_days. Any invalid field refuses the whole change.
 */
create or replace function public.update_organization_settings(p_changes jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  invalid_field text;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  if jsonb_typeof(p_changes) is distinct from 'object' then
    return private.failure('Invalid settings', 'invalid_input');
  end if;

  select key into invalid_field
    from jsonb_each(p_changes) as change (key, value)
   where not case key
     when 'name' then jsonb_typeof(value) = 'string' and char_length(btrim(value #>> '{}')) between 1 and 200
     when 'default_currency' then coalesce(value #>> '{}', '') ~ '^[A-Z]{3}$'
     when 'default_vat_rate' then jsonb_typeof(value) = 'number' and (value #>> '{}')::numeric between 0 and 100
     when 'locale' then coalesce(value #>> '{}', '') in ('tr-TR', 'en-US')
     when 'time_zone' then exists (select 1 from pg_catalog.pg_timezone_names z where z.name = value #>> '{}')
     when 'deal_stages' then private.is_valid_pipeline(value)
     when 'task_types' then jsonb_typeof(value) = 'array' and jsonb_array_length(value) between 1 and 30
                            and not exists (select 1 from jsonb_array_elements(value) t
                                             where jsonb_typeof(t) <> 'string' or char_length(btrim(t #>> '{}')) not between 1 and 40)
     when 'quote_number_pattern' then char_length(coalesce(value #>> '{}', '')) between 1 and 60
                                      and (value #>> '{}') ~ '\{SEQ(:[1-9])?\}'
     when 'quote_validity_days' then jsonb_typeof(value) = 'number' and (value #>> '{}') ~ '^\d+$'
                                     and (value #>> '{}')::numeric between 1 and 365
     else false end
   limit 1;
  if invalid_field is not null then
    return private.failure(format('Invalid setting: %s', left(invalid_field, 40)), 'invalid_setting',
                           jsonb_build_object('field', left(invalid_field, 40)));
  end if;

  if p_changes ? 'name' then
    update private.organizations set name = btrim(p_changes ->> 'name'), updated_at = now() where id = target_org;
  end if;
  update private.organization_settings
     set default_currency = coalesce(p_changes ->> 'default_currency', default_currency),
         default_vat_rate = coalesce((p_changes ->> 'default_vat_rate')::numeric, default_vat_rate),
         locale = coalesce(p_changes ->> 'locale', locale),
         time_zone = coalesce(p_changes ->> 'time_zone', time_zone),
         deal_stages = coalesce(p_changes -> 'deal_stages', deal_stages),
         task_types = coalesce(p_changes -> 'task_types', task_types),
         quote_number_pattern = coalesce(p_changes ->> 'quote_number_pattern', quote_number_pattern),
         quote_validity_days = coalesce((p_changes ->> 'quote_validity_days')::integer, quote_validity_days),
         updated_at = now(),
         updated_by = auth.uid()
   where organization_id = target_org;
  perform private.write_audit(target_org, 'settings.updated', 'organization', target_org::text,
                              jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p_changes) k)));
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
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

/**
 * Admin: sets the organization's logo from base64 text. Refused: another type than PNG,
 * JPEG or WebP (SVG can carry scripts), bytes that are not that type, more than 256 KB.
 */
create function public.set_organization_logo(p_content_type text, p_image_base64 text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
  image bytea;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  if coalesce(p_content_type, '') not in ('image/png', 'image/jpeg', 'image/webp') then
    return private.failure('Unsupported logo format', 'invalid_logo_type');
  end if;
  -- 256 KB is at most 349,528 base64 characters (some room for line breaks).
  if char_length(coalesce(p_image_base64, '')) > 360000 then
    return private.failure('Logo is too large', 'logo_too_large', jsonb_build_object('max_bytes', 262144));
  end if;
  begin
    image := decode(p_image_base64, 'base64');
  exception when others then
    return private.failure('Invalid logo image', 'invalid_logo');
  end;
  if octet_length(image) > 262144 then
    return private.failure('Logo is too large', 'logo_too_large', jsonb_build_object('max_bytes', 262144));
  end if;
  if not coalesce(private.is_image_of_type(image, p_content_type), false) then
    return private.failure('Invalid logo image', 'invalid_logo');
  end if;

  insert into private.organization_logos (organization_id, content_type, image, updated_by)
  values (target_org, p_content_type, image, auth.uid())
  on conflict (organization_id) do update
    set content_type = excluded.content_type, image = excluded.image, updated_at = now(), updated_by = excluded.updated_by;
  perform private.write_audit(target_org, 'settings.logo_updated', 'organization', target_org::text,
                              jsonb_build_object('content_type', p_content_type, 'bytes', octet_length(image)));
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;

/** Admin: removes the organization's logo. */
create function public.remove_organization_logo()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
begin
  problem := private.check_organization_admin(target_org);
  if problem is not null then
    return problem;
  end if;
  delete from private.organization_logos where organization_id = target_org;
  if found then
    perform private.write_audit(target_org, 'settings.logo_removed', 'organization', target_org::text);
  end if;
  return jsonb_build_object('success', true, 'settings', private.settings_json(target_org));
end;
$$;

/** The logo of the caller's organization as base64 with its type (null when it has none); members read it. */
create function public.get_organization_logo()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
begin
  if target_org is null then
    return private.failure('Organization context required', 'organization_context_required');
  end if;
  return jsonb_build_object('success', true, 'logo',
    (select jsonb_build_object('content_type', l.content_type, 'data_base64', translate(encode(l.image, 'base64'), E'\n', ''),
                               'updated_at', l.updated_at)
       from private.organization_logos l where l.organization_id = target_org));
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.set_organization_logo(text, text) from public, anon, authenticated;
revoke execute on function public.remove_organization_logo() from public, anon, authenticated;
revoke execute on function public.get_organization_logo() from public, anon, authenticated;
grant execute on function public.set_organization_logo(text, text) to authenticated;
grant execute on function public.remove_organization_logo() to authenticated;
grant execute on function public.get_organization_logo() to authenticated;
