/**
 * The import RPCs (contract issue 14): start_import, check_import_rows (the preview, writes
 * nothing), run_import_batch (idempotent per batch number), finish_import, get_import,
 * list_imports, revert_import, and the saved mappings (list/save/delete_import_mapping).
 * The wizard calls the batch functions directly (it drives them batch by batch); the history
 * and the mappings are queries with their mutations.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { recordKeys } from "@/components/records/record-api.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import type { Json } from "@/types/database.types.ts";
import { importKind, importKinds, importModes, matchKeys, type ImportKind, type ImportMode, type MatchKey } from "../kinds.ts";
import type { BatchRow } from "../utils/batches.ts";
import type { Mapping } from "../utils/mapping.ts";

export const importStatuses = ["running", "completed", "cancelled", "reverted"] as const;
export type ImportStatus = (typeof importStatuses)[number];

export const rowStatuses = ["created", "updated", "unchanged", "skipped", "failed"] as const;
export type RowStatus = (typeof rowStatuses)[number];

const count = z.number().int().nonnegative();

export const importSchema = z.looseObject({
  id: z.string(),
  kind: z.enum(importKinds),
  file_name: z.string(),
  file_size: z.number(),
  mode: z.enum(importModes),
  match_key: z.enum(matchKeys).nullable(),
  status: z.enum(importStatuses),
  total_rows: count,
  created: count,
  updated: count,
  skipped: count,
  failed: count,
  created_by: z.string(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  reverted_at: z.string().nullable(),
});
export type ImportRecord = z.infer<typeof importSchema>;

const mappingSchema = z.record(z.string(), z.string());

export const importDetailSchema = importSchema.extend({
  /** sha256 hex of the file: a resume must pick the same file. */
  file_hash: z.string(),
  mapping: mappingSchema,
  /** The batch numbers the server has applied. */
  batches: z.array(z.number().int()),
});
export type ImportDetail = z.infer<typeof importDetailSchema>;

/** What happened (or, in a check, would happen) to one row; `row` echoes the number the browser sent. */
export const rowResultSchema = z.looseObject({
  row: z.number().int(),
  status: z.enum(rowStatuses),
  id: z.string().nullish(),
  reason: z.string().nullish(),
  /** Field problems: value key → code. */
  errors: z.record(z.string(), z.string()).nullish(),
});
export type RowResult = z.infer<typeof rowResultSchema>;

const checkAnswerSchema = z.object({ success: z.literal(true), results: z.array(rowResultSchema) });

export const batchAnswerSchema = z.object({
  success: z.literal(true),
  batch: z.number().int(),
  replayed: z.boolean(),
  created: count,
  updated: count,
  skipped: count,
  failed: count,
  results: z.array(rowResultSchema),
});
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;

const importAnswerSchema = z.object({ success: z.literal(true), import: importSchema });
const importDetailAnswerSchema = z.object({ success: z.literal(true), import: importDetailSchema });
const importListSchema = z.object({ success: z.literal(true), imports: z.array(importSchema) });
const revertAnswerSchema = z.object({ success: z.literal(true), deleted: count, restored: count });

export const savedMappingSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  mapping: mappingSchema,
  owner_id: z.string(),
  updated_at: z.string(),
});
export type SavedMapping = z.infer<typeof savedMappingSchema>;

const mappingListSchema = z.object({ success: z.literal(true), mappings: z.array(savedMappingSchema) });
const mappingAnswerSchema = z.object({ success: z.literal(true), mapping: savedMappingSchema });
const doneSchema = z.object({ success: z.literal(true) });

export const importKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "imports"),
  list: (scope: OrganizationScope, kind: ImportKind | null) => [...importKeys.all(scope), "list", kind ?? "all"] as const,
  mappings: (scope: OrganizationScope, kind: ImportKind) => [...importKeys.all(scope), "mappings", kind] as const,
};

// ---------------------------------------------------------------------------------
// Running an import
// ---------------------------------------------------------------------------------

export interface ImportSettings {
  kind: ImportKind;
  mode: ImportMode;
  /** Required for upsert and update; null for a create that matches nothing. */
  matchKey: MatchKey | null;
}

// The database takes null for "no match key"; the generated argument types cannot say that a text argument may be null.
const matchKeyArgument = (matchKey: MatchKey | null) => matchKey as string;

export interface StartImportArgs extends ImportSettings {
  fileName: string;
  fileSize: number;
  fileHash: string;
  totalRows: number;
  mapping: Mapping;
}

