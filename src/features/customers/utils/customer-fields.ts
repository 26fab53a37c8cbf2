/** The customer's kinds and statuses (the database's check constraints). */
export const customerKinds = ["company", "person"] as const;
export type CustomerKind = (typeof customerKinds)[number];
export const customerStatuses = ["lead", "active", "passive"] as const;
export type CustomerStatus = (typeof customerStatuses)[number];

/** The fields a customer form writes (its writable fields drawn by its own inputs, private.module_fields). */
export const customerFields = [
  "name",
  "kind",
  "tax_number",
  "tax_office",
  "sector",
  "status",
  "phone",
  "email",
  "website",
  "city",
  "district",
  "address",
  "tags",
  "description",
] as const;
export type CustomerField = (typeof customerFields)[number];
