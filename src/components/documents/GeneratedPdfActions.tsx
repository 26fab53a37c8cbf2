import { Button, Group } from "@mantine/core";
import { IconDeviceFloppy, IconFileTypePdf } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { downloadBlob } from "@/lib/download-blob.ts";
import type { DocumentLanguage } from "@/lib/document-template/labels.ts";
import { organizationFromSettings } from "@/lib/document-template/organization.ts";
import type { CustomPlaceholderGroup, TemplateKind } from "@/lib/document-template/placeholders.ts";
import { defaultTemplateQueryOptions } from "@/lib/pdf/default-template.ts";
import type { DocumentPdfInput } from "@/lib/pdf/document-definition.ts";
import { renderDocumentPdf } from "@/lib/pdf/render-document-pdf.ts";
import { organizationLogoQueryOptions } from "@/session/organization-logo.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { settingsQueryOptions } from "@/session/organization-settings.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { customPlaceholderValues, type CustomPlaceholderSource } from "@/components/records/custom-fields/custom-placeholders.ts";
import { recordDocumentsQueryOptions, useUploadDocument } from "./document-api.ts";
import { useDocumentAccess } from "./document-access.ts";
import { documentFailureKey } from "./document-files.ts";

interface Props {
  kind: TemplateKind;
  module: "quotes" | "contracts";
  recordId: string;
  /** The file's name without ".pdf" (the quote or contract number). */
  baseName: string;
  /** The document's title on the record; saving again adds a version to the document of this title. */
  title: string;
  /** What the PDF prints, from the record as read; the organization comes from here. */
  buildInput: (organization: DocumentPdfInput["organization"], language: DocumentLanguage) => DocumentPdfInput;
  /** The records whose custom fields the template may print ({{customer.cf_…}}), as read or by id. */
  customSources: Partial<Record<CustomPlaceholderGroup, CustomPlaceholderSource>>;
}

/**
 * "PDF indir" and "Belge olarak kaydet" for a quote or a contract: the PDF is made in the
 * browser from the organization's default template of the kind (or the built-in body), with
 * its details from the general settings (name, legal name, address, VKN, IBANs…) and logo; saving keeps it among the record's documents, as a new version when a
 * document of the same title is already there.
 */
export function GeneratedPdfActions({ kind, module, recordId, baseName, title, buildInput, customSources }: Props) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const scope = useOrganizationScope();
  const session = useSignedInSession();
  const access = useDocumentAccess();
  const upload = useUploadDocument();
  const [busy, setBusy] = useState<"download" | "save" | null>(null);
  const language: DocumentLanguage = i18n.language.startsWith("en") ? "en" : "tr";
  const fileName = `${baseName.replace(/[\\/:*?"<>|]+/g, "-")}.pdf`;

  const render = async () => {
    const [settings, logo, template, custom] = await Promise.all([
      queryClient.fetchQuery(settingsQueryOptions(scope)),
      queryClient.fetchQuery(organizationLogoQueryOptions(session.user.id)),
      queryClient.fetchQuery(defaultTemplateQueryOptions(scope, kind)),
      customPlaceholderValues(queryClient, scope, customSources, { language, t: i18n.getFixedT(language) }),
    ]);
    const input = buildInput(organizationFromSettings(settings, logo), language);
    return renderDocumentPdf({ ...input, values: { ...custom, ...input.values } }, template);
  };

  const run = async (action: "download" | "save") => {
    setBusy(action);
    try {
      const blob = await render();
      if (action === "download") {
        downloadBlob(blob, fileName);
        return;
      }
      const existing = (await queryClient.fetchQuery(recordDocumentsQueryOptions(scope, module, recordId))).find(
        (document) => document.title === title,
      );
      const mayAddVersion = existing !== undefined && access.canEdit(existing);
      await upload.mutateAsync({
        file: blob,
        fileName,
        title,
        ...(mayAddVersion ? { documentId: existing.id } : { module, recordId }),
      });
      notifySuccess(t("documentKit.pdf.saved", { title }));
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
      {access.canCreate && (
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