export async function startImport(args: StartImportArgs): Promise<ImportRecord> {
  const answer = await rpc(
    "start_import",
    {
      p_kind: args.kind,
      p_file_name: args.fileName,
      p_file_size: args.fileSize,
      p_file_hash: args.fileHash,
      p_mode: args.mode,
      p_match_key: matchKeyArgument(args.matchKey),
      p_total_rows: args.totalRows,
      p_mapping: args.mapping,
    },
    importAnswerSchema,
  );
  return answer.import;
}

/** What the rows would do: the run's rules, nothing written. */
export async function checkImportRows(settings: ImportSettings, rows: BatchRow[]): Promise<RowResult[]> {
  const answer = await rpc(
    "check_import_rows",
    { p_kind: settings.kind, p_mode: settings.mode, p_match_key: matchKeyArgument(settings.matchKey), p_rows: rows as unknown as Json },
    checkAnswerSchema,
  );
  return answer.results;
}

/** The server refused a batch that arrived before its predecessor: it goes again once that one is answered. */
export function isBatchOutOfOrder(error: unknown): boolean {
  return error instanceof RpcError && error.code === "batch_out_of_order";
}

/** One batch of a running import (it may be empty: every row of it failed the browser's checks). */
export function runImportBatch(importId: string, batch: number, rows: BatchRow[]): Promise<BatchAnswer> {
  return rpc("run_import_batch", { p_import_id: importId, p_batch: batch, p_rows: rows as unknown as Json }, batchAnswerSchema);
}

export async function finishImport(importId: string, cancelled: boolean): Promise<ImportRecord> {
  return (await rpc("finish_import", { p_import_id: importId, p_cancelled: cancelled }, importAnswerSchema)).import;
}

export async function getImport(importId: string): Promise<ImportDetail> {
  return (await rpc("get_import", { p_import_id: importId }, importDetailAnswerSchema)).import;
}

// ---------------------------------------------------------------------------------
// History
// ---------------------------------------------------------------------------------

/** How many imports the history shows (newest first). */
export const HISTORY_LIMIT = 50;

export function importListQueryOptions(scope: OrganizationScope, kind: ImportKind | null) {
  return queryOptions({
    queryKey: importKeys.list(scope, kind),
    queryFn: async () =>
      (await rpc("list_imports", { ...(kind ? { p_kind: kind } : {}), p_limit: HISTORY_LIMIT }, importListSchema)).imports,
  });
}

/** The imports the user may see (kinds they may import; their own ones with scope own), newest first. */
export function useImports(kind: ImportKind | null, enabled = true) {
  const scope = useOrganizationScope();
  return useQuery({ ...importListQueryOptions(scope, kind), enabled });
}

/** After an import of this kind wrote or was reverted: the history and the kind's module (lists, records) read again. */
export function useInvalidateImports() {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return (kind: ImportKind) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: importKeys.all(scope) }),
      queryClient.invalidateQueries({ queryKey: recordKeys.all(scope, importKind(kind).module) }),
    ]);
}

/** Ends a running import as cancelled without resuming it (what it wrote stays; the history can revert it). */
export function useAbandonImport() {
  const invalidate = useInvalidateImports();
  return useMutation({
    mutationFn: (target: Pick<ImportRecord, "id" | "kind">) => finishImport(target.id, true),
    onSettled: (_answer, _error, target) => invalidate(target.kind),
  });
}

export function useRevertImport() {
  const invalidate = useInvalidateImports();
  return useMutation({
    mutationFn: (target: Pick<ImportRecord, "id" | "kind">) => rpc("revert_import", { p_import_id: target.id }, revertAnswerSchema),
    onSettled: (_answer, _error, target) => invalidate(target.kind),
  });
}

// ---------------------------------------------------------------------------------
// Saved mappings
// ---------------------------------------------------------------------------------

export function useImportMappings(kind: ImportKind) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: importKeys.mappings(scope, kind),
    queryFn: async () => (await rpc("list_import_mappings", { p_kind: kind }, mappingListSchema)).mappings,
  });
}

function useInvalidateMappings(kind: ImportKind) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: importKeys.mappings(scope, kind) });
}

/** Saves the mapping under a name (the same name of the same kind is replaced). */
export function useSaveImportMapping(kind: ImportKind) {
  const invalidate = useInvalidateMappings(kind);
  return useMutation({
    mutationFn: async ({ name, mapping }: { name: string; mapping: Mapping }) =>
      (await rpc("save_import_mapping", { p_kind: kind, p_name: name, p_mapping: mapping }, mappingAnswerSchema)).mapping,
    onSettled: invalidate,
  });
}

export function useDeleteImportMapping(kind: ImportKind) {
  const invalidate = useInvalidateMappings(kind);
  return useMutation({
    mutationFn: (id: string) => rpc("delete_import_mapping", { p_id: id }, doneSchema),
    onSettled: invalidate,
  });
}
