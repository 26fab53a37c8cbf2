import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type Response } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { enterApp, enterAppAt } from "./shell-support.ts";

const managerPath = "/admin/organization-manager";
const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Ana menü" });
const table = (page: Page) => page.getByRole("table", { name: "Şirketler" });
const row = (page: Page, slug: string) =>
  table(page)
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: slug, exact: true }) });

/** A slug and a name no other test (or earlier run) uses. */
function freshOrganization(prefix: string) {
  const suffix = randomUUID().slice(0, 6);
  return { slug: `${prefix}-${suffix}`, name: `${prefix === "e2e" ? "Atlas" : "Toros"} Şirketi ${suffix}` };
}

const isCreateCall = (response: Response) =>
  response.url().endsWith("/functions/v1/admin-organizations") && response.request().postDataJSON()?.action === "create";

async function openManager(page: Page) {
  await enterAppAt(page, managerPath, "super@demo.test");
  await expect(h1(page)).toHaveText("Şirket Yönetimi");
  await expect(table(page)).toBeVisible();
}

/** Creates an organization through the form (with its first admin when given); answers its id. */
async function createOrganization(page: Page, { slug, name }: { slug: string; name: string }, firstAdmin?: { email: string; password: string }) {
  await page.getByRole("button", { name: "Yeni şirket", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Yeni şirket" });
  await dialog.getByRole("textbox", { name: "Şirket adı" }).fill(name);
  await dialog.getByRole("textbox", { name: "Kısa ad" }).fill(slug);
  await expect(dialog.getByText("Bu kısa ad kullanılabilir.")).toBeVisible();
  if (firstAdmin) {
    await dialog.getByRole("checkbox", { name: "İlk yöneticiyi şimdi ekle" }).check();
    await dialog.getByRole("textbox", { name: "E-posta" }).fill(firstAdmin.email);
    await dialog.getByRole("textbox", { name: "Ad", exact: true }).fill("İlk");
    await dialog.getByRole("textbox", { name: "Soyad" }).fill("Yönetici");
    await dialog.locator("input[type=password]").fill(firstAdmin.password);
  }
  const created = page.waitForResponse(isCreateCall);
  await dialog.getByRole("button", { name: "Şirketi oluştur" }).click();
  const answer = (await (await created).json()) as { success: boolean; organization: { id: string } };
  expect(answer.success).toBe(true);
  await expect(
    page.getByRole("alert").filter({
      hasText: firstAdmin ? `${name} oluşturuldu, tabloları hazır; ilk yöneticisi ${firstAdmin.email} giriş yapabilir.` : `${name} oluşturuldu, tabloları hazır.`,
    }),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  return answer.organization.id;
}

test("a super admin creates an organization, and its first admin lands in it", async ({ page, browser }) => {
  const organization = freshOrganization("e2e");
  await openManager(page);

  // The list, with search by name or slug.
  await expect(row(page, "demo")).toContainText("Demo Ticaret A.Ş.");
  await expect(row(page, "acme")).toContainText("Acme Sanayi Ltd.");
  const search = page.getByRole("searchbox", { name: "Şirket ara" });
  await search.fill("SANAYİ");
  await expect(row(page, "acme")).toBeVisible();
  await expect(row(page, "demo")).toHaveCount(0);
  await search.fill("no-such-organization");
  await expect(page.getByText("Aramanızla eşleşen şirket yok.")).toBeVisible();
  await search.fill("");

  await page.getByRole("button", { name: "Yeni şirket", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Yeni şirket" });
  const slug = dialog.getByRole("textbox", { name: "Kısa ad" });
  const submit = dialog.getByRole("button", { name: "Şirketi oluştur" });

  // The slug is made from the name, Turkish letters folded and the company form dropped.
  const nameBox = dialog.getByRole("textbox", { name: "Şirket adı" });
  await nameBox.fill("Işık Yazılım A.Ş.");
  await expect(slug).toHaveValue("isik-yazilim");
  await nameBox.fill("");

  // The slug rule, live as it is typed.
  await slug.fill("yeni şirket");
  await expect(dialog.getByText("Kısa ad yalnızca harf, rakam, alt çizgi ve tire içerebilir")).toBeVisible();
  await slug.fill("x-drop-y");
  await expect(dialog.getByText("Kısa ad drop, select, delete gibi SQL sözcükleri içeremez.")).toBeVisible();
  await slug.fill("x".repeat(31));
  await expect(dialog.getByText("Kısa ad en fazla 30 karakter olabilir.")).toBeVisible();
  // Checked in the form on submit too, with the name.
  await submit.click();
  await expect(dialog.getByText("Şirket adı gerekli.")).toBeVisible();
  await expect(dialog.getByText("Kısa ad en fazla 30 karakter olabilir.")).toBeVisible();

  // 'demo' is taken: the database refuses it (409) and the message stands under the slug.
  await slug.fill("demo");
  await dialog.getByRole("textbox", { name: "Şirket adı" }).fill("Kopya Şirket");
  const refused = page.waitForResponse(isCreateCall);
  await submit.click();
  expect((await refused).status()).toBe(409);
  await expect(slug).toHaveAccessibleDescription(/Bu kısa ad başka bir şirkette kullanılıyor\./);
  await expect(slug).toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Vazgeç" }).click();
  await expect(dialog).toBeHidden();

  // Created with its tables and, in the same dialog and transaction, its first admin.
  const admin = { email: `ilk-${organization.slug}@e2e.test`, password: "Gizli.1234" };
  await createOrganization(page, organization, admin);
  const created = row(page, organization.slug);
  await expect(created).toContainText(organization.name);
  await expect(created).toContainText("Temel");
  await expect(created.getByText("Aktif", { exact: true })).toHaveCount(2);
  await expect(created).toContainText("1 aktif, toplam 1 üye");
  await expect(created).toContainText(/Güncel \(v\d+\)/);

  // Its first admin signs in and works in it.
  const adminContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    await enterApp(adminPage, admin.email, admin.password);
    await expect(sidebar(adminPage).getByText(organization.name)).toBeVisible();
  } finally {
    await adminContext.close();
  }

  await page.reload();
  await expect(row(page, organization.slug)).toContainText("1 aktif, toplam 1 üye");
});

test("a super admin edits, deactivates and reactivates an organization", async ({ page }) => {
  const organization = freshOrganization("e2e-edit");
  await openManager(page);
  await createOrganization(page, organization);

  // Name, plan and subscription status.
  await page.getByRole("button", { name: `${organization.name} şirketini düzenle` }).click();
  const edit = page.getByRole("dialog", { name: "Şirketi düzenle" });
  const renamed = `${organization.name} (Yeni)`;
  await edit.getByRole("textbox", { name: "Şirket adı" }).fill(" ");
  await edit.getByRole("button", { name: "Kaydet" }).click();
  await expect(edit.getByText("Şirket adı gerekli.")).toBeVisible();
  await edit.getByRole("textbox", { name: "Şirket adı" }).fill(renamed);
  await edit.getByRole("combobox", { name: "Plan" }).click();
  await page.getByRole("option", { name: "Kurumsal" }).click();
  await edit.getByRole("combobox", { name: "Abonelik durumu" }).click();
  await page.getByRole("option", { name: "Deneme" }).click();
  await edit.getByRole("button", { name: "Kaydet" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `${renamed} güncellendi.` })).toBeVisible();
  await expect(edit).toBeHidden();
  const edited = row(page, organization.slug);
  await expect(edited).toContainText(renamed);
  await expect(edited).toContainText("Kurumsal");
  await expect(edited).toContainText("Deneme");

  // Deactivation asks first and says what it means for the members.
  await page.getByRole("button", { name: `${renamed} şirketini düzenle` }).click();
  await edit.getByRole("button", { name: "Devre dışı bırak" }).click();
  const confirm = page.getByRole("dialog", { name: "Şirketi devre dışı bırak" });
  await expect(confirm).toContainText("Üyeleri bu şirkette hemen çalışamaz olur");
  await confirm.getByRole("button", { name: "Vazgeç" }).click();
  await expect(confirm).toBeHidden();
  await expect(edited.getByText("Aktif", { exact: true })).toHaveCount(1);

  await page.getByRole("button", { name: `${renamed} şirketini düzenle` }).click();
  await edit.getByRole("button", { name: "Devre dışı bırak" }).click();
  await confirm.getByRole("button", { name: "Devre dışı bırak" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `${renamed} devre dışı bırakıldı.` })).toBeVisible();
  await expect(edited).toContainText("Pasif");

  await page.getByRole("button", { name: `${renamed} şirketini düzenle` }).click();
  await expect(edit).toContainText("Şirket devre dışı: üyeleri bu şirkette çalışamaz.");
  await edit.getByRole("button", { name: "Yeniden etkinleştir" }).click();
  const reactivate = page.getByRole("dialog", { name: "Şirketi yeniden etkinleştir" });
  await reactivate.getByRole("button", { name: "Yeniden etkinleştir" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `${renamed} yeniden etkinleştirildi.` })).toBeVisible();
  await expect(edited).not.toContainText("Pasif");
  await expect(edited.getByText("Aktif", { exact: true })).toHaveCount(1);
});

test("the organization the super admin works in cannot be deactivated from the manager", async ({ page }) => {
  await openManager(page);
  const current = await sidebar(page).getByText(/A\.Ş\.|Ltd\./).first().textContent();
  await page.getByRole("button", { name: `${current} şirketini düzenle` }).click();
  const edit = page.getByRole("dialog", { name: "Şirketi düzenle" });
  await expect(edit).toContainText("Şu anda bu şirkette çalışıyorsunuz");
  await expect(edit.getByRole("button", { name: "Devre dışı bırak" })).toBeDisabled();
});

test("an admin cannot open the organization manager", async ({ page }) => {
  await enterApp(page, "admin@demo.test");
  for (const path of [managerPath, "/organization-manager", "/yonetim/sirketler"]) {
    await page.goto(path);
    // The no-access page, where it was asked for.
    await expect(page.getByRole("heading", { level: 1, name: "Bu sayfaya erişiminiz yok" })).toBeVisible();
    await expect(page.getByText("Bu sayfayı yalnızca süper yöneticiler açabilir.")).toBeVisible();
    await expect(page).not.toHaveURL(/\/$/);
    await expect(table(page)).toHaveCount(0);
  }
});

test("the organization manager and its form have no serious or critical accessibility violations", async ({ page }) => {
  const seriousViolations = async () => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    return violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
  };
  await openManager(page);
  expect(await seriousViolations()).toEqual([]);

  await page.getByRole("button", { name: "Yeni şirket", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Yeni şirket" });
  await dialog.getByRole("textbox", { name: "Kısa ad" }).fill("kötü slug");
  await dialog.getByRole("button", { name: "Şirketi oluştur" }).click();
  await expect(dialog.getByText("Şirket adı gerekli.")).toBeVisible();
  expect(await seriousViolations()).toEqual([]);
  await dialog.getByRole("button", { name: "Vazgeç" }).click();

  await page.getByRole("button", { name: "Demo Ticaret A.Ş. şirketini düzenle" }).click();
  await expect(page.getByRole("dialog", { name: "Şirketi düzenle" })).toBeVisible();
  expect(await seriousViolations()).toEqual([]);
});
