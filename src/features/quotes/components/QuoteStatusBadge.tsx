import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { quoteStatusColors } from "@/components/records/status-colors.ts";
import type { QuoteStatus } from "../api/quotes.ts";

export const statusColors: Record<QuoteStatus, string> = quoteStatusColors;

/** A quote's status as a coloured badge (taslak, gönderildi, kabul edildi, reddedildi, süresi doldu). */
export function QuoteStatusBadge({ status }: { status: QuoteStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={statusColors[status]} miw="max-content">
      {t(`modules.quotes.status.${status}`)}
    </Badge>
  );
}
