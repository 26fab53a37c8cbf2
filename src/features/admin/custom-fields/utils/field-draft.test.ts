import { describe, expect, it, vi } from "vitest";
import { draftErrors, draftOf, fieldPayload, newOption } from "./field-draft.ts";

// The declarations module reads its fields through rpc(); nothing is read here.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));

const saved = {
  key: "cf_sektor_kodu",
  standard: false,
  drawn: true,
  max_length: null,
  type: "choice" as const,
  label_tr: "Sektör kodu",
  label_en: null,
  required: true,
  options: [{ value: "A", label_tr: "A", label_en: null, color: "green" }],
  currency: null,
  link_module: null,
  position: 3,
  hidden: false,
  listed: true,
  filterable: true,
  searchable: false,
  updated_at: "2026-11-28T12:00:00Z",
};

describe("the custom field editor's draft", () => {
  it("sends a new field without a key, and a new option without a value (the server takes it from the label)", () => {
    const draft = { ...draftOf(null), label_tr: " Sektör kodu ", type: "choice" as const, options: [{ ...newOption(), label_tr: "B", color: "red" }] };
    expect(fieldPayload(draft)).toEqual({
      type: "choice",
      label_tr: "Sektör kodu",
      label_en: null,
      required: false,
      hidden: false,
      listed: false,
      filterable: false,
      searchable: false,
      options: [{ value: null, label_tr: "B", label_en: null, color: "red" }],
      currency: null,
      link_module: null,
    });
  });

  it("sends a change with the key and the version read, and drops what the new type cannot have", () => {
    const draft = { ...draftOf(saved), type: "long_text" as const, searchable: true };
    expect(fieldPayload(draft)).toMatchObject({
      key: "cf_sektor_kodu",
      updated_at: "2026-11-28T12:00:00Z",
      type: "long_text",
      options: [],
      filterable: false,
      searchable: true,
      currency: null,
    });
    expect(fieldPayload({ ...draftOf(saved), type: "number", searchable: true })).toMatchObject({ searchable: false, filterable: true, options: [] });
    expect(fieldPayload({ ...draftOf(saved), type: "money", currency: "EUR" })).toMatchObject({ currency: "EUR" });
  });

  it("keeps an existing option's stored value when its label changes", () => {
    const draft = draftOf(saved);
    draft.options[0].label_tr = "A sınıfı";
    expect(fieldPayload(draft).options).toEqual([{ value: "A", label_tr: "A sınıfı", label_en: null, color: "green" }]);
  });

  it("asks for a Turkish label, options for a choice, and a module for a link", () => {
    expect(draftErrors(draftOf(null))).toEqual({ label_tr: "required" });
    expect(draftErrors({ ...draftOf(null), label_tr: "x".repeat(61) })).toEqual({ label_tr: "too_long" });
    expect(draftErrors({ ...draftOf(null), label_tr: "Bayi", type: "multi_choice" })).toEqual({ options: "required" });
    expect(draftErrors({ ...draftOf(null), label_tr: "Bayi", type: "choice", options: [newOption()] })).toEqual({ options: "required" });
    expect(draftErrors({ ...draftOf(null), label_tr: "Bayi", type: "link" })).toEqual({ link_module: "required" });
    expect(draftErrors({ ...draftOf(null), label_tr: "Bayi", type: "link", link_module: "customers" })).toEqual({});
  });
});
