import { Button, Group, Paper, Stack, Text } from "@mantine/core";
import { IconRestore } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { formatDateTime } from "@/lib/format.ts";
import { DELETED_PAGE_SIZE, useDeletedDocuments, useRestoreDocuments, type DeletedDocumentRow } from "./document-api.ts";
import { documentFailureKey, formatFileSize } from "./document-files.ts";
import { documentLinkFilter, type DocumentLinkModule } from "./document-links.ts";

interface Props {
  /** Only documents of this module's records (with recordId: of that record). */
  module?: DocumentLinkModule | "";
  recordId?: string | null;
  /** The list's accessible name. */
  label: string;
}

/**
 * Deleted documents the member may restore (the delete permission: all, or their own), newest
 * change first, each with when it was deleted and a restore button. Their files were kept, so
 * a restored document is whole again. For /documents (Silinenler) and a record's panel.
 */
export function DeletedDocuments({ module, recordId, label }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const deleted = useDeletedDocuments(documentLinkFilter(module, recordId));
  const restore = useRestoreDocuments();

  const onRestore = (document: DeletedDocumentRow) =>
    restore.mutate([document.id], {
      onSuccess: () => notifySuccess(t("documentKit.restored", { title: document.title })),
      onError: (error) => notifyFailure(t("documentKit.restoreFailed"), t(documentFailureKey(error))),
    });

  if (deleted.isPending) return <LoadingScreen compact />;
  if (deleted.isError) return <LoadError title={t("documentKit.trash.loadError")} onRetry={() => void deleted.refetch()} />;
  const documents = deleted.data.records;
  if (documents.length === 0) return <Text c="dimmed">{t("documentKit.trash.empty")}</Text>;
  return (
    <Stack gap="xs">
      {deleted.data.total > DELETED_PAGE_SIZE && (
        <Text size="sm" c="dimmed">
          {t("documentKit.trash.newest", { count: DELETED_PAGE_SIZE, total: deleted.data.total })}
        </Text>
      )}
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: "none" }} aria-label={label}>
        {documents.map((document) => (
          <Paper component="li" key={document.id} withBorder p="sm">
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Stack gap={2} style={{ minWidth: 0, flex: "1 1 14rem" }}>
                <Text fw={600} style={{ overflowWrap: "anywhere" }}>
                  {document.title}
                </Text>
                <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                  {[
                    document.file_name ?? "—",
                    formatFileSize(document.size_bytes, language),
                    t("documentKit.trash.deletedAt", { date: formatDateTime(document.deleted_at, language) }),
                  ].join(" · ")}
                </Text>
              </Stack>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRestore size={14} aria-hidden />}
                loading={restore.isPending && restore.variables.includes(document.id)}
                onClick={() => onRestore(document)}
                aria-label={t("documentKit.trash.restoreNamed", { title: document.title })}
              >
                {t("documentKit.trash.restore")}
              </Button>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
