import { describe, expect, it } from "vitest";
import { en } from "./en.ts";
import { tr } from "./tr.ts";

/** Flattens a nested catalogue into dotted keys and their texts. */
function entries(catalogue: object, prefix = ""): [string, unknown][] {
  return Object.entries(catalogue).flatMap(([key, value]) =>
    typeof value === "object" && value !== null ? entries(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const interpolations = (text: unknown) => String(text).match(/\{\{\w+\}\}/g)?.sort() ?? [];

// Every folder's own texts (src/<folder>/i18n and src/features/<feature>/i18n), found on disk.
const parts = {
  tr: import.meta.glob<object>("../**/i18n/tr.ts", { eager: true, import: "tr" }),
  en: import.meta.glob<object>("../**/i18n/en.ts", { eager: true, import: "en" }),
};

describe("translation catalogues", () => {
  it.each([
    ["tr", tr],
    ["en", en],
  ] as const)("%s holds every folder's texts", (language, catalogue) => {
    const assembled = new Map(entries(catalogue));
    const found = Object.entries(parts[language]).filter(([file]) => file !== `./${language}.ts`);
    expect(found.length).toBeGreaterThan(10);
    for (const [file, part] of found) {
      for (const [key, text] of entries(part)) expect(assembled.get(key), `${file}: ${key}`).toBe(text);
    }
  });

  const trTexts = new Map(entries(tr));
  const enTexts = new Map(entries(en));

  it("have exactly the same keys", () => {
    expect([...enTexts.keys()].sort()).toEqual([...trTexts.keys()].sort());
  });

  it.each([
    ["tr", trTexts],
    ["en", enTexts],
  ])("%s has only non-empty string texts", (_, texts) => {
    for (const [key, text] of texts) {
      expect(typeof text, key).toBe("string");
      expect(String(text).trim(), key).not.toBe("");
    }
  });

  it("use the same interpolation variables in both languages", () => {
    for (const [key, text] of trTexts) {
      expect(interpolations(enTexts.get(key)), key).toEqual(interpolations(text));
    }
  });

  it("keep the Turkish texts the spec fixes word for word", () => {
    expect(tr.common.loading).toBe("Yükleniyor...");
    expect(tr.errorScreen).toMatchObject({
      title: "Bir Hata Oluştu",
      reload: "Sayfayı Yenile",
      goHome: "Ana Sayfaya Dön",
    });
  });
});
