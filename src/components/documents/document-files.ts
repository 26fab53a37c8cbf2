/**
 * What the documents screens know about files before and after an upload: the size limit and
 * the allowed types (the server checks both again, the type by the file's first bytes), sizes
 * in words, which files can be previewed, and the message for a refused upload.
 */
import { failureKey } from "@/lib/errors.ts";

/** The largest file the server accepts (the bucket's file_size_limit: 25 MiB). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

/**
 * The types the server accepts, as the file picker and the drop zone filter them: each type
 * with its file name endings (the form react-dropzone's `accept` takes).
 */
export const ACCEPTED_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  "application/pdf": [".pdf"],
  "image/png": [".png"],
  "image/jpeg": [".jpg", ".jpeg"],
  "image/gif": [".gif"],
  "image/webp": [".webp"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": [".docx"],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [".xlsx"],
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": [".pptx"],
  "application/msword": [".doc"],
  "application/vnd.ms-excel": [".xls"],
  "application/zip": [".zip"],
  "text/plain": [".txt"],
  "text/csv": [".csv"],
};

/** The allowed endings, for the picker's `accept` attribute and the stated limits (".pdf, .png, …"). */
export const ACCEPTED_EXTENSIONS: readonly string[] = [...new Set(Object.values(ACCEPTED_FILE_TYPES).flat())];

/** The codes a refused upload comes back with, each a message of the documents kit. */
export const uploadFailureCodes = [
  "file_too_large",
  "file_type_not_allowed",
  "file_empty",
  "quota_exceeded",
  "link_not_found",
  "upload_in_progress",
  "stale_record",
  "permission_denied",
  "not_found",
  "not_record_owner",
  "invalid_input",
  "invalid_request",
] as const;
export type UploadFailureCode = (typeof uploadFailureCodes)[number];

/**
 * What the browser can tell about a chosen file before sending it: too large, empty, or a name
 * ending the server never accepts. Null when it may be sent (the server still checks its bytes).
 */
export function checkFileBeforeUpload(file: { name: string; size: number }): UploadFailureCode | null {
  if (file.size > MAX_FILE_BYTES) return "file_too_large";
  if (file.size === 0) return "file_empty";
  return ACCEPTED_EXTENSIONS.includes(fileExtension(file.name)) ? null : "file_type_not_allowed";
}

/** ".pdf" for "Sözleşme.PDF"; "" when the name has no ending. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot).toLowerCase() : "";
}

/** A file's name without its ending, the title a document gets when none is typed ("Teklif v2.pdf" → "Teklif v2"). */
export function titleFromFileName(name: string): string {
  const extension = fileExtension(name);
  const base = extension ? name.slice(0, -extension.length) : name;
  return base.trim() || name;
}

const sizeUnits = ["B", "KB", "MB", "GB"] as const;

/**
 * A size in the interface's language with binary steps ("512 B", "1,5 MB" in Turkish,
 * "1.5 MB" in English): one decimal below ten units, none above.
 */
export function formatFileSize(bytes: number, language: string | undefined): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < sizeUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const number = new Intl.NumberFormat(language === "en" ? "en-GB" : "tr-TR", { maximumFractionDigits: digits }).format(value);
  return `${number} ${sizeUnits[unit]}`;
}

/** How a version can be shown in the page: a PDF in a frame, an image as an image, anything else only downloaded. */
export function previewKind(mimeType: string | null | undefined): "pdf" | "image" | null {
  if (mimeType === "application/pdf") return "pdf";
  if (mimeType && /^image\/(png|jpeg|gif|webp)$/.test(mimeType)) return "image";
  return null;
}

/** The message key for a failed documents call (an upload above all): the refusal's code, a lost connection, or anything else. */
export function documentFailureKey(error: unknown) {
  return failureKey(error, "documentKit.errors", uploadFailureCodes);
}
