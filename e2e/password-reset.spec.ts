import { expect, test, type Page } from "@playwright/test";
import { createMember, testPassword } from "../tests/support/accounts.ts";
import { caughtFor } from "./mail-support.ts";
import { enterApp } from "./shell-support.ts";
import { signIn } from "./support.ts";

const neutralAnswer = "E-posta adresi kayıtlıysa şifre yenileme bağlantısı gönderildi.";

/** Asks for a reset link from the login page's "Şifremi unuttum". */
async function askForLink(page: Page, email: string) {
  await page.goto("/login");
  await page.getByRole("link", { name: "Şifremi unuttum" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The address changes first; the login page (its own "E-posta" field) stays on screen until
  // the page's code has loaded: fill the field once the forgot-password page is there.
  await expect(page.getByRole("heading", { name: "Şifremi unuttum" })).toBeVisible();
  await page.getByRole("textbox", { name: "E-posta" }).fill(email);
  await page.getByRole("button", { name: "Bağlantı gönder" }).click();
  await expect(page.getByText(neutralAnswer)).toBeVisible();
}

test("a member resets a forgotten password through the e-mailed link, signs in with it, and the link works only once", async ({ page, baseURL }) => {
  // Its own member: the demo accounts' passwords stay as they are for the other journeys.
  const { email } = await createMember(baseURL!);
  const newPassword = "Yeni.Sifre-2026";

  // An address without an account gets the very same answer (and no e-mail).
  await askForLink(page, "kimse-yok@test.example");
  await askForLink(page, email);

  await expect.poll(async () => (await caughtFor(page, email)).length).toBe(1);
  const [message] = await caughtFor(page, email);
  expect(message.subject).toBe("Demo Ticaret A.Ş.: şifre yenileme");
  expect(message.text).toContain("Merhaba Deniz Arslan");
  expect(message.text).toContain("30 dakika");
  const link = /https?:\/\/\S+\/reset-password#token=[A-Za-z0-9_-]+/.exec(message.text ?? "")?.[0];
  expect(link, "the e-mail carries the reset link").toBeTruthy();
  expect(new URL(link!).origin).toBe(new URL(baseURL!).origin);
  expect((await caughtFor(page, "kimse-yok@test.example")).length).toBe(0);

  // The link opens the reset page; the token leaves the address bar at once.
  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Yeni şifre belirleyin" })).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password$/);
  const password = page.getByRole("textbox", { name: "Yeni şifre", exact: true });
  const again = page.getByRole("textbox", { name: "Yeni şifre (tekrar)" });
  await password.fill("12345");
  await page.getByRole("button", { name: "Şifreyi yenile" }).click();
  await expect(page.getByText("Şifre en az 6 karakter olmalı.")).toBeVisible();
  await password.fill(newPassword);
  await again.fill(newPassword);
  await page.getByRole("button", { name: "Şifreyi yenile" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Şifreniz yenilendi. Yeni şifrenizle giriş yapın.")).toBeVisible();

  // The old password no longer works; the new one does.
  await signIn(page, email, testPassword);
  await expect(page.getByText("E-posta veya şifre hatalı.")).toBeVisible();
  await enterApp(page, email, newPassword);

  // A second use of the link is refused.
  await page.goto(link!);
  await page.getByRole("textbox", { name: "Yeni şifre", exact: true }).fill("Baska.Sifre-2027");
  await page.getByRole("textbox", { name: "Yeni şifre (tekrar)" }).fill("Baska.Sifre-2027");
  await page.getByRole("button", { name: "Şifreyi yenile" }).click();
  await expect(page.getByText("Bu bağlantı geçersiz, daha önce kullanılmış ya da süresi dolmuş. Yeni bir bağlantı isteyin.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Yeni bağlantı iste" })).toBeVisible();
});
