import { z } from "zod";

export const permissionScopes = ["own", "all"] as const;
export type PermissionScope = (typeof permissionScopes)[number];

/** {module: {action: 'own' | 'all'}}; an action left out is not allowed. */
export const permissionsSchema = z.record(z.string(), z.record(z.string(), z.enum(permissionScopes)));
export type Permissions = z.infer<typeof permissionsSchema>;

export const roleSchema = z.object({
  key: z.string().min(1),
  name: z.string(),
  is_system: z.boolean(),
  member_count: z.number().int().nonnegative().optional(),
  permissions: permissionsSchema,
});
export type Role = z.infer<typeof roleSchema>;

/** `get_roles`: the organization's roles (the matrix's modules and actions come from the module registry). */
export const rolesAnswerSchema = z.object({
  success: z.literal(true),
  roles: z.array(roleSchema),
});
export type RolesAnswer = z.infer<typeof rolesAnswerSchema>;

export const saveRoleAnswerSchema = z.object({ success: z.literal(true), role: roleSchema });
export const deleteRoleAnswerSchema = z.looseObject({ success: z.literal(true) });

/** The role key the server accepts (and the keys it keeps for itself). */
export const ROLE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
export const RESERVED_ROLE_KEYS = ["admin", "super_admin"];

/** The new role form; `existing` are the keys already in use (save_role would overwrite them). */
export function newRoleSchema(existing: readonly string[]) {
  return z.object({
    key: z
      .string()
      .trim()
      .regex(ROLE_KEY_PATTERN, "adminRoles.errors.invalid_role_key")
      .refine((key) => !RESERVED_ROLE_KEYS.includes(key), "adminRoles.errors.invalid_role_key")
      .refine((key) => !existing.includes(key), "adminRoles.errors.keyTaken"),
    name: z.string().trim().min(1, "adminRoles.errors.invalid_role_name").max(100, "adminRoles.errors.invalid_role_name"),
  });
}
export type NewRoleValues = z.infer<ReturnType<typeof newRoleSchema>>;

export const roleNameSchema = z.string().trim().min(1).max(100);
