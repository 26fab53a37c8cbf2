import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Box, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useDeferredValue, useId, useMemo, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { formMessage } from "@/i18n/form-message.ts";
import { mailPlaceholderNames, mailPlaceholdersByGroup } from "@/lib/document-template/mail-placeholders.ts";
import { insertAt, renderMailText } from "@/lib/document-template/render.ts";
import { sampleMailValues } from "@/lib/document-template/sample-data.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import {
  mailTemplateFormSchema,
  useResetMailTemplate,
  useSaveMailTemplate,
  type MailTemplate,
  type MailTemplateFormOutput,
  type MailTemplateFormValues,
} from "../api/mail-templates.ts";
import { mailTemplateError } from "../utils/mail-template-errors.ts";
import { usePreviewOrganization } from "./preview-organization.ts";
import { TextSegment } from "./TemplatePreview.tsx";

interface Props {
  scope: OrganizationScope;
  template: MailTemplate;
  onClose(): void;
}

type Field = "subject" | "body";

/**
 * Edits an e-mail template's subject and body: the kind's placeholders to insert where the cursor
 * was (in the subject or the body), a live preview with the organization's details and sample
 * values (unknown placeholders marked), save, and "back to the product's text".
 */
export function MailTemplateEditorModal({ scope, template, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveMailTemplate(scope);
  const reset = useResetMailTemplate(scope);
  const previewTitleId = useId();
  const placeholdersTitleId = useId();
  const subjectRef = useRef<HTMLInputElement | null>(null);
  const bodyRef = useRef<HTMLTextAreaElement | null>(null);
  const [lastField, setLastField] = useState<Field>("body");
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    control,
    formState: { errors, isSubmitted },
  } = useForm<MailTemplateFormValues, unknown, MailTemplateFormOutput>({
    resolver: zodResolver(mailTemplateFormSchema),
    defaultValues: { subject: template.subject, body: template.body },
  });
  const subject = useDeferredValue(useWatch({ control, name: "subject" }));
  const body = useDeferredValue(useWatch({ control, name: "body" }));
  const { organization } = usePreviewOrganization();
  const [today] = useState(() => new Date());
  const values = useMemo(() => sampleMailValues(today, organization), [today, organization]);
  const offered = useMemo(() => mailPlaceholderNames(template.kind), [template.kind]);
  const failure = save.isError ? mailTemplateError(save.error) : reset.isError ? mailTemplateError(reset.error) : undefined;
  const what = { kind: t(`adminTemplates.mail.kinds.${template.kind}`), language: t(`adminTemplates.mail.languages.${template.language}`) };

  const subjectField = register("subject");
  const bodyField = register("body");

  const insert = (name: string) => {
    const element = lastField === "subject" ? subjectRef.current : bodyRef.current;
    const current = getValues(lastField);
    const { text, caret } = insertAt(current, element?.selectionStart ?? current.length, element?.selectionEnd ?? current.length, `{{${name}}}`);
    setValue(lastField, text, { shouldDirty: true, shouldValidate: isSubmitted });
    if (element) {
      element.focus();
      element.setSelectionRange(caret, caret);
    }
  };

  const onSubmit = handleSubmit((input) => {
    reset.reset();
    save.mutate(
      { kind: template.kind, language: template.language, ...input },
      {
        onSuccess: () => {
          notifySuccess(t("adminTemplates.mail.notifications.saved", what));
          onClose();
        },
        onError: (error) => {
          const { field, key } = mailTemplateError(error);
          if (field) setError(field, { type: "server", message: key }, { shouldFocus: true });
        },
      },
    );
  });

  const onReset = () => {
    save.reset();
    reset.mutate(
      { kind: template.kind, language: template.language },
      {
        onSuccess: () => {
          notifySuccess(t("adminTemplates.mail.notifications.reset", what));
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t("adminTemplates.mail.editor.title", what)} closeButtonProps={{ "aria-label": t("adminTemplates.close") }} size={1200}>
      <form onSubmit={onSubmit} noValidate>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack>
            {failure && !failure.field && <Alert color="red">{t(failure.key)}</Alert>}
            <TextInput
              {...subjectField}
              ref={(element) => {
                subjectField.ref(element);
                subjectRef.current = element;
              }}
              onFocus={() => setLastField("subject")}
              label={t("adminTemplates.mail.editor.subject")}
              required
              autoComplete="off"
              error={formMessage(t, errors.subject?.message)}
              data-autofocus
            />
            <Stack gap={6}>
              <Text size="sm" fw={500} id={placeholdersTitleId}>
                {t("adminTemplates.editor.placeholders")}
              </Text>
              <Text size="xs" c="dimmed">
                {t("adminTemplates.mail.editor.placeholdersHint")}
              </Text>
              <Stack gap={6} role="group" aria-labelledby={placeholdersTitleId}>
                {mailPlaceholdersByGroup(template.kind).map(({ group, names }) => (
                  <Group key={group} gap={6} role="group" aria-label={t(`adminTemplates.editor.groups.${group}`)}>
                    <Text size="xs" c="dimmed" w={80}>
                      {t(`adminTemplates.editor.groups.${group}`)}
                    </Text>
                    {names.map((name) => (
                      <Button key={name} size="compact-xs" variant="default" ff="monospace" onClick={() => insert(name)}>
                        {`{{${name}}}`}
                      </Button>
                    ))}
                  </Group>
                ))}
              </Stack>
            </Stack>
            <Textarea
              {...bodyField}
              ref={(element) => {
                bodyField.ref(element);
                bodyRef.current = element;
              }}
              onFocus={() => setLastField("body")}
              label={t("adminTemplates.mail.editor.body")}
              description={t("adminTemplates.mail.editor.bodyHint")}
              required
              error={formMessage(t, errors.body?.message)}
              autosize
              minRows={10}
              maxRows={24}
              spellCheck={false}
              styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
            />
          </Stack>
          <Stack gap="xs">
            <Title order={3} size="h5" id={previewTitleId}>
              {t("adminTemplates.preview.title")}
            </Title>
            <Text size="xs" c="dimmed">
              {t("adminTemplates.preview.hint")}
            </Text>
            <Box
              role="region"
              aria-labelledby={previewTitleId}
              data-testid="mail-template-preview"
              p="md"
              bd="1px solid var(--mantine-color-default-border)"
              style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", borderRadius: "var(--mantine-radius-sm)", minHeight: 200 }}
              tabIndex={0}
            >
              <Text size="sm" fw={700} mb="sm">
                {t("adminTemplates.mail.editor.subjectPreview")}{" "}
                {renderMailText(subject, values, offered).map((segment, index) => (
                  <TextSegment key={index} segment={segment} />
                ))}
              </Text>
              {renderMailText(body, values, offered).map((segment, index) => (
                <TextSegment key={index} segment={segment} />
              ))}
            </Box>
          </Stack>
        </SimpleGrid>
        <Group justify="space-between" mt="lg">
          <Group>
            {template.customized && (
              <Button variant="subtle" color="red" onClick={onReset} loading={reset.isPending} disabled={save.isPending}>
                {t("adminTemplates.mail.editor.reset")}
              </Button>
            )}
          </Group>
          <Group>
            <Button variant="default" onClick={onClose}>
              {t("adminTemplates.cancel")}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={reset.isPending}>
              {t("adminTemplates.editor.submit")}
            </Button>
          </Group>
        </Group>
      </form>
    </Modal>
  );
}
