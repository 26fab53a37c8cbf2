import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it, vi } from "vitest";
import { withCustomFields } from "@/components/records/custom-fields/custom-field-form.ts";
import { testStandardField } from "@/components/records/custom-fields/test-fields.ts";
import { declaredStandardFields, ruledStandardFields } from "@/components/records/custom-fields/custom-fields.ts";
import { customerFormSchema, customerValuesOf, emptyCustomerForm } from "./customer-form.ts";

vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

/** Customers' declarations as list_custom_fields answers them (the ones these checks read). */
const declared = testStandardField;
const declarations = declaredStandardFields([
  declared("name", "text", { required: true, max_length: 300 }),
  declared("tax_number", "text", { own_rule: true }),
  declared("phone", "phone"),
  declared("email", "email", { max_length: 254 }),
  declared("website", "url", { max_length: 300 }),
  declared("city", "text", { max_length: 60 }),
]);
const resolver = withCustomFields(zodResolver(customerFormSchema), [], ruledStandardFields(declarations));
const declaredErrorsOf = async (values: Partial<typeof emptyCustomerForm>) => {
  const result = await resolver({ ...emptyCustomerForm, name: "Işık Yazılım A.Ş.", ...values, custom: {} }, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  return Object.fromEntries(Object.entries(result.errors).map(([key, error]) => [key, (error as { message: string }).message]));
};

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

  it("checks the name, phone, email, website and lengths by their declarations, beside its own rule", async () => {
    expect(await declaredErrorsOf({ name: "  " })).toEqual({ name: "records.form.fieldErrors.required" });
    expect(await declaredErrorsOf({ phone: "12" })).toEqual({ phone: "records.form.fieldErrors.invalid_phone" });
    expect(await declaredErrorsOf({ email: "a@b" })).toEqual({ email: "records.form.fieldErrors.invalid_email" });
    expect(await declaredErrorsOf({ website: "not a site" })).toEqual({ website: "records.form.fieldErrors.invalid_website" });
    expect(await declaredErrorsOf({ city: "İ".repeat(61) })).toEqual({ city: "records.form.fieldErrors.too_long" });
    expect(await declaredErrorsOf({ tax_number: "1234567891" })).toEqual({ tax_number: "records.form.fieldErrors.invalid_vkn" });
    expect(await declaredErrorsOf({ city: "İstanbul", email: "info@isik.com.tr" })).toEqual({});
  });

  it("checks only the declared fields a form holds (a dialog of custom fields alone is not held back by a required name)", async () => {
    const alone = await withCustomFields<{ custom: Record<string, never> }, undefined, object>(
      (values) => Promise.resolve({ values, errors: {} }),
      [],
      ruledStandardFields(declarations),
    )({ custom: {} }, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(alone.errors).toEqual({});
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
