/**
 * The mail function through the local stack (issue 27, parts 2 and 3): an organization's SMTP
 * settings with the password sealed outside the database, the admin's test e-mail through
 * the organization's own server or the installation's (the stack's mail server), and each
 * failure in the product's words with the mail recorded as failed: a refused login, a server
 * that is not there, one that never answers.
 */
import { createServer, type Server } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { CaughtMessage } from "../../scripts/stack/mail-catcher.ts";
import { freePort } from "../../scripts/stack/free-port.ts";
import { rpc, signedInClient } from "../support/clients.ts";
import { invokeFunction, requestToken } from "../support/functions.ts";
import { testKeys } from "../support/keys.ts";

const url = inject("stackUrl");
const mailPort = inject("mailPort");

const caughtTo = async (address: string): Promise<CaughtMessage[]> => {
  const answer = await fetch(`${url}/_stack/mail`, { headers: { authorization: `Bearer ${testKeys.secretKey}` } });
  return ((await answer.json()) as { messages: CaughtMessage[] }).messages.filter((message) => message.envelope.to.includes(address));
};

/** An SMTP server that refuses every login (and keeps what it was given, to check the unsealed password). */
let refusing: SMTPServer;
const logins: { username?: string; password?: string }[] = [];
let refusingPort: number;
/** A server that takes the connection and never says a word. */
let silent: Server;
let silentPort: number;

