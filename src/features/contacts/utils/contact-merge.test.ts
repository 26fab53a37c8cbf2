import { describe, expect, it } from "vitest";
import { channelsLine, consentColumns, duplicateDetails } from "./contact-merge.ts";

describe("contacts compared", () => {
  it("puts emails or phones on one line with their labels", () => {
    const labels = { work: "İş", home: "Ev", mobile: "Cep", other: "Diğer" } as const;
    expect(
      channelsLine(
        [
          { label: "work", value: "elif@example.com" },
          { label: "home", value: "elif@ev.example" },
        ],
        (label) => labels[label],
      ),
    ).toBe("İş: elif@example.com, Ev: elif@ev.example");
    expect(channelsLine([], (label) => labels[label])).toBeNull();
  });

  it("tells a likely duplicate by its emails, then its phones", () => {
    expect(
      duplicateDetails({ emails: [{ label: "work", value: "elif@example.com" }], phones: [{ label: "mobile", value: "+905321112233" }] }),
    ).toBe("elif@example.com · +905321112233");
    expect(duplicateDetails({ emails: [], phones: [] })).toBe("");
  });

  it("merges the KVKK consent with its channel, date and source", () => {
    expect(consentColumns).toEqual(["kvkk_consent", "kvkk_consent_channel", "kvkk_consent_at", "kvkk_consent_source"]);
  });
});
