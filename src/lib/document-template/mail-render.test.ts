import { describe, expect, it } from "vitest";
import { mailPlaceholderNames, mailTemplateKinds } from "./mail-placeholders.ts";
import { renderMailText } from "./render.ts";
import { sampleMailValues } from "./sample-data.ts";

const values = sampleMailValues(new Date(2026, 0, 15));

describe("renderMailText", () => {
  it("fills the kind's placeholders and keeps any other one as written", () => {
    expect(renderMailText("Teklif {{ quote.number }} – {{sender.name}} {{contract.number}}", values, mailPlaceholderNames("quote"))).toEqual([
      { type: "text", text: "Teklif TKL-2026-00042 – Selim Satış " },
      { type: "unknown", text: "{{contract.number}}" },
    ]);
    // A table has no place in an e-mail: it is unknown there, as `constructor` is.
    expect(renderMailText("{{items_table}}{{constructor}}", values, mailPlaceholderNames("quote")).map((segment) => segment.type)).toEqual([
      "unknown",
      "unknown",
    ]);
  });

  it("has a sample value for every placeholder each kind offers", () => {
    for (const kind of mailTemplateKinds) {
      for (const name of mailPlaceholderNames(kind)) {
        const segments = renderMailText(`{{${name}}}`, values, mailPlaceholderNames(kind));
        expect(segments.length === 0 || segments.every((segment) => segment.type === "text"), `${kind}: ${name}`).toBe(true);
        expect(Object.hasOwn(values, name), `${kind}: ${name}`).toBe(true);
      }
    }
  });
});
