import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Catalogue } from "./tr.ts";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: { translation: Catalogue };
  }
}

export const languages = ["tr", "en"] as const;
export type Language = (typeof languages)[number];

const storageKey = "crm.language";

function isLanguage(value: unknown): value is Language {
  return languages.includes(value as Language);
}

function storedLanguage(): Language {
  const stored = localStorage.getItem(storageKey);
  return isLanguage(stored) ? stored : "tr";
}

/** Each language's catalogue is a chunk of its own: only the language in use is downloaded. */
const catalogues: Record<Language, () => Promise<Catalogue>> = {
  tr: async () => (await import("./tr.ts")).tr,
  en: async () => (await import("./en.ts")).en,
};

/** Hands i18next a language's catalogue when it first needs it (at start-up, or on a switch). */
const lazyCatalogues: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    if (!isLanguage(language)) return callback(new Error(`No catalogue for ${language}`), false);
    catalogues[language]().then(
      (catalogue) => callback(null, catalogue),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

// Keep the document (screen readers, browser tab) and the stored choice in step with i18next.
i18n.on("languageChanged", (language) => {
  document.documentElement.lang = language;
  document.title = i18n.t("app.title");
  localStorage.setItem(storageKey, language);
});

/**
 * Resolves once the stored language's catalogue is loaded, so the first render is already
 * translated. A switch (`i18n.changeLanguage`) loads the other catalogue first, then changes.
 */
export const i18nReady = i18n
  .use(lazyCatalogues)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
    // Both catalogues have the same keys (a test checks it), so nothing falls back to another language.
    fallbackLng: false,
    supportedLngs: languages,
    load: "currentOnly",
    // React escapes rendered text already.
    interpolation: { escapeValue: false },
  });
