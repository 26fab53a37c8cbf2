import { Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";

interface Props {
  title: string;
  stage: string;
  saving: boolean;
  onCancel(): void;
  onConfirm(reason: string): void;
}

/** Asks why a deal was lost before it moves to a lost stage (the database requires the reason). */
export function LostReasonModal({ title, stage, saving, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const submit = () => {
    if (reason.trim() === "") {
      setMissing(true);
      return;
    }
    onConfirm(reason.trim());
  };
  return (
    <Modal opened onClose={onCancel} title={t("modules.deals.lost.title")} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack>
          <Text size="sm">{t("modules.deals.lost.description", { title, stage })}</Text>
          <Textarea
            label={t("modules.deals.lost.reason")}
            placeholder={t("modules.deals.lost.reasonPlaceholder")}
            required
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setMissing(false);
            }}
            error={missing ? t("modules.deals.lost.required") : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t("records.form.cancel")}
            </Button>
            <Button type="submit" color="red" loading={saving}>
              {t("modules.deals.lost.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
