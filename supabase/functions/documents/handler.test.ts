import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fakeCaller, type FakeCallerOptions } from "../_shared/fake-caller.ts";
import { allowedMimeType } from "./file-check.ts";
import { createHandler, type DocumentStorage } from "./handler.ts";

const encoder = new TextEncoder();
const pdf = encoder.encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const html = encoder.encode("<!doctype html><html><body><script>alert(1)</script></body></html>");
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const begun = { success: true, upload_id: "0c000000-0000-4000-8000-000000000001", object_path: "org/doc/1", document_id: "doc", version: 1 };
const documentRow = { id: "doc", title: "Teklif", current_version: 1 };

function fakeStorage(accept = true) {
  const uploads: { path: string; size: number; contentType: string }[] = [];
  const removed: string[] = [];
  const signed: { path: string; seconds: number; download?: string }[] = [];
  const storage: DocumentStorage = {
    sign: (path, seconds, download) => {
      signed.push({ path, seconds, ...(download ? { download } : {}) });
      return Promise.resolve(accept ? `http://localhost/storage/v1/object/sign/documents/${path}?token=signed-token` : null);
    },
    upload: (path, bytes, contentType) => {
      uploads.push({ path, size: bytes.byteLength, contentType });
      return Promise.resolve(accept);
    },
    remove: (path) => {
      removed.push(path);
      return Promise.resolve();
    },
  };
  return { storage, uploads, removed, signed };
}

function uploadRequest(file: Blob | null, name: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const form = new FormData();
  if (file) form.append("file", file, name);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return new Request("http://localhost/documents", { method: "POST", headers: { Authorization: "Bearer user-jwt", ...headers }, body: form });
}

async function upload(file: Blob | null, name: string, options: { fields?: Record<string, string>; caller?: FakeCallerOptions; accept?: boolean } = {}) {
  const caller = fakeCaller({
    answers: {
      begin_document_upload: { data: begun, error: null },
      finish_document_upload: { data: { success: true, document: documentRow }, error: null },
    },
    ...options.caller,
  });
  const files = fakeStorage(options.accept);
  const response = await createHandler(caller.factory, () => files.storage)(uploadRequest(file, name, options.fields));
  return { status: response.status, body: await response.json(), calls: caller.calls, ...files };
}

Deno.test("a PDF: checked, reserved as the caller, stored under the reserved path with its sniffed type, recorded", async () => {
  const result = await upload(new Blob([pdf]), "Teklif 2026.pdf", { fields: { title: "Teklif", module: "deals", record_id: "0d000000-0000-4000-8000-000000000001" } });
  assertEquals(result.status, 200);
  assertEquals(result.body, { success: true, document: documentRow });
  assertEquals(result.calls.map((call) => call.name), ["begin_document_upload", "finish_document_upload"]);
  const begin = result.calls[0].args;
  assertEquals([begin.p_file_name, begin.p_size_bytes, begin.p_mime_type, begin.p_module, begin.p_title, begin.p_document_id],
    ["Teklif 2026.pdf", pdf.byteLength, "application/pdf", "deals", "Teklif", null]);
  assertEquals(/^[0-9a-f]{64}$/.test(String(begin.p_sha256)), true);
  assertEquals(result.calls[1].args, { p_upload_id: begun.upload_id });
  assertEquals(result.uploads, [{ path: "org/doc/1", size: pdf.byteLength, contentType: "application/pdf" }]);
  assertEquals(result.removed, []);
});

Deno.test("HTML named x.pdf is refused before anything is reserved or stored", async () => {
  const result = await upload(new Blob([html], { type: "application/pdf" }), "x.pdf");
  assertEquals([result.status, result.body.code], [415, "file_type_not_allowed"]);
  assertEquals(result.calls, []);
  assertEquals(result.uploads, []);
});

Deno.test("types by the bytes: extension and bytes must agree; text must be UTF-8 without NUL", async () => {
  assertEquals(await allowedMimeType(png, "logo.png"), "image/png");
  assertEquals(await allowedMimeType(png, "logo.pdf"), null);
  assertEquals(await allowedMimeType(pdf, "scan.png"), null);
  assertEquals(await allowedMimeType(encoder.encode("ad;soyad\nAyşe;Işık\n"), "kişiler.csv"), "text/csv");
  assertEquals(await allowedMimeType(new Uint8Array([0x61, 0, 0x62]), "notes.txt"), null);
  assertEquals(await allowedMimeType(new Uint8Array([0xff, 0xfe, 0x41]), "notes.txt"), null);
  assertEquals(await allowedMimeType(pdf, "notes.txt"), null);
  assertEquals(await allowedMimeType(html, "page.html"), null);
  assertEquals(await allowedMimeType(pdf, "no-extension"), "application/pdf");
  assertEquals(await allowedMimeType(encoder.encode("plain words"), "README"), "text/plain");
});

