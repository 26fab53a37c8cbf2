/**
 * The home dashboard's calls: get_dashboard (pipeline, won and lost, my tasks, recent
 * activity, within the member's view scope) and, for whoever may see deals, the weighted
 * forecast of the next six months (get_deal_forecast).
 */
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { taskPriorities, taskStatuses } from "@/components/tasks/task-fields.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

const money = z.coerce.number();
const scopeSchema = z.enum(["all", "own"]).nullable();

/** Deals grouped: how many, the totals per currency, the amount converted, the currencies without a rate. */
const moneySummarySchema = z.object({
  count: z.coerce.number(),
  totals: z.array(z.object({ currency: z.string(), amount: money })),
  amount: money,
  unconverted: z.array(z.string()),
});
export type MoneySummary = z.infer<typeof moneySummarySchema>;

const periodSchema = z.object({ month: moneySummarySchema, quarter: moneySummarySchema });

export const dashboardSchema = z.object({
  currency: z.string(),
  time_zone: z.string(),
  deals_scope: scopeSchema,
  tasks_scope: scopeSchema,
  pipeline: z.array(moneySummarySchema.extend({ key: z.string(), name: z.string().nullable(), probability: z.number().nullable() })).nullable(),
  won: periodSchema.nullable(),
  lost: periodSchema.nullable(),
  tasks: z
    .object({
      open: z.number(),
      overdue: z.number(),
      next: z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          due_at: z.string().nullable(),
          priority: z.enum(taskPriorities).catch("normal"),
          status: z.enum(taskStatuses),
        }),
      ),
    })
    .nullable(),
  recent_activity: z.array(
    z.object({
      action: z.string(),
      module: z.string(),
      record_id: z.string(),
      title: z.string().nullable(),
      actor_id: z.string().nullable(),
      actor_name: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

const forecastMonthSchema = z.object({ month: z.string(), count: z.number(), amount: money, weighted: money });
export const forecastSchema = z.object({
  currency: z.string(),
  total: z.object({
    count: z.number(),
    amount: money,
    weighted: money,
    months: z.array(forecastMonthSchema),
    unconverted: z.array(z.object({ currency: z.string(), count: z.number(), amount: money, weighted: money })),
  }),
});
export type DashboardForecast = z.infer<typeof forecastSchema>;

export function useDashboard() {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: queryKeys.organization(scope, "dashboard"),
    queryFn: () => rpc("get_dashboard", {}, dashboardSchema),
    enabled: scope.organizationId !== "none",
  });
}

export const FORECAST_MONTHS = 6;

export function useDashboardForecast(enabled: boolean) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: [...queryKeys.organization(scope, "dashboard"), "forecast", FORECAST_MONTHS] as const,
    queryFn: () => rpc("get_deal_forecast", { p_months: FORECAST_MONTHS }, forecastSchema),
    enabled: enabled && scope.organizationId !== "none",
  });
}
