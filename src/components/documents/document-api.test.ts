import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { FunctionsHttpError } from "@supabase/supabase-js";
import { isUploadCancelled, signedDocumentUrl, uploadDocument } from "./document-api.ts";
import { documentFailureKey } from "./document-files.ts";

const { fake, accessToken, unauthorized } = vi.hoisted(() => ({
  fake: { functions: { invoke: vi.fn() } },
  accessToken: vi.fn(),
  unauthorized: vi.fn(),
}));
vi.mock("@/lib/auth-client.ts", () => ({ accessToken }));
vi.mock("@/lib/supabase.ts", () => ({
  supabase: fake,
  edgeFunctionEndpoint: (name: string) => ({ url: `https://crm.test/functions/v1/${name}`, apiKey: "sb_publishable_test", unauthorized }),
}));

/** What the fake request was given, and how it answers. */
class FakeRequest {
  static last: FakeRequest | null = null;
  static answer: (request: FakeRequest) => void = () => {};
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = "";
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onloadend: (() => void) | null = null;
  constructor() {
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    queueMicrotask(() => FakeRequest.answer(this));
  }
  abort() {
    this.onabort?.();
    this.onloadend?.();
  }
  respond(status: number, body: string) {
    this.status = status;
    this.responseText = body;
    this.onload?.();
    this.onloadend?.();
  }
}

const document = {
  id: "3f7c9a51-2b1e-4c55-9b9e-0d6f8a1b2c3d",
  owner_id: "u1",
  owner_name: "Ayşe Yılmaz",
  created_at: "2026-11-23T10:00:00Z",
  updated_at: "2026-11-23T10:00:00Z",
  title: "Sözleşme",
  file_name: "sozlesme.pdf",
  mime_type: "application/pdf",
  size_bytes: 1234,
  current_version: 1,
};
const file = new Blob(["%PDF-1.4 …"], { type: "application/pdf" });

