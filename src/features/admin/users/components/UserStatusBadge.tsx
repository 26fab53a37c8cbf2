import { Badge, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "@/lib/format.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import { userStatus } from "../utils/user-status.ts";

const colors = { active: "green", inactive: "gray", locked: "red" } as const;

/** Active, inactive or locked; a lock tells until when and whether an administrator set it. */
export function UserStatusBadge({ user }: { user: OrganizationUser }) {
  const { t, i18n } = useTranslation();
  const status = userStatus(user);
  return (
    <Stack gap={2} align="flex-start">
      <Badge variant="dot" color={colors[status]} tt="none">
        {t(`adminUsers.status.${status}`)}
      </Badge>
      {status === "locked" && (
        <Text size="xs" c="dimmed">
          {user.locked_until &&
            t("adminUsers.status.lockedUntil", { date: formatDateTime(user.locked_until, i18n.resolvedLanguage) })}
          {user.locked_by_admin && (
            <>
              {user.locked_until && " · "}
              {t("adminUsers.status.byAdmin")}
            </>
          )}
        </Text>
      )}
    </Stack>
  );
}
