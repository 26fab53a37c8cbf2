import { QueryClient } from "@tanstack/react-query";
import { RpcError } from "@/lib/rpc.ts";
import { registerCache } from "./cached-data.ts";

/**
 * The app's TanStack Query client, for every page past the login (src/app/QueryLayout.tsx).
 * The session's rules clear it through cached-data.ts, which the first screen has without it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    // One retry covers a dropped connection; errors from the database will not heal by retrying.
    queries: { retry: (failureCount, error) => !(error instanceof RpcError) && failureCount < 1 },
  },
});

registerCache(queryClient);
