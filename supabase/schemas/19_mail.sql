-- E-mail (DESIGN.md D12, issue 27): each organization's SMTP settings and the log of what it
-- sent. Mail goes out only through the `mail` Edge Function: it seals the SMTP password with
-- a key the database never holds (so neither an RPC answer nor a backup carries it in clear),
-- asks private.mail_begin whether the caller may send (and within the hourly limit), reads
-- the settings with the secret key, sends, and records the result with mail_finish_send.

create table private.mail_settings (
  organization_id uuid primary key references private.organizations (id) on delete cascade,
  -- A host name or address: letters, digits, dots, hyphens and colons, at most 253 characters.
  host text not null check (host ~ '^[A-Za-z0-9]([A-Za-z0-9.:-]{0,251}[A-Za-z0-9])?$'),
  port integer not null check (port between 1 and 65535),
  -- starttls: plain, then STARTTLS (required); tls: TLS from the first byte (465); none: no encryption.
  security text not null check (security in ('starttls', 'tls', 'none')),
  username text check (char_length(username) between 1 and 254),
  -- The password as the mail function sealed it (AES-GCM, its key outside the database); null: none.
  password_sealed text check (char_length(password_sealed) <= 2000),
  sender_name text check (char_length(sender_name) between 1 and 100),
  sender_address text not null check (char_length(sender_address) <= 254),
  reply_to text check (char_length(reply_to) <= 254),
  updated_by uuid,
  updated_at timestamptz not null default now()
);

alter table private.mail_settings enable row level security;

comment on table private.mail_settings is
  'Each organization''s SMTP settings (the mail Edge Function sends with them); the password sealed by that function, never in clear.';

