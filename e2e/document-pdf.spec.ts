import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../scripts/stack/env.ts";
import { rpc, signedInClient } from "../tests/support/clients.ts";
import { enterApp } from "./shell-support.ts";

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

    await enterApp(page, "admin@demo.test");
    await page.goto("/admin/document-templates");
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
