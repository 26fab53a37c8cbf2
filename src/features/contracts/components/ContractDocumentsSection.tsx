import { Stack } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { GeneratedPdfActions } from "@/components/documents/GeneratedPdfActions.tsx";
import { RecordDocuments } from "@/components/documents/RecordDocuments.tsx";
import type { ContractDetails } from "../api/contracts.ts";
import { contractPdfSource } from "../utils/contract-pdf.ts";

/**
 * A contract's documents on its page: the contract as a PDF from the organization's contract
 * template (download, or keep it among the documents, a new version each time), and the
 * signed copies and other files linked to the contract.
 */
export function ContractDocumentsSection({ details }: { details: ContractDetails }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <GeneratedPdfActions source={contractPdfSource(details, t)} />
      <RecordDocuments module="contracts" recordId={details.contract.id} label={t("modules.contracts.detail.tabs.documents")} />
    </Stack>
  );
}
