import { describe, expect, it, vi } from "vitest";
import { chosenCustomOptions, formatCustomValue, isBlankCustomValue } from "./custom-field-values.ts";
import { enValues as en, sectorOptions, testField, trValues as tr } from "./test-fields.ts";

// The declarations module reads its fields through rpc(); nothing is read here.
vi.mock("@/lib/call-rpc.ts", () => ({ rpc: vi.fn() }));


describe("formatCustomValue", () => {
  it("reads every blank as empty", () => {
    for (const value of [null, undefined, "", "  ", []]) {
      expect(isBlankCustomValue(value)).toBe(true);
      expect(formatCustomValue(testField("text"), value, tr)).toBeNull();
    }
    expect(formatCustomValue(testField("boolean"), false, tr)).toBe("Hayır");
    expect(formatCustomValue(testField("number"), 0, tr)).toBe("0");
  });

  it("formats numbers, money and percentages in the interface's language", () => {
    expect(formatCustomValue(testField("number"), 1234.5, tr)).toBe("1.234,5");
    expect(formatCustomValue(testField("number"), 1234.5, en)).toBe("1,234.5");
    expect(formatCustomValue(testField("money"), 1250000, tr)).toBe("₺1.250.000");
    expect(formatCustomValue(testField("money", { currency: "EUR" }), 12.5, tr)).toBe("€12,50");
    expect(formatCustomValue(testField("percent"), 12.5, tr)).toBe("%12,5");
  });

  it("formats dates without shifting them and says yes or no in words", () => {
    expect(formatCustomValue(testField("date"), "2026-01-31", tr)).toBe("31 Oca 2026");
    expect(formatCustomValue(testField("date"), "2026-01-31", en)).toBe("31 Jan 2026");
    expect(formatCustomValue(testField("datetime"), "2026-01-31T09:30:00Z", tr)).toMatch(/^31 Oca 2026 \d{2}:30$/);
    expect(formatCustomValue(testField("boolean"), true, tr)).toBe("Evet");
  });

  it("names choices by their labels, in the field's order, keeping a value no longer offered", () => {
    const choice = testField("choice", { options: sectorOptions });
    expect(formatCustomValue(choice, "a", tr)).toBe("A sınıfı");
    expect(formatCustomValue(choice, "a", en)).toBe("Class A");
    expect(formatCustomValue(choice, "b", en)).toBe("B sınıfı");
    const multi = testField("multi_choice", { options: sectorOptions });
    expect(formatCustomValue(multi, ["c", "a"], tr)).toBe("A sınıfı, C sınıfı");
    expect(chosenCustomOptions(multi, ["c", "gone"]).map((option) => option.label_tr)).toEqual(["C sınıfı", "gone"]);
  });

  it("names a link by its record, never by its id", () => {
    const link = testField("link");
    const id = "6f1c2f43-4a52-4a3a-9b4e-0d6a3f1f0a11";
    expect(formatCustomValue(link, id, { ...tr, linkedName: "Çelik Yapı" })).toBe("Çelik Yapı");
    expect(formatCustomValue(link, id, { ...tr, linkedName: null })).toBe("Erişiminiz olmayan kayıt");
  });

  it("groups phone numbers and leaves text as it is", () => {
    expect(formatCustomValue(testField("phone"), "+902242124933", tr)).toBe("+90 224 212 49 33");
    expect(formatCustomValue(testField("text"), "Bayi 7", tr)).toBe("Bayi 7");
  });
});
