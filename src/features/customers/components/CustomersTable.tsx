import { Table } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { SortableHeader } from "@/components/SortableHeader.tsx";
import { formatDate } from "@/lib/format.ts";
import type { CustomerRow } from "../api/customers.ts";
import type { CustomerListState, CustomerSortKey } from "../utils/list-params.ts";

interface Props {
  customers: CustomerRow[];
  state: CustomerListState;
  onSort(column: CustomerSortKey): void;
}

export function CustomersTable({ customers, state, onSort }: Props) {
  const { t, i18n } = useTranslation();

  return (
    // Native scrolling, focusable, so that a keyboard can scroll it on a narrow screen.
    <Table.ScrollContainer minWidth={560} type="native" tabIndex={0}>
      <Table striped highlightOnHover aria-label={t("modules.customers.list.label")}>
        <Table.Thead>
          <Table.Tr>
            <SortableHeader column="name" label={t("modules.customers.list.columns.name")} state={state} onSort={onSort} />
            <Table.Th scope="col">{t("modules.customers.list.columns.owner")}</Table.Th>
            <SortableHeader
              column="created_at"
              label={t("modules.customers.list.columns.createdAt")}
              state={state}
              onSort={onSort}
            />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customers.map((customer) => (
            <Table.Tr key={customer.id}>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{customer.name}</Table.Td>
              <Table.Td>{customer.owner_name ?? "—"}</Table.Td>
              <Table.Td>{formatDate(customer.created_at, i18n.resolvedLanguage)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
