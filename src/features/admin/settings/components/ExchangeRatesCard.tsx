import { ActionIcon, Button, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import type { OrganizationSettings } from "@/session/organization-settings.ts";
import { useUpdateSettings } from "../api/settings.ts";
import { ratesProblem, ratesOf, rowsOf, type RateRow } from "../utils/exchange-rates.ts";
import { settingsError } from "../utils/settings-errors.ts";
import { notifySettingsFailure } from "./notify.ts";

/**
 * The exchange rates forecasts and the dashboard convert with: one unit of a currency in
 * the organization's default currency. A currency without a rate is shown apart, never
 * summed as if it were the default one.
 */
export function ExchangeRatesCard({ scope, settings }: { scope: OrganizationScope; settings: OrganizationSettings }) {
  const { t } = useTranslation();
  const titleId = useId();
  const update = useUpdateSettings(scope);
  const [rows, setRows] = useState<RateRow[]>(() => rowsOf(settings.exchange_rates));
  const [problem, setProblem] = useState<{ index: number; key: string } | null>(null);
  const change = (index: number, row: Partial<RateRow>) => {
    setProblem(null);
    setRows((current) => current.map((candidate, at) => (at === index ? { ...candidate, ...row } : candidate)));
  };
  const save = () => {
    const found = ratesProblem(rows, settings.default_currency);
    if (found) {
      setProblem(found);
      return;
    }
    update.mutate(
      { exchange_rates: ratesOf(rows) },
      {
        onSuccess: (next) => {
          setRows(rowsOf(next.exchange_rates));
          notifySuccess(t("adminSettings.saved"));
        },
        onError: (error) => notifySettingsFailure(t, settingsError(error)),
      },
    );
  };

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={titleId}>
      <Stack>
        <Stack gap={4}>
          <Title order={2} size="h4" id={titleId}>
            {t("adminSettings.rates.title")}
          </Title>
          <Text size="sm" c="dimmed">
            {t("adminSettings.rates.description", { currency: settings.default_currency })}
          </Text>
        </Stack>
        {rows.length > 0 && (
          <Table aria-label={t("adminSettings.rates.title")} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t("adminSettings.rates.currency")}</Table.Th>
                <Table.Th scope="col">{t("adminSettings.rates.rate", { currency: settings.default_currency })}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t("adminSettings.pipeline.actions")}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, index) => (
                <Table.Tr key={index}>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      w={90}
                      maxLength={3}
                      aria-label={t("adminSettings.rates.currencyLabel", { n: index + 1 })}
                      value={row.currency}
                      onChange={(event) => change(index, { currency: event.currentTarget.value.toUpperCase() })}
                      error={problem?.index === index && problem.key !== "rateInvalid" ? t(`adminSettings.rates.errors.${problem.key}` as "adminSettings.rates.errors.currencyInvalid") : undefined}
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumberInput
                      size="xs"
                      w={140}
                      min={0}
                      decimalScale={6}
                      aria-label={t("adminSettings.rates.rateLabel", { n: index + 1 })}
                      value={row.rate}
                      onChange={(value) => change(index, { rate: typeof value === "number" ? value : "" })}
                      error={problem?.index === index && problem.key === "rateInvalid" ? t("adminSettings.rates.errors.rateInvalid") : undefined}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red.9"
                      aria-label={t("adminSettings.rates.remove", { currency: row.currency || index + 1 })}
                      onClick={() => setRows((current) => current.filter((_, at) => at !== index))}
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group justify="space-between">
          <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setRows((current) => [...current, { currency: "", rate: "" }])}>
            {t("adminSettings.rates.add")}
          </Button>
          <Button loading={update.isPending} onClick={save}>
            {t("adminSettings.rates.save")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
