import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { createMember } from "../tests/support/accounts.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterAppAt, scrollsSideways } from "./shell-support.ts";

// Every deal made here carries the run's suffix and is deleted again at the end of its test,
// so the demo pipeline keeps its seeded deals for the other specs.
const suffix = randomUUID().slice(0, 6);

const board = (page: Page) => page.getByRole("list", { name: "Satış hattı" });
const column = (page: Page, stage: string) => page.getByRole("list", { name: `${stage} aşamasındaki fırsatlar` });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });
/** What the board's live region last said to a screen reader. */
const announcement = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

/** Deals made through the API as the demo admin, deleted again by the returned function. */
async function dealsOfAdmin(baseURL: string, titles: string[]) {
  const { client } = await signedInClient(baseURL, "admin@demo.test");
  const ids: string[] = [];
  for (const title of titles) {
    const created = await rpc(client, "create_deal", { p_values: { title, amount: 125000, currency: "TRY", stage: "lead" } });
    expect(created).toMatchObject({ success: true });
    ids.push((created.record as { id: string }).id);
  }
  return {
    ids,
    async remove() {
      expect(await rpc(client, "delete_deals", { p_ids: ids })).toMatchObject({ success: true });
      await client.auth.signOut({ scope: "local" });
    },
  };
}

test("a deal is dragged to the next stage with the keyboard, its history tells it, and a lost one needs its reason", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const title = `E2E Fırsat ${suffix}`;
  const made = await dealsOfAdmin(baseURL!, [title]);
  await enterAppAt(page, "/deals", "admin@demo.test");
  await expect(board(page)).toBeVisible({ timeout: 20_000 });
  await page.getByRole("searchbox", { name: "Fırsat ara" }).fill(suffix);
  await expect(column(page, "Aday").getByRole("listitem")).toHaveCount(1);
  await expect(column(page, "Aday").getByRole("link", { name: title })).toBeVisible();
  // axe reads the filtered board: the same columns and cards, without the demo's hundreds of
  // cards that took it 16 s.
  expect(await seriousViolations(page)).toEqual([]);

  // Space picks the card up, → carries it to the next column, Space drops it. Each key waits for
  // the board's spoken answer to the one before (the live region keeps only the latest, so the
  // pick-up is heard as "over Aday"), as a screen reader user does: dnd-kit listens
  // for the arrow keys only from the task after the pick-up, and the column under the card is
  // settled a render after the arrow, so keys sent back to back under load were lost.
  await page.getByRole("button", { name: `${title} fırsatını sürükle` }).focus();
  await page.keyboard.press("Space");
  await expect(announcement(page, `${title}, Aday aşamasının üzerinde.`)).toBeAttached();
  await page.keyboard.press("ArrowRight");
  await expect(announcement(page, `${title}, Nitelikli aşamasının üzerinde.`)).toBeAttached();
  await page.keyboard.press("Space");
  await expect(notification(page, `“${title}” Nitelikli aşamasına taşındı.`)).toBeVisible();
  await expect(column(page, "Nitelikli").getByRole("link", { name: title })).toBeVisible();

  await column(page, "Nitelikli").getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await page.getByRole("tab", { name: "Aşama geçmişi" }).click();
  await expect(page.getByRole("table", { name: "Aşama geçmişi" })).toContainText("Aday → Nitelikli");
  await expect(page.getByRole("table", { name: "Aşama geçmişi" })).toContainText("Ayşe");

  // Lost: the reason is asked, and required.
  await page.getByRole("link", { name: "Fırsatlara dön" }).click();
  await page.getByRole("searchbox", { name: "Fırsat ara" }).fill(suffix);
  await expect(column(page, "Nitelikli").getByRole("link", { name: title })).toBeVisible();
  await column(page, "Nitelikli").getByRole("button", { name: `${title} fırsatını başka aşamaya taşı` }).click();
  await page.getByRole("menuitem", { name: "Kaybedildi" }).click();
  const lost = page.getByRole("dialog", { name: "Fırsat kaybedildi" });
  await lost.getByRole("button", { name: "Kaybedildi olarak kaydet" }).click();
  await expect(lost.getByText("Kaybetme nedeni gerekli.")).toBeVisible();
  await lost.getByRole("textbox", { name: "Kaybetme nedeni" }).fill("Rakip daha ucuz");
  await lost.getByRole("button", { name: "Kaybedildi olarak kaydet" }).click();
  await expect(notification(page, `“${title}” Kaybedildi aşamasına taşındı.`)).toBeVisible();
  await expect(column(page, "Kaybedildi").getByRole("link", { name: title })).toBeVisible();
  await made.remove();
});

