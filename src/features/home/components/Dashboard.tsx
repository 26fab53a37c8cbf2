import { Alert, Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { activityActorName, activitySentence } from "@/components/activity/activity-actions.ts";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { TaskDue, TaskPriorityBadge, taskClasses, useNow } from "@/components/tasks/TaskBits.tsx";
import { isOverdue } from "@/components/tasks/task-fields.ts";
import { formatMoney } from "@/lib/format.ts";
import { formatZonedDateTime, usableTimeZone } from "@/lib/zoned-time.ts";
import { recordPath, type ModuleKey } from "@/modules/registry.ts";
import { useDashboard, useDashboardForecast, type Dashboard as DashboardData, type MoneySummary } from "../api/dashboard.ts";
import { forecastRows, pipelineRows, unconvertedCurrencies } from "../utils/dashboard.ts";

// The charts bring @mantine/charts and recharts: loaded when the dashboard has numbers to draw.
const PipelineChart = lazy(() => import("./DashboardCharts.tsx").then((module) => ({ default: module.PipelineChart })));
const ForecastChart = lazy(() => import("./DashboardCharts.tsx").then((module) => ({ default: module.ForecastChart })));

/**
 * The home dashboard (get_dashboard, within the member's view scope): my open and overdue
 * tasks with the next ones, the open pipeline by stage, the forecast by month, won and
 * lost this month and quarter, and the latest activity on my records. A module the role
 * may not see is left out. Every chart's numbers are also in a table.
 */
export function Dashboard() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  if (dashboard.isPending) return <LoadingScreen compact />;
  if (dashboard.isError) return <LoadError title={t("home.dashboard.loadError")} onRetry={() => void dashboard.refetch()} />;
  const data = dashboard.data;
  return (
    <Stack gap="lg">
      <Summary data={data} />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        {data.tasks && <MyTasks data={data} />}
        {data.deals_scope && <Pipeline data={data} />}
        {data.deals_scope && <Forecast scope={data.deals_scope} />}
        {data.won && data.lost && <Outcomes data={data} />}
        <RecentActivity data={data} />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * One card of the dashboard. With scope (the member's view scope of the module its figures
 * come from, as get_dashboard computed them), the card says whose records it counts: the
 * member's own ("Kayıtlarınız") or the whole organization's ("Organizasyon").
 */
function Section({ title, id, scope, children }: { title: string; id: string; scope?: "own" | "all" | null; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={id} style={{ minWidth: 0 }}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          {scope && (
            <Badge variant="light" color={scope === "own" ? "gray" : "blue"} title={t(`home.dashboard.scope.${scope}Hint`)}>
              {t(`home.dashboard.scope.${scope}`)}
            </Badge>
          )}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** The headline numbers: my open and overdue tasks, won and lost this month. */
function Summary({ data }: { data: DashboardData }) {
  const { t, i18n } = useTranslation();
  const money = (summary: MoneySummary) => formatMoney(summary.amount, data.currency, i18n.resolvedLanguage);
  const items: { label: string; value: ReactNode; detail?: ReactNode }[] = [];
  if (data.tasks) {
    items.push(
      { label: t("home.dashboard.summary.openTasks"), value: data.tasks.open, detail: <Anchor component={Link} to="/tasks" size="sm">{t("home.dashboard.summary.openTasksLink")}</Anchor> },
      {
        label: t("home.dashboard.summary.overdueTasks"),
        value: <span className={data.tasks.overdue > 0 ? taskClasses.overdue : undefined}>{data.tasks.overdue}</span>,
      },
    );
  }
  if (data.won && data.lost) {
    items.push(
      { label: t("home.dashboard.summary.wonMonth"), value: data.won.month.count, detail: money(data.won.month) },
      { label: t("home.dashboard.summary.lostMonth"), value: data.lost.month.count, detail: money(data.lost.month) },
    );
  }
  if (items.length === 0) return null;
  return (
    <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} spacing="sm" m={0} aria-label={t("home.dashboard.summary.label")}>
      {items.map((item) => (
        <Paper key={item.label} withBorder p="sm">
          <Text component="dt" size="sm" c="dimmed">
            {item.label}
          </Text>
          <dd style={{ margin: 0 }}>
            <Text component="div" fw={700} fz="1.75rem" lh={1.2}>
              {item.value}
            </Text>
            {item.detail && (
              <Text component="div" size="sm" style={{ overflowWrap: "anywhere" }}>
                {item.detail}
              </Text>
            )}
          </dd>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function MyTasks({ data }: { data: DashboardData }) {
  const { t } = useTranslation();
  const now = useNow();
  const timeZone = usableTimeZone(data.time_zone);
  const next = data.tasks?.next ?? [];
  return (
    <Section title={t("home.dashboard.tasks.title")} id="dashboard-tasks">
      <Text size="sm">{t("home.dashboard.tasks.counts", { open: data.tasks?.open ?? 0, overdue: data.tasks?.overdue ?? 0 })}</Text>
      {next.length === 0 ? (
        <Text c="dimmed">{t("home.dashboard.tasks.none")}</Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: "none" }} aria-label={t("home.dashboard.tasks.next")}>
          {next.map((task) => (
            <Paper component="li" key={task.id} withBorder p="xs" className={isOverdue(task, now) ? taskClasses.overdueRow : undefined}>
              <Stack gap={2}>
                <Anchor component={Link} to={`/tasks/${task.id}`} fw={600} style={{ overflowWrap: "anywhere" }}>
                  {task.title}
                </Anchor>
                <Group gap="xs" wrap="wrap">
                  <TaskDue task={task} now={now} timeZone={timeZone} size="xs" />
                  <TaskPriorityBadge priority={task.priority} />
                </Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      <Anchor component={Link} to="/tasks" size="sm">
        {t("home.dashboard.tasks.all")}
      </Anchor>
    </Section>
  );
}

function ChartFallback() {
  return <Skeleton h={240} />;
}

/**
 * A chart, loaded only once its place comes near the screen (IntersectionObserver, 200 px
 * ahead): the chart chunk (recharts, d3, redux toolkit: about 115 KiB) is no longer part of
 * every sign-in. Browsers without the observer draw it at once.
 */
function ChartWhenInView({ children }: { children: ReactNode }) {
  const placeholder = useRef<HTMLDivElement>(null);
  const [inView, setInView] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const element = placeholder.current;
    if (inView || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setInView(true);
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [inView]);
  if (!inView) {
    return (
      <div ref={placeholder} data-chart-placeholder>
        <ChartFallback />
      </div>
    );
  }
  return <Suspense fallback={<ChartFallback />}>{children}</Suspense>;
}

function Pipeline({ data }: { data: DashboardData }) {
  const { t, i18n } = useTranslation();
  const rows = pipelineRows(data.pipeline, data.currency);
  const money = (amount: number, currency = data.currency) => formatMoney(amount, currency, i18n.resolvedLanguage);
  const unconverted = unconvertedCurrencies(data.pipeline ?? []);
  const empty = rows.every((row) => row.count === 0);
  return (
    <Section title={t("home.dashboard.pipeline.title")} id="dashboard-pipeline" scope={data.deals_scope}>
      {empty ? (
        <Text c="dimmed">{t("home.dashboard.pipeline.empty")}</Text>
      ) : (
        <>
          <ChartWhenInView>
            <PipelineChart rows={rows} currency={data.currency} label={t("home.dashboard.pipeline.chartLabel", { currency: data.currency })} />
          </ChartWhenInView>
          <Table.ScrollContainer minWidth={320} type="native">
            <Table striped aria-label={t("home.dashboard.pipeline.tableLabel")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t("home.dashboard.pipeline.stage")}</Table.Th>
                  <Table.Th scope="col">{t("home.dashboard.pipeline.count")}</Table.Th>
                  <Table.Th scope="col">{t("home.dashboard.pipeline.amount", { currency: data.currency })}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.key}>
                    <Table.Th scope="row" fw={500}>
                      {row.stage}
                    </Table.Th>
                    <Table.Td>{row.count}</Table.Td>
                    <Table.Td>
                      {money(row.amount)}
                      {row.others.length > 0 && (
                        <Text span size="xs" c="dimmed">
                          {" "}
                          ({row.others.map((other) => money(other.amount, other.currency)).join(", ")})
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      {unconverted.length > 0 && (
        <Alert color="yellow" p="xs">
          <Text size="sm">{t("home.dashboard.unconverted", { currencies: unconverted.join(", "), currency: data.currency })}</Text>
        </Alert>
      )}
    </Section>
  );
}

function Forecast({ scope }: { scope: "own" | "all" }) {
  const { t, i18n } = useTranslation();
  const forecast = useDashboardForecast(true);
  const title = t("home.dashboard.forecast.title");
  if (forecast.isPending) {
    return (
      <Section title={title} id="dashboard-forecast" scope={scope}>
        <ChartFallback />
      </Section>
    );
  }
  if (forecast.isError) {
    return (
      <Section title={title} id="dashboard-forecast" scope={scope}>
        <LoadError title={t("home.dashboard.forecast.loadError")} onRetry={() => void forecast.refetch()} />
      </Section>
    );
  }
  const { currency, total } = forecast.data;
  const rows = forecastRows(forecast.data, i18n.resolvedLanguage);
  const money = (amount: number, code = currency) => formatMoney(amount, code, i18n.resolvedLanguage);
  return (
    <Section title={title} id="dashboard-forecast" scope={scope}>
      {total.count === 0 && total.unconverted.length === 0 ? (
        <Text c="dimmed">{t("home.dashboard.forecast.empty")}</Text>
      ) : (
        <>
          <Text size="sm">{t("home.dashboard.forecast.summary", { weighted: money(total.weighted), amount: money(total.amount), count: total.count })}</Text>
          <ChartWhenInView>
            <ForecastChart rows={rows} currency={currency} label={t("home.dashboard.forecast.chartLabel", { currency })} />
          </ChartWhenInView>
          <VisuallyHidden>
            <table>
              <caption>{t("home.dashboard.forecast.tableLabel")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("home.dashboard.forecast.month")}</th>
                  <th scope="col">{t("home.dashboard.forecast.count")}</th>
                  <th scope="col">{t("home.dashboard.forecast.amount")}</th>
                  <th scope="col">{t("home.dashboard.forecast.weighted")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.month}>
                    <th scope="row">{row.label}</th>
                    <td>{row.count}</td>
                    <td>{money(row.amount)}</td>
                    <td>{money(row.weighted)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </VisuallyHidden>
          {total.unconverted.length > 0 && (
            <Alert color="yellow" p="xs">
              <Text size="sm">
                {t("home.dashboard.unconverted", { currencies: total.unconverted.map((entry) => entry.currency).join(", "), currency })}
              </Text>
            </Alert>
          )}
        </>
      )}
    </Section>
  );
}

/** Won and lost deals this month and this quarter (in the organization's time zone). */
function Outcomes({ data }: { data: DashboardData }) {
  const { t, i18n } = useTranslation();
  if (!data.won || !data.lost) return null;
  const money = (summary: MoneySummary) => formatMoney(summary.amount, data.currency, i18n.resolvedLanguage);
  const periods = [
    { key: "month", label: t("home.dashboard.outcomes.month"), won: data.won.month, lost: data.lost.month },
    { key: "quarter", label: t("home.dashboard.outcomes.quarter"), won: data.won.quarter, lost: data.lost.quarter },
  ];
  const unconverted = unconvertedCurrencies([data.won.quarter, data.lost.quarter]);
  return (
    <Section title={t("home.dashboard.outcomes.title")} id="dashboard-outcomes" scope={data.deals_scope}>
      <Table.ScrollContainer minWidth={320} type="native">
        <Table striped aria-label={t("home.dashboard.outcomes.title")}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t("home.dashboard.outcomes.period")}</Table.Th>
              <Table.Th scope="col">{t("home.dashboard.outcomes.won")}</Table.Th>
              <Table.Th scope="col">{t("home.dashboard.outcomes.lost")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {periods.map((period) => (
              <Table.Tr key={period.key}>
                <Table.Th scope="row" fw={500}>
                  {period.label}
                </Table.Th>
                <Table.Td>{t("home.dashboard.outcomes.value", { count: period.won.count, amount: money(period.won) })}</Table.Td>
                <Table.Td>{t("home.dashboard.outcomes.value", { count: period.lost.count, amount: money(period.lost) })}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {unconverted.length > 0 && (
        <Text size="sm" c="dimmed">
          {t("home.dashboard.unconverted", { currencies: unconverted.join(", "), currency: data.currency })}
        </Text>
      )}
    </Section>
  );
}

function RecentActivity({ data }: { data: DashboardData }) {
  const { t, i18n } = useTranslation();
  const timeZone = usableTimeZone(data.time_zone);
  return (
    <Section title={t("home.dashboard.activity.title")} id="dashboard-activity">
      {data.recent_activity.length === 0 ? (
        <Text c="dimmed">{t("home.dashboard.activity.none")}</Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: "none" }} aria-label={t("home.dashboard.activity.title")}>
          {data.recent_activity.map((entry, index) => {
            const path = entry.action === "delete" ? null : recordPath(entry.module, entry.record_id);
            const name = entry.title ?? t("home.dashboard.activity.untitled");
            return (
              <li key={`${entry.record_id}-${entry.at}-${index}`}>
                <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                  {path ? (
                    <Anchor component={Link} to={path} fw={600} size="sm">
                      {name}
                    </Anchor>
                  ) : (
                    <Text span fw={600} size="sm">
                      {name}
                    </Text>
                  )}
                  {" · "}
                  {t(`activity.groups.${entry.module as ModuleKey}`)}
                </Text>
                <Text size="sm">
                  {activitySentence(
                    `${entry.module}.${entry.action}`,
                    activityActorName({ id: entry.actor_id, name: entry.actor_name }, (key) => t(key)),
                    (key, options) => t(key, options ?? {}),
                  )}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatZonedDateTime(entry.at, i18n.resolvedLanguage, timeZone)}
                </Text>
              </li>
            );
          })}
        </Stack>
      )}
    </Section>
  );
}
