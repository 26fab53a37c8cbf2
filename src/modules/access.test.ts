import { describe, expect, it } from "vitest";
import { canOpenModule } from "./access.ts";

describe("canOpenModule", () => {
  it("opens a module the role may view, whether all or own records", () => {
    expect(canOpenModule({ customers: { view: "all" } }, "customers")).toBe(true);
    expect(canOpenModule({ deals: { view: "own" } }, "deals")).toBe(true);
  });

  it("keeps a module closed without view, even when other actions are allowed", () => {
    expect(canOpenModule({ customers: { create: "own", edit: "own" } }, "customers")).toBe(false);
    expect(canOpenModule({}, "tasks")).toBe(false);
  });

  it("opens import/export for whoever may import or export somewhere", () => {
    expect(canOpenModule({ customers: { view: "all" } }, "importExport")).toBe(false);
    expect(canOpenModule({ customers: { view: "all" }, deals: { export: "own" } }, "importExport")).toBe(true);
    expect(canOpenModule({ contacts: { import: "all" } }, "importExport")).toBe(true);
  });
});
