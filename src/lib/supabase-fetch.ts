/**
 * The fetch the Supabase client uses: the platform's, plus one rule (spec section 4): a 401
 * from the Data API or an Edge Function to a signed-in request means the session is no longer
 * accepted, so the app signs out. Auth's own endpoints are left alone (a failed sign-in or
 * refresh is reported by supabase-js itself), and so are requests sent with the publishable
 * key only (a signed-out visitor has no session to end).
 */

const watchedPaths = ["/rest/v1/", "/functions/v1/"];

function requestUrl(input: RequestInfo | URL): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function bearerToken(input: RequestInfo | URL, init: RequestInit | undefined): string | null {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const authorization = headers.get("Authorization");
  return authorization?.toLowerCase().startsWith("bearer ") ? authorization.slice(7).trim() : null;
}

export interface SessionAwareFetchOptions {
  fetch: typeof fetch;
  /** The publishable key: a bearer equal to it is a signed-out request. */
  publishableKey: string;
  onUnauthorized: () => void;
}

export function createSessionAwareFetch({ fetch: baseFetch, publishableKey, onUnauthorized }: SessionAwareFetchOptions): typeof fetch {
  return async (input, init) => {
    const response = await baseFetch(input, init);
    if (response.status === 401) {
      const path = new URL(requestUrl(input), "http://localhost").pathname;
      const token = bearerToken(input, init);
      if (watchedPaths.some((prefix) => path.startsWith(prefix)) && token && token !== publishableKey) {
        onUnauthorized();
      }
    }
    return response;
  };
}
