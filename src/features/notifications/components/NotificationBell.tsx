import { ActionIcon, Indicator, Popover } from "@mantine/core";
import { IconBell } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useUnreadCount } from "../api/notifications.ts";
import { useNotificationDelivery } from "../api/use-delivery.ts";

// The list and the preferences load when first opened; the header carries only the bell.
const NotificationPanel = lazy(() => import("./NotificationPanel.tsx").then((module) => ({ default: module.NotificationPanel })));
const NotificationPreferencesModal = lazy(() =>
  import("./NotificationPreferencesModal.tsx").then((module) => ({ default: module.NotificationPreferencesModal })),
);

/**
 * The header's bell: the unread count as a badge (named for screen readers, "Bildirimler,
 * 3 okunmamış"), and the notifications in a popover. Only for a session bound to an
 * organization (notifications belong to one).
 */
export function NotificationBell() {
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  if (!context.data?.organization) return null;
  return <Bell />;
}

function Bell() {
  const { t } = useTranslation();
  const delivery = useNotificationDelivery();
  const unread = useUnreadCount(delivery);
  const [opened, setOpened] = useState(false);
  const [preferences, setPreferences] = useState(false);
  const count = unread.data ?? 0;

  return (
    <>
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width="min(24rem, calc(100vw - 1rem))" shadow="md" trapFocus returnFocus>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={count > 0 ? t("notifications.bellUnread", { count }) : t("notifications.bell")}
            onClick={() => setOpened((current) => !current)}
          >
            <Indicator label={count > 99 ? "99+" : count} disabled={count === 0} size={16} color="red.9" offset={2}>
              <IconBell size={22} aria-hidden />
            </Indicator>
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} aria-label={t("notifications.title")}>
          <Suspense fallback={<LoadingScreen compact />}>
            <NotificationPanel
              delivery={delivery}
              onClose={() => setOpened(false)}
              onPreferences={() => {
                setOpened(false);
                setPreferences(true);
              }}
            />
          </Suspense>
        </Popover.Dropdown>
      </Popover>
      {preferences && (
        <Suspense fallback={null}>
          <NotificationPreferencesModal onClose={() => setPreferences(false)} />
        </Suspense>
      )}
    </>
  );
}
