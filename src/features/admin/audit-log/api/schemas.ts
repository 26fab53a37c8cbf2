import { z } from "zod";

export const auditActorSchema = z.looseObject({
  id: z.string().nullable(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});

export type AuditActor = z.infer<typeof auditActorSchema>;

export const auditEntrySchema = z.looseObject({
  id: z.number(),
  action: z.string().min(1),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
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
