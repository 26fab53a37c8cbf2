/** The deal's fields as its form writes them (the registry's declarations of deals, held equal by tests/integration/module-registry.test.ts). */

/** The fields a deal form writes (its writable fields drawn by its own inputs, private.module_fields). */
export const dealFields = [
  "title",
  "customer_id",
  "amount",
  "currency",
  "stage",
  "probability",
  "expected_close_date",
  "source",
  "tags",
  "description",
  "lost_reason",
] as const;
export type DealField = (typeof dealFields)[number];
