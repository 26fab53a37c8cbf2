import { z } from "zod";

/** Answer of `update_my_profile` (spec §7 shape: {success, user}). */
export const updatedProfileSchema = z.object({
  success: z.literal(true),
  user: z.looseObject({
    id: z.guid(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    phone: z.string().nullable(),
  }),
});

/** Answer of `change_my_password` when the password was changed. */
export const passwordChangedSchema = z.looseObject({ success: z.literal(true) });
