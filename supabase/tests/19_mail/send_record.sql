-- A record's e-mail (19_mail.sql, issue 27): mail_begin_send with kind quote, contract or
-- contract_renewal starts a sending only for someone who may edit that record (its owner
-- with own scope, an admin), with the record's own document, valid addresses, and for a
-- quote only one that send_quote could mark sent now; within the hourly limit. The e-mail
-- is on the record's timeline and its customer's, and its result is audited about the record.
begin;
select plan(28);

select tests.create_organization('alpha', 'Alpha A.Ş.') as alpha \gset
select tests.create_organization('beta', 'Beta Ltd.') as beta \gset
select private.migrate_tenant(:'alpha');
select private.migrate_tenant(:'beta');
select schema_name as alpha_schema from private.organizations where id = :'alpha' \gset
select tests.create_user('admin@alpha.test', 'user', 'Ayşe', 'Yönetici') as alpha_admin \gset
select tests.create_user('sales@alpha.test', 'user', 'Selim', 'Satış') as alpha_sales \gset
select tests.create_user('viewer@alpha.test', 'user', 'Vedat', 'İzler') as alpha_viewer \gset
select tests.create_user('admin@beta.test', 'user', 'Berk', 'Beta') as beta_admin \gset
select tests.add_member(:'alpha_admin', :'alpha', 'admin');
select tests.add_member(:'alpha_sales', :'alpha', 'sales');
select tests.add_member(:'alpha_viewer', :'alpha', 'viewer');
select tests.add_member(:'beta_admin', :'beta', 'admin');
-- Alpha's sales role sees every record (edits only its own).
select tests.set_role_scope(:'alpha', 'sales', 'view', 'all');
select gen_random_uuid() as s_admin, gen_random_uuid() as s_sales, gen_random_uuid() as s_viewer, gen_random_uuid() as s_beta \gset
select tests.bind_session(:'alpha_admin', :'s_admin', :'alpha');
select tests.bind_session(:'alpha_sales', :'s_sales', :'alpha');
select tests.bind_session(:'alpha_viewer', :'s_viewer', :'alpha');
select tests.bind_session(:'beta_admin', :'s_beta', :'beta');

insert into :"alpha_schema".customers (name, owner_id, created_by) values ('Işık Yazılım', :'alpha_admin', :'alpha_admin')
returning id as customer \gset
insert into :"alpha_schema".contracts (customer_id, title, contract_number, owner_id, created_by)
values (:'customer', 'Bakım', 'SZL-2026-0001', :'alpha_admin', :'alpha_admin') returning id as contract \gset

select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.save_quote(null, jsonb_build_object('customer_id', :'customer'),
  '[{"description": "Kurulum", "quantity": 1, "unit_price": "100", "vat_rate": 20}]') as quote_saved \gset
select public.save_quote(null, jsonb_build_object('customer_id', :'customer'), '[]') as empty_saved \gset
select tests.reset_role();
select :'quote_saved'::jsonb ->> 'id' as quote, :'quote_saved'::jsonb ->> 'updated_at' as quote_at,
       :'empty_saved'::jsonb ->> 'id' as empty_quote, :'empty_saved'::jsonb ->> 'updated_at' as empty_at \gset

-- The quote's PDF, kept among its documents; another document on the contract.
insert into :"alpha_schema".documents (title, quote_id, current_version, owner_id, created_by)
values ('Teklif TKL', :'quote', 1, :'alpha_admin', :'alpha_admin') returning id as quote_doc \gset
insert into :"alpha_schema".document_versions (document_id, version, object_path, file_name, size_bytes, mime_type, sha256, uploaded_by)
values (:'quote_doc', 1, :'alpha' || '/' || :'quote_doc' || '/1', 'TKL-2026-00001.pdf', 1000, 'application/pdf', repeat('a', 64), :'alpha_admin');
insert into :"alpha_schema".documents (title, contract_id, current_version, owner_id, created_by)
values ('Sözleşme', :'contract', 1, :'alpha_admin', :'alpha_admin') returning id as contract_doc \gset
insert into :"alpha_schema".document_versions (document_id, version, object_path, file_name, size_bytes, mime_type, sha256, uploaded_by)
values (:'contract_doc', 1, :'alpha' || '/' || :'contract_doc' || '/1', 'SZL.pdf', 1000, 'application/pdf', repeat('b', 64), :'alpha_admin');

select jsonb_build_object('module', 'quotes', 'record_id', :'quote', 'document_id', :'quote_doc', 'updated_at', :'quote_at',
                          'cc', '["Muhasebe@Isik.test"]'::jsonb, 'body', 'Teklifimiz ekte.') as quote_mail \gset

