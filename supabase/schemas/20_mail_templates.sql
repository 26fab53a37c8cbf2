-- E-mail templates (issue 27): each organization's subject and body, in Turkish and English,
-- for the e-mails it sends: a quote or a contract from its record, a contract's renewal
-- reminder, a password reset link. A kind and language the organization has not written
-- reads the product's own text (private.default_mail_template). Bodies are plain text with
-- `{{name}}` placeholders, filled by whoever sends (the record's composer in the browser,
-- the mail function for a reset link): never evaluated, never markup.

create table private.mail_templates (
  organization_id uuid not null references private.organizations (id) on delete cascade,
  kind text not null check (kind in ('quote', 'contract', 'contract_renewal', 'password_reset')),
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
              || E'Sorularınız için bu e-postayı yanıtlayabilirsiniz.\n\nSaygılarımızla,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'quote:en' then jsonb_build_object(
      'subject', 'Our quote {{quote.number}} – {{organization.name}}',
      'body', E'Dear {{contact.name}},\n\nPlease find attached our quote {{quote.number}}. '
              'It is valid until {{quote.valid_until}}; the grand total is {{totals.total}}.\n\n'
              || E'Simply reply to this e-mail with any questions.\n\nKind regards,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract:tr' then jsonb_build_object(
      'subject', '{{contract.number}} numaralı sözleşme: {{contract.title}}',
      'body', E'Sayın {{contact.name}},\n\n{{contract.title}} sözleşmesini ({{contract.number}}) ekte bilgilerinize sunarız. '
              || E'Sözleşme {{contract.start_date}} – {{contract.end_date}} dönemini kapsar.\n\n'
              || E'Saygılarımızla,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract:en' then jsonb_build_object(
      'subject', 'Contract {{contract.number}}: {{contract.title}}',
      'body', E'Dear {{contact.name}},\n\nPlease find attached the contract {{contract.title}} ({{contract.number}}). '
              || E'It covers {{contract.start_date}} to {{contract.end_date}}.\n\n'
              || E'Kind regards,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract_renewal:tr' then jsonb_build_object(
      'subject', '{{contract.title}} sözleşmesinin yenilenmesi',
      'body', E'Sayın {{contact.name}},\n\n{{contract.number}} numaralı {{contract.title}} sözleşmemiz {{contract.end_date}} tarihinde sona eriyor. '
              || E'Yenileme koşullarını birlikte görüşmek isteriz.\n\n'
              || E'Saygılarımızla,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'contract_renewal:en' then jsonb_build_object(
      'subject', 'Renewing the contract {{contract.title}}',
      'body', E'Dear {{contact.name}},\n\nOur contract {{contract.title}} ({{contract.number}}) ends on {{contract.end_date}}. '
              || E'We would like to agree its renewal with you.\n\n'
              || E'Kind regards,\n{{sender.name}}\n{{organization.name}}\n{{sender.phone}}')
    when 'password_reset:tr' then jsonb_build_object(
      'subject', '{{organization.name}}: şifre yenileme',
      'body', E'Merhaba {{user.name}},\n\nŞifrenizi yenilemek için bu bağlantıyı açın (bir kez, {{reset.minutes}} dakika geçerli):\n\n{{reset.link}}\n\n'
              'Bu isteği siz yapmadıysanız bu e-postayı yok sayın; şifreniz değişmez.')
    when 'password_reset:en' then jsonb_build_object(
      'subject', '{{organization.name}}: reset your password',
      'body', E'Hello {{user.name}},\n\nOpen this link to set a new password (once, within {{reset.minutes}} minutes):\n\n{{reset.link}}\n\n'
              'If you did not ask for this, ignore this e-mail; your password stays as it is.')
  end;
$$;

/**
 * An organization's template of a kind in a language: its own when written, else the
 * product's default; {kind, language, subject, body, customized}. For the functions that
 * send without a caller (a reset link); the RPCs below check the caller first.
 */
create function private.mail_template(p_organization_id uuid, p_kind text, p_language text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('kind', p_kind, 'language', lang, 'customized', t.organization_id is not null,
                            'subject', coalesce(t.subject, d ->> 'subject'), 'body', coalesce(t.body, d ->> 'body'))
    from (select case when p_language = 'en' then 'en' else 'tr' end) l (lang)
    cross join lateral (select private.default_mail_template(p_kind, l.lang)) defaults (d)
    left join private.mail_templates t
      on t.organization_id = p_organization_id and t.kind = p_kind and t.language = l.lang
   where d is not null;
$$;

/**
 * The caller's organization's template of a kind (quote, contract, contract_renewal,
 * password_reset) in a language (tr, en): {success, template: {kind, language, subject,
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
