/**
 * The colours of the quotes' and contracts' status badges, shared by their modules' pages and
 * the related lists of other records' pages (src/components/records/RelatedRecords.tsx).
 */

export const quoteStatusColors = {
  draft: "gray",
  sent: "blue",
  accepted: "green",
  rejected: "red",
  expired: "orange",
} as const;

export const contractStatusColors = {
  draft: "gray",
  active: "green",
  expired: "orange",
  terminated: "red",
  renewed: "blue",
} as const;
