import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../scripts/stack/env.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterAppAt } from "./shell-support.ts";

// The build the server serves: APP_DIST_DIR lets parallel runs serve their own.
const distRoot = process.env.APP_DIST_DIR ?? join(projectRoot, "dist");

test("pdfmake is one chunk of its own that nothing loads up front", () => {
  const assets = join(distRoot, "assets");
  const scripts = readdirSync(assets).filter((file) => file.endsWith(".js"));
  // A message of pdfmake's own code: only the lazy renderer chunk carries it.
  const withPdfmake = scripts.filter((file) => readFileSync(join(assets, file), "utf8").includes("Access to URL denied by resource access policy"));
  expect(withPdfmake).toHaveLength(1);
  expect(withPdfmake[0]).toMatch(/^pdfmake-browser-[\w-]+\.js$/);
  expect(readFileSync(join(distRoot, "index.html"), "utf8")).not.toMatch(/pdfmake|Roboto/);
  // The fonts are files of their own, fetched when a PDF is made.
  expect(readdirSync(assets).filter((file) => /^Roboto-(Regular|Medium)-[\w-]+\.ttf$/.test(file))).toHaveLength(2);
});

// The browser's PDF renderer: pdfmake and its Roboto faces load only when a PDF is made, the
// Turkish letters and the lira sign come out as text a PDF reader finds (pdftotext), markup
// and unknown placeholders print literally, and a WebP logo is redrawn as an image.
test("an admin downloads a template as a sample PDF with Turkish text, tables, totals in words and the logo", async ({ page, baseURL }) => {
  // Sign-in, the editor, and pdfmake's first load and render in the browser (3 s on an idle
  // machine, 12 s measured on 2 cores shared with the other test layers).
  test.setTimeout(150_000);
  const { client } = await signedInClient(baseURL!, "admin@demo.test");
  // A 40×20 WebP logo, drawn by the browser itself.
  await page.goto("/login");
  const webp = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 40;
    canvas.height = 20;
    const context = canvas.getContext("2d")!;
    context.fillStyle = "#1c7ed6";
    context.fillRect(0, 0, 40, 20);
    return canvas.toDataURL("image/webp").split(",")[1];
  });
  expect(await rpc(client, "set_organization_logo", { p_content_type: "image/webp", p_image_base64: webp })).toMatchObject({ success: true });
  const folder = mkdtempSync(join(tmpdir(), "crm-e2e-pdf-"));
  try {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    const pdfmakeLoaded = () => requested.some((path) => /\/pdfmake-browser-[\w-]+\.js$/.test(path));
    const fontsLoaded = () => requested.filter((path) => /\/Roboto-(Regular|Medium)-[\w-]+\.ttf$/.test(path)).length;

    // The logo is held back: the sample must wait for it (a full run clicked first and its PDF had none).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/rest/v1/rpc/get_organization_logo", async (route) => {
      await held;
      await route.continue();
    });
    await enterAppAt(page, "/admin/document-templates", "admin@demo.test");
    await page.getByRole("button", { name: "Yeni şablon" }).click();
    const editor = page.getByRole("dialog", { name: "Yeni şablon" });
    await editor.getByRole("textbox", { name: "Şablon metni" }).fill(
      [
        "Sayın {{customer.name}},",
        "Çağrı İŞLEM: ğ ü ş ı ö ç Ğ Ü Ş İ Ö Ç ₺",
        "{{items_table}}",
        "{{vat_breakdown}}",
        "{{totals_table}}",
        "Yalnız: {{totals.total_in_words}}",
        "{{constructor}} <b>kalın değil</b>",
      ].join("\n"),
    );
    await expect(editor.getByRole("region", { name: "Önizleme" })).toContainText("Sayın Anadolu Yapı Malzemeleri Ltd. Şti.,");
    expect(pdfmakeLoaded()).toBe(false);
    expect(fontsLoaded()).toBe(0);

    await expect(editor.getByRole("button", { name: "Örnek PDF indir" })).toBeDisabled();
    release();
    const downloading = page.waitForEvent("download", { timeout: 90_000 });
    await editor.getByRole("button", { name: "Örnek PDF indir" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("ornek-teklif.pdf");
    const file = join(folder, "ornek-teklif.pdf");
    await download.saveAs(file);
    expect(pdfmakeLoaded()).toBe(true);
    expect(fontsLoaded()).toBe(2);

    const text = execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("Sayın Anadolu Yapı Malzemeleri Ltd. Şti.,");
    expect(flat).toContain("Çağrı İŞLEM: ğ ü ş ı ö ç Ğ Ü Ş İ Ö Ç ₺");
    expect(flat).toContain("CRM Kurumsal Lisans (yıllık, kullanıcı başına)");
    expect(text).toMatch(/10 adet\s+₺4\.500,00\s+%20\s+₺45\.000,00\s+₺9\.000,00\s+₺54\.000,00/);
    expect(text).toMatch(/%20\s+₺57\.500,00\s+₺11\.500,00/);
    expect(text).toMatch(/Genel Toplam\s+₺69\.000,00/);
    expect(flat).toContain("Yalnız: Altmış Dokuz Bin Türk Lirası");
    expect(flat).toContain("{{constructor}} <b>kalın değil</b>");
    expect(flat).toContain("Sayfa 1 / 1");
    // The header's logo: the WebP, redrawn as a 40×20 image.
    // (pdfimages lists the image and its alpha mask: canvas PNGs carry an alpha channel.)
    const images = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" })
      .trim()
      .split("\n")
      .slice(2)
      .filter((row) => /^\s*\d+\s+\d+\s+image\s/.test(row));
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^\s*1\s+\d+\s+image\s+40\s+20\s/);

    await editor.getByRole("button", { name: "Vazgeç" }).click();
    await expect(editor).toBeHidden();
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await rpc(client, "remove_organization_logo", {});
  }
});

