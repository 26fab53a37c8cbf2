import { expect, test, type Page } from "@playwright/test";
import { createMember } from "../tests/support/accounts.ts";
import { enterApp, enterAppAt, openUserMenu, scrollsSideways } from "./shell-support.ts";
import { signIn } from "./support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Ana menü" });

test.describe("routes", () => {
  test("unknown paths, nested ones too, redirect to the login page", async ({ page }) => {
    for (const path of ["/no-such-page", "/customers/1/edit", "/admin/no-such-page"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });

  test("a record that is not there shows its module's own page, inside the layout; the profile too", async ({ page }) => {
    // Eight pages, each loaded afresh.
    test.setTimeout(60_000);
    await enterApp(page, "satis@demo.test");
    const pages: [string, string, string][] = [
      ["/customers/1", "Müşteri Ayrıntısı", "Kayıt bulunamadı"],
      ["/contacts/1", "Kişi Ayrıntısı", "Kayıt bulunamadı"],
      ["/deals/1", "Fırsat Ayrıntısı", "Kayıt bulunamadı"],
      ["/quotes/1", "Teklif Ayrıntısı", "Kayıt bulunamadı"],
      ["/contracts/1", "Sözleşme Ayrıntısı", "Kayıt bulunamadı"],
      ["/documents/1", "Belge Ayrıntısı", "Kayıt bulunamadı"],
      ["/tasks/1", "Görev Ayrıntısı", "Kayıt bulunamadı"],
      ["/profile", "Profilim", "Son Giriş Denemeleri"],
    ];
    for (const [path, title, emptyTitle] of pages) {
      await page.goto(path);
      await expect(h1(page)).toHaveText(title);
      await expect(page.getByRole("heading", { level: 2, name: emptyTitle })).toBeVisible();
      // Inside the layout: the sidebar with the organization is there.
      await expect(sidebar(page)).toBeVisible();
      await expect(sidebar(page).getByText("Demo Ticaret A.Ş.")).toBeVisible();
    }
    // A detail page leads back to its list.
    await page.goto("/deals/1");
    await page.getByRole("link", { name: "Fırsatlara dön" }).click();
    await expect(page).toHaveURL(/\/deals$/);
  });

  test("the sidebar marks the current module", async ({ page }) => {
    await enterAppAt(page, "/contacts/7", "satis@demo.test");
    await expect(sidebar(page).getByRole("link", { name: "Kişiler" })).toHaveAttribute("aria-current", "page");
    await expect(sidebar(page).getByRole("link", { name: "Ana Sayfa" })).not.toHaveAttribute("aria-current");
  });
});

test.describe("the admin group", () => {
  test("a plain user who opens an admin path sees the no-access page there, with the way home", async ({ page }) => {
    await enterApp(page, "satis@demo.test");
    // No admin entries in the sidebar.
    await expect(sidebar(page).getByText("Yönetim", { exact: true })).toHaveCount(0);
    for (const path of ["/admin", "/admin/users", "/admin/roles", "/organization-manager", "/yonetim/sirketler"]) {
      await page.goto(path);
      await expect(h1(page)).toHaveText("Bu sayfaya erişiminiz yok");
      await expect(page.getByText("Bu sayfayı yalnızca yöneticiler açabilir.")).toBeVisible();
      expect(new URL(page.url()).pathname).not.toBe("/");
    }
    await page.getByRole("link", { name: "Ana Sayfaya Dön" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(h1(page)).toHaveText("Hoş geldiniz, Mehmet Demir");
  });

  test("an admin opens the admin pages but not the super admin's", async ({ page }) => {
    await enterApp(page, "admin@demo.test");
    await sidebar(page).getByRole("button", { name: "Yönetim Sayfaları" }).click();
    await sidebar(page).getByRole("link", { name: "Yönetim Paneli" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(h1(page)).toHaveText("Yönetim Paneli");
    const panel = page.getByRole("list", { name: "Yönetim sayfaları" });
    await expect(panel.getByRole("link")).toHaveText([
      /^Kullanıcılar/,
      /^Genel Ayarlar/,
      /^Operasyon Ayarları/,
      /^Roller ve Yetkiler/,
      /^Veritabanı/,
      /^Belge Şablonları/,
      /^Özel Alanlar/,
      /^Denetim Kaydı/,
    ]);
    await panel.getByRole("link", { name: /^Belge Şablonları/ }).click();
    await expect(page).toHaveURL(/\/admin\/document-templates$/);
    await expect(h1(page)).toHaveText("Belge Şablonları");

    for (const path of ["/admin/super-admin-switcher", "/admin/organization-manager", "/organization-manager"]) {
      await page.goto(path);
      await expect(h1(page)).toHaveText("Bu sayfaya erişiminiz yok");
      await expect(page.getByText("Bu sayfayı yalnızca süper yöneticiler açabilir.")).toBeVisible();
    }
  });

  test("a super admin reaches the organization manager at all three paths", async ({ page }) => {
    await enterApp(page, "super@demo.test");
    for (const path of ["/admin/organization-manager", "/organization-manager", "/yonetim/sirketler"]) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(h1(page)).toHaveText("Şirket Yönetimi");
    }
    await page.goto("/admin/super-admin-switcher");
    await expect(h1(page)).toHaveText("Süper Yönetici Geçişi");
    // The sidebar offers both super admin pages.
    await expect(sidebar(page).getByRole("link", { name: "Şirket Yönetimi" })).toBeVisible();
  });

  test("admin/authorization and admin/modern-roles redirect to admin/roles", async ({ page }) => {
    await enterApp(page, "admin@demo.test");
    for (const path of ["/admin/authorization", "/admin/modern-roles"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/admin\/roles$/);
      await expect(h1(page)).toHaveText("Roller ve Yetkiler");
    }
  });
});

test.describe("user menu", () => {
  test("switches the language to English and back, and remembers it", async ({ page }) => {
    await enterApp(page, "admin@demo.test");
    await openUserMenu(page);
    await page.getByRole("menuitemradio", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(h1(page)).toHaveText("Welcome, Ayşe Yılmaz");
    await expect(page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Customers" })).toBeVisible();

    await page.reload();
    await expect(h1(page)).toHaveText("Welcome, Ayşe Yılmaz");
    await openUserMenu(page);
    await expect(page.getByRole("menuitemradio", { name: "English" })).toHaveAttribute("aria-checked", "true");
    await page.getByRole("menuitemradio", { name: "Türkçe" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "tr");
    await expect(h1(page)).toHaveText("Hoş geldiniz, Ayşe Yılmaz");
  });

  test("switches to the dark theme and back, and remembers it", async ({ page }) => {
    const html = page.locator("html");
    await enterApp(page, "admin@demo.test");
    await expect(html).toHaveAttribute("data-mantine-color-scheme", "light");
    await openUserMenu(page);
    await page.getByRole("menuitemradio", { name: "Koyu" }).click();
    await expect(html).toHaveAttribute("data-mantine-color-scheme", "dark");

    await page.reload();
    await expect(h1(page)).toBeVisible();
    await expect(html).toHaveAttribute("data-mantine-color-scheme", "dark");
    await openUserMenu(page);
    await page.getByRole("menuitemradio", { name: "Açık" }).click();
    await expect(html).toHaveAttribute("data-mantine-color-scheme", "light");
  });

  test("leads to the profile and signs out", async ({ page }) => {
    await enterApp(page, "satis@demo.test");
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Profilim" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Çıkış yap" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("loading and errors", () => {
  test("shows 'Yükleniyor...' while a page loads", async ({ page }) => {
    await enterApp(page, "satis@demo.test");
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/TasksPage-[\w-]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await sidebar(page).getByRole("link", { name: "Görevler" }).click();
    await expect(page.getByText("Yükleniyor...")).toBeVisible();
    release();
    await expect(h1(page)).toHaveText("Görevler");
    await expect(page.getByText("Yükleniyor...")).toHaveCount(0);
  });

  test("a page that cannot load shows the error screen inside the layout", async ({ page }) => {
    await enterApp(page, "satis@demo.test");
    const customersChunk = /\/assets\/CustomersPage-[\w-]+\.js$/;
    await page.route(customersChunk, (route) => route.abort());
    await sidebar(page).getByRole("link", { name: "Müşteriler" }).click();
    await expect(h1(page)).toHaveText("Bir Hata Oluştu");
    await expect(sidebar(page)).toBeVisible();

    // Another page of the sidebar opens in place of the error (it was this path's only).
    await sidebar(page).getByRole("link", { name: "Görevler" }).click();
    await expect(h1(page)).toHaveText("Görevler");
    await sidebar(page).getByRole("link", { name: "Müşteriler" }).click();
    await expect(h1(page)).toHaveText("Bir Hata Oluştu");

    // 'Ana Sayfaya Dön' loads the home page afresh.
    await page.getByRole("button", { name: "Ana Sayfaya Dön" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(h1(page)).toHaveText("Hoş geldiniz, Mehmet Demir");

    // 'Sayfayı Yenile' reloads the page, which loads once the chunk can be fetched again.
    await page.goto("/customers");
    await expect(h1(page)).toHaveText("Bir Hata Oluştu");
    await page.unroute(customersChunk);
    await page.getByRole("button", { name: "Sayfayı Yenile" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(h1(page)).toHaveText("Müşteriler");
  });

  test("a layout that cannot load shows the full error screen", async ({ page }) => {
    await enterApp(page, "satis@demo.test");
    await page.route(/\/assets\/AppLayout-[\w-]+\.js$/, (route) => route.abort());
    await page.reload();
    await expect(h1(page)).toHaveText("Bir Hata Oluştu");
    await expect(page.getByRole("button", { name: "Sayfayı Yenile" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Ana Sayfaya Dön" })).toBeVisible();
    await expect(sidebar(page)).toHaveCount(0);
  });
});

test.describe("keyboard", () => {
  test("the sidebar works from the keyboard", async ({ page }) => {
    await enterAppAt(page, "/", "satis@demo.test");
    await expect(h1(page)).toBeVisible();

    // Tab from the top of the page through the sidebar to a module, and open it.
    const customers = sidebar(page).getByRole("link", { name: "Müşteriler" });
    for (let presses = 0; presses < 15; presses++) {
      await page.keyboard.press("Tab");
      if (await customers.evaluate((link) => link === document.activeElement)) break;
    }
    await expect(customers).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/customers$/);
    await expect(h1(page)).toHaveText("Müşteriler");
    // Focus moves to the new page, as after a full page load.
    await expect(page.locator("#main-content")).toBeFocused();
  });

  test("the first Tab stop skips to the content", async ({ page }) => {
    await enterAppAt(page, "/contacts", "satis@demo.test");
    await expect(h1(page)).toBeVisible();
    await page.keyboard.press("Tab");
    const skipLink = page.getByRole("link", { name: "İçeriğe geç" });
    await expect(skipLink).toBeFocused();
    await expect(skipLink).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("#main-content")).toBeFocused();
    await expect(page).toHaveURL(/\/contacts$/);
  });

  test("the user menu opens and closes from the keyboard", async ({ page }) => {
    await enterApp(page, "satis@demo.test");
    const trigger = page.getByRole("button", { name: /^Kullanıcı menüsü / });
    await trigger.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Profilim" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(trigger).toBeFocused();
  });
});

test.describe("on a 390 px wide phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("pages fit without horizontal scrolling and the menu opens from the header", async ({ page }) => {
    await enterApp(page, "admin@demo.test");
    await expect(h1(page)).toHaveText("Hoş geldiniz, Ayşe Yılmaz");
    expect(await scrollsSideways(page)).toBe(false);

    // The sidebar is closed and out of the Tab order until the menu button opens it.
    const menuButton = page.getByRole("button", { name: "Menüyü aç" });
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(sidebar(page)).toHaveAttribute("inert", "");
    await menuButton.click();
    await expect(page.getByRole("button", { name: "Menüyü kapat" })).toHaveAttribute("aria-expanded", "true");
    await sidebar(page).getByRole("link", { name: "Müşteriler" }).click();
    await expect(h1(page)).toHaveText("Müşteriler");
    await expect(page.getByRole("button", { name: "Menüyü aç" })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);

    for (const path of ["/profile", "/admin", "/customers/1"]) {
      await page.goto(path);
      await expect(h1(page)).toBeVisible();
      expect(await scrollsSideways(page), path).toBe(false);
    }
  });
});

test.describe("profile", () => {
  const password = "Profil.123";
  const newPassword = "Yeni.Sifre.456";

  test("shows the account and edits the name and phone", async ({ page, baseURL }) => {
    const email = (await createMember(baseURL ?? "", { password })).email;
    await enterAppAt(page, "/profile", email, password);
    await expect(h1(page)).toHaveText("Profilim");
    const account = page.getByRole("region", { name: "Hesap Bilgileri" });
    await expect(account).toContainText(email);
    await expect(account).toContainText("Demo Ticaret A.Ş.");
    await expect(account).toContainText("Kullanıcı");
    // This sign-in is the last one.
    await expect(account.getByText("Kayıt yok")).toHaveCount(0);

    // Name: required, then saved; the user menu shows the new name at once.
    const nameForm = page.getByRole("region", { name: "Kişisel Bilgiler" });
    const firstName = nameForm.getByRole("textbox", { name: "Ad", exact: true });
    await firstName.fill("  ");
    await nameForm.getByRole("button", { name: "Kaydet" }).click();
    await expect(nameForm.getByText("Ad gerekli.")).toBeVisible();
    await firstName.fill("Derya");
    await nameForm.getByRole("textbox", { name: "Soyad", exact: true }).fill("Aksoy");
    // The phone (the sender's phone in their e-mails): checked, then kept and shown grouped.
    const phone = nameForm.getByRole("textbox", { name: "Telefon" });
    await phone.fill("12");
    await nameForm.getByRole("button", { name: "Kaydet" }).click();
    await expect(nameForm.getByText("Geçerli bir telefon numarası girin.")).toBeVisible();
    await phone.fill("0532 111 22 33");
    await nameForm.getByRole("button", { name: "Kaydet" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Bilgileriniz güncellendi." })).toBeVisible();
    await expect(phone).toHaveValue("+90 532 111 22 33");
    await expect(page.getByRole("button", { name: "Kullanıcı menüsü (Derya Aksoy)" })).toBeVisible();
    await page.goto("/");
    await expect(h1(page)).toHaveText("Hoş geldiniz, Derya Aksoy");
  });

  test("changes the password after checking the current one, and lists the attempts", async ({ page, baseURL }) => {
    const email = (await createMember(baseURL ?? "", { password })).email;
    await enterAppAt(page, "/profile", email, password);
    const passwordForm = page.getByRole("region", { name: "Şifre değiştir" });
    const current = passwordForm.getByRole("textbox", { name: "Mevcut şifre", exact: true });
    const next = passwordForm.getByRole("textbox", { name: "Yeni şifre", exact: true });
    const again = passwordForm.getByRole("textbox", { name: "Yeni şifre (tekrar)", exact: true });
    const submit = passwordForm.getByRole("button", { name: "Şifreyi değiştir" });

    // Checked in the browser first.
    await current.fill(password);
    await next.fill("kısa");
    await again.fill("başka");
    await submit.click();
    await expect(passwordForm.getByText("Şifre en az 6 karakter olmalı.")).toBeVisible();
    await expect(passwordForm.getByText("Şifreler eşleşmiyor.")).toBeVisible();
    // bcrypt's 72 bytes: 37 two-byte letters are too many.
    await next.fill("ş".repeat(37));
    await again.fill("ş".repeat(37));
    await submit.click();
    await expect(passwordForm.getByText("Şifre en fazla 72 bayt olabilir")).toBeVisible();

    // The database refuses a common password, in any letter case.
    await next.fill("Galatasaray1905");
    await again.fill("Galatasaray1905");
    await submit.click();
    await expect(passwordForm.getByText("Bu şifre çok yaygın; daha güçlü bir şifre seçin.")).toBeVisible();

    // Then the current password, in the database.
    await current.fill("Yanlis.Sifre");
    await next.fill(newPassword);
    await again.fill(newPassword);
    await submit.click();
    await expect(passwordForm.getByText("Mevcut şifre hatalı.")).toBeVisible();

    // The failed check is the newest of the user's login attempts.
    const attempts = page.getByRole("table", { name: "Son Giriş Denemeleri" });
    await expect(attempts.getByRole("row").nth(1)).toContainText("Başarısız");
    await expect(attempts.getByRole("row").nth(1)).toContainText("Hatalı şifre");
    await expect(attempts.getByRole("row").nth(2)).toContainText("Başarılı");

    await current.fill(password);
    await submit.click();
    await expect(page.getByRole("alert").filter({ hasText: "Şifreniz değiştirildi." })).toBeVisible();
    await expect(current).toHaveValue("");

    // The old password no longer signs in; the new one does.
    await openUserMenu(page);
    await page.getByRole("menuitem", { name: "Çıkış yap" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, email, password);
    await expect(page.getByText("E-posta veya şifre hatalı.")).toBeVisible();
    await enterApp(page, email, newPassword);
    await expect(h1(page)).toHaveText("Hoş geldiniz, Deniz Arslan");
  });
});
