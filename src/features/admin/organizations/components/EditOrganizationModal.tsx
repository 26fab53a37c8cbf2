import { zodResolver } from "@hookform/resolvers/zod";
import { Badge, Button, Divider, Group, Modal, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useId } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import { useUpdateOrganization, type OrganizationChanges } from "../api/organizations.ts";
import {
  editOrganizationSchema,
  subscriptionPlans,
  subscriptionStatuses,
  type EditOrganizationValues,
  type ManagedOrganization,
} from "../api/schemas.ts";
import { notifyOrganizationFailure } from "../utils/notify.ts";
import { organizationError } from "../utils/organization-errors.ts";
import { changedFields } from "../utils/organizations.ts";
import { usePlanLabel, useStatusLabel } from "./labels.ts";

interface Props {
  userId: string;
  organization: ManagedOrganization | null;
  /** The organization the super admin's own session works in: it cannot be deactivated here. */
  currentOrganizationId: string | undefined;
  onClose: () => void;
  /** Asks to deactivate or reactivate (a confirmation follows). */
  onToggleActive: (organization: ManagedOrganization) => void;
}

/** Edits an organization's name, plan and subscription status; leads to (de)activation. */
export function EditOrganizationModal({ organization, onClose, ...rest }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={organization !== null} onClose={onClose} title={t("organizationManager.editForm.title")} size="lg"
      closeButtonProps={{ "aria-label": t("organizationManager.close") }}>
      {/* Mounted per organization, so the form starts from its values. */}
      {organization && <EditForm key={organization.id} organization={organization} onClose={onClose} {...rest} />}
    </Modal>
  );
}

function EditForm({
  userId,
  organization,
  currentOrganizationId,
  onClose,
  onToggleActive,
}: Omit<Props, "organization"> & { organization: ManagedOrganization }) {
  const { t } = useTranslation();
  const planLabel = usePlanLabel();
  const statusLabel = useStatusLabel();
  const update = useUpdateOrganization(userId);
  const activityId = useId();
  const initial: EditOrganizationValues = {
    name: organization.name,
    plan: organization.subscription_plan,
    status: (subscriptionStatuses as readonly string[]).includes(organization.subscription_status)
      ? (organization.subscription_status as EditOrganizationValues["status"])
      : "active",
  };
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useForm<EditOrganizationValues>({ resolver: zodResolver(editOrganizationSchema), defaultValues: initial });

  // A plan the form does not list stays selectable, under its own name.
  const plans: string[] = [...subscriptionPlans];
  if (!plans.includes(organization.subscription_plan)) plans.push(organization.subscription_plan);
  const isCurrent = organization.id === currentOrganizationId;

  const onSubmit = handleSubmit((values) => {
    const changed = changedFields(
      { name: organization.name, subscription_plan: organization.subscription_plan, subscription_status: organization.subscription_status },
      { name: values.name, subscription_plan: values.plan, subscription_status: values.status },
    ) satisfies OrganizationChanges;
    if (Object.keys(changed).length === 0) return onClose();
    update.mutate(
      { organizationId: organization.id, changes: changed },
      {
        onSuccess: (saved) => {
          notifySuccess(t("organizationManager.editForm.saved", { name: saved.name }));
          onClose();
        },
        onError: (error) => {
          const failure = organizationError(error);
          if (failure.field === "name" || failure.field === "plan") {
            setError(failure.field, { type: "server", message: failure.key }, { shouldFocus: true });
          } else {
            notifyOrganizationFailure(t, failure);
          }
        },
      },
    );
  });

  return (
    <Stack>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t("organizationManager.fields.slug")}: <Text span ff="monospace" c="var(--mantine-color-text)">{organization.slug}</Text>
          </Text>
          <TextInput
            label={t("organizationManager.fields.name")}
            required
            autoComplete="organization"
            error={formMessage(t, errors.name?.message)}
            {...register("name")}
          />
          <Controller
            control={control}
            name="plan"
            render={({ field }) => (
              <Select
                label={t("organizationManager.fields.plan")}
                required
                allowDeselect={false}
                data={plans.map((plan) => ({ value: plan, label: planLabel(plan) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? field.value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={formMessage(t, errors.plan?.message)}
              />
            )}
          />
          <Controller
            control={control}
            name="status"
            render={({ field }) => (
              <Select
                label={t("organizationManager.fields.status")}
                required
                allowDeselect={false}
                data={subscriptionStatuses.map((status) => ({ value: status, label: statusLabel(status) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? field.value)}
                onBlur={field.onBlur}
                ref={field.ref}
                error={formMessage(t, errors.status?.message)}
              />
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("organizationManager.cancel")}
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!isDirty}>
              {t("organizationManager.editForm.submit")}
            </Button>
          </Group>
        </Stack>
      </form>

      <Divider />
      <Stack gap="xs" component="section" aria-labelledby={activityId}>
        <Group justify="space-between">
          <Title order={3} size="h5" id={activityId}>
            {t("organizationManager.editForm.activityTitle")}
          </Title>
          <Badge color={organization.is_active ? "green" : "gray"} variant="dot" tt="none">
            {t(organization.is_active ? "organizationManager.active" : "organizationManager.inactive")}
          </Badge>
        </Group>
        <Text size="sm">
          {t(organization.is_active ? "organizationManager.editForm.activeDescription" : "organizationManager.editForm.inactiveDescription")}
        </Text>
        {organization.is_active && isCurrent && (
          <Text size="sm" c="dimmed">
            {t("organizationManager.editForm.currentOrganization")}
          </Text>
        )}
        <Group justify="flex-end">
          <Button
            // Shade 9 on white: the lighter variants fall below WCAG AA contrast.
            color={organization.is_active ? "red.9" : "green.9"}
            variant="outline"
            disabled={organization.is_active && isCurrent}
            onClick={() => onToggleActive(organization)}
          >
            {t(organization.is_active ? "organizationManager.deactivate" : "organizationManager.reactivate")}
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
