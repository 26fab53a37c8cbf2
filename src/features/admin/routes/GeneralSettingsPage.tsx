import { useTranslation } from "react-i18next";
import { OrganizationLogoCard } from "../settings/components/OrganizationLogoCard.tsx";
import { GeneralSettingsForm } from "../settings/components/GeneralSettingsForm.tsx";
import { SettingsPageFrame } from "../settings/components/SettingsPageFrame.tsx";
import { useUsersScope } from "../users/api/scope.ts";

/** Admin page "generalSettings": the organization's name, logo, currency, KDV, locale and time zone. */
export function GeneralSettingsPage() {
  const { t } = useTranslation();
  const scope = useUsersScope();
  return (
    <SettingsPageFrame scope={scope} title={t("adminSettings.general.title")} description={t("adminSettings.general.description")}>
      {(settings) => (
        <>
          <OrganizationLogoCard scope={scope} settings={settings} />
          <GeneralSettingsForm scope={scope} settings={settings} />
        </>
      )}
    </SettingsPageFrame>
  );
}
