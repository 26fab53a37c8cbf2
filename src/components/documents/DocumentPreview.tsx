import { Center, Image, Modal, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { usePreviewUrl, type DocumentVersion } from "./document-api.ts";
import { previewKind } from "./document-files.ts";

type Previewed = Pick<DocumentVersion, "object_path" | "file_name" | "mime_type">;

/**
 * A version shown in the page from a short-lived signed URL: a PDF in a frame (the browser's
 * own viewer), an image as an image; other types say they can only be downloaded.
 */
export function DocumentPreviewFrame({ version }: { version: Previewed }) {
  const { t } = useTranslation();
  const kind = previewKind(version.mime_type);
  const url = usePreviewUrl(kind ? version.object_path : null);
  const name = version.file_name;
  if (!kind) return <Text>{t("documentKit.preview.unavailable")}</Text>;
  if (url.isPending) return <LoadingScreen compact />;
  if (url.isError) return <LoadError title={t("documentKit.previewFailed")} onRetry={() => void url.refetch()} />;
  return kind === "pdf" ? (
    <iframe src={url.data} title={t("documentKit.preview.frameTitle", { name })} style={{ width: "100%", height: "70vh", border: 0 }} />
  ) : (
    <Center>
      <Image src={url.data} alt={t("documentKit.preview.frameTitle", { name })} fit="contain" mah="70vh" w="auto" maw="100%" />
    </Center>
  );
}

/** DocumentPreviewFrame in a dialog, open while a version is given. */
export function DocumentPreview({ version, onClose }: { version: Previewed | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={version !== null}
      onClose={onClose}
      title={t("documentKit.preview.title", { name: version?.file_name ?? "" })}
      size="xl"
      closeButtonProps={{ "aria-label": t("documentKit.preview.close") }}
      styles={{ title: { overflowWrap: "anywhere" } }}
    >
      {version && <DocumentPreviewFrame version={version} />}
    </Modal>
  );
}
