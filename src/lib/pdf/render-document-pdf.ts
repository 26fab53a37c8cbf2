/**
 * `renderDocumentPdf(input, template)`: a quote or contract as a PDF Blob, from the
 * organization's default template of the kind (`get_default_document_template`) or, when it
 * has none (`template` null), the built-in body. pdfmake and its fonts load on the first
 * call (a chunk of their own), never with the first screen. Node code (tests, the bench)
 * uses render-document-pdf.node.ts, the same rendering with fonts read from disk.
 */
import type { DocumentPdfInput } from "./document-definition.ts";

export async function renderDocumentPdf(input: DocumentPdfInput, template: { body: string } | null): Promise<Blob> {
  const { renderInBrowser } = await import("./pdfmake-browser.ts");
  return renderInBrowser(input, template);
}
