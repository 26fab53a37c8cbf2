import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { en } from "../../../src/features/notifications/i18n/en.ts";
import { tr } from "../../../src/features/notifications/i18n/tr.ts";
import type { MailEnvironment } from "../mail/delivery.ts";
import { fakeMailEnvironment } from "../mail/fake-environment.ts";
import { createHandler, digestItems, kindWords } from "./handler.ts";

const secret = "sb_secret_test-key";
const due = {
  success: true,
  digests: [{
    mail_id: "0b000000-0000-4000-8000-0000000000d1",
    to: "ece@alpha.test",
    language: "tr",
    subject: "{{organization.name}}: {{digest.count}} yeni bildirim",
    body: "Merhaba {{user.name}},\n{{digest.items}}\nTümü: {{digest.link}} {{quote.number}}",
    values: { "user.name": "Ece Demir", "organization.name": "Alpha A.Ş.", "digest.count": "2" },
    items: [
      { kind: "task_due", title: "Sözleşmeyi gönder", module: "tasks", record_id: "0b000000-0000-4000-8000-0000000000e1" },
      { kind: "deal_assigned", title: "Yeni\r\nBcc: x@evil.test", module: "deals", record_id: "0b000000-0000-4000-8000-0000000000e2" },
    ],
    more: 3,
  }],
};
/** The handler with a fake secret-key client answering `answers` and a recording sender (or `send`). */
function setup(answers: Record<string, { data: unknown; error: unknown }>, send?: MailEnvironment["send"], siteUrl: string | null = "https://crm.example.com") {
  const { mail, service, sent } = fakeMailEnvironment("Alpha A.Ş.", answers, send);
  return { handler: createHandler({ mail, siteUrl, secretKeys: [secret] }), service, sent };
}

const post = (authorization?: string) =>
  new Request("http://localhost/notification-digests", {
    method: "POST",
    headers: authorization ? { authorization } : {},
  });

Deno.test("with the secret key: the digests due are sent, each filled, its notifications in words with their links", async () => {
  const { handler, service, sent } = setup({ notification_digests_begin: { data: due, error: null } });
  const response = await handler(post(`Bearer ${secret}`));
  assertEquals([response.status, await response.json()], [200, { success: true, sent: 1, failed: 0 }]);
  assertEquals(service.calls[0], { name: "notification_digests_begin", args: { p_installation_mail: true } });
  assertEquals(sent.length, 1);
  assertEquals(sent[0].message.to, ["ece@alpha.test"]);
  assertEquals(sent[0].message.subject, "Alpha A.Ş.: 2 yeni bildirim");
  assertEquals(sent[0].message.text,
    "Merhaba Ece Demir,\n" +
      "• Görevin zamanı bir saat içinde geliyor: Sözleşmeyi gönder\n  https://crm.example.com/tasks/0b000000-0000-4000-8000-0000000000e1\n" +
      "• Size bir fırsat atandı: Yeni Bcc: x@evil.test\n  https://crm.example.com/deals/0b000000-0000-4000-8000-0000000000e2\n" +
      "… ve 3 bildirim daha\n" +
      "Tümü: https://crm.example.com/ {{quote.number}}");
  assert(service.calls.some((call) => call.name === "mail_finish_send" && call.args.p_sent === true), "the sending is recorded as sent");
});

Deno.test("anyone without the secret key is refused before anything is asked or sent", async () => {
  const { handler, service, sent } = setup({ notification_digests_begin: { data: due, error: null } });
  for (const authorization of [undefined, secret]) assertEquals((await handler(post(authorization))).status, 401, String(authorization));
  for (const authorization of ["Bearer sb_publishable_x", `Bearer ${secret}x`, `Bearer ${secret.slice(0, -1)}`, "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x"]) {
    assertEquals((await handler(post(authorization))).status, 403, authorization);
  }
  assertEquals((await handler(new Request("http://localhost/notification-digests", { method: "GET", headers: { authorization: `Bearer ${secret}` } }))).status, 405);
  assertEquals(service.calls, []);
  assertEquals(sent, []);
});

Deno.test("a refused message is counted failed and recorded; the others still go", async () => {
  const two = { ...due, digests: [due.digests[0], { ...due.digests[0], mail_id: "0b000000-0000-4000-8000-0000000000d2", to: "b@alpha.test" }] };
  let calls = 0;
  const refusing: MailEnvironment["send"] = () =>
    ++calls === 1 ? Promise.reject(Object.assign(new Error("refused"), { responseCode: 550 })) : Promise.resolve();
  const { handler, service } = setup({ notification_digests_begin: { data: two, error: null } }, refusing, null);
  const response = await handler(post(`Bearer ${secret}`));
  assertEquals(await response.json(), { success: true, sent: 1, failed: 1 });
  assertEquals(service.calls.filter((call) => call.name === "mail_finish_send").map((call) => call.args.p_sent), [false, true]);
});

Deno.test("without SITE_URL a digest has no links; the words are the bell's", () => {
  assertEquals(digestItems({ language: "en", items: [{ kind: "task_overdue", title: "Call", module: "tasks", record_id: "x" }], more: 0 }, null),
    "• A task is overdue: Call");
  const { other: _trOther, ...trKinds } = tr.notifications.kinds;
  const { other: _enOther, ...enKinds } = en.notifications.kinds;
  assertEquals(kindWords, { tr: trKinds, en: enKinds });
});
