import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router-dom";
import { queryClient } from "@/session/query-client.ts";

/**
 * Every route past the login page reads through TanStack Query; its code (and client) loads
 * with the first of them, not with the first screen.
 */
export function QueryLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
