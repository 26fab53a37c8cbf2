/**
 * Calls every screen with tasks makes: marking a task done from a list (complete_task,
 * through the record engine, refused as stale when the task changed since the list was
 * read) and opening it again, and who may do that.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { recordKeys } from "@/components/records/record-api.ts";
import { isStaleRecord } from "@/components/records/record-form.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { usableTimeZone } from "@/lib/zoned-time.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { taskRowSchema, type TaskRow } from "./task-row.ts";

const recordAnswer = z.object({ record: taskRowSchema.loose() });
/** A cached page of a task list (useRecordList with the task row). */
type ListPage = { records: TaskRow[] };

/**
 * Marks a task done (complete_task) or open again (update_task: status open), with the
 * updated_at the screen read. The row changes in place in every cached task list, so a
 * list of open tasks keeps it (ticked) until it is next read; the task's own page and
 * history are read again.
 */
export function useSetTaskDone() {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ task, done }: { task: Pick<TaskRow, "id" | "updated_at">; done: boolean }) =>
      done
        ? (await rpc("complete_task", { p_id: task.id, p_updated_at: task.updated_at }, recordAnswer)).record
        : (await rpc("update_task", { p_id: task.id, p_values: { status: "open" }, p_updated_at: task.updated_at }, recordAnswer)).record,
    onSuccess: async (record) => {
      queryClient.setQueriesData<ListPage>({ queryKey: [...recordKeys.all(scope, "tasks"), "list"] }, (page) =>
        page?.records
          ? {
              ...page,
              records: page.records.map((row) =>
                row.id === record.id
                  ? { ...row, status: record.status, completed_at: record.completed_at, updated_at: record.updated_at }
                  : row,
              ),
            }
          : page,
      );
      // Everything else about tasks is read again when next shown; the task itself now.
      await queryClient.invalidateQueries({ queryKey: recordKeys.all(scope, "tasks"), refetchType: "none" });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: recordKeys.record(scope, "tasks", record.id) }),
        queryClient.invalidateQueries({ queryKey: recordKeys.timeline(scope, "tasks", record.id) }),
      ]);
    },
    // Changed by someone else since it was read: the lists show its latest state.
    onError: (error) => {
      if (isStaleRecord(error)) void queryClient.invalidateQueries({ queryKey: recordKeys.all(scope, "tasks") });
    },
  });
}

/** Whether the signed-in member may change a task (edit scope all, or own and it is theirs). */
export function useCanEditTask(): (task: Pick<TaskRow, "owner_id">) => boolean {
  const session = useSignedInSession();
  const permissions = useMyPermissions();
  const scope = permissions.data?.permissions.tasks?.edit;
  return (task) => scope === "all" || (scope === "own" && task.owner_id === session.user.id);
}

/** The organization's time zone (its settings), in which task days and weeks are counted. */
export function useOrganizationTimeZone(): string {
  const settings = useOrganizationSettings();
  return usableTimeZone(settings.data?.time_zone);
}
