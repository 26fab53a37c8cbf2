import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { fakeMailEnvironment } from "../mail/fake-environment.ts";
import { fillTemplate } from "../mail/template.ts";
import { clientAddress, createHandler, siteUrlFrom } from "./handler.ts";

const token = "tOkEn_0123456789-abcdefghijABCDEFGHIJ012345";
const started = {
  success: true,
  mail: {
    mail_id: "0b000000-0000-4000-8000-0000000000aa", to: "satis@demo.test", token,
    subject: "{{organization.name}}: şifre yenileme",
    body: "Merhaba {{user.name}},\n{{reset.link}}\n{{reset.minutes}} dakika. {{quote.number}}",
    values: { "user.name": "Mehmet Demir", "organization.name": "Demo Ticaret A.Ş.", "reset.minutes": "30" },
  },
};

/** The handler with a fake secret-key client answering `answers`, a recording sender, and background tasks kept to await. */
function setup(answers: Record<string, { data: unknown; error: unknown }>, { siteUrl = "https://crm.example.com" as string | null } = {}) {
  const { mail, service, sent } = fakeMailEnvironment("Demo Ticaret A.Ş.", answers);
  const tasks: (() => Promise<unknown>)[] = [];
  const handler = createHandler({
    mail,
    siteUrl,
    background: (task) => void tasks.push(task),
  });
  return { handler, service, sent, tasks };
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request("http://localhost/password-reset", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.5, 198.51.100.7", ...headers },
    body: JSON.stringify(body),
  });

Deno.test("a request sends the link through the installation's mail, after answering, and answers only success", async () => {
  const { handler, service, sent, tasks } = setup({ password_reset_begin: { data: started, error: null } });
  const response = await handler(post({ action: "request", email: "satis@demo.test", language: "tr" }));
  assertEquals([response.status, await response.json()], [200, { success: true }]);
  assertEquals(service.calls[0], {
    name: "password_reset_begin",
    args: { p_email: "satis@demo.test", p_client_address: "198.51.100.7", p_language: "tr", p_installation_mail: true },
  });
  assertEquals(sent.length, 0, "nothing is sent before the answer");
  await Promise.all(tasks.map((task) => task()));
  assertEquals(sent[0].message.to, ["satis@demo.test"]);
  assertEquals(sent[0].message.from, { name: "Demo Ticaret A.Ş.", address: "no-reply@crm.local" });
  assertEquals(sent[0].message.subject, "Demo Ticaret A.Ş.: şifre yenileme");
  assertEquals(sent[0].message.text,
    `Merhaba Mehmet Demir,\nhttps://crm.example.com/reset-password#token=${token}\n30 dakika. {{quote.number}}`);
  assertEquals(service.calls.at(-1), { name: "mail_finish_send", args: { p_mail_id: started.mail.mail_id, p_sent: true, p_error_code: null } });
  // The token goes to the database nowhere but in the mail's link.
  assert(!JSON.stringify(service.calls).includes(token));
});

Deno.test("an e-mail without a link gets the very same answer, and nothing is sent", async () => {
  const { handler, sent, tasks } = setup({ password_reset_begin: { data: { success: true }, error: null } });
  const response = await handler(post({ action: "request", email: "kimse@demo.test" }));
  assertEquals([response.status, await response.json()], [200, { success: true }]);
  assertEquals([tasks.length, sent.length], [0, 0]);
});

Deno.test("the throttle's refusal is passed on as 429", async () => {
  const refusal = { success: false, error: "Too many password reset requests.", code: "too_many_attempts", retry_after_seconds: 60 };
  const { handler, sent } = setup({ password_reset_begin: { data: refusal, error: null } });
  const response = await handler(post({ action: "request", email: "satis@demo.test" }));
  assertEquals([response.status, await response.json()], [429, refusal]);
  assertEquals(sent, []);
});

Deno.test("without the app's address no link is made", async () => {
  const { handler, service } = setup({}, { siteUrl: null });
  const response = await handler(post({ action: "request", email: "satis@demo.test" }));
  assertEquals([response.status, (await response.json()).code], [409, "password_reset_unavailable"]);
  assertEquals(service.calls, []);
});

Deno.test("a completion passes the token, the password and the address to the database and its answer back", async () => {
  const { handler, service } = setup({
    password_reset_complete: { data: { success: false, error: "This link is invalid or has expired", code: "reset_link_invalid" }, error: null },
  });
  const response = await handler(post({ action: "complete", token, password: "Yeni.Sifre-42" }, { "cf-connecting-ip": "192.0.2.1" }));
  assertEquals([response.status, (await response.json()).code], [400, "reset_link_invalid"]);
  assertEquals(service.calls, [{ name: "password_reset_complete", args: { p_token: token, p_password: "Yeni.Sifre-42", p_client_address: "192.0.2.1" } }]);
});

Deno.test("refuses what is not a request of its own, with the envelope", async () => {
  const { handler, service } = setup({});
  for (const request of [
    new Request("http://localhost/password-reset", { method: "GET" }),
    new Request("http://localhost/password-reset", { method: "POST", body: "{" }),
    post({ action: "reset_password", email: "satis@demo.test" }),
    post({ action: "complete", token: "", password: "x" }),
    post({ action: "request", email: "x".repeat(300) }),
  ]) {
    const response = await handler(request);
    assert(response.status === 405 || response.status === 400, `status ${response.status}`);
    assertEquals(typeof (await response.json()).error, "string");
  }
  assertEquals(service.calls, []);
});

Deno.test("fills only the values it is given; reads the address and the app's address safely", () => {
  assertEquals(fillTemplate("{{ user.name }} {{reset.link}} {{user.email}} {{constructor}}", { "user.name": "A", "reset.link": "L" }),
    "A L {{user.email}} {{constructor}}");
  assertEquals(clientAddress(new Request("http://localhost/", { headers: { "x-forwarded-for": "1.1.1.1,  2.2.2.2 " } })), "2.2.2.2");
  assertEquals(clientAddress(new Request("http://localhost/")), null);
  assertEquals(siteUrlFrom("https://crm.example.com/"), "https://crm.example.com");
  assertEquals([siteUrlFrom(undefined), siteUrlFrom("javascript:alert(1)"), siteUrlFrom("crm.example.com")], [null, null, null]);
});
