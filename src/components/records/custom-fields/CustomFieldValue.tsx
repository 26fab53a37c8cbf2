import { Anchor, Badge, Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { recordBaseSchema, useRecord } from "../record-api.ts";
import { linkedRecord, recordPickerSources, type PickableModule } from "../record-links.ts";
import { LinkedRecordName } from "../LinkedRecordName.tsx";
import { chosenCustomOptions, formatCustomValue, isBlankCustomValue } from "./custom-field-values.ts";
import { customLabel, type CustomField } from "./custom-fields.ts";

function isPickable(module: string | null): module is PickableModule {
  return module !== null && Object.hasOwn(recordPickerSources, module);
}

/**
 * A link field's record by its name: the name the record answer gives beside the id
 * (<key>_name, as for standard links) when there is one, else the record read by its id; a
 * record the caller may not see is said to be so, never shown by its id.
 */
function CustomLinkValue({ module, id, answered }: { module: PickableModule; id: string; answered: string | null }) {
  const source = recordPickerSources[module];
  const columns = [source.titleColumn, ...("labelColumns" in source ? source.labelColumns : [])];
  const schema = recordBaseSchema.extend(Object.fromEntries(columns.map((column) => [column, z.string().nullable()])));
  const read = useRecord(module, source.entity, id, schema, answered === null);
  const row = read.data as Record<string, string | null> | undefined;
  const name = answered ?? (row ? ("labelOf" in source ? source.labelOf(row) : (row[source.titleColumn] ?? null)) : null);
  if (answered === null && read.isPending) return <>…</>;
  return <LinkedRecordName module={module} linked={{ id, name }} />;
}

/**
 * A custom field's value on a record page (and in a list cell): choices as badges in their
 * colours, links to the linked record, to a web address, to mail and call; otherwise the
 * shared formatter's text; "—" when empty.
 */
export function CustomFieldValue({ field, record }: { field: CustomField; record: Record<string, unknown> }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const value = record[field.key];
  if (isBlankCustomValue(value)) return <>—</>;
  if (field.type === "choice" || field.type === "multi_choice") {
    return (
      <Group gap={4} component="span">
        {chosenCustomOptions(field, value).map((option) => (
          <Badge key={option.value} variant="light" color={option.color ?? "gray"} tt="none">
            {customLabel(option, language)}
          </Badge>
        ))}
      </Group>
    );
  }
  if (field.type === "link") {
    if (!isPickable(field.link_module) || typeof value !== "string") return <>—</>;
    return <CustomLinkValue module={field.link_module} id={value} answered={linkedRecord(record, field.key)?.name ?? null} />;
  }
  const text = formatCustomValue(field, value, { language, t }) ?? "—";
  if (field.type === "url") {
    const href = /^https?:\/\//i.test(String(value)) ? String(value) : `https://${String(value)}`;
    return (
      <Anchor href={href} target="_blank" rel="noopener noreferrer">
        {text}
      </Anchor>
    );
  }
  if (field.type === "email") return <Anchor href={`mailto:${String(value)}`}>{text}</Anchor>;
  if (field.type === "phone") return <Anchor href={`tel:${String(value)}`}>{text}</Anchor>;
  return (
    <Text span inherit style={{ whiteSpace: "pre-wrap" }}>
      {text}
    </Text>
  );
}
