import { Button, Checkbox, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";

interface AcceptProps {
  number: string;
  /** The quote is linked to a deal: offer to mark it won. */
  hasDeal: boolean;
  saving: boolean;
  onCancel(): void;
  onConfirm(markDealWon: boolean): void;
}

/** Confirms a quote's acceptance; with a linked deal, offers to mark the deal won in the same step. */
export function AcceptQuoteModal({ number, hasDeal, saving, onCancel, onConfirm }: AcceptProps) {
  const { t } = useTranslation();
  const [markDealWon, setMarkDealWon] = useState(hasDeal);
  return (
    <Modal opened onClose={onCancel} title={t("modules.quotes.actions.acceptTitle")} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <Stack>
        <Text>{t("modules.quotes.actions.acceptConfirm", { number })}</Text>
        {hasDeal && (
          <Checkbox
            label={t("modules.quotes.actions.markDealWon")}
            checked={markDealWon}
            onChange={(event) => setMarkDealWon(event.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("modules.quotes.actions.cancel")}
          </Button>
          <Button loading={saving} onClick={() => onConfirm(hasDeal && markDealWon)}>
            {t("modules.quotes.actions.accept")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface RejectProps {
  saving: boolean;
  onCancel(): void;
  onConfirm(reason: string): void;
}

/** Asks why the customer rejected the quote (required) before marking it rejected. */
export function RejectQuoteModal({ saving, onCancel, onConfirm }: RejectProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const missing = reason.trim() === "";
  return (
    <Modal opened onClose={onCancel} title={t("modules.quotes.actions.rejectTitle")} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (!missing) onConfirm(reason.trim());
        }}
      >
        <Stack>
          <Textarea
            label={t("modules.quotes.actions.rejectReason")}
            required
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={tried && missing ? t("modules.quotes.actions.rejectReasonRequired") : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t("modules.quotes.actions.cancel")}
            </Button>
            <Button type="submit" color="red" loading={saving}>
              {t("modules.quotes.actions.reject")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
