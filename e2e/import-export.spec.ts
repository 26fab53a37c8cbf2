/**
 * Import and export (issue 14), as an admin does it: a Turkish Excel CSV (Windows-1254, ";")
 * of customers with two bad rows, the error file fixed and imported again, an import undone
 * and an undo refused after an edit; then a list exported to Excel, read back cell by cell
 * and imported again by ID, which changes nothing.
 */
import * as XLSX from "@e965/xlsx";
import { expect, test, type Download, type Page } from "@playwright/test";
import iconv from "iconv-lite";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { randomValidVkn } from "../src/lib/turkish-identifiers.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterAppAt } from "./shell-support.ts";

const suffix = randomUUID().slice(0, 6);
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });
let seed = 7;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const pending = page.waitForEvent("download");
  await click();
  const download = await pending;
  return { download, bytes: await readFile((await download.path())!) };
}

/** The wizard from the kind to the preview's check, with the file given as bytes. */
async function uploadAndCheck(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, mode?: string, matchKey?: string) {
  await page.getByRole("combobox", { name: "Aktarılacak kayıtlar" }).click();
  await page.getByRole("option", { name: "Müşteriler" }).click();
  await page.locator("input[type=file]").setInputFiles(file);
  await expect(page.getByText(new RegExp(`^${file.name.replace(".", "\\.")}: \\d+ satır`))).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "İleri" }).click();
  await expect(page.getByRole("table", { name: "Sütun eşleştirmesi" })).toBeVisible();
  await page.getByRole("button", { name: "İleri" }).click();
  if (mode) {
    await page.getByRole("radio", { name: mode }).check();
  }
  if (matchKey) {
    await page.getByRole("combobox", { name: "Eşleştirme anahtarı" }).click();
    await page.getByRole("option", { name: matchKey }).click();
  }
  await page.getByRole("button", { name: "Satırları kontrol et" }).click();
}

const created: string[] = [];

test.afterAll(async ({ baseURL }) => {
  if (created.length === 0) return;
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  await rpc(client, "delete_customers", { p_ids: created });
  await client.auth.signOut({ scope: "local" });
});

test("a Turkish Excel CSV with two bad rows: the error file is fixed and imported again, an import is undone, and an undo after an edit is refused", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const goodVkn = [randomValidVkn(random), randomValidVkn(random)];
  const rows = [
    ["Firma Adı", "Vergi No", "Şehir", "E-posta", "Telefon", "Durum"],
    [`Işıklı Çağ Ürünleri ${suffix} A.Ş.`, goodVkn[0], "İzmir", `bilgi-${suffix}@isikli.com.tr`, "0532 111 22 33", "Aktif"],
    [`Öztürk Şeker ${suffix} Ltd. Şti.`, goodVkn[1], "Eskişehir", `satis-${suffix}@ozturk.com.tr`, "0212 444 55 66", "Aday"],
    [`Güneş Yapı ${suffix}`, "1234567891", "Muğla", `gunes-${suffix}@gunes.com.tr`, "", "Aktif"],
    [`Doğan Gıda ${suffix}`, "", "Bursa", "dogan-at-gida", "", "Pasif"],
  ];
  const csv = iconv.encode(rows.map((row) => row.join(";")).join("\r\n") + "\r\n", "win1254");

  await enterAppAt(page, "/import-export", "admin@demo.test");
  await uploadAndCheck(page, { name: `musteriler-${suffix}.csv`, mimeType: "text/csv", buffer: csv });
  await expect(page.getByText("2 satırda hata var")).toBeVisible({ timeout: 30_000 });
  const preview = page.getByRole("table", { name: "Önizleme satırları" });
  await expect(preview).toContainText("Geçerli bir vergi kimlik numarası (10 hane) değil.");
  await page.getByRole("button", { name: "Yalnızca geçerli satırları aktar (2 satır)" }).click();
  await expect(page.getByText("Aktarım tamamlandı")).toBeVisible({ timeout: 30_000 });

  // The error file: the original columns and "Hata", ready to fix.
  const { download, bytes } = await downloaded(page, () => page.getByRole("button", { name: "Hatalı satırları CSV olarak indir (2)" }).click());
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const errorRows = new TextDecoder().decode(bytes).replace(/^\uFEFF/, "").trim().split("\r\n").map((line) => line.split(";"));
  expect(errorRows[0]).toEqual([...rows[0], "Hata"]);
  expect(errorRows.slice(1).map((row) => row[0])).toEqual([rows[3][0], rows[4][0]]);
  expect(errorRows[1][6]).toContain("vergi kimlik");

  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const firstImport = await rpc(client, "list_customers", { p_search: suffix, p_limit: 10 });
  const firstIds = (firstImport.records as { id: string; name: string }[]).map((record) => record.id);
  expect(firstIds).toHaveLength(2);
  created.push(...firstIds);

  // Fixed (a real VKN, a real e-mail) and imported again; the "Hata" column is left out by itself.
  errorRows[1][1] = randomValidVkn(random);
  errorRows[2][3] = `dogan-${suffix}@gida.com.tr`;
  const fixed = Buffer.from("\uFEFF" + errorRows.map((row) => row.join(";")).join("\r\n") + "\r\n", "utf8");
  await page.getByRole("button", { name: "Yeni aktarım" }).click();
  await uploadAndCheck(page, { name: `duzeltilmis-${suffix}.csv`, mimeType: "text/csv", buffer: fixed });
  await expect(page.getByText(/satırda hata var/)).toHaveCount(0, { timeout: 30_000 });
  await page.getByRole("button", { name: "Aktarımı başlat (2 satır)" }).click();
  await expect(page.getByText("Aktarım tamamlandı")).toBeVisible({ timeout: 30_000 });
  const both = await rpc(client, "list_customers", { p_search: suffix, p_limit: 10 });
  expect((both.records as unknown[]).length).toBe(4);
  created.push(...(both.records as { id: string }[]).map((record) => record.id).filter((id) => !firstIds.includes(id)));

  // The second import is undone: its two customers go.
  await page.getByRole("tab", { name: "Aktarım geçmişi" }).click();
  const history = page.getByRole("table", { name: "Aktarım geçmişi" });
  await history.getByRole("row").filter({ hasText: `duzeltilmis-${suffix}.csv` }).getByRole("button", { name: /geri al/i }).click();
  await page.getByRole("dialog", { name: "Aktarım geri alınsın mı?" }).getByRole("button", { name: "Geri al" }).click();
  await expect(notification(page, "Aktarım geri alındı: 2 kayıt silindi, 0 kayıt eski haline döndü.")).toBeVisible();
  await expect(history.getByRole("row").filter({ hasText: `duzeltilmis-${suffix}.csv` })).toContainText("Geri alındı");
  expect(((await rpc(client, "list_customers", { p_search: suffix, p_limit: 10 })).records as unknown[]).length).toBe(2);

  // The first one cannot be undone once one of its customers was edited.
  const record = (await rpc(client, "get_customer", { p_id: firstIds[0] })).record as { updated_at: string };
  expect(await rpc(client, "update_customer", { p_id: firstIds[0], p_values: { city: "Ankara" }, p_updated_at: record.updated_at })).toMatchObject({
    success: true,
  });
  await history.getByRole("row").filter({ hasText: `musteriler-${suffix}.csv` }).getByRole("button", { name: /geri al/i }).click();
  await page.getByRole("dialog", { name: "Aktarım geri alınsın mı?" }).getByRole("button", { name: "Geri al" }).click();
  await expect(notification(page, "Bu aktarımdan sonra 1 kayıt değiştirildi; geri alınamaz.")).toBeVisible();
  expect(((await rpc(client, "list_customers", { p_search: suffix, p_limit: 10 })).records as unknown[]).length).toBe(2);
  await client.auth.signOut({ scope: "local" });
});

