-- User administration (spec sections 5, 6, 7): create, update, delete, reset password,
-- lock and unlock. The caller is found with auth.uid(); an admin acts only inside the
-- organization their session is bound to, a super admin anywhere. Messages are the
-- spec's, in Turkish where the spec gives Turkish.

/**
 * May the caller administer this user in this organization? Returns null when yes,
 * otherwise the failure to answer. A super admin may act on anyone; an admin only on
 * members of their session's organization who are not super admins.
 */
create function private.check_user_admin(p_target uuid, p_organization_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
begin
  if caller is null then
    return private.failure('Authentication required', 'authentication_required');
  end if;
  if not (private.is_super_admin(caller)
          or (private.is_bound_to(p_organization_id) and private.is_admin_of(caller, p_organization_id))) then
    return private.failure('Admin privileges required', 'admin_required');
  end if;
  if not exists (select 1 from private.profiles p where p.id = p_target) then
    return private.failure('User not found', 'user_not_found');
  end if;
  if private.is_super_admin(caller) then
    return null;
  end if;
  if not exists (select 1 from private.memberships m where m.user_id = p_target and m.organization_id = p_organization_id) then
    return private.failure('User not found', 'user_not_found');
  end if;
  if exists (select 1 from private.profiles p where p.id = p_target and p.role = 'super_admin') then
    return private.failure('Admin privileges required', 'super_admin_required');
  end if;
  return null;
end;
$$;

/**
 * The organization an admin RPC acts in. A super admin may name one by slug (or id);
 * everyone else acts in their session's organization, and naming another is refused
 * (returns null).
 */
create function private.admin_organization(p_slug text, p_organization_id uuid default null)
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  bound uuid := private.current_organization_id();
  named uuid;
begin
  if p_slug is not null then
    select o.id into named from private.organizations o where lower(o.slug) = lower(p_slug);
    if not found then
      return null;
    end if;
  end if;
  named := coalesce(named, p_organization_id);
  if private.is_super_admin(auth.uid()) then
    return coalesce(named, bound);
  end if;
  if named is not null and named is distinct from bound then
    return null;
  end if;
  return bound;
end;
$$;

/** The password rules of spec section 5 (plus bcrypt's 72-byte limit); null when fine. */
create function private.check_password(p_password text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when char_length(coalesce(p_password, '')) < 6 then private.failure('Şifre en az 6 karakter olmalı', 'password_too_short')
    when octet_length(p_password) > 72 then private.failure('Şifre en fazla 72 bayt olabilir', 'password_too_long')
  end;
$$;

/** Names are trimmed and at most 100 characters; null when fine. */
create function private.check_names(p_first_name text, p_last_name text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case
    when char_length(btrim(coalesce(p_first_name, ''))) > 100 or char_length(btrim(coalesce(p_last_name, ''))) > 100
      then private.failure('Ad ve soyad en fazla 100 karakter olabilir', 'name_too_long')
  end;
$$;

/**
 * The transfer kinds of spec section 3 and the tenant tables each one moves. The first
 * table of a kind is the one its count refers to.
 */
create function private.transfer_kinds()
returns table (kind text, table_name text, is_primary boolean)
language sql
immutable
set search_path = ''
as $$
  values ('deals', 'deals', true),
         ('customers', 'customers', true), ('customers', 'contacts', false),
         ('tasks', 'tasks', true),
         ('contracts', 'contracts', true),
         ('quotes', 'quotes', true), ('quotes', 'quote_items', false),
         ('templates', 'document_templates', true);
$$;

/**
 * How many rows the user owns in each table a transfer can move (documents and notes
 * stay with their author and do not hold a deletion back).
 */
create function private.owned_record_counts(p_schema text, p_user_id uuid)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  table_name text;
  row_count bigint;
  counts jsonb := '{}';
begin
  if p_schema is null then
    return counts;
  end if;
  for table_name in
    select k.table_name from private.transfer_kinds() k
     where exists (select 1 from pg_catalog.pg_class c
                    where c.relnamespace = p_schema::regnamespace and c.relname = k.table_name and c.relkind = 'r')
     order by k.table_name
  loop
    execute format('select count(*) from %I.%I where owner_id = $1', p_schema, table_name) into row_count using p_user_id;
    counts := counts || jsonb_build_object(table_name, row_count);
  end loop;
  return counts;
end;
$$;

/** Spec section 5: creates a user with an Auth account and a membership. */
create function public.create_user_secure(p_email text, p_password text, p_organization_id uuid,
                                          p_first_name text default null, p_last_name text default null,
                                          p_role text default 'user')
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  caller_is_super boolean := private.is_super_admin(caller);
  login_email text := private.normalize_email(p_email);
  target_org uuid := coalesce(p_organization_id, private.current_organization_id());
  organization_role text := coalesce(nullif(btrim(p_role), ''), 'user');
  new_id uuid := gen_random_uuid();
  problem jsonb;
begin
  if caller is null or not (caller_is_super or private.is_admin_of(caller, private.current_organization_id())) then
    return private.failure('Admin yetkisi gerekli', 'admin_required');
  end if;
  if not private.is_valid_email(login_email) then
    return private.failure('Geçerli bir email adresi girin', 'invalid_email');
  end if;
  problem := private.check_password(p_password);
  if problem is not null then
    return problem;
  end if;
  if target_org is null
     or not exists (select 1 from private.organizations o where o.id = target_org and o.is_active) then
    return private.failure('Şirket bilgisi gerekli', 'organization_required');
  end if;
  if not caller_is_super and not private.is_bound_to(target_org) then
    return private.failure('Admin yetkisi gerekli', 'admin_required');
  end if;
  problem := private.check_names(p_first_name, p_last_name);
  if problem is not null then
    return problem;
  end if;
  if organization_role = 'super_admin' and not caller_is_super then
    return private.failure('Admin yetkisi gerekli', 'super_admin_required');
  end if;
  if organization_role <> 'super_admin' and not exists (
       select 1 from private.organization_roles r where r.organization_id = target_org
                                                    and r.key = organization_role) then
    return private.failure('Geçersiz rol', 'invalid_role');
  end if;
  if exists (select 1 from private.profiles p where p.email = login_email)
     or exists (select 1 from auth.users u where lower(u.email) = login_email) then
    return private.failure('Bu email adresi zaten kullanımda', 'email_in_use');
  end if;

  begin
    insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                            confirmation_token, recovery_token, email_change_token_new, email_change,
                            raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
    values (new_id, 'authenticated', 'authenticated', login_email,
            extensions.crypt(p_password, extensions.gen_salt('bf', 10)), now(), '', '', '', '',
            '{"provider":"email","providers":["email"]}',
            jsonb_build_object('first_name', btrim(coalesce(p_first_name, '')), 'last_name', btrim(coalesce(p_last_name, ''))),
            now(), now());
    insert into auth.identities (id, provider, provider_id, user_id, identity_data, created_at, updated_at)
    values (gen_random_uuid(), 'email', new_id::text, new_id,
            jsonb_build_object('sub', new_id::text, 'email', login_email, 'email_verified', true), now(), now());
    insert into private.profiles (id, email, first_name, last_name, role)
    values (new_id, login_email, btrim(coalesce(p_first_name, '')), btrim(coalesce(p_last_name, '')),
            case when organization_role = 'super_admin' then 'super_admin' else 'user' end);
    insert into private.memberships (user_id, organization_id, role)
    values (new_id, target_org, case when organization_role = 'super_admin' then 'admin' else organization_role end);
  exception when unique_violation then
    return private.failure('Bu email adresi zaten kullanımda', 'email_in_use');
  end;

  perform private.write_audit(target_org, 'user.created', 'user', new_id::text,
                              jsonb_build_object('email', login_email, 'role', organization_role));
  return jsonb_build_object('success', true, 'message', 'Kullanıcı oluşturuldu', 'user', private.user_json(new_id));
end;
$$;

/**
 * Updates a user: first_name, last_name, email, role (organization role) and is_active
 * (membership in the organization). Names and email of someone who also belongs to
 * another organization are a super admin's to change.
 */
create function public.update_user_secure(p_user_id uuid, p_user_data jsonb, p_organization_slug text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  caller_is_super boolean := private.is_super_admin(caller);
  target_org uuid := private.admin_organization(p_organization_slug);
  target private.profiles;
  unknown_field text;
  new_email text;
  new_role text := nullif(btrim(p_user_data ->> 'role'), '');
  problem jsonb;
begin
  problem := private.check_user_admin(p_user_id, target_org);
  if problem is not null then
    return problem;
  end if;
  if jsonb_typeof(p_user_data) is distinct from 'object' then
    return private.failure('User update failed', 'invalid_input');
  end if;
  select key into unknown_field from jsonb_object_keys(p_user_data) as keys (key)
   where key not in ('first_name', 'last_name', 'email', 'role', 'is_active') limit 1;
  if unknown_field is not null then
    return private.failure(format('User update failed: unknown field %s', left(unknown_field, 40)), 'invalid_input');
  end if;
  select * into target from private.profiles where id = p_user_id for update;

  if p_user_id = caller and (p_user_data ? 'role' or p_user_data ? 'is_active') then
    return private.failure('Kendi rolünüzü veya durumunuzu değiştiremezsiniz', 'self_action');
  end if;
  if (p_user_data ? 'first_name' or p_user_data ? 'last_name' or p_user_data ? 'email') and not caller_is_super
     and exists (select 1 from private.memberships m where m.user_id = p_user_id and m.organization_id <> target_org) then
    return private.failure('Admin privileges required', 'super_admin_required');
  end if;
  problem := private.check_names(p_user_data ->> 'first_name', p_user_data ->> 'last_name');
  if problem is not null then
    return problem;
  end if;
  if p_user_data ? 'email' then
    new_email := private.normalize_email(p_user_data ->> 'email');
    if not private.is_valid_email(new_email) then
      return private.failure('Geçerli bir email adresi girin', 'invalid_email');
    end if;
    if new_email <> target.email and (
         exists (select 1 from private.profiles p where p.email = new_email)
         or exists (select 1 from auth.users u where lower(u.email) = new_email)) then
      return private.failure('Bu email adresi zaten kullanımda', 'email_in_use');
    end if;
  end if;
  if p_user_data ? 'is_active' and jsonb_typeof(p_user_data -> 'is_active') <> 'boolean' then
    return private.failure('User update failed', 'invalid_input');
  end if;
  if new_role is not null then
    if (new_role = 'super_admin' or target.role = 'super_admin') and not caller_is_super then
      return private.failure('Admin privileges required', 'super_admin_required');
    end if;
    if new_role <> 'super_admin' and not exists (
         select 1 from private.organization_roles r where r.organization_id = target_org and r.key = new_role) then
      return private.failure('Geçersiz rol', 'invalid_role');
    end if;
  end if;
  if (new_role is not null or p_user_data ? 'is_active') then
    if target_org is null then
      return private.failure('Organization context required', 'organization_required');
    end if;
    if not exists (select 1 from private.memberships m where m.user_id = p_user_id and m.organization_id = target_org) then
      return private.failure('User not found', 'user_not_found');
    end if;
  end if;

  begin
    update private.profiles
       set first_name = coalesce(btrim(p_user_data ->> 'first_name'), first_name),
           last_name = coalesce(btrim(p_user_data ->> 'last_name'), last_name),
           email = coalesce(new_email, email),
           -- Global role: super_admin only by a super admin; a former global admin
           -- given an ordinary role loses the global admin status with it.
           role = case when new_role = 'super_admin' then 'super_admin'
                       when new_role is not null and new_role <> 'admin' and role in ('admin', 'super_admin') then 'user'
                       else role end,
           updated_at = now()
     where id = p_user_id;
    if new_email is not null and new_email <> target.email then
      update auth.users set email = new_email, updated_at = now() where id = p_user_id;
      update auth.identities
         set identity_data = identity_data || jsonb_build_object('email', new_email), updated_at = now()
       where user_id = p_user_id and provider = 'email';
    end if;
    if target_org is not null and (new_role is not null or p_user_data ? 'is_active') then
      update private.memberships
         set role = case when new_role = 'super_admin' then 'admin' else coalesce(new_role, role) end,
             is_active = coalesce((p_user_data ->> 'is_active')::boolean, is_active)
       where user_id = p_user_id and memberships.organization_id = target_org;
    end if;
    -- A deactivated member stops working in the organization at once.
    if (p_user_data ->> 'is_active')::boolean is false then
      delete from private.session_organizations s
       where s.user_id = p_user_id and s.organization_id = target_org;
    end if;
  exception when others then
    return private.failure('User update failed', 'update_failed');
  end;

  perform private.write_audit(target_org, 'user.updated', 'user', p_user_id::text,
                              jsonb_build_object('fields', (select jsonb_agg(k) from jsonb_object_keys(p_user_data) k)));
  return jsonb_build_object('success', true, 'message', 'Kullanıcı güncellendi', 'user', private.user_json(p_user_id));
end;
$$;

/**
 * Spec section 5: deletes a user. Nobody deletes themselves; only a super admin deletes
 * a super admin; an admin only members of their own organization. Someone who still
 * owns records must have them transferred first; someone who also belongs to another
 * organization is only removed from this one.
 */
create function public.delete_user_secure(p_user_id uuid, p_organization_id uuid default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := auth.uid();
  -- A super admin removes from the organization named, or deletes the whole account when
  -- none is named; an admin always acts in their session's organization.
  target_org uuid := case when private.is_super_admin(caller) then p_organization_id
                          else private.admin_organization(null, p_organization_id) end;
  member_of uuid;
  counts jsonb;
  problem jsonb;
begin
  if caller is not null and p_user_id = caller then
    return private.failure('Kendi hesabınızı silemezsiniz', 'self_delete');
  end if;
  if caller is not null and not private.is_super_admin(caller)
     and exists (select 1 from private.profiles p where p.id = p_user_id and p.role = 'super_admin') then
    return private.failure('Only a super admin can delete a super admin', 'super_admin_required');
  end if;
  problem := private.check_user_admin(p_user_id, target_org);
  if problem is not null then
    return problem;
  end if;
  if target_org is not null
     and not exists (select 1 from private.memberships m where m.user_id = p_user_id and m.organization_id = target_org) then
    return private.failure('User not found', 'user_not_found');
  end if;

  -- Every organization whose records the deletion would leave without an owner.
  for member_of in
    select m.organization_id from private.memberships m
     where m.user_id = p_user_id and (target_org is null or m.organization_id = target_org)
  loop
    counts := private.owned_record_counts(private.tenant_schema(member_of), p_user_id);
    if exists (select 1 from jsonb_each_text(counts) c where c.value::bigint > 0) then
      return private.failure('Kullanıcının kayıtları var; önce kayıtlarını başka bir kullanıcıya aktarın',
                             'has_records', jsonb_build_object('records', counts));
    end if;
  end loop;

  if target_org is not null and exists (
       select 1 from private.memberships m where m.user_id = p_user_id and m.organization_id <> target_org) then
    delete from private.memberships m where m.user_id = p_user_id and m.organization_id = target_org;
    delete from private.session_organizations s where s.user_id = p_user_id and s.organization_id = target_org;
    perform private.write_audit(target_org, 'user.removed', 'user', p_user_id::text);
    return jsonb_build_object('success', true, 'message', 'Kullanıcı şirketten çıkarıldı');
  end if;

  perform private.write_audit(target_org, 'user.deleted', 'user', p_user_id::text,
                              jsonb_build_object('email', (select p.email from private.profiles p where p.id = p_user_id)));
  delete from auth.users where id = p_user_id;
  return jsonb_build_object('success', true, 'message', 'Kullanıcı silindi');
end;
$$;

/** An admin sets a user's password; the user's sessions end. */
create function public.simple_reset_password(p_user_id uuid, p_new_password text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
begin
  if p_user_id = auth.uid() then
    return private.failure('Password reset error: change your own password on your profile', 'self_action');
  end if;
  problem := coalesce(private.check_user_admin(p_user_id, target_org), private.check_password(p_new_password));
  if problem is not null then
    return problem;
  end if;
  begin
    perform private.repair_auth_user(p_user_id, p_new_password);
    perform private.end_sessions(p_user_id);
  exception when others then
    return private.failure('Password reset error', 'password_reset_failed');
  end;
  perform private.write_audit(target_org, 'user.password_reset', 'user', p_user_id::text);
  return jsonb_build_object('success', true, 'message', 'Şifre sıfırlandı');
end;
$$;

/** An administrator's lock: one year (locked_by_admin); the user's sessions end now. */
create function public.lock_user_secure(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
begin
  if p_user_id = auth.uid() then
    return private.failure('Kendi hesabınızı kilitleyemezsiniz', 'self_action');
  end if;
  problem := private.check_user_admin(p_user_id, target_org);
  if problem is not null then
    return problem;
  end if;
  update private.profiles
     set locked_by_admin = true, locked_until = now() + interval '365 days', updated_at = now()
   where id = p_user_id;
  perform private.end_sessions(p_user_id);
  perform private.write_audit(target_org, 'user.locked', 'user', p_user_id::text);
  return jsonb_build_object('success', true, 'message', 'Kullanıcı kilitlendi', 'user', private.user_json(p_user_id));
end;
$$;

/** Ends any lock, temporary or an administrator's, and clears the failure count. */
create function public.unlock_user_secure(p_user_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  target_org uuid := private.current_organization_id();
  problem jsonb;
begin
  problem := private.check_user_admin(p_user_id, target_org);
  if problem is not null then
    return problem;
  end if;
  update private.profiles
     set locked_by_admin = false, locked_until = null, failed_login_attempts = 0, updated_at = now()
   where id = p_user_id;
  delete from private.login_throttles t where t.email = (select p.email from private.profiles p where p.id = p_user_id);
  perform private.write_audit(target_org, 'user.unlocked', 'user', p_user_id::text);
  return jsonb_build_object('success', true, 'message', 'Kullanıcının kilidi açıldı', 'user', private.user_json(p_user_id));
end;
$$;

revoke execute on all functions in schema private from public, anon, authenticated;
revoke execute on function public.create_user_secure(text, text, uuid, text, text, text) from public, anon, authenticated;
revoke execute on function public.update_user_secure(uuid, jsonb, text) from public, anon, authenticated;
revoke execute on function public.delete_user_secure(uuid, uuid) from public, anon, authenticated;
revoke execute on function public.simple_reset_password(uuid, text) from public, anon, authenticated;
revoke execute on function public.lock_user_secure(uuid) from public, anon, authenticated;
revoke execute on function public.unlock_user_secure(uuid) from public, anon, authenticated;
grant execute on function public.create_user_secure(text, text, uuid, text, text, text) to authenticated;
grant execute on function public.update_user_secure(uuid, jsonb, text) to authenticated;
grant execute on function public.delete_user_secure(uuid, uuid) to authenticated;
grant execute on function public.simple_reset_password(uuid, text) to authenticated;
grant execute on function public.lock_user_secure(uuid) to authenticated;
grant execute on function public.unlock_user_secure(uuid) to authenticated;
