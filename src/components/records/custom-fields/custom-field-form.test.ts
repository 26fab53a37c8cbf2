import type { Resolver, ResolverOptions, ResolverResult } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { applyServerFieldErrors } from "../record-form.ts";
import {
  changedCustomValues,
  customFieldError,
  customFieldsSchema,
  customFormOf,
  customValuesOf,
  withCustomFields,
  type CustomFormValues,
} from "./custom-field-form.ts";
import { sectorOptions, testField } from "./test-fields.ts";

// The declarations module reads its fields through rpc(); nothing is read here.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

const choice = testField("choice", { options: sectorOptions, required: true });
const dealerNumber = testField("number", { key: "cf_bayi_no" });

describe("custom field rules", () => {
  it("asks for a required value, and lets an empty optional one through", () => {
    expect(customFieldError(choice, "")).toBe("required");
    expect(customFieldError(choice, null)).toBe("required");
    expect(customFieldError(testField("multi_choice", { options: sectorOptions, required: true }), [])).toBe("required");
    expect(customFieldError(dealerNumber, "")).toBeNull();
    expect(customFieldError(testField("boolean", { required: true }), null)).toBeNull();
  });

  it("checks text lengths and the standard formats", () => {
    expect(customFieldError(testField("text"), "x".repeat(1000))).toBeNull();
    expect(customFieldError(testField("text"), "x".repeat(1001))).toBe("too_long");
    expect(customFieldError(testField("long_text"), "x".repeat(1001))).toBeNull();
    expect(customFieldError(testField("email"), "ayse@ornek.com.tr")).toBeNull();
    expect(customFieldError(testField("email"), "ayse@")).toBe("invalid_email");
    expect(customFieldError(testField("phone"), "0532 123 45 67")).toBeNull();
    expect(customFieldError(testField("phone"), "12")).toBe("invalid_phone");
    expect(customFieldError(testField("url"), "ornek.com.tr")).toBeNull();
    expect(customFieldError(testField("url"), "not a site")).toBe("invalid_website");
  });

  it("takes numbers, real dates, offered options and record ids only", () => {
    expect(customFieldError(dealerNumber, 12.5)).toBeNull();
    expect(customFieldError(dealerNumber, "12,")).toBe("invalid");
    expect(customFieldError(testField("date"), "2026-02-28")).toBeNull();
    expect(customFieldError(testField("date"), "2026-02-30")).toBe("invalid");
    expect(customFieldError(testField("datetime"), "2026-02-28T10:00:00.000Z")).toBeNull();
    expect(customFieldError(choice, "b")).toBeNull();
    expect(customFieldError(choice, "z")).toBe("invalid");
    expect(customFieldError(testField("multi_choice", { options: sectorOptions }), ["a", "z"])).toBe("invalid");
    expect(customFieldError(testField("link"), "6f1c2f43-4a52-4a3a-9b4e-0d6a3f1f0a11")).toBeNull();
    expect(customFieldError(testField("link"), "Çelik Yapı")).toBe("invalid");
  });

  it("derives one zod rule per field whose message is the field error's catalogue key", () => {
    const result = customFieldsSchema([choice, dealerNumber]).safeParse({ cf_choice: "", cf_bayi_no: 7 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["cf_choice", "records.form.fieldErrors.required"],
    ]);
  });
});

describe("the form's resolver with custom fields", () => {
  const base: Resolver<{ name: string }> = async (values): Promise<ResolverResult<{ name: string }>> =>
    values.name ? { values, errors: {} } : { values: {}, errors: { name: { type: "custom", message: "required" } } };
  const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<{ name: string } & CustomFormValues>;

  it("puts the custom fields' errors under custom.<key>, beside the module's own", async () => {
    const resolver = withCustomFields(base, [choice]);
    const result = await resolver({ name: "", custom: { cf_choice: "" } }, undefined, options);
    expect(result.errors).toEqual({
      name: { type: "custom", message: "required" },
      custom: { cf_choice: { type: "custom", message: "records.form.fieldErrors.required" } },
    });
    const onlyCustom = await resolver({ name: "Çelik", custom: { cf_choice: "" } }, undefined, options);
    expect(Object.keys(onlyCustom.errors)).toEqual(["custom"]);
  });

  it("hands over the values, custom ones included, when all is well", async () => {
    const result = await withCustomFields(base, [choice])({ name: "Çelik", custom: { cf_choice: "a" } }, undefined, options);
    expect(result).toEqual({ values: { name: "Çelik", custom: { cf_choice: "a" } }, errors: {} });
  });
});

describe("custom values to and from the database", () => {
  it("takes a record's cf_ values into the form as they came", () => {
    expect(customFormOf({ id: "x", name: "Çelik", cf_choice: "a", cf_bayi_no: 7 })).toEqual({ cf_choice: "a", cf_bayi_no: 7 });
    expect(customFormOf(undefined)).toEqual({});
  });

  it("sends blanks as null, numbers as numbers, phones normalised, choices as option values; hidden fields not at all", () => {
    const fields = [
      choice,
      dealerNumber,
      testField("text"),
      testField("phone"),
      testField("multi_choice", { options: sectorOptions }),
      testField("boolean"),
      testField("boolean", { key: "cf_onay", required: true }),
      testField("date"),
    ];
    const custom = {
      cf_choice: "b",
      cf_bayi_no: 42.5,
      cf_text: "  ",
      cf_phone: "0532 123 45 67",
      cf_multi_choice: ["a", "c"],
      cf_boolean: null,
      cf_date: "2026-03-01",
      cf_hidden: "kept",
    };
    expect(customValuesOf(custom, fields)).toEqual({
      cf_choice: "b",
      cf_bayi_no: 42.5,
      cf_text: null,
      cf_phone: "+905321234567",
      cf_multi_choice: ["a", "c"],
      cf_boolean: null,
      cf_onay: false,
      cf_date: "2026-03-01",
    });
    expect(customValuesOf({ cf_multi_choice: [] }, [testField("multi_choice")])).toEqual({ cf_multi_choice: null });
  });

  it("keeps only the values that changed, for forms that send changes", () => {
    expect(changedCustomValues({ cf_a: 1, cf_b: null, cf_c: ["x"] }, { cf_a: 1, cf_c: ["x", "y"] })).toEqual({ cf_c: ["x"] });
  });

  it("puts the server's errors on cf_ keys onto their inputs", () => {
    const setError = vi.fn();
    const error = new RpcError("Invalid fields", "invalid_fields", { fields: { cf_bayi_no: "invalid", cf_gone: "unknown_field" } });
    expect(applyServerFieldErrors(error, setError, ["name", "custom.cf_bayi_no"])).toEqual(["unknown_field"]);
    expect(setError).toHaveBeenCalledWith("custom.cf_bayi_no", { type: "server", message: "records.form.fieldErrors.invalid" }, { shouldFocus: true });
  });
});
