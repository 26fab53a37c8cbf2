/**
 * The record engine's RPCs as every sales module's screens use them: list, read, bulk edit,
 * delete, saved views, timeline and notes, and the organization's members for owner
 * changes. The module's façade names follow the registry (`list_<module>`,
 * `get_<entity>`, ...), so nothing here names a module.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { rpc, type RpcName } from "@/lib/call-rpc.ts";
import { RpcError } from "@/lib/rpc.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import type { Json } from "@/types/database.types.ts";
import { exportPageSchema, type ExportPage, type ExportRecordsArgs } from "./record-export.ts";
import { assertBatchDid, batchAnswerSchema, batchOutcome } from "./record-refusals.ts";

/** What every module's list row and record carry besides the module's own columns. */
export const recordBaseSchema = z.looseObject({
  id: z.string(),
  owner_id: z.string(),
  owner_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RecordBase = z.infer<typeof recordBaseSchema>;

/** Calls one of a module's façade functions; their names are built from the registry's key. */
export function callRecordRpc<Schema extends z.ZodType>(name: string, args: object, schema: Schema): Promise<z.output<Schema>> {
  return rpc(name as RpcName, args as never, schema);
}

export const recordKeys = {
  all: (scope: OrganizationScope, module: ModuleKey) => queryKeys.organization(scope, `records:${module}`),
  list: (scope: OrganizationScope, module: ModuleKey, args: object) => [...recordKeys.all(scope, module), "list", args] as const,
  record: (scope: OrganizationScope, module: ModuleKey, id: string) => [...recordKeys.all(scope, module), "record", id] as const,
  timeline: (scope: OrganizationScope, module: ModuleKey, id: string) =>
    [...recordKeys.all(scope, module), "timeline", id] as const,
  views: (scope: OrganizationScope, module: ModuleKey) => [...recordKeys.all(scope, module), "views"] as const,
  members: (scope: OrganizationScope) => queryKeys.organization(scope, "record-owners"),
};

export interface RecordListArgs {
  p_search?: string;
  p_filters: Json;
  p_sort: string;
  p_descending: boolean;
  p_limit: number;
  p_offset: number;
}

export function recordPageSchema<Row extends z.ZodType>(row: Row) {
  return z.object({
    success: z.literal(true),
    scope: z.enum(["all", "own"]),
    total: z.number().int().nonnegative(),
    /** False beyond 10,000 matches: the total then reads "10,000+". */
    total_exact: z.boolean(),
    /** The order the page came in: a broad search comes newest first whatever was asked. */
    sorted_by: z.string(),
    records: z.array(row),
  });
}

/** Reads the permissions again (after a refusal: a role changed meanwhile). */
export function useRefreshPermissionsOnDenial() {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: queryKeys.modulePermissions(scope.sessionUserId) });
}

/** How one page of a module's records is read (`list_<module>`) and kept; onDenied runs on a refusal. */
export function recordListQueryOptions<Row extends z.ZodType>(
  scope: OrganizationScope,
  module: ModuleKey,
  row: Row,
  args: RecordListArgs,
  onDenied: () => void,
) {
  return queryOptions({
    queryKey: recordKeys.list(scope, module, args),
    queryFn: async () => {
      try {
        return await callRecordRpc(`list_${module}`, args, recordPageSchema(row));
      } catch (error) {
        if (error instanceof RpcError && error.code === "permission_denied") onDenied();
        throw error;
      }
    },
  });
}

