import { Button, Grid, Group, NavLink, Stack, Text, Title } from "@mantine/core";
import { IconPlus, IconUserShield } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useRoles, useSaveRole } from "../roles/api/roles.ts";
import type { Role } from "../roles/api/schemas.ts";
import { DeleteRoleModal } from "../roles/components/DeleteRoleModal.tsx";
import { NewRoleModal } from "../roles/components/NewRoleModal.tsx";
import { RoleEditor } from "../roles/components/RoleEditor.tsx";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { LoadError } from "@/components/LoadError.tsx";

/** Admin page "roles": the organization's roles and what each may do in each module. */
export function RolesPage() {
  const { t } = useTranslation();
  const scope = useOrganizationScope();
  const roles = useRoles(scope);
  const save = useSaveRole(scope);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Role | null>(null);

  const list = roles.data?.roles ?? [];
  const selected = list.find((role) => role.key === selectedKey) ?? list[0];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1}>{t("adminRoles.title")}</Title>
          <Text c="dimmed">{t("adminRoles.description")}</Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)} disabled={!roles.isSuccess}>
          {t("adminRoles.newRole.open")}
        </Button>
      </Group>

      {roles.isPending && <LoadingScreen compact />}
      {roles.isError && (
        <LoadError title={t("adminRoles.loadError")} onRetry={() => void roles.refetch()} />
      )}
      {roles.isSuccess && selected && (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 3 }}>
            <nav aria-label={t("adminRoles.listLabel")}>
              {list.map((role) => (
                <NavLink
                  key={role.key}
                  component="button"
                  type="button"
                  label={role.name}
                  leftSection={role.is_system ? <IconUserShield size={16} aria-hidden /> : undefined}
                  active={role.key === selected.key}
                  aria-current={role.key === selected.key ? "true" : undefined}
                  onClick={() => setSelectedKey(role.key)}
                />
              ))}
            </nav>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <RoleEditor
              // Mounted per role (and per saved version), so the editor starts from its values.
              key={`${selected.key}:${selected.name}:${JSON.stringify(selected.permissions)}`}
              role={selected}
              save={save}
              onDelete={setDeleting}
            />
          </Grid.Col>
        </Grid>
      )}

      <NewRoleModal
        scope={scope}
        opened={creating}
        existingKeys={list.map((role) => role.key)}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setSelectedKey(key);
        }}
      />
      <DeleteRoleModal
        scope={scope}
        role={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          setDeleting(null);
          setSelectedKey(null);
        }}
      />
    </Stack>
  );
}
