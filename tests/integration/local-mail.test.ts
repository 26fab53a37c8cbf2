/**
 * The local product's mail server (scripts/stack/mail-catcher.ts) and its routes (server.ts,
 * serveCaughtMail): a message sent over SMTP is kept, decoded and readable at /_stack/mail
 * with the secret key from this machine only; the inbox page escapes what it shows.
 */
import { request } from "node:http";
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailCatcher, type CaughtMessage } from "../../scripts/stack/mail-catcher.ts";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { testKeys as keys } from "../support/keys.ts";

let stack: RunningStack;

beforeAll(async () => {
  // 127.0.0.2 is a trusted proxy: what it forwards comes from the address it names.
  stack = await startStack({ port: await freePort(), keys, trustedProxies: "127.0.0.2" });
});

afterAll(async () => {
  await stack?.stop();
});

const send = (port: number, message: Parameters<ReturnType<typeof createTransport>["sendMail"]>[0]) =>
  createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, auth: { user: "demo", pass: "anything" } }).sendMail(message);

const pdf = Buffer.from("%PDF-1.4\n% teklif\n", "latin1");

/** GET from this machine (127.0.0.1), or through the trusted proxy for another address. */
function get(path: string, { key, forwardedFor }: { key?: string; forwardedFor?: string } = {}): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: new URL(stack.url).port,
        path,
        localAddress: forwardedFor ? "127.0.0.2" : undefined,
        agent: false,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
      },
      (incoming) => {
        const parts: Buffer[] = [];
        incoming.on("data", (part: Buffer) => parts.push(part));
        incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(parts), headers: incoming.headers }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const messages = async () => (JSON.parse((await get("/_stack/mail", { key: keys.secretKey })).body.toString()) as { messages: CaughtMessage[] }).messages;

describe("the local mail server", () => {
  it("keeps a message with its Turkish subject decoded, its recipients and its attachment", async () => {
    await send(stack.mail.port, {
      from: '"Demo Ticaret A.Ş." <satis@demo.test>',
      to: "Çağrı Şahin <cagri@musteri.test>",
      cc: "muhasebe@musteri.test",
      subject: "Teklif TKL-2026-0001: İşığın Güneşi Öneriniz",
      text: "Sayın Çağrı Bey,\nteklifimiz ektedir.",
      attachments: [{ filename: "TKL-2026-0001.pdf", content: pdf, contentType: "application/pdf" }],
    });
    const [message] = await messages();
    expect(message).toMatchObject({
      from: "satis@demo.test",
      to: ["cagri@musteri.test"],
      cc: ["muhasebe@musteri.test"],
      envelope: { from: "satis@demo.test", to: ["cagri@musteri.test", "muhasebe@musteri.test"] },
      subject: "Teklif TKL-2026-0001: İşığın Güneşi Öneriniz",
      attachments: [{ filename: "TKL-2026-0001.pdf", contentType: "application/pdf", size: pdf.length }],
    });
    expect(message.text).toContain("Sayın Çağrı Bey,");
    const attachment = await get(`/_stack/mail/${message.id}/attachments/0`, { key: keys.secretKey });
    expect(attachment.status).toBe(200);
    expect(attachment.headers["content-type"]).toBe("application/pdf");
    expect(attachment.body.equals(pdf)).toBe(true);
    expect((await get(`/_stack/mail/${message.id}/attachments/1`, { key: keys.secretKey })).status).toBe(404);
  });

  it("answers the JSON only with the secret key, and only to this machine", async () => {
    expect((await get("/_stack/mail")).status).toBe(401);
    expect((await get("/_stack/mail", { key: keys.publishableKey })).status).toBe(401);
    expect((await get("/_stack/mail", { key: keys.secretKey, forwardedFor: "203.0.113.9" })).status).toBe(403);
    const [message] = await messages();
    expect((await get(`/_stack/mail/${message.id}/attachments/0`)).status).toBe(401);
    expect((await get(`/_stack/mail/${message.id}/attachments/0`, { key: keys.secretKey, forwardedFor: "203.0.113.9" })).status).toBe(403);
  });

  it("shows the inbox page to this machine only, with every text escaped and no script allowed", async () => {
    await send(stack.mail.port, { from: "a@demo.test", to: "b@demo.test", subject: "<script>alert(1)</script> Özel", text: "<img src=x onerror=alert(2)>" });
    const page = await get("/_stack/mail/inbox");
    expect(page.status).toBe(200);
    const html = page.body.toString();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Özel");
    expect(html).toContain("&lt;img src=x onerror=alert(2)&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect((await get("/_stack/mail/inbox", { forwardedFor: "203.0.113.9" })).status).toBe(403);
  });

  it("empties on DELETE with the secret key, and not without it", async () => {
    const remove = (key?: string) => fetch(`${stack.url}/_stack/mail`, { method: "DELETE", headers: key ? { authorization: `Bearer ${key}` } : {} });
    expect((await remove()).status).toBe(401);
    expect((await messages()).length).toBeGreaterThan(0);
    expect((await remove(keys.secretKey)).status).toBe(204);
    expect(await messages()).toEqual([]);
  });

  it("keeps only the newest messages beyond its bound, newest first", async () => {
    const catcher = await startMailCatcher({ keep: 2 });
    try {
      for (const subject of ["bir", "iki", "üç"]) await send(catcher.port, { from: "a@demo.test", to: "b@demo.test", subject, text: subject });
      expect(catcher.messages().map((message) => message.subject)).toEqual(["üç", "iki"]);
    } finally {
      await catcher.close();
    }
  });
});
