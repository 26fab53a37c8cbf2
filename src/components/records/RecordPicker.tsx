import { Select } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import type { ModuleKey } from "@/modules/registry.ts";
import type { Json } from "@/types/database.types.ts";
import { recordBaseSchema, useRecord, useRecordList } from "./record-api.ts";
import { pickerData, type PickerChoice } from "./record-links.ts";

interface Props {
  module: ModuleKey;
  /** The module's entity (get_<entity>), to name the chosen record while others are searched. */
  entity: string;
  /** The list column the choices are sorted by (and, unless labelOf says otherwise, named by). */
  titleColumn: string;
  /** Further list columns a record's name is made of (e.g. first_name beside last_name). */
  labelColumns?: readonly string[];
  labelOf?(row: Record<string, string | null>): string;
  /** What tells records of the same name apart, beside it (e.g. a contact's company: row.customer_name). */
  describe?(row: Record<string, unknown>): string | null;
  /** The records offered first, by a list filter (e.g. {"customer_id": <the chosen customer>}: their contacts). */
  preferFilters?: Record<string, Json> | null;
  /** The heading of the preferred records ("Seçili müşterinin kişileri"). */
  preferredLabel?: string;
  label: string;
  placeholder?: string;
  nothingFound: string;
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
  required?: boolean;
  /** Shown but not changed (a new contact's customer on the customer's page). */
  readOnly?: boolean;
  /** A narrower field (a list filter). */
  w?: Record<string, string | number> | number;
}

/**
 * A record of another module, searched (Turkish-folded, server side) among those the role
 * may see, by name; with preferFilters, those records first under their own heading.
 */
export function RecordPicker({
  module, entity, titleColumn, labelColumns = [], labelOf, describe, preferFilters, preferredLabel, label, placeholder, nothingFound, value, onChange, error,
  required, readOnly, w,
}: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [settled] = useDebouncedValue(search, 300);
  const optionSchema = recordBaseSchema.extend(
    Object.fromEntries([titleColumn, ...labelColumns].map((column) => [column, z.string().nullable()])),
  );
  const args = {
    ...(settled.trim() === "" ? {} : { p_search: settled.trim() }),
    p_sort: titleColumn,
    p_descending: false,
    p_limit: 20,
    p_offset: 0,
  };
  const found = useRecordList(module, optionSchema, { ...args, p_filters: {} });
  // The preferred records: asked for only when there is a preference (an empty filter reads the same page again).
  const preferred = useRecordList(module, optionSchema, { ...args, p_filters: preferFilters ?? {} }, Boolean(preferFilters));
  const titleOf = (row: Record<string, unknown>) => {
    const columns = row as Record<string, string | null>;
    return labelOf ? labelOf(columns) : (columns[titleColumn] ?? "—");
  };
  const choiceOf = (row: Record<string, unknown>): PickerChoice => ({
    value: String(row.id),
    label: titleOf(row),
    description: describe ? describe(row) : null,
  });
  const others = (found.data?.records ?? []).map(choiceOf);
  const first = preferFilters ? (preferred.data?.records ?? []).map(choiceOf) : null;
  // The chosen record stays a choice while others are searched.
  const chosen = useRecord(module, entity, value ?? "", optionSchema);
  if (value && chosen.data && ![...(first ?? []), ...others].some((choice) => choice.value === value)) {
    others.unshift(choiceOf(chosen.data));
  }
  return (
    <Select
      label={label}
      placeholder={placeholder}
      searchable={!readOnly}
      clearable={!readOnly}
      readOnly={readOnly}
      data={pickerData(first, others, { preferred: preferredLabel ?? t("records.picker.preferred"), others: t("records.picker.others") })}
      value={value}
      onChange={onChange}
      onSearchChange={setSearch}
      nothingFoundMessage={nothingFound}
      filter={({ options: all }) => all}
      error={error}
      required={required}
      w={w}
    />
  );
}
