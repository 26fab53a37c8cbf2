import { Alert, Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "@/lib/format.ts";
import type { Contract, RenewalTerms } from "../api/contracts.ts";
import { increasedValue, nextTermDefaults, normalDecimal, normalPercent } from "../utils/renewal.ts";

interface Props {
  contract: Contract;
  saving: boolean;
  onCancel: () => void;
  onConfirm: (terms: RenewalTerms) => void;
}

/**
 * The renewal dialog: the next term's start and end (by default the day after the end, for
 * the renewal term), its value (by default the current one) with an optional percentage
 * increase (e.g. TÜFE) whose result is shown exactly, and what the new term will be: a
 * draft until it is signed, or active when the contract renews itself. The notes, parties
 * and renewal settings go with it; this term becomes "Renewed", linked to the next one.
 */
export function RenewContractModal({ contract, saving, onCancel, onConfirm }: Props) {
  const { t, i18n } = useTranslation();
  const defaults = nextTermDefaults(contract.end_date ?? "", contract.renewal_term_months);
  const [start, setStart] = useState(defaults.start);
  const [end, setEnd] = useState(defaults.end);
  const [value, setValue] = useState(contract.value);
  const [percent, setPercent] = useState("");
  const english = i18n.resolvedLanguage === "en";
  const numberFormat = { thousandSeparator: english ? "," : ".", decimalSeparator: english ? "." : ",", inputMode: "decimal" as const };

  const valueOk = normalDecimal(value) !== null;
  const percentOk = percent.trim() === "" || normalPercent(percent) !== null;
  const newValue = valueOk && percent.trim() !== "" && percentOk ? increasedValue(value, percent) : valueOk ? normalDecimal(value) : null;
  const startError = start !== "" && contract.end_date !== null && start <= contract.end_date ? t("modules.contracts.renewal.startAfterEnd") : undefined;
  const endError = start !== "" && end !== "" && end < start ? t("modules.contracts.form.errors.end_before_start") : undefined;
  const ready = start !== "" && end !== "" && !startError && !endError && valueOk && percentOk && newValue !== null;

  return (
    <Modal opened onClose={onCancel} title={t("modules.contracts.detail.renewTitle")} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          onConfirm({
            startDate: start,
            endDate: end,
            value: normalDecimal(value),
            increasePercent: percent.trim() === "" ? null : normalPercent(percent),
          });
        }}
      >
        <Stack>
          <Text size="sm">{t("modules.contracts.renewal.intro", { title: contract.title })}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput type="date" label={t("modules.contracts.renewal.start")} value={start} onChange={(event) => setStart(event.currentTarget.value)} error={startError} required />
            <TextInput type="date" label={t("modules.contracts.renewal.end")} value={end} onChange={(event) => setEnd(event.currentTarget.value)} error={endError} required />
            <NumberInput
              {...numberFormat}
              label={t("modules.contracts.renewal.value", { currency: contract.currency })}
              min={0}
              decimalScale={2}
              allowNegative={false}
              value={value}
              onChange={(next) => setValue(next === "" ? "" : String(next))}
              error={valueOk ? undefined : t("modules.contracts.form.errors.valueInvalid")}
            />
            <NumberInput
              {...numberFormat}
              label={t("modules.contracts.renewal.increase")}
              description={t("modules.contracts.renewal.increaseHint")}
              min={0}
              max={1000}
              decimalScale={4}
              allowNegative={false}
              value={percent}
              onChange={(next) => setPercent(next === "" ? "" : String(next))}
              error={percentOk ? undefined : t("modules.contracts.renewal.increaseInvalid")}
            />
          </SimpleGrid>
          <Text size="sm" fw={500} aria-live="polite">
            {newValue !== null ? t("modules.contracts.renewal.newValue", { value: formatMoney(newValue as unknown as number, contract.currency, i18n.resolvedLanguage) }) : null}
          </Text>
          <Alert variant="light" color={contract.auto_renew ? "teal" : "blue"}>
            {contract.auto_renew ? t("modules.contracts.renewal.startsActive") : t("modules.contracts.renewal.startsDraft")}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t("modules.contracts.detail.cancel")}
            </Button>
            <Button type="submit" loading={saving} disabled={!ready} data-autofocus>
              {t("modules.contracts.detail.renew")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
