-- The organization's mail settings and the mail log (19_mail.sql): the settings are read and
-- saved by the bound organization's admin only (not a sales member, not another
-- organization's admin, not a person who is admin elsewhere but bound here as a member, not
-- anon); the password, as sealed by the mail function, never comes back from an RPC the
-- browser may call; a sending is started by the admin within the hourly limit; reading the
-- settings to send and recording the result are for the mail function's secret key only.
begin;
select plan(37);

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

-- ---------------------------------------------------------------------------------
-- Grants: what the browser may call, and what only the secret key may
-- ---------------------------------------------------------------------------------
select ok(not has_function_privilege('anon', 'public.get_mail_settings()', 'execute'), 'anon cannot read mail settings');
select ok(not has_function_privilege('anon', 'public.save_mail_settings(jsonb)', 'execute'), 'anon cannot save mail settings');
select ok(not has_function_privilege('authenticated', 'public.mail_delivery_settings(uuid)', 'execute'),
  'a signed-in caller cannot read the settings a mail is sent with (the sealed password)');
select ok(not has_function_privilege('authenticated', 'public.mail_finish_send(uuid, boolean, text)', 'execute'),
  'a signed-in caller cannot record a mail as sent');
select ok(has_function_privilege('service_role', 'public.mail_delivery_settings(uuid)', 'execute')
          and has_function_privilege('service_role', 'public.mail_finish_send(uuid, boolean, text)', 'execute'),
  'the mail function''s secret key may');

-- ---------------------------------------------------------------------------------
-- Saving and reading
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.get_mail_settings(), '{"success": true, "settings": null}', 'no settings yet: null (the installation''s mail)');
select is((public.save_mail_settings('{"host": "smtp.alpha.test", "port": 587, "security": "starttls", "username": "satis@alpha.test",
  "password_sealed": "v1:SEALED-BY-THE-FUNCTION", "sender_name": "Alpha Satış", "sender_address": " Satis@Alpha.test ", "reply_to": ""}') #> '{settings}') - 'updated_at',
  jsonb_build_object('host', 'smtp.alpha.test', 'port', 587, 'security', 'starttls', 'username', 'satis@alpha.test', 'has_password', true,
                     'sender_name', 'Alpha Satış', 'sender_address', 'satis@alpha.test', 'reply_to', null),
  'the admin saves the settings; the answer says a password is kept, and not which');
select ok(public.get_mail_settings()::text !~ 'SEALED', 'the sealed password never comes back from get_mail_settings');
select ok(public.save_mail_settings('{"host": "smtp.alpha.test", "port": 2525, "security": "starttls", "username": "satis@alpha.test",
  "sender_name": "Alpha Satış", "sender_address": "satis@alpha.test"}')::text !~ 'SEALED', 'nor from a save');
select tests.reset_role();
select is((select password_sealed from private.mail_settings where organization_id = :'alpha'), 'v1:SEALED-BY-THE-FUNCTION',
  'a save without a password keeps the one kept');
select is((select details from private.audit_log where organization_id = :'alpha' and action = 'settings.mail' order by id desc limit 1),
  '{"fields": ["port"]}', 'audited with the names of what changed (never a password)');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.save_mail_settings('{"host": "bad host", "port": 70000, "security": "ssl", "sender_address": "nope", "reply_to": "x@", "password_sealed": 5}') -> 'fields',
  '{"host": "invalid", "port": "invalid", "security": "invalid", "sender_address": "invalid_email", "reply_to": "invalid_email", "password": "invalid"}',
  'bad settings: every field''s error');
select is(public.save_mail_settings('{"host": "smtp.alpha.test", "port": 25, "security": "none", "sender_address": "a@alpha.test", "password": "clear"}') ->> 'code',
  'invalid_fields', 'a password in clear is not a field the database takes');
select tests.reset_role();
select is((select port from private.mail_settings where organization_id = :'alpha'), 2525, 'refused saves changed nothing');

-- ---------------------------------------------------------------------------------
-- Denied: a sales member, another organization's admin, admin elsewhere bound here, anon
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.get_mail_settings() ->> 'code', 'admin_required', 'a sales member cannot read them');
select is(public.save_mail_settings('{"host": "evil.test", "port": 25, "security": "none", "sender_address": "a@evil.test"}') ->> 'code',
  'admin_required', 'nor save them');
