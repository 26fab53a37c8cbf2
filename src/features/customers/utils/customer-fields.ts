/** The customer's kinds and statuses (the database's check constraints). */
export const customerKinds = ["company", "person"] as const;
export type CustomerKind = (typeof customerKinds)[number];
export const customerStatuses = ["lead", "active", "passive"] as const;
export type CustomerStatus = (typeof customerStatuses)[number];
