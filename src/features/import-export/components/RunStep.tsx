import { Alert, Button, Group, Loader, Modal, Progress, Stack, Text } from "@mantine/core";
import { IconPlayerPlay, IconPlayerStop } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatCount } from "@/lib/format.ts";
import type { RunState } from "./useImportRun.ts";

interface Props {
  state: RunState;
  onStop(): void;
  onRetry(): void;
  /** Back to the preview, when the import could not even start. */
  onBack(): void;
}

/** Step 4: the batches going in, "12.000 / 100.000 satır", retries after a lost connection, a confirmed stop. */
export function RunStep({ state, onStop, onRetry, onBack }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const [confirming, setConfirming] = useState(false);
  const { phase } = state;
  const moving = phase === "starting" || phase === "running" || phase === "retrying" || phase === "collecting";
  const ending = phase === "stopping" || phase === "finishing";
  const started = state.importId !== null;

  const status = (() => {
    switch (phase) {
      case "starting":
        return t("modules.importExport.run.starting");
      case "retrying":
        return t("modules.importExport.retrying", { attempt: state.attempt ?? 1 });
      case "collecting":
        return t("modules.importExport.run.collecting");
      case "stopping":
        return t("modules.importExport.run.stopping");
      case "finishing":
        return t("modules.importExport.run.finishing");
      default:
        return t("modules.importExport.run.running");
    }
  })();

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Group justify="space-between" gap="sm">
          <Text fw={600} aria-live="polite">
            {t("modules.importExport.run.progress", { done: formatCount(state.done, language), total: formatCount(state.total, language) })}
          </Text>
          {(moving || ending) && (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                {status}
              </Text>
            </Group>
          )}
        </Group>
        <Progress
          value={state.total === 0 ? 0 : (state.done / state.total) * 100}
          aria-label={t("modules.importExport.run.progressLabel")}
          animated={moving}
          size="lg"
        />
      </Stack>

      {moving && <Text size="sm" c="dimmed">{t("modules.importExport.run.leaveNote")}</Text>}

      {phase === "paused" && (
        <Alert color="yellow" role="alert" title={t("modules.importExport.run.pausedTitle")}>
          {t("modules.importExport.run.paused")}
        </Alert>
      )}
      {phase === "failed" && state.errorKey && (
        <Alert color="red" role="alert" title={t(started ? "modules.importExport.run.failedTitle" : "modules.importExport.run.startFailed")}>
          {t(state.errorKey)}
        </Alert>
      )}

      <Group justify="flex-end" gap="sm">
        {!started && phase === "failed" && (
          <Button variant="default" onClick={onBack}>
            {t("modules.importExport.back")}
          </Button>
        )}
        {started && (phase === "paused" || phase === "failed") && (
          <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={onRetry}>
            {t("modules.importExport.run.continue")}
          </Button>
        )}
        {started && phase !== "finished" && (
          <Button
            variant="default"
            color="red"
            leftSection={<IconPlayerStop size={16} aria-hidden />}
            onClick={() => setConfirming(true)}
            disabled={ending}
          >
            {t("modules.importExport.run.stop")}
          </Button>
        )}
      </Group>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t("modules.importExport.run.stopTitle")}>
        <Stack gap="md">
          <Text>{t("modules.importExport.run.stopConfirm")}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t("modules.importExport.run.keepGoing")}
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirming(false);
                onStop();
              }}
            >
              {t("modules.importExport.run.stop")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
