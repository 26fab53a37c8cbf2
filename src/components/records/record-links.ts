/**
 * Links between records as the record engine answers them: each link column of a module
 * (customer_id, contact_id, deal_id, …) comes with the linked record's name under
 * `<column without _id>_name` (customer_name), null when nothing is linked or the caller
 * may not see that record. The pickers that choose a linked record, by module.
 */
import { createElement } from "react";
import type { ModuleKey } from "@/modules/registry.ts";
import { declaredColumn, type DeclaredColumn, type RecordPickerSource } from "./record-config.ts";
import { LinkedRecordName } from "./LinkedRecordName.tsx";

/** The key under which a record answer names the record a link column points to: customer_id → customer_name. */
export function linkNameKey(column: string): string {
  return `${column.replace(/_id$/, "")}_name`;
}

/** The record a row links to through a column: its id and name (null when the caller may not see it); null when none. */
export function linkedRecord(row: object, column: string): { id: string; name: string | null } | null {
  const values = row as Record<string, unknown>;
  const id = values[column];
  if (typeof id !== "string" || id === "") return null;
  const name = values[linkNameKey(column)];
  return { id, name: typeof name === "string" && name !== "" ? name : null };
}

/** A contact's whole name from a list row (first and last name). */
export function personName(row: { first_name?: string | null; last_name?: string | null }): string {
  return [row.first_name, row.last_name].filter(Boolean).join(" ") || "—";
}

/** The pickers of the modules records link to. */
export const recordPickerSources = {
  customers: { module: "customers", entity: "customer", titleColumn: "name" },
  contacts: { module: "contacts", entity: "contact", titleColumn: "last_name", labelColumns: ["first_name"], labelOf: personName },
  deals: { module: "deals", entity: "deal", titleColumn: "title" },
  quotes: { module: "quotes", entity: "quote", titleColumn: "quote_number" },
  contracts: { module: "contracts", entity: "contract", titleColumn: "title" },
} as const satisfies Partial<Record<ModuleKey, RecordPickerSource>>;

export type { RecordPickerSource };
export type PickableModule = keyof typeof recordPickerSources;

/**
 * A list column of a declared link (e.g. a deal's customer): its label and sort from its
 * declaration (the engine sorts a link column by the linked record's name), the linked
 * record's name as a link to its page, and the name in an export (never the id).
 */
export function linkColumn<Row>(options: { key: string; module: ModuleKey; hidden?: boolean }): DeclaredColumn<Row> {
  const { key, module, hidden } = options;
  return declaredColumn<Row>(key, {
    ...(hidden ? { hidden } : {}),
    render: (row) => createElement(LinkedRecordName, { module, linked: linkedRecord(row as object, key) }),
    exportValue: (row) => linkedRecord(row as object, key)?.name ?? null,
  });
}

/** A picker choice: a record's id and name, and what tells it apart (a contact's company). */
export interface PickerChoice {
  value: string;
  label: string;
  description?: string | null;
}

export type PickerData = { value: string; label: string }[] | { group: string; items: { value: string; label: string }[] }[];

/**
 * The choices of a picker that prefers some records (the chosen customer's contacts): those
 * first under their own heading, then the others not already among them; each named with
 * what tells it apart ("Deniz Işık · Çelik Yapı"). Without preferred records, one flat list.
 */
export function pickerData(
  preferred: readonly PickerChoice[] | null,
  others: readonly PickerChoice[],
  headings: { preferred: string; others: string },
): PickerData {
  const named = (choice: PickerChoice) => ({
    value: choice.value,
    label: choice.description ? `${choice.label} · ${choice.description}` : choice.label,
  });
  if (preferred === null) return others.map(named);
  const first = new Set(preferred.map((choice) => choice.value));
  const rest = others.filter((choice) => !first.has(choice.value));
  return [
    ...(preferred.length > 0 ? [{ group: headings.preferred, items: preferred.map(named) }] : []),
    ...(rest.length > 0 ? [{ group: headings.others, items: rest.map(named) }] : []),
  ];
}