select ok(has_function_privilege('authenticated', 'public.mail_begin_send(text, text[], text, jsonb)', 'execute')
          and not has_function_privilege('anon', 'public.mail_begin_send(text, text[], text, jsonb)', 'execute'),
  'a signed-in member may ask to start a sending; anon may not');

-- The composer starts from the organization's template: every record kind reads in both languages.
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((select count(*)::int from unnest(array['quote', 'contract', 'contract_renewal']) k, unnest(array['tr', 'en']) l
            where (public.get_mail_template(k, l) #>> '{template,body}') like '%{{sender.name}}%'),
  6, 'a record''s e-mail template (the product''s default) reads for each kind and language');

-- ---------------------------------------------------------------------------------
-- Denied: a viewer, a sales member on someone else's record, another organization, anon
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_viewer', :'s_viewer');
select is(public.mail_begin_send('quote', array['ali@isik.test'], 'Teklif', :'quote_mail') ->> 'code', 'permission_denied',
  'a viewer (no edit) cannot send a quote');
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.mail_begin_send('quote', array['ali@isik.test'], 'Teklif', :'quote_mail') ->> 'code', 'not_found',
  'a sales member cannot send another member''s quote (own edit scope)');
select is(public.mail_begin_send('contract', array['ali@isik.test'], 'Sözleşme',
  jsonb_build_object('module', 'contracts', 'record_id', :'contract', 'document_id', :'contract_doc')) ->> 'code', 'not_found',
  'nor their contract');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.mail_begin_send('quote', array['ali@isik.test'], 'Teklif', :'quote_mail') ->> 'code', 'not_found',
  'another organization''s admin: not found');
select tests.reset_role();
select tests.act_as_anon();
select throws_ok(format($$select public.mail_begin_send('quote', array['a@b.test'], 'x', %L)$$, :'quote_mail'), '42501', null,
  'anon is refused by the grants');
select tests.reset_role();
select is((select count(*)::int from private.mail_log), 0, 'no refused request started a sending');

-- ---------------------------------------------------------------------------------
-- Refused input: addresses, the document, a quote that cannot be marked sent
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.mail_begin_send('quote', array['nope'], '', :'quote_mail'::jsonb || '{"cc": ["x@"]}') -> 'fields',
  '{"to": "invalid_email", "cc": "invalid_email", "subject": "required"}', 'bad addresses and an empty subject: each field''s error');
select is(public.mail_begin_send('quote', (select array_agg('a' || i || '@isik.test') from generate_series(1, 51) i), 'Teklif', :'quote_mail') -> 'fields',
  '{"to": "invalid_email"}', 'more than 50 recipients are refused');
select is(public.mail_begin_send('quote', array['ali@isik.test'], 'Teklif', :'quote_mail'::jsonb || jsonb_build_object('document_id', :'contract_doc')) ->> 'code',
  'document_not_found', 'another record''s document is refused');
select is(public.mail_begin_send('contract', array['ali@isik.test'], 'Teklif', :'quote_mail') ->> 'code',
  'invalid_input', 'a contract''s kind with a quote is refused');
select is(public.mail_begin_send('quote', array['ali@isik.test'], 'Teklif', :'quote_mail'::jsonb || '{"updated_at": "2020-01-01T00:00:00Z"}') ->> 'code',
  'stale_record', 'a quote read before its last change is refused');
select is(public.mail_begin_send('quote', array['ali@isik.test'], 'Teklif',
  jsonb_build_object('module', 'quotes', 'record_id', :'empty_quote', 'updated_at', :'empty_at')) ->> 'code',
  'items_required', 'a quote send_quote would refuse (no lines) is refused up front, as send_quote words it');
select tests.reset_role();
select is((select count(*)::int from private.mail_log), 0, 'nothing started');

-- ---------------------------------------------------------------------------------
-- Allowed: the record's editor
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.mail_begin_send('quote', array[' Ali@Isik.test '], 'Teklifimiz – ğüşıöç', :'quote_mail') as begun \gset
select is(:'begun'::jsonb -> 'attachment',
  jsonb_build_object('object_path', :'alpha' || '/' || :'quote_doc' || '/1', 'file_name', 'TKL-2026-00001.pdf',
                     'mime_type', 'application/pdf', 'title', 'Teklif TKL'),
  'the admin starts the quote''s e-mail; the answer names the document''s latest file');
select tests.reset_role();
select is((select jsonb_build_array(kind, recipients, cc, module, record_id, customer_id, document_id, status, created_by)
             from private.mail_log where id = (:'begun'::jsonb ->> 'mail_id')::uuid),
  jsonb_build_array('quote', array['ali@isik.test'], array['muhasebe@isik.test'], 'quotes', :'quote', :'customer', :'quote_doc', 'sending', :'alpha_admin'),
  'logged as sending, with the record, its customer and the document');
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.mail_finish_send((:'begun'::jsonb ->> 'mail_id')::uuid, true) as finished \gset
reset role;
select tests.reset_role();
select is((select array[target_type, target_id, details ->> 'kind', details ->> 'recipients'] from private.audit_log
            where organization_id = :'alpha' and action = 'mail.sent'),
  array['quotes', :'quote', 'quote', '2'], 'audited as mail.sent about the quote, with how many recipients');

