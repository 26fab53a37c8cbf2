import { Badge, Button } from "@mantine/core";
import { IconBuilding, IconPlus } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { declaredColumn, declaredFilter, type RecordListSpec } from "@/components/records/record-config.ts";
import { RecordListPage } from "@/components/records/RecordListPage.tsx";
import { useMyPermissions } from "@/modules/permissions.ts";
import { customerRowSchema, type CustomerRow } from "../api/customers.ts";
import { CustomerFormModal } from "../components/CustomerFormModal.tsx";
import { useCustomerMerge } from "../components/useCustomerMerge.ts";
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

  const kindLabel = (row: CustomerRow) => t(`modules.customers.kinds.${row.kind}`);
  const statusLabel = (row: CustomerRow) => t(`modules.customers.statuses.${row.status}`);
  const config: RecordListSpec<CustomerRow> = {
    module: "customers",
    row: customerRowSchema,
    columns: [
      declaredColumn("name"),
      declaredColumn("kind", { render: kindLabel, exportValue: kindLabel }),
      declaredColumn("tax_number"),
      declaredColumn("status", {
        render: (row) => (
          <Badge variant="dot" color={statusColors[row.status]}>
            {statusLabel(row)}
          </Badge>
        ),
        exportValue: statusLabel,
      }),
      declaredColumn("city"),
      declaredColumn("phone", { render: (row) => formatPhone(row.phone) ?? "—", exportValue: (row) => formatPhone(row.phone) }),
      { key: "owner_name", label: t("modules.customers.list.columns.owner") },
      { key: "updated_at", label: t("modules.customers.list.columns.updatedAt"), sort: "updated_at" },
      declaredColumn("email", { hidden: true }),
      declaredColumn("sector", { hidden: true }),
      declaredColumn("district", { hidden: true }),
      declaredColumn("tags", { hidden: true }),
      { key: "created_at", label: t("modules.customers.list.columns.createdAt"), sort: "created_at", hidden: true },
    ],
    filters: [declaredFilter("status"), declaredFilter("kind")],
    statusField: declaredFilter("status"),
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
