import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import { loadWholeCatalogue } from "@/i18n/index.ts";

/** A page component whose code loads when it is first rendered. */
export type LazyPage = LazyExoticComponent<ComponentType>;

/**
 * A page loaded on demand: each becomes its own chunk, so the first screen (/login) downloads
 * neither the main layout nor the other pages. While it loads, the nearest Suspense shows
 * 'Yükleniyor...'; if it cannot load, the nearest ErrorBoundary shows the error screen.
 * It renders once the whole catalogue of texts and Mantine's styles whole are loaded too (the
 * first screen has its own small share of each: src/i18n/index.ts, first-screen-styles.ts).
 */
export function lazyPage<Module>(load: () => Promise<Module>, name: keyof Module): LazyPage {
  return lazy(async () => {
    const [module] = await Promise.all([load(), loadWholeCatalogue(), import("./mantine-styles.ts")]);
    return { default: module[name] as ComponentType };
  });
}
