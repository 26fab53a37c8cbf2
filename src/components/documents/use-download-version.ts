import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure } from "@/components/notify.ts";
import { downloadDocumentVersion, type DocumentVersion } from "./document-api.ts";
import { documentFailureKey } from "./document-files.ts";

/**
 * Downloads a version (a signed URL opened as a download), telling a failure in words; which
 * version is on its way (its object path), so its button can show it.
 */
export function useDownloadVersion() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<string | null>(null);
  const download = (version: Pick<DocumentVersion, "object_path" | "file_name">) => {
    setPending(version.object_path);
    downloadDocumentVersion(version)
      .catch((error: unknown) => notifyFailure(t("documentKit.downloadFailed"), t(documentFailureKey(error))))
      .finally(() => setPending(null));
  };
  return { download, pending };
}
