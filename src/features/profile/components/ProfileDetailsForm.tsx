import { Alert, Button, Group, Stack, TextInput } from "@mantine/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import { formatPhone } from "@/lib/phone.ts";
import { normalizePhone } from "@/lib/turkish-identifiers.ts";
import { useUpdateMyProfile } from "../api/update-my-profile.ts";
import { profileNameError } from "../utils/profile-errors.ts";

interface Values {
  firstName: string;
  lastName: string;
  phone: string;
}

interface Props {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  /** E.164 as stored; shown grouped. */
  phone: string | null;
}

// The database's limit (update_my_profile): at most 100 characters each, after trimming.
const maxNameLength = 100;

/** Edits the signed-in user's own first and last name, and their phone (the sender's phone in their e-mails). */
export function ProfileDetailsForm({ userId, firstName, lastName, phone }: Props) {
  const { t } = useTranslation();
  const update = useUpdateMyProfile(userId);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<Values>({
    defaultValues: { firstName: firstName ?? "", lastName: lastName ?? "", phone: formatPhone(phone) ?? "" },
  });

  // Validation messages are catalogue keys, translated when shown (so they follow the language).
  const notTooLong = (value: string) => value.trim().length <= maxNameLength || "profile.name.errors.tooLong";

  const onSubmit = handleSubmit((values) => {
    update.mutate(
      { firstName: values.firstName.trim(), lastName: values.lastName.trim(), phone: values.phone.trim() },
      {
        onSuccess: (user) => {
          reset({ firstName: user.first_name ?? "", lastName: user.last_name ?? "", phone: formatPhone(user.phone) ?? "" });
          notifySuccess(t("profile.name.saved"));
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {update.isError && <Alert color="red">{t(profileNameError(update.error))}</Alert>}
        <TextInput
          label={t("profile.name.firstName")}
          autoComplete="given-name"
          required
          error={formMessage(t, errors.firstName?.message)}
          {...register("firstName", {
            validate: {
              required: (value) => value.trim() !== "" || "profile.name.errors.firstNameRequired",
              notTooLong,
            },
          })}
        />
        <TextInput
          label={t("profile.name.lastName")}
          autoComplete="family-name"
          error={formMessage(t, errors.lastName?.message)}
          {...register("lastName", { validate: { notTooLong } })}
        />
        <TextInput
          label={t("profile.name.phone")}
          description={t("profile.name.phoneHint")}
          type="tel"
          autoComplete="tel"
          error={formMessage(t, errors.phone?.message)}
          {...register("phone", {
            validate: (value) => value.trim() === "" || normalizePhone(value) !== null || "profile.name.errors.invalidPhone",
          })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} disabled={!isDirty}>
            {t("profile.name.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
