import { Badge, Table, Text } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "@/lib/format.ts";
import type { LoginAttempt } from "@/lib/login-attempts.ts";
import { LoadingScreen } from "./LoadingScreen.tsx";
import { LoadError } from "./LoadError.tsx";


const failureReasons = [
  "invalid_credentials",
  "account_locked",
  "admin_locked",
  "account_disabled",
  "no_organization",
  "throttled",
  "password_too_long",
  "sign_in_method_refused",
  "reset_link_invalid",
] as const;
const sources = ["login", "auth_hook", "auth", "password_change", "repair", "session", "password_reset"] as const;

function isOneOf<T extends string>(values: readonly T[], value: string | null | undefined): value is T {
  return values.includes(value as T);
}

/**
 * Login attempts, newest first, as the profile page and the admin's user drawer show them:
 * loading, error with retry, empty, or a table of time, result, reason and source.
 */
export function LoginAttemptsList({ attempts, labelledBy }: { attempts: UseQueryResult<LoginAttempt[]>; labelledBy: string }) {
  const { t, i18n } = useTranslation();

  if (attempts.isPending) return <LoadingScreen compact />;
  if (attempts.isError) {
    return (
      <LoadError title={t("profile.attempts.loadError")} onRetry={() => void attempts.refetch()} />
    );
  }
  if (attempts.data.length === 0) return <Text>{t("profile.attempts.empty")}</Text>;

  return (
    // Native scrolling, focusable, so that a keyboard can scroll it on a narrow screen.
    <Table.ScrollContainer minWidth={480} type="native" tabIndex={0}>
      <Table striped aria-labelledby={labelledBy}>
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
  );
}
