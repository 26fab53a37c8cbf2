// The first screen's share of Mantine's styles; the rest comes with the pages after it.
import "@/lib/first-screen-styles.ts";
import {
  createTheme,
  localStorageColorSchemeManager,
  MantineProvider,
  type CSSVariablesResolver,
  type MantineThemeComponent,
} from "@mantine/core";
import { useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ErrorBoundary } from "@/components/ErrorBoundary.tsx";
import { SessionProvider } from "@/session/SessionProvider.tsx";

// Mantine's default light shades put white on blue-6 and red-6 text on white, both below the
// WCAG AA contrast of 4.5:1; the darker shades pass it. The same holds for "dimmed" text
// (gray-6 on white, dark-2 on dark-7), so it gets a shade that reads. Someone whose system
// asks for reduced motion gets dialogs and menus without their transitions (WCAG 2.3.3).
const baseTheme = createTheme({ primaryShade: { light: 8, dark: 8 }, respectReducedMotion: true });
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-error": "var(--mantine-color-red-9)", "--mantine-color-dimmed": "var(--mantine-color-gray-7)" },
  dark: { "--mantine-color-dimmed": "var(--mantine-color-dark-1)" },
});

// Light or dark, as the user chose it in the user menu; kept in this browser.
const colorSchemeManager = localStorageColorSchemeManager({ key: "crm.color-scheme" });

export function AppProviders({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  // A notification's close button gets a name in the interface's language (Mantine gives it
  // none), and its text under a title the readable "dimmed" shade (Mantine's gray-6 is too light).
  const theme = useMemo(
    () => ({
      ...baseTheme,
      components: {
        // Plain objects rather than Notification.extend and NavLink.extend: those would bring the
        // components' code into the first screen, which shows neither.
        Notification: {
          defaultProps: { closeButtonProps: { "aria-label": t("shell.closeNotification") } },
          styles: { description: { color: "var(--mantine-color-dimmed)" } },
        } satisfies MantineThemeComponent,
        // The active link filled (white on blue-8): the light variant's blue text on its
        // hover background falls below WCAG AA contrast.
        NavLink: { defaultProps: { variant: "filled" } } satisfies MantineThemeComponent,
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
      <ErrorBoundary>
        {/* TanStack Query's provider wraps the routes past the login (signed-in-routes.tsx, QueryLayout). */}
        <SessionProvider>{children}</SessionProvider>
      </ErrorBoundary>
    </MantineProvider>
  );
}
