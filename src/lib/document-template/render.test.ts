import { describe, expect, it } from "vitest";
import { totalsRows } from "./document-data.ts";
import { placeholderDefinitions, placeholders, placeholdersByGroup, type TextPlaceholder } from "./placeholders.ts";
import { insertAt, renderTemplate, type Segment } from "./render.ts";
import { sampleData } from "./sample-data.ts";

const data = sampleData(new Date(2026, 0, 15));
const textOf = (segments: Segment[]) => segments.map((segment) => (segment.type === "block" ? `[${segment.block}]` : segment.text)).join("");

describe("renderTemplate", () => {
  it("replaces every known placeholder with its value", () => {
    const segments = renderTemplate("Sayın {{customer.name}},\n{{ contact.name }} - {{totals.total}}", data.values);
    expect(segments).toEqual([{ type: "text", text: "Sayın Anadolu Yapı Malzemeleri Ltd. Şti.,\nZeynep Kaya - ₺69.000,00" }]);
  });

  it("has a sample value or a block for every placeholder it offers", () => {
    for (const name of placeholders) {
      const segments = renderTemplate(`{{${name}}}`, data.values);
      expect(segments.some((segment) => segment.type === "unknown"), name).toBe(false);
    }
    const textNames = placeholderDefinitions.filter((definition) => !("block" in definition)).map((definition) => definition.name);
    for (const name of textNames) expect(Object.hasOwn(data.values, name), name).toBe(true);
  });

  it("prints a custom field's placeholder the values have, and keeps any other one as written", () => {
    const values = { ...data.values, "customer.cf_sektor_kodu": "İnşaat", "quote.cf_bos": "" };
    expect(renderTemplate("Sektör: {{ customer.cf_sektor_kodu }}; boş: {{quote.cf_bos}}.", values)).toEqual([
      { type: "text", text: "Sektör: İnşaat; boş: ." },
    ]);
    // A field deleted since (or of another record) stays as written, as any unknown placeholder.
    expect(renderTemplate("{{customer.cf_silinen}} {{deal.cf_sektor_kodu}} {{customer.cf_}}", values)).toEqual([
      { type: "unknown", text: "{{customer.cf_silinen}}" },
      { type: "text", text: " " },
      { type: "unknown", text: "{{deal.cf_sektor_kodu}}" },
      { type: "text", text: " " },
      { type: "unknown", text: "{{customer.cf_}}" },
    ]);
    // Only a field's own name counts: another name the values happen to hold is still unknown.
    expect(renderTemplate("{{customer.sektor}}", { ...values, ["customer.sektor" as "customer.cf_x"]: "x" })).toEqual([
      { type: "unknown", text: "{{customer.sektor}}" },
    ]);
  });

  it("prints a known placeholder without a value as nothing", () => {
    expect(renderTemplate("Vergi No: {{customer.tax_number}}.", {})).toEqual([{ type: "text", text: "Vergi No: ." }]);
  });

  it("formats the sample totals in Turkish lira, with the amount in words, and dates in Turkish", () => {
    expect(data.values["totals.net"]).toBe("₺57.500,00");
    expect(data.values["totals.vat"]).toBe("₺11.500,00");
    expect(data.values["totals.total_in_words"]).toBe("Altmış Dokuz Bin Türk Lirası");
    expect(data.values.today).toBe("15 Ocak 2026");
    expect(data.items).toHaveLength(2);
    expect(data.items[0]).toMatchObject({ quantity: "10 adet", unit_price: "₺4.500,00", line_net: "₺45.000,00" });
    expect(data.vatBreakdown).toEqual([{ rate: "%20", base: "₺57.500,00", vat: "₺11.500,00" }]);
  });

  it("turns the tables and the logo into blocks", () => {
    expect(renderTemplate("{{organization.logo}}Kalemler:\n{{items_table}}\n{{vat_breakdown}}{{ totals_table }}Son", data.values)).toEqual([
      { type: "block", block: "logo" },
      { type: "text", text: "Kalemler:\n" },
      { type: "block", block: "items" },
      { type: "text", text: "\n" },
      { type: "block", block: "vat_breakdown" },
      { type: "block", block: "totals" },
      { type: "text", text: "Son" },
    ]);
  });

  it("keeps an unknown placeholder as written, marked", () => {
    expect(renderTemplate("A {{customer.vergi_no}} B", data.values)).toEqual([
      { type: "text", text: "A " },
      { type: "unknown", text: "{{customer.vergi_no}}" },
      { type: "text", text: " B" },
    ]);
  });

  it("shows markup and code literally, never evaluating it", () => {
    const body = "<script>alert(1)</script>{{constructor.constructor('x')()}}{{constructor}}{{__proto__}}{{toString}}{{hasOwnProperty}}";
    const segments = renderTemplate(body, data.values);
    expect(segments).toEqual([
      { type: "text", text: "<script>alert(1)</script>" },
      { type: "unknown", text: "{{constructor.constructor('x')()}}" },
      { type: "unknown", text: "{{constructor}}" },
      { type: "unknown", text: "{{__proto__}}" },
      { type: "unknown", text: "{{toString}}" },
      { type: "unknown", text: "{{hasOwnProperty}}" },
    ]);
    expect(textOf(segments)).toBe(body);
  });

  it("reads only the values' own entries", () => {
    const inherited = Object.create({ "customer.name": "Miras" }) as Record<TextPlaceholder, string>;
    expect(renderTemplate("{{customer.name}}", inherited)).toEqual([]);
  });

  it("leaves unbalanced braces alone", () => {
    expect(textOf(renderTemplate("{{customer.name} {{ {{today", data.values))).toBe("{{customer.name} {{ {{today");
  });
});

describe("placeholdersByGroup", () => {
  it("offers quote fields for quotes and contract fields for contracts, the shared ones for both", () => {
    const quote = placeholdersByGroup("quote").flatMap((entry) => entry.names);
    const contract = placeholdersByGroup("contract").flatMap((entry) => entry.names);
    expect(quote).toEqual(expect.arrayContaining(["items_table", "vat_breakdown", "totals.total_in_words", "customer.name", "organization.logo"]));
    expect(quote).not.toContain("contract.title");
    expect(contract).toEqual(expect.arrayContaining(["contract.value_in_words", "contract.renewal_terms", "customer.name", "today"]));
    expect(contract).not.toContain("items_table");
    expect(new Set([...quote, ...contract])).toEqual(new Set(placeholders));
  });
});

describe("totalsRows", () => {
  it("lists the totals that have a value, in order", () => {
    expect(totalsRows(data.values).map((row) => row.key)).toEqual(["gross", "net", "vat", "total"]);
    expect(totalsRows({ "totals.total": "€10,00", "totals.total_try": "₺350,00" })).toEqual([
      { key: "total", value: "€10,00" },
      { key: "total_try", value: "₺350,00" },
    ]);
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
