import { Anchor, Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { z } from "zod";
import { recordBaseSchema, useRecord } from "@/components/records/record-api.ts";
import { contractStatusColors } from "@/components/records/status-colors.ts";
import type { ContractStatus } from "../utils/contract-fields.ts";

const statusColors: Record<ContractStatus, string> = contractStatusColors;

/** A contract's status as a badge in its colour ("Aktif", "Yenilendi"...). */
export function ContractStatusBadge({ status }: { status: ContractStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={statusColors[status]}>
      {t(`modules.contracts.statuses.${status}`)}
    </Badge>
  );
}

const customerNameSchema = recordBaseSchema.extend({ name: z.string() });

/**
 * A customer's name as a link, read with get_customer (the list rows carry only the id;
 * each customer is read once and kept in the cache, whichever row or page names it).
 */
export function CustomerLink({ id }: { id: string | null }) {
  const customer = useRecord("customers", "customer", id ?? "", customerNameSchema, id !== null);
  if (!id || customer.isError) return "—";
  return (
    <Anchor component={Link} to={`/customers/${id}`}>
      {customer.data?.name ?? "…"}
    </Anchor>
  );
}
