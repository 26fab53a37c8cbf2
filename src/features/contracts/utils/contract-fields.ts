/** The contract's enumerations and writable fields, as private.prepare_contract and the registry know them. */

/** The contract types as stored (private.contract_types()); the texts name them. */
export const contractTypes = ["service", "sales", "maintenance", "license", "nda", "other"] as const;
export type ContractType = (typeof contractTypes)[number];

/** The statuses in workflow order (private.contract_status). */
export const contractStatuses = ["draft", "active", "expired", "terminated", "renewed"] as const;
export type ContractStatus = (typeof contractStatuses)[number];

/** The fields a contract form writes (private.modules: contracts.writable_columns). */
export const contractFields = [
  "title",
  "customer_id",
  "contact_id",
  "quote_id",
  "deal_id",
  "contract_type",
  "start_date",
  "end_date",
  "value",
  "currency",
  "status",
  "customer_signed_on",
  "company_signed_on",
  "auto_renew",
  "renewal_notice_days",
  "renewal_term_months",
  "notes",
] as const;
export type ContractField = (typeof contractFields)[number];
