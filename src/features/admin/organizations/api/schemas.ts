import { z } from "zod";
import { isValidEmail, MAX_NAME_LENGTH, passwordSchema } from "../../users/utils/user-forms.ts";
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
  /** The first admin, made in the same call when addAdmin is on (create_user_secure's rules). */
  addAdmin: z.boolean().default(false),
  adminEmail: z.string().default(""),
  adminPassword: z.string().default(""),
  adminFirstName: z.string().default(""),
  adminLastName: z.string().default(""),
}).superRefine((values, context) => {
  if (!values.addAdmin) return;
  if (!isValidEmail(values.adminEmail)) context.addIssue({ code: "custom", path: ["adminEmail"], message: "adminUsers.errors.invalid_email" });
  const password = passwordSchema.safeParse(values.adminPassword);
  if (!password.success) context.addIssue({ code: "custom", path: ["adminPassword"], message: password.error.issues[0]?.message });
  for (const field of ["adminFirstName", "adminLastName"] as const) {
    if (values[field].trim().length > MAX_NAME_LENGTH) context.addIssue({ code: "custom", path: [field], message: "adminUsers.errors.name_too_long" });
  }
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
