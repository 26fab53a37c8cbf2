import { Button, Stack, Text } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useRecordDocuments } from "./document-api.ts";
import type { DocumentLinkModule } from "./document-links.ts";
import { useDocumentAccess } from "./document-access.ts";
import { DeletedDocuments } from "./DeletedDocuments.tsx";
import { DocumentList } from "./DocumentList.tsx";
import { DocumentUploader } from "./DocumentUploader.tsx";

interface Props {
  /** The module of the record whose page shows the panel. */
  module: DocumentLinkModule;
  recordId: string;
  /** The list's accessible name; "Kaydın belgeleri" otherwise. */
  label?: string;
}

/**
 * A record's documents, for its detail page (customers, contacts, deals, quotes, contracts):
 * upload (drop or choose, with progress and cancel) for whoever may create documents, then the
 * list with download, preview, versions, a new version and delete with undo; for whoever may
 * delete documents, the record's deleted documents on request, to restore.
 */
export function RecordDocuments({ module, recordId, label }: Props) {
  const { t } = useTranslation();
  const access = useDocumentAccess();
  const documents = useRecordDocuments(module, recordId, access.canView);
  const [showDeleted, setShowDeleted] = useState(false);

  if (!access.canView) return <Text c="dimmed">{t("documentKit.denied")}</Text>;
  return (
    <Stack gap="md">
      {access.canCreate && <DocumentUploader link={{ module, recordId }} />}
      {documents.isPending ? (
        <LoadingScreen compact />
      ) : documents.isError ? (
        <LoadError title={t("documentKit.loadError")} onRetry={() => void documents.refetch()} />
      ) : (
        <>
          {documents.data.length === 0 && <Text c="dimmed">{t("documentKit.empty")}</Text>}
          <DocumentList documents={documents.data} label={label ?? t("documentKit.panelLabel")} />
        </>
      )}
      {access.canRestore && (
        <Stack gap="xs">
          <Button size="xs" variant="subtle" color="gray" style={{ alignSelf: "flex-start" }}
            leftSection={<IconTrash size={14} aria-hidden />} aria-expanded={showDeleted}
            onClick={() => setShowDeleted((shown) => !shown)}>
            {showDeleted ? t("documentKit.trash.hide") : t("documentKit.trash.show")}
          </Button>
          {showDeleted && <DeletedDocuments module={module} recordId={recordId} label={t("documentKit.trash.label")} />}
        </Stack>
      )}
    </Stack>
  );
}
