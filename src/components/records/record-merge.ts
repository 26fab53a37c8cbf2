/**
 * Merging two records of a module (`merge_<module>`, private.record_merge): what a module
 * tells the merge dialog, and the dialog's logic. The user picks the record that stays (the
 * survivor) and, per field that differs, whose value it keeps; the survivor keeps its own
 * value unless the other's is chosen.
 */
import type { ReactNode } from "react";
import type { z } from "zod";
import type { ModuleKey } from "@/modules/registry.ts";
import type { RecordBase } from "./record-api.ts";

/** One row of the merge dialog: a field whose value either record may give. */
export interface MergeField<R> {
  key: string;
  label: string;
  /**
   * The columns that go together when the other record's value is chosen (default: the
   * key alone). KVKK consent, say, travels with its channel, date and source.
   */
  columns?: readonly string[];
  /** How a record's value reads (default: its text, a list joined with commas, "empty"). */
  show?(record: R): ReactNode;
}

/** How one module merges; the dialog (MergeRecordsModal) does the rest. */
export interface RecordMergeConfig<R extends RecordBase> {
  module: ModuleKey;
  /** A whole record, as the read RPC answers it. */
  schema: z.ZodType<R>;
  /** The RPC that reads one record (e.g. "get_customer"); it is called for each of the two. */
  read: string;
  /** The RPC that merges (e.g. "merge_customers": p_survivor, p_other, p_values). */
  merge: string;
  fields: readonly MergeField<R>[];
  titleOf(record: R): string;
  texts: {
    /** The dialog's title (its accessible name). */
    title: string;
    description: string;
    loadError: string;
    failed: string;
    merged(name: string): string;
  };
}

/** The record at index 0 or 1 of the pair. */
export type Side = 0 | 1;
export type MergeChoices = Partial<Record<string, Side>>;

export function columnsOf<R>(field: MergeField<R>): readonly string[] {
  return field.columns ?? [field.key];
}

const valueOf = (record: RecordBase, column: string) => record[column] ?? null;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields whose values differ between the two records (any of their columns). */
export function differingFields<R extends RecordBase>(fields: readonly MergeField<R>[], pair: readonly [R, R]): MergeField<R>[] {
  return fields.filter((field) => columnsOf(field).some((column) => !same(valueOf(pair[0], column), valueOf(pair[1], column))));
}

/**
 * What the survivor is sent (p_values): the columns of every differing field whose value is
 * chosen from the other record; an empty list goes as null (none). Fields left alone keep
 * the survivor's value and are not sent.
 */
export function mergeValues<R extends RecordBase>(
  fields: readonly MergeField<R>[],
  pair: readonly [R, R],
  survivor: Side,
  choices: MergeChoices,
): Record<string, unknown> {
  const other: Side = survivor === 0 ? 1 : 0;
  const taken = differingFields(fields, pair).filter((field) => (choices[field.key] ?? survivor) === other);
  return Object.fromEntries(
    taken.flatMap((field) =>
      columnsOf(field).map((column) => {
        const value = valueOf(pair[other], column);
        return [column, Array.isArray(value) && value.length === 0 ? null : value];
      }),
    ),
  );
}

/** The label of the field a column belongs to (for a refusal about that column); the column itself when none. */
export function fieldLabelOf<R>(fields: readonly MergeField<R>[], column: string): string {
  return fields.find((field) => columnsOf(field).includes(column))?.label ?? column;
}

/** A plain value as text: a list joined with commas; null when empty (null, "", []). */
export function plainValue(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(String).join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}
