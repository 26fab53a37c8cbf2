import { Alert, Anchor, Button, Collapse, Group, Modal, Paper, Stack, Text } from "@mantine/core";
import { IconDownload, IconEye, IconHistory, IconTrash, IconUpload } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteRecords } from "@/components/records/record-api.ts";
import { formatDateTime } from "@/lib/format.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { documentDetailsQueryOptions, useRestoreDocuments, type DocumentRow, type DocumentVersion } from "./document-api.ts";
import { useDocumentAccess } from "./document-access.ts";
import { documentFailureKey, formatFileSize, previewKind } from "./document-files.ts";
import { DocumentPreview } from "./DocumentPreview.tsx";
import { DocumentUploader } from "./DocumentUploader.tsx";
import { DocumentVersions } from "./DocumentVersions.tsx";
import { useDownloadVersion } from "./use-download-version.ts";

/**
 * Documents as cards (they fit a phone): title (a link to the document's page), file, version,
 * size, who uploaded it and when; download, preview, the versions, a new version and delete,
 * each only where the role allows. A delete can be undone at once.
 */
export function DocumentList({ documents, label }: { documents: DocumentRow[]; label: string }) {
  const { t } = useTranslation();
  const remove = useDeleteRecords("documents");
  const restore = useRestoreDocuments();
  const [deleted, setDeleted] = useState<DocumentRow | null>(null);
  const [previewing, setPreviewing] = useState<DocumentVersion | null>(null);
  const [newVersionOf, setNewVersionOf] = useState<DocumentRow | null>(null);

  const onDelete = (document: DocumentRow) =>
    remove.mutate([document.id], {
      onSuccess: () => setDeleted(document),
      onError: (error) => notifyFailure(t("documentKit.deleteFailed"), t(documentFailureKey(error))),
    });
  const onUndo = (document: DocumentRow) =>
    restore.mutate([document.id], {
      onSuccess: () => {
        setDeleted(null);
        notifySuccess(t("documentKit.restored", { title: document.title }));
      },
      onError: (error) => notifyFailure(t("documentKit.restoreFailed"), t(documentFailureKey(error))),
    });

  return (
    <Stack gap="sm">
      {deleted && (
        <Alert color="gray" role="status" withCloseButton closeButtonLabel={t("documentKit.preview.close")} onClose={() => setDeleted(null)}>
          <Group gap="sm" justify="space-between" wrap="wrap">
            <Text size="sm" style={{ overflowWrap: "anywhere" }}>
              {t("documentKit.deleted", { title: deleted.title })}
            </Text>
            <Button size="xs" variant="light" loading={restore.isPending} onClick={() => onUndo(deleted)}>
              {t("documentKit.actions.undo")}
            </Button>
          </Group>
        </Alert>
      )}
      {documents.length > 0 && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: "none" }} aria-label={label}>
          {documents.map((document) => (
            <DocumentItem
              key={document.id}
              document={document}
              deleting={remove.isPending && remove.variables?.includes(document.id)}
              onDelete={() => onDelete(document)}
              onPreview={setPreviewing}
              onNewVersion={() => setNewVersionOf(document)}
            />
          ))}
        </Stack>
      )}
      <DocumentPreview version={previewing} onClose={() => setPreviewing(null)} />
      <Modal
        opened={newVersionOf !== null}
        onClose={() => setNewVersionOf(null)}
        title={newVersionOf ? t("documentKit.upload.newVersionTitle", { title: newVersionOf.title }) : ""}
        closeButtonProps={{ "aria-label": t("documentKit.preview.close") }}
      >
        {newVersionOf && (
          <DocumentUploader newVersionOf={newVersionOf} onUploaded={() => setNewVersionOf(null)} />
        )}
      </Modal>
    </Stack>
  );
}

interface ItemProps {
  document: DocumentRow;
  deleting: boolean | undefined;
  onDelete: () => void;
  onPreview: (version: DocumentVersion) => void;
  onNewVersion: () => void;
}

function DocumentItem({ document, deleting, onDelete, onPreview, onNewVersion }: ItemProps) {
  const { t, i18n } = useTranslation();
  const access = useDocumentAccess();
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  const { download, pending } = useDownloadVersion();
  const [showVersions, setShowVersions] = useState(false);
  const language = i18n.resolvedLanguage;
  const uploadedAt = document.uploaded_at ?? document.updated_at;

  /** The current version (its object path comes with the document's details). */
  const currentVersion = async () => {
    const details = await queryClient.fetchQuery(documentDetailsQueryOptions(scope, document.id));
    const version = details.versions.find((candidate) => candidate.version === details.document.current_version);
    if (!version) throw new Error("The document has no current version");
    return version;
  };
  const withCurrent = (use: (version: DocumentVersion) => void) => () =>
    void currentVersion()
      .then(use)
      .catch((error: unknown) => notifyFailure(t("documentKit.downloadFailed"), t(documentFailureKey(error))));

  return (
    <Paper component="li" withBorder p="sm">
      <Stack gap={6}>
        <Anchor component={Link} to={`/documents/${document.id}`} fw={600} style={{ overflowWrap: "anywhere" }}>
          {document.title}
        </Anchor>
        <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {[
            document.file_name,
            t("documentKit.version", { version: document.current_version }),
            formatFileSize(document.size_bytes, language),
            t("documentKit.uploadedBy", {
              name: document.uploaded_by_name ?? document.owner_name ?? "—",
              date: formatDateTime(uploadedAt, language),
            }),
          ].join(" · ")}
        </Text>
        <Group gap="xs" wrap="wrap" role="group" aria-label={t("documentKit.actions.label", { title: document.title })}>
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} aria-hidden />}
            loading={pending !== null} onClick={withCurrent(download)}>
            {t("documentKit.actions.download")}
          </Button>
          {previewKind(document.mime_type) && (
            <Button size="xs" variant="default" leftSection={<IconEye size={14} aria-hidden />} onClick={withCurrent(onPreview)}>
              {t("documentKit.actions.preview")}
            </Button>
          )}
          <Button size="xs" variant="default" leftSection={<IconHistory size={14} aria-hidden />}
            aria-expanded={showVersions} onClick={() => setShowVersions((shown) => !shown)}>
            {showVersions ? t("documentKit.actions.hideVersions") : t("documentKit.actions.versions")}
          </Button>
          {access.canEdit(document) && (
            <Button size="xs" variant="default" leftSection={<IconUpload size={14} aria-hidden />} onClick={onNewVersion}>
              {t("documentKit.upload.newVersion")}
            </Button>
          )}
          {access.canDelete(document) && (
            <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />}
              loading={deleting} onClick={onDelete}>
              {t("documentKit.actions.delete")}
            </Button>
          )}
        </Group>
        <Collapse expanded={showVersions}>
          {showVersions && <DocumentVersions documentId={document.id} title={document.title} onPreview={onPreview} />}
        </Collapse>
      </Stack>
    </Paper>
  );
}
