import { Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { LinkCard, LinkCardGrid } from "@/components/LinkCard.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { displayName } from "@/lib/display-name.ts";
import { usePermittedModules } from "@/modules/use-permitted-modules.ts";
import { LoadError } from "@/components/LoadError.tsx";
import { Dashboard } from "../components/Dashboard.tsx";

/** The signed-in home: a greeting, the dashboard of the session's organization and the way into each module. */
export function HomePage() {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  const permitted = usePermittedModules();

  if (context.isPending || permitted.pending) return <LoadingScreen />;
  if (context.isError) {
    return (
      <LoadError title={t("home.loadError")} onRetry={() => void context.refetch()} />
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("home.welcome", { name: displayName(context.data.user) })}</Title>
        <Text c="dimmed">{context.data.organization ? t("home.intro") : t("home.noOrganization")}</Text>
      </Stack>
      {context.data.organization && <Dashboard />}
      <Title order={2} size="h4">
        {t("home.modulesLabel")}
      </Title>
      <LinkCardGrid label={t("home.modulesLabel")}>
        {permitted.modules.map(({ key, path, icon }) => (
          <LinkCard
            key={key}
            to={path}
            icon={icon}
            title={t(`modules.${key}.title`)}
            description={t(`modules.${key}.description`)}
          />
        ))}
      </LinkCardGrid>
    </Stack>
  );
}
