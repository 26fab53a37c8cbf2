import { Alert, Badge, Button, Card, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { IconSwitchHorizontal } from "@tabler/icons-react";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { SearchField } from "@/components/SearchField.tsx";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useManagedOrganizations } from "../organizations/api/organizations.ts";
import type { ManagedOrganization } from "../organizations/api/schemas.ts";
import { useSwitchOrganization } from "../switcher/api/switch-organization.ts";
import { switchChoices } from "../switcher/utils/switcher.ts";
import { consoleErrorReason } from "../utils/console-errors.ts";
import { LoadError } from "@/components/LoadError.tsx";

/**
 * admin/super-admin-switcher (super admins only; RequireSuperAdmin guards the route and the
 * database refuses anyone else): moves this session to another active organization on the
 * server, recorded in the audit log of both organizations.
 */
export function SuperAdminSwitcherPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSignedInSession();
  const userId = session.user.id;
  const context = useCurrentUserContext(userId);
  const organizations = useManagedOrganizations(userId);
  const [search, setSearch] = useState("");
  const [confirming, setConfirming] = useState<ManagedOrganization | null>(null);
  const switchOrganization = useSwitchOrganization(userId, (organization) => {
    setConfirming(null);
    notifySuccess(t("superAdminSwitcher.switched", { name: organization.name }));
    void navigate("/", { replace: true });
  });
  const listTitleId = useId();
  const currentId = context.data?.organization?.id;

  const shown = useMemo(
    () => switchChoices(organizations.data ?? [], search, currentId),
    [organizations.data, search, currentId],
  );

  const confirm = () => {
    if (!confirming) return;
    switchOrganization.mutate(confirming.id, {
      onError: (error) =>
        notifyFailure(t("superAdminSwitcher.failed"), t(`superAdminSwitcher.errors.${consoleErrorReason(error)}`)),
    });
  };

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("admin.sections.superAdminSwitcher.title")}</Title>
        <Text c="dimmed">{t("admin.sections.superAdminSwitcher.description")}</Text>
      </Stack>
      <Alert color="blue" title={t("superAdminSwitcher.noticeTitle")}>
        {t("superAdminSwitcher.notice")}
      </Alert>

      <Card withBorder padding="lg" component="section" aria-labelledby={listTitleId}>
        <Group justify="space-between" align="flex-end" mb="md">
          <Title order={2} size="h4" id={listTitleId}>
            {t("superAdminSwitcher.listTitle")}
          </Title>
          <SearchField
            label={t("superAdminSwitcher.searchLabel")}
            placeholder={t("superAdminSwitcher.searchPlaceholder")}
            value={search}
            onChange={setSearch}
          />
        </Group>

        {organizations.isPending ? (
          <LoadingScreen compact />
        ) : organizations.isError ? (
          <LoadError
            title={t("superAdminSwitcher.loadError")}
            detail={t(`superAdminSwitcher.errors.${consoleErrorReason(organizations.error)}`)}
            onRetry={() => void organizations.refetch()}
          />
        ) : shown.length === 0 ? (
          <Text>{t(search.trim() === "" ? "superAdminSwitcher.empty" : "superAdminSwitcher.noMatch")}</Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} aria-labelledby={listTitleId} style={{ listStyle: "none" }}>
            {shown.map((organization) => {
              const current = organization.id === currentId;
              return (
                <Card component="li" key={organization.id} withBorder padding="sm" aria-current={current ? "true" : undefined}>
                  <Group justify="space-between" wrap="wrap" gap="sm">
                    <Stack gap={0}>
                      <Group gap="xs">
                        <Text fw={600}>{organization.name}</Text>
                        {current && (
                          <Badge variant="dot" color="green" tt="none">
                            {t("superAdminSwitcher.current")}
                          </Badge>
                        )}
                      </Group>
                      <Text size="sm" c="dimmed" ff="monospace">
                        {organization.slug}
                      </Text>
                    </Stack>
                    {!current && (
                      <Button
                        variant="light"
                        leftSection={<IconSwitchHorizontal size={16} aria-hidden />}
                        onClick={() => setConfirming(organization)}
                        aria-label={t("superAdminSwitcher.switchTo", { name: organization.name })}
                      >
                        {t("superAdminSwitcher.switch")}
                      </Button>
                    )}
                  </Group>
                </Card>
              );
            })}
          </Stack>
        )}
      </Card>

      <Modal
        opened={confirming !== null}
        onClose={() => !switchOrganization.isPending && setConfirming(null)}
        title={t("superAdminSwitcher.confirmTitle")}
        centered
      >
        <Stack>
          <Text>{t("superAdminSwitcher.confirmText", { name: confirming?.name ?? "" })}</Text>
          <Text size="sm" c="dimmed">
            {t("superAdminSwitcher.confirmAudit")}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)} disabled={switchOrganization.isPending}>
              {t("superAdminSwitcher.cancel")}
            </Button>
            <Button onClick={confirm} loading={switchOrganization.isPending}>
              {t("superAdminSwitcher.confirm")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
