import { Group, Table, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown, IconChevronUp, IconSelector } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

interface Props {
  label: string;
  /** Whether the list is sorted by this column, and which way. */
  active: boolean;
  descending: boolean;
  onSort(): void;
}

/** A column header that sorts the list: click to sort by it, again to flip the direction. */
export function SortableHeader({ label, active, descending, onSort }: Props) {
  const { t } = useTranslation();
  const Icon = active ? (descending ? IconChevronDown : IconChevronUp) : IconSelector;
  return (
    <Table.Th scope="col" aria-sort={active ? (descending ? "descending" : "ascending") : "none"}>
      <UnstyledButton onClick={onSort} title={t("common.list.sortBy", { column: label })}>
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
