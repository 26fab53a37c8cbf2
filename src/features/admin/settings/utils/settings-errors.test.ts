import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { formFieldOf, settingsError } from "./settings-errors.ts";

describe("settingsError", () => {
  it("keeps the field an invalid_setting refusal names", () => {
    const failure = settingsError(new RpcError("Invalid setting: default_vat_rate", "invalid_setting", { field: "default_vat_rate" }));
    expect(failure).toEqual({ key: "adminSettings.errors.invalid_setting", field: "default_vat_rate" });
    expect(formFieldOf(failure, ["name", "default_vat_rate"] as const)).toBe("default_vat_rate");
    expect(formFieldOf(failure, ["deal_stages"] as const)).toBeUndefined();
  });

  it("maps other refusals and failures without raw text", () => {
    expect(settingsError(new RpcError("Admin privileges required", "admin_required"))).toEqual({ key: "adminSettings.errors.admin_required" });
    expect(settingsError(new RpcError("Invalid settings", "invalid_input"))).toEqual({ key: "adminSettings.errors.invalid_input" });
    expect(settingsError(new RpcError("Boom", "server_error"))).toEqual({ key: "adminSettings.errors.unknown" });
    expect(settingsError(new TypeError("Failed to fetch"))).toEqual({ key: "adminSettings.errors.network" });
    expect(settingsError("boom")).toEqual({ key: "adminSettings.errors.unknown" });
  });
});
