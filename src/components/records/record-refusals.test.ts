import { describe, expect, it } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { recordAccess, splitByAccess } from "./record-access.ts";
import { assertBatchDid, batchOutcome, batchReport, refusedBatchOutcome } from "./record-refusals.ts";

const refusal = (code: string, refused: { id: string; code: string }[]) =>
  new RpcError("refused", code, { changed: 0, skipped: refused.length, refused });

describe("batch outcomes", () => {
  it("counts what a batch did and, by reason, what it refused", () => {
    expect(
      batchOutcome({
        changed: 3,
        skipped: 3,
        refused: [
          { id: "a", code: "not_record_owner" },
          { id: "b", code: "not_record_owner" },
          { id: "c", code: "not_found" },
        ],
      }),
    ).toEqual({ done: 3, notOwner: 2, notFound: 1, conflict: 0 });
    expect(batchOutcome({ updated: 2, skipped: 0, refused: [] })).toEqual({ done: 2, notOwner: 0, notFound: 0, conflict: 0 });
  });

  it("counts a refusal without its reason as not found", () => {
    expect(batchOutcome({ changed: 1, skipped: 2 })).toEqual({ done: 1, notOwner: 0, notFound: 2, conflict: 0 });
  });

  it("reads a batch refused as a whole back from its refusal", () => {
    expect(refusedBatchOutcome(refusal("not_record_owner", [{ id: "a", code: "not_record_owner" }]))).toEqual({
      done: 0,
      notOwner: 1,
      notFound: 0,
      conflict: 0,
    });
    expect(refusedBatchOutcome(refusal("not_found", [{ id: "a", code: "not_found" }]))).toEqual({ done: 0, notOwner: 0, notFound: 1, conflict: 0 });
  });

  it("reads a restore refused because live records took the places back, by reason", () => {
    expect(
      refusedBatchOutcome(refusal("restore_conflict", [{ id: "a", code: "restore_conflict" }, { id: "b", code: "not_found" }])),
    ).toEqual({ done: 0, notOwner: 0, notFound: 1, conflict: 1 });
  });

  it("leaves any other failure to the usual mapping", () => {
    expect(refusedBatchOutcome(new RpcError("Permission denied", "permission_denied"))).toBeNull();
    expect(refusedBatchOutcome(new RpcError("Record not found", "not_found"))).toBeNull();
    expect(refusedBatchOutcome(new TypeError("Failed to fetch"))).toBeNull();
  });

  it("never takes an answer that changed nothing as done", () => {
    expect(() => assertBatchDid({ changed: 0, skipped: 1, refused: [{ id: "a", code: "not_record_owner" }] })).toThrow(RpcError);
    expect(assertBatchDid({ changed: 1, skipped: 0, refused: [] })).toEqual({ changed: 1, skipped: 0, refused: [] });
  });
});

describe("batch reports", () => {
  it("reports all done as success", () => {
    expect(batchReport("deleted", { done: 3, notOwner: 0, notFound: 0, conflict: 0 })).toEqual({
      tone: "success",
      parts: [{ key: "records.batch.deleted.done", count: 3 }],
    });
  });

  it("reports the refused part with its reason, never as plain success", () => {
    expect(batchReport("deleted", { done: 3, notOwner: 2, notFound: 1, conflict: 0 })).toEqual({
      tone: "partial",
      parts: [
        { key: "records.batch.deleted.done", count: 3 },
        { key: "records.batch.deleted.notOwner", count: 2 },
        { key: "records.batch.notFound", count: 1 },
      ],
    });
  });

  it("reports a batch that did nothing as a failure with the reason", () => {
    expect(batchReport("updated", { done: 0, notOwner: 1, notFound: 0, conflict: 0 })).toEqual({
      tone: "failure",
      parts: [
        { key: "records.batch.updated.none", count: 0 },
        { key: "records.batch.updated.notOwner", count: 1 },
      ],
    });
  });
});

describe("batch reports of a restore", () => {
  it("says which records could not come back because another took their place", () => {
    expect(batchReport("restored", { done: 1, notOwner: 0, notFound: 0, conflict: 2 })).toEqual({
      tone: "partial",
      parts: [
        { key: "records.batch.restored.done", count: 1 },
        { key: "records.batch.restoreConflict", count: 2 },
      ],
    });
  });
});

describe("record access", () => {
  const own = { view: "all", edit: "own", delete: "own" } as const;
  it("allows an own-scope action on one's own record only", () => {
    expect(recordAccess(own, "delete", "me", "me")).toBe("allowed");
    expect(recordAccess(own, "delete", "other", "me")).toBe("not_owner");
  });
  it("allows an all-scope action on every record", () => {
    expect(recordAccess({ edit: "all" }, "edit", "other", "me")).toBe("allowed");
  });
  it("denies an action the role does not have, and everything while unknown", () => {
    expect(recordAccess({ view: "all" }, "delete", "me", "me")).toBe("denied");
    expect(recordAccess(undefined, "edit", "me", "me")).toBe("denied");
  });
  it("splits a selection into the records the action may reach and the others' records", () => {
    expect(splitByAccess(own, "delete", ["me", "other", "me", "third"], "me")).toEqual({ allowed: 2, notOwner: 2 });
    expect(splitByAccess({ delete: "all" }, "delete", ["me", "other"], "me")).toEqual({ allowed: 2, notOwner: 0 });
  });
});
