import { ActionIcon, Badge, Button, Group, ScrollArea, Stack, Text, Title, UnstyledButton } from "@mantine/core";
import { IconChecks, IconSettings } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure } from "@/components/notify.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { useMarkRead, useNotificationList } from "../api/notification-list.ts";
import type { AppNotification } from "../api/notifications.ts";
import { isNotificationKind, notificationPath, timeAgo } from "../utils/notification-links.ts";
import type { Delivery } from "@/lib/realtime.ts";
import classes from "./NotificationPanel.module.css";

interface Props {
  delivery: Delivery;
  onClose(): void;
  onPreferences(): void;
}

/**
 * The notifications, newest first: each with its record's title (as it was), what
 * happened and who did it, how long ago, and "new" while unread. Opening one marks it read
 * and goes to its record; all can be marked read at once.
 */
export function NotificationPanel({ delivery, onClose, onPreferences }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const list = useNotificationList(true, delivery);
  const markRead = useMarkRead();
  const [now] = useState(() => Date.now());
  const notifications = list.data?.pages.flatMap((page) => page.notifications) ?? [];
  const unread = list.data?.pages[0]?.unread ?? 0;

  const open = (notification: AppNotification) => {
    if (notification.read_at === null) markRead.mutate([notification.id]);
    const path = notificationPath(notification);
    onClose();
    if (path) void navigate(path);
  };
  const markAll = () =>
    markRead.mutate("all", { onError: (error) => notifyFailure(t("notifications.markFailed"), t(recordFailureKey(error))) });
  const kindText = (notification: AppNotification) =>
    isNotificationKind(notification.kind) ? t(`notifications.kinds.${notification.kind}`) : t("notifications.kinds.other");

  return (
    <Stack gap={0}>
      <Group justify="space-between" gap="xs" p="sm" wrap="nowrap" className={classes.header}>
        <Title order={2} size="h4">
          {t("notifications.title")}
        </Title>
        <Group gap={4} wrap="nowrap">
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconChecks size={16} aria-hidden />}
            disabled={unread === 0}
            loading={markRead.isPending && markRead.variables === "all"}
            onClick={markAll}
          >
            {t("notifications.markAllRead")}
          </Button>
          <ActionIcon variant="subtle" color="gray" aria-label={t("notifications.preferences.open")} onClick={onPreferences}>
            <IconSettings size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Group>
      {list.isPending && <LoadingScreen compact />}
      {list.isError && (
        <Stack p="sm">
          <LoadError title={t("notifications.loadError")} onRetry={() => void list.refetch()} />
        </Stack>
      )}
      {list.isSuccess && notifications.length === 0 && (
        <Text c="dimmed" p="md" ta="center">
          {t("notifications.empty")}
        </Text>
      )}
      {notifications.length > 0 && (
        <ScrollArea.Autosize mah="min(26rem, 60vh)" type="auto">
          <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: "none" }} aria-label={t("notifications.listLabel")}>
            {notifications.map((notification) => {
              const isUnread = notification.read_at === null;
              return (
                <li key={notification.id}>
                  <UnstyledButton className={classes.item} data-unread={isUnread || undefined} onClick={() => open(notification)}>
                    <Stack gap={2}>
                      <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
                        <Text size="sm" fw={isUnread ? 700 : 500} style={{ overflowWrap: "anywhere" }}>
                          {notification.title ?? kindText(notification)}
                        </Text>
                        {isUnread && (
                          <Badge size="xs" color="blue.9" variant="filled" style={{ flexShrink: 0 }}>
                            {t("notifications.unread")}
                          </Badge>
                        )}
                      </Group>
                      <Text size="xs">
                        {kindText(notification)}
                        {notification.actor_name && ` · ${notification.actor_name}`}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {timeAgo(notification.created_at, now, i18n.resolvedLanguage)}
                      </Text>
                    </Stack>
                  </UnstyledButton>
                </li>
              );
            })}
          </Stack>
          {list.hasNextPage && (
            <Group justify="center" p="xs">
              <Button variant="subtle" size="compact-sm" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {t("notifications.older")}
              </Button>
            </Group>
          )}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
