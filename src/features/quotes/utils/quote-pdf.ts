/** A quote's PDF (the documents section's and the e-mail's): its number with the revision, its title, what it prints. */
import type { TFunction } from "i18next";
import type { GeneratedPdfSource } from "@/components/documents/generated-pdf.ts";
import { quotePdfInput } from "@/lib/pdf/document-input.ts";
import type { QuoteDetails } from "../api/quotes.ts";

export function quotePdfSource(details: QuoteDetails, t: TFunction): GeneratedPdfSource {
  const { quote } = details;
  const number = quote.revision > 1 ? `${quote.quote_number ?? ""}-R${quote.revision}` : (quote.quote_number ?? "");
  return {
    kind: "quote",
    module: "quotes",
    recordId: quote.id,
    baseName: number,
    title: t("modules.quotes.detail.pdfTitle", { number }),
    buildInput: (organization, language) => quotePdfInput(details, organization, language),
    customSources: {
      quote: { record: quote },
      customer: { id: details.customer?.id },
      contact: { id: details.contact?.id },
      deal: { id: details.deal?.id },
    },
  };
}
