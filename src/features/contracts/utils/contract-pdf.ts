/** A contract's PDF (the documents section's and the e-mail's): its number, its title, what it prints. */
import type { TFunction } from "i18next";
import type { GeneratedPdfSource } from "@/components/documents/generated-pdf.ts";
import { contractPdfInput } from "@/lib/pdf/document-input.ts";
import type { ContractDetails } from "../api/contracts.ts";

export function contractPdfSource(details: ContractDetails, t: TFunction): GeneratedPdfSource {
  const { contract } = details;
  const number = contract.contract_number ?? contract.title;
  return {
    kind: "contract",
    module: "contracts",
    recordId: contract.id,
    baseName: number,
    title: t("modules.contracts.detail.pdfTitle", { number }),
    buildInput: (organization, language) => contractPdfInput(details, organization, language),
    customSources: {
      contract: { record: contract },
      customer: { id: details.customer?.id },
      contact: { id: details.contact?.id },
      deal: { id: details.deal?.id },
    },
  };
}
