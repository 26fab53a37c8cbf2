import { Button, Checkbox, Group, Modal, Stack, Switch, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { useNotificationPreferences, useSaveNotificationPreferences } from "../api/notification-list.ts";
import { isNotificationKind } from "../utils/notification-links.ts";

/**
 * Which kinds of notification the member wants in this organization (every kind until they
 * choose), and whether by e-mail too: a digest of the unread ones, at most one an hour.
 */
export function NotificationPreferencesModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const preferences = useNotificationPreferences(true);
  const save = useSaveNotificationPreferences();
  const [chosen, setChosen] = useState<string[] | null>(null);
  const kinds = chosen ?? preferences.data?.kinds ?? [];
  const [digestChosen, setDigest] = useState<boolean | null>(null);
  const emailDigest = digestChosen ?? preferences.data?.email_digest ?? false;

  return (
    <Modal opened onClose={onClose} title={t("notifications.preferences.title")} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      {preferences.isPending && <LoadingScreen compact />}
      {preferences.isError && <LoadError title={t("notifications.preferences.loadError")} onRetry={() => void preferences.refetch()} />}
      {preferences.isSuccess && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ kinds, emailDigest }, {
              onSuccess: () => {
                notifySuccess(t("notifications.preferences.saved"));
                onClose();
              },
              onError: (error) => notifyFailure(t("notifications.preferences.failed"), t(recordFailureKey(error))),
            });
          }}
        >
          <Stack>
            <Checkbox.Group label={t("notifications.preferences.label")} description={t("notifications.preferences.description")} value={kinds} onChange={setChosen}>
              <Stack gap="xs" mt="xs">
                {preferences.data.available.map((kind) => (
                  <Checkbox key={kind} value={kind} label={isNotificationKind(kind) ? t(`notifications.preferences.kinds.${kind}`) : kind} />
                ))}
              </Stack>
            </Checkbox.Group>
            {kinds.length === 0 && (
              <Text size="sm" c="dimmed">
                {t("notifications.preferences.none")}
              </Text>
            )}
            <Switch
              label={t("notifications.preferences.emailDigest")}
              description={t("notifications.preferences.emailDigestHint")}
              checked={emailDigest}
              onChange={(event) => setDigest(event.currentTarget.checked)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t("records.form.cancel")}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t("records.form.save")}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
