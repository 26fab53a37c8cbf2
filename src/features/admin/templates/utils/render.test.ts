import { describe, expect, it } from "vitest";
import { insertAt, placeholders, renderTemplate, sampleData, type Segment } from "./render.ts";

const data = sampleData(new Date(2026, 0, 15));
const textOf = (segments: Segment[]) =>
  segments.map((segment) => (segment.type === "items" ? "[items]" : segment.text)).join("");

describe("renderTemplate", () => {
  it("replaces every known placeholder with its sample value", () => {
    const segments = renderTemplate("Sayın {{customer.name}},\n{{ contact.name }} - {{totals.total}}", data);
    expect(segments).toEqual([{ type: "text", text: "Sayın Anadolu Yapı Malzemeleri Ltd. Şti.,\nZeynep Kaya - ₺69.000,00" }]);
  });

  it("has a sample value for every placeholder it offers", () => {
    for (const name of placeholders) {
      const segments = renderTemplate(`{{${name}}}`, data);
      expect(segments.some((segment) => segment.type === "unknown"), name).toBe(false);
    }
  });

  it("formats the totals in Turkish lira and dates in Turkish", () => {
    expect(data.values.get("totals.subtotal")).toBe("₺57.500,00");
    expect(data.values.get("totals.vat")).toBe("₺11.500,00");
    expect(data.values.get("today")).toBe("15 Ocak 2026");
    expect(data.items).toHaveLength(2);
    expect(data.items[0]).toMatchObject({ quantity: 10, unitPrice: "₺4.500,00", total: "₺45.000,00" });
  });

  it("turns {{items_table}} into a table segment", () => {
    expect(renderTemplate("Kalemler:\n{{items_table}}\nSon", data)).toEqual([
      { type: "text", text: "Kalemler:\n" },
      { type: "items" },
      { type: "text", text: "\nSon" },
    ]);
  });

  it("keeps an unknown placeholder as written, marked", () => {
    expect(renderTemplate("A {{customer.vergi_no}} B", data)).toEqual([
      { type: "text", text: "A " },
      { type: "unknown", text: "{{customer.vergi_no}}" },
      { type: "text", text: " B" },
    ]);
  });

  it("shows markup and code literally, never evaluating it", () => {
    const body = "<script>alert(1)</script>{{constructor.constructor('x')()}}{{constructor}}{{__proto__}}{{toString}}";
    const segments = renderTemplate(body, data);
    expect(segments).toEqual([
      { type: "text", text: "<script>alert(1)</script>" },
      { type: "unknown", text: "{{constructor.constructor('x')()}}" },
      { type: "unknown", text: "{{constructor}}" },
      { type: "unknown", text: "{{__proto__}}" },
      { type: "unknown", text: "{{toString}}" },
    ]);
    expect(textOf(segments)).toBe(body);
  });

  it("leaves unbalanced braces alone", () => {
    expect(textOf(renderTemplate("{{customer.name} {{ {{today", data))).toBe("{{customer.name} {{ {{today");
  });
});

describe("insertAt", () => {
  it("inserts at the cursor and puts the cursor after the insertion", () => {
    expect(insertAt("Sayın ,", 6, 6, "{{contact.name}}")).toEqual({ text: "Sayın {{contact.name}},", caret: 22 });
  });

  it("replaces a selection and clamps out-of-range positions", () => {
    expect(insertAt("abcdef", 1, 3, "X")).toEqual({ text: "aXdef", caret: 2 });
    expect(insertAt("ab", 10, 12, "X")).toEqual({ text: "abX", caret: 3 });
  });
});
