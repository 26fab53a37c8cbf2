import { expect, test, type Page } from "@playwright/test";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp } from "./shell-support.ts";

const searchInput = (page: Page) => page.getByRole("textbox", { name: "Tüm modüllerde ara" });

/** Opens the header's search with the keyboard shortcut and types the query. */
async function searchFor(page: Page, query: string) {
  await page.keyboard.press("ControlOrMeta+KeyK");
  await expect(searchInput(page)).toBeFocused();
  await searchInput(page).fill(query);
}

test("the header search finds a quote by its number and a customer by 'isik', opens them from the keyboard and offers quick create", async ({ page, baseURL }) => {
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const quotes = (await rpc(client, "list_quotes", { p_sort: "quote_number", p_descending: false, p_limit: 1 })) as unknown as {
    records: { id: string; quote_number: string }[];
  };
  const quote = quotes.records[0];
  expect(quote.quote_number).toMatch(/^TKL-\d{4}-\d{5}$/);

  const scripts: string[] = [];
  page.on("request", (request) => scripts.push(request.url()));
  await enterApp(page, "admin@demo.test");
  // The search window (Spotlight) is not part of the first screen: it loads when first opened.
  expect(scripts.filter((url) => /\/SearchSpotlight-/.test(url))).toEqual([]);

  // A quote by its whole number: the quotes group, the first match selected with the arrow key, Enter opens it.
  await searchFor(page, quote.quote_number);
  const dialog = page.getByRole("dialog");
  const quotesGroup = dialog.getByRole("group", { name: "Teklifler" });
  await expect(quotesGroup).toBeVisible();
  expect(scripts.some((url) => /\/SearchSpotlight-.*\.js$/.test(url))).toBe(true);
  const quoteAction = quotesGroup.getByRole("button", { name: new RegExp(`^${quote.quote_number}`) });
  await expect(quoteAction).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await expect(quoteAction).toHaveAttribute("data-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/quotes/${quote.id}$`));
  await expect(dialog).toBeHidden();

  // A customer by "isik", Turkish-folded: "Işık Yazılım A.Ş." of the demo data.
  await searchFor(page, "isik");
  const customer = dialog.getByRole("group", { name: "Müşteriler" }).getByRole("button", { name: /^Işık Yazılım A\.Ş\./ });
  await expect(customer).toBeVisible();
  await customer.click();
  await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Işık Yazılım A.Ş." })).toBeVisible();

  // Too short a query searches nothing; the quick-create commands answer their words.
  await page.getByRole("button", { name: /^Ara: kayıtlar/ }).click();
  await expect(searchInput(page)).toBeFocused();
  await expect(dialog.getByText("Aramak için en az 2 karakter yazın.", { exact: false })).toBeVisible();
  await searchInput(page).fill("yeni müş");
  const newCustomer = dialog.getByRole("group", { name: "Hızlı oluştur" }).getByRole("button", { name: "Yeni müşteri" });
  await expect(newCustomer).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Yeni fırsat" })).toBeHidden();
  await newCustomer.click();
  await expect(page).toHaveURL(/\/customers\?new=1$/);
  await expect(page.getByRole("dialog", { name: "Yeni Müşteri" })).toBeVisible();
});

test("a member of another organization finds nothing of the demo organization", async ({ page }) => {
  // admin@acme.test works in Acme only: the demo organization's "Işık Yazılım" is not found there.
  await enterApp(page, "admin@acme.test");
  await searchFor(page, "isik yazilim");
  await expect(page.getByRole("dialog").getByText("“isik yazilim” ile eşleşen kayıt yok.")).toBeVisible();
});
