import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { POLL_INTERVAL_MS } from "../src/lib/realtime.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp, scrollsSideways } from "./shell-support.ts";

// The tasks made here carry the run's suffix and are deleted again at the end.
const suffix = randomUUID().slice(0, 6);
const satisId = "0b000000-0000-4000-8000-000000000003";

// Pages, lists and the dashboard are read from the local stack, often on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });
const bell = (page: Page) => page.getByRole("banner").getByRole("button", { name: /^Bildirimler(, \d+ okunmamış)?$/ });

/** How many unread notifications the bell announces in its name. */
async function unreadInBell(page: Page): Promise<number> {
  const name = (await bell(page).getAttribute("aria-label")) ?? "";
  return Number(/, (\d+) okunmamış$/.exec(name)?.[1] ?? 0);
}

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

/** Today's date in the demo organization's time zone (Europe/Istanbul), as YYYY-MM-DD. */
function todayInIstanbul(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Istanbul" }).format(new Date());
}

const created: string[] = [];

// What the test made goes again, whether it passed or not.
test.afterEach(async ({ baseURL }) => {
  if (created.length === 0) return;
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  expect(await rpc(client, "delete_tasks", { p_ids: created.splice(0) })).toMatchObject({ success: true });
  await client.auth.signOut({ scope: "local" });
});

