import "@mantine/charts/styles.css";
import { BarChart } from "@mantine/charts";
import { Alert, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { formatMoney } from "@/lib/format.ts";
import { useDealForecast } from "../api/deals.ts";

/** "2026-11" as "Kas 2026" / "Nov 2026". */
export function monthLabel(month: string, language: string | undefined): string {
  const [year, number] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(language === "en" ? "en-GB" : "tr-TR", { month: "short", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, number - 1, 1)),
  );
}

/**
 * The weighted forecast: open deals' amount × probability by month of expected close, in
 * the organization's currency (converted with its exchange rates), as a chart and as a
 * table (the numbers for screen readers), per owner, and the currencies without a rate apart.
 */
export function DealForecastView() {
  const { t, i18n } = useTranslation();
  const forecast = useDealForecast(6);
  if (forecast.isPending) return <LoadingScreen compact />;
  if (forecast.isError) return <LoadError title={t("modules.deals.forecast.loadError")} onRetry={() => void forecast.refetch()} />;
  const { currency, total, owners } = forecast.data;
  const money = (amount: number, code = currency) => formatMoney(amount, code, i18n.resolvedLanguage);
  const data = total.months.map((month) => ({ month: monthLabel(month.month, i18n.resolvedLanguage), weighted: month.weighted, amount: month.amount }));

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2} size="h3">
          {t("modules.deals.forecast.title")}
        </Title>
        <Text c="dimmed" size="sm">
          {t("modules.deals.forecast.description", { currency })}
        </Text>
      </Stack>
      {total.count === 0 && total.unconverted.length === 0 ? (
        <Text c="dimmed">{t("modules.deals.forecast.empty")}</Text>
      ) : (
        <>
          <Paper withBorder p="md" role="img" aria-label={t("modules.deals.forecast.chartLabel")}>
            <BarChart
              h={260}
              data={data}
              dataKey="month"
              series={[
                { name: "weighted", label: t("modules.deals.forecast.weighted"), color: "blue.6" },
                { name: "amount", label: t("modules.deals.forecast.amount"), color: "gray.4" },
              ]}
              valueFormatter={(value) => money(value)}
              withLegend
              tickLine="y"
            />
          </Paper>
          <Table.ScrollContainer minWidth={480} type="native">
            <Table striped aria-label={t("modules.deals.forecast.title")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t("modules.deals.forecast.month")}</Table.Th>
                  <Table.Th scope="col">{t("modules.deals.forecast.count")}</Table.Th>
                  <Table.Th scope="col">{t("modules.deals.forecast.amount")}</Table.Th>
                  <Table.Th scope="col">{t("modules.deals.forecast.weighted")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {total.months.map((month) => (
                  <Table.Tr key={month.month}>
                    <Table.Th scope="row">{monthLabel(month.month, i18n.resolvedLanguage)}</Table.Th>
                    <Table.Td>{month.count}</Table.Td>
                    <Table.Td>{money(month.amount)}</Table.Td>
                    <Table.Td>{money(month.weighted)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th scope="row">{t("modules.deals.forecast.total")}</Table.Th>
                  <Table.Td>{total.count}</Table.Td>
                  <Table.Td>{money(total.amount)}</Table.Td>
                  <Table.Td fw={700}>{money(total.weighted)}</Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
          {owners.length > 0 && (
            <Table.ScrollContainer minWidth={480} type="native">
              <Table aria-label={t("modules.deals.forecast.byOwner")}>
                <Table.Caption>{t("modules.deals.forecast.byOwner")}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t("modules.deals.forecast.owner")}</Table.Th>
                    <Table.Th scope="col">{t("modules.deals.forecast.count")}</Table.Th>
                    <Table.Th scope="col">{t("modules.deals.forecast.amount")}</Table.Th>
                    <Table.Th scope="col">{t("modules.deals.forecast.weighted")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {owners.map((owner) => (
                    <Table.Tr key={owner.owner_id ?? "none"}>
                      <Table.Th scope="row">{owner.owner_name ?? "—"}</Table.Th>
                      <Table.Td>{owner.count}</Table.Td>
                      <Table.Td>{money(owner.amount)}</Table.Td>
                      <Table.Td>{money(owner.weighted)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {total.unconverted.length > 0 && (
            <Alert color="yellow" title={t("modules.deals.forecast.unconverted")}>
              <Stack gap={4}>
                {total.unconverted.map((entry) => (
                  <Text key={entry.currency} size="sm">
                    {t("modules.deals.forecast.noRate", { currency: entry.currency })} {entry.count} ·{" "}
                    {money(entry.amount, entry.currency)} · {t("modules.deals.forecast.weighted")}: {money(entry.weighted, entry.currency)}
                  </Text>
                ))}
              </Stack>
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}
