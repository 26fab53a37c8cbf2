import { notifications } from "@mantine/notifications";

/** Tells that an action succeeded (a green notification). */
export function notifySuccess(message: string): void {
  notifications.show({ color: "green", message });
}

/**
 * Tells that an action failed or was refused (a red notification), in words from the
 * catalogue, never the raw error. A fixed `id` shows it once however often it is asked for.
 */
export function notifyFailure(title: string, message: string, id?: string): void {
  notifications.show({ id, color: "red", title, message });
}

/** Tells that an action was done in part: some of it refused, with the reason (an orange notification). */
export function notifyPartial(title: string, message: string): void {
  notifications.show({ color: "orange", title, message });
}
