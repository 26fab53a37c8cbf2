import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Checkbox, Fieldset, Group, Modal, PasswordInput, Select, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { RpcError } from "@/lib/rpc.ts";
import { userAdminError } from "../../users/utils/user-errors.ts";
import { useCreateOrganization, useSlugValidation } from "../api/organizations.ts";
import {
  createOrganizationSchema,
  subscriptionPlans,
  type CreateOrganizationInput,
  type CreateOrganizationValues,
} from "../api/schemas.ts";
import { notifyOrganizationFailure } from "../utils/notify.ts";
import { organizationError } from "../utils/organization-errors.ts";
import { isSlugTaken, slugFromName, slugProblem } from "../utils/slug.ts";

interface Props {
  userId: string;
  opened: boolean;
  onClose: () => void;
  /** Slugs already in use (the list on the page): a taken one is told before submitting. */
  knownSlugs: readonly string[];
}

const emptyValues: CreateOrganizationValues = {
  slug: "",
  name: "",
  plan: "basic",
  addAdmin: false,
  adminEmail: "",
  adminPassword: "",
  adminFirstName: "",
  adminLastName: "",
};

const adminFields = { email: "adminEmail", password: "adminPassword", firstName: "adminFirstName", lastName: "adminLastName" } as const;

/**
 * Creates an organization; its tables are provisioned in the same call, and its first admin
 * too when asked (all or nothing). The slug follows the name (Turkish letters folded) until
 * the user edits it.
 */
export function CreateOrganizationModal({ userId, opened, onClose, knownSlugs }: Props) {
  const { t } = useTranslation();
  const create = useCreateOrganization(userId);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors, dirtyFields },
  } = useForm<CreateOrganizationValues, unknown, CreateOrganizationInput>({
    resolver: zodResolver(createOrganizationSchema),
    defaultValues: emptyValues,
  });

  const addAdmin = useWatch({ control, name: "addAdmin" });
  // The slug is made from the name until the user types in the slug field.
  const [slugEdited, setSlugEdited] = useState(false);
  const nameField = register("name", {
    onChange: (event: { target: { value: string } }) => {
      if (!slugEdited) setValue("slug", slugFromName(event.target.value), { shouldDirty: true, shouldValidate: false });
    },
  });
  const slugField = register("slug", { onChange: () => setSlugEdited(true) });

  // Live slug check: the rule at once, then the database's verdict once typing pauses.
  const slug = useWatch({ control, name: "slug" }).trim();
  const [settledSlug] = useDebouncedValue(slug, 300);
  const localProblem = slug === "" ? undefined : slugProblem(slug);
  const taken = localProblem === undefined && slug !== "" && isSlugTaken(slug, knownSlugs);
  const askDatabase = opened && settledSlug !== "" && settledSlug === slug && !localProblem && !taken;
  const validation = useSlugValidation(userId, settledSlug, askDatabase);

  let slugError = formMessage(t, errors.slug?.message);
  let slugDescription = t("organizationManager.fields.slugHint");
  if (!slugError && dirtyFields.slug) {
    if (localProblem) slugError = t(`organizationManager.slugRules.${localProblem}`);
    else if (taken) slugError = t("organizationManager.errors.slugTaken");
    else if (askDatabase && validation.data === false) slugError = t("organizationManager.errors.slugInvalid");
    else if (askDatabase && validation.data === true) slugDescription = t("organizationManager.fields.slugValid");
    else if (slug !== "" && (slug !== settledSlug || validation.isFetching)) {
      slugDescription = t("organizationManager.fields.slugChecking");
    }
  }

  const close = () => {
    reset(emptyValues);
    setSlugEdited(false);
    create.reset();
    onClose();
  };

  const onSubmit = handleSubmit((values) => {
    const firstAdmin = values.addAdmin
      ? { email: values.adminEmail, password: values.adminPassword, firstName: values.adminFirstName, lastName: values.adminLastName }
      : undefined;
    create.mutate({ ...values, firstAdmin }, {
      onSuccess: (organization) => {
        notifySuccess(
          firstAdmin
            ? t("organizationManager.createForm.createdWithAdmin", { name: organization.name, email: firstAdmin.email.trim().toLowerCase() })
            : t("organizationManager.createForm.created", { name: organization.name }),
        );
        close();
      },
      onError: (error) => {
        // The admin was refused: nothing was created; the reason goes under the admin's field.
        if (error instanceof RpcError && error.details.first_admin === true) {
          const refusal = userAdminError(error);
          const field = refusal.field && refusal.field !== "role" ? adminFields[refusal.field] : undefined;
          if (field) setError(field, { type: "server", message: refusal.key }, { shouldFocus: true });
          notifyFailure(t("organizationManager.createForm.adminFailed"), t(refusal.key));
          return;
        }
        const failure = organizationError(error);
        if (failure.field) setError(failure.field, { type: "server", message: failure.key }, { shouldFocus: true });
        else notifyOrganizationFailure(t, failure);
      },
    });
  });

  return (
    <Modal opened={opened} onClose={close} title={t("organizationManager.createForm.title")} size="lg"
      closeButtonProps={{ "aria-label": t("organizationManager.close") }}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t("organizationManager.createForm.description")}
          </Text>
          <TextInput
            label={t("organizationManager.fields.name")}
            required
            autoComplete="organization"
            error={formMessage(t, errors.name?.message)}
            {...nameField}
          />
          <TextInput
            label={t("organizationManager.fields.slug")}
            description={slugDescription}
            required
            autoComplete="off"
            spellCheck={false}
            maxLength={60}
            error={slugError}
            inputWrapperOrder={["label", "input", "description", "error"]}
            {...slugField}
          />
          <Controller
            control={control}
            name="plan"
            render={({ field }) => (
              <Select
                label={t("organizationManager.fields.plan")}
                required
                allowDeselect={false}
                data={subscriptionPlans.map((plan) => ({ value: plan, label: t(`organizationManager.plans.${plan}`) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? "basic")}
                onBlur={field.onBlur}
                ref={field.ref}
                error={formMessage(t, errors.plan?.message)}
              />
            )}
          />
          <Checkbox
            label={t("organizationManager.createForm.addAdmin")}
            description={t("organizationManager.createForm.addAdminHint")}
            {...register("addAdmin")}
          />
          {addAdmin && (
            <Fieldset legend={t("organizationManager.createForm.adminLegend")}>
              <Stack gap="sm">
                <TextInput
                  label={t("organizationManager.createForm.adminEmail")}
                  type="email"
                  required
                  autoComplete="off"
                  error={formMessage(t, errors.adminEmail?.message)}
                  {...register("adminEmail")}
                />
                <Group grow align="flex-start">
                  <TextInput
                    label={t("organizationManager.createForm.adminFirstName")}
                    autoComplete="off"
                    error={formMessage(t, errors.adminFirstName?.message)}
                    {...register("adminFirstName")}
                  />
                  <TextInput
                    label={t("organizationManager.createForm.adminLastName")}
                    autoComplete="off"
                    error={formMessage(t, errors.adminLastName?.message)}
                    {...register("adminLastName")}
                  />
                </Group>
                <PasswordInput
                  label={t("organizationManager.createForm.adminPassword")}
                  required
                  autoComplete="new-password"
                  error={formMessage(t, errors.adminPassword?.message)}
                  {...register("adminPassword")}
                />
              </Stack>
            </Fieldset>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t("organizationManager.cancel")}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t("organizationManager.createForm.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
