/**
 * What a document file is, decided by its first bytes (file-type), never by its name alone:
 * the name's extension must agree with the bytes. Allowed: PDF, PNG, JPEG, GIF, WEBP,
 * DOCX/XLSX/PPTX, DOC/XLS (Compound File Binary), ZIP, and plain text or CSV (valid UTF-8
 * without NUL, and no known binary signature). HTML named x.pdf, say, is refused.
 */
import { fileTypeFromBuffer } from "file-type";

/** The largest file: 25 MiB (the bucket and the database say the same). */
export const maxFileBytes = 25 * 1024 * 1024;

/** Per extension: the type file-type must find in the bytes (null: text) and the type stored. */
const allowed: Record<string, { sniffed: string | null; mime: string }> = {
  pdf: { sniffed: "pdf", mime: "application/pdf" },
  png: { sniffed: "png", mime: "image/png" },
  jpg: { sniffed: "jpg", mime: "image/jpeg" },
  jpeg: { sniffed: "jpg", mime: "image/jpeg" },
  gif: { sniffed: "gif", mime: "image/gif" },
  webp: { sniffed: "webp", mime: "image/webp" },
  docx: { sniffed: "docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  xlsx: { sniffed: "xlsx", mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
  pptx: { sniffed: "pptx", mime: "application/vnd.openxmlformats-officedocument.presentationml.presentation" },
  doc: { sniffed: "cfb", mime: "application/msword" },
  xls: { sniffed: "cfb", mime: "application/vnd.ms-excel" },
  zip: { sniffed: "zip", mime: "application/zip" },
  txt: { sniffed: null, mime: "text/plain" },
  csv: { sniffed: null, mime: "text/csv" },
};

/** True for valid UTF-8 without NUL bytes (a byte-order mark is fine). */
export function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The extension of a file name, lower case, or "" when it has none. */
export function extensionOf(fileName: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(fileName.trim());
  return match ? match[1].toLowerCase() : "";
}

/**
 * The type to store for a file, or null when it is not allowed: its extension must be on the
 * list and its bytes must be that kind of file. A name without an extension is judged by its
 * bytes alone.
 */
export async function allowedMimeType(bytes: Uint8Array, fileName: string): Promise<string | null> {
  const detected = (await fileTypeFromBuffer(bytes))?.ext ?? null;
  const extension = extensionOf(fileName);
  if (extension === "") {
    if (detected === null) return isPlainText(bytes) ? "text/plain" : null;
    const byBytes = Object.values(allowed).find((entry) => entry.sniffed === detected && detected !== "cfb");
    return byBytes?.mime ?? null;
  }
  const expected = allowed[extension];
  if (!expected) return null;
  if (expected.sniffed === null) return detected === null && isPlainText(bytes) ? expected.mime : null;
  return detected === expected.sniffed ? expected.mime : null;
}
