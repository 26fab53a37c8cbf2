/**
 * Documents through the real local stack (issue 13): the `documents` Edge Function stores a
 * PDF and a new version in lite's Storage, the RPCs list them, signed URLs (made by the same
 * function, at most 60 seconds, recorded by the database) download both versions byte for
 * byte; a fake PDF is refused; another organization's admin, a deleted document, a browser
 * writing objects itself, and a signed URL past its life or tampered with (a clean 400,
 * never 500) are refused; a member signs nothing with their own JWT, a 10-year link is not
 * served, and a link dies with its document or its signer's access (issue 23, item 7); every
 * Storage answer carries nosniff and a CSP.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { testKeys } from "../support/keys.ts";
import { createClient } from "@supabase/supabase-js";
import ws from "ws";
import { createMember, testPassword } from "../support/accounts.ts";
import { demoOrganizationId, privilegedRpc, rpc, signedInClient, type CrmClient } from "../support/clients.ts";

const url = inject("stackUrl");

type Version = { version: number; file_name: string; size_bytes: number; object_path: string; uploaded_by_name: string };

function pdfBytes(text: string): Uint8Array {
  return new TextEncoder().encode(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
}

/** Posts a file to the documents function as the signed-in caller, as the app does. */
async function upload(client: CrmClient, bytes: Uint8Array, fileName: string, fields: Record<string, string> = {}) {
  const { data } = await client.auth.getSession();
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), fileName);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${url}/functions/v1/documents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${data.session?.access_token}`, apikey: testKeys.publishableKey },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { code?: string } };
}

/** A signed download URL as the app gets one: from the documents function (members cannot sign documents themselves). */
async function signedDownload(client: CrmClient, path: string, seconds: number = 60) {
  const { data } = await client.auth.getSession();
  const response = await fetch(`${url}/functions/v1/documents`, {
    method: "POST",
    headers: { Authorization: `Bearer ${data.session?.access_token}`, apikey: testKeys.publishableKey, "content-type": "application/json" },
    body: JSON.stringify({ action: "sign", object_path: path, download: "x.pdf", expires_in: seconds }),
  });
  const body = (await response.json()) as { success: boolean; signed_url?: string; code?: string };
  return { url: body.signed_url, error: body.success ? null : body, status: response.status };
}

/** Every Storage answer: never sniffed, and no scripts, frames elsewhere or origin of its own. */
function expectStorageHeaders(response: Response) {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("content-security-policy")).toBe(
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox",
  );
}

async function expectInvalidToken(response: Response, message: string) {
  expect(response.status).toBe(400);
  expectStorageHeaders(response);
  expect(await response.json()).toEqual({ statusCode: "400", error: "InvalidJWT", message });
}

describe("documents through supabase-js and the documents function", () => {
  it("uploads a PDF and a new version, lists them, downloads both byte for byte; refuses a fake PDF", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const customer = await rpc(client, "create_customer", { p_values: { name: `Belge Müşterisi ${randomUUID().slice(0, 6)}` } });
    const customerId = (customer.record as { id: string }).id;
    const usageBefore = await rpc(client, "get_document_usage");
    const first = pdfBytes("ilk sürüm İıŞşĞğ");
    const second = pdfBytes("ikinci sürüm, imzalı");

    const created = await upload(client, first, "Sözleşme taslağı.pdf", { title: "Sözleşme", module: "customers", record_id: customerId });
    expect(created).toMatchObject({
      status: 200,
      body: { success: true, document: { title: "Sözleşme", file_name: "Sözleşme taslağı.pdf", mime_type: "application/pdf", current_version: 1, customer_id: customerId } },
    });
    const documentId = (created.body.document as { id: string }).id;
    const versioned = await upload(client, second, "Sözleşme imzalı.pdf", { document_id: documentId });
    expect(versioned).toMatchObject({ status: 200, body: { success: true, document: { id: documentId, current_version: 2, file_name: "Sözleşme imzalı.pdf" } } });

    const listed = await rpc(client, "list_record_documents", { p_module: "customers", p_record_id: customerId });
    expect(listed).toMatchObject({ success: true, documents: [{ id: documentId, current_version: 2, uploaded_by_name: "Ayşe Yılmaz" }] });
    const details = await rpc(client, "get_document_details", { p_id: documentId });
    const versions = details.versions as Version[];
    expect(versions.map((v) => [v.version, v.file_name, Number(v.size_bytes), v.object_path])).toEqual([
      [2, "Sözleşme imzalı.pdf", second.byteLength, `${demoOrganizationId}/${documentId}/2`],
      [1, "Sözleşme taslağı.pdf", first.byteLength, `${demoOrganizationId}/${documentId}/1`],
    ]);
    const usageAfter = await rpc(client, "get_document_usage");
    expect(Number(usageAfter.used_bytes) - Number(usageBefore.used_bytes)).toBe(first.byteLength + second.byteLength);

    for (const [version, bytes] of [[versions[1], first], [versions[0], second]] as const) {
      const signed = await signedDownload(client, version.object_path);
      expect(signed.error).toBeNull();
      const response = await fetch(signed.url!);
      expect(response.status).toBe(200);
      expectStorageHeaders(response);
      // Served as what it is (under nosniff, an octet-stream PDF is downloaded, never previewed).
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    }

    const fake = await upload(client, new TextEncoder().encode("<!doctype html><html><body>not a pdf</body></html>"), "x.pdf");
    expect(fake).toMatchObject({ status: 415, body: { success: false, code: "file_type_not_allowed" } });
  });

  it("Storage refuses another organization's admin, a deleted document, a browser's own writes and an expired signed URL", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const created = await upload(client, pdfBytes("gizli"), "gizli.pdf");
    expect(created.status).toBe(200);
    const documentId = (created.body.document as { id: string }).id;
    const path = `${demoOrganizationId}/${documentId}/1`;

    // Another organization's admin: neither a signed URL nor a download nor a listing.
    const { client: acme } = await signedInClient(url, "admin@acme.test");
    expect((await signedDownload(acme, path)).error).not.toBeNull();
    expect((await acme.storage.from("documents").download(path)).error).not.toBeNull();
    const listing = await acme.storage.from("documents").list(`${demoOrganizationId}/${documentId}`);
    expect(listing.data ?? []).toEqual([]);

    // The signed-in member may not write objects themselves (only the function does, after its checks).
    const direct = await client.storage.from("documents").upload(`${demoOrganizationId}/${documentId}/9`, pdfBytes("yan yol"), {
      contentType: "application/pdf",
    });
    expect(direct.error).not.toBeNull();
    expect((await client.storage.from("documents").remove([path])).data ?? []).toEqual([]);
    expect((await signedDownload(client, path)).error).toBeNull();

    // A signed URL works for its short life only; past it, or tampered with, a clean 400 (lite alone said 500).
    const shortLived = await signedDownload(client, path, 2);
    expect((await fetch(shortLived.url!)).status).toBe(200);
    const tampered = new URL(shortLived.url!);
    tampered.searchParams.set("token", `${tampered.searchParams.get("token")!.slice(0, -4)}AAAA`);
    await expectInvalidToken(await fetch(tampered), "invalid signature");
    tampered.searchParams.set("token", "not-a-token");
    await expectInvalidToken(await fetch(tampered), "invalid signature");
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await expectInvalidToken(await fetch(shortLived.url!), "jwt expired");
    // A valid token for another path: lite's own 403, with the same headers.
    const elsewhere = new URL(shortLived.url!.replace(/\/1\?/, "/2?"));
    const other = await signedDownload(client, path, 60);
    elsewhere.searchParams.set("token", new URL(other.url!).searchParams.get("token")!);
    const wrongPath = await fetch(elsewhere);
    expect(wrongPath.status).toBe(403);
    expectStorageHeaders(wrongPath);

    // A deleted document's files are not signed any more; restored, they are again.
    expect(await rpc(client, "delete_documents", { p_ids: [documentId] })).toMatchObject({ success: true, changed: 1 });
    expect((await signedDownload(client, path)).error).not.toBeNull();
    expect(await rpc(client, "restore_documents", { p_ids: [documentId] })).toMatchObject({ success: true, changed: 1 });
    expect((await signedDownload(client, path)).error).toBeNull();

    // A member who sees every record but changes only their own (coklu@, Kullanıcı in demo)
    // downloads it but may not add a version to another's document; satis@ (Satış Temsilcisi,
    // sees only their own) does not even get a link.
    const { client: user } = await signedInClient(url, "coklu@demo.test", undefined, { organization: demoOrganizationId });
    expect((await signedDownload(user, path)).error).toBeNull();
    expect(await upload(user, pdfBytes("başkasının"), "v2.pdf", { document_id: documentId })).toMatchObject({
      status: 404,
      body: { success: false, code: "not_found" },
    });
    const { client: satis } = await signedInClient(url, "satis@demo.test");
    expect((await signedDownload(satis, path)).error).not.toBeNull();
  });

  it("signed links: only the documents function signs, for at most 60 seconds; a 10-year link is refused", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const created = await upload(client, pdfBytes("süreli"), "sureli.pdf");
    const path = `${demoOrganizationId}/${(created.body.document as { id: string }).id}/1`;

    // The member's own JWT signs nothing in the documents bucket any more (no Storage policy).
    expect((await client.storage.from("documents").createSignedUrl(path, 60)).error).not.toBeNull();
    // The function refuses a longer life than 60 seconds.
    expect(await signedDownload(client, path, 315_360_000)).toMatchObject({ status: 400, error: { code: "invalid_request" } });
    expect(await signedDownload(client, path, 61)).toMatchObject({ status: 400, error: { code: "invalid_request" } });
    // Even the secret key's 10-year link is not served by the front.
    const service = createClient(url, testKeys.secretKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as never },
    });
    const tenYears = await service.storage.from("documents").createSignedUrl(path, 315_360_000);
    expect(tenYears.error).toBeNull();
    const refused = await fetch(tenYears.data!.signedUrl);
    expect(refused.status).toBe(400);
    expectStorageHeaders(refused);
    expect(await refused.json()).toEqual({ statusCode: "400", error: "InvalidJWT", message: "signed URLs live at most 60 seconds" });
    // Nor a 60-second link the function did not record (signed with the secret key by someone else).
    const unrecorded = await service.storage.from("documents").createSignedUrl(path, 60);
    expect((await fetch(unrecorded.data!.signedUrl)).status).toBe(403);
    // The app's link works.
    const normal = await signedDownload(client, path);
    expect(normal.error).toBeNull();
    expect(normal.url).toMatch(/^http:\/\/[^/]+\/storage\/v1\/object\/sign\/documents\//);
    const served = await fetch(normal.url!);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pdfBytes("süreli"));
  });

  it("a signed link stops working once its document is deleted, or its signer is deactivated or locked", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const created = await upload(admin, pdfBytes("geri çekilen"), "geri.pdf");
    const documentId = (created.body.document as { id: string }).id;
    const path = `${demoOrganizationId}/${documentId}/1`;

    const link = await signedDownload(admin, path);
    expect((await fetch(link.url!)).status).toBe(200);
    expect(await rpc(admin, "delete_documents", { p_ids: [documentId] })).toMatchObject({ success: true, changed: 1 });
    const gone = await fetch(link.url!);
    expect(gone.status).toBe(403);
    expectStorageHeaders(gone);
    expect(await gone.json()).toEqual({ statusCode: "403", error: "AccessDenied", message: "This download is no longer allowed" });
    expect(await rpc(admin, "restore_documents", { p_ids: [documentId] })).toMatchObject({ success: true, changed: 1 });
    expect((await fetch(link.url!)).status).toBe(200);

    // Two members sign a link each; one is deactivated, the other locked.
    const deactivated = await createMember(url);
    const locked = await createMember(url);
    const links: string[] = [];
    for (const member of [deactivated, locked]) {
      const { client } = await signedInClient(url, member.email, testPassword);
      const signed = await signedDownload(client, path);
      expect(signed.error).toBeNull();
      expect((await fetch(signed.url!)).status).toBe(200);
      links.push(signed.url!);
    }
    expect(await privilegedRpc(admin, "update_user_secure", { p_user_id: deactivated.id, p_user_data: { is_active: false } })).toMatchObject({
      success: true,
    });
    expect((await fetch(links[0])).status).toBe(403);
    expect(await privilegedRpc(admin, "lock_user_secure", { p_user_id: locked.id })).toMatchObject({ success: true });
    expect((await fetch(links[1])).status).toBe(403);
    // The admin's own link is untouched.
    expect((await fetch(link.url!)).status).toBe(200);
  });
});
