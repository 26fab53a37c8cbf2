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

/**
 * The first screen's texts (first-screen-*.ts: login, the app's frame, shared components), a
 * small chunk per language: the login page does not wait for the whole app's texts.
 */
const firstScreenCatalogues: Record<Language, () => Promise<object>> = {
  tr: async () => (await import("./first-screen-tr.ts")).firstScreen,
  en: async () => (await import("./first-screen-en.ts")).firstScreen,
};

/** Set once a page past the first screen is wanted: from then on every language loads whole. */
let wholeCatalogues = false;
const wholeLoaded = new Set<Language>();

async function addWholeCatalogue(language: Language): Promise<void> {
  if (wholeLoaded.has(language)) return;
  const catalogue = await catalogues[language]();
  i18n.addResourceBundle(language, "translation", catalogue, true, true);
  wholeLoaded.add(language);
}

/**
 * Loads the whole catalogue of the language in use (and of every language switched to
 * later). Every page loaded on demand waits for it (src/lib/lazy-page.ts), so a page past
 * the login renders with all its texts.
 */
export async function loadWholeCatalogue(): Promise<void> {
  wholeCatalogues = true;
  await i18nReady;
  const language = i18n.resolvedLanguage;
  if (isLanguage(language)) await addWholeCatalogue(language);
}

/** Hands i18next a language's catalogue when it first needs it (at start-up, or on a switch). */
const lazyCatalogues: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    if (!isLanguage(language)) return callback(new Error(`No catalogue for ${language}`), false);
    const load = wholeCatalogues
      ? catalogues[language]().then((catalogue) => (wholeLoaded.add(language), catalogue))
      : firstScreenCatalogues[language]();
    load.then(
      (catalogue) => callback(null, catalogue as Catalogue),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

// Keep the document (screen readers, browser tab) and the stored choice in step with i18next.
i18n.on("languageChanged", (language) => {
  document.documentElement.lang = language;
  document.title = i18n.t("app.title");
  localStorage.setItem(storageKey, language);
  // A language loaded for the first screen only, switched to after sign-in, gets its other texts.
  if (wholeCatalogues && isLanguage(language)) void addWholeCatalogue(language);
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
    // Components re-render when the whole catalogue is added to the first screen's texts.
    react: { bindI18nStore: "added" },
  });
