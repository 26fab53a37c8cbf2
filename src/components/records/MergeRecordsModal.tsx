import { Button, Group, Modal, Radio, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useMergeRecords, useRecords, type RecordBase } from "./record-api.ts";
import { fieldErrorKey, recordFailureKey, serverFieldErrors } from "./record-form.ts";
import {
  differingFields,
  fieldLabelOf,
  mergeValues,
  plainValue,
  type MergeChoices,
  type MergeField,
  type RecordMergeConfig,
  type Side,
} from "./record-merge.ts";

interface Props<R extends RecordBase> {
  config: RecordMergeConfig<R>;
  /** The two records to merge; the first is offered as the one that stays. */
  ids: readonly [string, string];
  onClose(): void;
  /** After the merge (default: the dialog closes). */
  onMerged?(survivor: R): void;
}

/**
 * Merges two records of a module: the user picks the record that stays and, per differing
 * field, the value to keep; the module's merge RPC moves everything linked to the other one.
 */
export function MergeRecordsModal<R extends RecordBase>({ config, ids, onClose, onMerged }: Props<R>) {
  const { t } = useTranslation();
  const records = useRecords(config.module, config.read, ids, config.schema);
  const merge = useMergeRecords(config.module, config.merge, config.schema);
  const [survivorIndex, setSurvivorIndex] = useState<Side>(0);
  const [choices, setChoices] = useState<MergeChoices>({});

  const shown = (record: R, field: MergeField<R>) =>
    field.show ? field.show(record) : (plainValue(record[field.key]) ?? t("records.merge.empty"));

  let content;
  if (records.isPending) content = <LoadingScreen compact />;
  else if (records.isError) {
    content = <LoadError title={config.texts.loadError} onRetry={() => void records.refetch()} />;
  } else {
    const pair = records.data as unknown as [R, R];
    const differing = differingFields(config.fields, pair);
    const choiceOf = (field: MergeField<R>) => choices[field.key] ?? survivorIndex;
    const submit = () => {
      const survivor = pair[survivorIndex];
      const other = pair[survivorIndex === 0 ? 1 : 0];
      merge.mutate(
        { survivor: survivor.id, other: other.id, values: mergeValues(config.fields, pair, survivorIndex, choices) },
        {
          onSuccess: (merged) => {
            notifySuccess(config.texts.merged(config.titleOf(merged)));
            if (onMerged) onMerged(merged);
            else onClose();
          },
          onError: (error) => {
            const fields = serverFieldErrors(error);
            const first = fields ? Object.entries(fields)[0] : undefined;
            notifyFailure(
              config.texts.failed,
              first ? `${fieldLabelOf(config.fields, first[0])}: ${t(fieldErrorKey(first[1]))}` : t(recordFailureKey(error)),
            );
          },
        },
      );
    };
    content = (
      <Stack>
        <Text size="sm">{config.texts.description}</Text>
        <Radio.Group
          label={t("records.merge.survivor")}
          value={String(survivorIndex)}
          onChange={(value) => {
            setSurvivorIndex(value === "1" ? 1 : 0);
            setChoices({});
          }}
        >
          <Stack gap="xs" mt="xs">
            {pair.map((record, index) => (
              <Radio key={record.id} value={String(index)} label={config.titleOf(record)} />
            ))}
          </Stack>
        </Radio.Group>
        {differing.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("records.merge.noDifferences")}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={360} type="native">
            <Table aria-label={t("records.merge.fieldsLabel")}>
              <Table.Tbody>
                {differing.map((field) => (
                  <Table.Tr key={field.key}>
                    <Table.Th scope="row" w={140}>
                      {field.label}
                    </Table.Th>
                    <Table.Td>
                      {/* Named by a hidden label (the row's header shows it): an aria-label would not reach the radiogroup. */}
                      <Radio.Group
                        label={<VisuallyHidden>{field.label}</VisuallyHidden>}
                        value={String(choiceOf(field))}
                        onChange={(value) => setChoices((current) => ({ ...current, [field.key]: value === "1" ? 1 : 0 }))}
                      >
                        <Stack gap={4}>
                          {pair.map((record, index) => (
                            <Radio
                              key={record.id}
                              value={String(index)}
                              label={shown(record, field)}
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
            {t("records.merge.submit")}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Modal opened onClose={onClose} size="lg" title={config.texts.title} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      {content}
    </Modal>
  );
}
