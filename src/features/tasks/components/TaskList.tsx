import { Anchor, Box, EmptyState, Group, NativeSelect, Paper, SegmentedControl, Stack, Table, Text } from "@mantine/core";
import { useDebouncedCallback, useMediaQuery } from "@mantine/hooks";
import { IconChecklist } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ListPagination } from "@/components/ListPagination.tsx";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useRecordList } from "@/components/records/record-api.ts";
import { declaredFields, useModuleDeclarations } from "@/components/records/custom-fields/custom-fields.ts";
import { customColumns, listColumns } from "@/components/records/custom-fields/list-cells.ts";
import { declaredColumn, type RecordColumn } from "@/components/records/record-config.ts";
import { linkColumn, linkedRecord, recordPickerSources } from "@/components/records/record-links.ts";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";
import { LinkedRecordName } from "@/components/records/LinkedRecordName.tsx";
import { RecordExportButton } from "@/components/records/RecordExportButton.tsx";
import { recordPageCount, TOTAL_CAP } from "@/components/records/record-list-state.ts";
import { SearchField } from "@/components/SearchField.tsx";
import { SortableHeader } from "@/components/SortableHeader.tsx";
import { useCanEditTask, useOrganizationTimeZone } from "@/components/tasks/task-api.ts";
import {
  TaskDoneCheckbox,
  TaskDue,
  TaskPriorityBadge,
  TaskStatusBadge,
  taskClasses,
  useNow,
  useTaskTypeLabel,
} from "@/components/tasks/TaskBits.tsx";
import { isOverdue, taskPriorities, taskStatuses } from "@/components/tasks/task-fields.ts";
import { taskRowSchema, type TaskRow } from "@/components/tasks/task-row.ts";
import { pageOffset } from "@/lib/list-state.ts";
import { RpcError } from "@/lib/rpc.ts";
import { ModuleDenied } from "@/modules/ModuleDenied.tsx";
import type { ModuleKey } from "@/modules/registry.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import type { Json } from "@/types/database.types.ts";
import { noChosenFilters, taskListFilters, taskViews, type ChosenTaskFilters, type TaskView } from "../utils/task-views.ts";

const PAGE_SIZE = 25;
const SEARCH_DEBOUNCE_MS = 300;
/** The task's own sortable columns, or a custom field's key (cf_…). */
type SortKey = "title" | "due_at" | "priority" | "status" | "updated_at" | `cf_${string}`;

/** The records a task is about, in the order a list names them. */
const relatedLinks = [
  ["customer_id", "customers"],
  ["contact_id", "contacts"],
  ["deal_id", "deals"],
] as const satisfies readonly (readonly [string, ModuleKey])[];

/** The customer, contact and deal a task is about, each by name as a link to its page. */
function TaskRelated({ task, empty }: { task: TaskRow; empty?: string }) {
  const linked = relatedLinks.flatMap(([column, module]) => {
    const record = linkedRecord(task, column);
    return record ? [{ column, module, record }] : [];
  });
  if (linked.length === 0) return empty ? <>{empty}</> : null;
  return (
    <Group gap={4} wrap="wrap">
      {linked.map(({ column, module, record }, index) => (
        <Text span size="sm" key={column}>
          <LinkedRecordName module={module} linked={record} />
          {index < linked.length - 1 && " · "}
        </Text>
      ))}
    </Group>
  );
}

interface Props {
  view: TaskView;
  onViewChange(view: TaskView): void;
}

/**
 * The task list on the record kit's pieces (list_tasks, pages, sortable headers): the
 * views as a segmented control (mine, overdue, today, this week, all; days in the
 * organization's time zone), filters on status, priority and type, a search, and per row
 * a "done" tick (complete_task with the row's updated_at), and the kit's export (the view,
 * or every task the role may see). The organization's custom fields of tasks: those shown in
 * lists as columns after the task's own (sortable where their type is), every one in the
 * export. Overdue rows carry a red bar and say "overdue". On a phone the rows become cards,
 * so nothing scrolls sideways.
 */
