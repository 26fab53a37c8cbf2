import { Alert, Badge, Button, Group, Paper, Progress, Radio, Select, SimpleGrid, Stack, Switch, Table, Text, Title } from "@mantine/core";
import { IconPlayerPlay, IconPlayerStop, IconRefresh } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ListPagination } from "@/components/ListPagination.tsx";
import { formatCount } from "@/lib/format.ts";
import type { ParsedSheet } from "@/lib/spreadsheet/index.ts";
import type { ImportSettings, RowStatus } from "../api/imports.ts";
import { importModes, type ImportKindDefinition, type ImportMode, type MatchKey } from "../kinds.ts";
import type { BatchRange } from "../utils/batches.ts";
import { outcomeWords } from "../utils/import-errors.ts";
import { usableMatchKeys, type Mapping } from "../utils/mapping.ts";
import { columnOfError, countOutcomes, failedFirst, outcomeOf, type RowOutcome } from "../utils/outcomes.ts";
import { cellText, hasLocalProblem, mappedColumns, type PreparedRow } from "../utils/prepare-rows.ts";
import { useImportCheck } from "./useImportCheck.ts";

const PAGE_SIZE = 50;

const statusColors: Record<RowStatus, string> = {
  created: "green",
  updated: "blue",
  unchanged: "gray",
  skipped: "yellow",
  failed: "red",
};

interface Props {
  definition: ImportKindDefinition;
  sheet: ParsedSheet;
  mapping: Mapping;
  settings: ImportSettings;
  onSettings(settings: ImportSettings): void;
  rows: readonly PreparedRow[];
  plan: readonly BatchRange[];
  onBack(): void;
  onRun(): void;
}

/**
 * Step 3: the mode and the match key, then every row checked by the server's own rules
 * (check_import_rows, nothing written) on top of what the browser found: the counts, and the
 * rows 50 a page with the failed ones first, each bad cell marked with its message. Rows with
 * errors do not stop the import: they are left out and reported as failed.
 */
