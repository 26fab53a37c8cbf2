import { zodResolver } from "@hookform/resolvers/zod";
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from "@tabler/icons-react";
import { useId, useState } from "react";
import { Controller, useFieldArray, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { stageOutcomes, type OrganizationSettings } from "@/session/organization-settings-schema.ts";
import { operationsSettingsSchema, type OperationsSettingsValues } from "../api/schemas.ts";
import { useUpdateSettings } from "../api/settings.ts";
import { changedSettings, MAX_STAGES, newStageKey } from "../utils/pipeline.ts";
import { formFieldOf, settingsError } from "../utils/settings-errors.ts";
import { notifySettingsFailure } from "./notify.ts";
import { StageMovesModal, type StageInUse } from "./StageMovesModal.tsx";
import { RpcError } from "@/lib/rpc.ts";

const fields = ["deal_stages", "task_types", "quote_number_pattern", "quote_validity_days", "contract_number_pattern"] as const;

export function operationsValuesOf(settings: OrganizationSettings): OperationsSettingsValues {
  return {
    deal_stages: settings.deal_stages.map(({ key, name, probability, outcome }) => ({ key, name, probability, outcome })),
    task_types: settings.task_types,
    quote_number_pattern: settings.quote_number_pattern,
    quote_validity_days: settings.quote_validity_days,
    contract_number_pattern: settings.contract_number_pattern,
  };
}

/** Deal pipeline stages, task types, the quote and contract numbering; sends only what changed. */
export function OperationsSettingsForm({ scope, settings }: { scope: OrganizationScope; settings: OrganizationSettings }) {
  const { t } = useTranslation();
  const update = useUpdateSettings(scope);
  const stagesTitleId = useId();
  const quotesTitleId = useId();
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    getValues,
    formState: { errors, isDirty },
  } = useForm<OperationsSettingsValues>({
    resolver: zodResolver(operationsSettingsSchema),
    defaultValues: operationsValuesOf(settings),
  });
  const stages = useFieldArray({ control, name: "deal_stages" });
  // A problem of the whole pipeline (no won stage...) rather than of one stage's field.
  const pipelineMessage = formMessage(t, errors.deal_stages?.root?.message ?? errors.deal_stages?.message);

  // Removed stages that still hold deals: the server asks where their deals go.
  const [stagesInUse, setStagesInUse] = useState<{ changes: Record<string, unknown>; stages: StageInUse[] } | null>(null);

  const save = (changes: Record<string, unknown>) =>
    update.mutate(changes, {
      onSuccess: (next) => {
        setStagesInUse(null);
        notifySuccess(t("adminSettings.saved"));
        reset(operationsValuesOf(next));
      },
      onError: (error) => {
        if (error instanceof RpcError && error.code === "stage_in_use" && Array.isArray(error.details.stages) && !("deal_stage_moves" in changes)) {
          setStagesInUse({ changes, stages: error.details.stages as StageInUse[] });
          return;
        }
        setStagesInUse(null);
        const failure = settingsError(error);
        const field = formFieldOf(failure, fields);
        if (field === "deal_stages") setError("deal_stages", { type: "server", message: "adminSettings.errors.invalid_setting" });
        else if (field) setError(field, { type: "server", message: "adminSettings.errors.invalid_setting" }, { shouldFocus: true });
        else notifySettingsFailure(t, failure);
      },
    });
  const onSubmit = handleSubmit((values) => {
    const changes = changedSettings(operationsValuesOf(settings), values);
    if (Object.keys(changes).length === 0) return;
    save(changes);
  });

  const outcomeOptions = stageOutcomes.map((outcome) => ({ value: outcome, label: t(`adminSettings.outcomes.${outcome}`) }));

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="lg">
        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={stagesTitleId}>
          <Stack>
            <Stack gap={4}>
              <Title order={2} size="h4" id={stagesTitleId}>
                {t("adminSettings.pipeline.title")}
              </Title>
              <Text size="sm" c="dimmed">
                {t("adminSettings.pipeline.description")}
              </Text>
            </Stack>
            {pipelineMessage && (
              <Alert color="red" role="alert">
                {pipelineMessage}
              </Alert>
            )}
            <Table.ScrollContainer minWidth={720} type="native" tabIndex={0}>
              <Table aria-label={t("adminSettings.pipeline.tableLabel")} verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">#</Table.Th>
                    <Table.Th scope="col">{t("adminSettings.pipeline.key")}</Table.Th>
                    <Table.Th scope="col">{t("adminSettings.pipeline.name")}</Table.Th>
                    <Table.Th scope="col">{t("adminSettings.pipeline.probability")}</Table.Th>
                    <Table.Th scope="col">{t("adminSettings.pipeline.outcome")}</Table.Th>
                    <Table.Th scope="col">{t("adminSettings.pipeline.actions")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {stages.fields.map((stage, index) => {
                    const n = index + 1;
                    const rowErrors = errors.deal_stages?.[index];
                    return (
                      <Table.Tr key={stage.id}>
                        <Table.Td>{n}</Table.Td>
                        <Table.Td>
                          <TextInput {...register(`deal_stages.${index}.key`)} size="xs" autoComplete="off"
                            aria-label={t("adminSettings.pipeline.keyLabel", { n })} error={formMessage(t, rowErrors?.key?.message)} />
                        </Table.Td>
                        <Table.Td>
                          <TextInput {...register(`deal_stages.${index}.name`)} size="xs" autoComplete="off"
                            aria-label={t("adminSettings.pipeline.nameLabel", { n })} error={formMessage(t, rowErrors?.name?.message)} />
                        </Table.Td>
                        <Table.Td>
                          <Controller control={control} name={`deal_stages.${index}.probability`} render={({ field }) => (
                            <NumberInput size="xs" min={0} max={100} clampBehavior="none" allowDecimal={false} w={90}
                              aria-label={t("adminSettings.pipeline.probabilityLabel", { n })} value={field.value}
                              onChange={(value) => field.onChange(typeof value === "number" ? value : Number.NaN)}
                              onBlur={field.onBlur} ref={field.ref} name={field.name} error={formMessage(t, rowErrors?.probability?.message)} />
                          )} />
                        </Table.Td>
                        <Table.Td>
                          <NativeSelect {...register(`deal_stages.${index}.outcome`)} size="xs" data={outcomeOptions}
                            aria-label={t("adminSettings.pipeline.outcomeLabel", { n })} />
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4} wrap="nowrap">
                            <ActionIcon variant="subtle" color="gray" disabled={index === 0} onClick={() => stages.move(index, index - 1)}
                              aria-label={t("adminSettings.pipeline.moveUp", { n })}>
                              <IconArrowUp size={16} aria-hidden />
                            </ActionIcon>
                            <ActionIcon variant="subtle" color="gray" disabled={index === stages.fields.length - 1}
                              onClick={() => stages.move(index, index + 1)} aria-label={t("adminSettings.pipeline.moveDown", { n })}>
                              <IconArrowDown size={16} aria-hidden />
                            </ActionIcon>
                            <ActionIcon variant="subtle" color="red.9" onClick={() => stages.remove(index)}
                              aria-label={t("adminSettings.pipeline.remove", { n })}>
                              <IconTrash size={16} aria-hidden />
                            </ActionIcon>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Group>
              <Button variant="default" leftSection={<IconPlus size={16} aria-hidden />} disabled={stages.fields.length >= MAX_STAGES}
                onClick={() => stages.append({ key: newStageKey(getValues("deal_stages")), name: "", probability: 50, outcome: "open" })}>
                {t("adminSettings.pipeline.add")}
              </Button>
            </Group>
          </Stack>
        </Paper>

        <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={quotesTitleId}>
          <Stack>
            <Title order={2} size="h4" id={quotesTitleId}>
              {t("adminSettings.operations.otherTitle")}
            </Title>
            <Controller control={control} name="task_types" render={({ field }) => (
              <TagsInput label={t("adminSettings.operations.taskTypes")} description={t("adminSettings.operations.taskTypesHelp")}
                value={field.value} onChange={field.onChange} onBlur={field.onBlur} ref={field.ref} maxTags={30}
                error={formMessage(t, errors.task_types?.message ?? errors.task_types?.root?.message ?? errors.task_types?.find?.((e) => e)?.message)} />
            )} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput {...register("quote_number_pattern")} label={t("adminSettings.operations.quotePattern")} required
                description={t("adminSettings.operations.quotePatternHelp")} autoComplete="off"
                error={formMessage(t, errors.quote_number_pattern?.message)} />
              <Controller control={control} name="quote_validity_days" render={({ field }) => (
                <NumberInput label={t("adminSettings.operations.validityDays")} required min={1} max={365} allowDecimal={false}
                  clampBehavior="none" value={field.value}
                  onChange={(value) => field.onChange(typeof value === "number" ? value : Number.NaN)}
                  onBlur={field.onBlur} ref={field.ref} name={field.name} error={formMessage(t, errors.quote_validity_days?.message)} />
              )} />
              <TextInput {...register("contract_number_pattern")} label={t("adminSettings.operations.contractPattern")} required
                description={t("adminSettings.operations.contractPatternHelp")} autoComplete="off"
                error={formMessage(t, errors.contract_number_pattern?.message)} />
            </SimpleGrid>
          </Stack>
        </Paper>

        {stagesInUse && (
          <StageMovesModal
            removed={stagesInUse.stages.map((stage) => ({
              ...stage,
              name: settings.deal_stages.find((old) => old.key === stage.key)?.name ?? stage.key,
            }))}
            stages={getValues("deal_stages")}
            saving={update.isPending}
            onCancel={() => setStagesInUse(null)}
            onConfirm={(moves) => save({ ...stagesInUse.changes, deal_stage_moves: moves })}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" disabled={!isDirty || update.isPending} onClick={() => reset(operationsValuesOf(settings))}>
            {t("adminSettings.reset")}
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!isDirty}>
            {t("adminSettings.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
