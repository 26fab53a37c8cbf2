/**
 * The organization's mail settings (get_mail_settings) and the mail function's actions: save
 * them (the password goes to the function, which seals it; it never comes back), remove them,
 * and send the admin a test e-mail.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { invokePrivileged } from "@/lib/privileged-functions.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

export const mailSecurities = ["starttls", "tls", "none"] as const;
export type MailSecurity = (typeof mailSecurities)[number];

export const mailSettingsSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(mailSecurities),
  username: z.string().nullable(),
  has_password: z.boolean(),
  sender_name: z.string().nullable(),
  sender_address: z.string(),
  reply_to: z.string().nullable(),
  updated_at: z.string(),
});
export type MailSettings = z.infer<typeof mailSettingsSchema>;

const settingsAnswer = z.object({ success: z.literal(true), settings: mailSettingsSchema.nullable() });

/** What the form sends: the settings, and the password (a string sets it, null removes it, absent keeps it). */
export interface MailSettingsInput {
  settings: {
    host: string;
    port: number;
    security: MailSecurity;
    username: string | null;
    sender_name: string | null;
    sender_address: string;
    reply_to: string | null;
  };
  password?: string | null;
}

const mailKey = (scope: OrganizationScope) => queryKeys.organization(scope, "mail-settings");

export function useMailSettings(scope: OrganizationScope) {
  return useQuery({
    queryKey: mailKey(scope),
    queryFn: async () => (await rpc("get_mail_settings", {}, settingsAnswer)).settings,
  });
}

export function useSaveMailSettings(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: MailSettingsInput | "clear") =>
      settingsAnswer.parse(
        await invokePrivileged("mail", input === "clear" ? { action: "clear_settings" } : { action: "save_settings", ...input }),
      ).settings,
    onSuccess: (settings) => queryClient.setQueryData(mailKey(scope), settings),
  });
}

export function useSendTestMail() {
  return useMutation({
    mutationFn: (input: { to: string; language: "tr" | "en" }) => invokePrivileged("mail", { action: "send_test", ...input }),
  });
}
