import { organizationFromSettings, type OrganizationDetails } from "@/lib/document-template/organization.ts";
import { sampleOrganization } from "@/lib/document-template/sample-data.ts";
import { useOrganizationLogo } from "@/session/organization-logo.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";

/**
 * The sender the template preview and the sample PDF print: the organization's own details
 * from the general settings (legal name, address, VKN, IBANs…) and its logo, as its quotes
 * and contracts print them; the sample company only until the settings have loaded (or when
 * they cannot be read). `settled`: the settings and the logo are both read (or could not be),
 * so a sample PDF made now prints what the organization's documents print.
 */
export function usePreviewOrganization(): { organization: OrganizationDetails; settled: boolean } {
  const settings = useOrganizationSettings();
  const logo = useOrganizationLogo();
  return {
    organization: settings.data ? organizationFromSettings(settings.data, logo.data ?? null) : sampleOrganization,
    settled: !settings.isPending && !logo.isPending,
  };
}
