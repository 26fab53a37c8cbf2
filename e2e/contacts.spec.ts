import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { enterApp } from "./shell-support.ts";

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

test("an admin records a contact with consent, notes it, exports its data and erases it", async ({ page }) => {
  test.setTimeout(60_000);
  const lastName = `Yıldız ${randomUUID().slice(0, 6)}`;
  await enterApp(page, "admin@demo.test");
  await page.goto("/contacts");
  await expect(page.getByRole("table", { name: "Kişi listesi" })).toBeVisible();

  await page.getByRole("button", { name: "Yeni Kişi" }).click();
  const form = page.getByRole("dialog", { name: "Yeni Kişi" });
  await form.getByRole("textbox", { name: "Ad", exact: true }).fill("Elif");
  await form.getByRole("textbox", { name: "Soyad" }).fill(lastName);
  await form.getByRole("textbox", { name: "1. e-posta adresi" }).fill("elif@example.com");
  await form.getByRole("combobox", { name: "1. telefonun türü" }).selectOption({ label: "İş" });
  await form.getByRole("textbox", { name: "1. telefon numarası" }).fill("0532 111 22 33");
  // Consent needs the channel it was given through.
  await form.getByRole("checkbox", { name: "KVKK açık rızası alındı" }).check();
  await form.getByRole("button", { name: "Kişiyi Oluştur" }).click();
  await expect(form.getByText("Bu alan zorunludur.")).toBeVisible();
  await form.getByRole("combobox", { name: "Rızanın alındığı kanal" }).selectOption({ label: "Yüz yüze" });
  await form.getByRole("checkbox", { name: "SMS" }).check();
  await form.getByRole("button", { name: "Kişiyi Oluştur" }).click();

  await expect(h1(page)).toHaveText(`Elif ${lastName}`);
  await expect(page.getByText("+905321112233")).toBeVisible();
  await expect(page.getByText(/^Var · Yüz yüze/)).toBeVisible();
  await expect(page.getByText("SMS: Var")).toBeVisible();

  await page.getByRole("tab", { name: "Notlar ve geçmiş" }).click();
  await page.getByRole("textbox", { name: "Yeni not" }).fill("Fuarda tanıştık.");
  await page.getByRole("button", { name: "Not ekle" }).click();
  await expect(page.getByText("Fuarda tanıştık.")).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Verileri indir (JSON)" }).click();
  const exported = JSON.parse(await readFile(await (await download).path(), "utf8")) as {
    data: { contact: { last_name: string }; notes: { body: string }[] };
  };
  expect(exported.data.contact.last_name).toBe(lastName);
  expect(exported.data.notes.map((note) => note.body)).toEqual(["Fuarda tanıştık."]);

  await page.getByRole("button", { name: "Kişiyi anonimleştir" }).click();
  await page.getByRole("dialog", { name: "Kişinin verileri silinsin mi?" }).getByRole("button", { name: "Kişiyi anonimleştir" }).click();
  await expect(notification(page, "Kişinin verileri silindi.")).toBeVisible();
  await expect(h1(page)).toHaveText("Kişiler");
  await page.getByRole("searchbox", { name: "Ara" }).fill(lastName);
  await expect(page.getByText("Aramanıza uyan kişi yok.")).toBeVisible();
});
