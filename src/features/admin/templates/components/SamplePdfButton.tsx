import { Button } from "@mantine/core";
import { IconFileTypePdf } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure } from "@/components/notify.ts";
import { downloadBlob } from "@/lib/download-blob.ts";
import type { TemplateKind } from "@/lib/document-template/placeholders.ts";
import { sampleData, sampleOrganization } from "@/lib/document-template/sample-data.ts";
import { renderDocumentPdf } from "@/lib/pdf/render-document-pdf.ts";
import { useOrganizationLogo } from "@/session/organization-logo.ts";

/**
 * Downloads the body as the PDF it prints, with the preview's sample data and the
 * organization's own logo (pdfmake loads on the first click, not with the page).
 */
export function SamplePdfButton({ kind, body }: { kind: TemplateKind; body: string }) {
  const { t } = useTranslation();
  const logo = useOrganizationLogo();
  const [busy, setBusy] = useState(false);

  const download = async () => {
    setBusy(true);
    try {
      const { values, items, vatBreakdown } = sampleData(new Date());
      const organization = { ...sampleOrganization, logo: logo.data ?? null };
      const blob = await renderDocumentPdf({ kind, language: "tr", organization, values, items, vat_breakdown: vatBreakdown }, { body });
      downloadBlob(blob, t(`adminTemplates.editor.samplePdfFile.${kind}`));
    } catch {
      notifyFailure(t("adminTemplates.errors.title"), t("adminTemplates.errors.pdfFailed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="default" size="xs" leftSection={<IconFileTypePdf size={16} aria-hidden />} loading={busy} onClick={() => void download()}>
      {t("adminTemplates.editor.samplePdf")}
    </Button>
  );
}
