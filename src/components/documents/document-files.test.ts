import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import {
  ACCEPTED_EXTENSIONS,
  ACCEPTED_FILE_TYPES,
  checkFileBeforeUpload,
  documentFailureKey,
  fileExtension,
  formatFileSize,
  MAX_FILE_BYTES,
  previewKind,
  titleFromFileName,
} from "./document-files.ts";

describe("formatFileSize", () => {
  it("counts in binary steps with one decimal below ten units, in the interface's language", () => {
    expect(formatFileSize(0, "tr")).toBe("0 B");
    expect(formatFileSize(512, "tr")).toBe("512 B");
    expect(formatFileSize(1536, "tr")).toBe("1,5 KB");
    expect(formatFileSize(1536, "en")).toBe("1.5 KB");
    expect(formatFileSize(10 * 1024 * 1024 + 300_000, "tr")).toBe("10 MB");
    expect(formatFileSize(MAX_FILE_BYTES, "tr")).toBe("25 MB");
    expect(formatFileSize(3 * 1024 ** 3, "en")).toBe("3 GB");
    expect(formatFileSize(-5, "en")).toBe("0 B");
  });
});

describe("the accept list", () => {
  it("names every type the server sniffs, with its endings", () => {
    expect(Object.keys(ACCEPTED_FILE_TYPES)).toEqual(
      expect.arrayContaining(["application/pdf", "image/png", "image/jpeg", "application/zip", "text/plain", "text/csv"]),
    );
    expect(ACCEPTED_EXTENSIONS).toEqual(
      expect.arrayContaining([".pdf", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".docx", ".xlsx", ".pptx", ".doc", ".xls", ".zip", ".txt", ".csv"]),
    );
    expect(ACCEPTED_EXTENSIONS).not.toContain(".html");
    expect(ACCEPTED_EXTENSIONS).not.toContain(".exe");
  });

  it("reads a name's ending case-blind, and none from a hidden file or a trailing dot", () => {
    expect(fileExtension("Sözleşme.PDF")).toBe(".pdf");
    expect(fileExtension("arşiv.tar.zip")).toBe(".zip");
    expect(fileExtension(".env")).toBe("");
    expect(fileExtension("README")).toBe("");
    expect(fileExtension("rapor.")).toBe("");
  });

  it("refuses in the browser what the server would: too large, empty, an ending not on the list", () => {
    expect(checkFileBeforeUpload({ name: "teklif.pdf", size: 1000 })).toBeNull();
    expect(checkFileBeforeUpload({ name: "teklif.pdf", size: MAX_FILE_BYTES })).toBeNull();
    expect(checkFileBeforeUpload({ name: "teklif.pdf", size: MAX_FILE_BYTES + 1 })).toBe("file_too_large");
    expect(checkFileBeforeUpload({ name: "boş.txt", size: 0 })).toBe("file_empty");
    expect(checkFileBeforeUpload({ name: "sayfa.html", size: 10 })).toBe("file_type_not_allowed");
    expect(checkFileBeforeUpload({ name: "adsız", size: 10 })).toBe("file_type_not_allowed");
  });

  it("titles a document after its file without the ending", () => {
    expect(titleFromFileName("Teklif v2.pdf")).toBe("Teklif v2");
    expect(titleFromFileName("notlar")).toBe("notlar");
    expect(titleFromFileName(" .pdf")).toBe(" .pdf");
  });
});

describe("previewKind", () => {
  it("frames PDFs, shows the web's image types, and leaves the rest to download", () => {
    expect(previewKind("application/pdf")).toBe("pdf");
    expect(previewKind("image/png")).toBe("image");
    expect(previewKind("image/webp")).toBe("image");
    expect(previewKind("image/svg+xml")).toBeNull();
    expect(previewKind("application/zip")).toBeNull();
    expect(previewKind(null)).toBeNull();
  });
});

describe("documentFailureKey", () => {
  it("names the refusal's code, a lost connection, or an unknown failure, never the raw text", () => {
    expect(documentFailureKey(new RpcError("File too large", "file_too_large"))).toBe("documentKit.errors.file_too_large");
    expect(documentFailureKey(new RpcError("Type", "file_type_not_allowed"))).toBe("documentKit.errors.file_type_not_allowed");
    expect(documentFailureKey(new RpcError("Quota", "quota_exceeded"))).toBe("documentKit.errors.quota_exceeded");
    expect(documentFailureKey(new RpcError("Odd", "something_new"))).toBe("documentKit.errors.unknown");
    expect(documentFailureKey(new Error("NetworkError: the upload did not reach the server"))).toBe("documentKit.errors.network");
    expect(documentFailureKey(new Error("boom"))).toBe("documentKit.errors.unknown");
  });
});
