/** The token of a reset link, from the address's fragment (#token=…), or null. */
export function resetTokenFrom(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null;
}
