import { z } from "zod";

export const auditActorSchema = z.looseObject({
  id: z.string().nullable(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** The account is gone (the entry keeps its id only). */
  deleted: z.boolean().nullable().optional(),
});

export type AuditActor = z.infer<typeof auditActorSchema>;

/** What the entry is about, in words (private.audit_target); null when it no longer exists. */
export const auditTargetSchema = z.looseObject({
  name: z.string().nullable(),
  /** A person's e-mail (two people may share a name). */
  email: z.string().nullable().optional(),
  exists: z.boolean().optional(),
  /** The module whose record page opens it (not deleted). */
  module: z.string().nullable().optional(),
});

export const auditEntrySchema = z.looseObject({
  id: z.number(),
  action: z.string().min(1),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  target: auditTargetSchema.nullable().optional(),
  details: z.unknown(),
  created_at: z.string().min(1),
  actor: auditActorSchema.nullable(),
});

export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Answer of `get_audit_log`: entries newest first. */
export const auditLogSchema = z.object({
  success: z.literal(true),
  entries: z.array(auditEntrySchema),
});
