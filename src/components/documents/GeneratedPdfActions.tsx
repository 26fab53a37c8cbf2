import { Button, Group } from "@mantine/core";
import { IconDeviceFloppy, IconFileTypePdf } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { downloadBlob } from "@/lib/download-blob.ts";
import { documentFailureKey } from "./document-files.ts";
import { useGeneratedPdf, type GeneratedPdfSource } from "./generated-pdf.ts";

/**
 * "PDF indir" and "Belge olarak kaydet" for a quote or a contract: the PDF is made in the
 * browser (useGeneratedPdf) from the organization's default template of the kind (or the
 * built-in body), with its details from the general settings (name, legal name, address,
 * VKN, IBANs…) and logo; saving keeps it among the record's documents, as a new version when
 * a document of the same title is already there.
 */
export function GeneratedPdfActions({ source }: { source: GeneratedPdfSource }) {
  const { t } = useTranslation();
  const pdf = useGeneratedPdf(source);
  const [busy, setBusy] = useState<"download" | "save" | null>(null);

  const run = async (action: "download" | "save") => {
    setBusy(action);
    try {
      const blob = await pdf.render();
      if (action === "download") {
        downloadBlob(blob, pdf.fileName);
        return;
      }
      await pdf.keep(blob);
      notifySuccess(t("documentKit.pdf.saved", { title: source.title }));
    } catch (error) {
      const failure = action === "download" ? t("documentKit.pdf.renderFailed") : t("documentKit.pdf.saveFailed");
      notifyFailure(failure, t(documentFailureKey(error)));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Group gap="xs">
      <Button
        variant="default"
        leftSection={<IconFileTypePdf size={16} aria-hidden />}
        loading={busy === "download"}
        disabled={busy !== null}
        onClick={() => void run("download")}
      >
        {t("documentKit.pdf.download")}
      </Button>
      {pdf.mayKeep && (
        <Button
          variant="default"
          leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          loading={busy === "save"}
          disabled={busy !== null}
          onClick={() => void run("save")}
        >
          {t("documentKit.pdf.save")}
        </Button>
      )}
    </Group>
  );
}
