import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { SupabaseClient } from "@supabase/supabase-js";
import { fakeCaller, privilegedRequest } from "../_shared/fake-caller.ts";
import { createHandler, type MailEnvironment } from "./handler.ts";
import { seal, sealingKey, unseal } from "./seal.ts";
import { smtpFailure, type Message, type SmtpSettings } from "./smtp.ts";

const mailId = "0b000000-0000-4000-8000-0000000000aa";
const keyText = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));
const ownSettings = {
  host: "smtp.ornek.com.tr", port: 587, security: "starttls", username: "satis@ornek.com.tr",
  password_sealed: null as string | null, sender_name: "Ornek Satış", sender_address: "satis@ornek.com.tr", reply_to: null,
};

/** The handler with a fake caller, a fake secret-key client answering `delivery`, and a recording sender. */
function setup({ delivery, installation = null, sendError }: {
  delivery: unknown;
  installation?: ReturnType<MailEnvironment["installation"]>;
  sendError?: unknown;
}) {
  const caller = fakeCaller({ answers: { mail_begin_send: { data: { success: true, mail_id: mailId }, error: null } } });
  const service = fakeCaller({ answers: { mail_delivery_settings: { data: delivery, error: null } } });
  const sent: { settings: SmtpSettings; message: Message }[] = [];
  const handler = createHandler(caller.factory, {
    service: () => service.factory("Bearer secret") as SupabaseClient,
    key: () => sealingKey(keyText),
    installation: () => installation,
    send: (settings, message) => {
      sent.push({ settings, message });
      return sendError ? Promise.reject(sendError) : Promise.resolve();
    },
    download: () => Promise.resolve(null),
  });
  return { handler, caller, service, sent };
}

Deno.test("seals a password so that only the same key opens it", async () => {
  const key = (await sealingKey(keyText))!;
  const sealed = await seal(key, "Gizli.Şifre-1");
  assert(sealed.startsWith("v1:") && !sealed.includes("Gizli"));
  assertEquals(await unseal(key, sealed), "Gizli.Şifre-1");
  const other = (await sealingKey(btoa(String.fromCharCode(...new Uint8Array(32).fill(9)))))!;
  assertEquals(await unseal(other, sealed), null);
  assertEquals(await unseal(key, sealed.slice(0, -4) + "AAAA"), null);
});

Deno.test("saves the settings with the password sealed, never in clear", async () => {
  const { handler, caller } = setup({ delivery: null });
  const settings = { host: "smtp.ornek.com.tr", port: 587, security: "starttls", username: "u", sender_name: null, sender_address: "a@ornek.com.tr", reply_to: null };
  const response = await handler(privilegedRequest("mail", { action: "save_settings", settings, password: "Gizli.1" }));
  assertEquals(response.status, 200);
  const call = caller.calls.find((each) => each.name === "save_mail_settings")!;
  const saved = call.args.p_settings as Record<string, unknown>;
  assert(typeof saved.password_sealed === "string" && !JSON.stringify(call.args).includes("Gizli.1"));
  assertEquals(await unseal((await sealingKey(keyText))!, saved.password_sealed as string), "Gizli.1");
  // Without a password the kept one stays (no password_sealed sent); null removes it.
  await handler(privilegedRequest("mail", { action: "save_settings", settings }));
  assertEquals("password_sealed" in (caller.calls.at(-1)!.args.p_settings as object), false);
  await handler(privilegedRequest("mail", { action: "save_settings", settings, password: null }));
  assertEquals((caller.calls.at(-1)!.args.p_settings as Record<string, unknown>).password_sealed, null);
});

Deno.test("sends a test with the organization's own settings and records it sent", async () => {
  const key = (await sealingKey(keyText))!;
  const { handler, service, sent } = setup({
    delivery: { success: true, organization_name: "Ornek A.Ş.", settings: { ...ownSettings, password_sealed: await seal(key, "Gizli.1") } },
  });
  const response = await handler(privilegedRequest("mail", { action: "send_test", to: "ben@ornek.com.tr" }));
  assertEquals(response.status, 200);
  assertEquals(sent[0].settings, { host: "smtp.ornek.com.tr", port: 587, security: "starttls", username: "satis@ornek.com.tr", password: "Gizli.1" });
  assertEquals(sent[0].message.from, { name: "Ornek Satış", address: "satis@ornek.com.tr" });
  assertEquals(sent[0].message.subject, "Satış CRM: deneme e-postası");
  assertEquals(service.calls.at(-1), { name: "mail_finish_send", args: { p_mail_id: mailId, p_sent: true, p_error_code: null } });
});

