import { formatCount } from "@/lib/format.ts";

/**
 * How many records hold a value of a field, as the deletion warning says it: "12", or
 * "10.000+" when count_custom_field_values stopped counting (exact only up to 10,000).
 */
export function valueCountText(count: number, exact: boolean, language: string | undefined): string {
  return `${formatCount(count, language)}${exact ? "" : "+"}`;
}
