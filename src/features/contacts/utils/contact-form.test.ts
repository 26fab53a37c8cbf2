import { describe, expect, it } from "vitest";
import { contactFormSchema, contactValuesOf, emptyContactForm } from "./contact-form.ts";

const errorsOf = (values: Partial<typeof emptyContactForm>) => {
  const parsed = contactFormSchema.safeParse({ ...emptyContactForm, first_name: "Ayşe", ...values });
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

describe("contact form", () => {
  it("needs a name, valid channels and a consent channel with consent", () => {
    expect(errorsOf({})).toEqual({});
    expect(errorsOf({ first_name: "" })).toEqual({ first_name: "records.form.fieldErrors.required" });
    expect(errorsOf({ emails: [{ label: "work", value: "x@" }] })).toEqual({ "emails.0.value": "records.form.fieldErrors.invalid_email" });
    expect(errorsOf({ phones: [{ label: "mobile", value: "12" }] })).toEqual({ "phones.0.value": "records.form.fieldErrors.invalid_phone" });
    expect(errorsOf({ kvkk_consent: true })).toEqual({ kvkk_consent_channel: "records.form.fieldErrors.required" });
  });

  it("drops blank channels, normalises phones and forgets consent details without consent", () => {
    const values = contactValuesOf({
      ...emptyContactForm,
      first_name: "Ayşe",
      phones: [{ label: "mobile", value: "0532 111 22 33" }],
      kvkk_consent_channel: "form",
    });
    expect(values).toMatchObject({ emails: [], phones: [{ label: "mobile", value: "+905321112233" }], kvkk_consent_channel: null, tags: null });
  });
});
