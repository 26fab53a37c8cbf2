import {
  Button,
  Checkbox,
  Collapse,
  EmptyState,
  Group,
  Paper,
  Popover,
  NativeSelect,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useDebouncedCallback, useMediaQuery } from "@mantine/hooks";
import { IconColumns, IconFilter } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ListPagination } from "@/components/ListPagination.tsx";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { SearchField } from "@/components/SearchField.tsx";
import { SortableHeader } from "@/components/SortableHeader.tsx";
import { RpcError } from "@/lib/rpc.ts";
import { ModuleDenied } from "@/modules/ModuleDenied.tsx";
import { useModuleDeclarations } from "./custom-fields/custom-fields.ts";
import { withDeclaredFields } from "./custom-fields/list-cells.ts";
import { useRecordList, type RecordBase } from "./record-api.ts";
import type { RecordColumn, RecordListConfig, RecordListSpec } from "./record-config.ts";
import { filterQueries, recordListArgs, recordPageCount, TOTAL_CAP, type KnownKeys, type RecordListState } from "./record-list-state.ts";
import { RangeFilter } from "./RangeFilter.tsx";
import { MergeRecordsModal } from "./MergeRecordsModal.tsx";
import { RecordBulkBar } from "./RecordBulkBar.tsx";
import { RecordExportButton } from "./RecordExportButton.tsx";
import { RecordPicker } from "./RecordPicker.tsx";
import { SavedViewsMenu } from "./SavedViewsMenu.tsx";

const SEARCH_DEBOUNCE_MS = 300;
const DEFAULT_PAGE_SIZE = 25;

/**
 * A module's list page from its spec and the module's declarations (custom-fields/list-cells.ts):
 * the declared columns' labels and sorts, the declared filters' options, and the organization's
 * custom fields as further columns and filters. The list starts once they are read, so its
 * default columns and the saved views it applies know them; a refusal to read them is the
 * list's own (the module is not the user's), any other failure its load error.
 */
export function RecordListPage<Row extends RecordBase>({ config }: { config: RecordListSpec<Row> }) {
  const { t, i18n } = useTranslation();
  const declarations = useModuleDeclarations(config.module);
  if (declarations.isPending) return <LoadingScreen compact />;
  if (declarations.isError) {
    const error = declarations.error;
    if (error instanceof RpcError && error.code === "permission_denied") return <ModuleDenied module={config.module} />;
    return <LoadError title={config.loadError} onRetry={() => void declarations.refetch()} />;
  }
  const words = { yes: t("common.yes"), no: t("common.no"), filled: t("records.list.filled"), empty: t("records.list.empty") };
  return <RecordList config={withDeclaredFields(config, declarations.data, { language: i18n.resolvedLanguage, t }, words)} />;
}

/**
 * A module's list: search (debounced), filters, sortable headers, column choice, saved
 * views, export (the view or everything, for whoever may export), row selection with bulk
 * actions, pages, and the loading, empty, error and denied states. On a phone the rows
 * become cards, so nothing scrolls sideways, and the filters fold behind one button, so the
 * first screen shows records.
 */
