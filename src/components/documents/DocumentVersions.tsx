import { ActionIcon, Badge, Group, Table, Text, VisuallyHidden } from "@mantine/core";
import { IconDownload, IconEye } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useDocumentDetails, type DocumentVersion } from "./document-api.ts";
import { formatFileSize, previewKind } from "./document-files.ts";
import { useDownloadVersion } from "./use-download-version.ts";

interface Props {
  documentId: string;
  title: string;
  onPreview: (version: DocumentVersion) => void;
}

/** Every version of a document, newest first: its file, size, who uploaded it and when, download and preview. */
export function DocumentVersions({ documentId, title, onPreview }: Props) {
  const details = useDocumentDetails(documentId);
  if (details.isPending) return <LoadingScreen compact />;
  return details.isError ? (
    <VersionsError onRetry={() => void details.refetch()} />
  ) : (
    <VersionTable title={title} versions={details.data.versions} current={details.data.document.current_version} onPreview={onPreview} />
  );
}

function VersionsError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return <LoadError title={t("documentKit.versions.loadError")} onRetry={onRetry} />;
}

/** The versions as a table that scrolls on its own on a narrow screen. */
export function VersionTable({ title, versions, current, onPreview }: {
  title: string;
  versions: DocumentVersion[];
  current: number;
  onPreview: (version: DocumentVersion) => void;
}) {
  const { t, i18n } = useTranslation();
  const { download, pending } = useDownloadVersion();
  const ordered = [...versions].sort((a, b) => b.version - a.version);
  return (
    <Table.ScrollContainer minWidth={520} type="native">
      <Table aria-label={t("documentKit.versions.label", { title })} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t("documentKit.columns.version")}</Table.Th>
            <Table.Th scope="col">{t("documentKit.columns.file")}</Table.Th>
            <Table.Th scope="col">{t("documentKit.columns.size")}</Table.Th>
            <Table.Th scope="col">{t("documentKit.columns.uploaded")}</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>{t("documentKit.actions.download")}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {ordered.map((version) => (
            <Table.Tr key={version.version}>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm">{version.version}</Text>
                  {version.version === current && (
                    <Badge size="xs" variant="light">
                      {t("documentKit.versions.current")}
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{version.file_name}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{formatFileSize(version.size_bytes, i18n.resolvedLanguage)}</Table.Td>
              <Table.Td>
                {t("documentKit.uploadedBy", {
                  name: version.uploaded_by_name ?? "—",
                  date: formatDateTime(version.uploaded_at, i18n.resolvedLanguage),
                })}
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap" justify="flex-end">
                  {previewKind(version.mime_type) && (
                    <ActionIcon variant="subtle" onClick={() => onPreview(version)}
                      aria-label={t("documentKit.actions.previewVersion", { version: version.version })}>
                      <IconEye size={18} aria-hidden />
                    </ActionIcon>
                  )}
                  <ActionIcon variant="subtle" onClick={() => download(version)} loading={pending === version.object_path}
                    aria-label={t("documentKit.actions.downloadVersion", { version: version.version, name: version.file_name })}>
                    <IconDownload size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
