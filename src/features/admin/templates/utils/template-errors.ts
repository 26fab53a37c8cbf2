import { RpcError } from "@/lib/rpc.ts";

/** Refusal codes of the template RPCs the screen has a text for (adminTemplates.errors.*). */
export const knownTemplateErrorCodes = [
  "invalid_kind",
  "invalid_name",
  "body_too_long",
  "template_not_found",
  "admin_required",
  "tables_not_found",
] as const;
type KnownCode = (typeof knownTemplateErrorCodes)[number];

export type TemplateField = "name" | "kind" | "body";

export interface TemplateError {
  /** The form field the message belongs under; none for a message about the whole action. */
  field?: TemplateField;
  key: `adminTemplates.errors.${KnownCode | "network" | "unknown"}`;
}

const fieldByCode: Partial<Record<KnownCode, TemplateField>> = {
  invalid_kind: "kind",
  invalid_name: "name",
  body_too_long: "body",
};

const isKnown = (code: string | undefined): code is KnownCode => knownTemplateErrorCodes.includes(code as KnownCode);

/** Maps a failed template call to a translated message, so raw errors never reach the screen. */
export function templateError(error: unknown): TemplateError {
  if (error instanceof RpcError) {
    if (!isKnown(error.code)) return { key: "adminTemplates.errors.unknown" };
    const field = fieldByCode[error.code];
    return field ? { field, key: `adminTemplates.errors.${error.code}` } : { key: `adminTemplates.errors.${error.code}` };
  }
  if (error instanceof TypeError && /fetch/i.test(error.message)) return { key: "adminTemplates.errors.network" };
  return { key: "adminTemplates.errors.unknown" };
}
