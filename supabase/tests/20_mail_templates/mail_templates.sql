-- The organizations' e-mail templates (20_mail_templates.sql): every member reads their own
-- organization's template (the product's text until the admin writes one); only the bound
-- organization's admin lists, saves and resets them (not a sales member, not another
-- organization's admin, not a person who is admin elsewhere but bound here as a member, not
-- anon); one organization's templates never reach another; bad input changes nothing.
begin;
select plan(38);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select tests.create_user('admin@alpha.test') as alpha_admin \gset
select tests.create_user('sales@alpha.test') as alpha_sales \gset
select tests.create_user('admin@beta.test') as beta_admin \gset
select tests.create_user('both@alpha.test') as both_member \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Admin of beta, a sales member of alpha.
select tests.add_member(:'both_member', :'beta', 'admin');
select tests.add_member(:'both_member', :'alpha', 'sales');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_beta, gen_random_uuid() as s_both \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');
select tests.bind_session(:'both_member', :'s_both', :'alpha');
select private.mail_template(null, 'quote', 'tr') as product_quote_tr \gset

-- ---------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.list_mail_templates()', 'execute')
          and not has_function_privilege('anon', 'public.save_mail_template(text, text, text, text)', 'execute')
          and not has_function_privilege('anon', 'public.reset_mail_template(text, text)', 'execute')
          and not has_function_privilege('anon', 'public.get_mail_template(text, text)', 'execute'),
  'anon may call none of them');
select ok(not has_function_privilege('authenticated', 'private.mail_template(uuid, text, text)', 'execute'),
  'the private reader is not the browser''s');

-- ---------------------------------------------------------------------------------
-- The admin: lists, saves, resets
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(jsonb_array_length(public.list_mail_templates() -> 'templates'), 10, 'the admin lists every kind in both languages');
select is((select array_agg((t ->> 'kind') || ':' || (t ->> 'language') || ':' || (t ->> 'customized')) from jsonb_array_elements(public.list_mail_templates() -> 'templates') t),
  array['quote:tr:false', 'quote:en:false', 'contract:tr:false', 'contract:en:false', 'contract_renewal:tr:false', 'contract_renewal:en:false',
        'password_reset:tr:false', 'password_reset:en:false', 'notification_digest:tr:false', 'notification_digest:en:false'],
  'in order, none customized yet');
select is(public.list_mail_templates() #>> '{templates,0,subject}', :'product_quote_tr'::jsonb ->> 'subject',
  'an unwritten one reads the product''s text');
select is(public.save_mail_template('quote', 'tr', '  Teklif {{quote.number}} – {{bilinmeyen}} ', E'Merhaba {{contact.name}},\n{{quote.number}}') -> 'template',
  jsonb_build_object('kind', 'quote', 'language', 'tr', 'customized', true, 'subject', 'Teklif {{quote.number}} – {{bilinmeyen}}',
                     'body', E'Merhaba {{contact.name}},\n{{quote.number}}'),
  'the admin saves the Turkish quote template: trimmed subject, placeholders kept as text (unknown ones too)');
select is((select (t ->> 'customized')::boolean from jsonb_array_elements(public.list_mail_templates() -> 'templates') t
            where t ->> 'kind' = 'quote' and t ->> 'language' = 'tr'), true, 'the list says it is customized');
select is(public.get_mail_template('quote', 'en') #>> '{template,customized}', 'false', 'the English one is still the product''s');
select ok((public.save_mail_template('quote', 'tr', 'İkinci konu', 'İkinci gövde') ->> 'success')::boolean, 'saving again replaces it');
select tests.reset_role();
select is((select count(*)::integer from private.mail_templates where organization_id = :'alpha'), 1, 'one row per kind and language');
select is((select array[action, actor_id::text, target_id, details::text] from private.audit_log
            where organization_id = :'alpha' and action = 'mail_templates.updated' order by id desc limit 1),
  array['mail_templates.updated', :'alpha_admin', 'quote:tr', '{"kind": "quote", "language": "tr"}'], 'audited with the kind and language');

-- Bad input: a clear refusal, nothing changed.
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.save_mail_template('invoice', 'tr', 'Konu', 'Gövde') ->> 'code', 'invalid_kind', 'an unknown kind is refused');
select is(public.save_mail_template(null, 'tr', 'Konu', 'Gövde') ->> 'code', 'invalid_kind', 'so is no kind');
select is(public.save_mail_template('quote', 'de', 'Konu', 'Gövde') ->> 'code', 'invalid_language', 'an unknown language is refused');
select is(public.save_mail_template('quote', 'tr', '   ', 'Gövde') ->> 'code', 'invalid_subject', 'an empty subject is refused');
select is(public.save_mail_template('quote', 'tr', repeat('a', 301), 'Gövde') ->> 'code', 'invalid_subject', 'a subject over 300 characters is refused');
select is(public.save_mail_template('quote', 'tr', E'Konu\r\nBcc: x@evil.test', 'Gövde') ->> 'code', 'invalid_subject',
  'a subject with a line break (an added header) is refused');
