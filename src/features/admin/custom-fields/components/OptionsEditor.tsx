import { ActionIcon, Button, ColorSwatch, Fieldset, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { LABEL_MAX, newOption, optionColors, type OptionDraft } from "../utils/field-draft.ts";

interface Props {
  options: OptionDraft[];
  onChange(options: OptionDraft[]): void;
  /** The message about the options, already translated. */
  error?: string;
}

/** A choice field's options, in order: each a Turkish label, an English one and a colour; moved, added, removed. */
export function OptionsEditor({ options, onChange, error }: Props) {
  const { t } = useTranslation();
  const update = (index: number, patch: Partial<OptionDraft>) => onChange(options.map((option, at) => (at === index ? { ...option, ...patch } : option)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...options];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    onChange(next);
  };
  const colorData = [
    { value: "", label: t("adminCustomFields.options.noColor") },
    ...optionColors.map((color) => ({ value: color, label: t(`adminCustomFields.options.colors.${color}`) })),
  ];
  return (
    <Fieldset legend={t("adminCustomFields.options.legend")}>
      <Stack gap="xs">
        {options.map((option, index) => {
          const number = { index: index + 1 };
          return (
            <Group key={option.id} gap="xs" align="flex-end" wrap="nowrap">
              <TextInput style={{ flex: 2 }} required label={t("adminCustomFields.options.labelTr", number)} maxLength={LABEL_MAX}
                value={option.label_tr} onChange={(event) => update(index, { label_tr: event.currentTarget.value })} />
              <TextInput style={{ flex: 2 }} label={t("adminCustomFields.options.labelEn", number)} maxLength={LABEL_MAX}
                value={option.label_en} onChange={(event) => update(index, { label_en: event.currentTarget.value })} />
              <Select
                style={{ flex: 1.3 }}
                label={t("adminCustomFields.options.color", number)}
                data={colorData}
                allowDeselect={false}
                value={option.color ?? ""}
                onChange={(value) => update(index, { color: value ? value : null })}
                leftSection={option.color ? <ColorSwatch color={`var(--mantine-color-${option.color}-6)`} size={14} /> : null}
              />
              <ActionIcon variant="subtle" mb={4} disabled={index === 0} aria-label={t("adminCustomFields.options.moveUp", number)} onClick={() => move(index, -1)}>
                <IconArrowUp size={16} aria-hidden />
              </ActionIcon>
              <ActionIcon variant="subtle" mb={4} disabled={index === options.length - 1} aria-label={t("adminCustomFields.options.moveDown", number)}
                onClick={() => move(index, 1)}>
                <IconArrowDown size={16} aria-hidden />
              </ActionIcon>
              <ActionIcon variant="subtle" color="red" mb={4} aria-label={t("adminCustomFields.options.remove", number)}
                onClick={() => onChange(options.filter((_, at) => at !== index))}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          );
        })}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => onChange([...options, newOption()])}>
            {t("adminCustomFields.options.add")}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
