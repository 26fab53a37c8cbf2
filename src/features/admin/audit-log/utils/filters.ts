/** The audit log's filters as the page holds them: a member's id, an action, and calendar days (YYYY-MM-DD). */
export interface AuditFilters {
  actor?: string | null;
  action?: string | null;
  from?: string | null;
  to?: string | null;
}

const day = /^\d{4}-\d{2}-\d{2}$/;

/** The start of a calendar day in the browser's time zone, as an instant. */
function startOfDay(value: string): string {
  const [year, month, date] = value.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date).toISOString();
}

/** The start of the day after a calendar day (the range's end is exclusive, so the whole "to" day is in it). */
function startOfNextDay(value: string): string {
  const [year, month, date] = value.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date + 1).toISOString();
}

/** True when both days are set and the end is before the start. */
export function isInvalidRange(filters: AuditFilters): boolean {
  return Boolean(filters.from && filters.to && day.test(filters.from) && day.test(filters.to) && filters.to < filters.from);
}

/** The get_audit_log arguments of the filters; unset or malformed ones are left out (a reversed range matches nothing). */
export function auditFilterArgs(filters: AuditFilters): { p_actor_id?: string; p_action?: string; p_from?: string; p_to?: string } {
  return {
    ...(filters.actor ? { p_actor_id: filters.actor } : {}),
    ...(filters.action ? { p_action: filters.action } : {}),
    ...(filters.from && day.test(filters.from) ? { p_from: startOfDay(filters.from) } : {}),
    ...(filters.to && day.test(filters.to) ? { p_to: startOfNextDay(filters.to) } : {}),
  };
}

/** True when any filter is set. */
export function hasFilters(filters: AuditFilters): boolean {
  return Boolean(filters.actor || filters.action || filters.from || filters.to);
}
