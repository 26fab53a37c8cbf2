import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { createMember } from "../tests/support/accounts.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterAppAt, scrollsSideways } from "./shell-support.ts";

// Every customer made here carries the run's suffix and is deleted again at the end of its
// test, so the demo organization keeps its 200 customers for the other specs.
const suffix = randomUUID().slice(0, 6);

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const table = (page: Page) => page.getByRole("table", { name: "Müşteri listesi" });
const search = (page: Page) => page.getByRole("searchbox", { name: "Ara" });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

test("a customer is created with a valid VKN; the same VKN again is flagged and merged into it", async ({ page }) => {
  // Two forms, a merge and axe twice on the local stack: on a busy 2-core machine over a minute.
  test.setTimeout(120_000);
  const alfa = `E2E Alfa ${suffix}`;
  const beta = `E2E Beta ${suffix}`;
  let creates = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/rpc/create_customer")) creates += 1;
  });
  await enterAppAt(page, "/customers", "admin@demo.test");
  await expect(h1(page)).toHaveText("Müşteriler");

  // An invalid VKN is refused on its field before anything is sent.
  await page.getByRole("button", { name: "Yeni müşteri" }).click();
  const form = page.getByRole("dialog", { name: "Yeni müşteri" });
  await form.getByRole("textbox", { name: "Unvan / Ad Soyad" }).fill(alfa);
  await form.getByRole("textbox", { name: "VKN / TCKN" }).fill("1234567891");
  await form.getByRole("textbox", { name: "Telefon" }).fill("0212 555 12 34");
  await form.getByRole("textbox", { name: "E-posta" }).click();
  await expect(form.getByRole("textbox", { name: "Telefon" })).toHaveValue("+902125551234");
  await form.getByRole("button", { name: "Müşteriyi oluştur" }).click();
  await expect(form.getByText("Geçerli bir vergi kimlik numarası (10 hane) girin.")).toBeVisible();
  expect(creates).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);

  await form.getByRole("textbox", { name: "VKN / TCKN" }).fill("1234567890");
  await form.getByRole("button", { name: "Müşteriyi oluştur" }).click();
  await expect(h1(page)).toHaveText(alfa);
  await expect(page).toHaveURL(/\/customers\/[0-9a-f-]{36}$/);

  // The same VKN again: the existing customer is shown with the reason; created anyway.
  await page.getByRole("link", { name: "Müşterilere dön" }).click();
  await page.getByRole("button", { name: "Yeni müşteri" }).click();
  await form.getByRole("textbox", { name: "Unvan / Ad Soyad" }).fill(beta);
  await form.getByRole("textbox", { name: "VKN / TCKN" }).fill("1234567890");
  // The province is searched (folded: "ankara", "ANKARA" alike) and picked from the list, then a district of it.
  await form.getByRole("combobox", { name: "İl", exact: true }).fill("ankara");
  await page.getByRole("option", { name: "Ankara", exact: true }).click();
  const district = form.getByRole("combobox", { name: "İlçe", exact: true });
  await district.fill("çank");
  await expect(page.getByRole("option", { name: "Kadıköy" })).toHaveCount(0);
  await page.getByRole("option", { name: "Çankaya", exact: true }).click();
  await expect(district).toHaveValue("Çankaya");
  await form.getByRole("button", { name: "Müşteriyi oluştur" }).click();
  const similar = form.getByRole("list", { name: "Benzer müşteriler" }).getByRole("listitem").filter({ hasText: alfa });
  await expect(similar).toContainText("Aynı VKN/TCKN");
  await expect(similar.getByRole("link", { name: "Mevcut kaydı aç" })).toBeVisible();

  // Created, then merged with the existing one: Alfa stays, with Beta's province.
  await similar.getByRole("button", { name: "Oluştur ve bununla birleştir" }).click();
  const merge = page.getByRole("dialog", { name: "Müşterileri birleştir" });
  await merge.getByRole("radiogroup", { name: "Kalacak kayıt" }).getByRole("radio", { name: alfa }).check();
  await merge.getByRole("radio", { name: "Ankara" }).check();
  await merge.getByRole("button", { name: "Birleştir" }).click();
  await expect(notification(page, `Müşteriler “${alfa}” altında birleştirildi.`)).toBeVisible();
  await expect(h1(page)).toHaveText(alfa);
  await expect(page.getByText("Ankara")).toBeVisible();

  // The history tells the merge; then the customer is deleted again.
  await page.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
  await expect(page.getByText("Ayşe Yılmaz başka bir kaydı bununla birleştirdi")).toBeVisible();
  await page.getByRole("group", { name: "Kayıt işlemleri" }).getByRole("button", { name: "Sil" }).click();
  await page.getByRole("dialog", { name: "Kayıt silinsin mi?" }).getByRole("button", { name: "Sil" }).click();
  await expect(h1(page)).toHaveText("Müşteriler");
});

