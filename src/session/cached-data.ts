import { queryKeys } from "./query-keys.ts";

/** The part of TanStack Query's client the session's rules use. */
interface Cache {
  clear(): void;
  removeQueries(filters: { queryKey: readonly unknown[] }): void;
}

/**
 * What the signed-in pages read is cached by TanStack Query, whose client (query-client.ts)
 * loads with the first page past the login: the first screen does without it. Until then there
 * is no cache, and nothing to forget.
 */
let cache: Cache | null = null;

/** The query client, once it has loaded (query-client.ts). */
export function registerCache(loaded: Cache): void {
  cache = loaded;
}

/** Forgets everything cached: nothing read for one user may be shown to the next one. */
export function clearCachedData(): void {
  cache?.clear();
}

/** Forgets what was cached for this user before a sign-in (or before the binding). */
export function forgetCachedUserData(userId: string): void {
  cache?.removeQueries({ queryKey: queryKeys.user(userId) });
}
