import { useTranslation } from "react-i18next";
import { OrganizationLogoCard } from "../settings/components/OrganizationLogoCard.tsx";
import { DocumentStorageCard } from "../settings/components/DocumentStorageCard.tsx";
import { ExchangeRatesCard } from "../settings/components/ExchangeRatesCard.tsx";
import { GeneralSettingsForm } from "../settings/components/GeneralSettingsForm.tsx";
import { MailSettingsCard } from "../settings/components/MailSettingsCard.tsx";
import { OrganizationDetailsForm } from "../settings/components/OrganizationDetailsForm.tsx";
import { SettingsPageFrame } from "../settings/components/SettingsPageFrame.tsx";
import { useOrganizationScope } from "@/session/organization-scope.ts";

/**
 * Admin page "generalSettings": the organization's name, logo, currency, KDV, locale and time
 * zone; its own details printed on documents (legal name, address, VKN, IBANs…); exchange
 * rates; its mail server (SMTP); its document storage (read only).
 */
export function GeneralSettingsPage() {
  const { t } = useTranslation();
  const scope = useOrganizationScope();
  return (
    <SettingsPageFrame scope={scope} title={t("adminSettings.general.title")} description={t("adminSettings.general.description")}>
      {(settings) => (
        <>
          <OrganizationLogoCard scope={scope} settings={settings} />
          <GeneralSettingsForm scope={scope} settings={settings} />
          <OrganizationDetailsForm scope={scope} settings={settings} />
          <ExchangeRatesCard scope={scope} settings={settings} />
          <MailSettingsCard scope={scope} />
          <DocumentStorageCard />
        </>
      )}
    </SettingsPageFrame>
  );
}
