import { Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { GeneratedPdfActions } from "@/components/documents/GeneratedPdfActions.tsx";
import { RecordDocuments } from "@/components/documents/RecordDocuments.tsx";
import { quotePdfInput } from "@/lib/pdf/document-input.ts";
import type { QuoteDetails } from "../api/quotes.ts";

/**
 * A quote's documents on its page: the quote as a PDF from the organization's quote template
 * (download, or keep it among the documents, a new version each time), and the files linked
 * to the quote.
 */
export function QuoteDocumentsSection({ details }: { details: QuoteDetails }) {
  const { t } = useTranslation();
  const { quote } = details;
  const number = quote.revision > 1 ? `${quote.quote_number ?? ""}-R${quote.revision}` : (quote.quote_number ?? "");
  return (
    <Stack gap="md">
      <GeneratedPdfActions
        kind="quote"
        module="quotes"
        recordId={quote.id}
        baseName={number}
        title={t("modules.quotes.detail.pdfTitle", { number })}
        buildInput={(organization, language) => quotePdfInput(details, organization, language)}
        customSources={{
          quote: { record: quote },
          customer: { id: details.customer?.id },
          contact: { id: details.contact?.id },
          deal: { id: details.deal?.id },
        }}
      />
      <RecordDocuments module="quotes" recordId={quote.id} label={t("modules.quotes.detail.tabs.documents")} />
    </Stack>
  );
}
