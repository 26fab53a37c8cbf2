/**
 * A quote's or contract's PDF as the browser makes it, shared by "PDF indir" / "Belge olarak
 * kaydet" (GeneratedPdfActions) and the e-mail composer (RecordMailComposer): the
 * organization's default template of the kind (or the built-in body), its details from the
 * general settings and its logo, the record's values and its custom fields' placeholders.
 * Keeping it adds it to the record's documents, as a new version of the document of the same
 * title when the caller may change that one.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { DocumentLanguage } from "@/lib/document-template/labels.ts";
import { organizationFromSettings } from "@/lib/document-template/organization.ts";
import type { CustomPlaceholderGroup, PlaceholderValues, TemplateKind } from "@/lib/document-template/placeholders.ts";
import { defaultTemplateQueryOptions } from "@/lib/pdf/default-template.ts";
import { completeValues, type DocumentPdfInput } from "@/lib/pdf/document-definition.ts";
import { renderDocumentPdf } from "@/lib/pdf/render-document-pdf.ts";
import { organizationLogoQueryOptions } from "@/session/organization-logo.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { settingsQueryOptions } from "@/session/organization-settings.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { customPlaceholderValues, type CustomPlaceholderSource } from "@/components/records/custom-fields/custom-placeholders.ts";
import { recordDocumentsQueryOptions, useUploadDocument, type DocumentRow } from "./document-api.ts";
import { useDocumentAccess } from "./document-access.ts";

/** What a record's PDF is made from. */
export interface GeneratedPdfSource {
  kind: TemplateKind;
  module: "quotes" | "contracts";
  recordId: string;
  /** The file's name without ".pdf" (the quote or contract number). */
  baseName: string;
  /** The document's title on the record; keeping it again adds a version to the document of this title. */
  title: string;
  /** What the PDF prints, from the record as read; the organization comes from here. */
  buildInput: (organization: DocumentPdfInput["organization"], language: DocumentLanguage) => DocumentPdfInput;
  /** The records whose custom fields the template may print ({{customer.cf_…}}), as read or by id. */
  customSources: Partial<Record<CustomPlaceholderGroup, CustomPlaceholderSource>>;
}

/** The record's PDF in the UI language: its file name, its placeholder values, the PDF itself, and keeping it among the documents. */
export function useGeneratedPdf(source: GeneratedPdfSource) {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  const scope = useOrganizationScope();
  const session = useSignedInSession();
  const access = useDocumentAccess();
  const upload = useUploadDocument();
  const language: DocumentLanguage = i18n.language.startsWith("en") ? "en" : "tr";
  const fileName = `${source.baseName.replace(/[\\/:*?"<>|]+/g, "-")}.pdf`;

  const prepare = async () => {
    const [settings, logo, template, custom] = await Promise.all([
      queryClient.fetchQuery(settingsQueryOptions(scope)),
      queryClient.fetchQuery(organizationLogoQueryOptions(session.user.id)),
      queryClient.fetchQuery(defaultTemplateQueryOptions(scope, source.kind)),
      customPlaceholderValues(queryClient, scope, source.customSources, { language, t: i18n.getFixedT(language) }),
    ]);
    const input = source.buildInput(organizationFromSettings(settings, logo), language);
    return { input: { ...input, values: { ...custom, ...input.values } }, template };
  };

  return {
    language,
    fileName,
    /** Every text placeholder's value as the PDF prints it (the organization's, the totals', the record's). */
    values: async (): Promise<PlaceholderValues> => completeValues((await prepare()).input),
    render: async (): Promise<Blob> => {
      const { input, template } = await prepare();
      return renderDocumentPdf(input, template);
    },
    /** Keeps the PDF among the record's documents (a new version of the document of the same title when allowed). */
    keep: async (blob: Blob): Promise<DocumentRow> => {
      const existing = (await queryClient.fetchQuery(recordDocumentsQueryOptions(scope, source.module, source.recordId))).find(
        (document) => document.title === source.title,
      );
      const mayAddVersion = existing !== undefined && access.canEdit(existing);
      const { document } = await upload.mutateAsync({
        file: blob,
        fileName,
        title: source.title,
        ...(mayAddVersion ? { documentId: existing.id } : { module: source.module, recordId: source.recordId }),
      });
      return document;
    },
    mayKeep: access.canCreate,
  };
}
