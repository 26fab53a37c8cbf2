/**
 * Verified access tokens, kept briefly so that the front verifies a token once, not on
 * every request (issue 28: jose re-imported the key and checked the signature each time).
 * Keyed by the token itself; an entry lives until the token's exp and at most `maxSeconds`;
 * at most `maxEntries` are kept (the oldest dropped first). Only a token that verified is
 * kept: an expired, refused or unknown one is verified (and refused) every time. lite keeps
 * its own the same way (patches/@supabase+lite+0.10.0.patch).
 */
import { jwtVerify, type JWTPayload } from "jose";

export interface VerifiedTokens {
  /** The token's claims when it verifies with the key (HS256), else null. */
  claims(token: string): Promise<JWTPayload | null>;
  readonly size: number;
}

export function verifiedTokens(secret: string, options: { maxEntries?: number; maxSeconds?: number } = {}): VerifiedTokens {
  const maxEntries = options.maxEntries ?? 10_000;
  const maxSeconds = options.maxSeconds ?? 60;
  const key = new TextEncoder().encode(secret);
  const kept = new Map<string, { payload: JWTPayload; until: number }>();
  return {
    get size() {
      return kept.size;
    },
    async claims(token) {
      const now = Math.floor(Date.now() / 1000);
      const entry = kept.get(token);
      if (entry && now < entry.until) return entry.payload;
      if (entry) kept.delete(token);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, key, { algorithms: ["HS256"] }));
      } catch {
        return null;
      }
      // jose refuses a token whose exp has come (exp <= now): kept only before it.
      if (typeof payload.exp === "number") {
        if (kept.size >= maxEntries) kept.delete(kept.keys().next().value!);
        kept.set(token, { payload, until: Math.min(payload.exp, now + maxSeconds) });
      }
      return payload;
    },
  };
}