select tests.reset_role();
select tests.authenticate_as(:'both_member', :'s_both');
select is(public.get_mail_settings() ->> 'code', 'admin_required', 'admin of beta, bound to alpha as a member: not alpha''s');
select is(public.save_mail_settings('{"clear": true}') ->> 'code', 'admin_required', 'nor may they clear alpha''s');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select is(public.get_mail_settings(), '{"success": true, "settings": null}', 'beta''s admin reads beta''s (none), never alpha''s');
select is(public.save_mail_settings('{"host": "smtp.beta.test", "port": 465, "security": "tls", "sender_address": "info@beta.test"}') #>> '{settings,host}',
  'smtp.beta.test', 'and saves beta''s own');
select tests.reset_role();
select is((select host from private.mail_settings where organization_id = :'alpha'), 'smtp.alpha.test', 'alpha''s are untouched');
select tests.act_as_anon();
select throws_ok('select public.get_mail_settings()', '42501', null, 'anon is refused by the grants');
select tests.reset_role();

-- ---------------------------------------------------------------------------------
-- Sending: started by the admin within the limit; the rest is the mail function's
-- ---------------------------------------------------------------------------------
select tests.reset_role();
select tests.authenticate_as(:'alpha_sales', :'s_sales');
select is(public.mail_begin_send('test', array['a@alpha.test'], 'Deneme') ->> 'code', 'admin_required', 'a sales member cannot send a test');
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.mail_begin_send('test', array['not-an-address'], 'Deneme') -> 'fields', '{"to": "invalid_email"}', 'a bad recipient is refused');
select is(public.mail_begin_send('password_reset', array['a@alpha.test'], 'Deneme') ->> 'code', 'invalid_input', 'a kind not started here is refused');
select public.mail_begin_send('test', array[' Ben@Alpha.test '], 'Deneme') ->> 'mail_id' as mail_id \gset
select tests.reset_role();
select is((select array[status, array_to_string(recipients, ','), created_by::text] from private.mail_log where id = :'mail_id'),
  array['sending', 'ben@alpha.test', :'alpha_admin'], 'a started mail: sending, to the cleaned address, by the admin');
-- As the mail function (its secret key: service_role), the answers kept for the checks below.
select tests.set_request_identity('service_role', '', '{"role": "service_role"}');
select public.mail_delivery_settings(:'mail_id') as delivery,
       public.mail_finish_send(:'mail_id', false, 'smtp_auth_failed') as finished \gset
select public.mail_finish_send(:'mail_id', true) as finished_again,
       public.mail_delivery_settings(:'mail_id') as delivery_after \gset
reset role;
select tests.reset_role();
select is(:'delivery'::jsonb #>> '{settings,password_sealed}', 'v1:SEALED-BY-THE-FUNCTION',
  'the mail function reads the sealed password of the started mail''s organization');
select is(:'delivery'::jsonb ->> 'organization_name', 'Alpha A.Ş.', 'and the organization''s name');
select is(:'finished'::jsonb ->> 'success', 'true', 'records the failure');
select is(:'finished_again'::jsonb ->> 'code', 'not_found', 'a mail is finished once');
select is(:'delivery_after'::jsonb ->> 'code', 'not_found', 'a finished mail''s settings are not read again');
select is((select array[status, error_code] from private.mail_log where id = :'mail_id'), array['failed', 'smtp_auth_failed'], 'failed, with why');
select is((select array[actor_id::text, details ->> 'error_code', details ->> 'recipients'] from private.audit_log
            where organization_id = :'alpha' and action = 'mail.failed'),
  array[:'alpha_admin', 'smtp_auth_failed', '1'], 'audited as the admin''s, without the address');

-- The hourly limit: 100 sendings of the last hour (failed ones too) stop the next.
insert into private.mail_log (organization_id, kind, recipients, subject, status)
select :'alpha', 'test', array['a@alpha.test'], 'Deneme', 'sent' from generate_series(1, 99);
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select is(public.mail_begin_send('test', array['a@alpha.test'], 'Deneme') ->> 'code', 'mail_rate_limited', 'the 101st in an hour is refused');
select tests.reset_role();
select tests.authenticate_as(:'beta_admin', :'s_beta');
select ok((public.mail_begin_send('test', array['a@beta.test'], 'Deneme') ->> 'success')::boolean, 'another organization''s limit is its own');
select tests.reset_role();
update private.mail_log set created_at = now() - interval '61 minutes' where organization_id = :'alpha';
select tests.reset_role();
select tests.authenticate_as(:'alpha_admin', :'s_admin');
select ok((public.mail_begin_send('test', array['a@alpha.test'], 'Deneme') ->> 'success')::boolean, 'an hour later alpha may send again');
select is(public.save_mail_settings('{"clear": true}'), '{"success": true, "settings": null}', 'the admin clears the settings');
select tests.reset_role();

select * from finish();
rollback;