test("someone who may edit only their own deals cannot move another's, and the board fits a phone", async ({ page, baseURL }) => {
  const title = `E2E Başkasının ${suffix}`;
  const made = await dealsOfAdmin(baseURL!, [title]);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const roleKey = `firsat_${suffix.replace(/[^a-z0-9]/g, "x")}`;
  expect(await rpc(client, "save_role", { p_key: roleKey, p_name: `Fırsat ${suffix}`, p_permissions: { deals: { view: "all", edit: "own" } } }))
    .toMatchObject({ success: true });
  await client.auth.signOut({ scope: "local" });
  const member = await createMember(baseURL!, { role: roleKey });

  await enterAppAt(page, "/deals", member.email, member.password);
  await page.getByRole("searchbox", { name: "Fırsat ara" }).fill(suffix);
  await expect(column(page, "Aday").getByRole("link", { name: title })).toBeVisible();
  await expect(page.getByRole("button", { name: `${title}: taşıma yetkiniz yok` })).toBeVisible();
  await expect(page.getByRole("button", { name: `${title} fırsatını sürükle` })).toHaveCount(0);
  await expect(page.getByRole("button", { name: `${title} fırsatını başka aşamaya taşı` })).toHaveCount(0);

  // At 1440 px the six stages stand side by side, owner names whole.
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const stage of ["Aday", "Nitelikli", "Teklif", "Pazarlık", "Kazanıldı", "Kaybedildi"]) {
    await expect(column(page, stage)).toBeInViewport({ ratio: 1 });
  }
  const owner = column(page, "Aday").getByText("Ayşe Yılmaz", { exact: true });
  await expect(owner).toBeVisible();
  expect(await owner.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);

  // On a phone one stage shows at a time, picked with its tab.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(column(page, "Aday").getByRole("link", { name: title })).toBeVisible();
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  await expect(column(page, "Kazanıldı")).toHaveCount(0);
  await page.getByRole("tab", { name: /^Kazanıldı \(\d+\)$/ }).click();
  await expect(board(page).getByRole("heading", { name: "Kazanıldı" })).toBeVisible();
  await expect(column(page, "Aday")).toHaveCount(0);
  await made.remove();
});

test("a stage with more cards than a page shows the next ones when its column is scrolled to the end", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const made = await dealsOfAdmin(baseURL!, Array.from({ length: 53 }, (_, index) => `E2E Kaydırma ${suffix} ${index + 1}`));
  await enterAppAt(page, "/deals", "admin@demo.test");
  await page.getByRole("searchbox", { name: "Fırsat ara" }).fill(`Kaydırma ${suffix}`);
  const lead = column(page, "Aday");
  // The board's first page: 50 cards, the rest behind a button for keyboards.
  await expect(lead.getByRole("listitem")).toHaveCount(50);
  await expect(page.getByRole("button", { name: "3 fırsat daha" })).toBeVisible();
  await lead.getByRole("listitem").last().scrollIntoViewIfNeeded();
  await expect(lead.getByRole("listitem")).toHaveCount(53);
  await expect(lead.getByRole("link", { name: `E2E Kaydırma ${suffix} 1`, exact: true })).toBeAttached();
  await expect(page.getByRole("button", { name: /fırsat daha$/ })).toHaveCount(0);
  await made.remove();
});