Deno.test("a file over 25 MiB is refused as file_too_large, an empty one as file_empty", async () => {
  const big = new Uint8Array(25 * 1024 * 1024 + 1);
  big.set(pdf);
  const tooLarge = await upload(new Blob([big]), "big.pdf");
  assertEquals([tooLarge.status, tooLarge.body.code, tooLarge.calls.length], [413, "file_too_large", 0]);
  const empty = await upload(new Blob([]), "empty.txt");
  assertEquals([empty.status, empty.body.code, empty.calls.length], [400, "file_empty", 0]);
});

Deno.test("the database's refusal (quota, permission) is passed on and nothing is stored", async () => {
  const result = await upload(new Blob([pdf]), "a.pdf", {
    caller: { answers: { begin_document_upload: { data: { success: false, error: "Storage quota exceeded", code: "quota_exceeded" }, error: null } } },
  });
  assertEquals([result.status, result.body.code], [413, "quota_exceeded"]);
  assertEquals(result.uploads, []);
});

Deno.test("objects of expired reservations named by begin are removed, only under the organization's folder", async () => {
  const result = await upload(new Blob([pdf]), "a.pdf", {
    caller: {
      answers: {
        begin_document_upload: { data: { ...begun, orphaned_paths: ["org/dead/1", "other/doc/1", 7] }, error: null },
        finish_document_upload: { data: { success: true, document: documentRow }, error: null },
      },
    },
  });
  assertEquals(result.status, 200);
  assertEquals(result.removed, ["org/dead/1"]);
  assertEquals(result.uploads.map((stored) => stored.path), ["org/doc/1"]);
});

Deno.test("a refused finish removes the stored object and drops the reservation", async () => {
  const result = await upload(new Blob([pdf]), "a.pdf", {
    caller: {
      answers: {
        begin_document_upload: { data: begun, error: null },
        finish_document_upload: { data: { success: false, error: "Storage quota exceeded", code: "quota_exceeded" }, error: null },
      },
    },
  });
  assertEquals([result.status, result.body.code], [413, "quota_exceeded"]);
  assertEquals(result.removed, ["org/doc/1"]);
  assertEquals(result.calls.map((call) => call.name), ["begin_document_upload", "finish_document_upload", "cancel_document_upload"]);
});

Deno.test("Storage refusing the write drops the reservation", async () => {
  const result = await upload(new Blob([pdf]), "a.pdf", { accept: false });
  assertEquals([result.status, result.body.code], [502, "storage_failed"]);
  assertEquals(result.calls.map((call) => call.name), ["begin_document_upload", "cancel_document_upload"]);
});

Deno.test("no bearer token, an unknown one, no file or a half link: refused before any RPC", async () => {
  const anonymous = await createHandler(fakeCaller().factory, () => fakeStorage().storage)(
    new Request("http://localhost/documents", { method: "POST", body: new FormData() }),
  );
  assertEquals(anonymous.status, 401);
  const unknown = await upload(new Blob([pdf]), "a.pdf", { caller: { user: null } });
  assertEquals([unknown.status, unknown.calls.length], [401, 0]);
  // Auth could not check the token (the database restarting): 503, which does not sign the app out.
  const unchecked = await upload(new Blob([pdf]), "a.pdf", { caller: { user: "unavailable" } });
  assertEquals([unchecked.status, unchecked.body.code, unchecked.calls.length], [503, "service_unavailable", 0]);
  const noFile = await upload(null, "", { fields: { title: "x" } });
  assertEquals([noFile.status, noFile.body.code], [400, "invalid_request"]);
  const halfLink = await upload(new Blob([pdf]), "a.pdf", { fields: { module: "deals" } });
  assertEquals([halfLink.status, halfLink.body.code, halfLink.calls.length], [400, "invalid_request", 0]);
  const badModule = await upload(new Blob([pdf]), "a.pdf", { fields: { module: "../users", record_id: "0d000000-0000-4000-8000-000000000001" } });
  assertEquals([badModule.status, badModule.calls.length], [400, 0]);
  // Any module key goes to the database, whose registry says whether documents belong to its records.
  const unlinkable = await upload(new Blob([pdf]), "a.pdf", {
    fields: { module: "tasks", record_id: "0d000000-0000-4000-8000-000000000001" },
    caller: { answers: { begin_document_upload: { data: { success: false, error: "Linked record not found", code: "link_not_found" }, error: null } } },
  });
  assertEquals([unlinkable.status, unlinkable.body.code, unlinkable.calls.map((call) => call.name)],
    [404, "link_not_found", ["begin_document_upload"]]);
});

