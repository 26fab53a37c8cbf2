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
