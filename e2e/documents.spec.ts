import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, test, type Download, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createMember } from "../tests/support/accounts.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp, enterAppAt, scrollsSideways } from "./shell-support.ts";

// The customer made here carries the run's suffix and goes again at the end, with its documents.
const suffix = randomUUID().slice(0, 6);

// Uploads go through the Edge Function and Storage of the local stack, on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const notification = (page: Page, text: string | RegExp) => page.getByRole("alert").filter({ hasText: text });

async function seriousViolations(page: Page) {
  // A notification sliding over a button would be measured as the button's background.
  await expect(page.locator(".mantine-Notification-root")).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

/** A minimal valid one-page PDF showing `text` (offsets in its cross-reference table computed). */
function minimalPdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** Chooses a file with a button that opens the file picker. */
async function chooseFile(page: Page, button: ReturnType<Page["getByRole"]>, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent("filechooser");
  await button.click();
  await (await chooser).setFiles(file);
}

/** Drops a file on the drop zone (the events a drag from the desktop ends with). */
async function dropFile(page: Page, zone: ReturnType<Page["getByText"]>, file: { name: string; mimeType: string; buffer: Buffer }) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, mimeType, base64 }) => {
      const transfer = new DataTransfer();
      const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([bytes], name, { type: mimeType }));
      return transfer;
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString("base64") },
  );
  await zone.dispatchEvent("dragenter", { dataTransfer });
  await zone.dispatchEvent("drop", { dataTransfer });
}

async function downloadedBytes(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const pending = page.waitForEvent("download");
  await click();
  const download = await pending;
  return { download, bytes: await readFile((await download.path())!) };
}

let customerId: string | null = null;

// What the test made goes again, whether it passed or not (deleting the customer leaves its
// documents soft-deleted with it out of every list; they are deleted too).
test.afterEach(async ({ baseURL }) => {
  if (!customerId) return;
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const listed = await rpc(client, "list_record_documents", { p_module: "customers", p_record_id: customerId });
  const ids = ((listed.documents as { id: string }[] | undefined) ?? []).map((document) => document.id);
  if (ids.length > 0) await rpc(client, "delete_documents", { p_ids: ids });
  expect(await rpc(client, "delete_customers", { p_ids: [customerId] })).toMatchObject({ success: true });
  customerId = null;
  await client.auth.signOut({ scope: "local" });
});

