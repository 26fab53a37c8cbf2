import { vi } from "vitest";

/** A localStorage kept in memory, for unit tests outside a browser. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

/**
 * The page's origin, its events (a `storage` event dispatched on `window` is another tab's
 * change) and an empty localStorage, for a module that reads them when it loads (call before
 * importing it); answers the storage.
 */
export function stubBrowserPage(origin = "https://crm.test"): Storage {
  const storage = memoryStorage();
  vi.stubGlobal("window", Object.assign(new EventTarget(), { location: { origin } }));
  vi.stubGlobal("localStorage", storage);
  return storage;
}

/** Another tab's change of a stored item, as the browser tells this page (StorageEvent's fields). */
export function storageEventOf(key: string, newValue: string | null): Event {
  return Object.assign(new Event("storage"), { key, newValue });
}
