import { Anchor, AppShell, Burger, Group } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { Notifications } from "@mantine/notifications";
import "@mantine/notifications/styles.css";
import { Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router-dom";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { RecordCreateFormsContext } from "@/components/records/record-forms.ts";
import { NotificationBell } from "@/features/notifications/components/NotificationBell.tsx";
import { HeaderSearch } from "@/features/search/components/HeaderSearch.tsx";
import { recordCreateForms } from "../record-forms.tsx";
import classes from "./AppLayout.module.css";
import { Sidebar } from "./Sidebar.tsx";

const navigationId = "app-navigation";
const mainId = "main-content";

/**
 * The main layout (spec §2): a header, the sidebar with the modules, the organization and the
 * user menu, and the page. On a phone the sidebar opens from the header's menu button.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  // Mantine's `sm` breakpoint, where the sidebar stops being a drawer.
  const mobile = useMediaQuery("(max-width: 47.99em)") ?? false;
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const previousPathname = useRef(pathname);

  // After a navigation, focus moves to the new page, as a full page load would do.
  useEffect(() => {
    if (previousPathname.current === pathname) return;
    previousPathname.current = pathname;
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 272, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding={{ base: "sm", sm: "lg" }}
    >
      {/* The app's notifications (src/components/notify.ts), shown only past the sign-in: here
          rather than at the root, so the login page loads none of their code. Top right: a form's
          buttons sit at the foot of its dialog or page, where a notice at the bottom (Mantine's
          default) covered the Save button it was about. */}
      <Notifications position="top-right" />
      <a
        href={`#${mainId}`}
        className={classes.skipLink}
        onClick={(event) => {
          // Focus the page without putting the fragment into the router's URL.
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t("shell.skipToContent")}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm" wrap="nowrap">
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="sm"
            size="sm"
            aria-label={t(opened ? "shell.closeNavigation" : "shell.openNavigation")}
            aria-expanded={opened}
            aria-controls={navigationId}
          />
          <Anchor component={Link} to="/" fw={700} size="lg" c="var(--mantine-color-text)" underline="never">
            {t("app.title")}
          </Anchor>
          <Group ml="auto" gap="xs" wrap="nowrap">
            <HeaderSearch />
            <NotificationBell />
          </Group>
        </Group>
      </AppShell.Header>
      {/* Off screen on a phone until opened; `inert` keeps its links out of the Tab order meanwhile. */}
      <AppShell.Navbar id={navigationId} aria-label={t("nav.label")} inert={mobile && !opened}>
        <Sidebar onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main id={mainId} ref={mainRef} tabIndex={-1} className={classes.main}>
        {/* Keyed by the path: a page whose code is still loading shows 'Yükleniyor...' even though
            the router navigates in a transition, which would otherwise keep the previous page up. */}
        <Suspense key={pathname} fallback={<LoadingScreen />}>
          <RecordCreateFormsContext.Provider value={recordCreateForms}>
            <Outlet />
          </RecordCreateFormsContext.Provider>
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
