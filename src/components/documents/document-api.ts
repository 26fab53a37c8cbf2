/**
 * The documents module's calls, shared by the documents pages and every record page that shows
 * its documents: the upload (the `documents` Edge Function, with progress), a record's
 * documents, one document with its versions, delete and restore, the storage quota, and signed
 * Storage URLs to download or preview a version (signed by the `documents` Edge Function).
 */
import { FunctionsHttpError } from "@supabase/supabase-js";
import { accessToken } from "@/lib/auth-client.ts";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { assertRecordId, recordBaseSchema, recordKeys, recordPageSchema, useInvalidateRecords } from "@/components/records/record-api.ts";
import { assertBatchDid, batchAnswerSchema, batchOutcome } from "@/components/records/record-refusals.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { parseRpcResult, RpcError } from "@/lib/rpc.ts";
import { edgeFunctionEndpoint, supabase } from "@/lib/supabase.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import type { DocumentLinkModule } from "./document-links.ts";

const bytes = z.coerce.number();

/** A document as lists show it: the engine's record columns plus its file's. */
export const documentRowSchema = recordBaseSchema.extend({
  title: z.string(),
  file_name: z.string(),
  mime_type: z.string().nullable(),
  size_bytes: bytes,
  current_version: z.number(),
  customer_id: z.string().nullable().optional(),
  contact_id: z.string().nullable().optional(),
  deal_id: z.string().nullable().optional(),
  quote_id: z.string().nullable().optional(),
  contract_id: z.string().nullable().optional(),
  uploaded_by_name: z.string().nullable().optional(),
  uploaded_at: z.string().nullable().optional(),
});
export type DocumentRow = z.infer<typeof documentRowSchema>;

/** One stored version of a document's file. */
export const documentVersionSchema = z.looseObject({
  version: z.number(),
  file_name: z.string(),
  size_bytes: bytes,
  mime_type: z.string().nullable(),
  uploaded_by_name: z.string().nullable(),
  uploaded_at: z.string(),
  object_path: z.string(),
});
export type DocumentVersion = z.infer<typeof documentVersionSchema>;

const documentDetailsSchema = z.object({
  document: documentRowSchema,
  versions: z.array(documentVersionSchema),
});
export type DocumentDetails = z.infer<typeof documentDetailsSchema>;

const usageSchema = z.looseObject({ used_bytes: bytes, quota_bytes: bytes });
export type DocumentUsage = z.infer<typeof usageSchema>;

export const documentKeys = {
  all: (scope: OrganizationScope) => recordKeys.all(scope, "documents"),
  forRecord: (scope: OrganizationScope, module: DocumentLinkModule, recordId: string) =>
    [...documentKeys.all(scope), "for-record", module, recordId] as const,
  details: (scope: OrganizationScope, id: string) => recordKeys.record(scope, "documents", id),
  usage: (scope: OrganizationScope) => [...documentKeys.all(scope), "usage"] as const,
  preview: (scope: OrganizationScope, objectPath: string) => [...documentKeys.all(scope), "preview", objectPath] as const,
  deleted: (scope: OrganizationScope, filters: object) => [...documentKeys.all(scope), "deleted", filters] as const,
};

// ---------------------------------------------------------------------------------
// Upload (the documents Edge Function)
// ---------------------------------------------------------------------------------

export interface UploadDocumentInput {
  file: Blob;
  fileName: string;
  title?: string;
  /** With recordId: the record the new document is linked to. */
  module?: DocumentLinkModule;
  recordId?: string;
  /** A new version of this document instead of a new document. */
  documentId?: string;
  /** The share of the file sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Aborting it cancels the upload (the promise rejects with an AbortError). */
  signal?: AbortSignal;
}

const uploadAnswerSchema = z.object({ success: z.literal(true), document: documentRowSchema });