create table private.mail_log (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references private.organizations (id) on delete cascade,
  -- What was sent: test (the admin's test e-mail), quote or contract (from the record, with its
  -- PDF), contract_renewal (the renewal reminder), password_reset (a reset link),
  -- notification_digest (a user's notifications by e-mail).
  kind text not null check (kind in ('test', 'quote', 'contract', 'contract_renewal', 'password_reset', 'notification_digest')),
  recipients text[] not null check (cardinality(recipients) between 1 and 50),
  cc text[] not null default '{}' check (cardinality(cc) <= 50),
  subject text not null check (char_length(subject) <= 300),
  -- The text as sent (records' e-mails, on their timelines); null for messages that carry a secret (reset links).
  body text check (char_length(body) <= 20000),
  -- The record it was sent from (module key and id), its customer (for the customer's timeline)
  -- and the kept document attached (its latest version when sent).
  module text check (module ~ '^[a-z_]{1,40}$'),
  record_id uuid,
  customer_id uuid,
  document_id uuid,
  status text not null default 'sending' check (status in ('sending', 'sent', 'failed')),
  -- Why it failed (smtp_auth_failed, smtp_unreachable, recipient_refused, smtp_failed, …).
  error_code text check (error_code ~ '^[a-z_]{1,40}$'),
  created_by uuid,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);

create index mail_log_organization_created_idx on private.mail_log (organization_id, created_at desc);
create index mail_log_record_idx on private.mail_log (organization_id, record_id) where record_id is not null;
create index mail_log_customer_idx on private.mail_log (organization_id, customer_id) where customer_id is not null;

alter table private.mail_log enable row level security;

comment on table private.mail_log is 'Every e-mail an organization sent or tried to send (the hourly limit counts it).';

/** The mail limits: messages an organization may send an hour (the mail function's sends, failed ones too). */
create function private.mail_limits()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select '{"per_hour": 100}'::jsonb;
$$;

/** The settings as the admin's form reads them: everything but the password, and whether one is kept. */
create function private.mail_settings_json(p_settings private.mail_settings)
returns jsonb
language plpgsql
stable
set search_path = ''
as $$
begin
  return (select case when p_settings.organization_id is null then null else jsonb_build_object(
      'host', p_settings.host, 'port', p_settings.port, 'security', p_settings.security,
      'username', p_settings.username, 'has_password', p_settings.password_sealed is not null,
      'sender_name', p_settings.sender_name, 'sender_address', p_settings.sender_address,
      'reply_to', p_settings.reply_to, 'updated_at', p_settings.updated_at) end);
end;
$$;

/**
 * Admin: the organization's mail settings without the password (has_password says whether
 * one is kept), or null when it has none (its mail then goes through the installation's).
 */
create function public.get_mail_settings()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  settings private.mail_settings;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  select * into settings from private.mail_settings s where s.organization_id = caller.organization_id;
  return jsonb_build_object('success', true, 'settings', private.mail_settings_json(settings));
end;
$$;

revoke all on function public.get_mail_settings() from public, anon, authenticated;
grant execute on function public.get_mail_settings() to authenticated;

/**
 * Admin: saves the organization's mail settings (host, port, security, username, sender
 * name and address, reply-to) and, under password_sealed, the password as the mail function
 * sealed it (a string sets it, null removes it, absent keeps it); {"clear": true} removes the
 * settings (mail then goes through the installation's). Field errors come back as
 * invalid_fields, nothing saved. Audited (settings.mail) with the names of what changed.
 */
create function public.save_mail_settings(p_settings jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  existing private.mail_settings;
  saved private.mail_settings;
  errors jsonb := '{}';
  unknown text;
  host text := btrim(p_settings ->> 'host');
  port integer;
  username text := nullif(btrim(p_settings ->> 'username'), '');
  sender_name text := nullif(btrim(p_settings ->> 'sender_name'), '');
  sender_address text := private.normalize_email(p_settings ->> 'sender_address');
  reply_to text := private.normalize_email(nullif(btrim(p_settings ->> 'reply_to'), ''));
  changed text[];
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if jsonb_typeof(p_settings) is distinct from 'object' then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  select * into existing from private.mail_settings s where s.organization_id = caller.organization_id for update;
  if p_settings = '{"clear": true}' then
    delete from private.mail_settings s where s.organization_id = caller.organization_id;
    if found then
      perform private.write_audit(caller.organization_id, 'settings.mail', 'organization', caller.organization_id::text,
                                  jsonb_build_object('cleared', true));
    end if;
    return jsonb_build_object('success', true, 'settings', null);
  end if;
  select k into unknown from jsonb_object_keys(p_settings) k
   where k not in ('host', 'port', 'security', 'username', 'password_sealed', 'sender_name', 'sender_address', 'reply_to') limit 1;
  if unknown is not null then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', jsonb_build_object(left(unknown, 63), 'unknown_field')));
  end if;
  if host is null or host = '' then
    errors := errors || '{"host": "required"}';
  elsif host !~ '^[A-Za-z0-9]([A-Za-z0-9.:-]{0,251}[A-Za-z0-9])?$' then
    errors := errors || '{"host": "invalid"}';
  end if;
  if jsonb_typeof(p_settings -> 'port') = 'number' and (p_settings ->> 'port') ~ '^[0-9]{1,5}$' then
    port := (p_settings ->> 'port')::integer;
  end if;
  if port is null or port not between 1 and 65535 then
    errors := errors || '{"port": "invalid"}';
  end if;
  if coalesce(p_settings ->> 'security', '') not in ('starttls', 'tls', 'none') then
    errors := errors || '{"security": "invalid"}';
  end if;
  if char_length(username) > 254 then
    errors := errors || '{"username": "too_long"}';
  end if;
  if char_length(sender_name) > 100 then
    errors := errors || '{"sender_name": "too_long"}';
  end if;
  if sender_address is null then
    errors := errors || '{"sender_address": "required"}';
  elsif not private.is_valid_email(sender_address) then
    errors := errors || '{"sender_address": "invalid_email"}';
  end if;
  if reply_to is not null and not private.is_valid_email(reply_to) then
    errors := errors || '{"reply_to": "invalid_email"}';
  end if;
  if p_settings ? 'password_sealed' and jsonb_typeof(p_settings -> 'password_sealed') not in ('string', 'null')
     or char_length(p_settings ->> 'password_sealed') not between 1 and 2000 then
    errors := errors || '{"password": "invalid"}';
  end if;
  if errors <> '{}' then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', errors));
  end if;

  insert into private.mail_settings as s (organization_id, host, port, security, username, password_sealed,
                                          sender_name, sender_address, reply_to, updated_by, updated_at)
  values (caller.organization_id, host, port, p_settings ->> 'security', username,
          case when p_settings ? 'password_sealed' then p_settings ->> 'password_sealed' else existing.password_sealed end,
          sender_name, sender_address, reply_to, caller.user_id, now())
  on conflict (organization_id) do update
     set host = excluded.host, port = excluded.port, security = excluded.security, username = excluded.username,
         password_sealed = excluded.password_sealed, sender_name = excluded.sender_name,
         sender_address = excluded.sender_address, reply_to = excluded.reply_to,
         updated_by = excluded.updated_by, updated_at = excluded.updated_at
  returning * into saved;
  select coalesce(array_agg(f order by f), '{}') into changed
    from unnest(array['host', 'port', 'security', 'username', 'password', 'sender_name', 'sender_address', 'reply_to']) f
   where existing.organization_id is null
      or (to_jsonb(existing) -> case when f = 'password' then 'password_sealed' else f end)
         is distinct from (to_jsonb(saved) -> case when f = 'password' then 'password_sealed' else f end);
  if existing.organization_id is null or changed <> '{}' then
    perform private.write_audit(caller.organization_id, 'settings.mail', 'organization', caller.organization_id::text,
                                jsonb_build_object('fields', to_jsonb(changed)));
  end if;
  return jsonb_build_object('success', true, 'settings', private.mail_settings_json(saved));
end;
$$;

revoke all on function public.save_mail_settings(p_settings jsonb) from public, anon, authenticated;
grant execute on function public.save_mail_settings(p_settings jsonb) to authenticated;

/**
 * Every sending starts here, whoever asks for it (the record's sender, the admin's test, a
 * reset link, a digest): the organization's hourly limit (private.mail_limits: every sending
 * of the last hour counts, failed ones too), then the row p_mail (organization_id, kind,
 * recipients, cc, subject, body, module, record_id, customer_id, document_id, created_by as
 * the caller checked them) in state sending. Returns {success, mail_id} or mail_rate_limited.
 */
create function private.mail_start(p_mail private.mail_log)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  sent_last_hour integer;
  mail_id uuid;
begin
  -- One organization's sendings one at a time, so that two at once cannot both pass the limit.
  perform pg_advisory_xact_lock(hashtextextended('mail:' || p_mail.organization_id::text, 0));
  select count(*) into sent_last_hour from private.mail_log l
   where l.organization_id = p_mail.organization_id and l.created_at > now() - interval '1 hour';
  if sent_last_hour >= (private.mail_limits() ->> 'per_hour')::integer then
    return private.failure('Too many e-mails this hour', 'mail_rate_limited',
                           jsonb_build_object('limit', private.mail_limits() -> 'per_hour'));
  end if;
  insert into private.mail_log (organization_id, kind, recipients, cc, subject, body, module, record_id, customer_id,
                                document_id, created_by)
  values (p_mail.organization_id, p_mail.kind, p_mail.recipients, coalesce(p_mail.cc, '{}'), p_mail.subject, p_mail.body,
          p_mail.module, p_mail.record_id, p_mail.customer_id, p_mail.document_id, p_mail.created_by)
  returning id into mail_id;
  return jsonb_build_object('success', true, 'mail_id', mail_id);
end;
$$;

/** Addresses as sent: each normalized, in their order; null when one is not a valid e-mail address. */
create function private.mail_addresses(p_addresses text[])
returns text[]
language plpgsql
stable
set search_path = ''
as $$
begin
  return (select case when bool_and(coalesce(private.is_valid_email(a.address), false)) is not false
                then coalesce(array_agg(a.address order by a.position), '{}') end
      from (select private.normalize_email(r) as address, o as position from unnest(p_addresses) with ordinality t (r, o)) a);
end;
$$;

/**
 * A record's e-mail (kind quote, contract or contract_renewal), checked before anything is
 * sent: p_record {module (quotes for a quote, contracts for a contract's), record_id, cc,
 * body, document_id, updated_at (a quote's, as read)}. The caller may edit the record
 * (module edit scope: own records only with scope own); to 1 to 50 and cc at most 50 valid
 * addresses; a subject of 1 to 300 and a body of at most 20,000 characters; the document,
 * when named, is one the caller may see that belongs to this record; a quote can be marked
 * sent now (a draft read at updated_at that send_quote would take: private.prepare_quote's
 * rules, answered as send_quote answers them), so nothing goes out for a quote that cannot
 * be marked. Then private.mail_start (the hourly limit) with the record's customer. Returns
 * {success, mail_id, attachment: {object_path, file_name, mime_type, title} | null}.
 */
create function private.mail_begin_record(p_kind text, p_recipients text[], p_subject text, p_record jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  module text := p_record ->> 'module';
  kind_module text := case when p_kind = 'quote' then 'quotes' else 'contracts' end;
  record_id uuid := private.try_uuid(p_record -> 'record_id');
  document_id uuid := private.try_uuid(p_record -> 'document_id');
  context private.module_context;
  documents_scope text;
  found_record jsonb;
  prepared jsonb;
  expected timestamptz;
  recipients text[] := private.mail_addresses(p_recipients);
  cc text[];
  body text := p_record ->> 'body';
  attachment jsonb;
  errors jsonb := '{}';
  started jsonb;
begin
  if jsonb_typeof(p_record) is distinct from 'object'
     or module is distinct from kind_module
     or record_id is null
     or (p_record ? 'document_id' and jsonb_typeof(p_record -> 'document_id') <> 'null' and document_id is null)
     or (p_record ? 'cc' and jsonb_typeof(p_record -> 'cc') not in ('array', 'null'))
     or (p_record ? 'body' and jsonb_typeof(p_record -> 'body') not in ('string', 'null')) then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  context := private.module_context(module, 'edit');
  if context.problem is not null then
    return context.problem;
  end if;
  execute format('select to_jsonb(t) from %I.%I t where t.id = $1 and t.deleted_at is null and ($2 = ''all'' or t.owner_id = $3)',
                 context.schema_name, context.table_name)
    into found_record using record_id, context.scope, context.caller;
  if found_record is null then
    return private.failure('Record not found', 'not_found');
  end if;

  begin
    cc := private.mail_addresses(array(select jsonb_array_elements_text(coalesce(p_record -> 'cc', '[]'))));
  exception when others then
    return private.failure('Invalid input', 'invalid_input');
  end;
  if coalesce(cardinality(recipients), 0) not between 1 and 50 then
    errors := errors || '{"to": "invalid_email"}';
  end if;
  if cc is null or cardinality(cc) > 50 then
    errors := errors || '{"cc": "invalid_email"}';
  end if;
  if btrim(coalesce(p_subject, '')) = '' then
    errors := errors || '{"subject": "required"}';
  elsif char_length(p_subject) > 300 then
    errors := errors || '{"subject": "too_long"}';
  end if;
  if char_length(body) > 20000 then
    errors := errors || '{"body": "too_long"}';
  end if;
  if errors <> '{}' then
    return private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', errors));
  end if;

  if p_kind = 'quote' then
    begin
      expected := (p_record ->> 'updated_at')::timestamptz;
    exception when others then
      expected := null;
    end;
    if expected is null or (found_record ->> 'updated_at')::timestamptz <> expected then
      return private.failure('The record was changed by someone else', 'stale_record',
                             jsonb_build_object('current_updated_at', found_record -> 'updated_at'));
    end if;
    prepared := private.prepare_quote('{"status": "sent"}', found_record);
    if prepared -> 'errors' <> '{}' then
      return private.quote_step_failure(private.failure('Invalid fields', 'invalid_fields', jsonb_build_object('fields', prepared -> 'errors')));
    end if;
  end if;

  if document_id is not null then
    documents_scope := private.caller_scope('documents', 'view');
    if documents_scope is not null then
      execute format($query$
        select jsonb_build_object('object_path', v.object_path, 'file_name', v.file_name, 'mime_type', v.mime_type, 'title', d.title)
          from %1$I.documents d
          join %1$I.document_versions v on v.document_id = d.id and v.version = d.current_version
         where d.id = $1 and d.deleted_at is null and d.%2$I = $2 and ($3 = 'all' or d.owner_id = $4)$query$,
        context.schema_name, private.document_link_column(module))
        into attachment using document_id, record_id, documents_scope, context.caller;
    end if;
    if attachment is null then
      return private.failure('Document not found', 'document_not_found');
    end if;
  end if;

  started := private.mail_start(jsonb_populate_record(null::private.mail_log, jsonb_build_object(
    'organization_id', context.organization_id, 'kind', p_kind, 'recipients', recipients, 'cc', cc,
    'subject', p_subject, 'body', body, 'module', module, 'record_id', record_id,
    'customer_id', found_record -> 'customer_id', 'document_id', document_id, 'created_by', context.caller)));
  if not (started ->> 'success')::boolean then
    return started;
  end if;
  return started || jsonb_build_object('attachment', attachment);
end;
$$;

/**
 * Starts one sending for the caller (the mail function calls it as the caller). The
 * admin's test (p_kind test): the organization's admin, to at most 50 valid addresses. A
 * record's e-mail (quote, contract, contract_renewal, with p_record: private.mail_begin_record
 * checks the record, its editor, the addresses, the document and, for a quote, that it can
 * be marked sent). Then the organization's hourly limit (private.mail_start: every sending
 * of the last hour counts, failed ones too) and a mail_log row in state sending. Returns
 * {success, mail_id} (a record's: with its attachment's object path), or the refusal
 * (mail_rate_limited, invalid_fields {"to": "invalid_email"}, not_found, document_not_found,
 * stale_record, the quote's step refusal, permission_denied).
 */
create function public.mail_begin_send(p_kind text, p_recipients text[], p_subject text, p_record jsonb default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context;
  recipients text[];
begin
  if p_kind in ('quote', 'contract', 'contract_renewal') then
    return private.mail_begin_record(p_kind, p_recipients, p_subject, p_record);
  end if;
  caller := private.caller_context('admin');
  if caller.problem is not null then
    return caller.problem;
  end if;
  if p_kind is distinct from 'test' or p_subject is null or char_length(p_subject) > 300 or p_record is not null then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  recipients := private.mail_addresses(p_recipients);
  if coalesce(cardinality(recipients), 0) not between 1 and 50 then
    return private.failure('Invalid fields', 'invalid_fields', '{"fields": {"to": "invalid_email"}}');
  end if;
  return private.mail_start(jsonb_populate_record(null::private.mail_log, jsonb_build_object(
    'organization_id', caller.organization_id, 'kind', p_kind, 'recipients', recipients,
    'subject', p_subject, 'created_by', caller.user_id)));
end;
$$;

revoke all on function public.mail_begin_send(p_kind text, p_recipients text[], p_subject text, p_record jsonb) from public, anon, authenticated;
grant execute on function public.mail_begin_send(p_kind text, p_recipients text[], p_subject text, p_record jsonb) to authenticated;

/**
 * The mail function only (secret key): the settings to send a started mail with, the sealed
 * password included, or null settings when the organization has none (the installation's
 * mail then); the organization's name for the sender. Only for a mail still sending.
 */
create function public.mail_delivery_settings(p_mail_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select jsonb_build_object('success', true, 'organization_name', o.name,
             'settings', case when s.organization_id is null then null
                              else private.mail_settings_json(s) || jsonb_build_object('password_sealed', s.password_sealed) end)
      from private.mail_log l
      join private.organizations o on o.id = l.organization_id
      left join private.mail_settings s on s.organization_id = l.organization_id
     where l.id = p_mail_id and l.status = 'sending'),
    private.failure('Mail not found', 'not_found'));
$$;

revoke all on function public.mail_delivery_settings(p_mail_id uuid) from public, anon, authenticated;
grant execute on function public.mail_delivery_settings(p_mail_id uuid) to service_role;

/**
 * The mail function only (secret key): the result of a started mail, sent or failed with
 * why; a mail is finished once. Audited as mail.sent or mail.failed with its kind and how
 * many recipients (not their addresses: the audit log is append-only, erasure reaches the
 * mail log), about the record it was sent from (a test: the organization).
 */
create function public.mail_finish_send(p_mail_id uuid, p_sent boolean, p_error_code text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  finished private.mail_log;
begin
  update private.mail_log l
     set status = case when p_sent then 'sent' else 'failed' end,
         error_code = case when p_sent then null else coalesce(p_error_code, 'smtp_failed') end,
         finished_at = now()
   where l.id = p_mail_id and l.status = 'sending'
  returning * into finished;
  if finished.id is null then
    return private.failure('Mail not found', 'not_found');
  end if;
  perform private.write_audit(finished.organization_id, case when p_sent then 'mail.sent' else 'mail.failed' end,
                              coalesce(finished.module, 'organization'),
                              coalesce(finished.record_id, finished.organization_id)::text,
                              jsonb_build_object('kind', finished.kind, 'recipients', cardinality(finished.recipients)
                                                                                      + cardinality(finished.cc),
                                                 'error_code', finished.error_code),
                              finished.created_by);
  return jsonb_build_object('success', true);
end;
$$;

revoke all on function public.mail_finish_send(p_mail_id uuid, p_sent boolean, p_error_code text) from public, anon, authenticated;
grant execute on function public.mail_finish_send(p_mail_id uuid, p_sent boolean, p_error_code text) to service_role;
