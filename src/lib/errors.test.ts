import { FunctionsFetchError, FunctionsHttpError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { failureKey, mapFailure } from "./errors.ts";
import { RpcError } from "./rpc.ts";

const fallbacks = { network: "network", unknown: "unknown" };

describe("mapFailure", () => {
  it("gives a known refusal code its entry", () => {
    expect(mapFailure(new RpcError("Role not found", "role_not_found"), { role_not_found: "gone" }, fallbacks)).toBe("gone");
  });

  it("answers unknown for an unknown code, no code, or a code only the prototype has", () => {
    expect(mapFailure(new RpcError("Boom", "server_error"), { role_not_found: "gone" }, fallbacks)).toBe("unknown");
    expect(mapFailure(new RpcError("Boom", undefined), {}, fallbacks)).toBe("unknown");
    expect(mapFailure(new RpcError("Boom", "toString"), {}, fallbacks)).toBe("unknown");
  });

  it("tells a lost connection (an RPC's or an Edge Function's) from any other failure", () => {
    expect(mapFailure({ message: "TypeError: Failed to fetch", code: "" }, {}, fallbacks)).toBe("network");
    expect(mapFailure(new TypeError("Failed to fetch"), {}, fallbacks)).toBe("network");
    expect(mapFailure(new FunctionsFetchError(new TypeError("Failed to fetch")), {}, fallbacks)).toBe("network");
    expect(mapFailure(new FunctionsHttpError(new Response("boom", { status: 500 })), {}, fallbacks)).toBe("unknown");
    expect(mapFailure(new Error("boom"), {}, fallbacks)).toBe("unknown");
  });

  it("never reads a refusal's text as a lost connection", () => {
    expect(mapFailure(new RpcError("Failed to fetch users", "server_error"), {}, fallbacks)).toBe("unknown");
  });
});

describe("failureKey", () => {
  it("names the message after the code, or network, or unknown", () => {
    const codes = ["role_in_use"] as const;
    expect(failureKey(new RpcError("In use", "role_in_use"), "adminRoles.errors", codes)).toBe("adminRoles.errors.role_in_use");
    expect(failureKey(new RpcError("Other", "other"), "adminRoles.errors", codes)).toBe("adminRoles.errors.unknown");
    expect(failureKey(new TypeError("Failed to fetch"), "adminRoles.errors", codes)).toBe("adminRoles.errors.network");
  });
});
