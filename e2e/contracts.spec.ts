import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterAppAt, scrollsSideways } from "./shell-support.ts";

// The contracts made here carry the run's suffix and are deleted again at the end.
const suffix = randomUUID().slice(0, 6);

const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

/** A calendar date `offset` days from today, as a date input takes it. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test("an active contract is created with auto-renewal, renewed into its next term, and the old term reads Yenilendi", async ({ page, baseURL }) => {
  // Two axe runs and several page loads on 2 shared cores.
  test.setTimeout(180_000);
  const title = `E2E Bakım sözleşmesi ${suffix}`;
  await enterAppAt(page, "/contracts", "admin@demo.test");
  await expect(page.getByRole("table", { name: "Sözleşme listesi" })).toBeVisible({ timeout: 20_000 });
  expect(await seriousViolations(page)).toEqual([]);

  // The form: active, a year ending in 20 days, auto-renewal with a 30-day notice.
  await page.getByRole("button", { name: "Yeni sözleşme" }).click();
  const form = page.getByRole("dialog", { name: "Yeni sözleşme" });
  await form.getByRole("textbox", { name: "Başlık" }).fill(title);
  await form.getByRole("combobox", { name: "Durum" }).click();
  await page.getByRole("listbox", { name: "Durum" }).getByRole("option", { name: "Aktif" }).click();
  // An active contract without dates is stopped before it is sent.
  await form.getByRole("button", { name: "Sözleşmeyi oluştur" }).click();
  await expect(form.getByText("Aktif bir sözleşme için gerekli.").first()).toBeVisible();
  await form.getByRole("textbox", { name: "Başlangıç", exact: true }).fill(day(-345));
  await form.getByRole("textbox", { name: "Bitiş", exact: true }).fill(day(20));
  await form.getByRole("textbox", { name: "Tutar", exact: true }).fill("125000,50");
  await form.getByRole("switch", { name: /^Otomatik yenileme/ }).check();
  await form.getByRole("textbox", { name: "Yenileme bildirimi (gün önce)" }).fill("30");
  await form.getByRole("button", { name: "Sözleşmeyi oluştur" }).click();
  await expect(notification(page, `“${title}” sözleşmesi oluşturuldu.`)).toBeVisible();

  // Its page: active, numbered, auto-renewing.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByText("Aktif", { exact: true }).first()).toBeVisible();
  const oldNumber = (await page.locator("dd").first().innerText()).trim();
  expect(oldNumber).toMatch(/^SZL-\d{4}-\d{5}$/);
  await expect(page.getByText("Açık: her 12 ayda bir yenilenir")).toBeVisible();
  await expect(page.getByText("₺125.000,50").first()).toBeVisible();
  await expect(page).toHaveURL(/\/contracts\/[0-9a-f-]{36}$/);
  const oldUrl = page.url();

  // Renew: the next term starts the day after the end, for 12 months, its value raised by TÜFE 44,38%:
  // 125.000,50 × 1,4438 = 180.475,72219 → ₺180.475,72; auto-renewing, so it starts active.
  await page.getByRole("button", { name: "Yenile" }).click();
  const renew = page.getByRole("dialog", { name: "Sözleşmeyi yenile" });
  await expect(renew.getByRole("textbox", { name: "Yeni dönemin başlangıcı" })).toHaveValue(day(21));
  await expect(renew.getByText("yeni dönem aktif olarak başlar")).toBeVisible();
  await renew.getByRole("textbox", { name: "Yeni dönemin başlangıcı" }).fill(day(20));
  await expect(renew.getByText("Yeni dönem mevcut dönemin bitişinden sonra başlamalı.")).toBeVisible();
  await expect(renew.getByRole("button", { name: "Yenile" })).toBeDisabled();
  await renew.getByRole("textbox", { name: "Yeni dönemin başlangıcı" }).fill(day(21));
  await renew.getByRole("textbox", { name: "Artış oranı (%)" }).fill("44,38");
  await expect(renew.getByText("Yeni dönemin bedeli: ₺180.475,72")).toBeVisible();
  await renew.getByRole("button", { name: "Yenile" }).click();
  await expect(notification(page, /Sözleşme yenilendi: SZL-/)).toBeVisible();
  await expect(page).not.toHaveURL(oldUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const newUrl = page.url();
  await expect(page.getByText("₺180.475,72").first()).toBeVisible();
  await expect(page.getByText("Aktif", { exact: true }).first()).toBeVisible();

  // The new term names the previous one, which reads "Yenilendi".
  await page.getByRole("tab", { name: "Yenilemeler" }).click();
  const chain = page.getByRole("list", { name: "Yenileme zinciri" });
  await expect(chain.getByRole("link", { name: oldNumber })).toBeVisible();
  await expect(chain.getByText("Yenilendi")).toBeVisible();
  await expect(chain.getByText("Henüz yenilenmedi.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await chain.getByRole("link", { name: oldNumber }).click();
  await expect(page).toHaveURL(oldUrl);
  await expect(page.getByRole("alert").filter({ hasText: "Bu sözleşme Yenilendi; artık değiştirilemez." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Yenile" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Düzenle" })).toHaveCount(0);
  await page.getByRole("tab", { name: "Yenilemeler" }).click();
  await expect(page.getByRole("list", { name: "Yenileme zinciri" }).getByRole("link", { name: /^SZL-/ })).toHaveAttribute(
    "href",
    new URL(newUrl).pathname,
  );

  // The list finds both terms by the suffix; the phone fits them.
  await page.goto("/contracts");
  await page.getByRole("searchbox").first().fill(suffix);
  await expect(page.getByRole("link", { name: oldNumber })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("link", { name: oldNumber })).toBeVisible();
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  await page.goto(newUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect.poll(() => scrollsSideways(page)).toBe(false);

  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const found = await rpc(client, "list_contracts", { p_search: suffix });
  const ids = (found.records as { id: string }[]).map((record) => record.id);
  expect(ids).toHaveLength(2);
  expect(await rpc(client, "delete_contracts", { p_ids: ids })).toMatchObject({ success: true, changed: 2 });
  await client.auth.signOut({ scope: "local" });
});

test("a contract from a quote with tevkifat reads the quote's payable total; a renewal made as a draft leaves the old term active", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const customers = (await rpc(client, "list_customers", { p_limit: 1 })).records as { id: string }[];
  const contractIds: string[] = [];
  let quoteId: string | null = null;
  try {
    // 10.000,00 at KDV 20 % with 7/10 withheld (₺1.400,00) and 3.800,00 at 0 %: the customer pays 15.800,00 - 1.400,00.
    const saved = await rpc(client, "save_quote", {
      p_id: null,
      p_values: { customer_id: customers[0].id },
      p_items: [
        { description: `Temizlik hizmeti ${suffix}`, quantity: "1", unit_price: "10000", vat_rate: 20, withholding_rate: "7/10" },
        { description: `İhracat teslimi ${suffix}`, quantity: "1", unit_price: "3800", vat_rate: 0, vat_exemption_reason: "3065 s. KDV Kanunu 11/1-a" },
      ],
    });
    quoteId = saved.id as string;
    expect(await rpc(client, "send_quote", { p_id: quoteId, p_updated_at: saved.updated_at })).toMatchObject({ success: true });
    const fromQuote = await rpc(client, "create_contract_from_quote", { p_quote_id: quoteId });
    contractIds.push(fromQuote.id as string);
    await enterAppAt(page, `/contracts/${fromQuote.id as string}`, "admin@demo.test");
    await expect(page.getByText("KDV hariç; ayrıca ₺2.000 KDV (KDV dahil ₺15.800)")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("7/10 tevkifat: ₺1.400 (ödenecek tutar ₺14.400)")).toBeVisible();

    // A contract that does not renew itself, renewed: the new term is a draft, the old one stays active until it is signed.
    const active = await rpc(client, "create_contract", {
      p_values: { title: `E2E Taslak yenileme ${suffix}`, status: "active", start_date: day(-300), end_date: day(30), value: "1000" },
    });
    const oldId = (active.record as { id: string }).id;
    contractIds.push(oldId);
    await page.goto(`/contracts/${oldId}`);
    await page.getByRole("button", { name: "Yenile" }).click();
    const renew = page.getByRole("dialog", { name: "Sözleşmeyi yenile" });
    await expect(renew.getByText("Yeni dönem imzalanana kadar taslak olarak başlar.")).toBeVisible();
    await renew.getByRole("button", { name: "Yenile" }).click();
    await expect(notification(page, /Sözleşme yenilendi: SZL-/)).toBeVisible();
    contractIds.push(page.url().split("/").pop()!);
    await page.getByRole("tab", { name: "Yenilemeler" }).click();
    await page.getByRole("list", { name: "Yenileme zinciri" }).getByRole("link", { name: /^SZL-/ }).first().click();
    await expect(page).toHaveURL(new RegExp(`/contracts/${oldId}$`));
    await expect(page.getByText("Aktif", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Düzenle" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Yenile" })).toHaveCount(0);
  } finally {
    if (contractIds.length > 0) await rpc(client, "delete_contracts", { p_ids: contractIds });
    if (quoteId) await rpc(client, "delete_quotes", { p_ids: [quoteId] });
    await client.auth.signOut({ scope: "local" });
  }
});

test("the contracts ending soon: the demo's within 60 days, soonest first, on a phone too", async ({ page, baseURL }) => {
  // The whole organization's: Satış Müdürü sees every member's contracts.
  await enterAppAt(page, "/contracts?view=ending", "mudur@demo.test");
  const table = page.getByRole("table", { name: "Yakında biten sözleşmeler" });
  await expect(table).toBeVisible({ timeout: 20_000 });
  // The seed has four active contracts ending within 60 days (18, 31, 44 and 57 days from the
  // day it ran: a day fewer once the organization's midnight has passed since). The page shows
  // what the server counts from the organization's today, soonest first.
  const { client } = await signedInClient(baseURL!, "mudur@demo.test");
  const ending = async (days: number) => (await rpc(client, "list_contracts_ending", { p_days: days })).contracts as { days_left: number }[];
  const within60 = await ending(60);
  expect(within60).toHaveLength(4);
  expect(within60[0].days_left).toBeGreaterThanOrEqual(17);
  await expect(table.getByRole("row")).toHaveCount(within60.length + 1);
  await expect(table.getByRole("row").nth(1)).toContainText(`${within60[0].days_left} gün kaldı`);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole("combobox", { name: "Bitişe kalan süre" }).click();
  await page.getByRole("listbox", { name: "Bitişe kalan süre" }).getByRole("option", { name: "30 gün içinde" }).click();
  await expect(table.getByRole("row")).toHaveCount((await ending(30)).length + 1);
  await client.auth.signOut({ scope: "local" });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(table).toBeVisible();
  await expect.poll(() => scrollsSideways(page)).toBe(false);
});
