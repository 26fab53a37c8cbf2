import { beforeEach, describe, expect, it, vi } from "vitest";
import { z, ZodError } from "zod";
import { rpc } from "./call-rpc.ts";
import { RpcError } from "./rpc.ts";
import { supabase } from "./supabase.ts";

// The real client needs a browser (it reads window.location); the helper only calls its rpc.
vi.mock("./supabase.ts", () => ({ supabase: { rpc: vi.fn() } }));

const answer = (data: unknown, error: unknown = null) =>
  vi.mocked(supabase.rpc).mockResolvedValueOnce({ data, error } as never);
const schema = z.object({ success: z.literal(true), count: z.number() });

beforeEach(() => vi.mocked(supabase.rpc).mockReset());

describe("rpc", () => {
  it("calls the function with its arguments and returns the checked answer", async () => {
    answer({ success: true, count: 2 });
    await expect(rpc("delete_role", { p_key: "sales" }, schema)).resolves.toEqual({ success: true, count: 2 });
    expect(supabase.rpc).toHaveBeenCalledWith("delete_role", { p_key: "sales" });
  });

  it("throws a failed request as supabase-js reports it", async () => {
    const failure = { message: "TypeError: Failed to fetch", code: "" };
    answer(null, failure);
    await expect(rpc("get_my_permissions", {}, schema)).rejects.toBe(failure);
  });

  it("throws the database's refusal as RpcError with its code", async () => {
    answer({ success: false, error: "Role not found", code: "role_not_found" });
    const refusal = rpc("delete_role", { p_key: "x" }, schema);
    await expect(refusal).rejects.toBeInstanceOf(RpcError);
    await expect(refusal).rejects.toMatchObject({ message: "Role not found", code: "role_not_found" });
  });

  it("refuses an answer of another shape", async () => {
    answer({ success: true, count: "2" });
    await expect(rpc("get_my_permissions", {}, schema)).rejects.toBeInstanceOf(ZodError);
  });
});
