import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { SearchField } from "@/components/SearchField.tsx";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useManagedOrganizations } from "../organizations/api/organizations.ts";
import type { ManagedOrganization } from "../organizations/api/schemas.ts";
import { ConfirmActivityModal } from "../organizations/components/ConfirmActivityModal.tsx";
import { CreateOrganizationModal } from "../organizations/components/CreateOrganizationModal.tsx";
import { EditOrganizationModal } from "../organizations/components/EditOrganizationModal.tsx";
import { OrganizationsTable } from "../organizations/components/OrganizationsTable.tsx";
import { filterOrganizations } from "../organizations/utils/organizations.ts";
import { LoadError } from "@/components/LoadError.tsx";

/**
 * The organization manager (super admins only; RequireSuperAdmin guards the route and the
 * database refuses anyone else): every organization, created, edited, deactivated here.
 */
export function OrganizationManagerPage() {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const userId = session.user.id;
  const context = useCurrentUserContext(userId);
  const organizations = useManagedOrganizations(userId);
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ManagedOrganization | null>(null);
  const tableTitleId = useId();

  const all = useMemo(() => organizations.data ?? [], [organizations.data]);
  const shown = useMemo(() => filterOrganizations(all, search), [all, search]);
  const knownSlugs = useMemo(() => all.map((organization) => organization.slug), [all]);
  // The row being edited, fresh from the list (it refetches after every write).
  const editing = all.find((organization) => organization.id === editingId) ?? null;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{t("admin.sections.organizationManager.title")}</Title>
          <Text c="dimmed">{t("admin.sections.organizationManager.description")}</Text>
        </Stack>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setCreating(true)}>
          {t("organizationManager.create")}
        </Button>
      </Group>

      <Card withBorder padding="lg" component="section" aria-labelledby={tableTitleId}>
        <Group justify="space-between" align="flex-end" mb="md">
          <Stack gap={2}>
            <Title order={2} size="h4" id={tableTitleId}>
              {t("organizationManager.tableLabel")}
            </Title>
            {organizations.isSuccess && (
              <Text size="sm" c="dimmed">
                {t("organizationManager.count", { count: all.length })}
              </Text>
            )}
          </Stack>
          <SearchField
            label={t("organizationManager.searchLabel")}
            placeholder={t("organizationManager.searchPlaceholder")}
            value={search}
            onChange={setSearch}
          />
        </Group>

        {organizations.isPending ? (
          <LoadingScreen compact />
        ) : organizations.isError ? (
          <LoadError title={t("organizationManager.loadError")} onRetry={() => void organizations.refetch()} />
        ) : shown.length === 0 ? (
          <Text>{t(all.length === 0 ? "organizationManager.empty" : "organizationManager.noMatch")}</Text>
        ) : (
          <OrganizationsTable organizations={shown} labelledBy={tableTitleId} onEdit={(organization) => setEditingId(organization.id)} />
        )}
      </Card>

      <CreateOrganizationModal userId={userId} opened={creating} onClose={() => setCreating(false)} knownSlugs={knownSlugs} />
      <EditOrganizationModal
        userId={userId}
        organization={editing}
        currentOrganizationId={context.data?.organization?.id}
        onClose={() => setEditingId(null)}
        onToggleActive={(organization) => {
          setEditingId(null);
          setConfirming(organization);
        }}
      />
      <ConfirmActivityModal userId={userId} organization={confirming} onClose={() => setConfirming(null)} />
    </Stack>
  );
}
