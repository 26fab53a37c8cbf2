import { z } from "zod";

/** Answer of `update_my_profile` (spec §7 shape: {success, user}). */
export const updatedProfileSchema = z.object({
  success: z.literal(true),
  user: z.looseObject({
    id: z.guid(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
  }),
});

export const loginAttemptSchema = z.object({
  email: z.string(),
  success: z.boolean(),
  failure_reason: z.string().nullable(),
  source: z.string().nullable(),
  created_at: z.string().min(1),
});

/** Answer of `get_login_attempts`: the caller's own attempts, newest first. */
export const loginAttemptsSchema = z.object({
  success: z.literal(true),
  attempts: z.array(loginAttemptSchema),
});

export type LoginAttempt = z.infer<typeof loginAttemptSchema>;

/** Answer of `change_my_password` when the password was changed. */
export const passwordChangedSchema = z.looseObject({ success: z.literal(true) });
