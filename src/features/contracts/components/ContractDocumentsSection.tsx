import { Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { GeneratedPdfActions } from "@/components/documents/GeneratedPdfActions.tsx";
import { RecordDocuments } from "@/components/documents/RecordDocuments.tsx";
import { contractPdfInput } from "@/lib/pdf/document-input.ts";
import type { ContractDetails } from "../api/contracts.ts";

/**
 * A contract's documents on its page: the contract as a PDF from the organization's contract
 * template (download, or keep it among the documents, a new version each time), and the
 * signed copies and other files linked to the contract.
 */
export function ContractDocumentsSection({ details }: { details: ContractDetails }) {
  const { t } = useTranslation();
  const { contract } = details;
  const number = contract.contract_number ?? contract.title;
  return (
    <Stack gap="md">
      <GeneratedPdfActions
        kind="contract"
        module="contracts"
        recordId={contract.id}
        baseName={number}
        title={t("modules.contracts.detail.pdfTitle", { number })}
        buildInput={(organization, language) => contractPdfInput(details, organization, language)}
        customSources={{
          contract: { record: contract },
          customer: { id: details.customer?.id },
          contact: { id: details.contact?.id },
          deal: { id: details.deal?.id },
        }}
      />
      <RecordDocuments module="contracts" recordId={contract.id} label={t("modules.contracts.detail.tabs.documents")} />
    </Stack>
  );
}
