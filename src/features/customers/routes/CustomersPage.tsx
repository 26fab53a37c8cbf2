import { Badge, Button } from "@mantine/core";
import { IconBuilding, IconPlus } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import type { RecordListConfig } from "@/components/records/record-config.ts";
import { RecordListPage } from "@/components/records/RecordListPage.tsx";
import { useMyPermissions } from "@/modules/permissions.ts";
import { customerRowSchema, type CustomerRow } from "../api/customers.ts";
import { CustomerFormModal } from "../components/CustomerFormModal.tsx";
import { useCustomerMerge } from "../components/useCustomerMerge.ts";
import { customerKinds, customerStatuses } from "../utils/customer-fields.ts";
import { formatPhone } from "@/lib/phone.ts";

const statusColors = { lead: "blue", active: "green", passive: "gray" } as const;

/** The customers module: the customers the role may see, on the record kit. */
export function CustomersPage() {
  const { t } = useTranslation();
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.customers ?? {};
  // ?new=1 opens the form (the header search's "new customer" command leads here).
  const [params, setParams] = useSearchParams();
  const creating = params.get("new") === "1";
  const setCreating = (open: boolean) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (open) next.set("new", "1");
      else next.delete("new");
      return next;
    }, { replace: true });
  const merge = useCustomerMerge();

  const kindOptions = customerKinds.map((value) => ({ value, label: t(`modules.customers.kinds.${value}`) }));
  const statusOptions = customerStatuses.map((value) => ({ value, label: t(`modules.customers.statuses.${value}`) }));
  const kindLabel = (row: CustomerRow) => t(`modules.customers.kinds.${row.kind}`);
  const statusLabel = (row: CustomerRow) => t(`modules.customers.statuses.${row.status}`);
  const config: RecordListConfig<CustomerRow> = {
    module: "customers",
    row: customerRowSchema,
    columns: [
      { key: "name", label: t("modules.customers.list.columns.name"), sort: "name" },
      { key: "kind", label: t("modules.customers.fields.kind"), render: kindLabel, exportValue: kindLabel },
      { key: "tax_number", label: t("modules.customers.fields.tax_number") },
      {
        key: "status",
        label: t("modules.customers.fields.status"),
        sort: "status",
        render: (row) => (
          <Badge variant="dot" color={statusColors[row.status]}>
            {statusLabel(row)}
          </Badge>
        ),
        exportValue: statusLabel,
      },
      { key: "city", label: t("modules.customers.fields.city"), sort: "city" },
      {
        key: "phone",
        label: t("modules.customers.fields.phone"),
        render: (row) => formatPhone(row.phone) ?? "—",
        exportValue: (row) => formatPhone(row.phone),
      },
      { key: "owner_name", label: t("modules.customers.list.columns.owner") },
      { key: "updated_at", label: t("modules.customers.list.columns.updatedAt"), sort: "updated_at" },
      { key: "email", label: t("modules.customers.fields.email"), hidden: true },
      { key: "sector", label: t("modules.customers.fields.sector"), hidden: true },
      { key: "district", label: t("modules.customers.fields.district"), hidden: true },
      { key: "tags", label: t("modules.customers.fields.tags"), hidden: true },
      { key: "created_at", label: t("modules.customers.list.columns.createdAt"), sort: "created_at", hidden: true },
    ],
    filters: [
      { key: "status", label: t("modules.customers.fields.status"), options: statusOptions },
      { key: "kind", label: t("modules.customers.fields.kind"), options: kindOptions },
    ],
    statusField: { key: "status", label: t("modules.customers.fields.status"), options: statusOptions },
    defaultSort: "name",
    defaultDescending: false,
    title: t("modules.customers.title"),
    description: t("modules.customers.description"),
    searchPlaceholder: t("modules.customers.list.searchPlaceholder"),
    emptyTitle: t("modules.customers.emptyTitle"),
    emptyDescription: t("modules.customers.emptyDescription"),
    loadError: t("modules.customers.list.loadError"),
    listLabel: t("modules.customers.list.label"),
    totalText: (count, capped) => t(capped ? "modules.customers.list.totalCapped" : "modules.customers.list.total", { count }),
    noMatch: t("modules.customers.list.noMatch"),
    icon: <IconBuilding size={28} aria-hidden />,
    titleOf: (row) => row.name,
    detailPath: (row) => `/customers/${row.id}`,
    actions: allowed.create !== undefined && (
      <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
        {t("modules.customers.newCustomer")}
      </Button>
    ),
    merge,
  };

  return (
    <>
      <RecordListPage config={config} />
      {creating && allowed.create !== undefined && <CustomerFormModal opened onClose={() => setCreating(false)} />}
    </>
  );
}
