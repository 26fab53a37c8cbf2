/**
 * Phone numbers as a person reads them: the stored E.164 value (+902242124933, as
 * normalizePhone in turkish-identifiers.ts keeps it) grouped by its country's rules,
 * +90 224 212 49 33 for Turkey and e.g. +49 30 1234567 or +1 212 555 0123 elsewhere.
 * libphonenumber-js with its "min" metadata (no number-type data): the groupings of every
 * country at a fraction of the full metadata's size. A value it cannot read as a number is
 * shown as it was typed.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/min";

/** The number grouped for display (and export); anything not a possible number, unchanged. */
export function formatPhone(value: string): string;
export function formatPhone(value: string | null | undefined): string | null;
export function formatPhone(value: string | null | undefined): string | null {
  if (value == null) return null;
  const text = value.trim();
  if (text === "") return value;
  const parsed = parsePhoneNumberFromString(text, "TR");
  if (!parsed?.isPossible()) return value;
  return parsed.formatInternational();
}
