import { useTranslation } from "react-i18next";
import type { RecordMergeConfig } from "@/components/records/record-merge.ts";
import { customerSchema, type Customer } from "../api/customers.ts";
import { customerFields } from "../utils/customer-fields.ts";

/** How customers merge (merge_customers): every field the form writes may come from either customer. */
export function useCustomerMerge(): RecordMergeConfig<Customer> {
  const { t } = useTranslation();
  return {
    module: "customers",
    schema: customerSchema,
    read: "get_customer",
    merge: "merge_customers",
    fields: customerFields.map((key) => ({
      key,
      label: t(`modules.customers.fields.${key}`),
      show:
        key === "kind"
          ? (customer: Customer) => t(`modules.customers.kinds.${customer.kind}`)
          : key === "status"
            ? (customer: Customer) => t(`modules.customers.statuses.${customer.status}`)
            : undefined,
    })),
    titleOf: (customer) => customer.name,
    texts: {
      title: t("modules.customers.merge.title"),
      description: t("modules.customers.merge.description"),
      loadError: t("modules.customers.merge.loadError"),
      failed: t("modules.customers.merge.failed"),
      merged: (name) => t("modules.customers.merge.merged", { name }),
    },
  };
}
