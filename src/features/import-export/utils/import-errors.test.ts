import type { TFunction } from "i18next";
import { describe, expect, it, vi } from "vitest";
import { RpcError } from "@/lib/rpc.ts";
import { SheetError, type SheetProblem } from "@/lib/spreadsheet/index.ts";
import { declaredKind } from "../testing/declared-kinds.ts";
import { importFailureKey, outcomeWords, revertFailureMessage, sheetFailureMessage } from "./import-errors.ts";

// The declared kinds come from the declarations module, which also holds their query.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));


/** The key and its options, so the tests see which message was chosen with what. */
const t = ((key: string, options?: Record<string, unknown>) => (options ? `${key} ${JSON.stringify(options)}` : key)) as unknown as TFunction;

describe("importFailureKey", () => {
  it("maps the import RPCs' refusals, a lost connection and anything else", () => {
    expect(importFailureKey(new RpcError("Not running", "import_not_running"))).toBe("modules.importExport.errors.import_not_running");
    expect(importFailureKey(new RpcError("Denied", "permission_denied"))).toBe("modules.importExport.errors.permission_denied");
    expect(importFailureKey(new RpcError("Odd", "some_new_code"))).toBe("modules.importExport.errors.unknown");
    expect(importFailureKey(new TypeError("Failed to fetch"))).toBe("modules.importExport.errors.network");
    expect(importFailureKey(new Error("boom"))).toBe("modules.importExport.errors.unknown");
  });
});

describe("revertFailureMessage", () => {
  it("says how many records changed since the import", () => {
    expect(revertFailureMessage(t, new RpcError("Changed", "import_changed_since", { changed: 3 }))).toBe(
      'modules.importExport.history.changedSince {"count":3}',
    );
  });

  it("falls back to the code's message without a count, and to others' messages", () => {
    expect(revertFailureMessage(t, new RpcError("Changed", "import_changed_since"))).toBe("modules.importExport.errors.import_changed_since");
    expect(revertFailureMessage(t, new RpcError("No", "import_not_revertible"))).toBe("modules.importExport.errors.import_not_revertible");
  });
});

describe("sheetFailureMessage", () => {
  it("gives each refused file its problem's message with the limits in the interface's language", () => {
    expect(sheetFailureMessage(t, new SheetError("too_many_rows"), "tr")).toBe(
      'modules.importExport.problems.too_many_rows {"size":"50 MB","rows":"100.000","columns":"200","chars":"32.767","sheets":"50"}',
    );
    expect(sheetFailureMessage(t, new SheetError("zip_bomb"), "en")).toMatch(/^modules\.importExport\.problems\.zip_bomb \{.*"rows":"100,000"/);
  });

  it("reads anything else as an unreadable file", () => {
    expect(sheetFailureMessage(t, new Error("worker crashed"), "tr")).toMatch(/^modules\.importExport\.problems\.unreadable /);
    expect(sheetFailureMessage(t, new SheetError("no_such_problem" as SheetProblem), "tr")).toMatch(/^modules\.importExport\.problems\.unreadable /);
  });
});

describe("outcomeWords", () => {
  const words = outcomeWords(t, declaredKind("contacts"));

  it("names reasons, field problems and fields, with a general message for codes it does not know", () => {
    expect(words.reason("duplicate_in_file", 5)).toBe('modules.importExport.reasons.duplicate_in_file {"row":5}');
    expect(words.reason("something_else", undefined)).toBe("modules.importExport.reasons.unknown");
    expect(words.cellError("invalid_email")).toBe("modules.importExport.cellErrors.invalid_email");
    expect(words.cellError("owner_ambiguous")).toBe("modules.importExport.cellErrors.owner_ambiguous");
    expect(words.cellError("brand_new_code")).toBe("modules.importExport.cellErrors.invalid");
    // A declared field by its declared label, a field only importing has by its catalogue text.
    expect(words.fieldName("kvkk_consent_channel")).toBe("Rızanın alındığı kanal");
    expect(words.fieldName("first_name")).toBe("Ad");
    expect(outcomeWords(t, declaredKind("customers")).fieldName("owner")).toBe("modules.customers.fields.owner_id");
    expect(words.fieldName("record")).toBe("modules.importExport.preview.rowLevel");
  });
});