/** One page of a module's records; a refusal makes the permissions be read again. */
export function useRecordList<Row extends z.ZodType>(module: ModuleKey, row: Row, args: RecordListArgs, enabled = true) {
  const scope = useOrganizationScope();
  const onDenied = useRefreshPermissionsOnDenial();
  return useQuery({ ...recordListQueryOptions(scope, module, row, args, onDenied), placeholderData: keepPreviousData, enabled });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An address that names no record id at all is a record that is not there (thrown as not_found). */
export function assertRecordId(id: string): void {
  if (!UUID.test(id)) throw new RpcError("Record not found", "not_found");
}

/** How one record is read (`get_<entity>`) and kept; a record the caller may not see answers not_found. */
export function recordQueryOptions<Row extends z.ZodType>(scope: OrganizationScope, module: ModuleKey, entity: string, id: string, row: Row) {
  return queryOptions({
    queryKey: recordKeys.record(scope, module, id),
    queryFn: async (): Promise<z.output<Row>> => {
      assertRecordId(id);
      const answer = (await callRecordRpc(`get_${entity}`, { p_id: id }, z.object({ record: row }))) as { record: z.output<Row> };
      return answer.record;
    },
    retry: (count, error) => !(error instanceof RpcError) && count < 2,
  });
}

/** One record (`get_<entity>`); a record the caller may not see answers not_found. */
export function useRecord<Row extends z.ZodType>(module: ModuleKey, entity: string, id: string, row: Row, enabled = id !== "") {
  const scope = useOrganizationScope();
  return useQuery({ ...recordQueryOptions(scope, module, entity, id, row), enabled });
}

/** Several whole records at once, each read with the module's read RPC (e.g. the two of a merge). */
export function useRecords<R>(module: ModuleKey, read: string, ids: readonly string[], row: z.ZodType<R>) {
  const scope = useOrganizationScope();
  const answer = z.object({ record: row });
  return useQuery({
    queryKey: [...recordKeys.all(scope, module), "several", read, ids] as const,
    queryFn: () => Promise.all(ids.map(async (id): Promise<R> => (await callRecordRpc(read, { p_id: id }, answer)).record as R)),
    enabled: ids.length > 0,
  });
}

/**
 * Likely duplicates (record-duplicates.ts): a module's find RPC (`find_<entity>_duplicates`)
 * with the values about to be saved, and a record to leave out when editing.
 */
export async function findDuplicates<Duplicate extends z.ZodType>(
  name: string,
  values: Record<string, unknown>,
  duplicate: Duplicate,
  exclude?: string,
): Promise<z.output<Duplicate>[]> {
  const answer = await callRecordRpc(name, { p_values: values, p_exclude: exclude }, z.object({ duplicates: z.array(duplicate) }));
  return answer.duplicates as z.output<Duplicate>[];
}

/** Drops every cached list, record and timeline of the module after a write. */
export function useInvalidateRecords(module: ModuleKey) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: recordKeys.all(scope, module) });
}

/** What a record form saves over: the record as read (its id, and its version for the optimistic check). */
export interface SavedVersion {
  id: string;
  updated_at: string;
}

/**
 * Creates a record (`create_<entity>(p_values)`) or, given the version it was read at,
 * changes it (`update_<entity>(p_id, p_values, p_updated_at)`: refused as stale_record when
 * someone else changed it since); answers the saved record read with the module's schema.
 */
export async function saveRecord<Row extends z.ZodType>(
  entity: string,
  row: Row,
  values: object,
  base?: SavedVersion,
): Promise<z.output<Row>> {
  const answer = z.object({ record: row });
  const saved = base
    ? await callRecordRpc(`update_${entity}`, { p_id: base.id, p_values: values, p_updated_at: base.updated_at }, answer)
    : await callRecordRpc(`create_${entity}`, { p_values: values }, answer);
  return (saved as { record: z.output<Row> }).record;
}

/**
 * Every record form's save (saveRecord, or the module's own save: a quote's save_quote with its
 * lines); the module's lists, records and timelines are read again after it.
 */
export function useSaveRecord<Row extends z.ZodType>(
  module: ModuleKey,
  entity: string,
  row: Row,
  save?: (values: object, base: z.output<Row> | undefined) => Promise<z.output<Row>>,
) {
  const invalidate = useInvalidateRecords(module);
  return useMutation({
    mutationFn: ({ values, base }: { values: object; base?: SavedVersion }) =>
      save ? save(values, base as z.output<Row> | undefined) : saveRecord(entity, row, values, base),
    onSuccess: invalidate,
  });
}

/**
 * The same change for many records (`bulk_update_<module>`): what was updated and, by reason,
 * what was refused (record-refusals.ts). When none was updated the call throws the refusal
 * (refusedBatchOutcome reads it back).
 */
export function useBulkUpdate(module: ModuleKey) {
  const invalidate = useInvalidateRecords(module);
  return useMutation({
    mutationFn: async ({ ids, values }: { ids: string[]; values: Record<string, unknown> }) =>
      batchOutcome(assertBatchDid(await callRecordRpc(`bulk_update_${module}`, { p_ids: ids, p_values: values }, batchAnswerSchema))),
    onSettled: invalidate,
  });
}

/**
 * Soft-deletes records (`delete_<module>`): what was deleted and what was refused. A delete
 * that deleted nothing throws (not_record_owner: another member's record; not_found), so a
 * single record's page never says "deleted" for a record that is still there.
 */
export function useDeleteRecords(module: ModuleKey) {
  const invalidate = useInvalidateRecords(module);
  return useMutation({
    mutationFn: async (ids: string[]) =>
      batchOutcome(assertBatchDid(await callRecordRpc(`delete_${module}`, { p_ids: ids }, batchAnswerSchema))),
    onSettled: invalidate,
  });
}

/**
 * Merges the other record into the survivor with the module's merge RPC (`merge_<module>`):
 * the survivor takes the values given; what pointed at the other now points at it.
 */
