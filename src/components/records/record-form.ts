/**
 * What a record form does with the engine's refusals: field errors (`invalid_fields`) go on
 * their field as catalogue keys (translated when shown, with formMessage), a stale record
 * (`stale_record`) becomes a refusal the form shows with a reload action, anything else a
 * message from the one error mapper.
 */
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { z } from "zod";
import { failureKey } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";

/** The field error codes the engine and the modules' rules answer; others read "invalid". */
export const fieldErrorCodes = [
  "required",
  "invalid",
  "invalid_vkn",
  "invalid_tckn",
  "invalid_phone",
  "invalid_email",
  "invalid_website",
  "invalid_tags",
  "invalid_owner",
  "unknown_field",
  "duplicate",
  "not_found",
  "too_long",
  "invalid_option",
] as const;
export type FieldErrorCode = (typeof fieldErrorCodes)[number];

/** The catalogue key of a field error code. */
export function fieldErrorKey(code: string): `records.form.fieldErrors.${FieldErrorCode}` {
  const known = (fieldErrorCodes as readonly string[]).includes(code) ? (code as FieldErrorCode) : "invalid";
  return `records.form.fieldErrors.${known}`;
}

/** The {column: code} of an `invalid_fields` refusal, or null. */
export function serverFieldErrors(error: unknown): Record<string, string> | null {
  if (!(error instanceof RpcError) || error.code !== "invalid_fields") return null;
  const fields = error.details.fields;
  if (typeof fields !== "object" || fields === null) return null;
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** Whether the save was refused because someone else changed the record first (optimistic version check). */
export function isStaleRecord(error: unknown): boolean {
  return error instanceof RpcError && error.code === "stale_record";
}

/**
 * Where a field drawn from its declaration is in a record form: under the form's `custom`
 * values (custom-fields/custom-field-form.ts), a custom field's (cf_…) and a standard field
 * no screen draws with its own input alike.
 */
export function customFieldPath(key: string): string {
  return `custom.${key}`;
}

/**
 * Puts a refusal's field errors on the form's fields (the first one focused); formFields
 * names them by their paths (a module's own by name, customFieldPath), errorKey says a
 * code in the module's words.
 * Returns the codes of fields the form does not have, so the caller can tell them another
 * way; null when the refusal was not about fields.
 */
export function applyServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  formFields: readonly string[],
  errorKey: (code: string) => string = fieldErrorKey,
): string[] | null {
  const fields = serverFieldErrors(error);
  if (!fields) return null;
  const unplaced: string[] = [];
  let first = true;
  for (const [column, code] of Object.entries(fields)) {
    // The module's own input by its name, else a field drawn from its declaration.
    const field = formFields.includes(column) ? column : customFieldPath(column);
    if (!formFields.includes(field)) {
      unplaced.push(code);
      continue;
    }
    setError(field as Path<Values>, { type: "server", message: errorKey(code) }, { shouldFocus: first });
    first = false;
  }
  return unplaced;
}

/** The catalogue key of a refusal that is neither about fields nor stale. */
export function recordFailureKey(error: unknown) {
  return failureKey(error, "records.form.errors", ["not_found", "not_record_owner", "permission_denied", "invalid_input"]);
}

/**
 * What a refused save leaves a record form with: "stale" (someone else changed the record:
 * offer its latest version), "placed" (every field error is on its input) or "notify" (the
 * refusal, or a field the form does not have, is said in a notification).
 */
export function settleRefusal<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  formFields: readonly string[],
  errorKey: (code: string) => string = fieldErrorKey,
): "stale" | "placed" | "notify" {
  if (isStaleRecord(error)) return "stale";
  const unplaced = applyServerFieldErrors(error, setError, formFields, errorKey);
  return unplaced === null || unplaced.length > 0 ? "notify" : "placed";
}

/** The latest version a stale_record refusal carries (its details' record), read as the module's record; null without one. */
export function staleLatest<Record_>(error: unknown, schema: z.ZodType<Record_>): Record_ | null {
  if (!isStaleRecord(error)) return null;
  const latest = schema.safeParse((error as RpcError).details.record);
  return latest.success ? latest.data : null;
}

/** What closing a record form does: with unsaved changes (and no save under way) it asks first. */
export function closeAction(dirty: boolean, saving: boolean): "ask" | "close" {
  return dirty && !saving ? "ask" : "close";
}
