import { Button, Stack, Text } from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import type { RecordTab } from "@/components/records/RecordDetailLayout.tsx";
import { countedLabel } from "@/components/records/related-records.ts";
import { formatCount } from "@/lib/format.ts";
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

/**
 * A record's documents as a tab of its page, labelled with their count ("Belgeler (2)", the
 * list the panel shows); none for whoever may not view documents.
 */
export function useRecordDocumentsTab(module: DocumentLinkModule, recordId: string, label?: string): RecordTab | null {
  const { t, i18n } = useTranslation();
  const access = useDocumentAccess();
  const documents = useRecordDocuments(module, recordId, access.known && access.canView);
  if (!access.known || !access.canView) return null;
  const count = documents.data ? { total: documents.data.length, total_exact: true } : undefined;
  return {
    value: "documents",
    label: countedLabel(t("modules.documents.title"), count, (value) => formatCount(value, i18n.resolvedLanguage)),
    content: <RecordDocuments module={module} recordId={recordId} label={label} />,
  };
}
