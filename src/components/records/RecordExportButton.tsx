import { Alert, Button, Group, Menu, Modal, Progress, Stack, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { Fragment, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { downloadBlob } from "@/lib/download-blob.ts";
import { failureKey } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { fetchExportPage, type RecordBase } from "./record-api.ts";
import {
  EXPORT_ROW_LIMIT,
  exportFileName,
  exportPlan,
  exportTable,
  fetchExportRows,
  writeExport,
  type ExportFormat,
  type ExportKind,
  type ExportProgress,
  type RecordExportSource,
} from "./record-export.ts";

interface Props<Row extends RecordBase> {
  module: ModuleKey;
  row: z.ZodType<Row>;
  /** The module's title: the file's name ("musteriler-2026-11-23.xlsx") and its sheet's. */
  title: string;
  source: RecordExportSource<Row>;
}

interface Running {
  controller: AbortController;
  progress: ExportProgress | null;
  writing: boolean;
}

const kinds: ExportKind[] = ["view", "all"];
const formats: ExportFormat[] = ["xlsx", "csv"];

/**
 * The list's export menu, for whoever may export the module: the view (its search, filters,
 * order and columns) or everything the user may see, as Excel or CSV. Rows come page by
 * page with a progress bar and a cancel button; the file is written and downloaded only
 * once every row is in, so a failed or cancelled export leaves no half-made file.
 */
export function RecordExportButton<Row extends RecordBase>({ module, row, title, source }: Props<Row>) {
  const { t, i18n } = useTranslation();
  const permissions = useMyPermissions();
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  const [running, setRunning] = useState<Running | null>(null);
  const current = useRef<AbortController | null>(null);
  // Leaving the page stops the export: its file would otherwise arrive on another page.
  useEffect(() => () => current.current?.abort(), []);

  if (permissions.data?.permissions[module]?.export === undefined) return null;

  const number = (value: number) => new Intl.NumberFormat(i18n.resolvedLanguage === "en" ? "en-GB" : "tr-TR").format(value);
  const update = (controller: AbortController, change: Partial<Running>) =>
    setRunning((state) => (state?.controller === controller ? { ...state, ...change } : state));

  const run = async (kind: ExportKind, format: ExportFormat) => {
    const controller = new AbortController();
    current.current = controller;
    setRunning({ controller, progress: null, writing: false });
    try {
      const plan = exportPlan(source, kind);
      const { rows, capped } = await fetchExportRows(module, plan.query, fetchExportPage(row), {
        signal: controller.signal,
        onProgress: (progress) => update(controller, { progress }),
      });
      update(controller, { writing: true });
      const blob = await writeExport(format, exportTable(plan.columns, rows), title);
      controller.signal.throwIfAborted();
      downloadBlob(blob, exportFileName(title, format, new Date()));
      notifySuccess(capped ? t("records.export.doneCapped", { count: number(rows.length) }) : t("records.export.done", { count: number(rows.length) }));
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof RpcError && error.code === "permission_denied") {
        void queryClient.invalidateQueries({ queryKey: queryKeys.modulePermissions(scope.sessionUserId) });
      }
      notifyFailure(t("records.export.failed"), t(failureKey(error, "records.export.errors", ["permission_denied", "invalid_input"])));
    } finally {
      setRunning((state) => (state?.controller === controller ? null : state));
    }
  };
  const cancel = () => {
    if (!running) return;
    running.controller.abort();
    setRunning(null);
  };

  const progress = running?.progress;
  const expected = progress?.expected ?? null;
  // Without a known total the bar runs full and animated.
  const percent = expected && !running?.writing ? Math.min(100, Math.round(((progress?.fetched ?? 0) / expected) * 100)) : 100;

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} disabled={running !== null}>
            {t("records.export.menu")}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {kinds.map((kind, index) => (
            <Fragment key={kind}>
              {index > 0 && <Menu.Divider />}
              <Menu.Label>{t(`records.export.${kind}`)}</Menu.Label>
              {formats.map((format) => (
                <Menu.Item
                  key={format}
                  aria-label={t("records.export.item", { what: t(`records.export.${kind}`), format: t(`records.export.${format}`) })}
                  onClick={() => void run(kind, format)}
                >
                  {t(`records.export.${format}`)}
                </Menu.Item>
              ))}
            </Fragment>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={running !== null}
        onClose={cancel}
        title={t("records.export.title")}
        closeOnClickOutside={false}
        closeButtonProps={{ "aria-label": t("records.export.cancel") }}
      >
        <Stack>
          {progress?.capped && <Alert color="yellow">{t("records.export.capped", { limit: number(EXPORT_ROW_LIMIT) })}</Alert>}
          <Progress value={percent} striped animated={expected === null && !running?.writing} aria-label={t("records.export.progressLabel")} />
          <Text size="sm" aria-live="polite">
            {running?.writing
              ? t("records.export.writing")
              : expected !== null
                ? t("records.export.progress", { done: number(progress?.fetched ?? 0), total: number(expected) })
                : t("records.export.progressOpen", { done: number(progress?.fetched ?? 0) })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={cancel}>
              {t("records.export.cancel")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
