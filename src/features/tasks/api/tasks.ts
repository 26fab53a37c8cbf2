/**
 * The tasks module's records: a task (get_task) and what its form writes (create_task and
 * update_task, with the rules of private.prepare_task, go through the record form's save).
 */
import { z } from "zod";
import { taskRowSchema } from "@/components/tasks/task-row.ts";

/** A whole task (get_task). */
export const taskSchema = taskRowSchema.extend({
  description: z.string().nullable(),
  completed_by: z.string().nullable().optional(),
});
export type Task = z.infer<typeof taskSchema>;


export interface TaskValues {
  title: string;
  description: string | null;
  type: string | null;
  priority: string;
  status: string;
  due_at: string | null;
  remind_at: string | null;
  customer_id: string | null;
  contact_id: string | null;
  deal_id: string | null;
  /** Left out when the member may only give tasks to themselves. */
  owner_id?: string;
}
