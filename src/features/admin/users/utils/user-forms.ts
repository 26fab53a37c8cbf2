import { z } from "zod";
import { fitsPasswordBytes, MIN_PASSWORD_LENGTH } from "@/lib/password-rules.ts";
import type { OrganizationUser } from "../api/schemas.ts";

/**
 * The forms' rules: the database's own (spec section 5), checked first in the browser with
 * the same messages. Messages are catalogue keys the forms translate when they show them.
 */
export const MAX_NAME_LENGTH = 100;
const MAX_EMAIL_LENGTH = 254;

// The database's pattern (private.is_valid_email): something@something.something, no spaces.
const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The address the database stores: trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  const normalized = normalizeEmail(email);
  return normalized.length <= MAX_EMAIL_LENGTH && emailPattern.test(normalized);
}

const email = z.string().refine(isValidEmail, { error: "adminUsers.errors.invalid_email" });

export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { error: "passwordRules.tooShort" })
  .refine(fitsPasswordBytes, { error: "passwordRules.tooLong" });

const name = z.string().refine((value) => value.trim().length <= MAX_NAME_LENGTH, {
  error: "adminUsers.errors.name_too_long",
});

// Any of the organization's roles (the database checks it is one): a role key's pattern.
const role = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, { error: "adminUsers.errors.invalid_role" });

export const createUserSchema = z.object({
  email,
  password: passwordSchema,
  firstName: name,
  lastName: name,
  role,
});
export type CreateUserValues = z.infer<typeof createUserSchema>;

export const emptyCreateValues: CreateUserValues = { email: "", password: "", firstName: "", lastName: "", role: "user" };

export const editUserSchema = z.object({
  email,
  firstName: name,
  lastName: name,
  // A role the app has no label for (an organization's own) may stay as it is.
  role: z.string().min(1, { error: "adminUsers.errors.invalid_role" }),
  isActive: z.boolean(),
});
export type EditUserValues = z.infer<typeof editUserSchema>;

export const resetPasswordSchema = z.object({ password: passwordSchema });
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;

/** The `create` request's fields (the session's organization: no organization_id). */
export function createUserRequest(values: CreateUserValues) {
  return {
    email: normalizeEmail(values.email),
    password: values.password,
    first_name: values.firstName.trim(),
    last_name: values.lastName.trim(),
    role: values.role,
  };
}

/** The edit form's starting values for a listed user. */
export function editValuesOf(user: OrganizationUser): EditUserValues {
  return {
    email: user.email,
    firstName: user.first_name ?? "",
    lastName: user.last_name ?? "",
    role: user.organization_role,
    isActive: user.membership_active,
  };
}

export interface UserData {
  first_name?: string;
  last_name?: string;
  email?: string;
  role?: string;
  is_active?: boolean;
}

/**
 * Only what changed goes in `user_data`: the database refuses some fields for some users
 * (their own role or status; names and email of a member of another organization), so an
 * unchanged field must not be sent.
 */
export function userDataChanges(user: OrganizationUser, values: EditUserValues): UserData {
  const changes: UserData = {};
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  const email = normalizeEmail(values.email);
  if (firstName !== (user.first_name ?? "")) changes.first_name = firstName;
  if (lastName !== (user.last_name ?? "")) changes.last_name = lastName;
  if (email !== user.email) changes.email = email;
  if (values.role !== user.organization_role) changes.role = values.role;
  if (values.isActive !== user.membership_active) changes.is_active = values.isActive;
  return changes;
}
