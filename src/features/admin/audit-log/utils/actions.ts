import type { AuditActor } from "../api/schemas.ts";

/** The actor's full name, else their email; undefined when the entry has no actor (the system) or the account is gone. */
export function auditActorName(actor: AuditActor | null): string | undefined {
  if (!actor) return undefined;
  const name = [actor.first_name, actor.last_name].map((part) => part?.trim() ?? "").filter(Boolean).join(" ");
  return name || actor.email || undefined;
}

export const knownTargetTypes = ["user", "organization", "role", "settings", "document_template", "import"] as const;
export type KnownTargetType = (typeof knownTargetTypes)[number];

export function isKnownTargetType(type: string | null): type is KnownTargetType {
  return knownTargetTypes.includes(type as KnownTargetType);
}
