/**
 * The signed-in gates (RequireAuth, then RequireModule) when a load fails, rendered once on
 * the server: a failed refetch of what they already had keeps the page (with the database
 * gone for a moment, a background refetch replaced the whole app with the session's load
 * error; found by `npm run faults`); a first load that failed shows their load error.
 */
import { MantineProvider } from "@mantine/core";
import type { Session } from "@supabase/supabase-js";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RequireAuth } from "@/features/auth/components/RequireAuth.tsx";
import { recordTermsAccepted } from "@/lib/browser-storage.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { SessionActionsContext, SessionContext } from "@/session/session-context.ts";
import { RequireModule } from "./RequireModule.tsx";

// The real client needs a browser (it reads window.location); the gates only read the query cache here.
vi.mock("@/lib/supabase.ts", () => ({ supabase: {} }));

const userId = "0b000000-0000-4000-8000-000000000003";
const email = "satis@demo.test";
const context = { success: true, user: { id: userId, email, role: "user" }, organization: { id: "0a000000-0000-4000-8000-000000000001", name: "Demo" } };
const permissions = { success: true, organization_id: context.organization.id, is_admin: false, permissions: { customers: { view: "all" } } };

/** A query's cache entry: loaded once (or never), then a load that failed (the database gone). */
async function cacheWith(client: QueryClient, key: readonly unknown[], loaded: unknown) {
  if (loaded !== undefined) client.setQueryData(key, loaded);
  await client
    .fetchQuery({ queryKey: key, queryFn: () => Promise.reject(new Error("The database is not available")), retry: false })
    .catch(() => undefined);
}

/** The customers page behind both gates, as the app nests them, rendered once. */
function render(client: QueryClient): string {
  const session = { user: { id: userId, email } } as Session;
  return renderToString(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <SessionContext value={{ status: "signedIn", session }}>
          <SessionActionsContext value={{ signOut: async () => undefined }}>
            <MemoryRouter initialEntries={["/customers"]}>
              <Routes>
                <Route element={<RequireAuth />}>
                  <Route element={<RequireModule module="customers" />}>
                    <Route path="/customers" element={<p>the customers page</p>} />
                  </Route>
                </Route>
              </Routes>
            </MemoryRouter>
          </SessionActionsContext>
        </SessionContext>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("the signed-in gates when a load fails", () => {
  const stored = new Map<string, string>();
  beforeEach(() => {
    Object.assign(globalThis, {
      localStorage: { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => stored.set(key, value), removeItem: (key: string) => stored.delete(key) },
    });
    recordTermsAccepted(email);
  });
  afterEach(() => {
    stored.clear();
    Reflect.deleteProperty(globalThis, "localStorage");
  });

  it("keep the page when a refetch of what they had failed (the page says what it could not load itself)", async () => {
    const client = new QueryClient();
    await cacheWith(client, queryKeys.currentUserContext(userId), context);
    await cacheWith(client, queryKeys.modulePermissions(userId), permissions);
    expect(client.getQueryState(queryKeys.currentUserContext(userId))?.status).toBe("error");
    const html = render(client);
    expect(html).toContain("the customers page");
    expect(html).not.toContain("common.retry");
  });

  it("show their load error with the retry button when the first load failed", async () => {
    // Once its retries are spent: rendered again, it is not tried again at once.
    const spent = () => new QueryClient({ defaultOptions: { queries: { retryOnMount: false } } });
    const client = spent();
    await cacheWith(client, queryKeys.currentUserContext(userId), undefined);
    const html = render(client);
    expect(html).toContain("auth.guard.loadError");
    expect(html).toContain("common.retry");
    expect(html).not.toContain("the customers page");

    const withContext = spent();
    await cacheWith(withContext, queryKeys.currentUserContext(userId), context);
    await cacheWith(withContext, queryKeys.modulePermissions(userId), undefined);
    expect(render(withContext)).toContain("permissions.loadError");
  });

});
