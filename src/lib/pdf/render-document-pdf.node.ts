/**
 * The Node entry of the PDF renderer, for tests and the bench (no browser): pdfmake's Node
 * build with Roboto read from its own package. The same rendering path as the browser
 * (pdfmake-engine.ts); pdfmake may read the two font files and nothing else on disk.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { DocumentPdfInput } from "./document-definition.ts";
import { configurePdfMake, renderPdfBytes, robotoFiles, type PdfMakeInstance } from "./pdfmake-engine.ts";

const require = createRequire(import.meta.url);

let engine: PdfMakeInstance | undefined;

function nodePdfMake(): PdfMakeInstance {
  if (!engine) {
    const pdfmake = require("pdfmake") as PdfMakeInstance & { setLocalAccessPolicy(callback: (path: string) => boolean): void };
    const fontDir = dirname(require.resolve(`pdfmake/build/fonts/Roboto/${robotoFiles.regular}`));
    const regular = join(fontDir, robotoFiles.regular);
    const medium = join(fontDir, robotoFiles.medium);
    configurePdfMake(pdfmake, regular, medium);
    pdfmake.setLocalAccessPolicy((path) => path === regular || path === medium);
    engine = pdfmake;
  }
  return engine;
}

/** The PDF of a quote or contract as bytes (Node). */
export function renderDocumentPdfBytes(input: DocumentPdfInput, template: { body: string } | null): Promise<Uint8Array> {
  return renderPdfBytes(nodePdfMake(), input, template);
}