export function useMergeRecords<R>(module: ModuleKey, merge: string, row: z.ZodType<R>) {
  const invalidate = useInvalidateRecords(module);
  const answer = z.object({ record: row });
  return useMutation({
    mutationFn: async ({ survivor, other, values }: { survivor: string; other: string; values: Record<string, unknown> }): Promise<R> =>
      (await callRecordRpc(merge, { p_survivor: survivor, p_other: other, p_values: values }, answer)).record as R,
    onSuccess: invalidate,
  });
}

// ---------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------

/** One page of a module's export (export_records: whole rows with owner_name, in the list's order), rows checked as the list's. */
export function fetchExportPage<Row extends RecordBase>(row: z.ZodType<Row>) {
  return async (args: ExportRecordsArgs): Promise<ExportPage<Row>> => rpc("export_records", args, exportPageSchema(row));
}

// ---------------------------------------------------------------------------------
// Saved views
// ---------------------------------------------------------------------------------

export const viewDefinitionSchema = z.object({
  search: z.string().optional(),
  filters: z.record(z.string(), z.string()).optional(),
  sort: z.string().optional(),
  descending: z.boolean().optional(),
  columns: z.array(z.string()).optional(),
});
export type ViewDefinition = z.infer<typeof viewDefinitionSchema>;

const savedViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  is_shared: z.boolean(),
  is_mine: z.boolean().optional(),
  definition: viewDefinitionSchema.catch({}),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export function useSavedViews(module: ModuleKey) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: recordKeys.views(scope, module),
    queryFn: async () =>
      (await callRecordRpc("list_saved_views", { p_module: module }, z.object({ views: z.array(savedViewSchema) }))).views,
  });
}

export function useSaveView(module: ModuleKey) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, shared, definition }: { name: string; shared: boolean; definition: ViewDefinition }) =>
      callRecordRpc(
        "save_saved_view",
        { p_id: null, p_module: module, p_name: name, p_definition: definition, p_is_shared: shared },
        z.object({ view: z.looseObject({ id: z.string() }) }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordKeys.views(scope, module) }),
  });
}

export function useDeleteView(module: ModuleKey) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callRecordRpc("delete_saved_view", { p_module: module, p_id: id }, z.looseObject({})),
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordKeys.views(scope, module) }),
  });
}

// ---------------------------------------------------------------------------------
// Timeline and notes
// ---------------------------------------------------------------------------------

const entryBase = {
  by: z.string().nullable().optional(),
  by_name: z.string().nullable().optional(),
  /** The account that did it is gone. */
  by_deleted: z.boolean().nullable().optional(),
  at: z.string(),
};
export const timelineEntrySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("note"), id: z.string(), body: z.string(), ...entryBase }),
  z.object({
    kind: z.literal("change"),
    field: z.string(),
    old: z.unknown(),
    new: z.unknown(),
    /** An id's value in words (the linked record's title, the person's name), when it is one. */
    old_label: z.string().nullable().optional(),
    new_label: z.string().nullable().optional(),
    ...entryBase,
  }),
  z.object({ kind: z.literal("event"), action: z.string(), ...entryBase }),
  /** An e-mail sent from the record (or, on a customer, from its quotes and contracts). */
  z.object({
    kind: z.literal("mail"),
    id: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()).catch([]),
    subject: z.string(),
    body: z.string().nullable(),
    /** The attached document's title, when the reader may see it. */
    document_title: z.string().nullable(),
    status: z.enum(["sending", "sent", "failed"]),
    error_code: z.string().nullable(),
    ...entryBase,
  }),
]);
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export function useTimeline(module: ModuleKey, id: string) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: recordKeys.timeline(scope, module, id),
    queryFn: async () =>
      (
        await callRecordRpc(
          "get_record_timeline",
          { p_module: module, p_id: id },
          z.object({ entries: z.array(timelineEntrySchema) }),
        )
      ).entries,
  });
}

export function useAddNote(module: ModuleKey, id: string) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => callRecordRpc("add_record_note", { p_module: module, p_id: id, p_body: body }, z.looseObject({})),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordKeys.timeline(scope, module, id) }),
  });
}

// ---------------------------------------------------------------------------------
// The organization's members (owners)
// ---------------------------------------------------------------------------------

const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  role: z.string(),
});
export type OrganizationMember = z.infer<typeof memberSchema>;

/** The active members of the organization a record may be given to (every member may read them). */
export function useOrganizationMembers(enabled = true) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: recordKeys.members(scope),
    queryFn: async () => (await rpc("list_organization_members", {}, z.object({ members: z.array(memberSchema) }))).members,
    enabled,
    staleTime: 60_000,
  });
}

export function memberName(member: OrganizationMember): string {
  return [member.first_name, member.last_name].filter(Boolean).join(" ").trim() || member.email;
}
