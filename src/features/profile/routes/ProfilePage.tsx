import { Card, DataList, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { roleName, useRoleNames } from "@/components/roles/role-names.ts";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { ChangePasswordForm } from "../components/ChangePasswordForm.tsx";
import { LoginAttemptsTable } from "../components/LoginAttemptsTable.tsx";
import { ProfileDetailsForm } from "../components/ProfileDetailsForm.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { LoadError } from "@/components/LoadError.tsx";

/** The signed-in user's own account: details, name, password and recent login attempts. */
export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  const ids = { account: useId(), name: useId(), password: useId(), attempts: useId() };
  const roleNames = useRoleNames();

  if (context.isPending) return <LoadingScreen />;
  if (context.isError) {
    return (
      <LoadError title={t("shell.contextLoadError")} onRetry={() => void context.refetch()} />
    );
  }

  const { user, organization } = context.data;
  // A super admin is one everywhere; others have the role of the organization they work in.
  const role =
    user.role === "super_admin" ? user.role : ((organization && user.organization_role?.[organization.id]) ?? user.role);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("profile.title")}</Title>
        <Text c="dimmed">{t("profile.description")}</Text>
      </Stack>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="lg">
          <Card component="section" withBorder padding="lg" aria-labelledby={ids.account}>
            <Title order={2} size="h4" mb="md" id={ids.account}>
              {t("profile.account.title")}
            </Title>
            <DataList orientation="vertical" gap="md">
              <DataList.Item>
                <DataList.ItemLabel>{t("profile.account.email")}</DataList.ItemLabel>
                <DataList.ItemValue style={{ overflowWrap: "anywhere" }}>{user.email}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t("profile.account.organization")}</DataList.ItemLabel>
                <DataList.ItemValue>{organization?.name ?? t("shell.noOrganization")}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t("profile.account.role")}</DataList.ItemLabel>
                <DataList.ItemValue>{role === "super_admin" ? t("profile.roles.super_admin") : roleName(t, roleNames.data, role)}</DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>{t("profile.account.lastLogin")}</DataList.ItemLabel>
                <DataList.ItemValue>
                  {user.last_login_at
                    ? formatDateTime(user.last_login_at, i18n.resolvedLanguage)
                    : t("profile.account.neverSignedIn")}
                </DataList.ItemValue>
              </DataList.Item>
            </DataList>
          </Card>
          <Card component="section" withBorder padding="lg" aria-labelledby={ids.name}>
            <Title order={2} size="h4" mb="md" id={ids.name}>
              {t("profile.name.title")}
            </Title>
            <ProfileDetailsForm userId={user.id} firstName={user.first_name} lastName={user.last_name} phone={user.phone ?? null} />
          </Card>
        </Stack>
        <Card component="section" withBorder padding="lg" aria-labelledby={ids.password} style={{ alignSelf: "start" }}>
          <Title order={2} size="h4" mb="md" id={ids.password}>
            {t("profile.password.title")}
          </Title>
          <ChangePasswordForm userId={user.id} email={user.email} />
        </Card>
      </SimpleGrid>

      <Card component="section" withBorder padding="lg" aria-labelledby={ids.attempts}>
        <Title order={2} size="h4" mb={4} id={ids.attempts}>
          {t("profile.attempts.title")}
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          {t("profile.attempts.description")}
        </Text>
        <LoginAttemptsTable userId={user.id} labelledBy={ids.attempts} />
      </Card>
    </Stack>
  );
}
