import type { Location } from "react-router-dom";

/** Router state that remembers where a guard sent someone away from. */
export interface ReturnState {
  from?: string;
}

export function returnState(location: Location): ReturnState {
  return { from: `${location.pathname}${location.search}${location.hash}` };
}

/**
 * Where to go back to: the remembered in-app path, or home. Only same-app paths are honoured
 * (never "//host" or a URL), and never the pages that sent someone here.
 */
export function returnPath(state: unknown): string {
  const from = (state as ReturnState | null)?.from;
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//")) return "/";
  if (["/login", "/terms", "/select-organization"].some((page) => from === page || from.startsWith(`${page}?`))) return "/";
  return from;
}
