/**
 * Likely duplicates before a record is created (`find_<entity>_duplicates`, called with
 * findDuplicates in record-api.ts; private.record_duplicates): the records the caller may
 * see with the same tax number, email or phone, or a similar name, each with its reasons.
 */
import { useState } from "react";
import { z } from "zod";

/** The reasons the database gives (a module gives those that apply to it). */
export const duplicateReasons = ["tax_number", "email", "phone", "name"] as const;
export type DuplicateReason = (typeof duplicateReasons)[number];

const isReason = (reason: string): reason is DuplicateReason => (duplicateReasons as readonly string[]).includes(reason);

/** A likely duplicate: its id, the module's columns the answer carries, its reasons (unknown ones left out). */
export function recordDuplicateSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({ id: z.string(), ...shape, reasons: z.array(z.string()).transform((reasons) => reasons.filter(isReason)) });
}

/** The likely duplicates of the values; none when the check fails (it only helps: the database still decides). */
export async function duplicatesOf<Values, Duplicate>(values: Values, find: (values: Values) => Promise<Duplicate[]>): Promise<Duplicate[]> {
  try {
    return await find(values);
  } catch {
    return [];
  }
}

/**
 * A create form's check before it creates: `check` creates at once when nothing is found,
 * otherwise holds the values and what was found for the warning (RecordDuplicates), whose
 * actions create anyway, create and merge, or go back (`dismiss`).
 */
export function useDuplicateCheck<Values, Duplicate>(find: (values: Values) => Promise<Duplicate[]>) {
  const [checking, setChecking] = useState(false);
  const [found, setFound] = useState<{ values: Values; duplicates: Duplicate[] } | null>(null);
  const check = async (values: Values, create: (values: Values) => void) => {
    setChecking(true);
    try {
      const duplicates = await duplicatesOf(values, find);
      if (duplicates.length > 0) setFound({ values, duplicates });
      else create(values);
    } finally {
      setChecking(false);
    }
  };
  return { checking, found, check, dismiss: () => setFound(null) };
}
