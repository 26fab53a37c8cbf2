import { passwordRefusalKey, type PasswordRuleKey } from "@/lib/password-rules.ts";
import { failureKey } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";

/** The form fields a refusal can belong under (the create, edit and reset forms share them). */
export type UserField = "email" | "password" | "firstName" | "lastName" | "role";

/** Refusal codes of `admin-users` and `admin-transfer` the screen has a text for. */
export const knownErrorCodes = [
  "invalid_email",
  "organization_required",
  "email_in_use",
  "admin_required",
  "super_admin_required",
  "shared_account",
  "self_delete",
  "self_action",
  "has_records",
  "user_not_found",
  "invalid_role",
  "name_too_long",
  "invalid_users",
  "tables_not_found",
] as const;
export type KnownErrorCode = (typeof knownErrorCodes)[number];

export type UserErrorKey = `adminUsers.errors.${KnownErrorCode | "network" | "unknown"}` | PasswordRuleKey;

export interface UserAdminError {
  /** The field the message belongs under; none for a message about the whole action. */
  field?: UserField;
  key: UserErrorKey;
  /** has_records: the user's records per table, to show before offering the transfer. */
  records?: Record<string, number>;
}

const fieldByKey: Partial<Record<UserErrorKey, UserField>> = {
  "adminUsers.errors.invalid_email": "email",
  "adminUsers.errors.email_in_use": "email",
  "adminUsers.errors.name_too_long": "firstName",
  "adminUsers.errors.invalid_role": "role",
};

function recordCounts(value: unknown): Record<string, number> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === "number" && entry[1] > 0),
  );
}

/**
 * Maps a failed user administration call to a translated message (and the field it concerns),
 * so that no raw error text reaches the screen.
 */
export function userAdminError(error: unknown): UserAdminError {
  const passwordKey = passwordRefusalKey(error);
  if (passwordKey) return { field: "password", key: passwordKey };
  const key = failureKey(error, "adminUsers.errors", knownErrorCodes);
  const field = fieldByKey[key];
  const mapped: UserAdminError = field ? { field, key } : { key };
  if (key === "adminUsers.errors.has_records" && error instanceof RpcError) mapped.records = recordCounts(error.details.records);
  return mapped;
}

/** Tables a has_records refusal counts, with their labels (adminUsers.records.*). */
export const recordTables = [
  "deals",
  "customers",
  "contacts",
  "tasks",
  "contracts",
  "quotes",
  "quote_items",
  "document_templates",
] as const;
export type RecordTable = (typeof recordTables)[number];

export function isRecordTable(value: string): value is RecordTable {
  return recordTables.includes(value as RecordTable);
}