/** Whether an upload failed only because it was cancelled. */
export function isUploadCancelled(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * Sends a file to the `documents` Edge Function as multipart form data, with the session's
 * access token. XMLHttpRequest rather than fetch, for the upload's progress. The answer is
 * read like an RPC's: a refusal throws an RpcError with its code (file_too_large,
 * file_type_not_allowed, quota_exceeded, …); a lost connection an error the app's mapper
 * reads as such; a cancel an AbortError.
 */
export async function uploadDocument(input: UploadDocumentInput): Promise<{ document: DocumentRow }> {
  const { file, fileName, title, module, recordId, documentId, onProgress, signal } = input;
  signal?.throwIfAborted();
  const token = await accessToken();
  if (!token) throw new RpcError("Authentication required", "not_authenticated");

  const form = new FormData();
  form.append("file", file, fileName);
  if (title?.trim()) form.append("title", title.trim());
  if (module && recordId) {
    form.append("module", module);
    form.append("record_id", recordId);
  }
  if (documentId) form.append("document_id", documentId);

  const endpoint = edgeFunctionEndpoint("documents");
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = new XMLHttpRequest();
    const cancel = () => request.abort();
    request.open("POST", endpoint.url);
    request.setRequestHeader("Authorization", `Bearer ${token}`);
    request.setRequestHeader("apikey", endpoint.apiKey);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => resolve({ status: request.status, body: request.responseText });
    // The mapper (src/lib/errors.ts isLostConnection) reads this message as a lost connection.
    request.onerror = () => reject(new Error("NetworkError: the upload did not reach the server"));
    request.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    request.onloadend = () => signal?.removeEventListener("abort", cancel);
    signal?.addEventListener("abort", cancel, { once: true });
    request.send(form);
  });

  if (answer.status === 401) endpoint.unauthorized();
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    // A proxy in front of the function may refuse a large body before the function sees it.
    if (answer.status === 413) throw new RpcError("File too large", "file_too_large");
    throw new Error(`The upload was answered with HTTP ${answer.status}`);
  }
  const { document } = parseRpcResult(uploadAnswerSchema, body);
  return { document };
}

/** Uploads (uploadDocument); afterwards (also after a refusal: another version may have come first) every documents list, page and the quota are read again. */
export function useUploadDocument() {
  const invalidate = useInvalidateRecords("documents");
  return useMutation({ mutationFn: uploadDocument, onSettled: invalidate });
}

// ---------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------

export function recordDocumentsQueryOptions(scope: OrganizationScope, module: DocumentLinkModule, recordId: string) {
  return queryOptions({
    queryKey: documentKeys.forRecord(scope, module, recordId),
    queryFn: async () => {
      // An address like /customers/1 names no record: nothing to ask the server.
      assertRecordId(recordId);
      return (
        await rpc(
          "list_record_documents",
          { p_module: module, p_record_id: recordId },
          z.object({ documents: z.array(documentRowSchema) }),
        )
      ).documents;
    },
    retry: (count, error) => !(error instanceof RpcError) && count < 2,
  });
}

/** The documents linked to one record (not deleted), newest first. */
export function useRecordDocuments(module: DocumentLinkModule, recordId: string, enabled = true) {
  return useQuery({ ...recordDocumentsQueryOptions(useOrganizationScope(), module, recordId), enabled });
}

export function documentDetailsQueryOptions(scope: OrganizationScope, id: string) {
  return queryOptions({
    queryKey: documentKeys.details(scope, id),
    queryFn: () => {
      assertRecordId(id);
      return rpc("get_document_details", { p_id: id }, documentDetailsSchema);
    },
    retry: (count, error) => !(error instanceof RpcError) && count < 2,
  });
}

/** One document with its versions, newest first; another organization's is not_found. */
export function useDocumentDetails(id: string, enabled = true) {
  return useQuery({ ...documentDetailsQueryOptions(useOrganizationScope(), id), enabled });
}

/** How much of the organization's storage quota its documents use. */
export function useDocumentUsage(enabled = true) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: documentKeys.usage(scope),
    queryFn: () => rpc("get_document_usage", {}, usageSchema),
    enabled,
  });
}