beforeEach(() => {
  vi.stubGlobal("XMLHttpRequest", FakeRequest);
  accessToken.mockResolvedValue("access-token");
  unauthorized.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

describe("uploadDocument", () => {
  it("posts the file and its link as multipart with the session's token, reports progress, and reads the document", async () => {
    const progress: number[] = [];
    FakeRequest.answer = (request) => {
      request.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
      request.upload.onprogress?.({ lengthComputable: true, loaded: 200, total: 200 });
      request.respond(200, JSON.stringify({ success: true, document }));
    };
    const answer = await uploadDocument({
      file,
      fileName: "sozlesme.pdf",
      title: "  Sözleşme ",
      module: "customers",
      recordId: "c1",
      onProgress: (fraction) => progress.push(fraction),
    });
    expect(answer.document).toMatchObject({ id: document.id, current_version: 1 });
    const request = FakeRequest.last!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("https://crm.test/functions/v1/documents");
    expect(request.headers).toEqual({ Authorization: "Bearer access-token", apikey: "sb_publishable_test" });
    expect((request.body!.get("file") as File).name).toBe("sozlesme.pdf");
    expect(request.body!.get("title")).toBe("Sözleşme");
    expect(request.body!.get("module")).toBe("customers");
    expect(request.body!.get("record_id")).toBe("c1");
    expect(request.body!.has("document_id")).toBe(false);
    expect(progress).toEqual([0.25, 1]);
  });

  it("sends a new version with the document's id only", async () => {
    FakeRequest.answer = (request) => request.respond(200, JSON.stringify({ success: true, document: { ...document, current_version: 2 } }));
    const answer = await uploadDocument({ file, fileName: "v2.pdf", documentId: document.id });
    expect(answer.document.current_version).toBe(2);
    const body = FakeRequest.last!.body!;
    expect(body.get("document_id")).toBe(document.id);
    expect(body.has("module") || body.has("record_id") || body.has("title")).toBe(false);
  });

  it("throws a refusal as an RpcError with its code, which the mapper names", async () => {
    FakeRequest.answer = (request) =>
      request.respond(415, JSON.stringify({ success: false, error: "File type not allowed", code: "file_type_not_allowed" }));
    const failure = await uploadDocument({ file, fileName: "x.pdf" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcError);
    expect(documentFailureKey(failure)).toBe("documentKit.errors.file_type_not_allowed");
  });

  it("reads a proxy's bare 413 as too large, and any other answer without JSON as unknown", async () => {
    FakeRequest.answer = (request) => request.respond(413, "<html>Request Entity Too Large</html>");
    expect(documentFailureKey(await uploadDocument({ file, fileName: "big.pdf" }).catch((error: unknown) => error))).toBe(
      "documentKit.errors.file_too_large",
    );
    FakeRequest.answer = (request) => request.respond(502, "Bad Gateway");
    expect(documentFailureKey(await uploadDocument({ file, fileName: "a.pdf" }).catch((error: unknown) => error))).toBe(
      "documentKit.errors.unknown",
    );
  });

  it("signs out on a 401, as the client's fetch does", async () => {
    FakeRequest.answer = (request) => request.respond(401, JSON.stringify({ success: false, error: "Authentication required", code: "not_authenticated" }));
    await expect(uploadDocument({ file, fileName: "a.pdf" })).rejects.toBeInstanceOf(RpcError);
    expect(unauthorized).toHaveBeenCalledOnce();
  });

  it("tells a lost connection from a cancel", async () => {
    FakeRequest.answer = (request) => request.onerror?.();
    expect(documentFailureKey(await uploadDocument({ file, fileName: "a.pdf" }).catch((error: unknown) => error))).toBe(
      "documentKit.errors.network",
    );

    const controller = new AbortController();
    FakeRequest.answer = () => controller.abort();
    const cancelled = await uploadDocument({ file, fileName: "a.pdf", signal: controller.signal }).catch((error: unknown) => error);
    expect(isUploadCancelled(cancelled)).toBe(true);
    await expect(uploadDocument({ file, fileName: "a.pdf", signal: controller.signal })).rejects.toSatisfy(isUploadCancelled);
  });

  it("sends nothing without a session", async () => {
    accessToken.mockResolvedValue(null);
    FakeRequest.last = null;
    await expect(uploadDocument({ file, fileName: "a.pdf" })).rejects.toMatchObject({ code: "not_authenticated" });
    expect(FakeRequest.last).toBeNull();
  });
});

describe("signedDocumentUrl", () => {
  it("asks the documents function for a 60-second link (members cannot sign documents themselves)", async () => {
    fake.functions.invoke.mockResolvedValueOnce({
      data: { success: true, signed_url: "http://0.0.0.0:54321/storage/v1/object/sign/documents/a?token=t&download=Teklif.pdf" },
      error: null,
    });
    // Fetched from where the app reaches the project, whatever address the function knows it by.
    expect(await signedDocumentUrl("org/doc/1", "Teklif.pdf")).toBe("https://crm.test/storage/v1/object/sign/documents/a?token=t&download=Teklif.pdf");
    expect(fake.functions.invoke).toHaveBeenLastCalledWith("documents", {
      body: { action: "sign", object_path: "org/doc/1", expires_in: 60, download: "Teklif.pdf" },
    });
    fake.functions.invoke.mockResolvedValueOnce({ data: { success: true, signed_url: "https://crm.test/storage/v1/x" }, error: null });
    await signedDocumentUrl("org/doc/1");
    expect(fake.functions.invoke).toHaveBeenLastCalledWith("documents", { body: { action: "sign", object_path: "org/doc/1", expires_in: 60 } });
  });

  it("throws the function's refusal as an RpcError with its code", async () => {
    const refusal = new Response(JSON.stringify({ success: false, error: "Record not found", code: "not_found" }), { status: 404 });
    fake.functions.invoke.mockResolvedValueOnce({ data: null, error: new FunctionsHttpError(refusal) });
    const error = await signedDocumentUrl("org/doc/1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe("not_found");
  });
});
