import { expect, test } from "@playwright/test";
import { createMember } from "../tests/support/accounts.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { testKeys } from "../tests/support/keys.ts";
import { caughtFor } from "./mail-support.ts";
import { enterApp } from "./shell-support.ts";

// Issue 27 part 6: a member turns on the e-mail digest in their notification preferences; a
// task assigned to them then comes by e-mail (what the stack's minute timer does, called here
// at once), named by its title with its link; the preference is kept.
test("a member turns on the e-mail digest; a task assigned to them arrives by e-mail, named by its title", async ({ page, baseURL }) => {
  const member = await createMember(baseURL!);
  await enterApp(page, member.email, member.password);
  await page.getByRole("button", { name: /^Bildirimler/ }).click();
  await page.getByRole("button", { name: "Bildirim tercihleri" }).click();
  const dialog = page.getByRole("dialog", { name: "Bildirim tercihleri" });
  const digest = dialog.getByRole("switch", { name: "E-posta özeti" });
  await expect(digest).not.toBeChecked();
  await digest.check();
  await dialog.getByRole("button", { name: "Kaydet" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Bildirim tercihleriniz kaydedildi." })).toBeVisible();

  const admin = (await signedInClient(baseURL!, "admin@demo.test")).client;
  const title = `Bayi toplantısı ${member.id.slice(0, 6)}`;
  const task = (await rpc(admin, "create_task", { p_values: { title, type: "meeting", owner_id: member.id } })).record as { id: string };
  try {
    const call = await page.request.post("/functions/v1/notification-digests", { headers: { authorization: `Bearer ${testKeys.secretKey}` } });
    expect(call.status()).toBe(200);
    await expect.poll(async () => (await caughtFor(page, member.email)).length).toBe(1);
    const [message] = await caughtFor(page, member.email);
    expect(message.subject).toBe("Demo Ticaret A.Ş.: 1 yeni bildirim");
    expect(message.text).toContain(`• Size bir görev atandı: ${title}`);
    expect(message.text).toContain(`/tasks/${task.id}`);

    // The link opens the task.
    const link = new RegExp(`https?://\\S+/tasks/${task.id}`).exec(message.text ?? "")?.[0];
    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);

    // The preference is kept.
    await page.getByRole("button", { name: /^Bildirimler/ }).click();
    await page.getByRole("button", { name: "Bildirim tercihleri" }).click();
    await expect(page.getByRole("dialog", { name: "Bildirim tercihleri" }).getByRole("switch", { name: "E-posta özeti" })).toBeChecked();
  } finally {
    await rpc(admin, "delete_tasks", { p_ids: [task.id] });
    await admin.auth.signOut({ scope: "local" });
  }
});
