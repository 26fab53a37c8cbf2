/** The task's fields as its form writes them (the registry's declarations of tasks, held equal by tests/integration/module-registry.test.ts). */

/** The fields a task form writes (its writable fields drawn by its own inputs, private.module_fields, and the owner). */
export const taskFields = [
  "title",
  "description",
  "type",
  "priority",
  "status",
  "due_at",
  "remind_at",
  "customer_id",
  "contact_id",
  "deal_id",
  "owner_id",
] as const;
export type TaskField = (typeof taskFields)[number];
