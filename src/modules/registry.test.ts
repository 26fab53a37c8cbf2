import { describe, expect, it } from "vitest";
import { initialTransferKinds, moduleActions, modules, salesPages, transferKinds } from "./registry.ts";

describe("module registry", () => {
  it("lists the seven sales modules in the sidebar's order, then import/export", () => {
    expect(salesPages.map(({ key }) => key)).toEqual([
      "customers",
      "contacts",
      "deals",
      "quotes",
      "contracts",
      "documents",
      "tasks",
      "importExport",
    ]);
  });

  it("gives every page its own path", () => {
    const paths = salesPages.map(({ path }) => path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(path).toMatch(/^\/[a-z-]+$/);
  });

  it("grants the same six actions in every module", () => {
    expect(moduleActions).toEqual(["view", "create", "edit", "delete", "export", "import"]);
  });

  it("transfers a module's records or the templates, starting with deals, customers and tasks", () => {
    const keys: readonly string[] = modules.map(({ key }) => key);
    for (const kind of transferKinds) expect(kind === "templates" || keys.includes(kind), kind).toBe(true);
    expect(initialTransferKinds).toEqual(["deals", "customers", "tasks"]);
  });
});
