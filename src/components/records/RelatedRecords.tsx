import { Anchor, Badge, Button, Group, Stack, Table, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { Suspense, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useCanEditTask, useOrganizationTimeZone } from "@/components/tasks/task-api.ts";
import { TaskDoneCheckbox, TaskDue, TaskPriorityBadge, TaskStatusBadge, taskClasses, useNow } from "@/components/tasks/TaskBits.tsx";
import { isOpenTask, isOverdue } from "@/components/tasks/task-fields.ts";
import { formatCalendarDate, formatCount, formatMoney } from "@/lib/format.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { recordPath, type ModuleKey } from "@/modules/registry.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { z } from "zod";
import { recordBaseSchema, useRecord } from "./record-api.ts";
import type { RecordTab } from "./RecordDetailLayout.tsx";
import { useRecordCreateForm } from "./record-forms.ts";
import {
  countedLabel,
  newRecordPath,
  relatedAccess,
  RELATED_LIMIT,
  useRelatedCounts,
  useRelatedRecords,
  type RecordLinks,
  type RelatedLink,
  type RelatedModule,
  type RelatedRow,
  type RelatedSpec,
} from "./related-records.ts";
import { contractStatusColors, quoteStatusColors } from "./status-colors.ts";

/** A column of a related list: its header and its cell. */
interface Column<Row> {
  key: string;
  header: string;
  cell(row: Row): ReactNode;
}

const dash = "—";

/** The compact columns each module's related list shows: its title as a link first, then a few key ones. */
function useColumns() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const settings = useOrganizationSettings();
  const stages = settings.data?.deal_stages ?? [];
  const now = useNow();
  const timeZone = useOrganizationTimeZone();
  const canEditTask = useCanEditTask();
  const date = (value: string | null | undefined) => (value ? formatCalendarDate(value, language) : dash);
  const money = (value: number | string | null | undefined, currency: string | null | undefined) =>
    value === null || value === undefined ? dash : formatMoney(value, currency ?? "TRY", language);
  const link = (module: RelatedModule, id: string, text: string, done = false) => (
    <Anchor component={Link} to={recordPath(module, id) ?? "/"} fw={600} className={done ? taskClasses.done : undefined}
      style={{ overflowWrap: "anywhere" }}>
      {text}
    </Anchor>
  );
  const contactName = (row: { first_name: string | null; last_name: string | null }) =>
    [row.first_name, row.last_name].filter(Boolean).join(" ") || dash;

  const columns: { [Module in RelatedModule]: Column<RelatedRow<Module>>[] } = {
    contacts: [
      { key: "name", header: t("records.related.columns.name"), cell: (row) => link("contacts", row.id, contactName(row)) },
      { key: "title", header: t("records.related.columns.jobTitle"), cell: (row) => row.title ?? dash },
      { key: "email", header: t("records.related.columns.email"), cell: (row) => row.emails[0]?.value ?? dash },
      { key: "phone", header: t("records.related.columns.phone"), cell: (row) => row.phones[0]?.value ?? dash },
    ],
    deals: [
      { key: "title", header: t("records.related.columns.title"), cell: (row) => link("deals", row.id, row.title) },
      {
        key: "stage",
        header: t("records.related.columns.stage"),
        cell: (row) => {
          const stage = stages.find((candidate) => candidate.key === row.stage);
          return (
            <Badge variant="dot" color={stage?.outcome === "won" ? "green" : stage?.outcome === "lost" ? "red" : "blue"} miw="max-content">
              {stage?.name ?? row.stage}
            </Badge>
          );
        },
      },
      { key: "amount", header: t("records.related.columns.amount"), cell: (row) => money(row.amount, row.currency) },
      { key: "close", header: t("records.related.columns.expectedClose"), cell: (row) => date(row.expected_close_date) },
    ],
    quotes: [
      {
        key: "number",
        header: t("records.related.columns.number"),
        cell: (row) => link("quotes", row.id, row.quote_number ?? t("records.related.untitledQuote")),
      },
      { key: "deal", header: t("records.related.columns.deal"), cell: (row) => row.deal_name ?? dash },
      {
        key: "status",
        header: t("records.related.columns.status"),
        cell: (row) => (
          <Badge variant="dot" color={quoteStatusColors[row.status]} miw="max-content">
            {t(`modules.quotes.status.${row.status}`)}
          </Badge>
        ),
      },
      { key: "date", header: t("records.related.columns.date"), cell: (row) => date(row.quote_date) },
      { key: "total", header: t("records.related.columns.total"), cell: (row) => money(row.grand_total, row.currency) },
    ],
    contracts: [
      {
        key: "title",
        header: t("records.related.columns.title"),
        cell: (row) => (
          <Stack gap={0}>
            {link("contracts", row.id, row.title)}
            {row.contract_number && (
              <Text size="xs" c="dimmed">
                {row.contract_number}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        key: "status",
        header: t("records.related.columns.status"),
        cell: (row) => (
          <Badge variant="dot" color={contractStatusColors[row.status]} miw="max-content">
            {t(`modules.contracts.statuses.${row.status}`)}
          </Badge>
        ),
      },
      { key: "end", header: t("records.related.columns.endDate"), cell: (row) => date(row.end_date) },
      { key: "value", header: t("records.related.columns.value"), cell: (row) => money(row.value, row.currency) },
    ],
    tasks: [
      {
        key: "title",
        header: t("records.related.columns.task"),
        cell: (row) => (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <TaskDoneCheckbox task={row} canEdit={canEditTask(row)} />
            {link("tasks", row.id, row.title, row.status === "done")}
          </Group>
        ),
      },
      { key: "due", header: t("records.related.columns.due"), cell: (row) => <TaskDue task={row} now={now} timeZone={timeZone} size="sm" /> },
      { key: "status", header: t("records.related.columns.status"), cell: (row) => <TaskStatusBadge status={row.status} /> },
      { key: "priority", header: t("records.related.columns.priority"), cell: (row) => <TaskPriorityBadge priority={row.priority} /> },
      { key: "owner", header: t("records.related.columns.owner"), cell: (row) => row.owner_name ?? dash },
    ],
  };
  return { columns, now };
}

interface Props {
  module: RelatedModule;
  /** The module's records shown: those whose link column is the record's id. */
  link: RelatedLink;
  /** The links a new record starts with (the link itself unless more are given, e.g. a deal's customer). */
  newLinks?: RecordLinks;
}

/**
 * One module's records linked to a record, for its page: a compact table (the title as a
 * link, a few key columns, the status as a badge), the first RELATED_LIMIT of them, with an
 * empty state, a load error to retry, and a "new" button (for whoever may create in the
 * module) that opens the module's form with the links filled in: in place when the app
 * supplies it (record-forms.ts; the list and its count refresh once saved), else on the
 * module's create route.
 */
export function RelatedRecords({ module, link, newLinks }: Props) {
  const { t, i18n } = useTranslation();
  const permissions = useMyPermissions();
  const access = relatedAccess(permissions.data?.permissions, module);
  const list = useRelatedRecords(module, link, access.canView);
  const { columns, now } = useColumns();
  const createForm = useRecordCreateForm(module);
  const [creating, setCreating] = useState(false);
  const shown = columns[module] as Column<RelatedRow<RelatedModule>>[];

  if (permissions.data && !access.canView) return <Text c="dimmed">{t(`records.related.${module}.denied`)}</Text>;
  const links: RecordLinks = { [link.column]: link.id, ...newLinks };
  const newLabel = t(`records.related.${module}.new`);
  const newIcon = <IconPlus size={14} aria-hidden />;
  const create = access.canCreate && (
    <Group>
      {createForm ? (
        <Button onClick={() => setCreating(true)} variant="light" size="xs" leftSection={newIcon}>
          {newLabel}
        </Button>
      ) : (
        <Button component={Link} to={newRecordPath(module, links)} variant="light" size="xs" leftSection={newIcon}>
          {newLabel}
        </Button>
      )}
      {createForm && creating && (
        <Suspense fallback={null}>{createForm({ links, fixed: link.column, onClose: () => setCreating(false) })}</Suspense>
      )}
    </Group>
  );
  if (list.isPending) return <LoadingScreen compact />;
  if (list.isError) {
    return (
      <Stack gap="sm">
        {create}
        <LoadError title={t(`records.related.${module}.loadError`)} onRetry={() => void list.refetch()} />
      </Stack>
    );
  }
  const records = list.data.records as RelatedRow<RelatedModule>[];
  // A record's tasks: those still to do first (each part stays in due order).
  const rows = module === "tasks" ? [...records].sort((a, b) => Number(isOpenTask(b as RelatedRow<"tasks">)) - Number(isOpenTask(a as RelatedRow<"tasks">))) : records;

  return (
    <Stack gap="sm">
      {create}
      {rows.length === 0 ? (
        <Text c="dimmed">{t(`records.related.${module}.empty`)}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560} type="native">
          <Table striped verticalSpacing="xs" aria-label={t(`records.related.${module}.label`)}>
            <Table.Thead>
              <Table.Tr>
                {shown.map((column) => (
                  <Table.Th key={column.key} scope="col">
                    {column.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}
                  className={module === "tasks" && isOverdue(row as RelatedRow<"tasks">, now) ? taskClasses.overdueRow : undefined}>
                  {shown.map((column) => (
                    <Table.Td key={column.key}>{column.cell(row)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data.total > rows.length && (
        <Text size="sm" c="dimmed">
          {t("records.related.more", { shown: formatCount(Math.min(rows.length, RELATED_LIMIT), i18n.resolvedLanguage), total: formatCount(list.data.total, i18n.resolvedLanguage) })}
        </Text>
      )}
    </Stack>
  );
}

/** A related list as a record page's tab: the module and its link, and what a new record starts with. */
export interface RelatedTabSpec extends RelatedSpec {
  newLinks?: RecordLinks;
  /** The tab's name when it is not the module's (e.g. a contact's page: its customer's deals). */
  label?: string;
}

/**
 * A record page's tabs of related records, in the order given: each labelled with the
 * module's name and its count ("Teklifler (3)"); a module the caller may not view has no tab.
 */
export function useRelatedTabs(specs: readonly RelatedTabSpec[]): RecordTab[] {
  const { t, i18n } = useTranslation();
  const counted = useRelatedCounts(specs);
  return counted
    .map((entry, index) => ({ entry, spec: specs[index] }))
    .filter(({ entry }) => entry.visible)
    .map(({ entry, spec }) => ({
      value: spec.module,
      label: countedLabel(spec.label ?? t(`modules.${spec.module}.title`), entry.count, (value) => formatCount(value, i18n.resolvedLanguage)),
      content: <RelatedRecords module={spec.module} link={spec.link} newLinks={spec.newLinks} />,
    }));
}

const namedSchema = recordBaseSchema.extend({ name: z.string().optional(), title: z.string().optional() });

/**
 * A linked record by name, as a link to its page: the name the answer carried (`<link>_name`),
 * or else read once with the module's get_<entity> (its name or title); "—" without a link or
 * for a record the caller may not see.
 */
export function LinkedRecordName({ module, entity, id, name }: { module: ModuleKey; entity: string; id: string | null; name?: string | null }) {
  const record = useRecord(module, entity, id ?? "", namedSchema, id !== null && !name);
  if (!id) return dash;
  const shown = name ?? record.data?.name ?? record.data?.title;
  if (!shown && record.isError) return dash;
  return (
    <Anchor component={Link} to={recordPath(module, id) ?? "/"}>
      {shown ?? "…"}
    </Anchor>
  );
}
