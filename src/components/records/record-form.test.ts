import { describe, expect, it, vi } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { en } from "../i18n/en.ts";
import { tr } from "../i18n/tr.ts";
import { applyServerFieldErrors, fieldErrorKey, isStaleRecord, recordFailureKey } from "./record-form.ts";

describe("record form refusals", () => {
  it("puts field errors on their fields and returns the others", () => {
    const setError = vi.fn();
    const error = new RpcError("Invalid fields", "invalid_fields", { fields: { tax_number: "invalid_vkn", owner_id: "invalid_owner" } });
    expect(applyServerFieldErrors(error, setError, ["tax_number", "name"])).toEqual(["invalid_owner"]);
    expect(setError).toHaveBeenCalledWith(
      "tax_number",
      { type: "server", message: "records.form.fieldErrors.invalid_vkn" },
      { shouldFocus: true },
    );
  });

  it("leaves other refusals alone", () => {
    expect(applyServerFieldErrors(new RpcError("x", "not_found"), vi.fn(), [])).toBeNull();
    expect(isStaleRecord(new RpcError("x", "stale_record", { record: {} }))).toBe(true);
    expect(recordFailureKey(new RpcError("x", "not_found"))).toBe("records.form.errors.not_found");
    expect(recordFailureKey(new Error("boom"))).toBe("records.form.errors.unknown");
  });

  it("reads an unknown code as invalid", () => {
    expect(fieldErrorKey("weird")).toBe("records.form.fieldErrors.invalid");
  });

  it("says each custom field value's code in its own words, in Turkish and English", () => {
    // The codes private.prepare_typed_values gives a custom field's value (not_found: a link to a record the caller may not see).
    for (const code of ["invalid", "too_long", "invalid_email", "invalid_phone", "invalid_website", "invalid_option", "required", "not_found"]) {
      expect(fieldErrorKey(code)).toBe(`records.form.fieldErrors.${code}`);
      expect(tr.records.form.fieldErrors[code as keyof typeof tr.records.form.fieldErrors]).toBeTruthy();
      expect(en.records.form.fieldErrors[code as keyof typeof en.records.form.fieldErrors]).toBeTruthy();
    }
  });
});
