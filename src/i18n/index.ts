import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./locales/en.ts";
import { tr, type Catalogue } from "./locales/tr.ts";

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

// Keep the document (screen readers, browser tab) and the stored choice in step with i18next.
i18n.on("languageChanged", (language) => {
  document.documentElement.lang = language;
  document.title = i18n.t("app.title");
  localStorage.setItem(storageKey, language);
});

void i18n.use(initReactI18next).init({
  resources: { tr: { translation: tr }, en: { translation: en } },
  lng: storedLanguage(),
  fallbackLng: "tr",
  supportedLngs: languages,
  // React escapes rendered text already.
  interpolation: { escapeValue: false },
  // The catalogues are bundled, so initialise synchronously: the first render is already translated.
  initAsync: false,
});