export function PreviewStep({ definition, sheet, mapping, settings, onSettings, rows, plan, onBack, onRun }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const check = useImportCheck();
  const [page, setPage] = useState(1);
  const [onlyFailed, setOnlyFailed] = useState(false);
  const usable = usableMatchKeys(definition, mapping);
  const needsKey = settings.mode !== "create";
  const keyMissing = needsKey && settings.matchKey === null;
  const { phase } = check.state;
  const checked = phase === "done";

  const change = (next: Partial<ImportSettings>) => {
    check.reset();
    setPage(1);
    onSettings({ ...settings, ...next });
  };

  const outcomes = useMemo(
    () => (checked ? rows.map((row) => outcomeOf(row, check.state.results.get(row.row))) : []),
    [checked, rows, check.state.results],
  );
  const counts = countOutcomes(outcomes);
  const order = useMemo(() => {
    const failedOrder = failedFirst(outcomes);
    return onlyFailed ? failedOrder.filter((index) => outcomes[index]?.status === "failed") : failedOrder;
  }, [outcomes, onlyFailed]);
  const pageIndexes = order.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const columns = mappedColumns(sheet.headers, mapping, definition);
  const columnOf = columnOfError(definition, mapping);
  const words = outcomeWords(t, definition);
  const sendable = rows.filter((row) => !hasLocalProblem(row)).length;
  const valid = rows.length - counts.failed;

  const cellProblems = (outcome: RowOutcome | undefined) => {
    const byColumn = new Map<string, string>();
    const rowLevel: string[] = [];
    if (!outcome) return { byColumn, rowLevel };
    if (outcome.reason) rowLevel.push(words.reason(outcome.reason, outcome.duplicateOf));
    for (const [key, code] of Object.entries(outcome.errors)) {
      const column = columnOf(key);
      if (column) byColumn.set(column, words.cellError(code));
      else rowLevel.push(`${words.fieldName(key)}: ${words.cellError(code)}`);
    }
    return { byColumn, rowLevel };
  };

  const modeLabel = (mode: ImportMode) => t(`modules.importExport.modes.${mode}`);
  const keyData = [
    ...(settings.mode === "create" ? [{ value: "", label: t("modules.importExport.preview.noMatchKey") }] : []),
    ...usable.map((key: MatchKey) => ({ value: key, label: t(`modules.importExport.matchKeys.${key}`) })),
  ];

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Radio.Group
          label={t("modules.importExport.preview.mode")}
          value={settings.mode}
          onChange={(value) => {
            const mode = value as ImportMode;
            change({ mode, matchKey: mode === "create" ? settings.matchKey : (settings.matchKey ?? usable[0] ?? null) });
          }}
        >
          <Stack gap="sm" mt="xs">
            {importModes.map((mode) => (
              <Radio key={mode} value={mode} label={modeLabel(mode)} description={t(`modules.importExport.modeHints.${mode}`)} />
            ))}
          </Stack>
        </Radio.Group>
        <Stack gap="xs">
          <Select
            label={t("modules.importExport.preview.matchKey")}
            description={t(needsKey ? "modules.importExport.preview.matchKeyRequired" : "modules.importExport.preview.matchKeyOptional")}
            data={keyData}
            value={settings.matchKey ?? ""}
            onChange={(value) => change({ matchKey: (value || null) as MatchKey | null })}
            allowDeselect={false}
            disabled={keyData.length === 0}
            error={keyMissing && usable.length > 0 ? t("modules.importExport.preview.chooseMatchKey") : undefined}
          />
          {needsKey && usable.length === 0 && (
            <Alert color="yellow" role="alert">
              {t("modules.importExport.preview.noUsableKey", {
                keys: definition.matchKeys.map((key) => t(`modules.importExport.matchKeys.${key}`)).join(", "),
              })}
            </Alert>
          )}
        </Stack>
      </SimpleGrid>

      {phase === "checking" ? (
        <Stack gap={4} role="status">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {check.state.attempt
                ? t("modules.importExport.retrying", { attempt: check.state.attempt })
                : t("modules.importExport.preview.checking", {
                    done: formatCount(check.state.checked, language),
                    total: formatCount(check.state.total, language),
                  })}
            </Text>
            <Button variant="default" size="xs" leftSection={<IconPlayerStop size={14} aria-hidden />} onClick={check.stop}>
              {t("modules.importExport.preview.stop")}
            </Button>
          </Group>
          <Progress
            value={check.state.total === 0 ? 0 : (check.state.checked / check.state.total) * 100}
            aria-label={t("modules.importExport.preview.progressLabel")}
          />
        </Stack>
      ) : (
        <Group gap="sm">
          <Button variant="default" onClick={onBack}>
            {t("modules.importExport.back")}
          </Button>
          <Button
            variant={checked ? "default" : "filled"}
            leftSection={<IconRefresh size={16} aria-hidden />}
            disabled={keyMissing}
            onClick={() => void check.start(settings, rows, plan)}
          >
            {checked ? t("modules.importExport.preview.checkAgain") : t("modules.importExport.preview.check")}
          </Button>
        </Group>
      )}
      {phase === "stopped" && <Alert color="yellow">{t("modules.importExport.preview.stopped")}</Alert>}
      {phase === "failed" && check.state.errorKey && (
        <Alert color="red" role="alert" title={t("modules.importExport.preview.checkFailed")}>
          {t(check.state.errorKey)}
        </Alert>
      )}

      {checked && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
            {(["created", "updated", "unchanged", "skipped", "failed"] as const).map((status) => (
              <Paper key={status} withBorder p="sm">
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {t(`modules.importExport.preview.counts.${status}`)}
                </Text>
                <Text fw={700} size="xl" c={status === "failed" && counts.failed > 0 ? "red" : undefined}>
                  {formatCount(counts[status], language)}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>

          {counts.failed > 0 && (
            <Alert color="yellow" title={t("modules.importExport.preview.failedTitle", { count: formatCount(counts.failed, language) })}>
              {t("modules.importExport.preview.failedNote")}
            </Alert>
          )}

          <Stack gap="sm">
            <Group justify="space-between" gap="sm">
              <Title order={2} size="h4">
                {t("modules.importExport.preview.rowsTitle")}
              </Title>
              <Switch
                label={t("modules.importExport.preview.onlyFailed")}
                checked={onlyFailed}
                onChange={(event) => {
                  setOnlyFailed(event.currentTarget.checked);
                  setPage(1);
                }}
                disabled={counts.failed === 0}
              />
            </Group>
            <Paper withBorder>
              <Table.ScrollContainer minWidth={Math.max(560, 200 + columns.length * 160)}>
                <Table verticalSpacing="xs" aria-label={t("modules.importExport.preview.tableLabel")}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={70}>{t("modules.importExport.preview.row")}</Table.Th>
                      <Table.Th w={200}>{t("modules.importExport.preview.status")}</Table.Th>
                      {columns.map(({ column }) => (
                        <Table.Th key={column}>{sheet.headers[column]}</Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {pageIndexes.map((index) => {
                      const row = rows[index];
                      const outcome = outcomes[index];
                      const { byColumn, rowLevel } = cellProblems(outcome);
                      return (
                        <Table.Tr key={row.row}>
                          <Table.Td>{formatCount(row.row, language)}</Table.Td>
                          <Table.Td>
                            <Stack gap={2}>
                              {outcome && (
                                <Badge variant="light" color={statusColors[outcome.status]}>
                                  {t(`modules.importExport.preview.statuses.${outcome.status}`)}
                                </Badge>
                              )}
                              {rowLevel.map((text) => (
                                <Text key={text} size="xs" c="red">
                                  {text}
                                </Text>
                              ))}
                            </Stack>
                          </Table.Td>
                          {columns.map(({ column }) => {
                            const header = sheet.headers[column];
                            const problem = byColumn.get(header);
                            return (
                              <Table.Td key={column} bg={problem ? "var(--mantine-color-red-light)" : undefined} aria-invalid={problem ? true : undefined}>
                                <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                                  {cellText(sheet.rows[row.index]?.[column]) || "—"}
                                </Text>
                                {problem && (
                                  <Text size="xs" c="red">
                                    {problem}
                                  </Text>
                                )}
                              </Table.Td>
                            );
                          })}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
            <ListPagination pages={Math.ceil(order.length / PAGE_SIZE)} page={page} onChange={setPage} />
          </Stack>

          <Group justify="flex-end" gap="sm">
            {valid === 0 ? (
              <Text c="dimmed">{t("modules.importExport.preview.nothingToImport")}</Text>
            ) : (
              <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={onRun} disabled={sendable === 0}>
                {counts.failed > 0
                  ? t("modules.importExport.preview.runValidOnly", { count: formatCount(valid, language) })
                  : t("modules.importExport.preview.run", { count: formatCount(valid, language) })}
              </Button>
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
