// The first screen's share of Mantine's styles; the rest comes with the pages after it.
import "@/lib/first-screen-styles.ts";
import "@mantine/notifications/styles.css";
import {
  createTheme,
  localStorageColorSchemeManager,
  MantineProvider,
  NavLink,
  Notification,
  type CSSVariablesResolver,
} from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ErrorBoundary } from "@/components/ErrorBoundary.tsx";
import { SessionProvider } from "@/session/SessionProvider.tsx";
import { RpcError } from "@/lib/rpc.ts";

// Mantine's default light shades put white on blue-6 and red-6 text on white, both below the
// WCAG AA contrast of 4.5:1; the darker shades pass it. The same holds for "dimmed" text
// (gray-6 on white, dark-2 on dark-7), so it gets a shade that reads.
const baseTheme = createTheme({ primaryShade: { light: 8, dark: 8 } });
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-error": "var(--mantine-color-red-9)", "--mantine-color-dimmed": "var(--mantine-color-gray-7)" },
  dark: { "--mantine-color-dimmed": "var(--mantine-color-dark-1)" },
});

// Light or dark, as the user chose it in the user menu; kept in this browser.
const colorSchemeManager = localStorageColorSchemeManager({ key: "crm.color-scheme" });

const queryClient = new QueryClient({
  defaultOptions: {
    // One retry covers a dropped connection; errors from the database will not heal by retrying.
    queries: { retry: (failureCount, error) => !(error instanceof RpcError) && failureCount < 1 },
  },
});

export function AppProviders({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  // A notification's close button gets a name in the interface's language (Mantine gives it
  // none), and its text under a title the readable "dimmed" shade (Mantine's gray-6 is too light).
  const theme = useMemo(
    () => ({
      ...baseTheme,
      components: {
        Notification: Notification.extend({
          defaultProps: { closeButtonProps: { "aria-label": t("shell.closeNotification") } },
          styles: { description: { color: "var(--mantine-color-dimmed)" } },
        }),
        // The active link filled (white on blue-8): the light variant's blue text on its
        // hover background falls below WCAG AA contrast.
        NavLink: NavLink.extend({ defaultProps: { variant: "filled" } }),
      },
    }),
    [t],
  );

  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="light"
    >
      {/* Top right: a form's buttons sit at the foot of its dialog or page, where a notice at
          the bottom (Mantine's default) covered the Save button it was about. */}
      <Notifications position="top-right" />
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <SessionProvider>{children}</SessionProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </MantineProvider>
  );
}
