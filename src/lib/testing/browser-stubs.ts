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
 * The page's origin and an empty localStorage, for a module that reads them when it loads
 * (call before importing it); answers the storage.
 */
export function stubBrowserPage(origin = "https://crm.test"): Storage {
  const storage = memoryStorage();
  vi.stubGlobal("window", { location: { origin } });
  vi.stubGlobal("localStorage", storage);
  return storage;
}
