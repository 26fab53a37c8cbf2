/**
 * The tasks module's calls: a task (get_task), creating and changing one through the record
 * engine (create_task, update_task, with the rules of private.prepare_task).
 */
import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { useInvalidateRecords } from "@/components/records/record-api.ts";
import { taskRowSchema } from "@/components/tasks/task-row.ts";
import { rpc } from "@/lib/call-rpc.ts";
import type { Json } from "@/types/database.types.ts";

/** A whole task (get_task). */
export const taskSchema = taskRowSchema.extend({
  description: z.string().nullable(),
  completed_by: z.string().nullable().optional(),
});
export type Task = z.infer<typeof taskSchema>;

/** The fields a task form writes (private.modules: tasks.writable_columns, and the owner). */
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

const recordAnswer = z.object({ record: taskSchema });

export function useCreateTask() {
  const invalidate = useInvalidateRecords("tasks");
  return useMutation({
    mutationFn: async (values: TaskValues) => (await rpc("create_task", { p_values: values as unknown as Json }, recordAnswer)).record,
    onSuccess: invalidate,
  });
}

export function useUpdateTask() {
  const invalidate = useInvalidateRecords("tasks");
  return useMutation({
    mutationFn: async ({ id, values, updatedAt }: { id: string; values: Partial<TaskValues>; updatedAt: string }) =>
      (await rpc("update_task", { p_id: id, p_values: values as unknown as Json, p_updated_at: updatedAt }, recordAnswer)).record,
    onSuccess: invalidate,
  });
}
