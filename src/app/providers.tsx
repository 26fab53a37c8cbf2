import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import { createTheme, MantineProvider, type CSSVariablesResolver } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorBoundary } from "../components/ErrorBoundary.tsx";
import { SessionProvider } from "../features/auth/session/SessionProvider.tsx";

// Mantine's default light shades put white on blue-6 and red-6 text on white, both below the
// WCAG AA contrast of 4.5:1; the darker shades pass it.
const theme = createTheme({ primaryShade: { light: 8, dark: 8 } });
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-error": "var(--mantine-color-red-9)" },
  dark: {},
});

const queryClient = new QueryClient({
  defaultOptions: {
    // One retry covers a dropped connection; errors from the database will not heal by retrying.
    queries: { retry: 1 },
  },
});

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>{children}</SessionProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </MantineProvider>
  );
}
