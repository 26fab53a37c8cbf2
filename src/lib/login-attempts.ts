import { z } from "zod";

/** A sign-in attempt as the database logs it (spec §9). */
export const loginAttemptSchema = z.object({
  email: z.string(),
  success: z.boolean(),
  failure_reason: z.string().nullable(),
  source: z.string().nullable(),
  created_at: z.string().min(1),
});

/** Answer of `get_login_attempts`: the caller's own attempts or, for an admin, a member's; newest first. */
export const loginAttemptsSchema = z.object({
  success: z.literal(true),
  attempts: z.array(loginAttemptSchema),
});

export type LoginAttempt = z.infer<typeof loginAttemptSchema>;
