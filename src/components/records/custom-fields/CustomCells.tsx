/** The list cells of custom fields that are more than text: options as coloured badges, a link as the record's name. */
import { Badge, Group } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { RecordPickerSource } from "../record-config.ts";
import { LinkedRecordName } from "../LinkedRecordName.tsx";
import { useLinkedRecordName } from "./custom-link-names.ts";
import { customLabel, type CustomField } from "./custom-fields.ts";

/** A choice or multi choice value: each option's label on its colour (an option removed since shows its value, grey). */
export function CustomChoiceBadges({ field, value }: { field: CustomField; value: unknown }) {
  const { i18n } = useTranslation();
  const values = (Array.isArray(value) ? value : [value]).filter((item) => item !== null && item !== undefined && item !== "").map(String);
  if (values.length === 0) return <>—</>;
  return (
    <Group gap={4}>
      {values.map((item) => {
        const option = field.options.find((candidate) => candidate.value === item);
        return (
          <Badge key={item} variant="light" color={option?.color ?? "gray"} style={{ textTransform: "none" }}>
            {option ? customLabel(option, i18n.resolvedLanguage) : item}
          </Badge>
        );
      })}
    </Group>
  );
}

/** A link custom field's cell: the linked record's name as a link to its page (read by id: list rows carry the id only). */
export function CustomLinkName({ source, id }: { source: RecordPickerSource; id: string }) {
  const name = useLinkedRecordName(source, id);
  if (name === undefined) return <>…</>;
  return <LinkedRecordName module={source.module} linked={{ id, name }} />;
}
