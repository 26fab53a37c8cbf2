import { Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";

interface Props {
  title: string;
  saving: boolean;
  onCancel(): void;
  onConfirm(reason: string): void;
}

/** Asks why a contract is terminated (terminate_contract requires the reason) before it is. */
export function TerminateContractModal({ title, saving, onCancel, onConfirm }: Props) {
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
    <Modal opened onClose={onCancel} title={t("modules.contracts.detail.terminateTitle")} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack>
          <Text size="sm">{t("modules.contracts.detail.terminateDescription", { title })}</Text>
          <Textarea
            label={t("modules.contracts.detail.terminateReason")}
            required
            autosize
            minRows={2}
            maxLength={1000}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setMissing(false);
            }}
            error={missing ? t("modules.contracts.detail.terminateRequired") : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t("modules.contracts.detail.cancel")}
            </Button>
            <Button type="submit" color="red" loading={saving}>
              {t("modules.contracts.detail.terminateSubmit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
