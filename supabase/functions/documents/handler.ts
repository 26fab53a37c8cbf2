/**
 * Uploading a document or a new version of one (POST multipart: file, title?, module? with
 * record_id?, document_id?). The caller is authenticated from their JWT; everything about
 * who they are and which organization they work in comes from the database
 * (begin_document_upload runs as them: permission, linked record, quota, the path it
 * reserves under their session's organization). Here: the size (25 MiB), the type by the
 * file's first bytes, the sha256; then the object goes to Storage with the service role
 * under the reserved path (never the user's file name), and finish_document_upload records
 * it as the caller. After any failure once the object is written, the object is removed;
 * objects of the organization's expired reservations (a function that died mid-upload),
 * named by begin_document_upload, are removed before the write.
 * Refusals keep the RPC shape {success: false, error, code}; the app words them.
 *
 * Signing a download (POST JSON {action: "sign", object_path, download?, expires_in?}): the
 * only way to a signed URL of the documents bucket (members have no Storage policy of their
 * own). The function signs with the service role for at most 60 seconds, then
 * sign_document_download, run as the caller, decides (session's organization, documents view
 * scope, not deleted, that version exists) and records the signing with the sha-256 of the
 * URL's token; only then does the URL leave. A refused or unknown object is not_found alike.
 * The local stack's front checks the record again when the URL is used.
 *
 * No request-forgery token as the admin functions ask: the call carries its bearer token in
 * a header the browser never adds by itself, and the action is the caller's own.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { z } from "zod";
import { authUnavailable, json, preflight } from "../_shared/http.ts";
import { callRpc, type CallerClientFactory, type RpcAnswer } from "../_shared/privileged.ts";
import { allowedMimeType, maxFileBytes } from "./file-check.ts";

/** Where the function writes objects (the documents bucket, with the service role). */
export interface DocumentStorage {
  /** Stores the bytes at the path (replacing a leftover of an interrupted upload); false when Storage refused. */
  upload(path: string, bytes: Uint8Array, contentType: string): Promise<boolean>;
  remove(path: string): Promise<void>;
  /** A signed URL of the object for `seconds` (as an attachment named `download` when given); null when Storage refused. */
  sign(path: string, seconds: number, download?: string): Promise<string | null>;
}

/** The documents bucket through supabase-js (/storage/v1) with a service-role client. */
export function bucketStorage(client: SupabaseClient): DocumentStorage {
  const bucket = client.storage.from("documents");
  return {
    upload: async (path, bytes, contentType) => !(await bucket.upload(path, bytes, { contentType, upsert: true })).error,
    remove: async (path) => {
      await bucket.remove([path]);
    },
    sign: async (path, seconds, download) => {
      const { data, error } = await bucket.createSignedUrl(path, seconds, download ? { download } : undefined);
      return error || !data?.signedUrl ? null : data.signedUrl;
    },
  };
}

const fields = z
  .object({
    title: z.string().max(300).optional(),
    // A module key; whether documents can belong to its records is the registry's
    // (begin_document_upload answers link_not_found for any other module).
    module: z.string().regex(/^[a-z][a-z_]{0,39}$/).optional(),
    record_id: z.guid().optional(),
    document_id: z.guid().optional(),
  })
  .refine((value) => (value.module === undefined) === (value.record_id === undefined), { path: ["record_id"] })
  .refine((value) => value.document_id === undefined || value.module === undefined, { path: ["document_id"] });

/** The longest life of a signed download URL (the database refuses longer ones too). */
export const maxSignedUrlSeconds = 60;

const signRequest = z
  .object({
    action: z.literal("sign"),
    object_path: z.string().min(1).max(200),
    download: z.string().min(1).max(300).optional(),
    expires_in: z.number().int().min(1).max(maxSignedUrlSeconds).default(maxSignedUrlSeconds),
  })
  .strict();

/** How many lives (60 s, 59 s, …) a signing tries when its token is already another signer's. */
const maxSignAttempts = 10;

/** The largest JSON body a signing request may have. */
const maxSignBodyBytes = 4096;

/** Multipart overhead allowed on top of the file before the body is refused unread. */
const formOverhead = 64 * 1024;

const statusByCode: Record<string, number> = {
  authentication_required: 401,
  permission_denied: 403,
  organization_context_required: 409,
  tables_not_found: 409,
  not_found: 404,
  link_not_found: 404,
  upload_not_found: 409,
  upload_in_progress: 409,
  stale_record: 409,
  quota_exceeded: 413,
  file_too_large: 413,
  file_type_not_allowed: 415,
  storage_failed: 502,
  server_error: 500,
  service_unavailable: 503,
};

function answer(body: RpcAnswer): Response {
  return json(body, body.success ? 200 : (statusByCode[body.code ?? ""] ?? 400));
}

function refusal(error: string, code: string): Response {
  return answer({ success: false, error, code });
}

/**
 * Signs a download: the URL is made first (service role), its token's hash recorded by the
 * database as the caller, and the URL handed out only if the database allowed the object.
 */
