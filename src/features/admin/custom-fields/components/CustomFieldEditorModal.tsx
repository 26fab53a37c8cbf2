import { Button, Checkbox, Group, Modal, NativeSelect, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { customFieldTypes, type CustomField } from "@/components/records/custom-fields/custom-fields.ts";
import { customFieldPlaceholder } from "@/components/records/custom-fields/custom-placeholders.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useSaveCustomField } from "../api/custom-fields-admin.ts";
import { customFieldFailure, fieldErrorMessage, type FieldErrorMessage } from "../utils/custom-field-errors.ts";
import {
  canFilter,
  draftErrors,
  draftOf,
  fieldPayload,
  isChoiceType,
  isTextType,
  LABEL_MAX,
  linkModules,
  moneyCurrencies,
  type DraftField,
  type FieldDraft,
} from "../utils/field-draft.ts";
import { OptionsEditor } from "./OptionsEditor.tsx";

interface Props {
  module: ModuleKey;
  /** The field being changed; null for a new one. */
  field: CustomField | null;
  onClose(): void;
}

/**
 * Adds or changes a custom field: its labels, type (with options, currency or linked module as
 * the type needs), and flags. A saved field's key and its document-template placeholder are
 * shown, not changed. The browser checks the labels and options first; the server's refusals
 * land on their inputs or read as one message.
 */
export function CustomFieldEditorModal({ module, field, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSaveCustomField(module);
  const [draft, setDraft] = useState<FieldDraft>(() => draftOf(field));
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<DraftField, FieldErrorMessage>>>({});

  const localErrors = checked ? draftErrors(draft) : {};
  const errorOf = (name: DraftField) => {
    const local = localErrors[name];
    const key = local ? fieldErrorMessage(name, local) : serverErrors[name];
    return key ? t(key) : undefined;
  };
  const change = (patch: Partial<FieldDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    // A changed input's server message goes; a changed type makes every earlier message moot.
    setServerErrors((current) => ("type" in patch ? {} : Object.fromEntries(Object.entries(current).filter(([name]) => !(name in patch)))));
  };

  const submit = () => {
    setChecked(true);
    if (Object.keys(draftErrors(draft)).length > 0) return;
    save.mutate(fieldPayload(draft), {
      onSuccess: (saved) => {
        notifySuccess(t(field ? "adminCustomFields.notifications.saved" : "adminCustomFields.notifications.created", { label: saved.label_tr }));
        onClose();
      },
      onError: (error) => {
        const failure = customFieldFailure(error);
        setServerErrors(failure.fields);
        notifyFailure(t("adminCustomFields.errors.title"), t(failure.message.key, failure.message.values ?? {}));
      },
    });
  };

  const placeholder = field ? customFieldPlaceholder(module, field.key) : null;
  const typeData = customFieldTypes.map((type) => ({ value: type, label: t(`adminCustomFields.types.${type}`) }));
  const currencies = [...new Set([draft.currency, ...moneyCurrencies])];
  return (
    <Modal opened onClose={onClose} size="lg" title={t(field ? "adminCustomFields.editor.editTitle" : "adminCustomFields.editor.createTitle")}
      closeButtonProps={{ "aria-label": t("adminCustomFields.editor.close") }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t("adminCustomFields.editor.labelTr")} required maxLength={LABEL_MAX} data-autofocus value={draft.label_tr}
              onChange={(event) => change({ label_tr: event.currentTarget.value })} error={errorOf("label_tr")} />
            <TextInput label={t("adminCustomFields.editor.labelEn")} description={t("adminCustomFields.editor.labelEnHint")} maxLength={LABEL_MAX}
              inputWrapperOrder={["label", "input", "description", "error"]} value={draft.label_en}
              onChange={(event) => change({ label_en: event.currentTarget.value })} error={errorOf("label_en")} />
          </SimpleGrid>
          {field && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t("adminCustomFields.editor.key")} description={t("adminCustomFields.editor.keyHint")} readOnly value={field.key}
                inputWrapperOrder={["label", "input", "description", "error"]} error={errorOf("key")} />
              {placeholder && <TextInput label={t("adminCustomFields.editor.placeholder")} readOnly value={placeholder} />}
            </SimpleGrid>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NativeSelect label={t("adminCustomFields.editor.type")} required data={typeData} value={draft.type}
              description={field ? t("adminCustomFields.editor.typeChangeHint") : undefined} inputWrapperOrder={["label", "input", "description", "error"]}
              onChange={(event) => change({ type: event.currentTarget.value as FieldDraft["type"] })} error={errorOf("type")} />
            {draft.type === "money" && (
              <Select label={t("adminCustomFields.editor.currency")} required allowDeselect={false} data={currencies} value={draft.currency}
                onChange={(value) => value && change({ currency: value })} error={errorOf("currency")} />
            )}
            {draft.type === "link" && (
              <Select label={t("adminCustomFields.editor.linkModule")} required allowDeselect={false}
                data={linkModules.map((key) => ({ value: key, label: t(`modules.${key}.title`) }))} value={draft.link_module}
                onChange={(value) => value && change({ link_module: value as FieldDraft["link_module"] })} error={errorOf("link_module")} />
            )}
          </SimpleGrid>
          {isChoiceType(draft.type) && <OptionsEditor options={draft.options} onChange={(options) => change({ options })} error={errorOf("options")} />}
          <Stack gap="xs">
            <Checkbox label={t("adminCustomFields.editor.required")} checked={draft.required} onChange={(event) => change({ required: event.currentTarget.checked })} />
            <Checkbox label={t("adminCustomFields.editor.listed")} description={t("adminCustomFields.editor.listedHint")} checked={draft.listed} onChange={(event) => change({ listed: event.currentTarget.checked })} />
            {canFilter(draft.type) && (
              <Checkbox label={t("adminCustomFields.editor.filterable")} description={t("adminCustomFields.editor.filterableHint")} checked={draft.filterable} error={errorOf("filterable")}
                onChange={(event) => change({ filterable: event.currentTarget.checked })} />
            )}
            {isTextType(draft.type) && (
              <Checkbox label={t("adminCustomFields.editor.searchable")} description={t("adminCustomFields.editor.searchableHint")} checked={draft.searchable} error={errorOf("searchable")}
                onChange={(event) => change({ searchable: event.currentTarget.checked })} />
            )}
            <Checkbox label={t("adminCustomFields.editor.hidden")} description={t("adminCustomFields.editor.hiddenHint")} checked={draft.hidden} onChange={(event) => change({ hidden: event.currentTarget.checked })} />
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("adminCustomFields.editor.cancel")}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t(field ? "adminCustomFields.editor.save" : "adminCustomFields.editor.create")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
