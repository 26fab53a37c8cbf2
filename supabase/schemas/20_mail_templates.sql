-- E-mail templates (issue 27): each organization's subject and body, in Turkish and English,
-- for the e-mails it sends: a quote or a contract from its record, a contract's renewal
-- reminder, a password reset link. A kind and language the organization has not written
-- reads the product's own text (private.default_mail_template). Bodies are plain text with
-- `{{name}}` placeholders, filled by whoever sends (the record's composer in the browser,
-- the mail function for a reset link): never evaluated, never markup.

create table private.mail_templates (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  kind text not null check (kind in ('quote', 'contract', 'contract_renewal', 'password_reset', 'notification_digest')),
  language text not null check (language in ('tr', 'en')),
  subject text not null check (char_length(subject) between 1 and 300),
  body text not null check (char_length(body) between 1 and 20000),
  updated_by uuid,
  updated_at timestamptz not null default now(),
  primary key (organization_id, kind, language)
);

alter table private.mail_templates enable row level security;

comment on table private.mail_templates is
  'Each organization''s own e-mail subject and body per kind and language; a missing one reads the product''s default.';

/** The product's own subject and body of a kind in a language ({subject, body}), or null for an unknown kind. */
create function private.default_mail_template(p_kind text, p_language text)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select case p_kind || ':' || case when p_language = 'en' then 'en' else 'tr' end
    when 'quote:tr' then jsonb_build_object(
      'subject', '{{quote.number}} numaralı teklifimiz – {{organization.name}}',
      'body', E'Sayın {{contact.name}},\n\n{{quote.number}} numaralı teklifimizi ekte bilgilerinize sunarız. '
              'Teklifimiz {{quote.valid_until}} tarihine kadar geçerlidir; genel toplam {{totals.total}}.\n\n'
              'Sorularınız için bu e-postayı yanıtlayabilirsiniz.\n\nSaygılarımızla,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'quote:en' then jsonb_build_object(
      'subject', 'Our quote {{quote.number}} – {{organization.name}}',
      'body', E'Dear {{contact.name}},\n\nPlease find attached our quote {{quote.number}}. '
              'It is valid until {{quote.valid_until}}; the grand total is {{totals.total}}.\n\n'
              'Simply reply to this e-mail with any questions.\n\nKind regards,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract:tr' then jsonb_build_object(
      'subject', '{{contract.number}} numaralı sözleşme: {{contract.title}}',
      'body', E'Sayın {{contact.name}},\n\n{{contract.title}} sözleşmesini ({{contract.number}}) ekte bilgilerinize sunarız. '
              'Sözleşme {{contract.start_date}} – {{contract.end_date}} dönemini kapsar.\n\n'
              'Saygılarımızla,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract:en' then jsonb_build_object(
      'subject', 'Contract {{contract.number}}: {{contract.title}}',
      'body', E'Dear {{contact.name}},\n\nPlease find attached the contract {{contract.title}} ({{contract.number}}). '
              'It covers {{contract.start_date}} to {{contract.end_date}}.\n\n'
              'Kind regards,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract_renewal:tr' then jsonb_build_object(
      'subject', '{{contract.title}} sözleşmesinin yenilenmesi',
      'body', E'Sayın {{contact.name}},\n\n{{contract.number}} numaralı {{contract.title}} sözleşmemiz {{contract.end_date}} tarihinde sona eriyor. '
              'Yenileme koşullarını birlikte görüşmek isteriz.\n\n'
              'Saygılarımızla,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract_renewal:en' then jsonb_build_object(
      'subject', 'Renewing the contract {{contract.title}}',
      'body', E'Dear {{contact.name}},\n\nOur contract {{contract.title}} ({{contract.number}}) ends on {{contract.end_date}}. '
              'We would like to agree its renewal with you.\n\n'
              'Kind regards,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'password_reset:tr' then jsonb_build_object(
      'subject', '{{organization.name}}: şifre yenileme',
      'body', E'Merhaba {{user.name}},\n\nŞifrenizi yenilemek için bu bağlantıyı açın (bir kez, {{reset.minutes}} dakika geçerli):\n\n{{reset.link}}\n\n'
              'Bu isteği siz yapmadıysanız bu e-postayı yok sayın; şifreniz değişmez.')
    when 'password_reset:en' then jsonb_build_object(
      'subject', '{{organization.name}}: reset your password',
      'body', E'Hello {{user.name}},\n\nOpen this link to set a new password (once, within {{reset.minutes}} minutes):\n\n{{reset.link}}\n\n'
              'If you did not ask for this, ignore this e-mail; your password stays as it is.')
    when 'notification_digest:tr' then jsonb_build_object(
      'subject', '{{organization.name}}: {{digest.count}} yeni bildirim',
      'body', E'Merhaba {{user.name}},\n\n{{organization.name}} için yeni bildirimleriniz:\n\n{{digest.items}}\n\n'
              'Tümü: {{digest.link}}\n\nBu özetleri bildirim tercihlerinizden kapatabilirsiniz.')
    when 'notification_digest:en' then jsonb_build_object(
      'subject', '{{organization.name}}: {{digest.count}} new notifications',
      'body', E'Hello {{user.name}},\n\nYour new notifications at {{organization.name}}:\n\n{{digest.items}}\n\n'
              'All of them: {{digest.link}}\n\nYou can turn these digests off in your notification preferences.')
  end;
$$;

/**
 * An organization's template of a kind in a language: its own when written, else the
 * product's default; {kind, language, subject, body, customized}. For the functions that
 * send without a caller (a reset link); the RPCs below check the caller first.
 */
create function private.mail_template(p_organization_id uuid, p_kind text, p_language text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select jsonb_build_object('kind', p_kind, 'language', lang, 'customized', t.organization_id is not null,
                              'subject', coalesce(t.subject, d ->> 'subject'), 'body', coalesce(t.body, d ->> 'body'))
      from (select case when p_language = 'en' then 'en' else 'tr' end) l (lang)
      cross join lateral (select private.default_mail_template(p_kind, l.lang)) defaults (d)
      left join private.mail_templates t
        on t.organization_id = p_organization_id and t.kind = p_kind and t.language = l.lang
     where d is not null);
end;
$$;

/**
 * The caller's organization's template of a kind (quote, contract, contract_renewal,
 * password_reset, notification_digest) in a language (tr, en): {success, template: {kind, language, subject,
 * body, customized}}; the product's default when the organization has not written one.
 * Any member may read it (the record's composer starts from it).
 */
create function public.get_mail_template(p_kind text, p_language text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('organization');
  template jsonb;
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  template := private.mail_template(caller.organization_id, p_kind, p_language);
  if template is null or p_language not in ('tr', 'en') then
    return private.failure('Invalid input', 'invalid_input');
  end if;
  return jsonb_build_object('success', true, 'template', template);
end;
$$;

revoke all on function public.get_mail_template(p_kind text, p_language text) from public, anon, authenticated;
grant execute on function public.get_mail_template(p_kind text, p_language text) to authenticated;

/**
 * Every e-mail template of the caller's organization (admin): each kind in each language,
 * {success, templates: [{kind, language, subject, body, customized, updated_at}]}, the
 * product's text where the organization has not written its own (customized false).
 */
create function public.list_mail_templates()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  return jsonb_build_object('success', true, 'templates', (
    select jsonb_agg(private.mail_template(caller.organization_id, k.kind, l.language)
                       || jsonb_build_object('updated_at', t.updated_at) order by k.position, l.position)
      from unnest(array['quote', 'contract', 'contract_renewal', 'password_reset', 'notification_digest']) with ordinality k (kind, position)
     cross join unnest(array['tr', 'en']) with ordinality l (language, position)
      left join private.mail_templates t
        on t.organization_id = caller.organization_id and t.kind = k.kind and t.language = l.language));
end;
$$;

revoke all on function public.list_mail_templates() from public, anon, authenticated;
grant execute on function public.list_mail_templates() to authenticated;

/**
 * Saves the caller's organization's own subject and body of a kind in a language (admin).
 * The subject is one line of 1–300 characters, the body 1–20000 characters; placeholders stay
 * as written (text, filled when sending). Refusals: invalid_kind, invalid_language,
 * invalid_subject, invalid_body, nothing saved. Audited (mail_templates.updated) with the kind
 * and language. Returns {success, template}.
 */
create function public.save_mail_template(p_kind text, p_language text, p_subject text, p_body text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
  clean_subject text := btrim(p_subject);
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if private.default_mail_template(p_kind, 'tr') is null then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  if p_language is null or p_language not in ('tr', 'en') then
    return private.failure('Invalid language', 'invalid_language');
  end if;
  -- One header line: a line break in a subject could add headers to the e-mail.
  if clean_subject is null or char_length(clean_subject) not between 1 and 300 or clean_subject ~ '[[:cntrl:]]' then
    return private.failure('The subject is required: one line, at most 300 characters', 'invalid_subject');
  end if;
  if p_body is null or p_body !~ '[^[:space:]]' or char_length(p_body) > 20000 then
    return private.failure('The body is required (at most 20000 characters)', 'invalid_body');
  end if;
  insert into private.mail_templates (organization_id, kind, language, subject, body, updated_by, updated_at)
  values (caller.organization_id, p_kind, p_language, clean_subject, p_body, auth.uid(), now())
  on conflict (organization_id, kind, language)
  do update set subject = excluded.subject, body = excluded.body, updated_by = excluded.updated_by, updated_at = excluded.updated_at;
  perform private.write_audit(caller.organization_id, 'mail_templates.updated', 'mail_template', p_kind || ':' || p_language,
                              jsonb_build_object('kind', p_kind, 'language', p_language));
  return jsonb_build_object('success', true, 'template', private.mail_template(caller.organization_id, p_kind, p_language));
end;
$$;

revoke all on function public.save_mail_template(p_kind text, p_language text, p_subject text, p_body text) from public, anon, authenticated;
grant execute on function public.save_mail_template(p_kind text, p_language text, p_subject text, p_body text) to authenticated;

/**
 * Puts a kind in a language back to the product's own text (admin): the organization's
 * template is removed. Refusals: invalid_kind, invalid_language. Audited
 * (mail_templates.reset) when there was one to remove. Returns {success, template}.
 */
create function public.reset_mail_template(p_kind text, p_language text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller private.caller_context := private.caller_context('admin');
begin
  if caller.problem is not null then
    return caller.problem;
  end if;
  if private.default_mail_template(p_kind, 'tr') is null then
    return private.failure('Invalid template kind', 'invalid_kind');
  end if;
  if p_language is null or p_language not in ('tr', 'en') then
    return private.failure('Invalid language', 'invalid_language');
  end if;
  delete from private.mail_templates t
   where t.organization_id = caller.organization_id and t.kind = p_kind and t.language = p_language;
  if found then
    perform private.write_audit(caller.organization_id, 'mail_templates.reset', 'mail_template', p_kind || ':' || p_language,
                                jsonb_build_object('kind', p_kind, 'language', p_language));
  end if;
  return jsonb_build_object('success', true, 'template', private.mail_template(caller.organization_id, p_kind, p_language));
end;
$$;

revoke all on function public.reset_mail_template(p_kind text, p_language text) from public, anon, authenticated;
grant execute on function public.reset_mail_template(p_kind text, p_language text) to authenticated;
