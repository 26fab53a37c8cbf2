import { describe, expect, it } from "vitest";
import { z, ZodError } from "zod";
import { parseRpcResult, RpcError } from "./rpc.ts";

const schema = z.object({ success: z.literal(true), count: z.number() });

describe("parseRpcResult", () => {
  it("returns a payload that matches the schema", () => {
    expect(parseRpcResult(schema, { success: true, count: 3 })).toEqual({ success: true, count: 3 });
  });

  it("throws the database's error text for a refused call", () => {
    const refuse = () => parseRpcResult(schema, { success: false, error: "User not found" });
    expect(refuse).toThrow(RpcError);
    expect(refuse).toThrow("User not found");
  });

  it("keeps the refusal's code and details for the app to translate", () => {
    const refusal = { success: false, error: "Account is locked for 12 minutes", code: "account_locked", locked_minutes: 12 };
    try {
      parseRpcResult(schema, refusal);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RpcError);
      expect(error).toMatchObject({ code: "account_locked", details: { success: false, locked_minutes: 12 } });
    }
  });

  it.each([
    ["a payload of another shape", { success: true, count: "3" }],
    ["a refusal without an error text", { success: false }],
    ["no payload", null],
  ])("rejects %s", (_, payload) => {
    expect(() => parseRpcResult(schema, payload)).toThrow(ZodError);
  });
});
