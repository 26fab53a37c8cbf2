/** The dashboard's numbers as its charts and tables show them. */
import type { Dashboard, DashboardForecast, MoneySummary } from "../api/dashboard.ts";

/** "2026-11" as "Kas 2026" / "Nov 2026". */
export function monthLabel(month: string, language: string | undefined): string {
  const [year, number] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(language === "en" ? "en-GB" : "tr-TR", { month: "short", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(year, number - 1, 1)),
  );
}

export interface PipelineRow {
  key: string;
  stage: string;
  count: number;
  /** Converted to the organization's currency. */
  amount: number;
  /** Totals in currencies other than the organization's (shown beside, never summed unconverted). */
  others: MoneySummary["totals"];
}

/** The open stages in order, named (a stage without a name by its key). */
export function pipelineRows(pipeline: Dashboard["pipeline"], currency: string): PipelineRow[] {
  return (pipeline ?? []).map((stage) => ({
    key: stage.key,
    stage: stage.name ?? stage.key,
    count: stage.count,
    amount: stage.amount,
    others: stage.totals.filter((total) => total.currency !== currency),
  }));
}

/** Every currency without an exchange rate anywhere in the pipeline (their amounts are not in the converted sums). */
export function unconvertedCurrencies(summaries: readonly MoneySummary[]): string[] {
  return [...new Set(summaries.flatMap((summary) => summary.unconverted))].sort();
}

export interface ForecastRow {
  month: string;
  label: string;
  count: number;
  amount: number;
  weighted: number;
}

export function forecastRows(forecast: DashboardForecast, language: string | undefined): ForecastRow[] {
  return forecast.total.months.map((month) => ({ ...month, label: monthLabel(month.month, language) }));
}
