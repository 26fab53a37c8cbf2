import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { duplicatesOf, recordDuplicateSchema } from "./record-duplicates.ts";

describe("likely duplicates", () => {
  it("reads the module's columns and the known reasons", () => {
    const schema = recordDuplicateSchema({ name: z.string() });
    expect(schema.parse({ id: "1", name: "Alfa", reasons: ["email", "name", "something_new"] })).toEqual({
      id: "1",
      name: "Alfa",
      reasons: ["email", "name"],
    });
    expect(schema.safeParse({ id: "1", reasons: ["email"] }).success).toBe(false);
  });

  it("finds none when the check fails, so the record is still created", async () => {
    const find = vi.fn().mockRejectedValue(new Error("offline"));
    await expect(duplicatesOf({ name: "Alfa" }, find)).resolves.toEqual([]);
    expect(find).toHaveBeenCalledWith({ name: "Alfa" });
    await expect(duplicatesOf({ name: "Alfa" }, () => Promise.resolve([{ id: "1" }]))).resolves.toEqual([{ id: "1" }]);
  });
});
