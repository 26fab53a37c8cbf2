import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Checkbox, Group, NumberInput, Paper, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconMailForward } from "@tabler/icons-react";
import { useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { notifySuccess } from "@/components/notify.ts";
import { formMessage } from "@/i18n/form-message.ts";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { mailSecurities, useMailSettings, useSaveMailSettings, useSendTestMail, type MailSettings } from "../api/mail.ts";
import { defaultPorts, mailFailure, mailFormOf, mailFormSchema, mailInputOf, type MailFormValues } from "../utils/mail-settings.ts";

/**
 * The organization's mail server (issue 27): SMTP host, port, security, login, the sender and
 * reply-to. The password is sent once to the mail function, which seals it; the form only
 * says whether one is kept. A test e-mail tells at once whether the settings work, and why not.
 * Without settings of its own, the organization's mail goes through the installation's.
 */
export function MailSettingsCard({ scope }: { scope: OrganizationScope }) {
  const { t } = useTranslation();
  const titleId = useId();
  const settings = useMailSettings(scope);
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {t("adminSettings.mail.title")}
        </Title>
        <Text size="sm" c="dimmed">
          {t("adminSettings.mail.description")}
        </Text>
        {settings.isError ? (
          <LoadError title={t("adminSettings.mail.loadError")} onRetry={() => void settings.refetch()} />
        ) : settings.isSuccess ? (
          <MailSettingsForm key={settings.data?.updated_at ?? "none"} scope={scope} settings={settings.data} />
        ) : null}
      </Stack>
    </Paper>
  );
}

function MailSettingsForm({ scope, settings }: { scope: OrganizationScope; settings: MailSettings | null }) {
  const { t, i18n } = useTranslation();
  const save = useSaveMailSettings(scope);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isDirty },
  } = useForm<MailFormValues>({ resolver: zodResolver(mailFormSchema), defaultValues: mailFormOf(settings) });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    save.mutate(mailInputOf(values), {
      onSuccess: () => notifySuccess(t("adminSettings.mail.saved")),
      onError: (error) => {
        const failure = mailFailure(error);
        if (failure.field) setError(failure.field, { type: "server", message: failure.key }, { shouldFocus: true });
        else setFormError(t(failure.key as never));
      },
    });
  });
  const clear = () =>
    save.mutate("clear", {
      onSuccess: () => notifySuccess(t("adminSettings.mail.cleared")),
      onError: (error) => setFormError(t(mailFailure(error).key as never)),
    });
  const error = (name: keyof MailFormValues) => formMessage(t, errors[name]?.message);

  return (
    <Stack gap="md">
      <Text size="sm">{settings ? t("adminSettings.mail.ownServer") : t("adminSettings.mail.installationServer")}</Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label={t("adminSettings.mail.host")} required autoComplete="off" {...register("host")} error={error("host")} />
            <Controller
              control={control}
              name="security"
              render={({ field }) => (
                <Select
                  label={t("adminSettings.mail.security")}
                  data={mailSecurities.map((value) => ({ value, label: t(`adminSettings.mail.securities.${value}`) }))}
                  value={field.value}
                  allowDeselect={false}
                  onChange={(value) => {
                    if (!value) return;
                    field.onChange(value);
                    setValue("port", defaultPorts[value as keyof typeof defaultPorts], { shouldDirty: true });
                  }}
                />
              )}
            />
            <Controller
              control={control}
              name="port"
              render={({ field }) => (
                <NumberInput
                  label={t("adminSettings.mail.port")}
                  required
                  min={1}
                  max={65535}
                  allowDecimal={false}
                  thousandSeparator=""
                  value={field.value}
                  onChange={(value) => field.onChange(typeof value === "number" ? value : Number.NaN)}
                  error={error("port")}
                />
              )}
            />
            <TextInput label={t("adminSettings.mail.username")} autoComplete="off" {...register("username")} error={error("username")} />
            <PasswordInput
              label={t("adminSettings.mail.password")}
              description={settings?.has_password ? t("adminSettings.mail.passwordKept") : undefined}
              autoComplete="new-password"
              {...register("password")}
              error={error("password")}
            />
            {settings?.has_password && (
              <Checkbox mt="xl" label={t("adminSettings.mail.forgetPassword")} {...register("forget_password")} />
            )}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label={t("adminSettings.mail.senderName")} {...register("sender_name")} error={error("sender_name")} />
            <TextInput label={t("adminSettings.mail.senderAddress")} required type="email" {...register("sender_address")} error={error("sender_address")} />
            <TextInput label={t("adminSettings.mail.replyTo")} type="email" {...register("reply_to")} error={error("reply_to")} />
          </SimpleGrid>
          <Group justify="flex-end">
            {settings && (
              <Button variant="subtle" color="red" onClick={clear} loading={save.isPending && save.variables === "clear"}>
                {t("adminSettings.mail.clear")}
              </Button>
            )}
            <Button type="submit" disabled={!isDirty} loading={save.isPending && save.variables !== "clear"}>
              {t("adminSettings.mail.save")}
            </Button>
          </Group>
        </Stack>
      </form>
      <TestMail language={i18n.resolvedLanguage === "en" ? "en" : "tr"} />
    </Stack>
  );
}

/** "Send a test e-mail" to an address (the admin's own by default), with the result in words. */
function TestMail({ language }: { language: "tr" | "en" }) {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  const [to, setTo] = useState<string | null>(null);
  const address = to ?? context.data?.user.email ?? session.user.email ?? "";
  const send = useSendTestMail();
  const failure = send.isError ? t(mailFailure(send.error).key as never) : null;
  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t("adminSettings.mail.testAddress")}
          type="email"
          value={address}
          onChange={(event) => setTo(event.currentTarget.value)}
          style={{ flex: "1 1 16rem" }}
        />
        <Button
          variant="light"
          leftSection={<IconMailForward size={16} aria-hidden />}
          loading={send.isPending}
          disabled={address.trim() === ""}
          onClick={() => send.mutate({ to: address.trim(), language })}
        >
          {t("adminSettings.mail.sendTest")}
        </Button>
      </Group>
      <div role="status" aria-live="polite">
        {send.isSuccess && (
          <Text size="sm" c="green">
            {t("adminSettings.mail.testSent", { address: send.variables.to })}
          </Text>
        )}
        {failure && (
          <Text size="sm" c="red">
            {failure}
          </Text>
        )}
      </div>
    </Stack>
  );
}
