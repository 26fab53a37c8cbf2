import { Grid, MultiSelect, NumberInput, Select, Switch, Textarea, TextInput } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { normalizePhone } from "@/lib/turkish-identifiers.ts";
import { recordPickerSources, type PickableModule } from "../record-links.ts";
import { RecordPicker } from "../RecordPicker.tsx";
import { textLimit, type CustomInputValue } from "./custom-field-form.ts";
import { customLabel, type CustomField } from "./custom-fields.ts";

interface Props {
  field: CustomField;
  value: CustomInputValue | undefined;
  onChange(value: CustomInputValue): void;
  onBlur?(): void;
  /** The message under the input, already translated. */
  error?: string;
}

function localeFor(language: string | undefined): string {
  return language === "en" ? "en-GB" : "tr-TR";
}

/** A currency's symbol in the interface's language ("₺", "€"); the code itself when Intl has none. */
export function currencySymbol(currency: string, language: string | undefined): string {
  try {
    const parts = new Intl.NumberFormat(localeFor(language), { style: "currency", currency }).formatToParts(0);
    return parts.find((part) => part.type === "currency")?.value ?? currency;
  } catch {
    return currency;
  }
}

const pad = (value: number) => String(value).padStart(2, "0");

/** A stored timestamp as a datetime-local input holds it (the browser's time zone, to the minute). */
export function localDateTimeText(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function isPickable(module: string | null): module is PickableModule {
  return module !== null && Object.hasOwn(recordPickerSources, module);
}

const text = (value: CustomInputValue | undefined) => (typeof value === "string" ? value : "");

/** One custom field's input, chosen by its type; the form around it keeps the value. */
export function CustomFieldInput({ field, value, onChange, onBlur, error }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const common = { label: customLabel(field, language), required: field.required, error, onBlur };
  const english = language === "en";
  const choices = field.options.map((option) => ({ value: option.value, label: customLabel(option, language) }));
  switch (field.type) {
    case "long_text":
      return <Textarea {...common} autosize minRows={2} maxLength={textLimit(field)} value={text(value)} onChange={(event) => onChange(event.currentTarget.value)} />;
    case "number":
    case "money":
    case "percent":
      return (
        <NumberInput
          {...common}
          decimalSeparator={english ? "." : ","}
          thousandSeparator={english ? "," : "."}
          leftSection={field.type === "money" ? currencySymbol(field.currency ?? "TRY", language) : field.type === "percent" ? "%" : undefined}
          decimalScale={field.type === "number" ? undefined : 2}
          value={typeof value === "number" || typeof value === "string" ? value : ""}
          onChange={(next) => onChange(next)}
        />
      );
    case "date":
      return <TextInput {...common} type="date" value={text(value)} onChange={(event) => onChange(event.currentTarget.value)} />;
    case "datetime":
      return (
        <TextInput
          {...common}
          type="datetime-local"
          value={typeof value === "string" && value !== "" ? localDateTimeText(value) : ""}
          onChange={(event) => {
            const local = event.currentTarget.value;
            onChange(local === "" ? "" : new Date(local).toISOString());
          }}
        />
      );
    case "boolean":
      return (
        <Switch
          label={common.label}
          error={error}
          onBlur={onBlur}
          mt={{ base: 0, sm: "lg" }}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case "choice":
      return (
        <Select
          {...common}
          data={choices}
          clearable={!field.required}
          placeholder={t("customFields.form.choose")}
          value={text(value) || null}
          onChange={(next) => onChange(next ?? "")}
        />
      );
    case "multi_choice":
      return (
        <MultiSelect
          {...common}
          data={choices}
          clearable
          placeholder={t("customFields.form.choose")}
          value={Array.isArray(value) ? value : []}
          onChange={onChange}
        />
      );
    case "link": {
      if (!isPickable(field.link_module)) return null;
      const source = recordPickerSources[field.link_module];
      return (
        <RecordPicker
          {...source}
          label={common.label}
          required={field.required}
          error={error}
          placeholder={t("records.list.filterPick")}
          nothingFound={t("records.list.filterNothing")}
          value={text(value) || null}
          onChange={(next) => onChange(next ?? "")}
        />
      );
    }
    case "phone":
      return (
        <TextInput
          {...common}
          type="tel"
          maxLength={textLimit(field)}
          value={text(value)}
          onChange={(event) => onChange(event.currentTarget.value)}
          onBlur={(event) => {
            const normalised = normalizePhone(event.currentTarget.value);
            if (normalised) onChange(normalised);
            onBlur?.();
          }}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          type={field.type === "email" ? "email" : field.type === "url" ? "url" : "text"}
          maxLength={textLimit(field)}
          value={text(value)}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
  }
}

/** How wide a field's input is in the form's grid: long text the whole row, others half. */
export function CustomFieldCol({ field, children }: { field: CustomField; children: ReactNode }) {
  return <Grid.Col span={{ base: 12, sm: field.type === "long_text" ? 12 : 6 }}>{children}</Grid.Col>;
}
