import { FunctionsFetchError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { consoleErrorReason } from "./console-errors.ts";

describe("consoleErrorReason", () => {
  it("maps the refusal codes of the console RPCs", () => {
    expect(consoleErrorReason(new RpcError("Admin privileges required", "admin_required"))).toBe("adminRequired");
    expect(consoleErrorReason(new RpcError("Admin privileges required", "super_admin_required"))).toBe("superAdminRequired");
    expect(consoleErrorReason(new RpcError("Organization context required", "organization_context_required"))).toBe(
      "organizationRequired",
    );
    expect(consoleErrorReason(new RpcError("Organization not found", "organization_not_found"))).toBe("notFound");
  });

  it("tells a lost connection from anything else", () => {
    expect(consoleErrorReason(new FunctionsFetchError(new TypeError("Failed to fetch")))).toBe("network");
    expect(consoleErrorReason({ message: "TypeError: Failed to fetch", code: "" })).toBe("network");
    expect(consoleErrorReason(new RpcError("boom", "server_error"))).toBe("unknown");
    expect(consoleErrorReason(new RpcError("boom", undefined))).toBe("unknown");
    expect(consoleErrorReason(new Error("boom"))).toBe("unknown");
  });
});
