/**
 * The custom field values that are more than text, as the record page and the list's cells
 * both show them: options as coloured badges, a link as the record's name.
 */
import { Badge, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { RecordPickerSource } from "../record-config.ts";
import { LinkedRecordName } from "../LinkedRecordName.tsx";
import { chosenCustomOptions } from "./custom-field-values.ts";
import { customLabel, type CustomField } from "./custom-fields.ts";

/** A choice or multi choice value: each option's label on its colour, in the field's order (an option removed since shows its value, grey). */
export function CustomChoiceBadges({ field, value }: { field: CustomField; value: unknown }) {
  const { i18n } = useTranslation();
  const chosen = chosenCustomOptions(field, value);
  if (chosen.length === 0) return <>—</>;
  return (
    <Group gap={4} component="span">
      {chosen.map((option) => (
        <Badge key={option.value} variant="light" color={option.color ?? "gray"} tt="none">
          {customLabel(option, i18n.resolvedLanguage)}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * A link field's record by its name, as a link to its page: the name that record answers and
 * list rows give beside the id (<key>_name, private.link_names_sql); a record the caller may
 * not see is said to be so, never shown by its id.
 */
export function CustomLinkName({ source, linked }: { source: RecordPickerSource; linked: { id: string; name: string | null } }) {
  return <LinkedRecordName module={source.module} linked={linked} />;
}
