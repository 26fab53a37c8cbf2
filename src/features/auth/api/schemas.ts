import { z } from "zod";

// Validation messages are i18n keys; the form translates them when it shows them.
export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { error: "auth.validation.emailRequired" })
    .pipe(z.email({ error: "auth.validation.emailInvalid" })),
  password: z.string().min(1, { error: "auth.validation.passwordRequired" }),
});

export type Credentials = z.infer<typeof credentialsSchema>;
