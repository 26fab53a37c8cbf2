import { Badge, Button, Group, Modal, Paper, Select, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconArrowBackUp, IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatFileSize } from "@/components/documents/document-files.ts";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { formatCount, formatDateTime } from "@/lib/format.ts";
import type { MyPermissions } from "@/modules/permissions.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useImports, useRevertImport, type ImportRecord, type ImportStatus } from "../api/imports.ts";
import { importKind, importsEverything, type ImportKind } from "../kinds.ts";
import { revertFailureMessage } from "../utils/import-errors.ts";

const statusColors: Record<ImportStatus, string> = { running: "blue", completed: "green", cancelled: "yellow", reverted: "gray" };

interface Props {
  kinds: readonly ImportKind[];
  permissions: MyPermissions["permissions"];
}

/**
 * The imports the user may see, newest first (who, when, kind, file, mode, counts, status),
 * filtered by kind; a finished import can be reverted (confirmed) by its creator or by
 * whoever imports that kind with scope all, and is refused with a clear message once its
 * records were changed since.
 */
export function ImportHistory({ kinds, permissions }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const session = useSignedInSession();
  const [kind, setKind] = useState<ImportKind | null>(null);
  const imports = useImports(kind);
  const revert = useRevertImport();
  const [reverting, setReverting] = useState<ImportRecord | null>(null);
  const narrow = useMediaQuery("(max-width: 48em)") ?? false;

  const mayRevert = (entry: ImportRecord) =>
    (entry.status === "completed" || entry.status === "cancelled") &&
    entry.created + entry.updated > 0 &&
    (entry.created_by === session.user.id || importsEverything(permissions, entry.kind));

  const confirmRevert = () => {
    if (!reverting) return;
    revert.mutate(reverting, {
      onSuccess: ({ deleted, restored }) => {
        notifySuccess(t("modules.importExport.history.reverted", { deleted: formatCount(deleted, language), restored: formatCount(restored, language) }));
        setReverting(null);
      },
      onError: (error) => {
        notifyFailure(t("modules.importExport.history.revertFailed"), revertFailureMessage(t, error));
        setReverting(null);
      },
    });
  };

  const counts = (entry: ImportRecord) =>
    t("modules.importExport.history.counts", {
      created: formatCount(entry.created, language),
      updated: formatCount(entry.updated, language),
      skipped: formatCount(entry.skipped, language),
      failed: formatCount(entry.failed, language),
    });
  const who = (entry: ImportRecord) => entry.created_by_name ?? t("modules.importExport.history.someone");
  const when = (entry: ImportRecord) => formatDateTime(entry.created_at, language);
  const statusBadge = (entry: ImportRecord) => (
    <Badge variant="light" color={statusColors[entry.status]}>
      {t(`modules.importExport.history.statuses.${entry.status}`)}
    </Badge>
  );
  const revertButton = (entry: ImportRecord) =>
    mayRevert(entry) && (
      <Button
        size="xs"
        variant="default"
        leftSection={<IconArrowBackUp size={14} aria-hidden />}
        onClick={() => setReverting(entry)}
        aria-label={t("modules.importExport.history.revertLabel", { file: entry.file_name, date: when(entry) })}
      >
        {t("modules.importExport.history.revert")}
      </Button>
    );
  const fileCell = (entry: ImportRecord) => (
    <Stack gap={0}>
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {entry.file_name}
      </Text>
      <Text size="xs" c="dimmed">
        {t("modules.importExport.history.fileDetails", { size: formatFileSize(entry.file_size, language), rows: formatCount(entry.total_rows, language) })}
      </Text>
    </Stack>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Select
          label={t("modules.importExport.history.kind")}
          data={[{ value: "", label: t("modules.importExport.history.allKinds") }, ...kinds.map((value) => ({ value, label: t(importKind(value).label) }))]}
          value={kind ?? ""}
          onChange={(value) => setKind((value || null) as ImportKind | null)}
          allowDeselect={false}
          w={{ base: "100%", xs: 220 }}
        />
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void imports.refetch()} loading={imports.isFetching}>
          {t("modules.importExport.history.refresh")}
        </Button>
      </Group>

      {imports.isPending && <LoadingScreen compact />}
      {imports.isError && <LoadError title={t("modules.importExport.history.loadError")} onRetry={() => void imports.refetch()} />}
      {imports.isSuccess && imports.data.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {t("modules.importExport.history.empty")}
        </Text>
      )}
      {imports.isSuccess && imports.data.length > 0 && narrow && (
        <Stack gap="sm" role="list" aria-label={t("modules.importExport.history.tableLabel")}>
          {imports.data.map((entry) => (
            <Paper key={entry.id} withBorder p="sm" role="listitem">
              <Stack gap={6}>
                <Group justify="space-between" gap="xs">
                  <Text fw={600}>{t(importKind(entry.kind).label)}</Text>
                  {statusBadge(entry)}
                </Group>
                {fileCell(entry)}
                <Text size="sm">{counts(entry)}</Text>
                <Text size="xs" c="dimmed">
                  {`${when(entry)} · ${who(entry)} · ${t(`modules.importExport.modes.${entry.mode}`)}`}
                </Text>
                <Group>{revertButton(entry)}</Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      {imports.isSuccess && imports.data.length > 0 && !narrow && (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="xs" aria-label={t("modules.importExport.history.tableLabel")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("modules.importExport.history.columns.when")}</Table.Th>
                  <Table.Th>{t("modules.importExport.history.columns.who")}</Table.Th>
                  <Table.Th>{t("modules.importExport.history.columns.kind")}</Table.Th>
                  <Table.Th>{t("modules.importExport.history.columns.file")}</Table.Th>
                  <Table.Th>{t("modules.importExport.history.columns.mode")}</Table.Th>
                  <Table.Th>{t("modules.importExport.history.columns.counts")}</Table.Th>
                  <Table.Th>{t("modules.importExport.history.columns.status")}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t("modules.importExport.history.columns.actions")}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {imports.data.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{when(entry)}</Table.Td>
                    <Table.Td>{who(entry)}</Table.Td>
                    <Table.Td>{t(importKind(entry.kind).label)}</Table.Td>
                    <Table.Td>{fileCell(entry)}</Table.Td>
                    <Table.Td>{t(`modules.importExport.modes.${entry.mode}`)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{counts(entry)}</Text>
                    </Table.Td>
                    <Table.Td>{statusBadge(entry)}</Table.Td>
                    <Table.Td>{revertButton(entry)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}

      <Modal opened={reverting !== null} onClose={() => setReverting(null)} title={t("modules.importExport.history.revertTitle")}>
        {reverting && (
          <Stack gap="md">
            <Text>
              {t("modules.importExport.history.revertConfirm", {
                file: reverting.file_name,
                created: formatCount(reverting.created, language),
                updated: formatCount(reverting.updated, language),
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t("modules.importExport.history.revertNote")}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setReverting(null)}>
                {t("modules.importExport.cancel")}
              </Button>
              <Button color="red" loading={revert.isPending} onClick={confirmRevert}>
                {t("modules.importExport.history.revert")}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
