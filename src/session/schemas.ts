import { z } from "zod";

/**
 * An organization as the RPCs name it. Ids are checked as GUIDs rather than RFC 9562 UUIDs:
 * seeded fixtures may use fixed ids.
 */
export const organizationSchema = z.object({
  id: z.guid(),
  slug: z.string().min(1),
  name: z.string().min(1),
});

/** An organization with the signed-in user's role in it. */
export const memberOrganizationSchema = organizationSchema.extend({ role: z.string().min(1) });

/** Payload of the `get_current_user_context` RPC (returned as untyped JSON, so checked here). */
export const currentUserContextSchema = z.object({
  success: z.literal(true),
  user: z.object({
    id: z.guid(),
    email: z.string().min(1),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    role: z.string().min(1),
    // The member's own phone (E.164), the sender's phone in e-mails; optional like the rest below.
    phone: z.string().nullable().optional(),
    // The rest of the RPC's user (spec section 3); optional, as older payloads lack them.
    is_active: z.boolean().optional(),
    created_at: z.string().nullable().optional(),
    last_login_at: z.string().nullable().optional(),
    terms_accepted_at: z.string().nullable().optional(),
    /** Organization id → the user's role there. */
    organization_role: z.record(z.string(), z.string()).optional(),
  }),
  organization: organizationSchema.nullable(),
  organizations: z.array(memberOrganizationSchema),
});

export type CurrentUserContext = z.infer<typeof currentUserContextSchema>;
