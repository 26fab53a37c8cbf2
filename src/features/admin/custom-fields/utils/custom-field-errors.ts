/**
 * What the admin is told when saving, moving or deleting a custom field fails: the server's
 * field errors on their inputs, everything else one message; never a code, key or id.
 */
import { mapFailure } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";
import type { DraftField } from "./field-draft.ts";

/** The texts of field errors (adminCustomFields.fieldErrors.*). */
export const fieldErrorMessages = [
  "required",
  "invalid",
  "too_long",
  "reserved_key",
  "invalid_key",
  "options_required",
  "too_many_options",
  "option_too_long",
  "duplicate_option",
  "option_in_use",
  "type_not_convertible",
  "not_for_type",
] as const;
export type FieldErrorMessage = `adminCustomFields.fieldErrors.${(typeof fieldErrorMessages)[number]}`;

/** The texts of whole failures (adminCustomFields.errors.*). */
export const failureMessages = [
  "invalid_fields",
  "too_many_fields",
  "type_not_convertible",
  "option_in_use",
  "stale_record",
  "not_found",
  "admin_required",
  "tables_not_found",
  "invalid_input",
  "network",
  "unknown",
] as const;
export type FailureMessage = `adminCustomFields.errors.${(typeof failureMessages)[number]}`;

const draftFields: readonly DraftField[] = ["key", "type", "label_tr", "label_en", "options", "currency", "link_module", "filterable", "searchable"];

/** One server field error in words: by the input and the code (a reserved key, two options of one value...). */
export function fieldErrorMessage(field: string, code: string): FieldErrorMessage {
  const key = (name: (typeof fieldErrorMessages)[number]): FieldErrorMessage => `adminCustomFields.fieldErrors.${name}`;
  if (field === "key") return key(code === "reserved" ? "reserved_key" : "invalid_key");
  if (field === "options") {
    const byCode: Record<string, (typeof fieldErrorMessages)[number]> = {
      required: "options_required",
      too_many: "too_many_options",
      too_long: "option_too_long",
      duplicate: "duplicate_option",
      option_in_use: "option_in_use",
    };
    return key(byCode[code] ?? "invalid");
  }
  if (field === "type" && code === "type_not_convertible") return key("type_not_convertible");
  if ((field === "filterable" || field === "searchable") && code === "invalid") return key("not_for_type");
  if (code === "required" || code === "too_long") return key(code);
  return key("invalid");
}

export interface CustomFieldFailure {
  /** The whole failure's message, with what it needs (the limit, a count). */
  message: { key: FailureMessage; values?: Record<string, number> };
  /** Messages under the editor's inputs. */
  fields: Partial<Record<DraftField, FieldErrorMessage>>;
}

const limitOf = (error: RpcError) => (typeof error.details.limit === "number" ? error.details.limit : 100);

/** Maps a failed custom-field call to its messages. */
export function customFieldFailure(error: unknown): CustomFieldFailure {
  const fields: CustomFieldFailure["fields"] = {};
  if (error instanceof RpcError && typeof error.details.fields === "object" && error.details.fields !== null) {
    for (const [field, code] of Object.entries(error.details.fields as Record<string, unknown>)) {
      if ((draftFields as readonly string[]).includes(field) && typeof code === "string") fields[field as DraftField] = fieldErrorMessage(field, code);
    }
  }
  const byCode: Record<string, CustomFieldFailure["message"]> = Object.fromEntries(
    failureMessages.map((code) => [code, { key: `adminCustomFields.errors.${code}` as FailureMessage }]),
  );
  if (error instanceof RpcError) {
    byCode.too_many_fields = { key: "adminCustomFields.errors.too_many_fields", values: { limit: limitOf(error) } };
    if (typeof error.details.count === "number") {
      byCode.option_in_use = { key: "adminCustomFields.errors.option_in_use", values: { count: error.details.count } };
    }
  }
  // A field error the editor has no input for (an unknown setting) reads as an invalid request.
  if (error instanceof RpcError && error.code === "invalid_fields" && Object.keys(fields).length === 0) {
    return { message: { key: "adminCustomFields.errors.invalid_input" }, fields };
  }
  const message = mapFailure(error, byCode, {
    network: { key: "adminCustomFields.errors.network" },
    unknown: { key: "adminCustomFields.errors.unknown" },
  });
  return { message, fields };
}
