/**
 * Wall-clock time in a named time zone (the organization's, e.g. Europe/Istanbul) without a
 * date library: the day and week boundaries the task views filter on, the date-time a form
 * field shows and the instant it means. Intl knows the zones' rules (summer time included).
 */

export interface WallTime {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 1 = Monday ... 7 = Sunday (ISO). */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const weekdays: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The wall-clock time in the zone at an instant. */
export function wallTime(instant: Date, timeZone: string): WallTime & { second: number } {
  const parts = Object.fromEntries(formatterFor(timeZone).formatToParts(instant).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: weekdays[parts.weekday] ?? 1,
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const wall = wallTime(new Date(instant), timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the zone's wall clock shows this date and time. Days and months beyond their
 * range roll over (day 32 is the next month's first). A time skipped by a summer-time jump
 * is read with the offset from before the jump, as PostgreSQL does.
 */
export function zonedInstant(timeZone: string, year: number, month: number, day: number, hour = 0, minute = 0): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  const shows = (instant: number) => offsetAt(instant, timeZone) === wall - instant;
  const instant = shows(first) ? first : shows(second) ? second : Math.max(first, second);
  return new Date(instant);
}

/** The first instant of the zone's day that holds `instant`, and of the days after it. */
export function startOfZonedDay(instant: Date, timeZone: string, daysLater = 0): Date {
  const wall = wallTime(instant, timeZone);
  return zonedInstant(timeZone, wall.year, wall.month, wall.day + daysLater);
}

/** The first instant of the next week (Monday 00:00 in the zone), as PostgreSQL's date_trunc('week') counts weeks. */
export function startOfNextZonedWeek(instant: Date, timeZone: string): Date {
  const wall = wallTime(instant, timeZone);
  return zonedInstant(timeZone, wall.year, wall.month, wall.day + (8 - wall.weekday));
}

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** An instant as a datetime-local field's value ("2026-11-23T14:30") on the zone's wall clock. */
export function toZonedInputValue(iso: string | null, timeZone: string): string {
  if (!iso) return "";
  const wall = wallTime(new Date(iso), timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

/** A datetime-local field's value read on the zone's wall clock, as an ISO instant; null when empty or malformed. */
export function fromZonedInputValue(value: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  return zonedInstant(timeZone, year, month, day, hour, minute).toISOString();
}

/** A zone name Intl knows, or the fallback (a settings value could be one the browser lacks). */
export function usableTimeZone(timeZone: string | undefined, fallback = "Europe/Istanbul"): string {
  if (!timeZone) return fallback;
  try {
    formatterFor(timeZone);
    return timeZone;
  } catch {
    return fallback;
  }
}

/** A date and time in the interface's language, on the zone's wall clock. */
export function formatZonedDateTime(iso: string, language: string | undefined, timeZone: string): string {
  return new Intl.DateTimeFormat(language === "en" ? "en-GB" : "tr-TR", { dateStyle: "medium", timeStyle: "short", timeZone }).format(
    new Date(iso),
  );
}
