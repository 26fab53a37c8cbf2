import { z } from "zod";
import { recordBaseSchema } from "@/components/records/record-api.ts";
import { taskPriorities, taskStatuses } from "./task-fields.ts";

/** A task's row in a list (the module's list columns). */
export const taskRowSchema = recordBaseSchema.extend({
  title: z.string(),
  type: z.string().nullable(),
  priority: z.enum(taskPriorities).catch("normal"),
  status: z.enum(taskStatuses),
  due_at: z.string().nullable(),
  remind_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  customer_id: z.string().nullable(),
  contact_id: z.string().nullable(),
  deal_id: z.string().nullable(),
});
export type TaskRow = z.infer<typeof taskRowSchema>;
