import { z } from "zod";
import { templateKinds } from "@/lib/document-template/placeholders.ts";

/** Longest body `save_document_template` accepts. */
export const MAX_BODY_LENGTH = 200_000;

/** A template as `list_document_templates` answers it. */
export const documentTemplateSchema = z.looseObject({
  id: z.guid(),
  kind: z.enum(templateKinds),
  name: z.string(),
  body: z.string(),
  is_default: z.boolean(),
  owner_id: z.guid().nullable(),
  created_at: z.string().min(1),
  updated_at: z.string().min(1),
});
export type DocumentTemplate = z.infer<typeof documentTemplateSchema>;

export const templateListSchema = z.object({
  success: z.literal(true),
  templates: z.array(documentTemplateSchema),
});

export const templateSavedSchema = z.looseObject({ success: z.literal(true), id: z.guid() });
export const templateDeletedSchema = z.looseObject({ success: z.literal(true) });

// Validation messages are catalogue keys; the form translates them when it shows them.
export const templateFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: "adminTemplates.errors.nameRequired" })
    .max(200, { error: "adminTemplates.errors.invalid_name" }),
  kind: z.enum(templateKinds, { error: "adminTemplates.errors.invalid_kind" }),
  isDefault: z.boolean(),
  body: z.string().max(MAX_BODY_LENGTH, { error: "adminTemplates.errors.body_too_long" }),
});
export type TemplateFormValues = z.input<typeof templateFormSchema>;
export type TemplateFormOutput = z.output<typeof templateFormSchema>;