beforeAll(async () => {
  refusing = new SMTPServer({
    authOptional: false,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) => {
      logins.push({ username: auth.username ?? undefined, password: auth.password ?? undefined });
      callback(new Error("Invalid username or password"));
    },
  });
  refusingPort = await freePort();
  await new Promise<void>((resolve) => refusing.listen(refusingPort, "127.0.0.1", resolve));
  silent = createServer(() => {});
  silentPort = await freePort();
  await new Promise<void>((resolve) => silent.listen(silentPort, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => refusing.close(() => resolve()));
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

async function admin(email = "admin@acme.test") {
  const { client } = await signedInClient(url, email);
  const token = await requestToken(client);
  return {
    client,
    call: (body: unknown) => invokeFunction(client, "mail", body, token),
  };
}

const settingsFor = (port: number) => ({
  host: "127.0.0.1", port, security: "none", username: "satis@acme.test", sender_name: "Acme Satış", sender_address: "satis@acme.test", reply_to: "cevap@acme.test",
});

describe("the mail function", () => {
  it("sends the admin's test e-mail through the installation's mail when the organization has none", async () => {
    const { call } = await admin("admin@demo.test");
    const to = `deneme-${Date.now()}@demo.test`;
    const answer = await call({ action: "send_test", to });
    expect(answer).toEqual({ status: 200, body: { success: true } });
    const [message] = await caughtTo(to);
    expect(message).toMatchObject({ subject: "Satış CRM: deneme e-postası", from: "no-reply@satis-crm.local" });
    expect(message.text).toContain("Demo Ticaret A.Ş.");
  });

  it("keeps the password sealed: no RPC the admin may call gives it back", async () => {
    const { client, call } = await admin();
    const saved = await call({ action: "save_settings", settings: settingsFor(mailPort), password: "Acme.Gizli-42" });
    expect(saved.status).toBe(200);
    expect(JSON.stringify(saved.body)).not.toContain("Acme.Gizli-42");
    const read = await rpc(client, "get_mail_settings");
    expect(read.settings).toMatchObject({ host: "127.0.0.1", port: mailPort, has_password: true, sender_address: "satis@acme.test" });
    expect(JSON.stringify(read)).not.toMatch(/Acme\.Gizli|password_sealed|v1:/);
    // Only the mail function's secret key reads the sealed text; a signed-in admin cannot.
    const { error } = await client.rpc("mail_delivery_settings", { p_mail_id: crypto.randomUUID() });
    expect(error?.code).toBe("42501");

    const to = `kendi-${Date.now()}@acme.test`;
    expect(await call({ action: "send_test", to, language: "en" })).toEqual({ status: 200, body: { success: true } });
    const [message] = await caughtTo(to);
    expect(message).toMatchObject({ from: "satis@acme.test", replyTo: "cevap@acme.test", subject: "Satış CRM: test e-mail" });
  });

  it("says a refused login in words", async () => {
    const { call } = await admin();
    await call({ action: "save_settings", settings: settingsFor(refusingPort), password: "Yanlis.Sifre-1" });
    expect(await call({ action: "send_test", to: "biri@acme.test" })).toMatchObject({ status: 502, body: { success: false, code: "smtp_auth_failed" } });
    // The server was given the password the admin entered, unsealed by the function.
    expect(logins.at(-1)).toEqual({ username: "satis@acme.test", password: "Yanlis.Sifre-1" });
  });

  it("says a server that is not there, or never answers, is unreachable (within the timeout)", async () => {
    const { call } = await admin();
    await call({ action: "save_settings", settings: settingsFor(await freePort()), password: null });
    expect(await call({ action: "send_test", to: "biri@acme.test" })).toMatchObject({ status: 502, body: { code: "smtp_unreachable" } });
    await call({ action: "save_settings", settings: settingsFor(silentPort) });
    const started = Date.now();
    expect(await call({ action: "send_test", to: "biri@acme.test" })).toMatchObject({ status: 502, body: { code: "smtp_unreachable" } });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect((await call({ action: "clear_settings" })).status).toBe(200);
  });

  it("refuses a sales member, and another organization's admin reads only their own settings", async () => {
    const sales = await admin("satis@demo.test");
    expect(await sales.call({ action: "send_test", to: "biri@demo.test" })).toMatchObject({ status: 403, body: { code: "admin_required" } });
    expect(await sales.call({ action: "save_settings", settings: settingsFor(mailPort), password: "x" })).toMatchObject({ status: 403 });
    const demoAdmin = await admin("admin@demo.test");
    expect((await rpc(demoAdmin.client, "get_mail_settings")).settings).toBeNull();
  });
});

describe("a quote's e-mail (send_record)", () => {
  /** A draft quote of acme with one KDV line, for a new customer. */
  async function draftQuote(client: Awaited<ReturnType<typeof admin>>["client"]) {
    const customer = await rpc(client, "create_customer", { p_values: { name: `Işık Yazılım ${Date.now()}` } });
    const saved = await rpc(client, "save_quote", {
      p_id: null,
      p_values: { customer_id: (customer.record as { id: string }).id },
      p_items: [{ description: "Kurulum", quantity: "1", unit_price: "1000", vat_rate: 20 }],
    });
    return { id: saved.id as string, updated_at: saved.updated_at as string };
  }

  const mailOf = (quote: { id: string; updated_at: string }) => ({
    action: "send_record", module: "quotes", record_id: quote.id, kind: "quote", to: ["ali@isik.test"], cc: [],
    subject: "Teklifimiz – ğüşıöç", body: "Teklifimiz ekte.", document_id: null, updated_at: quote.updated_at,
  });

  async function expectDraftWithFailedMail(client: Awaited<ReturnType<typeof admin>>["client"], id: string, code: string) {
    const details = await rpc(client, "get_quote_details", { p_id: id });
    expect(details.quote).toMatchObject({ status: "draft", locked: false });
    const timeline = await rpc(client, "get_record_timeline", { p_module: "quotes", p_id: id });
    expect((timeline.entries as { kind: string }[]).filter((entry) => entry.kind === "mail")).toMatchObject([
      { subject: "Teklifimiz – ğüşıöç", to: ["ali@isik.test"], status: "failed", error_code: code },
    ]);
  }

  it("a wrong SMTP password: smtp_auth_failed, the quote stays a draft, the failed e-mail on its timeline", async () => {
    const { client, call } = await admin();
    await call({ action: "save_settings", settings: settingsFor(refusingPort), password: "Yanlis.Sifre-1" });
    const quote = await draftQuote(client);
    expect(await call(mailOf(quote))).toMatchObject({ status: 502, body: { success: false, code: "smtp_auth_failed" } });
    await expectDraftWithFailedMail(client, quote.id, "smtp_auth_failed");
  });

  it("an unreachable server: smtp_unreachable within the timeout, the quote stays a draft", async () => {
    const { client, call } = await admin();
    await call({ action: "save_settings", settings: settingsFor(silentPort), password: null });
    const quote = await draftQuote(client);
    const started = Date.now();
    expect(await call(mailOf(quote))).toMatchObject({ status: 502, body: { success: false, code: "smtp_unreachable" } });
    expect(Date.now() - started).toBeLessThan(8_000);
    await expectDraftWithFailedMail(client, quote.id, "smtp_unreachable");
  });

  it("an accepted message: caught as written, the quote then sent and locked", async () => {
    const { client, call } = await admin();
    await call({ action: "save_settings", settings: settingsFor(mailPort), password: "Acme.Gizli-42" });
    const quote = await draftQuote(client);
    const to = `ali-${Date.now()}@isik.test`;
    expect(await call({ ...mailOf(quote), to: [to], cc: ["muhasebe@isik.test"] })).toEqual({ status: 200, body: expect.objectContaining({ success: true }) });
    const [message] = await caughtTo(to);
    expect(message).toMatchObject({ subject: "Teklifimiz – ğüşıöç", cc: ["muhasebe@isik.test"] });
    expect(message.text?.trim()).toBe("Teklifimiz ekte.");
    expect((await rpc(client, "get_quote_details", { p_id: quote.id })).quote).toMatchObject({ status: "sent", locked: true });
    expect((await call({ action: "clear_settings" })).status).toBe(200);
  });
});
