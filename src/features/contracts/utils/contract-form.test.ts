import { describe, expect, it } from "vitest";
import type { Contract } from "../api/contracts.ts";
import { contractFieldErrorKey, contractFormOf, contractFormSchema, contractValuesOf, emptyContractForm } from "./contract-form.ts";

const form = (values: object = {}) => ({ ...emptyContractForm("TRY"), title: "Bakım", ...values });
const messages = (values: object) =>
  contractFormSchema.safeParse(form(values)).error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];

const active: Contract = {
  id: "c1",
  owner_id: "u1",
  owner_name: "Ayşe",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-02T00:00:00Z",
  contract_number: "SZL-2026-00001",
  title: "Bakım",
  customer_id: null,
  contact_id: null,
  quote_id: null,
  deal_id: null,
  contract_type: "maintenance",
  status: "active",
  start_date: "2026-01-01",
  end_date: "2026-12-31",
  value: "120000.5",
  value_includes_vat: false,
  vat_amount: null,
  currency: "TRY",
  customer_signed_on: null,
  company_signed_on: null,
  auto_renew: true,
  renewal_notice_days: 30,
  renewal_term_months: 12,
  previous_contract_id: null,
  terminated_at: null,
  termination_reason: null,
  notes: null,
};

describe("contractFormSchema", () => {
  it("accepts a draft with only a title", () => {
    expect(messages({})).toEqual([]);
  });

  it("checks the rules prepare_contract checks", () => {
    expect(messages({ title: "  " })).toEqual([["title", "modules.contracts.form.errors.titleRequired"]]);
    expect(messages({ start_date: "2026-05-01", end_date: "2026-04-30" })).toEqual([["end_date", "modules.contracts.form.errors.end_before_start"]]);
    expect(messages({ status: "active" })).toEqual([
      ["start_date", "modules.contracts.form.errors.required_for_active"],
      ["end_date", "modules.contracts.form.errors.required_for_active"],
    ]);
    expect(messages({ value: "10.125" })).toEqual([["value", "modules.contracts.form.errors.valueInvalid"]]);
    expect(messages({ value: "-1" })).toEqual([["value", "modules.contracts.form.errors.valueInvalid"]]);
    expect(messages({ renewal_notice_days: 366 })).toEqual([["renewal_notice_days", "modules.contracts.form.errors.noticeInvalid"]]);
    expect(messages({ renewal_term_months: 0 })).toEqual([["renewal_term_months", "modules.contracts.form.errors.termInvalid"]]);
  });

  it("withholds KDV (tevkifat) only out of a stated KDV amount, compared exactly", () => {
    const exceeds = [["withholding_amount", "modules.contracts.form.errors.exceeds_vat"]];
    expect(messages({ vat_amount: "2398.03", withholding_amount: "1678.62", withholding_rate: "7/10" })).toEqual([]);
    expect(messages({ vat_amount: "2398.03", withholding_amount: "2398.03" })).toEqual([]);
    expect(messages({ vat_amount: "2398.03", withholding_amount: "2398.04" })).toEqual(exceeds);
    expect(messages({ vat_amount: "9999999999999999.98", withholding_amount: "9999999999999999.99" })).toEqual(exceeds);
    expect(messages({ vat_amount: "100", withholding_amount: "99.9" })).toEqual([]);
    expect(messages({ withholding_amount: "5" })).toEqual(exceeds);
    expect(messages({ vat_amount: "20", withholding_amount: "1.234" })).toEqual([["withholding_amount", "modules.contracts.form.errors.withholdingInvalid"]]);
  });
});

describe("contractValuesOf", () => {
  it("sends a new contract's status and the value as an exact decimal string", () => {
    const values = contractValuesOf(form({ value: "1250.5", status: "active", start_date: "2026-01-01", end_date: "2026-12-31" }));
    expect(values).toMatchObject({ title: "Bakım", value: "1250.5", status: "active", notes: null, auto_renew: false });
  });

  it("sends the KDV withheld and its ratio exactly, and no ratio without an amount", () => {
    expect(contractValuesOf(form({ vat_amount: "2398.03", withholding_amount: "1678.62", withholding_rate: "7/10" }))).toMatchObject({
      vat_amount: "2398.03",
      withholding_amount: "1678.62",
      withholding_rate: "7/10",
    });
    expect(contractValuesOf(form({ vat_amount: "20", withholding_rate: "7/10" }))).toMatchObject({ withholding_amount: null, withholding_rate: null });
    const fromQuote = { ...active, vat_amount: "2398.03", withholding_amount: "1678.62", withholding_rate: "7/10" };
    expect(contractFormOf(fromQuote)).toMatchObject({ withholding_amount: "1678.62", withholding_rate: "7/10" });
  });

  it("sends an empty value as zero", () => {
    expect(contractValuesOf(form()).value).toBe("0");
  });

  it("leaves an active contract's status alone, and never sets an expired one's", () => {
    expect(contractValuesOf(contractFormOf(active), active)).not.toHaveProperty("status");
    const expired = { ...active, status: "expired" as const };
    expect(contractValuesOf(contractFormOf(expired), expired)).not.toHaveProperty("status");
  });

  it("activates a draft", () => {
    const draft = { ...active, status: "draft" as const };
    expect(contractValuesOf({ ...contractFormOf(draft), status: "active" }, draft).status).toBe("active");
  });
});

describe("contractFieldErrorKey", () => {
  it("names the contract's own codes and leaves the rest to the record kit", () => {
    expect(contractFieldErrorKey("end_before_start")).toBe("modules.contracts.form.errors.end_before_start");
    expect(contractFieldErrorKey("not_found")).toBe("records.form.fieldErrors.not_found");
    expect(contractFieldErrorKey("whatever")).toBe("records.form.fieldErrors.invalid");
  });
});
