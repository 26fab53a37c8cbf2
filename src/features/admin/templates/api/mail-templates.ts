import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { mailTemplateKinds, type MailTemplateKind } from "@/lib/document-template/mail-placeholders.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

export const mailTemplateLanguages = ["tr", "en"] as const;
export type MailTemplateLanguage = (typeof mailTemplateLanguages)[number];

/** Longest subject and body `save_mail_template` accepts. */
export const MAX_MAIL_SUBJECT_LENGTH = 300;
export const MAX_MAIL_BODY_LENGTH = 20_000;

/** An e-mail template as the mail template RPCs answer it (the product's text when not customized). */
export const mailTemplateSchema = z.looseObject({
  kind: z.enum(mailTemplateKinds),
  language: z.enum(mailTemplateLanguages),
  subject: z.string(),
  body: z.string(),
  customized: z.boolean(),
});
export type MailTemplate = z.infer<typeof mailTemplateSchema>;

const mailTemplateListSchema = z.object({ success: z.literal(true), templates: z.array(mailTemplateSchema) });
const mailTemplateSavedSchema = z.looseObject({ success: z.literal(true), template: mailTemplateSchema });

// Validation messages are catalogue keys; the form translates them when it shows them.
export const mailTemplateFormSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, { error: "adminTemplates.mail.errors.subjectRequired" })
    .max(MAX_MAIL_SUBJECT_LENGTH, { error: "adminTemplates.mail.errors.invalid_subject" })
    .regex(/^[^\p{Cc}]*$/u, { error: "adminTemplates.mail.errors.invalid_subject" }),
  body: z
    .string()
    .regex(/\S/, { error: "adminTemplates.mail.errors.bodyRequired" })
    .max(MAX_MAIL_BODY_LENGTH, { error: "adminTemplates.mail.errors.invalid_body" }),
});
export type MailTemplateFormValues = z.input<typeof mailTemplateFormSchema>;
export type MailTemplateFormOutput = z.output<typeof mailTemplateFormSchema>;

/** The e-mail templates' cache area; the record's composer reads the same templates. */
export const mailTemplateKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "mail-templates"),
};

export function mailTemplatesQueryOptions(scope: OrganizationScope) {
  return queryOptions({
    queryKey: [...mailTemplateKeys.all(scope), "list"],
    queryFn: async () => (await rpc("list_mail_templates", {}, mailTemplateListSchema)).templates,
  });
}

/** Every kind in both languages, as the organization has them. */
export function useMailTemplates(scope: OrganizationScope) {
  return useQuery(mailTemplatesQueryOptions(scope));
}

export interface MailTemplateInput {
  kind: MailTemplateKind;
  language: MailTemplateLanguage;
  subject: string;
  body: string;
}

/** Whatever the outcome, the templates are read again (a refusal can mean they are out of date). */
function useRefetchMailTemplates(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: mailTemplateKeys.all(scope) });
}

/** Saves the organization's own subject and body of a kind in a language. */
export function useSaveMailTemplate(scope: OrganizationScope) {
  const refetch = useRefetchMailTemplates(scope);
  return useMutation({
    mutationFn: async (input: MailTemplateInput) =>
      (
        await rpc(
          "save_mail_template",
          { p_kind: input.kind, p_language: input.language, p_subject: input.subject, p_body: input.body },
          mailTemplateSavedSchema,
        )
      ).template,
    onSettled: refetch,
  });
}

/** Puts a kind in a language back to the product's text. */
export function useResetMailTemplate(scope: OrganizationScope) {
  const refetch = useRefetchMailTemplates(scope);
  return useMutation({
    mutationFn: async (input: Pick<MailTemplateInput, "kind" | "language">) =>
      (await rpc("reset_mail_template", { p_kind: input.kind, p_language: input.language }, mailTemplateSavedSchema)).template,
    onSettled: refetch,
  });
}