Deno.test("says why a sending failed, and records it failed", async () => {
  for (const [error, code] of [
    [Object.assign(new Error("Invalid login"), { code: "EAUTH", responseCode: 535 }), "smtp_auth_failed"],
    [Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET" }), "smtp_unreachable"],
    [Object.assign(new Error("Greeting never received"), { code: "ETIMEDOUT" }), "smtp_unreachable"],
    [Object.assign(new Error("Recipient refused"), { code: "EENVELOPE", responseCode: 550 }), "recipient_refused"],
  ] as const) {
    const { handler, service } = setup({ delivery: { success: true, organization_name: "Ornek A.Ş.", settings: ownSettings }, sendError: error });
    const response = await handler(privilegedRequest("mail", { action: "send_test", to: "ben@ornek.com.tr" }));
    assertEquals(response.status, 502);
    assertEquals((await response.json()).code, code);
    assertEquals(service.calls.at(-1)!.args, { p_mail_id: mailId, p_sent: false, p_error_code: code });
  }
});

Deno.test("uses the installation's mail for an organization without its own, and says when there is none", async () => {
  const installation = { host: "127.0.0.1", port: 2525, security: "none" as const, username: null, password: null, from: "Satış CRM <no-reply@crm.local>" };
  const { handler, sent } = setup({ delivery: { success: true, organization_name: "Ornek A.Ş.", settings: null }, installation });
  assertEquals((await handler(privilegedRequest("mail", { action: "send_test", to: "ben@ornek.com.tr", language: "en" }))).status, 200);
  assertEquals(sent[0].message.from, { name: "Ornek A.Ş.", address: "no-reply@crm.local" });
  assertEquals(sent[0].message.subject, "Satış CRM: test e-mail");
  const none = setup({ delivery: { success: true, organization_name: "Ornek A.Ş.", settings: null } });
  const response = await none.handler(privilegedRequest("mail", { action: "send_test", to: "ben@ornek.com.tr" }));
  assertEquals([response.status, (await response.json()).code], [409, "mail_not_configured"]);
  assertEquals(none.sent, []);
});

Deno.test("does not send when the database refuses to start (not an admin, hourly limit)", async () => {
  const caller = fakeCaller({ answers: { mail_begin_send: { data: { success: false, code: "mail_rate_limited", error: "Too many e-mails this hour" }, error: null } } });
  const sent: unknown[] = [];
  const handler = createHandler(caller.factory, {
    service: () => { throw new Error("the secret-key client must not be used"); },
    key: () => sealingKey(keyText),
    installation: () => null,
    send: () => Promise.resolve(void sent.push(1)),
    download: () => Promise.resolve(null),
  });
  const response = await handler(privilegedRequest("mail", { action: "send_test", to: "ben@ornek.com.tr" }));
  assertEquals(response.status, 429);
  assertEquals(sent, []);
});

Deno.test("maps nodemailer's errors", () => {
  assertEquals(smtpFailure({ code: "ETLS" }), "smtp_tls_failed");
  assertEquals(smtpFailure({ code: "EMESSAGE" }), "smtp_failed");
  assertEquals(smtpFailure(undefined), "smtp_failed");
});

const quoteId = "0b000000-0000-4000-8000-000000000001";
const pdf = new TextEncoder().encode("%PDF-1.7 teklif");
const recordRequest = {
  action: "send_record", module: "quotes", record_id: quoteId, kind: "quote", to: ["ali@isik.com.tr"], cc: ["muhasebe@isik.com.tr"],
  subject: "TKL-2026-0001 numaralı teklifimiz – ğüşıöç", body: "Sayın Ali Bey,\n\nTeklifimiz ekte.", document_id: "0b000000-0000-4000-8000-0000000000d0",
  updated_at: "2026-11-28T10:00:00.000Z",
};

/** The handler for a record's e-mail: the caller starts it (with the attachment's path) and may mark the quote; a recording sender. */
function recordSetup(sendError?: unknown) {
  const order: string[] = [];
  const caller = fakeCaller({
    answers: {
      mail_begin_send: {
        data: { success: true, mail_id: mailId, attachment: { object_path: "org/doc/2", file_name: "TKL-2026-0001.pdf", mime_type: "application/pdf" } },
        error: null,
      },
      send_quote: { data: { success: true, status: "sent" }, error: null },
    },
  });
  const service = fakeCaller({ answers: { mail_delivery_settings: { data: { success: true, organization_name: "Ornek A.Ş.", settings: ownSettings }, error: null } } });
  const sent: Message[] = [];
  const handler = createHandler((authorization, headers) => {
    const client = caller.factory(authorization, headers);
    return { ...client, auth: client.auth, rpc: (name: string, args: Record<string, unknown>) => (order.push(`caller:${name}`), client.rpc(name, args)) } as unknown as SupabaseClient;
  }, {
    service: () => {
      const client = service.factory("Bearer secret");
      return { rpc: (name: string, args: Record<string, unknown>) => (order.push(`service:${name}`), client.rpc(name, args)) } as unknown as SupabaseClient;
    },
    key: () => sealingKey(keyText),
    installation: () => null,
    send: (_settings, message) => {
      order.push("smtp");
      sent.push(message);
      return sendError ? Promise.reject(sendError) : Promise.resolve();
    },
    download: (path) => Promise.resolve(path === "org/doc/2" ? pdf : null),
  });
  return { handler, caller, service, sent, order };
}

Deno.test("sends a quote with its PDF, then marks it sent as the caller, then records it sent", async () => {
  const { handler, caller, service, sent, order } = recordSetup();
  const response = await handler(privilegedRequest("mail", recordRequest));
  assertEquals(response.status, 200);
  assertEquals(caller.calls.find((call) => call.name === "mail_begin_send")!.args, {
    p_kind: "quote", p_recipients: ["ali@isik.com.tr"], p_subject: recordRequest.subject,
    p_record: { module: "quotes", record_id: quoteId, cc: ["muhasebe@isik.com.tr"], body: recordRequest.body,
                document_id: recordRequest.document_id, updated_at: recordRequest.updated_at },
  });
  assertEquals(sent[0].to, ["ali@isik.com.tr"]);
  assertEquals(sent[0].cc, ["muhasebe@isik.com.tr"]);
  assertEquals(sent[0].subject, recordRequest.subject);
  assertEquals(sent[0].attachments, [{ filename: "TKL-2026-0001.pdf", content: pdf, contentType: "application/pdf" }]);
  assertEquals(order.filter((step) => !step.endsWith("verify_request_token")),
    ["caller:mail_begin_send", "service:mail_delivery_settings", "smtp", "caller:send_quote", "service:mail_finish_send"]);
  assertEquals(caller.calls.find((call) => call.name === "send_quote")!.args, { p_id: quoteId, p_updated_at: recordRequest.updated_at });
  assertEquals(service.calls.at(-1)!.args, { p_mail_id: mailId, p_sent: true, p_error_code: null });
});

Deno.test("a refused login or an unreachable server: recorded failed, the quote never marked sent", async () => {
  for (const [error, code] of [
    [Object.assign(new Error("Invalid login"), { code: "EAUTH", responseCode: 535 }), "smtp_auth_failed"],
    [Object.assign(new Error("connect ECONNREFUSED"), { code: "ESOCKET" }), "smtp_unreachable"],
    [Object.assign(new Error("Connection timeout"), { code: "ETIMEDOUT" }), "smtp_unreachable"],
  ] as const) {
    const { handler, caller, service } = recordSetup(error);
    const response = await handler(privilegedRequest("mail", recordRequest));
    assertEquals([response.status, (await response.json()).code], [502, code]);
    assertEquals(caller.calls.some((call) => call.name === "send_quote"), false);
    assertEquals(service.calls.at(-1)!.args, { p_mail_id: mailId, p_sent: false, p_error_code: code });
  }
});

Deno.test("a contract's e-mail is not a quote: nothing is marked; a missing file sends nothing", async () => {
  const contract = recordSetup();
  const response = await contract.handler(privilegedRequest("mail", { ...recordRequest, module: "contracts", kind: "contract_renewal", updated_at: undefined }));
  assertEquals(response.status, 200);
  assertEquals(contract.caller.calls.some((call) => call.name === "send_quote"), false);

  const service = fakeCaller({ answers: { mail_delivery_settings: { data: { success: true, organization_name: "Ornek A.Ş.", settings: ownSettings }, error: null } } });
  const begun = { success: true, mail_id: mailId, attachment: { object_path: "gone", file_name: "x.pdf", mime_type: "application/pdf" } };
  const handler = createHandler(fakeCaller({ answers: { mail_begin_send: { data: begun, error: null } } }).factory, {
    service: () => service.factory("Bearer secret") as SupabaseClient,
    key: () => sealingKey(keyText),
    installation: () => null,
    send: () => Promise.reject(new Error("must not send")),
    download: () => Promise.resolve(null),
  });
  const refused = await handler(privilegedRequest("mail", recordRequest));
  assertEquals([refused.status, (await refused.json()).code], [409, "attachment_unreadable"]);
  assertEquals(service.calls.at(-1)!.args, { p_mail_id: mailId, p_sent: false, p_error_code: "attachment_unreadable" });
});