test("an admin assigns a task due today; the assignee is notified, opens it, completes it from the list, and the dashboard counts what is left", async ({
  browser,
  page: sales,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const title = `E2E Teklifi ara ${suffix}`;
  const overdueTitle = `E2E Gecikmiş iş ${suffix}`;
  const { client: adminApi } = await signedInClient(baseURL!, "admin@demo.test");
  const adminContext = await browser.newContext();
  try {
    // The admin creates the task in the form: assigned to Mehmet Demir (satis), due today.
    const admin = await adminContext.newPage();
    let creates = 0;
    admin.on("request", (request) => {
      if (request.url().endsWith("/rpc/create_task")) creates += 1;
    });
    await enterApp(admin, "admin@demo.test");
    await admin.goto("/tasks");
    await expect(h1(admin)).toHaveText("Görevler");
    await admin.getByRole("button", { name: "Yeni görev" }).click();
    const form = admin.getByRole("dialog", { name: "Yeni görev" });
    await form.getByRole("textbox", { name: "Başlık" }).fill(title);
    await form.getByRole("combobox", { name: "Tür" }).selectOption({ label: "Arama" });
    await form.getByRole("combobox", { name: "Öncelik" }).selectOption({ label: "Yüksek" });
    await form.getByRole("combobox", { name: "Sorumlu" }).selectOption({ label: "Mehmet Demir" });
    // A reminder after the due time is refused on its field before anything is sent.
    await form.getByLabel("Son tarih", { exact: true }).fill(`${todayInIstanbul()}T23:00`);
    await form.getByLabel("Hatırlatma", { exact: true }).fill(`${todayInIstanbul()}T23:30`);
    await form.getByRole("button", { name: "Görevi oluştur" }).click();
    await expect(form.getByText("Hatırlatma son tarihten sonra olamaz.")).toBeVisible();
    expect(creates).toBe(0);
    await form.getByLabel("Son tarih", { exact: true }).fill(`${todayInIstanbul()}T23:59`);
    await form.getByRole("button", { name: "Görevi oluştur" }).click();
    await expect(h1(admin)).toHaveText(title);
    await expect(admin).toHaveURL(/\/tasks\/[0-9a-f-]{36}$/);
    const taskId = admin.url().split("/").pop()!;
    created.push(taskId);
    await expect(admin.getByText("Mehmet Demir")).toBeVisible();

    // An overdue task of satis's, made through the API: due a year ago, so the first of any list by due time.
    const overdue = await rpc(adminApi, "create_task", {
      p_values: { title: overdueTitle, owner_id: satisId, due_at: new Date(Date.now() - 365 * 86_400_000).toISOString() },
    });
    expect(overdue).toMatchObject({ success: true });
    created.push((overdue.record as { id: string }).id);

    // Satis sees the bell with the new notification and opens the task from it. The local
    // stack has no Realtime and says so: the bell polls, and no WebSocket is ever tried
    // (it used to fail and retry every few seconds, each time a console error).
    const sockets: string[] = [];
    const socketErrors: string[] = [];
    sales.on("websocket", (socket) => sockets.push(socket.url()));
    sales.on("console", (message) => {
      if (message.type() === "error" && /websocket|realtime/i.test(message.text())) socketErrors.push(message.text());
    });
    await enterApp(sales, "satis@demo.test");
    await expect(bell(sales)).toHaveAccessibleName(/^Bildirimler, \d+ okunmamış$/);
    await bell(sales).click();
    const panel = sales.getByRole("dialog", { name: "Bildirimler" });
    const item = panel.getByRole("listitem").filter({ hasText: title });
    await expect(item).toContainText("Size bir görev atandı · Ayşe Yılmaz");
    await expect(item).toContainText("Yeni");
    expect(await seriousViolations(sales)).toEqual([]);
    await item.getByRole("button").click();
    await expect(sales).toHaveURL(new RegExp(`/tasks/${taskId}$`));
    await expect(h1(sales)).toHaveText(title);
    // Read now: the bell's count follows the server's (the minute's due-items step may add an
    // overdue notice meanwhile, so "one less than before" would race it). Without Realtime (the
    // local stack) the bell reads the count again every POLL_INTERVAL_MS, so a notice made just
    // after its last read shows within that time: the bound the two must meet in.
    const { client: readerApi } = await signedInClient(baseURL!, "satis@demo.test");
    await expect
      .poll(async () => (await unreadInBell(sales)) === ((await rpc(readerApi, "get_unread_notification_count")).unread as number), {
        timeout: POLL_INTERVAL_MS + 10_000,
      })
      .toBe(true);
    await readerApi.auth.signOut({ scope: "local" });
    expect(sockets).toEqual([]);
    expect(socketErrors).toEqual([]);
    await bell(sales).click();
    await expect(panel.getByRole("listitem").filter({ hasText: title })).not.toContainText("Yeni");
    await sales.keyboard.press("Escape");

    // Today's view lists it; the overdue one stands out in "mine", in words too.
    await sales.goto("/tasks");
    const table = sales.getByRole("table", { name: "Görev listesi" });
    const overdueRow = table.getByRole("row").filter({ hasText: overdueTitle });
    await expect(overdueRow).toContainText("Gecikmiş");
    expect(await seriousViolations(sales)).toEqual([]);
    await sales.locator("label").filter({ hasText: /^Bugün$/ }).click();
    await expect(sales).toHaveURL(/\/tasks\?view=today$/);
    const row = table.getByRole("row").filter({ hasText: title });
    await expect(row).toContainText("Yüksek");
    await expect(row).toContainText("Arama");
    await expect(table.getByRole("row").filter({ hasText: overdueTitle })).toHaveCount(0);

    // Completed from the list: the row changes in place.
    await row.getByRole("checkbox", { name: `“${title}” görevini tamamla` }).click();
    await expect(notification(sales, `“${title}” tamamlandı.`)).toBeVisible();
    await expect(row.getByRole("checkbox", { name: `“${title}” görevini yeniden aç` })).toBeChecked();
    await expect(row).toContainText("Tamamlandı");
    const completed = await rpc(adminApi, "get_task", { p_id: taskId });
    expect(completed.record).toMatchObject({ status: "done", completed_by: satisId });

    // At a phone's width the list becomes cards and nothing scrolls sideways.
    await sales.setViewportSize({ width: 390, height: 844 });
    await expect(sales.getByRole("list", { name: "Görev listesi" }).getByRole("link", { name: title })).toBeVisible();
    await expect.poll(() => scrollsSideways(sales)).toBe(false);
    await sales.setViewportSize({ width: 1280, height: 720 });

    // The dashboard's open task count is get_dashboard's for satis.
    const { client: salesApi } = await signedInClient(baseURL!, "satis@demo.test");
    await sales.goto("/");
    await expect(h1(sales)).toHaveText("Hoş geldiniz, Mehmet Demir");
    const dashboard = await rpc(salesApi, "get_dashboard");
    await salesApi.auth.signOut({ scope: "local" });
    const open = (dashboard.tasks as { open: number }).open;
    const openTasks = sales.locator("dt", { hasText: "Açık görevlerim" }).locator("xpath=following-sibling::dd[1]/div[1]");
    await expect(openTasks).toHaveText(String(open));
    await expect(sales.getByRole("list", { name: "Sıradaki görevlerim" }).getByRole("link", { name: overdueTitle })).toBeVisible();
    await expect(sales.getByRole("img", { name: /^Aşamalara göre açık fırsat tutarları/ }).or(sales.getByText("Açık fırsat yok."))).toBeVisible();
    expect(await seriousViolations(sales)).toEqual([]);
  } finally {
    await adminApi.auth.signOut({ scope: "local" });
    await adminContext.close();
  }
});
