import { Anchor, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { linkedRecord } from "../record-links.ts";
import { CustomChoiceBadges, CustomLinkName } from "./CustomCells.tsx";
import { formatCustomValue, isBlankCustomValue } from "./custom-field-values.ts";
import type { CustomField } from "./custom-fields.ts";
import { linkSource } from "./list-cells.ts";

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
  if (field.type === "choice" || field.type === "multi_choice") return <CustomChoiceBadges field={field} value={value} />;
  if (field.type === "link") {
    const source = linkSource(field);
    const linked = linkedRecord(record, field.key);
    return source && linked ? <CustomLinkName source={source} linked={linked} /> : <>—</>;
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