export function TaskList({ view, onViewChange }: Props) {
  const { t, i18n } = useTranslation();
  const timeZone = useOrganizationTimeZone();
  const settings = useOrganizationSettings();
  const typeLabel = useTaskTypeLabel();
  const canEdit = useCanEditTask();
  const declarations = useModuleDeclarations("tasks");
  const now = useNow();
  const narrow = useMediaQuery("(max-width: 48em)") ?? false;
  const [chosen, setChosen] = useState<ChosenTaskFilters>(noChosenFilters);
  const [searchInput, setSearchInput] = useState("");
  const [search, setSearch] = useState("");
  const [order, setOrder] = useState<{ sort: SortKey; descending: boolean }>({ sort: "due_at", descending: false });
  const [page, setPage] = useState(1);
  const applySearch = useDebouncedCallback((value: string) => {
    setSearch(value.trim());
    setPage(1);
  }, SEARCH_DEBOUNCE_MS);

  const filters = taskListFilters(view, chosen, new Date(now), timeZone);
  const list = useRecordList("tasks", taskRowSchema, {
    ...(search === "" ? {} : { p_search: search }),
    p_filters: filters as Json,
    p_sort: order.sort,
    p_descending: order.descending,
    p_limit: PAGE_SIZE,
    p_offset: pageOffset(page, PAGE_SIZE),
  });

  if (list.error instanceof RpcError && list.error.code === "permission_denied") return <ModuleDenied module="tasks" />;
  // The columns' labels are the fields' declarations: the list starts once they are read.
  if (declarations.isPending) return <LoadingScreen compact />;
  if (declarations.isError) return <LoadError title={t("modules.tasks.list.loadError")} onRetry={() => void declarations.refetch()} />;

  const rows = (list.data?.records ?? []) as TaskRow[];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_exact === false;
  const narrowed = search !== "" || Object.values(chosen).some((value) => value !== "");
  const count = new Intl.NumberFormat(i18n.resolvedLanguage === "en" ? "en-GB" : "tr-TR").format(capped ? TOTAL_CAP : total);
  const types = settings.data?.task_types ?? [];
  const choose = (key: keyof ChosenTaskFilters, value: string) => {
    setChosen((current) => ({ ...current, [key]: value }));
    setPage(1);
  };
  const sortBy = (sort: SortKey) => {
    setOrder((current) => (current.sort === sort ? { sort, descending: !current.descending } : { sort, descending: sort === "priority" || sort === "updated_at" }));
    setPage(1);
  };
  const language = i18n.resolvedLanguage;
  // Declared fields sort by their keys where declared sortable (title, due, priority, status).
  const columns = listColumns<TaskRow>(
    "tasks",
    [
      declaredColumn("title"),
      declaredColumn("due_at"),
      declaredColumn("priority", { exportValue: (row) => t(`taskKit.priorities.${row.priority}`) }),
      declaredColumn("status", { exportValue: (row) => t(`taskKit.statuses.${row.status}`) }),
      declaredColumn("type", { exportValue: (row) => (row.type === null ? null : typeLabel(row.type)) }),
      {
        key: "related",
        label: t("modules.tasks.list.related"),
        exportValue: (row) => relatedLinks.map(([column]) => linkedRecord(row, column)?.name).filter(Boolean).join(", ") || null,
      },
      { key: "owner_name", label: t("modules.tasks.fields.owner_id") },
    ],
    declarations.data,
    language,
  ) as (RecordColumn<TaskRow> & { sort?: SortKey })[];
  const allCustom = customColumns<TaskRow>(declaredFields(declarations.data), { language, t });
  const listedCustom = allCustom.filter((column) => !column.hidden);
  // An export of everything has these too.
  const exportOnly: RecordColumn<TaskRow>[] = [
    ...listColumns<TaskRow>("tasks", relatedLinks.map(([key, module]) => linkColumn<TaskRow>({ key, module })), declarations.data, language),
    { key: "remind_at", label: t("modules.tasks.fields.remind_at") },
    { key: "completed_at", label: t("modules.tasks.fields.completed_at") },
    { key: "created_at", label: t("records.list.createdAt") },
    { key: "updated_at", label: t("modules.tasks.fields.updated_at") },
    ...allCustom.filter((column) => column.hidden),
  ];
  const title = (row: TaskRow, size: "sm" | "md") => (
    <Anchor component={Link} to={`/tasks/${row.id}`} size={size} fw={600} className={row.status === "done" ? taskClasses.done : undefined}
      style={{ overflowWrap: "anywhere" }}>
      {row.title}
    </Anchor>
  );

  return (
    <Stack gap="md">
      {/* Five views fit a 390 px phone; a narrower screen scrolls the control, never the page. */}
      <Box style={{ overflowX: "auto", maxWidth: "100%" }}>
        <SegmentedControl
          aria-label={t("modules.tasks.views.label")}
          value={view}
          onChange={(next) => {
            onViewChange(next as TaskView);
            setPage(1);
          }}
          size={narrow ? "xs" : "sm"}
          data={taskViews.map((value) => ({ value, label: t(`modules.tasks.views.${value}`) }))}
        />
      </Box>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SearchField
          label={t("records.list.search")}
          placeholder={t("modules.tasks.list.searchPlaceholder")}
          value={searchInput}
          onChange={(value) => {
            setSearchInput(value);
            applySearch(value);
          }}
        />
        <NativeSelect
          label={t("modules.tasks.fields.status")}
          data={[{ value: "", label: t("records.list.filterAll") }, ...taskStatuses.map((value) => ({ value, label: t(`taskKit.statuses.${value}`) }))]}
          value={chosen.status}
          onChange={(event) => choose("status", event.currentTarget.value)}
          w={{ base: "100%", xs: 160 }}
        />
        <NativeSelect
          label={t("modules.tasks.fields.priority")}
          data={[{ value: "", label: t("records.list.filterAll") }, ...taskPriorities.map((value) => ({ value, label: t(`taskKit.priorities.${value}`) }))]}
          value={chosen.priority}
          onChange={(event) => choose("priority", event.currentTarget.value)}
          w={{ base: "100%", xs: 160 }}
        />
        <NativeSelect
          label={t("modules.tasks.fields.type")}
          data={[{ value: "", label: t("records.list.filterAll") }, ...types.map((value) => ({ value, label: typeLabel(value) }))]}
          value={chosen.type}
          onChange={(event) => choose("type", event.currentTarget.value)}
          w={{ base: "100%", xs: 160 }}
        />
        <RecordPicker
          {...recordPickerSources.customers}
          label={t("modules.tasks.fields.customer_id")}
          placeholder={t("records.list.filterPick")}
          nothingFound={t("records.list.filterNothing")}
          value={chosen.customer_id || null}
          onChange={(value) => choose("customer_id", value ?? "")}
          w={{ base: "100%", xs: 220 }}
        />
        <RecordExportButton
          module="tasks"
          row={taskRowSchema}
          title={t("modules.tasks.title")}
          source={{
            columns: [...columns, ...listedCustom, ...exportOnly],
            view: {
              ...(search === "" ? {} : { search }),
              filters: filters as Json,
              sort: order.sort,
              descending: order.descending,
              columns: [...columns.slice(1), ...listedCustom].map((column) => column.key),
            },
          }}
        />
      </Group>

      {list.isPending && <LoadingScreen compact />}
      {list.isError && <LoadError title={t("modules.tasks.list.loadError")} onRetry={() => void list.refetch()} />}
      {list.isSuccess && total === 0 && !narrowed && (
        <EmptyState icon={<IconChecklist size={28} aria-hidden />} withIndicatorBackground py="xl">
          <EmptyState.Title order={2}>{t("modules.tasks.emptyTitle")}</EmptyState.Title>
          <EmptyState.Description>{t(`modules.tasks.viewEmpty.${view}`)}</EmptyState.Description>
        </EmptyState>
      )}
      {list.isSuccess && (total > 0 || narrowed) && (
        <Stack gap="sm">
          <Text size="sm" aria-live="polite">
            {t(capped ? "modules.tasks.list.totalCapped" : "modules.tasks.list.total", { count })}
            {list.data.scope === "own" && ` · ${t("modules.tasks.list.ownOnly")}`}
            {` · ${t("modules.tasks.list.timeZone", { zone: timeZone })}`}
          </Text>
          {rows.length === 0 ? (
            <Text>{t("modules.tasks.list.noMatch")}</Text>
          ) : narrow ? (
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label={t("modules.tasks.list.label")}>
              {rows.map((row) => (
                <Paper component="li" key={row.id} withBorder p="sm" className={isOverdue(row, now) ? taskClasses.overdueRow : undefined}>
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <TaskDoneCheckbox task={row} canEdit={canEdit(row)} />
                    <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                      {title(row, "md")}
                      <TaskDue task={row} now={now} timeZone={timeZone} />
                      <Group gap="xs" wrap="wrap">
                        <TaskStatusBadge status={row.status} />
                        <TaskPriorityBadge priority={row.priority} />
                        {row.type && <Text span size="sm">{typeLabel(row.type)}</Text>}
                      </Group>
                      <TaskRelated task={row} />
                      {row.owner_name && (
                        <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                          {t("modules.tasks.fields.owner_id")}: {row.owner_name}
                        </Text>
                      )}
                      {listedCustom.map((column) => (
                        <Text key={column.key} size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                          {column.label}: {column.render?.(row)}
                        </Text>
                      ))}
                    </Stack>
                  </Group>
                </Paper>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={720} type="native" tabIndex={0}>
              <Table striped highlightOnHover aria-label={t("modules.tasks.list.label")}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={48} scope="col">
                      {t("modules.tasks.list.done")}
                    </Table.Th>
                    {columns.map((column) =>
                      column.sort ? (
                        <SortableHeader key={column.key} column={column.sort} label={column.label} state={order} onSort={sortBy} />
                      ) : (
                        <Table.Th key={column.key} scope="col">
                          {column.label}
                        </Table.Th>
                      ),
                    )}
                    {listedCustom.map((column) =>
                      column.sort ? (
                        <SortableHeader key={column.key} column={column.sort as SortKey} label={column.label} state={order} onSort={sortBy} />
                      ) : (
                        <Table.Th key={column.key} scope="col">
                          {column.label}
                        </Table.Th>
                      ),
                    )}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.id}>
                      <Table.Td className={isOverdue(row, now) ? taskClasses.overdueRow : undefined}>
                        <TaskDoneCheckbox task={row} canEdit={canEdit(row)} />
                      </Table.Td>
                      <Table.Td>{title(row, "sm")}</Table.Td>
                      <Table.Td>
                        <TaskDue task={row} now={now} timeZone={timeZone} />
                      </Table.Td>
                      <Table.Td>
                        <TaskPriorityBadge priority={row.priority} />
                      </Table.Td>
                      <Table.Td>
                        <TaskStatusBadge status={row.status} />
                      </Table.Td>
                      <Table.Td>{typeLabel(row.type)}</Table.Td>
                      <Table.Td style={{ overflowWrap: "anywhere" }}>
                        <TaskRelated task={row} empty="—" />
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: "anywhere" }}>{row.owner_name ?? "—"}</Table.Td>
                      {listedCustom.map((column) => (
                        <Table.Td key={column.key} style={{ overflowWrap: "anywhere" }}>
                          {column.render?.(row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <ListPagination pages={recordPageCount(total, PAGE_SIZE)} page={page} onChange={setPage} />
        </Stack>
      )}
    </Stack>
  );
}
