import { Drawer, Stack, Text } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { LoginAttemptsList } from "@/components/LoginAttemptsList.tsx";
import { displayName } from "@/lib/display-name.ts";
import { useUserLoginAttempts } from "../api/queries.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";

interface Props {
  scope: OrganizationScope;
  user: OrganizationUser;
  onClose(): void;
}

/** A member's 20 newest login attempts, newest first. */
export function LoginAttemptsDrawer({ scope, user, onClose }: Props) {
  const { t } = useTranslation();
  const attempts = useUserLoginAttempts(scope, user.id);
  const titleId = useId();
  const name = displayName(user);

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="xl"
      title={<span id={titleId}>{t("adminUsers.attempts.title")}</span>}
      closeButtonProps={{ "aria-label": t("adminUsers.form.close") }}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t("adminUsers.attempts.description", { name })}
        </Text>
        <LoginAttemptsList attempts={attempts} labelledBy={titleId} />
      </Stack>
    </Drawer>
  );
}
