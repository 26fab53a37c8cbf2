import { Alert, Badge, Button, Drawer, Stack, Table, Text } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "../../../../components/LoadingScreen.tsx";
import { displayName } from "../../../auth/utils/display-name.ts";
import { formatDateTime } from "../../../profile/utils/format.ts";
import { useUserLoginAttempts } from "../api/queries.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import type { UsersScope } from "../api/scope.ts";

const failureReasons = ["invalid_credentials", "account_locked", "admin_locked", "account_disabled", "no_organization"] as const;
const sources = ["login", "auth_hook"] as const;

function isOneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return values.includes(value as T);
}

interface Props {
  scope: UsersScope;
  user: OrganizationUser;
  onClose(): void;
}

/** A member's 20 newest login attempts, newest first. */
export function LoginAttemptsDrawer({ scope, user, onClose }: Props) {
  const { t, i18n } = useTranslation();
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
        {attempts.isPending && <LoadingScreen compact />}
        {attempts.isError && (
          <Alert color="red" title={t("profile.attempts.loadError")}>
            <Button variant="default" size="xs" mt="sm" onClick={() => void attempts.refetch()}>
              {t("common.retry")}
            </Button>
          </Alert>
        )}
        {attempts.isSuccess && attempts.data.length === 0 && <Text>{t("profile.attempts.empty")}</Text>}
        {attempts.isSuccess && attempts.data.length > 0 && (
          <Table.ScrollContainer minWidth={480} type="native" tabIndex={0}>
            <Table striped aria-labelledby={titleId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t("profile.attempts.time")}</Table.Th>
                  <Table.Th scope="col">{t("profile.attempts.result")}</Table.Th>
                  <Table.Th scope="col">{t("profile.attempts.reason")}</Table.Th>
                  <Table.Th scope="col">{t("profile.attempts.source")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {attempts.data.map((attempt, index) => (
                  <Table.Tr key={`${attempt.created_at}-${index}`}>
                    <Table.Td>{formatDateTime(attempt.created_at, i18n.resolvedLanguage)}</Table.Td>
                    <Table.Td>
                      <Badge variant="dot" color={attempt.success ? "green" : "red"} tt="none">
                        {t(attempt.success ? "profile.attempts.succeeded" : "profile.attempts.failed")}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {attempt.failure_reason === null
                        ? "—"
                        : isOneOf(failureReasons, attempt.failure_reason)
                          ? t(`profile.attempts.reasons.${attempt.failure_reason}`)
                          : attempt.failure_reason}
                    </Table.Td>
                    <Table.Td>
                      {isOneOf(sources, attempt.source) ? t(`profile.attempts.sources.${attempt.source}`) : (attempt.source ?? "—")}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Drawer>
  );
}
