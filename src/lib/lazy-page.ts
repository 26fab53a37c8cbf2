import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** A page component whose code loads when it is first rendered. */
export type LazyPage = LazyExoticComponent<ComponentType>;

/**
 * A page loaded on demand: each becomes its own chunk, so the first screen (/login) downloads
 * neither the main layout nor the other pages. While it loads, the nearest Suspense shows
 * 'Yükleniyor...'; if it cannot load, the route's error element shows the error screen.
 */
export function lazyPage<Module>(load: () => Promise<Module>, name: keyof Module): LazyPage {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
