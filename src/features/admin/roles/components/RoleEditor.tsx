import { Alert, Badge, Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { moduleActions, modules } from "@/modules/registry.ts";
import type { useSaveRole } from "../api/roles.ts";
import { roleNameSchema, type Role } from "../api/schemas.ts";
import {
  isFixedRole,
  isRemovableRole,
  matrixFromPermissions,
  permissionsFromMatrix,
  sameMatrix,
  uniformMatrix,
  withCell,
} from "../utils/matrix.ts";
import { roleError } from "../utils/role-errors.ts";
import { notifyRoleFailure } from "./notify.ts";
import { PermissionMatrix } from "./PermissionMatrix.tsx";

/** The matrix's rows: every module of the registry. */
const moduleKeys = modules.map(({ key }) => key);

interface Props {
  role: Role;
  /** Lives in the page, so its callbacks still run when the saved role remounts this editor. */
  save: ReturnType<typeof useSaveRole>;
  onDelete: (role: Role) => void;
}

/** One role: its name and permission matrix (the admin role only shown). Mount it per role. */
export function RoleEditor({ role, save, onDelete }: Props) {
  const { t } = useTranslation();
  const fixed = isFixedRole(role.key);
  const saved = fixed
    ? uniformMatrix(moduleKeys, moduleActions, "all")
    : matrixFromPermissions(moduleKeys, moduleActions, role.permissions);
  const [matrix, setMatrix] = useState(saved);
  const [name, setName] = useState(role.name);
  const [nameError, setNameError] = useState<string | undefined>();
  const dirty = name.trim() !== role.name || !sameMatrix(matrix, saved);

  const onSave = () => {
    if (!roleNameSchema.safeParse(name).success) {
      setNameError(t("adminRoles.errors.invalid_role_name"));
      return;
    }
    setNameError(undefined);
    save.mutate(
      { key: role.key, name: name.trim(), permissions: permissionsFromMatrix(matrix) },
      {
        onSuccess: (result) => notifySuccess(t("adminRoles.saved", { name: result.name })),
        onError: (error) => {
          const failure = roleError(error);
          if (failure.field === "name") setNameError(t(failure.key));
          else notifyRoleFailure(t, failure);
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={2} size="h3">
              {role.name}
            </Title>
            {role.is_system && (
              <Badge variant="light" color="gray" tt="none">
                {t("adminRoles.systemRole")}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t("adminRoles.keyLabel")}: <Text span ff="monospace">{role.key}</Text> ·{" "}
            {t("adminRoles.memberCount", { count: role.member_count ?? 0 })}
          </Text>
        </Stack>
        {isRemovableRole(role.key) && (
          <Button color="red.9" variant="outline" onClick={() => onDelete(role)}>
            {t("adminRoles.delete")}
          </Button>
        )}
      </Group>

      {fixed && <Alert color="blue">{t("adminRoles.adminReadOnly")}</Alert>}

      <TextInput
        label={t("adminRoles.form.name")}
        value={name}
        readOnly={fixed}
        required={!fixed}
        maxLength={100}
        error={nameError}
        onChange={(event) => setName(event.currentTarget.value)}
      />

      <PermissionMatrix
        label={t("adminRoles.matrix.label", { name: role.name })}
        matrix={matrix}
        readOnly={fixed}
        onChange={(module, action, cell) => setMatrix((current) => withCell(current, module, action, cell))}
      />
      <Text size="xs" c="dimmed">
        {t("adminRoles.matrix.help")}
      </Text>

      {!fixed && (
        <Group justify="flex-end">
          <Button
            variant="default"
            disabled={!dirty || save.isPending}
            onClick={() => {
              setMatrix(saved);
              setName(role.name);
              setNameError(undefined);
            }}
          >
            {t("adminRoles.reset")}
          </Button>
          <Button onClick={onSave} loading={save.isPending} disabled={!dirty}>
            {t("adminRoles.save")}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
