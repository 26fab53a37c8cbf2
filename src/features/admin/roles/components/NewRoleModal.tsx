import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useSaveRole } from "../api/roles.ts";
import { newRoleSchema, type NewRoleValues } from "../api/schemas.ts";
import { roleError } from "../utils/role-errors.ts";
import { notifyRoleFailure } from "./notify.ts";

interface Props {
  scope: OrganizationScope;
  opened: boolean;
  existingKeys: readonly string[];
  onClose: () => void;
  onCreated: (key: string) => void;
}

export function NewRoleModal({ opened, onClose, ...rest }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t("adminRoles.newRole.title")} closeButtonProps={{ "aria-label": t("adminRoles.close") }}>
      {opened && <NewRoleForm onClose={onClose} {...rest} />}
    </Modal>
  );
}

/** A new role starts with no permissions; its matrix is filled in the editor. */
function NewRoleForm({ scope, existingKeys, onClose, onCreated }: Omit<Props, "opened">) {
  const { t } = useTranslation();
  const save = useSaveRole(scope);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<NewRoleValues>({ resolver: zodResolver(newRoleSchema(existingKeys)), defaultValues: { key: "", name: "" } });

  const onSubmit = handleSubmit((values) => {
    save.mutate(
      { key: values.key, name: values.name, permissions: {} },
      {
        onSuccess: (role) => {
          notifySuccess(t("adminRoles.newRole.created", { name: role.name }));
          onCreated(role.key);
        },
        onError: (error) => {
          const failure = roleError(error);
          if (failure.field) setError(failure.field, { type: "server", message: failure.key }, { shouldFocus: true });
          else notifyRoleFailure(t, failure);
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput
          {...register("key")}
          label={t("adminRoles.newRole.key")}
          description={t("adminRoles.newRole.keyHelp")}
          required
          autoComplete="off"
          error={formMessage(t, errors.key?.message)}
        />
        <TextInput
          {...register("name")}
          label={t("adminRoles.form.name")}
          required
          autoComplete="off"
          error={formMessage(t, errors.name?.message)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("adminRoles.cancel")}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t("adminRoles.newRole.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
