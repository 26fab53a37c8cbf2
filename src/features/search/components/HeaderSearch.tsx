import { Button, Kbd } from "@mantine/core";
import { useHotkeys } from "@mantine/hooks";
import { IconSearch } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";

// The search window (Mantine's Spotlight, its styles and the results) loads when first opened:
// the first screen carries only this button and the shortcut.
const SearchSpotlight = lazy(() => import("./SearchSpotlight.tsx").then((module) => ({ default: module.SearchSpotlight })));

const onMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * The header's search: a button, and Ctrl+K (⌘K on a Mac) anywhere, opening one search over
 * every module the member may view, with quick-create commands. Only for a session bound to
 * an organization (records belong to one).
 */
export function HeaderSearch() {
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  if (!context.data?.organization) return null;
  return <SearchLauncher />;
}

function SearchLauncher() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const open = () => {
    setLoaded(true);
    setOpened(true);
  };
  // Also from a form field: the shortcut is the search's wherever the focus is.
  useHotkeys([["mod+K", open]], []);
  const keys = onMac ? "⌘ K" : "Ctrl K";

  return (
    <>
      <Button
        variant="default"
        size="sm"
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          <Kbd size="xs" visibleFrom="sm" aria-hidden>
            {keys}
          </Kbd>
        }
        onClick={open}
        aria-keyshortcuts={onMac ? "Meta+K" : "Control+K"}
        aria-haspopup="dialog"
        aria-label={t("search.buttonLabel")}
        title={t("search.shortcut", { keys })}
      >
        {t("search.button")}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <SearchSpotlight opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
