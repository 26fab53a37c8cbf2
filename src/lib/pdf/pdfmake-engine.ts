/**
 * The one rendering path shared by the browser and Node: the same pdfmake calls over the
 * same document definition; only where the font files come from differs (the browser loads
 * pdfmake's Roboto into its virtual file system, Node reads the files from node_modules).
 * Roboto has every Turkish letter and the lira sign (İ ı Ş ş Ğ ğ Ç ç Ö ö Ü ü ₺).
 */
import { documentDefinition, PDF_FONT, type DocumentPdfInput, type PdfDocumentDefinition } from "./document-definition.ts";

interface FontFiles {
  normal: string;
  bold: string;
  italics: string;
  bolditalics: string;
}

/** The part of pdfmake's API (browser build and Node entry alike) used here. */
export interface PdfMakeInstance {
  setFonts(fonts: Record<string, FontFiles>): void;
  setUrlAccessPolicy(callback: (url: string) => boolean): void;
  createPdf(definition: PdfDocumentDefinition): { getBuffer(): Promise<Uint8Array> };
}

/** The two Roboto faces a document uses (regular and medium for bold), by file name in pdfmake's build/fonts/Roboto. */
export const robotoFiles = { regular: "Roboto-Regular.ttf", medium: "Roboto-Medium.ttf" } as const;

/**
 * Points pdfmake at Roboto (`regular` and `medium` are where the two faces are: virtual file
 * names or paths) and refuses every URL: a document never loads anything from the network.
 */
export function configurePdfMake(pdfmake: PdfMakeInstance, regular: string, medium: string): void {
  pdfmake.setFonts({ [PDF_FONT]: { normal: regular, bold: medium, italics: regular, bolditalics: medium } });
  pdfmake.setUrlAccessPolicy(() => false);
}

/** The PDF's bytes. */
export function renderPdfBytes(pdfmake: PdfMakeInstance, input: DocumentPdfInput, template: { body: string } | null): Promise<Uint8Array> {
  return pdfmake.createPdf(documentDefinition(input, template)).getBuffer();
}
