import "@mantine/charts/styles.css";
import { BarChart } from "@mantine/charts";
import { Box } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatMoney } from "@/lib/format.ts";
import type { ForecastRow, PipelineRow } from "../utils/dashboard.ts";

// Loaded on demand (React.lazy in Dashboard.tsx): the chart library never comes with the
// first screen. Each chart is one image to assistive technology, named by its label; its
// numbers are in the table beside it (recharts' own keyboard layer is off: nothing to
// tab through inside an image).

interface ChartProps<Row> {
  rows: Row[];
  currency: string;
  /** The image's accessible name. */
  label: string;
}

/** The open pipeline's amount per stage, in the organization's currency. */
export function PipelineChart({ rows, currency, label }: ChartProps<PipelineRow>) {
  const { t, i18n } = useTranslation();
  return (
    <Box role="img" aria-label={label}>
      <BarChart
        h={240}
        data={rows.map((row) => ({ stage: row.stage, amount: row.amount }))}
        dataKey="stage"
        series={[{ name: "amount", label: t("home.dashboard.pipeline.amount", { currency }), color: "blue.7" }]}
        valueFormatter={(value) => formatMoney(value, currency, i18n.resolvedLanguage)}
        tickLine="y"
        yAxisProps={{ width: 80 }}
        barChartProps={{ accessibilityLayer: false }}
      />
    </Box>
  );
}

/** The forecast by month: the weighted amount and the whole amount, in the organization's currency. */
export function ForecastChart({ rows, currency, label }: ChartProps<ForecastRow>) {
  const { t, i18n } = useTranslation();
  return (
    <Box role="img" aria-label={label}>
      <BarChart
        h={240}
        data={rows.map((row) => ({ month: row.label, weighted: row.weighted, amount: row.amount }))}
        dataKey="month"
        series={[
          { name: "weighted", label: t("home.dashboard.forecast.weighted"), color: "blue.7" },
          { name: "amount", label: t("home.dashboard.forecast.amount"), color: "teal.7" },
        ]}
        valueFormatter={(value) => formatMoney(value, currency, i18n.resolvedLanguage)}
        withLegend
        tickLine="y"
        yAxisProps={{ width: 80 }}
        barChartProps={{ accessibilityLayer: false }}
      />
    </Box>
  );
}
