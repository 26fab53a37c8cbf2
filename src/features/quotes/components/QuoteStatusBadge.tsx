import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { QuoteStatus } from "../api/quotes.ts";

export const statusColors: Record<QuoteStatus, string> = {
  draft: "gray",
  sent: "blue",
  accepted: "green",
  rejected: "red",
  expired: "orange",
};

/** A quote's status as a coloured badge (taslak, gönderildi, kabul edildi, reddedildi, süresi doldu). */
export function QuoteStatusBadge({ status }: { status: QuoteStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={statusColors[status]} miw="max-content">
      {t(`modules.quotes.status.${status}`)}
    </Badge>
  );
}