test("a Turkish-folded search finds Işık, the list fits a phone and passes axe", async ({ page }) => {
  await enterAppAt(page, "/customers", "satis@demo.test");
  await expect(table(page)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await search(page).fill("isik");
  await expect(page.getByText("Toplam 1 müşteri")).toBeVisible();
  await expect(table(page).getByRole("link", { name: "Işık Yazılım A.Ş." })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("list", { name: "Müşteri listesi" }).getByRole("link", { name: "Işık Yazılım A.Ş." })).toBeVisible();
  // The table gives way to cards as the layout settles; a page that really scrolls sideways still fails.
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  // The first screen shows records: the filters fold behind one button.
  await search(page).fill("");
  await expect(page.getByText("Toplam 1 müşteri")).toBeHidden();
  await expect(page.getByRole("combobox", { name: "Durum" })).toBeHidden();
  await expect(page.getByRole("list", { name: "Müşteri listesi" }).getByRole("link").first()).toBeInViewport();
  await page.getByRole("button", { name: "Filtreler" }).click();
  await page.getByRole("combobox", { name: "Durum" }).selectOption({ label: "Aktif" });
  await expect(page.getByRole("button", { name: "Filtreler (1)" })).toBeVisible();
});

test("a saved view applies again, and two customers get a new owner at once", async ({ page, baseURL }) => {
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const names = [`E2E Gama ${suffix}`, `E2E Delta ${suffix}`];
  for (const name of names) expect(await rpc(client, "create_customer", { p_values: { name, status: "active" } })).toMatchObject({ success: true });
  await client.auth.signOut({ scope: "local" });

  await enterAppAt(page, "/customers", "admin@demo.test");
  await expect(table(page)).toBeVisible();

  // A view: searched, filtered on "Aktif".
  await search(page).fill(suffix);
  await page.getByRole("combobox", { name: "Durum" }).selectOption({ label: "Aktif" });
  await expect(page.getByText("Toplam 2 müşteri")).toBeVisible();
  await page.getByRole("button", { name: "Görünümler" }).click();
  await page.getByRole("menuitem", { name: "Görünümü kaydet" }).click();
  const saveView = page.getByRole("dialog", { name: "Görünümü kaydet" });
  await saveView.getByRole("textbox", { name: "Görünüm adı" }).fill(`Aktif ${suffix}`);
  await saveView.getByRole("button", { name: "Görünümü kaydet" }).click();
  await expect(notification(page, `“Aktif ${suffix}” görünümü kaydedildi.`)).toBeVisible();

  await page.reload();
  await expect(table(page)).toBeVisible();
  await expect(search(page)).toHaveValue("");
  await page.getByRole("button", { name: "Görünümler" }).click();
  await page.getByRole("menuitem", { name: `Aktif ${suffix}` }).click();
  await expect(search(page)).toHaveValue(suffix);
  await expect(page.getByRole("combobox", { name: "Durum" })).toHaveValue("active");
  await expect(page.getByText("Toplam 2 müşteri")).toBeVisible();

  // Both get Mehmet Demir as their owner.
  for (const name of names) await page.getByRole("checkbox", { name: `${name} kaydını seç` }).check();
  const bulk = page.getByRole("region", { name: "Toplu işlemler" });
  await expect(bulk).toContainText("2 kayıt seçildi");
  await bulk.getByRole("combobox", { name: "Yeni sahip" }).selectOption({ label: "Mehmet Demir" });
  await bulk.getByRole("button", { name: "Sahibini değiştir" }).click();
  await expect(notification(page, "2 kayıt güncellendi.")).toBeVisible();
  for (const name of names) await expect(table(page).getByRole("row").filter({ hasText: name })).toContainText("Mehmet Demir");

  // Two selected rows may be merged: the dialog offers either as the one that stays.
  for (const name of names) await page.getByRole("checkbox", { name: `${name} kaydını seç` }).check();
  await bulk.getByRole("button", { name: "Birleştir" }).click();
  const merge = page.getByRole("dialog", { name: "Müşterileri birleştir" });
  for (const name of names) await expect(merge.getByRole("radiogroup", { name: "Kalacak kayıt" }).getByRole("radio", { name })).toBeVisible();
  await merge.getByRole("button", { name: "Vazgeç" }).click();
  await expect(merge).toBeHidden();

  // And they go again (bulk delete, confirmed).
  for (const name of names) await page.getByRole("checkbox", { name: `${name} kaydını seç` }).check();
  await bulk.getByRole("button", { name: "Sil" }).click();
  await page.getByRole("dialog", { name: "Seçili kayıtlar silinsin mi?" }).getByRole("button", { name: "Sil" }).click();
  await expect(notification(page, "2 kayıt silindi.")).toBeVisible();
  await expect(page.getByText("Aramanıza uyan müşteri yok.")).toBeVisible();
});

test("a user who sees only their own customers cannot open another's by its address", async ({ page, baseURL }) => {
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const roleKey = `kendi_${suffix.replace(/[^a-z0-9]/g, "x")}`;
  expect(await rpc(client, "save_role", { p_key: roleKey, p_name: `Kendi ${suffix}`, p_permissions: { customers: { view: "own" } } }))
    .toMatchObject({ success: true });
  const found = await rpc(client, "list_customers", { p_search: "Işık Yazılım" });
  const isik = (found.records as { id: string; name: string }[]).find((record) => record.name === "Işık Yazılım A.Ş.");
  expect(isik).toBeDefined();
  await client.auth.signOut({ scope: "local" });
  const member = await createMember(baseURL!, { role: roleKey });

  await enterAppAt(page, `/customers/${isik!.id}`, member.email, member.password);
  await expect(page.getByRole("heading", { level: 2, name: "Kayıt bulunamadı" })).toBeVisible();
});

test("a contact is added in place on its customer's page; a contact's page lists the deals it is on", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const company = `Ekin Makine ${suffix}`;
  const lastName = `Zeytinoğlu ${suffix}`;
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const created = async (rpcName: string, values: Record<string, unknown>) => {
    const answer = await rpc(client, rpcName, { p_values: values });
    expect(answer).toMatchObject({ success: true });
    return (answer.record as { id: string }).id;
  };
  const customerId = await created("create_customer", { name: company });
  const contactId = await created("create_contact", { first_name: "Oya", last_name: `Kuleli ${suffix}`, customer_id: customerId });
  // Two deals of the customer: the contact is on the first only.
  const onDeal = await created("create_deal", { title: `E2E Kule ${suffix}`, customer_id: customerId });
  const otherDeal = await created("create_deal", { title: `E2E Liman ${suffix}`, customer_id: customerId });
  expect(await rpc(client, "set_deal_contacts", { p_id: onDeal, p_contact_ids: [contactId] })).toMatchObject({ success: true });
  try {
    await enterAppAt(page, `/customers/${customerId}`, "admin@demo.test");
    await expect(h1(page)).toHaveText(company);
    await page.getByRole("tab", { name: "Kişiler (1)" }).click();
    const contacts = page.getByRole("table", { name: "Bağlı kişiler" });
    await expect(contacts.getByRole("link", { name: `Oya Kuleli ${suffix}` })).toBeVisible();

    // The contact form opens here, its customer shown and fixed; once saved the tab counts and lists it.
    await page.getByRole("button", { name: "Kişi ekle" }).click();
    const form = page.getByRole("dialog", { name: "Yeni kişi" });
    const customer = form.getByRole("textbox", { name: "Müşteri" }).or(form.getByRole("combobox", { name: "Müşteri" }));
    await expect(customer).toHaveValue(company);
    await expect(customer).toHaveAttribute("readonly", "");
    await form.getByRole("textbox", { name: "Ad", exact: true }).fill("Elif");
    await form.getByRole("textbox", { name: "Soyad" }).fill(lastName);
    await form.getByRole("button", { name: "Kişiyi oluştur" }).click();
    await expect(notification(page, `“Elif ${lastName}” kişisi oluşturuldu.`)).toBeVisible();
    await expect(form).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/customers/${customerId}$`));
    await expect(page.getByRole("tab", { name: "Kişiler (2)" })).toBeVisible();
    await expect(contacts.getByRole("link", { name: `Elif ${lastName}` })).toBeVisible();

    // The contact's deals: the one it is on, not the customer's other one; a new deal starts with both.
    await contacts.getByRole("link", { name: `Oya Kuleli ${suffix}` }).click();
    await expect(h1(page)).toHaveText(`Oya Kuleli ${suffix}`);
    await page.getByRole("tab", { name: "Fırsatlar (1)" }).click();
    const deals = page.getByRole("table", { name: "Bağlı fırsatlar" });
    await expect(deals.getByRole("link", { name: `E2E Kule ${suffix}` })).toBeVisible();
    await expect(deals.getByRole("link", { name: `E2E Liman ${suffix}` })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Yeni fırsat" }))
      .toHaveAttribute("href", `/deals?new=1&customer_id=${customerId}&contact_id=${contactId}`);
  } finally {
    const listed = await rpc(client, "list_contacts", { p_filters: { customer_id: customerId } });
    const contactIds = (listed.records as { id: string }[]).map((record) => record.id);
    expect(await rpc(client, "delete_deals", { p_ids: [onDeal, otherDeal] })).toMatchObject({ success: true });
    expect(await rpc(client, "delete_contacts", { p_ids: contactIds })).toMatchObject({ success: true });
    expect(await rpc(client, "delete_customers", { p_ids: [customerId] })).toMatchObject({ success: true });
    await client.auth.signOut({ scope: "local" });
  }
});
