import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useId, useRef } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useSaveTemplate } from "../api/templates.ts";
import { useCustomPlaceholders } from "@/components/records/custom-fields/custom-placeholders.ts";
import {
  placeholdersByGroup,
  placeholderToken,
  templateKinds,
  type CustomPlaceholder,
  type Placeholder,
  type TemplateKind,
} from "@/lib/document-template/placeholders.ts";
import { insertAt } from "@/lib/document-template/render.ts";
import { defaultTemplateBodies } from "@/lib/pdf/default-templates.ts";
import { templateFormSchema, type DocumentTemplate, type TemplateFormOutput, type TemplateFormValues } from "../api/schemas.ts";
import { templateError } from "../utils/template-errors.ts";
import { SamplePdfButton } from "./SamplePdfButton.tsx";
import { TemplatePreview } from "./TemplatePreview.tsx";

interface Props {
  scope: OrganizationScope;
  /** The template to edit, or null for a new one of `kind`. */
  template: DocumentTemplate | null;
  kind: TemplateKind;
  onClose(): void;
}

/** Creates or edits a template, with the placeholders to insert and a live preview beside it. */
export function TemplateEditorModal({ scope, template, kind, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const save = useSaveTemplate(scope);
  const previewTitleId = useId();
  const placeholdersTitleId = useId();
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    control,
    formState: { errors, isSubmitted },
  } = useForm<TemplateFormValues, unknown, TemplateFormOutput>({
    resolver: zodResolver(templateFormSchema),
    defaultValues: template
      ? { name: template.name, kind: template.kind, isDefault: template.is_default, body: template.body }
      : { name: "", kind, isDefault: false, body: "" },
  });
  const body = useWatch({ control, name: "body" });
  const selectedKind = useWatch({ control, name: "kind" });
  const bodyField = register("body");
  const failure = save.isError ? templateError(save.error) : undefined;
  // The organization's custom fields of the kind's records, offered by label; the preview shows each as its label.
  const customPlaceholders = useCustomPlaceholders(selectedKind, i18n.resolvedLanguage);
  const customSamples = Object.fromEntries(
    customPlaceholders.flatMap(({ names }) => names.map(({ name, label }) => [name, t("adminTemplates.editor.customSample", { label })])),
  );

  const insert = (name: Placeholder | CustomPlaceholder) => {
    const element = bodyRef.current;
    const current = getValues("body");
    const { text, caret } = insertAt(current, element?.selectionStart ?? current.length, element?.selectionEnd ?? current.length, placeholderToken(name));
    setValue("body", text, { shouldDirty: true, shouldValidate: isSubmitted });
    if (element) {
      element.focus();
      element.setSelectionRange(caret, caret);
    }
  };

  const onSubmit = handleSubmit((values) => {
    save.mutate(
      { id: template?.id ?? null, ...values },
      {
        onSuccess: () => {
          const done = template ? "adminTemplates.notifications.updated" : "adminTemplates.notifications.created";
          notifySuccess(t(done, { name: values.name }));
          onClose();
        },
        onError: (error) => {
          const { field, key } = templateError(error);
          if (field) setError(field, { type: "server", message: key }, { shouldFocus: true });
        },
      },
    );
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(template ? "adminTemplates.editor.editTitle" : "adminTemplates.editor.createTitle")}
      closeButtonProps={{ "aria-label": t("adminTemplates.close") }}
      size={1200}
    >
      <form onSubmit={onSubmit} noValidate>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack>
            {failure && !failure.field && <Alert color="red">{t(failure.key)}</Alert>}
            <TextInput
              {...register("name")}
              label={t("adminTemplates.editor.name")}
              required
              autoComplete="off"
              error={formMessage(t, errors.name?.message)}
              data-autofocus
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                {...register("kind")}
                label={t("adminTemplates.editor.kind")}
                error={formMessage(t, errors.kind?.message)}
                data={templateKinds.map((value) => ({ value, label: t(`adminTemplates.kinds.${value}`) }))}
              />
              {/* Mantine's Switch keeps its own checked state: controlled, so it shows the saved value. */}
              <Controller
                control={control}
                name="isDefault"
                render={({ field: { value, onChange, onBlur, name, ref } }) => (
                  <Switch
                    ref={ref}
                    name={name}
                    checked={value}
                    onChange={(event) => onChange(event.currentTarget.checked)}
                    onBlur={onBlur}
                    label={t("adminTemplates.editor.isDefault")}
                    mt={{ base: 0, sm: 30 }}
                  />
                )}
              />
            </SimpleGrid>
            <Stack gap={6}>
              <Text size="sm" fw={500} id={placeholdersTitleId}>
                {t("adminTemplates.editor.placeholders")}
              </Text>
              <Text size="xs" c="dimmed">
                {t("adminTemplates.editor.placeholdersHint")}
              </Text>
              <Stack gap={6} role="group" aria-labelledby={placeholdersTitleId}>
                {placeholdersByGroup(selectedKind).map(({ group, names }) => (
                  <Group key={group} gap={6} role="group" aria-label={t(`adminTemplates.editor.groups.${group}`)}>
                    <Text size="xs" c="dimmed" w={80}>
                      {t(`adminTemplates.editor.groups.${group}`)}
                    </Text>
                    {names.map((name) => (
                      <Button key={name} size="compact-xs" variant="default" ff="monospace" onClick={() => insert(name)}>
                        {placeholderToken(name)}
                      </Button>
                    ))}
                  </Group>
                ))}
                {customPlaceholders.map(({ group, names }) => (
                  <Stack key={`custom-${group}`} gap={4} role="group" aria-label={t(`adminTemplates.editor.customGroups.${group}`)}>
                    <Text size="xs" c="dimmed">
                      {t(`adminTemplates.editor.customGroups.${group}`)}
                    </Text>
                    <Group gap={6}>
                      {names.map(({ name, label }) => (
                        <Button key={name} size="compact-xs" variant="default" title={placeholderToken(name)} onClick={() => insert(name)}>
                          {label}
                        </Button>
                      ))}
                    </Group>
                  </Stack>
                ))}
              </Stack>
            </Stack>
            <Textarea
              {...bodyField}
              ref={(element) => {
                bodyField.ref(element);
                bodyRef.current = element;
              }}
              label={t("adminTemplates.editor.body")}
              description={t("adminTemplates.editor.bodyHint")}
              error={formMessage(t, errors.body?.message)}
              autosize
              minRows={12}
              maxRows={24}
              spellCheck={false}
              styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
            />
            {/* The built-in body the PDF uses when there is no default template: a start, offered on an empty body only. */}
            {body === "" && (
              <Group>
                <Button
                  variant="light"
                  size="xs"
                  onClick={() => setValue("body", defaultTemplateBodies[selectedKind], { shouldDirty: true, shouldValidate: isSubmitted })}
                >
                  {t("adminTemplates.editor.useDefaultBody")}
                </Button>
              </Group>
            )}
          </Stack>
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={3} size="h5" id={previewTitleId}>
                {t("adminTemplates.preview.title")}
              </Title>
              <SamplePdfButton kind={selectedKind} body={body} customSamples={customSamples} />
            </Group>
            <Text size="xs" c="dimmed">
              {t("adminTemplates.preview.hint")}
            </Text>
            <TemplatePreview body={body} labelId={previewTitleId} customSamples={customSamples} />
          </Stack>
        </SimpleGrid>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose}>
            {t("adminTemplates.cancel")}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t("adminTemplates.editor.submit")}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
