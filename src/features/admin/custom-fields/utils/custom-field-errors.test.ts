import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { customFieldFailure, fieldErrorMessage } from "./custom-field-errors.ts";

describe("custom field failures", () => {
  it("puts field errors on the editor's inputs in words", () => {
    const error = new RpcError("Invalid fields", "invalid_fields", { fields: { key: "reserved", label_tr: "too_long", options: "duplicate" } });
    expect(customFieldFailure(error)).toEqual({
      message: { key: "adminCustomFields.errors.invalid_fields" },
      fields: {
        key: "adminCustomFields.fieldErrors.reserved_key",
        label_tr: "adminCustomFields.fieldErrors.too_long",
        options: "adminCustomFields.fieldErrors.duplicate_option",
      },
    });
    expect(fieldErrorMessage("key", "invalid")).toBe("adminCustomFields.fieldErrors.invalid_key");
    expect(fieldErrorMessage("searchable", "invalid")).toBe("adminCustomFields.fieldErrors.not_for_type");
  });

  it("says the limit, the records holding a removed option, and a type that cannot take the values", () => {
    expect(customFieldFailure(new RpcError("x", "too_many_fields", { limit: 100 })).message).toEqual({
      key: "adminCustomFields.errors.too_many_fields",
      values: { limit: 100 },
    });
    const inUse = customFieldFailure(new RpcError("x", "option_in_use", { count: 12, fields: { options: "option_in_use" } }));
    expect(inUse).toEqual({
      message: { key: "adminCustomFields.errors.option_in_use", values: { count: 12 } },
      fields: { options: "adminCustomFields.fieldErrors.option_in_use" },
    });
    const type = customFieldFailure(new RpcError("x", "type_not_convertible", { fields: { type: "type_not_convertible" } }));
    expect(type.message.key).toBe("adminCustomFields.errors.type_not_convertible");
    expect(type.fields.type).toBe("adminCustomFields.fieldErrors.type_not_convertible");
  });

  it("never shows a code it does not know, nor a setting the editor has no input for", () => {
    expect(customFieldFailure(new RpcError("x", "weird_code")).message.key).toBe("adminCustomFields.errors.unknown");
    expect(customFieldFailure(new Error("boom")).message.key).toBe("adminCustomFields.errors.unknown");
    expect(customFieldFailure(new TypeError("Failed to fetch")).message.key).toBe("adminCustomFields.errors.network");
    const unknownSetting = customFieldFailure(new RpcError("x", "invalid_fields", { fields: { colour: "unknown_field" } }));
    expect(unknownSetting).toEqual({ message: { key: "adminCustomFields.errors.invalid_input" }, fields: {} });
  });
});
