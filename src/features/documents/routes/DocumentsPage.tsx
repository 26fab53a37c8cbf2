import { Button, Group, Modal, NativeSelect, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { IconFiles, IconUpload } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { documentRowSchema, useDocumentUsage, type DocumentRow } from "@/components/documents/document-api.ts";
import { useDocumentAccess } from "@/components/documents/document-access.ts";
import { ACCEPTED_FILE_TYPES, formatFileSize } from "@/components/documents/document-files.ts";
import { documentLinkFilter, documentLinkModules, documentLinks, linkedRecordOf, type DocumentLinkModule } from "@/components/documents/document-links.ts";
import { DeletedDocuments } from "@/components/documents/DeletedDocuments.tsx";
import { DocumentUploader } from "@/components/documents/DocumentUploader.tsx";
import { RecordDocuments } from "@/components/documents/RecordDocuments.tsx";
import { declaredColumn, type RecordListSpec } from "@/components/records/record-config.ts";
import { RecordListPage } from "@/components/records/RecordListPage.tsx";
import { linkedRecord, recordPickerSources } from "@/components/records/record-links.ts";
import { LinkedRecordName } from "@/components/records/LinkedRecordName.tsx";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";

/** The type filter: each allowed type by its ending ("PDF", "DOCX"). */
const typeOptions = Object.entries(ACCEPTED_FILE_TYPES).map(([value, endings]) => ({ value, label: endings[0].slice(1).toUpperCase() }));

/**
 * Every document the member may see, on the record kit (search by title or file name, a type
 * filter, sortable); with a linked module chosen, those linked to its records, and with one of
 * its records chosen, that record's documents; upload one; the storage used of the quota. Who
 * may delete documents also gets the deleted ones (Silinenler), by the same link filters, to
 * restore.
 */
export function DocumentsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const access = useDocumentAccess();
  const usage = useDocumentUsage(access.canView);
  const [uploading, setUploading] = useState(false);
  const [linkModule, setLinkModule] = useState<DocumentLinkModule | "">("");
  const [linkRecord, setLinkRecord] = useState<string | null>(null);
  const [view, setView] = useState<"active" | "deleted">("active");
  const showDeleted = view === "deleted" && access.canRestore;
  const language = i18n.resolvedLanguage;

  /** The record a document is linked to, its module's word before its name ("Müşteri: Çelik Yapı"), as its cell and its export say it. */
  const linkedText = (row: DocumentRow) => {
    const linked = linkedRecordOf(row);
    if (!linked) return t("modules.documents.linkedModules.none");
    const name = linkedRecord(row, documentLinks[linked.module])?.name ?? t("records.list.linkHidden");
    return `${t(`modules.documents.linkedModules.${linked.module}`)}: ${name}`;
  };
  const linkedCell = (row: DocumentRow) => {
    const linked = linkedRecordOf(row);
    if (!linked) return t("modules.documents.linkedModules.none");
    return (
      <LinkedRecordName
        module={linked.module}
        linked={linkedRecord(row, documentLinks[linked.module])}
        prefix={`${t(`modules.documents.linkedModules.${linked.module}`)}: `}
      />
    );
  };

  const config: RecordListSpec<DocumentRow> = {
    module: "documents",
    row: documentRowSchema,
    columns: [
      declaredColumn("title"),
      declaredColumn("file_name"),
      { key: "linked", label: t("modules.documents.fields.linked"), render: linkedCell, exportValue: linkedText },
      declaredColumn("size_bytes", { render: (row) => formatFileSize(row.size_bytes, language), exportValue: (row) => formatFileSize(row.size_bytes, language) }),
      declaredColumn("current_version", { exportType: "number" }),
      { key: "owner_name", label: t("modules.documents.fields.owner") },
      { key: "updated_at", label: t("modules.documents.fields.updated_at"), sort: "updated_at" },
      { key: "created_at", label: t("modules.documents.fields.created_at"), sort: "created_at", hidden: true },
    ],
    filters: [{ key: "mime_type", label: t("modules.documents.fields.mime_type"), options: typeOptions }],
    baseFilters: documentLinkFilter(linkModule),
    defaultSort: "updated_at",
    defaultDescending: true,
    title: t("modules.documents.title"),
    description: t("modules.documents.description"),
    searchPlaceholder: t("modules.documents.list.searchPlaceholder"),
    emptyTitle: t("modules.documents.emptyTitle"),
    emptyDescription: t("modules.documents.emptyDescription"),
    loadError: t("modules.documents.list.loadError"),
    listLabel: t("modules.documents.list.label"),
    totalText: (count, capped) => t(capped ? "modules.documents.list.totalCapped" : "modules.documents.list.total", { count }),
    noMatch: t("modules.documents.list.noMatch"),
    icon: <IconFiles size={28} aria-hidden />,
    titleOf: (row) => row.title,
    detailPath: (row) => `/documents/${row.id}`,
    headless: true,
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: "1 1 16rem" }}>
          <Title order={1}>{t("modules.documents.title")}</Title>
          <Text c="dimmed">{t("modules.documents.description")}</Text>
          {usage.isSuccess && (
            <Text size="sm" c="dimmed">
              {t("documentKit.usage", {
                used: formatFileSize(usage.data.used_bytes, language),
                quota: formatFileSize(usage.data.quota_bytes, language),
              })}
            </Text>
          )}
        </Stack>
        {access.canCreate && (
          <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setUploading(true)}>
            {t("modules.documents.upload")}
          </Button>
        )}
      </Group>
      {access.canRestore && (
        <SegmentedControl
          aria-label={t("modules.documents.views.label")}
          data={[
            { value: "active", label: t("modules.documents.views.active") },
            { value: "deleted", label: t("modules.documents.views.deleted") },
          ]}
          value={view}
          onChange={(value) => setView(value as "active" | "deleted")}
          style={{ alignSelf: "flex-start" }}
        />
      )}
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NativeSelect
          label={t("modules.documents.filters.linkModule")}
          data={[
            { value: "", label: t("modules.documents.filters.anyRecord") },
            ...documentLinkModules.map((module) => ({ value: module, label: t(`modules.documents.linkedModules.${module}`) })),
          ]}
          value={linkModule}
          onChange={(event) => {
            setLinkModule(event.currentTarget.value as DocumentLinkModule | "");
            setLinkRecord(null);
          }}
          w={{ base: "100%", xs: 200 }}
        />
        {linkModule && (
          <RecordPicker
            key={linkModule}
            {...recordPickerSources[linkModule]}
            label={t("modules.documents.filters.linkRecord", { module: t(`modules.documents.linkedModules.${linkModule}`) })}
            nothingFound={t("modules.documents.filters.nothingFound")}
            value={linkRecord}
            onChange={setLinkRecord}
          />
        )}
      </Group>
      {showDeleted ? (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t("modules.documents.deletedDescription")}
          </Text>
          <DeletedDocuments module={linkModule} recordId={linkRecord} label={t("documentKit.trash.label")} />
        </Stack>
      ) : linkModule && linkRecord ? (
        <RecordDocuments module={linkModule} recordId={linkRecord} label={t("modules.documents.list.label")} />
      ) : (
        <>
          {linkModule && (
            <Text c="dimmed">
              {t("modules.documents.filters.chooseRecord", { module: t(`modules.documents.linkedModules.${linkModule}`) })}
            </Text>
          )}
          <RecordListPage config={config} />
        </>
      )}
      <Modal opened={uploading} onClose={() => setUploading(false)} title={t("modules.documents.uploadTitle")}
        closeButtonProps={{ "aria-label": t("documentKit.preview.close") }}>
        <DocumentUploader onUploaded={(document) => void navigate(`/documents/${document.id}`)} />
      </Modal>
    </Stack>
  );
}
