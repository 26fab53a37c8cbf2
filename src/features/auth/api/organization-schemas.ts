import { z } from "zod";
import { memberOrganizationSchema } from "@/session/schemas.ts";

/** An organization the signed-in user may work in, as get_my_organizations lists it. */
export const availableOrganizationSchema = memberOrganizationSchema.extend({ is_current: z.boolean() });

/** Payload of the `get_my_organizations` RPC. */
export const myOrganizationsSchema = z.object({
  success: z.literal(true),
  current_organization_id: z.guid().nullable(),
  organizations: z.array(availableOrganizationSchema),
});

export type AvailableOrganization = z.infer<typeof availableOrganizationSchema>;
export type MyOrganizations = z.infer<typeof myOrganizationsSchema>;

/** Payload of a successful `bind_session_organization`. */
export const boundOrganizationSchema = z.object({
  success: z.literal(true),
  organization: memberOrganizationSchema,
});
