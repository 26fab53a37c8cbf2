import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { queryKeys } from "./query-keys.ts";
import { useSignedInSession } from "./session-context.ts";
import { logoContentTypes } from "@/lib/logo-types.ts";

const organizationLogoSchema = z.object({
  success: z.literal(true),
  logo: z.object({ content_type: z.enum(logoContentTypes), data_base64: z.string(), updated_at: z.string() }).nullable(),
});

/** The session organization's logo as a data URL an <img> can show, or null. */
export function organizationLogoQueryOptions(userId: string) {
  return queryOptions({
    queryKey: queryKeys.organizationLogo(userId),
    queryFn: async () => {
      const { logo } = await rpc("get_organization_logo", {}, organizationLogoSchema);
      return logo ? `data:${logo.content_type};base64,${logo.data_base64}` : null;
    },
    // It changes rarely, and the settings page refreshes it when it does.
    staleTime: 10 * 60 * 1000,
  });
}

export function useOrganizationLogo() {
  const session = useSignedInSession();
  return useQuery(organizationLogoQueryOptions(session.user.id));
}