test("a customer list exported to Excel has the screen's Turkish cells, and importing it again by ID changes nothing", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const names = [`Çağlayan İçecek Dışa ${suffix} A.Ş.`, `Şimşek Ölçü Dışa ${suffix}`];
  for (const name of names) {
    const answer = await rpc(client, "create_customer", { p_values: { name, status: "active", city: "İstanbul", tags: ["ihracat", "öncelikli"] } });
    created.push((answer.record as { id: string }).id);
  }
  await client.auth.signOut({ scope: "local" });

  await enterAppAt(page, "/customers", "admin@demo.test");
  // The first journey's customers carry the same suffix; "Dışa" keeps this list to these two.
  await page.getByRole("searchbox", { name: "Ara" }).fill(`Dışa ${suffix}`);
  await expect(page.getByText("Toplam 2 müşteri")).toBeVisible();
  await page.getByRole("button", { name: "Dışa aktar" }).click();
  const { download, bytes } = await downloaded(page, () =>
    page.getByRole("menuitem", { name: "Görünümü dışa aktar: Excel (.xlsx)" }).click(),
  );
  expect(download.suggestedFilename()).toMatch(/^musteriler-\d{4}-\d{2}-\d{2}\.xlsx$/);

  const workbook = XLSX.read(bytes, { type: "buffer" });
  const sheet = workbook.Sheets[workbook.SheetNames[0]];
  const cells = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false });
  expect(cells[0][0]).toBe("ID");
  const header = cells[0];
  const byName = new Map(cells.slice(1).map((row) => [row[header.indexOf("Ad")] ?? row[1], row]));
  for (const name of names) {
    const row = byName.get(name);
    expect(row, name).toBeDefined();
    expect(created).toContain(row![0]);
    expect(row![header.indexOf("Durum")]).toBe("Aktif");
    expect(row![header.indexOf("İl")]).toBe("İstanbul");
  }
  // Dates are real dates, text is never a formula.
  const updated = header.indexOf("Güncellenme");
  expect(updated).toBeGreaterThan(0);
  expect(sheet[`${XLSX.utils.encode_col(updated)}2`].t).toBe("n");

  // The same file again, update only, matched by ID: every row unchanged.
  await page.goto("/import-export");
  await uploadAndCheck(
    page,
    { name: download.suggestedFilename(), mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: bytes },
    "Yalnızca var olanı güncelle",
    "Kayıt kimliği (ID)",
  );
  await expect(page.getByText(/satırda hata var/)).toHaveCount(0, { timeout: 30_000 });
  const preview = page.getByRole("table", { name: "Önizleme satırları" });
  await expect(preview.getByText("Değişmeyecek")).toHaveCount(2);
});
