import type { AuditActor } from "../api/schemas.ts";

/** The actions the database records (private.write_audit), with their catalogue keys. */
export const knownAuditActions = {
  "user.created": "userCreated",
  "user.updated": "userUpdated",
  "user.deleted": "userDeleted",
  "user.removed": "userRemoved",
  "user.locked": "userLocked",
  "user.unlocked": "userUnlocked",
  "user.password_reset": "userPasswordReset",
  "user.password_changed": "userPasswordChanged",
  "user.password_synced": "userPasswordSynced",
  "user.records_transferred": "userRecordsTransferred",
  "user.access_refused": "userAccessRefused",
  "organization.created": "organizationCreated",
  "organization.updated": "organizationUpdated",
  "organization.tables_provisioned": "organizationTablesProvisioned",
  "role.saved": "roleSaved",
  "role.deleted": "roleDeleted",
  "settings.updated": "settingsUpdated",
  "session.super_admin_entered": "sessionSuperAdminEntered",
  "session.super_admin_left": "sessionSuperAdminLeft",
  "session.super_admin_switched": "sessionSuperAdminSwitched",
} as const;

export type KnownAuditAction = keyof typeof knownAuditActions;
export type AuditActionKey = `auditLog.actions.${(typeof knownAuditActions)[KnownAuditAction]}`;

/** The catalogue key of a known action; undefined for one this version does not know (shown raw). */
export function auditActionKey(action: string): AuditActionKey | undefined {
  if (!Object.hasOwn(knownAuditActions, action)) return undefined;
  return `auditLog.actions.${knownAuditActions[action as KnownAuditAction]}`;
}

/** The label of an action: translated when known, the raw action otherwise. */
export function auditActionLabel(action: string, translate: (key: AuditActionKey) => string): string {
  const key = auditActionKey(action);
  return key ? translate(key) : action;
}

/** The actor's full name, else their email; undefined when the entry has no actor (the system). */
export function auditActorName(actor: AuditActor | null): string | undefined {
  if (!actor) return undefined;
  const name = [actor.first_name, actor.last_name].map((part) => part?.trim() ?? "").filter(Boolean).join(" ");
  return name || actor.email || undefined;
}

export const knownTargetTypes = ["user", "organization", "role", "settings", "document_template"] as const;
export type KnownTargetType = (typeof knownTargetTypes)[number];

export function isKnownTargetType(type: string | null): type is KnownTargetType {
  return knownTargetTypes.includes(type as KnownTargetType);
}
