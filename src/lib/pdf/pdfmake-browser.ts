/**
 * The browser side of the PDF renderer, loaded on demand by render-document-pdf.ts (so
 * pdfmake and its fonts never reach the first screen's bundle): pdfmake's browser build and
 * its two Roboto faces, fetched from this app's own assets into pdfmake's virtual files.
 */
import pdfMake from "pdfmake/build/pdfmake.min.js";
import mediumUrl from "pdfmake/build/fonts/Roboto/Roboto-Medium.ttf?url";
import regularUrl from "pdfmake/build/fonts/Roboto/Roboto-Regular.ttf?url";
import type { DocumentPdfInput } from "./document-definition.ts";
import { configurePdfMake, renderPdfBytes, robotoFiles } from "./pdfmake-engine.ts";

async function base64Of(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Font not loaded: ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  let binary = "";
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

let ready: Promise<void> | undefined;

function loadFonts(): Promise<void> {
  ready ??= Promise.all([base64Of(regularUrl), base64Of(mediumUrl)]).then(([regular, medium]) => {
    pdfMake.addVirtualFileSystem({ [robotoFiles.regular]: regular, [robotoFiles.medium]: medium });
    configurePdfMake(pdfMake, robotoFiles.regular, robotoFiles.medium);
  });
  // A failed download may be retried by the next call.
  ready.catch(() => {
    ready = undefined;
  });
  return ready;
}

/** A WebP logo redrawn as PNG (pdfmake embeds PNG and JPEG only); other values pass unchanged. */
async function printableLogo(logo: string | null | undefined): Promise<string | null> {
  const match = /^data:image\/webp;base64,([A-Za-z0-9+/]+={0,2})$/.exec(logo ?? "");
  if (!match) return logo ?? null;
  const bytes = Uint8Array.from(atob(match[1]), (character) => character.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/webp" }));
  const canvas = document.createElement("canvas");
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.toDataURL("image/png");
}

export async function renderInBrowser(input: DocumentPdfInput, template: { body: string } | null): Promise<Blob> {
  const [logo] = await Promise.all([printableLogo(input.organization.logo), loadFonts()]);
  const bytes = await renderPdfBytes(pdfMake, { ...input, organization: { ...input.organization, logo } }, template);
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" });
}
