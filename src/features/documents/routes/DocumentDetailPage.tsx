import { Anchor, Button, Stack, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router-dom";
import { useDocumentDetails, type DocumentVersion } from "@/components/documents/document-api.ts";
import { useDocumentAccess } from "@/components/documents/document-access.ts";
import { documentFailureKey, formatFileSize, previewKind } from "@/components/documents/document-files.ts";
import { linkedRecordOf } from "@/components/documents/document-links.ts";
import { DocumentPreview, DocumentPreviewFrame } from "@/components/documents/DocumentPreview.tsx";
import { DocumentUploader } from "@/components/documents/DocumentUploader.tsx";
import { VersionTable } from "@/components/documents/DocumentVersions.tsx";
import { useDownloadVersion } from "@/components/documents/use-download-version.ts";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteRecords } from "@/components/records/record-api.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { CustomFieldsBlock } from "@/components/records/custom-fields/CustomFieldsBlock.tsx";
import { CustomFieldsFormModal } from "@/components/records/custom-fields/CustomFieldsFormModal.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { recordPath } from "@/modules/registry.ts";
import { RecordFieldGrid, RecordFieldItem } from "@/components/records/RecordFields.tsx";

/** One document: its versions (download any, upload a new one), a preview of the current one, and the record it belongs to. */
export function DocumentDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const details = useDocumentDetails(id);
  const access = useDocumentAccess();
  const remove = useDeleteRecords("documents");
  const { download, pending } = useDownloadVersion();
  const [previewing, setPreviewing] = useState<DocumentVersion | null>(null);
  const [editingCustom, setEditingCustom] = useState(false);

  if (!details.isSuccess) return <RecordUnavailable query={details} module="documents" />;
  const { document, versions } = details.data;
  const language = i18n.resolvedLanguage;
  const current = versions.find((version) => version.version === document.current_version) ?? versions[0];
  const linked = linkedRecordOf(document);
  const linkedPath = linked && recordPath(linked.module, linked.id);

  const fields: { label: string; value: ReactNode }[] = [
    { label: t("modules.documents.fields.file_name"), value: document.file_name },
    { label: t("modules.documents.fields.current_version"), value: document.current_version },
    { label: t("modules.documents.fields.size_bytes"), value: formatFileSize(document.size_bytes, language) },
    {
      label: t("modules.documents.fields.linked"),
      value:
        linked && linkedPath ? (
          <Anchor component={Link} to={linkedPath}>
            {t("modules.documents.detail.openRecord", { module: t(`modules.documents.linkedModules.${linked.module}`) })}
          </Anchor>
        ) : (
          t("modules.documents.detail.notLinked")
        ),
    },
    { label: t("modules.documents.fields.owner"), value: document.owner_name ?? "—" },
    { label: t("modules.documents.fields.created_at"), value: formatDateTime(document.created_at, language) },
    { label: t("modules.documents.fields.updated_at"), value: formatDateTime(document.updated_at, language) },
  ];

  return (
    <>
      <RecordDetailLayout
        record={{ module: "documents", ownerId: document.owner_id }}
        title={document.title}
        subtitle={
          <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {[document.file_name, t("documentKit.version", { version: document.current_version }), formatFileSize(document.size_bytes, language)].join(" · ")}
          </Text>
        }
        back={{ to: "/documents", label: t("modules.documents.backToList") }}
        extraActions={
          current && (
            <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} loading={pending !== null}
              onClick={() => download(current)}>
              {t("modules.documents.detail.download")}
            </Button>
          )
        }
        deleting={remove.isPending}
        onDelete={
          access.canDelete(document)
            ? () =>
                remove.mutate([document.id], {
                  onSuccess: () => {
                    notifySuccess(t("modules.documents.detail.deleted", { title: document.title }));
                    void navigate("/documents");
                  },
                  onError: (error) => notifyFailure(t("modules.documents.detail.deleteFailed"), t(documentFailureKey(error))),
                })
            : undefined
        }
        tabs={[
          {
            value: "versions",
            label: t("modules.documents.detail.tabs.versions"),
            content: (
              <Stack gap="lg">
                {access.canEdit(document) && <DocumentUploader newVersionOf={document} />}
                <VersionTable title={document.title} versions={versions} current={document.current_version} onPreview={setPreviewing} />
              </Stack>
            ),
          },
          ...(current && previewKind(current.mime_type)
            ? [{ value: "preview", label: t("modules.documents.detail.tabs.preview"), content: <DocumentPreviewFrame version={current} /> }]
            : []),
          {
            value: "info",
            label: t("modules.documents.detail.tabs.info"),
            content: (
              <Stack gap="lg">
                <RecordFieldGrid>
                  {fields.map((field) => (
                    <RecordFieldItem key={field.label} label={field.label}>
                      {field.value}
                    </RecordFieldItem>
                  ))}
                </RecordFieldGrid>
                <CustomFieldsBlock
                  module="documents"
                  record={document}
                  onEdit={access.canEdit(document) ? () => setEditingCustom(true) : undefined}
                />
              </Stack>
            ),
          },
        ]}
      />
      <DocumentPreview version={previewing} onClose={() => setPreviewing(null)} />
      {editingCustom && <CustomFieldsFormModal module="documents" entity="document" record={document} onClose={() => setEditingCustom(false)} />}
    </>
  );
}
