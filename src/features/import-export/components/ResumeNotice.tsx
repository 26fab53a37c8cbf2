import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { IconPlayerPlay } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { forgetRunningImport, readRunningImport } from "@/lib/browser-storage.ts";
import { formatCount, formatDateTime } from "@/lib/format.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useAbandonImport, useImports, type ImportRecord } from "../api/imports.ts";
import { importKind } from "../kinds.ts";
import { importFailureKey } from "../utils/import-errors.ts";

interface Props {
  onResume(record: ImportRecord): void;
}

/**
 * An import of this user that never finished (a closed tab, a lost connection): offered to
 * continue (the same file is asked for again) or to be ended where it stopped. The one this
 * browser was running comes first.
 */
export function ResumeNotice({ onResume }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const session = useSignedInSession();
  const imports = useImports(null);
  const abandon = useAbandonImport();
  const [confirming, setConfirming] = useState(false);
  const stored = readRunningImport(session.user.id);
  const running = (imports.data ?? []).filter((entry) => entry.status === "running" && entry.created_by === session.user.id);
  const target = running.find((entry) => entry.id === stored) ?? running[0];
  const storedEnded = imports.isSuccess && stored !== null && !running.some((entry) => entry.id === stored);
  // The import this browser was running has ended meanwhile (elsewhere, or by another tab): nothing to remember.
  useEffect(() => {
    if (storedEnded) forgetRunningImport();
  }, [storedEnded]);
  if (!target) return null;

  const processed = target.created + target.updated + target.skipped + target.failed;
  const end = () =>
    abandon.mutate(target, {
      onSuccess: () => {
        if (stored === target.id) forgetRunningImport();
        setConfirming(false);
        notifySuccess(t("modules.importExport.resume.abandoned"));
      },
      onError: (error) => notifyFailure(t("modules.importExport.resume.abandonFailed"), t(importFailureKey(error))),
    });

  return (
    <Alert color="blue" title={t("modules.importExport.resume.title")}>
      <Stack gap="sm">
        <Text size="sm">
          {t("modules.importExport.resume.description", {
            file: target.file_name,
            kind: t(importKind(target.kind).label),
            date: formatDateTime(target.created_at, language),
            done: formatCount(processed, language),
            total: formatCount(target.total_rows, language),
          })}
        </Text>
        <Group gap="sm">
          <Button size="xs" leftSection={<IconPlayerPlay size={14} aria-hidden />} onClick={() => onResume(target)}>
            {t("modules.importExport.resume.continue")}
          </Button>
          <Button size="xs" variant="default" onClick={() => setConfirming(true)}>
            {t("modules.importExport.resume.abandon")}
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t("modules.importExport.resume.abandonTitle")}>
        <Stack gap="md">
          <Text>{t("modules.importExport.resume.abandonConfirm", { file: target.file_name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t("modules.importExport.cancel")}
            </Button>
            <Button color="red" loading={abandon.isPending} onClick={end}>
              {t("modules.importExport.resume.abandon")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}