test("on a customer's page a PDF is uploaded, then a new version; both download byte for byte; a fake PDF is refused", async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  const created = await rpc(client, "create_customer", { p_values: { name: `E2E Belge Müşterisi ${suffix}`, status: "active" } });
  customerId = (created.record as { id: string }).id;
  await client.auth.signOut({ scope: "local" });

  const first = minimalPdf(`Sozlesme taslagi ${suffix}`);
  const second = minimalPdf(`Imzali sozlesme ${suffix} - ikinci surum`);
  expect(first.equals(second)).toBe(false);

  await enterAppAt(page, `/customers/${customerId}`, "admin@demo.test");
  await expect(h1(page)).toHaveText(`E2E Belge Müşterisi ${suffix}`);
  await page.getByRole("tab", { name: "Belgeler" }).click();
  await expect(page.getByText("Bu kayda bağlı belge yok.")).toBeVisible();
  await expect(page.getByText(/En fazla 25 MB\. İzin verilen türler: PDF/)).toBeVisible();

  // The first version, with a title of its own.
  const title = `Sözleşme ${suffix}`;
  await page.getByRole("textbox", { name: "Başlık (isteğe bağlı)" }).fill(title);
  await chooseFile(page, page.getByRole("button", { name: "Dosya seç" }), { name: "sozlesme.pdf", mimeType: "application/pdf", buffer: first });
  await expect(notification(page, "“sozlesme.pdf” yüklendi.")).toBeVisible();
  const list = page.getByRole("list", { name: "Kaydın belgeleri" });
  const item = list.getByRole("listitem").filter({ hasText: title });
  await expect(item).toContainText("sozlesme.pdf · Sürüm 1");

  // A new version of it.
  await item.getByRole("button", { name: "Yeni sürüm yükle" }).click();
  const dialog = page.getByRole("dialog", { name: `“${title}” için yeni sürüm` });
  await chooseFile(page, dialog.getByRole("button", { name: "Yeni sürüm yükle" }), {
    name: "sozlesme-imzali.pdf",
    mimeType: "application/pdf",
    buffer: second,
  });
  await expect(notification(page, `“${title}” için 2. sürüm yüklendi.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(item).toContainText("sozlesme-imzali.pdf · Sürüm 2");

  // Both versions download as they were uploaded.
  await item.getByRole("button", { name: "Sürümler" }).click();
  const versions = item.getByRole("table", { name: `“${title}” sürümleri` });
  await expect(versions.getByRole("row")).toHaveCount(3);
  const v1 = await downloadedBytes(page, () => versions.getByRole("button", { name: "1. sürümü indir (sozlesme.pdf)" }).click());
  expect(v1.download.suggestedFilename()).toBe("sozlesme.pdf");
  expect(v1.bytes.equals(first)).toBe(true);
  const v2 = await downloadedBytes(page, () => versions.getByRole("button", { name: "2. sürümü indir (sozlesme-imzali.pdf)" }).click());
  expect(v2.download.suggestedFilename()).toBe("sozlesme-imzali.pdf");
  expect(v2.bytes.equals(second)).toBe(true);

  // The current version previews in the page, from a signed URL of this origin.
  await item.getByRole("button", { name: "Önizle", exact: true }).click();
  const preview = page.getByRole("dialog", { name: "Önizleme: sozlesme-imzali.pdf" });
  const frame = preview.locator("iframe");
  await expect(frame).toHaveAttribute("title", "“sozlesme-imzali.pdf” önizlemesi");
  const source = await frame.getAttribute("src");
  expect(new URL(source!).origin).toBe(new URL(baseURL!).origin);
  const framed = await page.request.get(source!);
  expect(framed.status()).toBe(200);
  expect(Buffer.from(await framed.body()).equals(second)).toBe(true);
  expect(framed.headers()["content-security-policy"]).toContain("sandbox");
  // Chromium's PDF viewer shows it under Storage's CSP (with frame-ancestors 'none' it never starts).
  await expect
    .poll(() => page.frames().some((candidate) => candidate.url().startsWith("chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/")))
    .toBe(true);
  await preview.getByRole("button", { name: "Kapat" }).click();

  // HTML named x.pdf, dropped on the zone: refused by its bytes, in Turkish, and nothing is added.
  const refused = page.waitForResponse((response) => response.url().endsWith("/functions/v1/documents") && response.status() === 415);
  await dropFile(page, page.getByText("Dosyayı buraya sürükleyip bırakın"), {
    name: "x.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"),
  });
  expect(await (await refused).json()).toMatchObject({ success: false, code: "file_type_not_allowed" });
  const refusal = page.getByRole("alert").filter({ hasText: "“x.pdf” yüklenemedi" });
  await expect(refusal).toContainText("Bu dosya türüne izin verilmiyor ya da dosyanın içeriği uzantısıyla uyuşmuyor.");
  await expect(list.getByRole("listitem")).toHaveCount(1);

  expect(await seriousViolations(page)).toEqual([]);

  // Deleted, then undone.
  await item.getByRole("button", { name: "Sil", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `“${title}” silindi.` })).toBeVisible();
  await expect(item).toBeHidden();
  await page.getByRole("button", { name: "Geri al" }).click();
  await expect(notification(page, `“${title}” geri yüklendi.`)).toBeVisible();
  await expect(item).toBeVisible();

  // The document's own page: both versions, and the way back to the customer.
  await item.getByRole("link", { name: title }).click();
  await expect(h1(page)).toHaveText(title);
  await expect(page.getByRole("table", { name: `“${title}” sürümleri` }).getByRole("row")).toHaveCount(3);
  await page.getByRole("tab", { name: "Bilgiler" }).click();
  await expect(page.getByRole("link", { name: "Müşteri kaydını aç" })).toHaveAttribute("href", `/customers/${customerId}`);
  expect(await seriousViolations(page)).toEqual([]);

  // A viewer (view only) sees and downloads it, but is offered no upload, new version or delete.
  const viewer = await createMember(baseURL!, { role: "viewer" });
  const viewerContext = await browser.newContext();
  try {
    const viewerPage = await viewerContext.newPage();
    await enterApp(viewerPage, viewer.email, viewer.password);
    await viewerPage.goto(`/customers/${customerId}`);
    await viewerPage.getByRole("tab", { name: "Belgeler" }).click();
    const seen = viewerPage.getByRole("list", { name: "Kaydın belgeleri" }).getByRole("listitem").filter({ hasText: title });
    await expect(seen.getByRole("button", { name: "İndir" })).toBeVisible();
    await expect(viewerPage.getByRole("button", { name: "Dosya seç" })).toHaveCount(0);
    await expect(seen.getByRole("button", { name: "Yeni sürüm yükle" })).toHaveCount(0);
    await expect(seen.getByRole("button", { name: "Sil", exact: true })).toHaveCount(0);
    await expect(viewerPage.getByRole("button", { name: "Silinen belgeleri göster" })).toHaveCount(0);
    const viewed = await downloadedBytes(viewerPage, () => seen.getByRole("button", { name: "İndir" }).click());
    expect(viewed.bytes.equals(second)).toBe(true);
  } finally {
    await viewerContext.close();
  }

  // A 390 px phone: the panel and the documents list fit without scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/customers/${customerId}`);
  await page.getByRole("tab", { name: "Belgeler" }).click();
  await expect(item).toBeVisible();
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  await page.goto("/documents");
  await expect(h1(page)).toHaveText("Belgeler");
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  // Narrowed to the documents of one customer, chosen by its module and name.
  await page.getByRole("combobox", { name: "Bağlı olduğu modül" }).selectOption({ label: "Müşteri" });
  await page.getByRole("combobox", { name: "Müşteri kaydı" }).fill(`E2E Belge Müşterisi ${suffix}`);
  await page.getByRole("option", { name: `E2E Belge Müşterisi ${suffix}` }).click();
  await expect(page.getByRole("list", { name: "Belge listesi" }).getByRole("listitem")).toHaveText([new RegExp(title)]);
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);

  // The module alone: every document linked to a customer (the engine's set filter), no record chosen.
  const linkedToCustomers = page.waitForRequest((request) =>
    request.url().endsWith("/rest/v1/rpc/list_documents") && (request.postData() ?? "").includes('"customer_id":{"is_null":false}'));
  await page.goto("/documents");
  await page.getByRole("combobox", { name: "Bağlı olduğu modül" }).selectOption({ label: "Müşteri" });
  await linkedToCustomers;
  await expect(page.getByText("Müşteri kayıtlarına bağlı tüm belgeler")).toBeVisible();
  await expect(page.getByRole("link", { name: title })).toBeVisible();

  // Deleted on the customer's page, then found among its deleted documents and restored there.
  await page.goto(`/customers/${customerId}`);
  await page.getByRole("tab", { name: "Belgeler" }).click();
  await item.getByRole("button", { name: "Sil", exact: true }).click();
  await expect(item).toBeHidden();
  await page.getByRole("button", { name: "Silinen belgeleri göster" }).click();
  const panelTrash = page.getByRole("list", { name: "Silinen belgeler" });
  await expect(panelTrash.getByRole("listitem").filter({ hasText: title })).toContainText("Silinme:");
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);
  await panelTrash.getByRole("button", { name: `Geri yükle: “${title}”` }).click();
  await expect(notification(page, `“${title}” geri yüklendi.`)).toBeVisible();
  await expect(item).toBeVisible();
  await expect(panelTrash.getByRole("listitem").filter({ hasText: title })).toHaveCount(0);

  // Deleted again, then restored from Silinenler on /documents.
  await item.getByRole("button", { name: "Sil", exact: true }).click();
  await expect(item).toBeHidden();
  await page.goto("/documents");
  await page.locator("label", { hasText: /^Silinenler$/ }).click();
  const trash = page.getByRole("list", { name: "Silinen belgeler" });
  await expect(trash.getByRole("listitem").filter({ hasText: title })).toBeVisible();
  await expect.poll(() => scrollsSideways(page)).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);
  await trash.getByRole("button", { name: `Geri yükle: “${title}”` }).click();
  await expect(notification(page, `“${title}” geri yüklendi.`)).toBeVisible();
  await expect(trash.getByRole("listitem").filter({ hasText: title })).toHaveCount(0);
  await page.locator("label", { hasText: /^Belgeler$/ }).click();
  await expect(page.getByRole("link", { name: title })).toBeVisible();

  // The admin's general settings: the organization's document storage of its quota, read only.
  await page.goto("/admin/general-settings");
  const storage = page.getByRole("region", { name: "Belge depolama" });
  await expect(storage.getByText(/^[\d.,]+ (B|KB|MB) \/ 1 GB kullanılıyor \(%[\d,]+\)$/)).toBeVisible();
  // A few kilobytes of a gigabyte: a bar too thin to see, but it says its share.
  await expect(storage.getByRole("progressbar", { name: "Belge depolama" })).toHaveAttribute("aria-valuenow", /^0\.\d+$/);
  expect(await seriousViolations(page)).toEqual([]);
});
