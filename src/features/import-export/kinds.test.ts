import { describe, expect, it, vi } from "vitest";
import { en } from "@/i18n/en.ts";
import { tr } from "@/i18n/tr.ts";
import { foldHeader } from "@/lib/spreadsheet/index.ts";
import { importableKinds, importKinds, importsEverything, matchKeyFields, type FieldLabel } from "./kinds.ts";
import { declaredKind } from "./testing/declared-kinds.ts";

// The declared kinds come from the declarations module, which also holds their query.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));


/** A catalogue text by its dotted key. */
function text(catalogue: object, key: FieldLabel): string {
  if (typeof key !== "string") return key.text;
  const value = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
  if (typeof value !== "string") throw new Error(`No text for ${key}`);
  return value;
}

describe("importableKinds", () => {
  it("offers a kind when its module's import action is granted, in either scope", () => {
    expect(importableKinds({ customers: { import: "own" }, deals: { import: "all" }, tasks: { view: "all" } })).toEqual(["customers", "deals"]);
  });

  it("offers products only with the quotes import permission of scope all", () => {
    expect(importableKinds({ quotes: { import: "all" } })).toEqual(["products"]);
    expect(importableKinds({ quotes: { import: "own" } })).toEqual([]);
    expect(importableKinds({ quotes: { view: "all", edit: "all" } })).toEqual([]);
  });

  it("offers nothing without an import permission (export alone does not import)", () => {
    expect(importableKinds({ customers: { view: "all", export: "all" } })).toEqual([]);
    expect(importableKinds({})).toEqual([]);
  });

  it("tells scope all apart from scope own", () => {
    expect(importsEverything({ contacts: { import: "all" } }, "contacts")).toBe(true);
    expect(importsEverything({ contacts: { import: "own" } }, "contacts")).toBe(false);
    expect(importsEverything({}, "products")).toBe(false);
  });
});

describe("the kinds' fields", () => {
  it.each(importKinds)("%s: every match key and required field is one of its fields", (kind) => {
    const definition = declaredKind(kind);
    const keys = new Set(definition.fields.map((field) => field.key));
    for (const key of definition.matchKeys) for (const field of matchKeyFields(definition, key)) expect(keys.has(field), `${kind}.${key}`).toBe(true);
    for (const group of definition.required) for (const field of group) expect(keys.has(field), `${kind} requires ${field}`).toBe(true);
    expect(keys.has("id") && keys.has("external_id")).toBe(true);
    expect(keys.size).toBe(definition.fields.length);
  });

  it.each(importKinds.flatMap((kind) => [[kind, "tr", tr] as const, [kind, "en", en] as const]))(
    "%s (%s): no header name points at two fields",
    (kind, _language, catalogue) => {
      const claimed = new Map<string, string>();
      const clashes: string[] = [];
      for (const field of declaredKind(kind).fields) {
        const names = [text(catalogue, field.label), ...(field.labelAliases ?? []).map((key) => text(catalogue, key)), ...field.aliases, field.key];
        for (const folded of new Set(names.map(foldHeader))) {
          const owner = claimed.get(folded);
          if (owner && owner !== field.key) clashes.push(`${folded}: ${owner} / ${field.key}`);
          claimed.set(folded, field.key);
        }
      }
      expect(clashes).toEqual([]);
    },
  );

  it.each(importKinds)("%s: an enum's options answer to distinct words", (kind) => {
    for (const field of declaredKind(kind).fields.filter((candidate) => candidate.type === "enum")) {
      const claimed = new Map<string, string>();
      for (const option of field.options ?? []) {
        for (const name of [option.key, text(tr, option.label), text(en, option.label), ...option.aliases]) {
          const folded = foldHeader(name);
          expect(claimed.get(folded) ?? option.key, `${field.key}: ${name}`).toBe(option.key);
          claimed.set(folded, option.key);
        }
      }
    }
  });
});
