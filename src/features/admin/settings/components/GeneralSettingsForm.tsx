import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import type { ParseKeys } from "i18next";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import type { OrganizationSettings } from "@/session/organization-settings-schema.ts";
import {
  currencies,
  generalSettingsSchema,
  settingsLocales,
  timeZones,
  type GeneralSettingsValues,
} from "../api/schemas.ts";
import { useUpdateSettings } from "../api/settings.ts";
import { changedSettings } from "../utils/pipeline.ts";
import { formFieldOf, settingsError } from "../utils/settings-errors.ts";
import { notifySettingsFailure } from "./notify.ts";

const fields = ["name", "default_currency", "default_vat_rate", "locale", "time_zone"] as const;

function withSaved(options: readonly string[], saved: string): string[] {
  return options.includes(saved) ? [...options] : [...options, saved];
}

export function valuesOf(settings: OrganizationSettings): GeneralSettingsValues {
  return {
    name: settings.name,
    default_currency: settings.default_currency,
    default_vat_rate: settings.default_vat_rate,
    locale: settings.locale === "en-US" ? "en-US" : "tr-TR",
    time_zone: settings.time_zone,
  };
}

/** Name, currency, KDV, locale and time zone; sends only what changed. */
export function GeneralSettingsForm({ scope, settings }: { scope: OrganizationScope; settings: OrganizationSettings }) {
  const { t } = useTranslation();
  const update = useUpdateSettings(scope);
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isDirty },
  } = useForm<GeneralSettingsValues>({ resolver: zodResolver(generalSettingsSchema), defaultValues: valuesOf(settings) });

  const onSubmit = handleSubmit((values) => {
    const saved = valuesOf(settings);
    const changes = changedSettings(saved, values);
    if (Object.keys(changes).length === 0) return;
    update.mutate(changes, {
      onSuccess: (next) => {
        notifySuccess(t("adminSettings.saved"));
        reset(valuesOf(next));
      },
      onError: (error) => {
        const failure = settingsError(error);
        const field = formFieldOf(failure, fields);
        if (field) setError(field, { type: "server", message: "adminSettings.errors.invalid_setting" }, { shouldFocus: true });
        else notifySettingsFailure(t, failure);
      },
    });
  });

  return (
    <Paper withBorder p="lg" radius="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput {...register("name")} label={t("adminSettings.general.name")} required autoComplete="organization"
            error={formMessage(t, errors.name?.message)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller control={control} name="default_currency" render={({ field }) => (
              <Select label={t("adminSettings.general.currency")} required allowDeselect={false}
                data={withSaved(currencies, settings.default_currency).map((code) => ({
                  value: code, label: t(`adminSettings.currencies.${code}` as ParseKeys, { defaultValue: code }),
                }))}
                value={field.value} onChange={(value) => field.onChange(value ?? field.value)} onBlur={field.onBlur} ref={field.ref}
                error={formMessage(t, errors.default_currency?.message)} />
            )} />
            <Controller control={control} name="default_vat_rate" render={({ field }) => (
              <NumberInput label={t("adminSettings.general.vatRate")} required min={0} max={100} decimalScale={2} suffix=" %"
                clampBehavior="none" value={field.value}
                onChange={(value) => field.onChange(typeof value === "number" ? value : Number.NaN)}
                onBlur={field.onBlur} ref={field.ref} name={field.name} error={formMessage(t, errors.default_vat_rate?.message)} />
            )} />
            <Controller control={control} name="locale" render={({ field }) => (
              <Select label={t("adminSettings.general.locale")} required allowDeselect={false}
                data={settingsLocales.map((locale) => ({ value: locale, label: t(`adminSettings.locales.${locale}`) }))}
                value={field.value} onChange={(value) => field.onChange(value ?? field.value)} onBlur={field.onBlur} ref={field.ref}
                error={formMessage(t, errors.locale?.message)} />
            )} />
            <Controller control={control} name="time_zone" render={({ field }) => (
              <Select label={t("adminSettings.general.timeZone")} required allowDeselect={false} searchable
                data={withSaved(timeZones, settings.time_zone)}
                value={field.value} onChange={(value) => field.onChange(value ?? field.value)} onBlur={field.onBlur} ref={field.ref}
                error={formMessage(t, errors.time_zone?.message)} />
            )} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" disabled={!isDirty || update.isPending} onClick={() => reset(valuesOf(settings))}>
              {t("adminSettings.reset")}
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!isDirty}>
              {t("adminSettings.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