/** A deleted document as the trash lists it: its row and when it was deleted. */
export const deletedDocumentRowSchema = documentRowSchema.extend({ file_name: z.string().nullable(), deleted_at: z.string() });
export type DeletedDocumentRow = z.infer<typeof deletedDocumentRowSchema>;

/** How many deleted documents one look at the trash shows (newest change first). */
export const DELETED_PAGE_SIZE = 50;

/**
 * The deleted documents the member may restore (the engine's trash: documents delete
 * permission, own or all), optionally only those of a record or of a module's records
 * (documentLinkFilter); newest change first, at most DELETED_PAGE_SIZE.
 */
export function useDeletedDocuments(filters: Record<string, string | { is_null: false }>, enabled = true) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: documentKeys.deleted(scope, filters),
    queryFn: () =>
      rpc(
        "list_documents",
        {
          p_filters: { ...filters, deleted_at: { is_null: false } },
          p_sort: "updated_at",
          p_descending: true,
          p_limit: DELETED_PAGE_SIZE,
        },
        recordPageSchema(deletedDocumentRowSchema),
      ),
    enabled,
  });
}

/** Restores soft-deleted documents (restore_documents): the undo of a delete; restoring none throws the refusal. */
export function useRestoreDocuments() {
  const invalidate = useInvalidateRecords("documents");
  return useMutation({
    mutationFn: async (ids: string[]) => batchOutcome(assertBatchDid(await rpc("restore_documents", { p_ids: ids }, batchAnswerSchema))),
    onSettled: invalidate,
  });
}

// ---------------------------------------------------------------------------------
// Download and preview: short-lived signed Storage URLs
// ---------------------------------------------------------------------------------

/** How long a signed URL works: enough to start the download or load the preview, no more (the most the documents function signs for). */
export const SIGNED_URL_SECONDS = 60;

const signedAnswerSchema = z.object({ success: z.literal(true), signed_url: z.string() });

/**
 * A signed URL of a version's object, made by the `documents` Edge Function (members cannot
 * sign documents themselves): the database checks, as the caller, that they may read it now
 * and records the signing. With a file name, the answer is a download under that name. A
 * refusal (not_found: deleted, another organization's, no permission) throws an RpcError.
 */
export async function signedDocumentUrl(objectPath: string, downloadAs?: string): Promise<string> {
  const { data, error } = await supabase.functions.invoke("documents", {
    body: { action: "sign", object_path: objectPath, expires_in: SIGNED_URL_SECONDS, ...(downloadAs ? { download: downloadAs } : {}) },
  });
  if (error) {
    if (error instanceof FunctionsHttpError) {
      let refusal: unknown;
      try {
        refusal = await (error.context as Response).clone().json();
      } catch {
        throw error;
      }
      parseRpcResult(z.unknown(), refusal); // throws the RpcError of a {success: false, error, code} answer
    }
    throw error;
  }
  // The function names the object under its own idea of the project URL; the browser fetches
  // it from the address it reaches the project at (as supabase-js's own signing did).
  const signed = new URL(parseRpcResult(signedAnswerSchema, data).signed_url);
  return new URL(`${signed.pathname}${signed.search}`, edgeFunctionEndpoint("documents").url).toString();
}

/** Downloads a version under its file name (the browser's own download, from a signed URL). */
export async function downloadDocumentVersion(version: Pick<DocumentVersion, "object_path" | "file_name">): Promise<void> {
  const url = await signedDocumentUrl(version.object_path, version.file_name);
  const link = document.createElement("a");
  link.href = url;
  link.download = version.file_name;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * A signed URL to show a version in the page (no download disposition). The frame loads it at
 * once; it is kept while the preview is open and signed anew each time the preview opens.
 */
export function usePreviewUrl(objectPath: string | null) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: documentKeys.preview(scope, objectPath ?? ""),
    queryFn: () => signedDocumentUrl(objectPath ?? ""),
    enabled: objectPath !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
}
