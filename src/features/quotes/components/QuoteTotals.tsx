import { Group, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { QuoteTotals as Totals } from "../api/quotes.ts";
import { formatAmount, formatRate } from "../utils/quote-format.ts";

interface Props {
  totals: Totals | undefined;
  currency: string;
  /** A newer computation is on its way (the figures shown are the previous ones). */
  updating?: boolean;
  /** Shows a "cannot compute" line instead of the figures' freshness. */
  failed?: boolean;
}

/**
 * The quote's footer as a Turkish invoice shows it: gross, discounts, the tax base, KDV per
 * rate with its base ("KDV %20 (matrah 1.000,00 ₺)"), KDV total, withholding, grand total and
 * the TRY equivalent. Every figure is the database's; nothing is added here.
 */
export function QuoteTotals({ totals, currency, updating = false, failed = false }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const money = (value: string | null | undefined, code = currency) => formatAmount(value, code, language);
  const row = (label: string, value: string, strong = false, key = label) => (
    <Group
      key={key}
      justify="space-between"
      wrap="nowrap"
      gap="md"
      component="div"
      // The grand total stands apart, as on an invoice (a rule inside a <dl> would break the list).
      style={strong ? { borderTop: "1px solid var(--mantine-color-default-border)", paddingTop: 6 } : undefined}
    >
      <Text component="dt" size="sm" fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" fw={strong ? 700 : undefined} ta="right" style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="quote-totals-title" aria-busy={updating}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="quote-totals-title">
          {t("modules.quotes.totals.title")}
        </Title>
        {updating && <Loader size="xs" aria-label={t("modules.quotes.editor.calculating")} />}
      </Group>
      {failed && (
        <Text size="sm" c="red" role="status">
          {t("modules.quotes.editor.previewFailed")}
        </Text>
      )}
      {totals && (
        <Stack gap={6} component="dl" m={0} data-testid="quote-totals">
          {row(t("modules.quotes.totals.gross_total"), money(totals.gross_total))}
          {row(t("modules.quotes.totals.line_discount_total"), money(totals.line_discount_total))}
          {row(t("modules.quotes.totals.document_discount_total"), money(totals.document_discount_total))}
          {row(t("modules.quotes.totals.net_total"), money(totals.net_total))}
          {totals.vat_breakdown.map((share) =>
            row(
              t("modules.quotes.totals.vatShare", { rate: formatRate(share.rate, language), base: money(share.base) }),
              money(share.vat),
              false,
              `vat-${share.rate}`,
            ),
          )}
          {row(t("modules.quotes.totals.vat_total"), money(totals.vat_total))}
          {row(t("modules.quotes.totals.withholding_total"), money(totals.withholding_total))}
          {row(t("modules.quotes.totals.grand_total"), money(totals.grand_total), true)}
          {currency !== "TRY" && row(t("modules.quotes.totals.grand_total_try"), money(totals.grand_total_try, "TRY"))}
        </Stack>
      )}
    </Paper>
  );
}