test("a customer's page lists its deals, quotes and contracts by name; a quote started from a deal's page arrives with its customer, contact and deal", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const customerName = `E2E İlişki Müşterisi ${suffix}`;
  const dealTitle = `E2E İlişki Fırsatı ${suffix}`;
  const contractTitle = `E2E İlişki Sözleşmesi ${suffix}`;
  const idOf = (answer: Record<string, unknown>) => {
    expect(answer).toMatchObject({ success: true });
    return ((answer.record as { id?: string } | undefined)?.id ?? answer.id) as string;
  };
  const customerId = idOf(await rpc(client, "create_customer", { p_values: { name: customerName, status: "active" } }));
  const contactId = idOf(await rpc(client, "create_contact", { p_values: { customer_id: customerId, first_name: "Ayşe", last_name: `Yıldız ${suffix}` } }));
  const dealId = idOf(await rpc(client, "create_deal", { p_values: { title: dealTitle, customer_id: customerId, amount: 50000, currency: "TRY", stage: "lead" } }));
  expect(await rpc(client, "set_deal_contacts", { p_id: dealId, p_contact_ids: [contactId] })).toMatchObject({ success: true });
  const quote = await rpc(client, "save_quote", {
    p_id: null,
    p_values: { customer_id: customerId, deal_id: dealId },
    p_items: [{ description: "Danışmanlık", quantity: "1", unit: "adet", unit_price: "1000.00", vat_rate: 20 }],
  });
  const quoteId = idOf(quote);
  const contractId = idOf(await rpc(client, "create_contract", { p_values: { title: contractTitle, customer_id: customerId, deal_id: dealId } }));

  try {
    await enterAppAt(page, `/customers/${customerId}`, "admin@demo.test");
    // Each related module is a tab with its count, listing its records by name.
    await expect(page.getByRole("tab", { name: "Kişiler (1)" })).toBeVisible({ timeout: 20_000 });
    await page.getByRole("tab", { name: "Fırsatlar (1)" }).click();
    await expect(page.getByRole("table", { name: "Bağlı fırsatlar" }).getByRole("link", { name: dealTitle })).toBeVisible();
    await page.getByRole("tab", { name: "Teklifler (1)" }).click();
    await expect(page.getByRole("table", { name: "Bağlı teklifler" }).getByRole("link", { name: quote.quote_number as string })).toBeVisible();
    await page.getByRole("tab", { name: "Sözleşmeler (1)" }).click();
    await expect(page.getByRole("table", { name: "Bağlı sözleşmeler" }).getByRole("link", { name: contractTitle })).toBeVisible();

    // From the deal's page, a new quote opens the editor with the customer, contact and deal chosen.
    await page.goto(`/deals/${dealId}`);
    await page.getByRole("tab", { name: "Teklifler (1)" }).click();
    await page.getByRole("link", { name: "Yeni teklif" }).click();
    await expect(page).toHaveURL(/\/quotes\/new\?/);
    await expect(page.getByRole("textbox", { name: "Müşteri" }).or(page.getByRole("combobox", { name: "Müşteri" }))).toHaveValue(customerName);
    await expect(page.getByRole("textbox", { name: "Kişi" }).or(page.getByRole("combobox", { name: "Kişi" }))).toHaveValue(new RegExp(`Yıldız ${suffix}`));
    await expect(page.getByRole("textbox", { name: "Fırsat" }).or(page.getByRole("combobox", { name: "Fırsat" }))).toHaveValue(dealTitle);
  } finally {
    await rpc(client, "delete_contracts", { p_ids: [contractId] });
    await rpc(client, "delete_quotes", { p_ids: [quoteId] });
    await rpc(client, "delete_deals", { p_ids: [dealId] });
    await rpc(client, "delete_contacts", { p_ids: [contactId] });
    await rpc(client, "delete_customers", { p_ids: [customerId] });
    await client.auth.signOut({ scope: "local" });
  }
});
