import { Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { GeneratedPdfActions } from "@/components/documents/GeneratedPdfActions.tsx";
import { RecordDocuments } from "@/components/documents/RecordDocuments.tsx";
import type { QuoteDetails } from "../api/quotes.ts";
import { quotePdfSource } from "../utils/quote-pdf.ts";

/**
 * A quote's documents on its page: the quote as a PDF from the organization's quote template
 * (download, or keep it among the documents, a new version each time), and the files linked
 * to the quote.
 */
export function QuoteDocumentsSection({ details }: { details: QuoteDetails }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <GeneratedPdfActions source={quotePdfSource(details, t)} />
      <RecordDocuments module="quotes" recordId={details.quote.id} label={t("modules.quotes.detail.tabs.documents")} />
    </Stack>
  );
}
