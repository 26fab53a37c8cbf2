import { failureKey } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";

export const knownSettingsErrorCodes = [
  "invalid_setting",
  "invalid_input",
  "admin_required",
  "organization_context_required",
  "invalid_logo_type",
  "invalid_logo",
  "logo_too_large",
] as const;
export type KnownSettingsErrorCode = (typeof knownSettingsErrorCodes)[number];

export interface SettingsError {
  key: `adminSettings.errors.${KnownSettingsErrorCode | "network" | "unknown"}`;
  /** invalid_setting: the settings field the server refused (its own name, e.g. default_vat_rate). */
  field?: string;
  /** invalid_setting of bank_accounts: the refused entry (from 0) and why (invalid_iban, duplicate_iban…). */
  index?: number;
  problem?: string;
}

/** Maps a failed settings call to a catalogue key and, for invalid_setting, the field it names. */
export function settingsError(error: unknown): SettingsError {
  const key = failureKey(error, "adminSettings.errors", knownSettingsErrorCodes);
  const details = key === "adminSettings.errors.invalid_setting" && error instanceof RpcError ? error.details : undefined;
  const field = details?.field;
  if (typeof field !== "string") return { key };
  return {
    key,
    field,
    ...(typeof details?.index === "number" ? { index: details.index } : {}),
    ...(typeof details?.problem === "string" ? { problem: details.problem } : {}),
  };
}

/** Narrows a refused field to one of a form's fields, so the message goes under it. */
export function formFieldOf<F extends string>(failure: SettingsError, fields: readonly F[]): F | undefined {
  return fields.find((field) => field === failure.field);
}