-- A sales member sends their own contract (own edit scope), its renewal reminder without a document.
update :"alpha_schema".contracts set owner_id = :'alpha_sales' where id = :'contract';
update :"alpha_schema".documents set owner_id = :'alpha_sales' where id = :'contract_doc';
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select ok((public.mail_begin_send('contract', array['ali@isik.test'], 'Sözleşme',
  jsonb_build_object('module', 'contracts', 'record_id', :'contract', 'document_id', :'contract_doc')) ->> 'success')::boolean,
  'a sales member sends their own contract');
select ok((public.mail_begin_send('contract_renewal', array['ali@isik.test'], 'Yenileme',
  jsonb_build_object('module', 'contracts', 'record_id', :'contract')) ->> 'success')::boolean,
  'and its renewal reminder');

-- ---------------------------------------------------------------------------------
-- The timelines: the quote's, the customer's
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select public.get_record_timeline('quotes', :'quote') as quote_timeline \gset
select is((select jsonb_build_object('to', e -> 'to', 'cc', e -> 'cc', 'subject', e ->> 'subject', 'body', e ->> 'body',
                                     'document_id', e ->> 'document_id', 'document_title', e ->> 'document_title',
                                     'status', e ->> 'status', 'by_name', e ->> 'by_name')
             from jsonb_array_elements(:'quote_timeline'::jsonb -> 'entries') e where e ->> 'kind' = 'mail'),
  jsonb_build_object('to', '["ali@isik.test"]'::jsonb, 'cc', '["muhasebe@isik.test"]'::jsonb, 'subject', 'Teklifimiz – ğüşıöç',
                     'body', 'Teklifimiz ekte.', 'document_id', :'quote_doc', 'document_title', 'Teklif TKL',
                     'status', 'sent', 'by_name', 'Ayşe Yönetici'),
  'the quote''s timeline shows the e-mail: recipients, subject, body, document, status, who');
select is((select count(*)::int from jsonb_array_elements(:'quote_timeline'::jsonb -> 'entries') e where e ->> 'action' like 'mail.%'),
  0, 'once (the audit entry is the same e-mail)');
select is((select jsonb_agg(e ->> 'subject' order by e ->> 'subject')
             from jsonb_array_elements(public.get_record_timeline('customers', :'customer') -> 'entries') e where e ->> 'kind' = 'mail'),
  '["Sözleşme", "Teklifimiz – ğüşıöç", "Yenileme"]', 'the customer''s timeline holds the e-mails of its quote and contract');
select is((select count(*)::int from jsonb_array_elements(public.get_record_timeline('contracts', :'contract') -> 'entries') e
            where e ->> 'kind' = 'mail' and e ->> 'status' = 'sending'), 2, 'the contract''s: its two, still sending');
select tests.reset_role();
update :"alpha_schema".quotes set owner_id = :'alpha_admin';
select tests.set_role_scope(:'alpha', 'sales', 'view', 'own', 'quotes');
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((select jsonb_agg(e ->> 'subject' order by e ->> 'subject')
             from jsonb_array_elements(public.get_record_timeline('customers', :'customer') -> 'entries') e where e ->> 'kind' = 'mail'),
  '["Sözleşme", "Yenileme"]', 'a member who may not see the quote does not see its e-mail on the customer');
select tests.reset_role();
update :"alpha_schema".contracts set deleted_at = now() where id = :'contract';
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is((select count(*)::int from jsonb_array_elements(public.get_record_timeline('customers', :'customer') -> 'entries') e
            where e ->> 'kind' = 'mail'), 0, 'nor a deleted contract''s e-mails');
select tests.reset_role();
update :"alpha_schema".contracts set deleted_at = null where id = :'contract';

-- ---------------------------------------------------------------------------------
-- The hourly limit counts records' e-mails too
-- ---------------------------------------------------------------------------------
select tests.reset_role();
insert into private.mail_log (organization_id, kind, recipients, subject, status)
select :'alpha', 'test', array['a@alpha.test'], 'Deneme', 'sent' from generate_series(1, 97);
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.mail_begin_send('quote', array['ali@isik.test'], 'Teklif', :'quote_mail') ->> 'code', 'mail_rate_limited',
  'over the hourly limit a record''s e-mail is refused');
select tests.reset_role();
select is((select status from :"alpha_schema".quotes where id = :'quote'), 'draft', 'starting an e-mail never marks the quote sent (the function does, once accepted)');

select * from finish();
rollback;
