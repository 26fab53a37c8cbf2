import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconDownload, IconHistory, IconPlus } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure } from "@/components/notify.ts";
import { downloadBlob } from "@/lib/download-blob.ts";
import { formatCount } from "@/lib/format.ts";
import { writeCsv, writeXlsxFile, type ParsedSheet } from "@/lib/spreadsheet/index.ts";
import type { ImportKindDefinition } from "../kinds.ts";
import { outcomeWords } from "../utils/import-errors.ts";
import type { Mapping } from "../utils/mapping.ts";
import { columnOfError, describeOutcome, failedRowsFileName, failedRowsTable, outcomeOf, type FailedRow } from "../utils/outcomes.ts";
import { hasLocalProblem } from "../utils/prepare-rows.ts";
import type { RunState } from "./useImportRun.ts";

interface Props {
  state: RunState;
  definition: ImportKindDefinition;
  sheet: ParsedSheet;
  fileName: string;
  mapping: Mapping;
  onNew(): void;
  onHistory(): void;
}

/**
 * Step 5: what the import did (the server's counts, plus the rows the browser kept back as
 * failed), and the failed rows as a file of the source's format with the original columns
 * and a last column of reasons, ready to be fixed and imported again.
 */
export function ResultStep({ state, definition, sheet, fileName, mapping, onNew, onHistory }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const [writing, setWriting] = useState(false);
  const record = state.record;

  const { failed, localFailed, serverFailedKnown } = useMemo(() => {
    const columnOf = columnOfError(definition, mapping);
    const words = outcomeWords(t, definition);
    const rows: FailedRow[] = [];
    let local = 0;
    let known = 0;
    for (const batch of state.plan) {
      if (!state.applied.has(batch.number)) continue;
      for (const row of state.rows.slice(batch.start, batch.end)) {
        const outcome = outcomeOf(row, state.results.get(row.row));
        if (outcome?.status !== "failed") continue;
        if (hasLocalProblem(row)) local += 1;
        else known += 1;
        rows.push({ index: row.index, reasons: describeOutcome(outcome, columnOf, words) });
      }
    }
    return { failed: rows, localFailed: local, serverFailedKnown: known };
  }, [state, definition, mapping, t]);

  if (!record) return null;
  const failedTotal = record.failed + localFailed;
  const unlisted = Math.max(0, record.failed - serverFailedKnown);
  const format = sheet.encoding === "xlsx" ? "xlsx" : "csv";

  const download = async () => {
    setWriting(true);
    try {
      const table = failedRowsTable(sheet, failed, t("modules.importExport.result.errorColumn"));
      const blob =
        format === "xlsx"
          ? await writeXlsxFile(table.columns, table.rows, sheet.sheetName ?? t(definition.label))
          : writeCsv(table.columns, table.rows);
      downloadBlob(blob, failedRowsFileName(fileName, t("modules.importExport.result.fileSuffix"), format));
    } catch {
      notifyFailure(t("modules.importExport.result.downloadFailed"), t("modules.importExport.errors.unknown"));
    } finally {
      setWriting(false);
    }
  };

  const cards = [
    { key: "created", value: record.created },
    { key: "updated", value: record.updated },
    { key: "skipped", value: record.skipped },
    { key: "failed", value: failedTotal },
  ] as const;

  return (
    <Stack gap="md">
      <Alert color={state.cancelled ? "yellow" : failedTotal > 0 ? "orange" : "green"} title={t(state.cancelled ? "modules.importExport.result.cancelled" : "modules.importExport.result.completed")}>
        {t("modules.importExport.result.summary", {
          file: fileName,
          done: formatCount(state.done, language),
          total: formatCount(state.total, language),
        })}
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {cards.map(({ key, value }) => (
          <Paper key={key} withBorder p="sm">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t(`modules.importExport.result.counts.${key}`)}
            </Text>
            <Text fw={700} size="xl" c={key === "failed" && value > 0 ? "red" : undefined}>
              {formatCount(value, language)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>

      {failed.length > 0 && (
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Text size="sm">{t("modules.importExport.result.downloadHint", { column: t("modules.importExport.result.errorColumn") })}</Text>
            {unlisted > 0 && (
              <Text size="sm" c="dimmed">
                {t("modules.importExport.result.unlisted", { count: formatCount(unlisted, language) })}
              </Text>
            )}
            <Group>
              <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void download()} loading={writing}>
                {t(`modules.importExport.result.download.${format}`, { count: formatCount(failed.length, language) })}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}

      <Group justify="flex-end" gap="sm">
        <Button variant="default" leftSection={<IconHistory size={16} aria-hidden />} onClick={onHistory}>
          {t("modules.importExport.result.history")}
        </Button>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onNew}>
          {t("modules.importExport.result.new")}
        </Button>
      </Group>
    </Stack>
  );
}
