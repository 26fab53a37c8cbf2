import { Button, Group, Modal, Radio, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { fieldErrorKey, recordFailureKey, serverFieldErrors } from "@/components/records/record-form.ts";
import { customerFields, useCustomers, useMergeCustomers, type Customer, type CustomerField } from "../api/customers.ts";

interface Props {
  /** The two customers to merge. */
  ids: readonly [string, string];
  onClose(): void;
  onMerged?(survivor: Customer): void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Merges two customers: the user picks the record that stays and, per differing field, the
 * value to keep; merge_customers moves everything linked to the other one.
 */
export function MergeCustomersModal({ ids, onClose, onMerged }: Props) {
  const { t } = useTranslation();
  const customers = useCustomers(ids);
  const merge = useMergeCustomers();
  const [survivorIndex, setSurvivorIndex] = useState<0 | 1>(0);
  const [choices, setChoices] = useState<Partial<Record<CustomerField, 0 | 1>>>({});

  const shown = (customer: Customer, field: CustomerField) => {
    const value = customer[field];
    if (field === "kind") return t(`modules.customers.kinds.${customer.kind}`);
    if (field === "status") return t(`modules.customers.statuses.${customer.status}`);
    if (Array.isArray(value)) return value.length === 0 ? t("modules.customers.merge.empty") : value.join(", ");
    return value === null || value === "" ? t("modules.customers.merge.empty") : value;
  };

  let content;
  if (customers.isPending) content = <LoadingScreen compact />;
  else if (customers.isError) {
    content = <LoadError title={t("modules.customers.merge.loadError")} onRetry={() => void customers.refetch()} />;
  } else {
    const pair = customers.data as [Customer, Customer];
    const differing = customerFields.filter((field) => !same(pair[0][field], pair[1][field]));
    const choiceOf = (field: CustomerField) => choices[field] ?? survivorIndex;
    const submit = () => {
      const survivor = pair[survivorIndex];
      const other = pair[survivorIndex === 0 ? 1 : 0];
      const values = Object.fromEntries(
        differing.map((field) => {
          const chosen = pair[choiceOf(field)][field];
          return [field, Array.isArray(chosen) && chosen.length === 0 ? null : chosen];
        }),
      );
      merge.mutate(
        { survivor: survivor.id, other: other.id, values },
        {
          onSuccess: (merged) => {
            notifySuccess(t("modules.customers.merge.merged", { name: merged.name }));
            if (onMerged) onMerged(merged);
            else onClose();
          },
          onError: (error) => {
            const fields = serverFieldErrors(error);
            const first = fields ? Object.entries(fields)[0] : undefined;
            notifyFailure(
              t("modules.customers.merge.failed"),
              first
                ? `${t(`modules.customers.fields.${first[0] as CustomerField}`)}: ${t(fieldErrorKey(first[1]))}`
                : t(recordFailureKey(error)),
            );
          },
        },
      );
    };
    content = (
      <Stack>
        <Text size="sm">{t("modules.customers.merge.description")}</Text>
        <Radio.Group
          label={t("modules.customers.merge.survivor")}
          value={String(survivorIndex)}
          onChange={(value) => {
            setSurvivorIndex(value === "1" ? 1 : 0);
            setChoices({});
          }}
        >
          <Stack gap="xs" mt="xs">
            {pair.map((customer, index) => (
              <Radio key={customer.id} value={String(index)} label={customer.name} />
            ))}
          </Stack>
        </Radio.Group>
        {differing.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("modules.customers.merge.noDifferences")}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={360} type="native">
            <Table aria-label={t("modules.customers.merge.fieldsLabel")}>
              <Table.Tbody>
                {differing.map((field) => (
                  <Table.Tr key={field}>
                    <Table.Th scope="row" w={140}>
                      {t(`modules.customers.fields.${field}`)}
                    </Table.Th>
                    <Table.Td>
                      <Radio.Group
                        aria-label={t(`modules.customers.fields.${field}`)}
                        value={String(choiceOf(field))}
                        onChange={(value) => setChoices((current) => ({ ...current, [field]: value === "1" ? 1 : 0 }))}
                      >
                        <Stack gap={4}>
                          {pair.map((customer, index) => (
                            <Radio
                              key={customer.id}
                              value={String(index)}
                              label={shown(customer, field)}
                              styles={{ label: { overflowWrap: "anywhere" } }}
                            />
                          ))}
                        </Stack>
                      </Radio.Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("records.form.cancel")}
          </Button>
          <Button color="orange" loading={merge.isPending} onClick={submit}>
            {t("modules.customers.merge.submit")}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Modal opened onClose={onClose} size="lg" title={t("modules.customers.merge.title")}
      closeButtonProps={{ "aria-label": t("records.form.close") }}>
      {content}
    </Modal>
  );
}