async function signDownload(request: Request, caller: SupabaseClient, storageFor: () => DocumentStorage): Promise<Response> {
  if (Number(request.headers.get("content-length") ?? "0") > maxSignBodyBytes) return refusal("Invalid request", "invalid_request");
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return refusal("Invalid request", "invalid_request");
  }
  const parsed = signRequest.safeParse(body);
  if (!parsed.success) return refusal("Invalid request", "invalid_request");
  const { object_path: objectPath, download, expires_in: seconds } = parsed.data;

  // Storage's token names only the object and its times, so a signing of the same object in
  // the same second by someone else gives the same token; the database records a token for
  // one signer only (token_in_use), and a life one second shorter is another token.
  for (let life = seconds; life >= Math.max(1, seconds - maxSignAttempts + 1); life -= 1) {
    const signedUrl = await storageFor().sign(objectPath, life, download).catch(() => null);
    const token = signedUrl ? new URL(signedUrl).searchParams.get("token") : null;
    if (!signedUrl || !token) return refusal("Record not found", "not_found");
    const allowed = await callRpc(caller, "sign_document_download", {
      p_object_path: objectPath,
      p_token_hash: await sha256Hex(new TextEncoder().encode(token)),
      p_seconds: life,
    }, "Download failed");
    if (allowed.code === "token_in_use") continue;
    if (!allowed.success) return answer(allowed);
    return answer({ success: true, signed_url: signedUrl, expires_at: allowed.expires_at });
  }
  return refusal("Download failed", "server_error");
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export function createHandler(clientForCaller: CallerClientFactory, storageFor: () => DocumentStorage) {
  return async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS") return preflight();
    if (request.method !== "POST") return refusal("Method not allowed", "method_not_allowed");

    const authorization = request.headers.get("Authorization");
    if (!authorization?.startsWith("Bearer ")) return refusal("Authentication required", "authentication_required");
    const caller = clientForCaller(authorization);
    const { data: userData, error: userError } = await caller.auth.getUser(authorization.slice(7));
    if (authUnavailable(userError)) return refusal("Service unavailable", "service_unavailable");
    if (userError || !userData.user) return refusal("Authentication required", "authentication_required");

    if (request.headers.get("content-type")?.toLowerCase().startsWith("application/json")) {
      try {
        return await signDownload(request, caller, storageFor);
      } catch {
        return refusal("Download failed", "server_error");
      }
    }

    const declaredLength = Number(request.headers.get("content-length") ?? "0");
    if (declaredLength > maxFileBytes + formOverhead) return refusal("File too large", "file_too_large");
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return refusal("Invalid request", "invalid_request");
    }
    const file = form.get("file");
    if (!(file instanceof File)) return refusal("Invalid request", "invalid_request");
    if (file.size > maxFileBytes) return refusal("File too large", "file_too_large");
    if (file.size === 0) return refusal("The file is empty", "file_empty");
    const parsed = fields.safeParse({
      title: text(form, "title"),
      module: text(form, "module"),
      record_id: text(form, "record_id"),
      document_id: text(form, "document_id"),
    });
    if (!parsed.success) return refusal("Invalid request", "invalid_request");

    const bytes = new Uint8Array(await file.arrayBuffer());
    const mimeType = await allowedMimeType(bytes, file.name);
    if (!mimeType) return refusal("File type not allowed", "file_type_not_allowed");

    const begun = await callRpc(caller, "begin_document_upload", {
      p_document_id: parsed.data.document_id ?? null,
      p_title: parsed.data.title ?? null,
      p_module: parsed.data.module ?? null,
      p_record_id: parsed.data.record_id ?? null,
      p_file_name: file.name,
      p_size_bytes: bytes.byteLength,
      p_mime_type: mimeType,
      p_sha256: await sha256Hex(bytes),
    }, "Upload failed");
    if (!begun.success) return answer(begun);
    const uploadId = begun.upload_id as string;
    const objectPath = begun.object_path as string;

    const storage = storageFor();
    // Objects left by uploads of this organization that died after their Storage write
    // (begin dropped their reservations): removed, and only under this organization's folder.
    const folder = `${objectPath.split("/")[0]}/`;
    const orphaned = Array.isArray(begun.orphaned_paths) ? (begun.orphaned_paths as unknown[]) : [];
    for (const path of orphaned) {
      if (typeof path === "string" && path.startsWith(folder)) await storage.remove(path).catch(() => {});
    }
    let stored = false;
    try {
      stored = await storage.upload(objectPath, bytes, mimeType);
      if (!stored) {
        await callRpc(caller, "cancel_document_upload", { p_upload_id: uploadId }, "Upload failed");
        return refusal("Upload failed", "storage_failed");
      }
      const finished = await callRpc(caller, "finish_document_upload", { p_upload_id: uploadId }, "Upload failed");
      if (!finished.success) {
        await storage.remove(objectPath);
        await callRpc(caller, "cancel_document_upload", { p_upload_id: uploadId }, "Upload failed");
        return answer(finished);
      }
      return answer({ success: true, document: finished.document });
    } catch {
      if (stored) await storage.remove(objectPath).catch(() => {});
      return refusal("Upload failed", "server_error");
    }
  };
}
