import { Select } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { z } from "zod";
import type { ModuleKey } from "@/modules/registry.ts";
import { recordBaseSchema, useRecord, useRecordList } from "./record-api.ts";

interface Props {
  module: ModuleKey;
  /** The module's entity (get_<entity>), to name the chosen record while others are searched. */
  entity: string;
  /** The list column the choices are sorted by (and, unless labelOf says otherwise, named by). */
  titleColumn: string;
  /** Further list columns a record's name is made of (e.g. first_name beside last_name). */
  labelColumns?: readonly string[];
  labelOf?(row: Record<string, string | null>): string;
  label: string;
  placeholder?: string;
  nothingFound: string;
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
  required?: boolean;
}

/** A record of another module, searched (Turkish-folded, server side) among those the role may see. */
export function RecordPicker({ module, entity, titleColumn, labelColumns = [], labelOf, label, placeholder, nothingFound, value, onChange, error, required }: Props) {
  const [search, setSearch] = useState("");
  const [settled] = useDebouncedValue(search, 300);
  const optionSchema = recordBaseSchema.extend(
    Object.fromEntries([titleColumn, ...labelColumns].map((column) => [column, z.string().nullable()])),
  );
  const found = useRecordList(module, optionSchema, {
    ...(settled.trim() === "" ? {} : { p_search: settled.trim() }),
    p_filters: {},
    p_sort: titleColumn,
    p_descending: false,
    p_limit: 20,
    p_offset: 0,
  });
  const titleOf = (row: Record<string, unknown>) => {
    const columns = row as Record<string, string | null>;
    return labelOf ? labelOf(columns) : (columns[titleColumn] ?? "—");
  };
  const options = (found.data?.records ?? []).map((row) => ({ value: String(row.id), label: titleOf(row) }));
  // The chosen record stays an option while others are searched.
  const chosen = useRecord(module, entity, value ?? "", optionSchema);
  if (value && chosen.data && !options.some((option) => option.value === value)) {
    options.unshift({ value, label: titleOf(chosen.data) });
  }
  return (
    <Select
      label={label}
      placeholder={placeholder}
      searchable
      clearable
      data={options}
      value={value}
      onChange={onChange}
      onSearchChange={setSearch}
      nothingFoundMessage={nothingFound}
      filter={({ options: all }) => all}
      error={error}
      required={required}
    />
  );
}
