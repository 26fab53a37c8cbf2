import { z } from "zod";
import { slugProblem } from "../utils/slug.ts";

export const subscriptionPlans = ["basic", "pro", "enterprise"] as const;
export type SubscriptionPlan = (typeof subscriptionPlans)[number];

export const subscriptionStatuses = ["active", "trial", "past_due", "suspended", "cancelled"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** An organization as `admin-organizations` lists it (private.organization_json). */
export const managedOrganizationSchema = z.looseObject({
  id: z.guid(),
  slug: z.string().min(1),
  name: z.string().min(1),
  subscription_plan: z.string(),
  subscription_status: z.string(),
  is_active: z.boolean(),
  template_version: z.number(),
  latest_template_version: z.number(),
  last_migration_error: z.string().nullable(),
  created_at: z.string().min(1),
  member_count: z.number(),
  active_member_count: z.number(),
});

export type ManagedOrganization = z.infer<typeof managedOrganizationSchema>;

export const organizationListSchema = z.object({
  success: z.literal(true),
  organizations: z.array(managedOrganizationSchema),
});

/** `create` answers the new organization (without counts); `update` answers the whole row. */
export const organizationWriteSchema = z.object({
  success: z.literal(true),
  organization: z.looseObject({ id: z.guid(), slug: z.string(), name: z.string() }),
});

/** Answer of the `validate_organization_slug` RPC. */
export const slugValidationSchema = z.looseObject({
  success: z.literal(true),
  valid: z.boolean(),
});

const nameSchema = z
  .string()
  .trim()
  .min(1, { error: "organizationManager.errors.nameRequired" })
  .max(200, { error: "organizationManager.errors.nameTooLong" });

// Validation messages are catalogue keys; the forms translate them when they show them.
export const createOrganizationSchema = z.object({
  slug: z
    .string()
    .trim()
    .superRefine((slug, context) => {
      const problem = slugProblem(slug);
      if (problem) context.addIssue({ code: "custom", message: `organizationManager.slugRules.${problem}` });
    }),
  name: nameSchema,
  plan: z.enum(subscriptionPlans, { error: "organizationManager.errors.planRequired" }),
});

export type CreateOrganizationValues = z.input<typeof createOrganizationSchema>;
export type CreateOrganizationInput = z.output<typeof createOrganizationSchema>;

export const editOrganizationSchema = z.object({
  name: nameSchema,
  // An organization may be on a plan the form does not list; it is kept as it is.
  plan: z.string().regex(/^[a-z][a-z0-9_]{0,29}$/, { error: "organizationManager.errors.planRequired" }),
  status: z.enum(subscriptionStatuses, { error: "organizationManager.errors.statusRequired" }),
});

export type EditOrganizationValues = z.input<typeof editOrganizationSchema>;
