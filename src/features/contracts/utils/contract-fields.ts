/** The contract's enumerations and writable fields, as private.prepare_contract and the registry know them. */

/** The contract types as stored (private.contract_types()); the texts name them. */
export const contractTypes = ["service", "sales", "maintenance", "license", "nda", "other"] as const;
export type ContractType = (typeof contractTypes)[number];

/** The KDV withholding (tevkifat) ratios (private.withholding_rates()). */
export const withholdingRates = ["2/10", "3/10", "4/10", "5/10", "7/10", "9/10", "10/10"] as const;
export type WithholdingRate = (typeof withholdingRates)[number];

/** The statuses in workflow order (private.contract_status). */
export const contractStatuses = ["draft", "active", "expired", "terminated", "renewed"] as const;
export type ContractStatus = (typeof contractStatuses)[number];

/** The fields a contract form writes (its writable fields drawn by its own inputs, private.module_fields). */
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
  "value_includes_vat",
  "vat_amount",
  "withholding_amount",
  "withholding_rate",
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
