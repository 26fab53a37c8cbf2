import { describe, expect, it } from "vitest";
import type { RecordBase } from "./record-api.ts";
import { differingFields, fieldLabelOf, mergeValues, plainValue, type MergeField } from "./record-merge.ts";

const base = { owner_id: "u", owner_name: null, created_at: "2026-01-01", updated_at: "2026-01-01" };
const a: RecordBase = { ...base, id: "a", name: "Alfa", city: "İstanbul", tags: ["x"], consent: true, consent_at: "2026-01-02" };
const b: RecordBase = { ...base, id: "b", name: "Alfa", city: "Ankara", tags: [], consent: false, consent_at: null };
const fields: MergeField<RecordBase>[] = [
  { key: "name", label: "Ad" },
  { key: "city", label: "İl" },
  { key: "tags", label: "Etiketler" },
  { key: "consent", label: "Rıza", columns: ["consent", "consent_at"] },
];

describe("merging two records", () => {
  it("compares every column of a field", () => {
    expect(differingFields(fields, [a, b]).map((field) => field.key)).toEqual(["city", "tags", "consent"]);
    expect(differingFields(fields, [a, { ...a, id: "c", consent_at: "2026-03-03" }]).map((field) => field.key)).toEqual(["consent"]);
    expect(differingFields(fields, [a, { ...a, id: "c" }])).toEqual([]);
  });

  it("sends only what is taken from the other record, a field's columns together", () => {
    // Survivor a: nothing chosen keeps a's values, so nothing is sent.
    expect(mergeValues(fields, [a, b], 0, {})).toEqual({});
    expect(mergeValues(fields, [a, b], 0, { city: 1, consent: 1 })).toEqual({ city: "Ankara", consent: false, consent_at: null });
    // Survivor b: its own values unless a's are chosen; an empty list goes as null.
    expect(mergeValues(fields, [a, b], 1, { city: 1, tags: 0 })).toEqual({ tags: ["x"] });
    expect(mergeValues(fields, [b, a], 0, { tags: 0, city: 1 })).toEqual({ city: "İstanbul" });
    expect(mergeValues(fields, [a, b], 0, { tags: 1 })).toEqual({ tags: null });
  });

  it("ignores a choice on a field that does not differ", () => {
    expect(mergeValues(fields, [a, b], 0, { name: 1 })).toEqual({});
  });

  it("names the field a refused column belongs to", () => {
    expect(fieldLabelOf(fields, "consent_at")).toBe("Rıza");
    expect(fieldLabelOf(fields, "city")).toBe("İl");
    expect(fieldLabelOf(fields, "owner_id")).toBe("owner_id");
  });

  it("reads plain values, empty ones as null", () => {
    expect(plainValue("Ankara")).toBe("Ankara");
    expect(plainValue(["a", "b"])).toBe("a, b");
    expect(plainValue(3)).toBe("3");
    expect(plainValue(false)).toBe("false");
    for (const empty of [null, undefined, "", []]) expect(plainValue(empty)).toBeNull();
  });
});
