/**
 * Notifications by e-mail through the local stack (issue 27 part 6): a member who turned the
 * digest on gets one e-mail in the stack's mail server listing a task assigned to them by its
 * title with its link, and not a second one within the hour; the notification-digests
 * function answers only the secret key, and its RPC is closed to the Data API's callers.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import type { CaughtMessage } from "../../scripts/stack/mail-catcher.ts";
import { createMember } from "../support/accounts.ts";
import { anonClient, rpc, rpcSuccess, signedInClient } from "../support/clients.ts";
import { testKeys } from "../support/keys.ts";

const url = inject("stackUrl");
const taskIds: string[] = [];

const caughtTo = async (address: string): Promise<CaughtMessage[]> => {
  const answer = await fetch(`${url}/_stack/mail`, { headers: { authorization: `Bearer ${testKeys.secretKey}` } });
  return ((await answer.json()) as { messages: CaughtMessage[] }).messages.filter((message) => message.envelope.to.includes(address));
};

/** What the scheduler does every minute: the function called with a key. */
const callDigests = (key: string) =>
  fetch(`${url}/functions/v1/notification-digests`, { method: "POST", headers: { authorization: `Bearer ${key}`, apikey: testKeys.publishableKey } });

afterAll(async () => {
  const { client } = await signedInClient(url, "admin@demo.test");
  if (taskIds.length > 0) await rpc(client, "delete_tasks", { p_ids: taskIds });
});

describe("notification digests by e-mail", () => {
  it("mails a member who turned it on one digest naming the task assigned to them, and no second one within the hour", async () => {
    const member = await createMember(url);
    const { client: memberClient } = await signedInClient(url, member.email, member.password);
    const saved = await rpcSuccess<{ email_digest: boolean }>(memberClient, "save_notification_preferences", {
      p_kinds: ["task_assigned", "task_due"], p_email_digest: true,
    });
    expect(saved.email_digest).toBe(true);

    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const title = `Fuar dönüşü ara ${member.id.slice(0, 6)}`;
    const task = await rpcSuccess<{ record: { id: string } }>(admin, "create_task", { p_values: { title, type: "call", owner_id: member.id } });
    taskIds.push(task.record.id);

    const answer = await callDigests(testKeys.secretKey);
    expect(answer.status).toBe(200);
    // The stack's own minute timer may have sent it first: the mail server is what counts.
    await expect.poll(async () => (await caughtTo(member.email)).length, { timeout: 10_000 }).toBe(1);
    const [message] = await caughtTo(member.email);
    expect(message.subject).toBe("Demo Ticaret A.Ş.: 1 yeni bildirim");
    expect(message.text).toContain("Merhaba Deniz Arslan");
    expect(message.text).toContain(`• Size bir görev atandı: ${title}\n  ${url}/tasks/${task.record.id}`);

    // Within the hour: another assignment waits for the next digest.
    const second = await rpcSuccess<{ record: { id: string } }>(admin, "create_task", { p_values: { title: `${title} (2)`, type: "call", owner_id: member.id } });
    taskIds.push(second.record.id);
    expect((await callDigests(testKeys.secretKey)).status).toBe(200);
    expect(await caughtTo(member.email)).toHaveLength(1);
  });

  it("answers only the secret key, and keeps its RPC from the Data API's callers", async () => {
    const { client, session } = await signedInClient(url, "admin@demo.test");
    for (const key of [testKeys.publishableKey, session.access_token]) {
      const refused = await callDigests(key);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ success: false });
    }
    for (const caller of [anonClient(url), client]) {
      const { error } = await caller.rpc("notification_digests_begin", { p_installation_mail: true });
      expect(error?.code).toBe("42501");
    }
  });
});
