import { z } from "zod";
import { transferKinds } from "@/modules/registry.ts";

/** A member of the organization as `get_organization_users` lists them. */
export const organizationUserSchema = z.object({
  id: z.guid(),
  email: z.string().min(1),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** The global role (super_admin, admin, user). */
  role: z.string(),
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
  created_at: z.string().nullable(),
  failed_login_attempts: z.number().nullable().optional(),
  locked_until: z.string().nullable(),
  locked_by_admin: z.boolean().nullable(),
  /** The role in this organization. */
  organization_role: z.string(),
  membership_active: z.boolean(),
  locked: z.boolean(),
});

export type OrganizationUser = z.infer<typeof organizationUserSchema>;

export const organizationUsersSchema = z.object({
  success: z.literal(true),
  total: z.number().int().nonnegative(),
  users: z.array(organizationUserSchema),
});

export type OrganizationUsers = z.infer<typeof organizationUsersSchema>;

/** Any successful answer of the `admin-users` function ({success: true, message?, user?}). */
export const adminUsersAnswerSchema = z.looseObject({ success: z.literal(true) });

/** `admin-transfer` analyze: how many records of each kind the user owns. */
export const recordAnalysisSchema = z.object({
  success: z.literal(true),
  counts: z.partialRecord(z.enum(transferKinds), z.number()).nullable(),
  total: z.number(),
});

export type RecordAnalysis = z.infer<typeof recordAnalysisSchema>;

export const transferCandidateSchema = z.object({
  id: z.guid(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  role: z.string().nullable().optional(),
});

export type TransferCandidate = z.infer<typeof transferCandidateSchema>;

/** `admin-transfer` users: the members who can receive records. */
export const transferCandidatesSchema = z.object({
  success: z.literal(true),
  users: z.array(transferCandidateSchema),
});

/** `admin-transfer` transfer: what moved, per kind. */
export const transferResultSchema = z.looseObject({
  success: z.literal(true),
  transferred: z.partialRecord(z.enum(transferKinds), z.number()).optional(),
});
