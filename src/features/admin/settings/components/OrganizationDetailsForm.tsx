import { zodResolver } from "@hookform/resolvers/zod";
import { ActionIcon, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useId } from "react";
import { useFieldArray, useForm, type FieldPath } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { formMessage } from "@/i18n/form-message.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import type { OrganizationSettings } from "@/session/organization-settings-schema.ts";
import { useUpdateSettings } from "../api/settings.ts";
import {
  detailsChanges,
  detailsFieldError,
  detailsValuesOf,
  MAX_BANK_ACCOUNTS,
  organizationDetailsSchema,
  type OrganizationDetailsValues,
} from "../utils/organization-details.ts";
import { settingsError } from "../utils/settings-errors.ts";
import { notifySettingsFailure } from "./notify.ts";

/**
 * The organization's own details, printed on every quote and contract: legal name, address,
 * province and district, tax office, VKN, MERSİS, phone, e-mail, website and IBANs. Checked
 * here with the database's rules first; sends only what changed.
 */
export function OrganizationDetailsForm({ scope, settings }: { scope: OrganizationScope; settings: OrganizationSettings }) {
  const { t } = useTranslation();
  const titleId = useId();
  const update = useUpdateSettings(scope);
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isDirty },
  } = useForm<OrganizationDetailsValues>({ resolver: zodResolver(organizationDetailsSchema), defaultValues: detailsValuesOf(settings) });
  const accounts = useFieldArray({ control, name: "bank_accounts" });

  const onSubmit = handleSubmit((values) => {
    const changes = detailsChanges(detailsValuesOf(settings), values);
    if (Object.keys(changes).length === 0) return;
    update.mutate(changes, {
      onSuccess: (next) => {
        notifySuccess(t("adminSettings.saved"));
        reset(detailsValuesOf(next));
      },
      onError: (error) => {
        const failure = settingsError(error);
        const target = detailsFieldError(failure);
        if (target) setError(target.path as FieldPath<OrganizationDetailsValues>, { type: "server", message: target.message }, { shouldFocus: true });
        else notifySettingsFailure(t, failure);
      },
    });
  });

  const text = (name: "legal_name" | "province" | "district" | "tax_office" | "tax_number" | "mersis_number" | "phone" | "email" | "website",
    extra: { autoComplete?: string; inputMode?: "numeric" | "tel" | "email" | "url"; description?: string } = {}) => (
    <TextInput {...register(name)} label={t(`adminSettings.details.${name}`)} error={formMessage(t, errors[name]?.message)}
      autoComplete={extra.autoComplete ?? "off"} inputMode={extra.inputMode} description={extra.description} />
  );

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={titleId}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Stack gap={4}>
            <Title order={2} size="h4" id={titleId}>
              {t("adminSettings.details.title")}
            </Title>
            <Text size="sm" c="dimmed">
              {t("adminSettings.details.description")}
            </Text>
          </Stack>
          {text("legal_name", { autoComplete: "organization", description: t("adminSettings.details.legal_nameHelp") })}
          <Textarea {...register("address")} label={t("adminSettings.details.address")} autosize minRows={2}
            autoComplete="street-address" error={formMessage(t, errors.address?.message)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text("district", { autoComplete: "address-level2" })}
            {text("province", { autoComplete: "address-level1" })}
            {text("tax_office")}
            {text("tax_number", { inputMode: "numeric", description: t("adminSettings.details.tax_numberHelp") })}
            {text("mersis_number", { inputMode: "numeric", description: t("adminSettings.details.mersis_numberHelp") })}
            {text("phone", { autoComplete: "tel", inputMode: "tel" })}
            {text("email", { autoComplete: "email", inputMode: "email" })}
            {text("website", { autoComplete: "url", inputMode: "url" })}
          </SimpleGrid>
          <Stack gap="xs" role="group" aria-label={t("adminSettings.details.bankAccounts")}>
            <Text size="sm" fw={500}>
              {t("adminSettings.details.bankAccounts")}
            </Text>
            {accounts.fields.length === 0 && (
              <Text size="sm" c="dimmed">
                {t("adminSettings.details.noBankAccounts")}
              </Text>
            )}
            {accounts.fields.map((field, index) => (
              <Group key={field.id} align="flex-start" wrap="nowrap">
                <TextInput {...register(`bank_accounts.${index}.bank_name`)} style={{ flex: 1 }}
                  label={t("adminSettings.details.bankNameLabel", { n: index + 1 })}
                  error={formMessage(t, errors.bank_accounts?.[index]?.bank_name?.message)} />
                <TextInput {...register(`bank_accounts.${index}.iban`)} style={{ flex: 2 }} required autoComplete="off"
                  label={t("adminSettings.details.ibanLabel", { n: index + 1 })} placeholder="TR00 0000 0000 0000 0000 0000 00"
                  error={formMessage(t, errors.bank_accounts?.[index]?.iban?.message)} />
                <ActionIcon variant="subtle" color="red" mt={28} onClick={() => accounts.remove(index)}
                  aria-label={t("adminSettings.details.removeBankAccount", { n: index + 1 })}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
            {accounts.fields.length < MAX_BANK_ACCOUNTS && (
              <Group>
                <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />}
                  onClick={() => accounts.append({ bank_name: "", iban: "" }, { shouldFocus: true })}>
                  {t("adminSettings.details.addBankAccount")}
                </Button>
              </Group>
            )}
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" disabled={!isDirty || update.isPending} onClick={() => reset(detailsValuesOf(settings))}>
              {t("adminSettings.reset")}
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!isDirty}>
              {t("adminSettings.details.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
