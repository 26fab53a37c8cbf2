import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import { useCreateOrganization, useSlugValidation } from "../api/organizations.ts";
import {
  createOrganizationSchema,
  subscriptionPlans,
  type CreateOrganizationInput,
  type CreateOrganizationValues,
} from "../api/schemas.ts";
import { notifyOrganizationFailure } from "../utils/notify.ts";
import { organizationError } from "../utils/organization-errors.ts";
import { isSlugTaken, slugProblem } from "../utils/slug.ts";

interface Props {
  userId: string;
  opened: boolean;
  onClose: () => void;
  /** Slugs already in use (the list on the page): a taken one is told before submitting. */
  knownSlugs: readonly string[];
}

const emptyValues: CreateOrganizationValues = { slug: "", name: "", plan: "basic" };

/** Creates an organization; its tables are provisioned in the same call. */
export function CreateOrganizationModal({ userId, opened, onClose, knownSlugs }: Props) {
  const { t } = useTranslation();
  const create = useCreateOrganization(userId);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, dirtyFields },
  } = useForm<CreateOrganizationValues, unknown, CreateOrganizationInput>({
    resolver: zodResolver(createOrganizationSchema),
    defaultValues: emptyValues,
  });

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
    create.reset();
    onClose();
  };

  const onSubmit = handleSubmit((values) => {
    create.mutate(values, {
      onSuccess: (organization) => {
        notifySuccess(t("organizationManager.createForm.created", { name: organization.name }));
        close();
      },
      onError: (error) => {
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
            label={t("organizationManager.fields.slug")}
            description={slugDescription}
            required
            autoComplete="off"
            spellCheck={false}
            maxLength={60}
            error={slugError}
            inputWrapperOrder={["label", "input", "description", "error"]}
            {...register("slug")}
          />
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
                data={subscriptionPlans.map((plan) => ({ value: plan, label: t(`organizationManager.plans.${plan}`) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? "basic")}
                onBlur={field.onBlur}
                ref={field.ref}
                error={formMessage(t, errors.plan?.message)}
              />
            )}
          />
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