async function sign(body: unknown, options: { caller?: FakeCallerOptions; accept?: boolean } = {}) {
  const caller = fakeCaller({
    answers: { sign_document_download: { data: { success: true, expires_at: "2026-11-27T21:00:00Z" }, error: null } },
    ...options.caller,
  });
  const files = fakeStorage(options.accept);
  const request = new Request("http://localhost/documents", {
    method: "POST",
    headers: { Authorization: "Bearer user-jwt", "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const response = await createHandler(caller.factory, () => files.storage)(request);
  return { status: response.status, body: await response.json(), calls: caller.calls, signed: files.signed };
}

Deno.test("sign: 60 seconds by default, the token's hash recorded as the caller before the URL is handed out", async () => {
  const result = await sign({ action: "sign", object_path: "org/doc/1", download: "Teklif.pdf" });
  assertEquals(result.status, 200);
  assertEquals(result.body, {
    success: true,
    signed_url: "http://localhost/storage/v1/object/sign/documents/org/doc/1?token=signed-token",
    expires_at: "2026-11-27T21:00:00Z",
  });
  assertEquals(result.signed, [{ path: "org/doc/1", seconds: 60, download: "Teklif.pdf" }]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode("signed-token")));
  assertEquals(result.calls, [{
    name: "sign_document_download",
    args: { p_object_path: "org/doc/1", p_token_hash: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""), p_seconds: 60 },
  }]);
});

Deno.test("sign: a shorter life is kept, a longer one is refused before anything is signed", async () => {
  assertEquals((await sign({ action: "sign", object_path: "org/doc/1", expires_in: 5 })).signed, [{ path: "org/doc/1", seconds: 5 }]);
  for (const expires_in of [61, 315_360_000, 0, "60"]) {
    const refused = await sign({ action: "sign", object_path: "org/doc/1", expires_in });
    assertEquals([refused.status, refused.body.code, refused.signed, refused.calls], [400, "invalid_request", [], []]);
  }
  const notJson = await sign("{nope");
  assertEquals([notJson.status, notJson.body.code], [400, "invalid_request"]);
});

Deno.test("sign: the URL never leaves when the database refuses the object; an object Storage cannot sign is not_found", async () => {
  const refused = await sign({ action: "sign", object_path: "other/doc/1" }, {
    caller: { answers: { sign_document_download: { data: { success: false, error: "Record not found", code: "not_found" }, error: null } } },
  });
  assertEquals([refused.status, refused.body], [404, { success: false, error: "Record not found", code: "not_found" }]);
  const missing = await sign({ action: "sign", object_path: "org/doc/9" }, { accept: false });
  assertEquals([missing.status, missing.body.code, missing.calls], [404, "not_found", []]);
});

Deno.test("sign: a token already given to another signer (same object, same second) is signed again with a life a second shorter", async () => {
  const taken = { data: { success: false, error: "This link is already given out; sign again", code: "token_in_use" }, error: null };
  let answered = 0;
  const caller = fakeCaller();
  const factory = (authorization: string, headers?: Record<string, string>) => {
    const client = caller.factory(authorization, headers);
    const rpc = client.rpc.bind(client);
    return Object.assign(client, {
      rpc: (name: string, args: Record<string, unknown>) =>
        name === "sign_document_download" && answered++ < 2
          ? (rpc(name, args), Promise.resolve(taken))
          : rpc(name, args),
    }) as typeof client;
  };
  const files = fakeStorage();
  const response = await createHandler(factory, () => files.storage)(new Request("http://localhost/documents", {
    method: "POST",
    headers: { Authorization: "Bearer user-jwt", "content-type": "application/json" },
    body: JSON.stringify({ action: "sign", object_path: "org/doc/1" }),
  }));
  assertEquals(response.status, 200);
  assertEquals(files.signed.map((signing) => signing.seconds), [60, 59, 58]);
  assertEquals(caller.calls.map((call) => call.args.p_seconds), [60, 59, 58]);
});