// The organization's own details reach every quote PDF: an admin corrects them in the general
// settings (a bad VKN and a bad IBAN get their own field errors and change nothing), then
// downloads a sales member's quote whose PDF carries the sender's legal name, address, VKN,
// MERSİS, IBANs, the contact person, the payment terms, each 0 % line's exemption reason and
// the withholding. The details are the seed's again at the end.
test("a quote PDF carries the sender's details from the settings, the contact, the payment terms, each exemption reason and the withholding", async ({ page, baseURL }) => {
  // Two sign-ins, a settings save and pdfmake's first load on 2 shared cores.
  test.setTimeout(150_000);
  const suffix = Math.random().toString(36).slice(2, 8);
  const { client: admin } = await signedInClient(baseURL!, "admin@demo.test");
  const { client: sales } = await signedInClient(baseURL!, "satis@demo.test");
  const seedDetails = (await rpc(admin, "get_organization_settings")).settings as Record<string, unknown>;
  const restore = {
    address: seedDetails.address,
    bank_accounts: seedDetails.bank_accounts,
    tax_number: seedDetails.tax_number,
  };
  const folder = mkdtempSync(join(tmpdir(), "crm-e2e-quote-pdf-"));
  let quoteId: string | null = null;
  try {
    await enterAppAt(page, "/admin/general-settings", "admin@demo.test");
    const details = page.getByRole("region", { name: "Şirket bilgileri" });
    const vkn = details.getByRole("textbox", { name: "Vergi kimlik no (VKN)" });
    await expect(vkn).toHaveValue("2910045871");
    await expect(details.getByRole("textbox", { name: "Ticari unvan" })).toHaveValue("Demo Ticaret Anonim Şirketi");
    const save = details.getByRole("button", { name: "Şirket Bilgilerini Kaydet" });

    // A VKN with a wrong check digit and an IBAN with wrong check digits: each under its field.
    await vkn.fill("2910045872");
    await details.getByRole("button", { name: "Banka Hesabı Ekle" }).click();
    await details.getByRole("textbox", { name: "3. hesabın bankası" }).fill("Ziraat Bankası");
    const newIban = details.getByRole("textbox", { name: "3. hesabın IBAN'ı" });
    await newIban.fill("TR34 0006 1005 1978 6457 8413 26");
    await save.click();
    await expect(details.getByText("Geçerli bir vergi kimlik numarası yazın: 10 hane, son hanesi kontrol hanesi.")).toBeVisible();
    await expect(details.getByText("Geçerli bir Türk IBAN'ı yazın: TR ve 24 rakam, kontrol haneleri doğru olmalı.")).toBeVisible();
    expect(((await rpc(admin, "get_organization_settings")).settings as Record<string, unknown>).tax_number).toBe("2910045871");

    // Corrected: spaces and lower case are fine, the IBAN is kept compact and shown grouped.
    await vkn.fill("2910045871");
    await newIban.fill("tr33 0006 1005 1978 6457 8413 26");
    await details.getByRole("textbox", { name: "Adres" }).fill(`Barbaros Bulvarı No: 145 Kat: 4 (${suffix})`);
    await save.click();
    await expect(page.getByRole("alert").filter({ hasText: "Ayarlar kaydedildi." })).toBeVisible();
    await expect(newIban).toHaveValue("TR33 0006 1005 1978 6457 8413 26");
    const stored = (await rpc(admin, "get_organization_settings")).settings as { bank_accounts: { iban: string }[] };
    expect(stored.bank_accounts.map((account) => account.iban)).toContain("TR330006100519786457841326");

    // A quote by the sales member: a 20 % line with 7/10 withholding and two 0 % lines, each with its reason.
    const contacts = (await rpc(sales, "list_contacts", { p_limit: 50 })).records as { id: string; customer_id: string | null; first_name: string; last_name: string }[];
    const contact = contacts.find((candidate) => candidate.customer_id !== null)!;
    const saved = await rpc(sales, "save_quote", {
      p_id: null,
      p_values: { customer_id: contact.customer_id, contact_id: contact.id, payment_terms: `Faturadan sonra 30 gün içinde havale (${suffix})` },
      p_items: [
        { description: `Temizlik hizmeti ${suffix}`, quantity: "1", unit: "ay", unit_price: "10000", vat_rate: 20, withholding_rate: "7/10" },
        { description: `İhracat teslimi ${suffix}`, quantity: "2", unit: "adet", unit_price: "1500", vat_rate: 0, vat_exemption_reason: `3065 s. KDV Kanunu 11/1-a ihracat istisnası ${suffix}` },
        { description: `Diplomatik teslim ${suffix}`, quantity: "1", unit: "adet", unit_price: "800", vat_rate: 0, vat_exemption_reason: `3065 s. KDV Kanunu 15/1-a diplomatik istisna ${suffix}` },
      ],
    });
    expect(saved).toMatchObject({ success: true });
    quoteId = saved.id as string;

    await page.goto(`/quotes/${quoteId}`);
    await page.getByRole("tab", { name: "Belgeler" }).click();
    const downloading = page.waitForEvent("download", { timeout: 90_000 });
    await page.getByRole("button", { name: "PDF indir" }).click();
    const file = join(folder, "teklif.pdf");
    await (await downloading).saveAs(file);
    const text = execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    const flat = text.replace(/\s+/g, " ");
    for (const phrase of [
      // The sender, from the settings just saved.
      "Demo Ticaret Anonim Şirketi",
      `Barbaros Bulvarı No: 145 Kat: 4 (${suffix}), Beşiktaş/İstanbul`,
      "Vergi Dairesi: Beşiktaş VKN: 2910045871 MERSİS No: 0291004587100015",
      "+90 212 345 01 00 teklif@demoticaret.com.tr www.demoticaret.com.tr",
      "Garanti BBVA IBAN: TR18 0006 2001 1900 0006 6723 15",
      "Ziraat Bankası IBAN: TR33 0006 1005 1978 6457 8413 26",
      // The contact person and the payment terms.
      `İlgili Kişi: ${`${contact.first_name} ${contact.last_name}`.trim()}`,
      `Ödeme Koşulları: Faturadan sonra 30 gün içinde havale (${suffix})`,
      // Each 0 % line's exemption reason, and the withholding.
      `2. satır KDV istisna/muafiyet sebebi: 3065 s. KDV Kanunu 11/1-a ihracat istisnası ${suffix}`,
      `3. satır KDV istisna/muafiyet sebebi: 3065 s. KDV Kanunu 15/1-a diplomatik istisna ${suffix}`,
      "1. satır KDV tevkifatı (7/10): ₺1.400,00",
    ]) {
      expect(flat).toContain(phrase);
    }
    expect(text).toMatch(/KDV Tevkifatı\s+₺1\.400,00/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
    if (quoteId) await rpc(admin, "delete_quotes", { p_ids: [quoteId] });
    expect(await rpc(admin, "update_organization_settings", { p_changes: restore })).toMatchObject({ success: true });
    await Promise.all([admin.auth.signOut({ scope: "local" }), sales.auth.signOut({ scope: "local" })]);
  }
});