select is(public.save_mail_template('quote', 'tr', 'Konu', E' \n ') ->> 'code', 'invalid_body', 'an empty body is refused');
select is(public.save_mail_template('quote', 'tr', 'Konu', repeat('a', 20001)) ->> 'code', 'invalid_body', 'a body over 20000 characters is refused');
select is(public.reset_mail_template('quote', 'xx') ->> 'code', 'invalid_language', 'a reset of an unknown language is refused');
select tests.reset_role();
select is((select array[subject, body] from private.mail_templates where organization_id = :'alpha'), array['İkinci konu', 'İkinci gövde'],
  'refused saves changed nothing');

-- ---------------------------------------------------------------------------------
-- Members read; everyone else is refused and changes nothing
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.get_mail_template('quote', 'tr') #>> '{template,subject}', 'İkinci konu', 'a sales member reads the organization''s template (the composer)');
select is(public.list_mail_templates() ->> 'code', 'admin_required', 'a sales member cannot list them');
select is(public.save_mail_template('quote', 'tr', 'Satışçı', 'Satışçı') ->> 'code', 'admin_required', 'nor save one');
select is(public.reset_mail_template('quote', 'tr') ->> 'code', 'admin_required', 'nor reset one');
select tests.reset_role();
select tests.authenticate_as(:'both_member', :'s_both');
select is(public.save_mail_template('quote', 'tr', 'Beta', 'Beta') ->> 'code', 'admin_required', 'admin of beta, bound to alpha as a member: cannot save alpha''s');
select is(public.reset_mail_template('quote', 'tr') ->> 'code', 'admin_required', 'nor reset alpha''s');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.get_mail_template('quote', 'tr') #>> '{template,customized}', 'false', 'beta''s admin reads beta''s (the product''s), never alpha''s');
select ok(public.list_mail_templates()::text !~ 'İkinci', 'beta''s list holds nothing of alpha''s');
select ok((public.save_mail_template('quote', 'tr', 'Beta konusu', 'Beta gövdesi') ->> 'success')::boolean, 'beta''s admin saves beta''s own');
select ok((public.reset_mail_template('quote', 'tr') ->> 'success')::boolean, 'and resets beta''s own');
select tests.act_as_anon();
select throws_ok($$select public.save_mail_template('quote', 'tr', 'Anon', 'Anon')$$, '42501', null, 'anon is refused by the grants');
select tests.reset_role();
select is((select array[subject, body] from private.mail_templates where organization_id = :'alpha'), array['İkinci konu', 'İkinci gövde'],
  'alpha''s template is untouched by all of them');
select is((select count(*)::integer from private.mail_templates where organization_id = :'beta'), 0, 'beta''s reset removed only beta''s');

-- ---------------------------------------------------------------------------------
-- Back to the product's text
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.reset_mail_template('quote', 'tr') -> 'template', :'product_quote_tr'::jsonb,
  'the admin resets it: the product''s text again');
select is(public.get_mail_template('quote', 'tr') #>> '{template,customized}', 'false', 'members read the product''s text again');
select tests.reset_role();
select is((select array[action, target_id] from private.audit_log where organization_id = :'alpha' and action = 'mail_templates.reset'),
  array['mail_templates.reset', 'quote:tr'], 'the reset is audited');
select is((select count(*)::integer from private.audit_log where organization_id = :'alpha' and action like 'mail_templates.%'), 3,
  'refused calls wrote nothing to the audit');

select * from finish();
rollback;
