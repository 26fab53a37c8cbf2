import { Group, Table, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown, IconChevronUp, IconSelector } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

interface Props<SortKey extends string> {
  column: SortKey;
  label: string;
  /** How the list is sorted now. */
  state: { sort: SortKey; descending: boolean };
  onSort(column: SortKey): void;
}

/** A column header that sorts the list: click to sort by it, again to flip the direction. */
export function SortableHeader<SortKey extends string>({ column, label, state, onSort }: Props<SortKey>) {
  const { t } = useTranslation();
  const active = state.sort === column;
  const Icon = active ? (state.descending ? IconChevronDown : IconChevronUp) : IconSelector;
  return (
    <Table.Th scope="col" aria-sort={active ? (state.descending ? "descending" : "ascending") : "none"}>
      <UnstyledButton onClick={() => onSort(column)} title={t("common.list.sortBy", { column: label })}>
        <Group gap={4} wrap="nowrap">
          <Text span fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
