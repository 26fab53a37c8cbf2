import { describe, expect, it } from "vitest";
import { customerFormSchema, customerValuesOf, emptyCustomerForm } from "./customer-form.ts";

const errorsOf = (values: Partial<typeof emptyCustomerForm>) => {
  const parsed = customerFormSchema.safeParse({ ...emptyCustomerForm, name: "Işık Yazılım A.Ş.", ...values });
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

describe("customer form", () => {
  it("checks the VKN of a company and the TCKN of a person with the server's codes", () => {
    expect(errorsOf({ tax_number: "1234567890" })).toEqual({});
    expect(errorsOf({ tax_number: "1234567891" })).toEqual({ tax_number: "records.form.fieldErrors.invalid_vkn" });
    expect(errorsOf({ kind: "person", tax_number: "1234567890" })).toEqual({ tax_number: "records.form.fieldErrors.invalid_tckn" });
    expect(errorsOf({ kind: "person", tax_number: "10000000146" })).toEqual({});
  });

  it("checks the name, phone, email and website", () => {
    expect(errorsOf({ name: "  " })).toEqual({ name: "records.form.fieldErrors.required" });
    expect(errorsOf({ phone: "12" })).toEqual({ phone: "records.form.fieldErrors.invalid_phone" });
    expect(errorsOf({ email: "a@b" })).toEqual({ email: "records.form.fieldErrors.invalid_email" });
    expect(errorsOf({ website: "not a site" })).toEqual({ website: "records.form.fieldErrors.invalid_website" });
  });

  it("sends blanks as null, the phone normalised and the tags split", () => {
    expect(customerValuesOf({ ...emptyCustomerForm, name: " A ", phone: "0 (212) 555 12 34", tags: "vip, , istanbul " })).toMatchObject({
      name: "A",
      phone: "+902125551234",
      tags: ["vip", "istanbul"],
      email: null,
      tax_number: null,
    });
    expect(customerValuesOf({ ...emptyCustomerForm, name: "A" }).tags).toBeNull();
  });
});
