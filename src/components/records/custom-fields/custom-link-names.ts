/**
 * The name of the record a link custom field points to. A list row carries a link field's
 * value only (the record's id), not the linked record's name as it does for the standard link
 * columns, so the name is read with the linked module's get_<entity> (cached per record, the
 * same entry its record page uses); a record the caller may not see, or that is gone, has no
 * name, and its id is never shown in its place.
 */
import { z } from "zod";
import { RpcError } from "@/lib/rpc.ts";
import { callRecordRpc, recordBaseSchema, useRecord } from "../record-api.ts";
import type { RecordPickerSource } from "../record-config.ts";

/** What a record's name is made of (its title column and the picker's further columns). */
function nameSchema(source: RecordPickerSource) {
  return recordBaseSchema.extend(
    Object.fromEntries([source.titleColumn, ...(source.labelColumns ?? [])].map((column) => [column, z.string().nullable().optional()])),
  );
}

/** A record's name as the module's picker names it. */
function nameOf(source: RecordPickerSource, record: Record<string, unknown>): string | null {
  const columns = record as Record<string, string | null>;
  const name = source.labelOf ? source.labelOf(columns) : columns[source.titleColumn];
  return name && name !== "—" ? name : null;
}

/** The linked record's name; null when the caller may not see it or it is not there. */
export async function linkedRecordName(source: RecordPickerSource, id: string): Promise<string | null> {
  try {
    const answer = await callRecordRpc(`get_${source.entity}`, { p_id: id }, z.object({ record: nameSchema(source) }));
    return nameOf(source, answer.record);
  } catch (error) {
    if (error instanceof RpcError && (error.code === "not_found" || error.code === "permission_denied")) return null;
    throw error;
  }
}

/**
 * The linked record's name in a component: undefined while it is read, null when there is none
 * to show; not read at all when not `enabled` (the caller has the name already).
 */
export function useLinkedRecordName(source: RecordPickerSource, id: string, enabled = true): string | null | undefined {
  const record = useRecord(source.module, source.entity, id, nameSchema(source), enabled && id !== "");
  if (record.isPending) return undefined;
  return record.data ? nameOf(source, record.data) : null;
}
