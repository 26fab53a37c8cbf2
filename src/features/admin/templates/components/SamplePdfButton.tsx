import { Button } from "@mantine/core";
import { IconFileTypePdf } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure } from "@/components/notify.ts";
import { downloadBlob } from "@/lib/download-blob.ts";
import type { PlaceholderValues, TemplateKind } from "@/lib/document-template/placeholders.ts";
import { sampleData } from "@/lib/document-template/sample-data.ts";
import { renderDocumentPdf } from "@/lib/pdf/render-document-pdf.ts";
import { usePreviewOrganization } from "./preview-organization.ts";

/**
 * Downloads the body as the PDF it prints, with the preview's data: the organization's own
 * details and logo (the button waits until both are read), a sample record, the custom fields
 * as their labels (pdfmake loads on the first click, not with the page).
 */
export function SamplePdfButton({ kind, body, customSamples }: { kind: TemplateKind; body: string; customSamples: PlaceholderValues }) {
  const { t } = useTranslation();
  // Made before the logo is read, the sample would print without it (a quick click did).
  const { organization, settled } = usePreviewOrganization();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const { values, items, vatBreakdown } = sampleData(new Date(), organization);
      const blob = await renderDocumentPdf({ kind, language: "tr", organization, values: { ...customSamples, ...values }, items, vat_breakdown: vatBreakdown }, { body });
      downloadBlob(blob, t(`adminTemplates.editor.samplePdfFile.${kind}`));
    } catch {
      notifyFailure(t("adminTemplates.errors.title"), t("adminTemplates.errors.pdfFailed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="default" size="xs" leftSection={<IconFileTypePdf size={16} aria-hidden />} loading={busy || !settled} onClick={() => void download()}>
      {t("adminTemplates.editor.samplePdf")}
    </Button>
  );
}