function RecordList<Row extends RecordBase>({ config }: { config: RecordListConfig<Row> }) {
  const { t, i18n } = useTranslation();
  const pageSize = config.pageSize ?? DEFAULT_PAGE_SIZE;
  const [initial] = useState<RecordListState>(() => ({
    search: "",
    filters: {},
    sort: config.defaultSort,
    descending: config.defaultDescending,
    page: 1,
    columns: config.columns.filter((column) => !column.hidden).map((column) => column.key),
  }));
  const [state, setState] = useState<RecordListState>(initial);
  const [searchInput, setSearchInput] = useState("");
  const [selected, setSelected] = useState<Map<string, Row>>(new Map());
  const [merging, setMerging] = useState<readonly [string, string] | null>(null);
  const narrow = useMediaQuery("(max-width: 48em)") ?? false;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const args = recordListArgs(state, pageSize, { ...config.definingFilters, ...config.baseFilters }, filterQueries(config.filters));
  const known: KnownKeys = {
    columns: new Set(config.columns.map((column) => column.key)),
    filters: new Set(config.filters.map((filter) => filter.key)),
    sorts: new Set(config.columns.flatMap((column) => (column.sort ? [column.sort] : []))),
  };
  const list = useRecordList(config.module, config.row, args);

  const applySearch = useDebouncedCallback((search: string) => {
    setState((current) => (current.search === search ? current : { ...current, search, page: 1 }));
  }, SEARCH_DEBOUNCE_MS);
  const onSearch = (search: string) => {
    setSearchInput(search);
    applySearch(search);
  };
  const applyState = (next: RecordListState) => {
    setState(next);
    setSearchInput(next.search);
  };
  const clearSelection = () => setSelected(new Map());

  if (list.error instanceof RpcError && list.error.code === "permission_denied") return <ModuleDenied module={config.module} />;

  const rows = (list.data?.records ?? []) as Row[];
  const total = list.data?.total ?? 0;
  const narrowed =
    state.search.trim() !== "" ||
    Object.values(state.filters).some((value) => value !== "") ||
    Object.keys(config.baseFilters ?? {}).length > 0;
  const [titleColumn, ...otherColumns] = config.columns;
  const shown = otherColumns.filter((column) => state.columns.includes(column.key));
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const toggle = (row: Row) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row);
      return next;
    });
  const toggleAll = () =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (allSelected) next.delete(row.id);
        else next.set(row.id, row);
      }
      return next;
    });
  const cell = (column: RecordColumn<Row>, row: Row) => {
    if (column.render) return column.render(row);
    const value = row[column.key];
    if (value === null || value === undefined || value === "") return "—";
    if (typeof value === "boolean") return t(value ? "common.yes" : "common.no");
    if (column.key === "created_at" || column.key === "updated_at") {
      return new Intl.DateTimeFormat(i18n.resolvedLanguage === "en" ? "en-GB" : "tr-TR", { dateStyle: "medium" }).format(
        new Date(String(value)),
      );
    }
    return Array.isArray(value) ? value.join(", ") : String(value);
  };
  const capped = list.data?.total_exact === false;
  const count = new Intl.NumberFormat(i18n.resolvedLanguage === "en" ? "en-GB" : "tr-TR").format(capped ? TOTAL_CAP : total);
  const exportButton = (
    <RecordExportButton
      module={config.module}
      row={config.row}
      title={config.title}
      source={{
        columns: config.columns,
        view: { search: args.p_search, filters: args.p_filters, sort: state.sort, descending: state.descending, columns: state.columns },
        definingFilters: config.definingFilters,
      }}
    />
  );
  const totalText = config.totalText
    ? config.totalText(count, capped)
    : t(capped ? "records.list.totalCapped" : "records.list.total", { count });

  const activeFilters = config.filters.filter((filter) => (state.filters[filter.key] ?? "") !== "").length;
  const filtersId = `${config.module}-list-filters`;
  const filterControls = (
    <>
      {config.filters.map((filter) =>
        "range" in filter ? (
          <RangeFilter
            key={filter.key}
            filter={filter}
            value={state.filters[filter.key] ?? ""}
            onChange={(value) =>
              setState((current) => ({ ...current, filters: { ...current.filters, [filter.key]: value }, page: 1 }))
            }
          />
        ) : "picker" in filter ? (
          <RecordPicker
            key={filter.key}
            {...filter.picker}
            label={filter.label}
            placeholder={t("records.list.filterPick")}
            nothingFound={t("records.list.filterNothing")}
            value={state.filters[filter.key] || null}
            onChange={(value) =>
              setState((current) => ({ ...current, filters: { ...current.filters, [filter.key]: value ?? "" }, page: 1 }))
            }
            w={{ base: "100%", xs: 220 }}
          />
        ) : (
          <NativeSelect
            key={filter.key}
            label={filter.label}
            data={[{ value: "", label: t("records.list.filterAll") }, ...filter.options]}
            value={state.filters[filter.key] ?? ""}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setState((current) => ({ ...current, filters: { ...current.filters, [filter.key]: value }, page: 1 }));
            }}
            w={{ base: "100%", xs: 160 }}
          />
        ),
      )}
      <Group gap="xs">
        <ColumnChooser columns={otherColumns} chosen={state.columns} onChange={(columns) => setState((current) => ({ ...current, columns }))} />
        <SavedViewsMenu module={config.module} state={state} initial={initial} known={known} onApply={applyState} />
        {config.headless && exportButton}
      </Group>
    </>
  );

  return (
    <Stack gap="lg">
      {!config.headless && (
        <Group justify="space-between" align="flex-start" gap="sm" wrap={narrow ? "wrap" : "nowrap"}>
          <Stack gap={4} style={{ minWidth: 0, flex: "1 1 16rem" }}>
            <Title order={1}>{config.title}</Title>
            <Text c="dimmed">{config.description}</Text>
          </Stack>
          <Group gap="sm">
            {exportButton}
            {config.actions}
          </Group>
        </Group>
      )}

      <Group align="flex-end" gap="sm" wrap="wrap">
        <SearchField label={t("records.list.search")} placeholder={config.searchPlaceholder} value={searchInput} onChange={onSearch} />
        {narrow ? (
          <Button
            variant="default"
            leftSection={<IconFilter size={16} aria-hidden />}
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {activeFilters > 0 ? t("records.list.filtersActive", { count: activeFilters }) : t("records.list.filters")}
          </Button>
        ) : (
          filterControls
        )}
      </Group>
      {narrow && (
        <Collapse expanded={filtersOpen} id={filtersId}>
          <Stack gap="sm">{filterControls}</Stack>
        </Collapse>
      )}

      {selected.size > 0 && (
        <RecordBulkBar
          module={config.module}
          rows={[...selected.values()]}
          statusField={config.statusField}
          onDone={clearSelection}
          onMerge={
            config.merge && selected.size === 2
              ? () => {
                  const [first, second] = [...selected.keys()];
                  setMerging([first, second]);
                  clearSelection();
                }
              : undefined
          }
        />
      )}
      {merging && config.merge && <MergeRecordsModal config={config.merge} ids={merging} onClose={() => setMerging(null)} />}

      {list.isPending && <LoadingScreen compact />}
      {list.isError && <LoadError title={config.loadError} onRetry={() => void list.refetch()} />}
      {list.isSuccess && total === 0 && !narrowed && (
        <EmptyState icon={config.icon} withIndicatorBackground py="xl">
          <EmptyState.Title order={2}>{config.emptyTitle}</EmptyState.Title>
          <EmptyState.Description>{config.emptyDescription}</EmptyState.Description>
        </EmptyState>
      )}
      {list.isSuccess && (total > 0 || narrowed) && (
        <Stack gap="sm">
          <Text size="sm" aria-live="polite">
            {totalText}
            {list.data.scope === "own" && ` · ${t("records.list.ownOnly")}`}
            {list.data.sorted_by !== state.sort && ` · ${t("records.list.broadSearch")}`}
          </Text>
          {rows.length === 0 ? (
            <Text>{config.noMatch ?? t("records.list.noMatch")}</Text>
          ) : narrow ? (
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label={config.listLabel}>
              {rows.map((row) => (
                <Paper component="li" key={row.id} withBorder p="sm">
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <Checkbox
                      aria-label={t("records.list.selectRow", { name: config.titleOf(row) })}
                      checked={selected.has(row.id)}
                      onChange={() => toggle(row)}
                    />
                    <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                      <Text component={Link} to={config.detailPath(row)} fw={600} c="blue" style={{ overflowWrap: "anywhere" }}>
                        {config.titleOf(row)}
                      </Text>
                      {shown.slice(0, 4).map((column) => (
                        <Text key={column.key} size="sm" style={{ overflowWrap: "anywhere" }}>
                          <Text span c="dimmed" size="sm">{column.label}: </Text>
                          {cell(column, row)}
                        </Text>
                      ))}
                    </Stack>
                  </Group>
                </Paper>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={640} type="native" tabIndex={0}>
              <Table striped highlightOnHover aria-label={config.listLabel}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>
                      <Checkbox aria-label={t("records.list.selectAll")} checked={allSelected} onChange={toggleAll} />
                    </Table.Th>
                    {[titleColumn, ...shown].map((column) =>
                      column.sort ? (
                        <SortableHeader
                          key={column.key}
                          column={column.sort}
                          label={column.label}
                          state={state}
                          onSort={(sort) =>
                            setState((current) =>
                              current.sort === sort
                                ? { ...current, descending: !current.descending, page: 1 }
                                : { ...current, sort, descending: sort.endsWith("_at"), page: 1 },
                            )
                          }
                        />
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
                      <Table.Td>
                        <Checkbox
                          aria-label={t("records.list.selectRow", { name: config.titleOf(row) })}
                          checked={selected.has(row.id)}
                          onChange={() => toggle(row)}
                        />
                      </Table.Td>
                      <Table.Td style={{ overflowWrap: "anywhere" }}>
                        <Text component={Link} to={config.detailPath(row)} size="sm" fw={600} c="blue">
                          {config.titleOf(row)}
                        </Text>
                      </Table.Td>
                      {shown.map((column) => (
                        <Table.Td key={column.key} style={{ overflowWrap: "anywhere" }}>
                          {cell(column, row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <ListPagination
            pages={recordPageCount(total, pageSize)}
            page={state.page}
            onChange={(page) => setState((current) => ({ ...current, page }))}
          />
        </Stack>
      )}
    </Stack>
  );
}

function ColumnChooser<Row>({ columns, chosen, onChange }: {
  columns: RecordColumn<Row>[];
  chosen: string[];
  onChange(columns: string[]): void;
}) {
  const { t } = useTranslation();
  return (
    <Popover position="bottom-end" withinPortal>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
          {t("records.list.columns")}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group
          label={t("records.list.columnsLabel")}
          value={chosen}
          onChange={(value) => onChange(columns.map((column) => column.key).filter((key) => value.includes(key)))}
        >
          <Stack gap="xs" mt="xs">
            {columns.map((column) => (
              <Checkbox key={column.key} value={column.key} label={column.label} />
            ))}
          </Stack>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}
