import { Box, Mark, Table, Text } from "@mantine/core";
import { useDeferredValue, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { renderTemplate, sampleData, type SampleItem } from "../utils/render.ts";

function ItemsTable({ items }: { items: SampleItem[] }) {
  const { t } = useTranslation();
  return (
    <Table withTableBorder withColumnBorders my="xs" fz="sm" style={{ whiteSpace: "normal" }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t("adminTemplates.preview.item")}</Table.Th>
          <Table.Th scope="col" ta="right">
            {t("adminTemplates.preview.quantity")}
          </Table.Th>
          <Table.Th scope="col" ta="right">
            {t("adminTemplates.preview.unitPrice")}
          </Table.Th>
          <Table.Th scope="col" ta="right">
            {t("adminTemplates.preview.lineTotal")}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => (
          <Table.Tr key={item.description}>
            <Table.Td>{item.description}</Table.Td>
            <Table.Td ta="right">{item.quantity}</Table.Td>
            <Table.Td ta="right">{item.unitPrice}</Table.Td>
            <Table.Td ta="right">{item.total}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The body with sample data. Plain text only: every part is a React text node (escaped), line
 * breaks are kept by CSS, unknown placeholders are marked, the items table is drawn here.
 */
export function TemplatePreview({ body, labelId }: { body: string; labelId: string }) {
  const { t } = useTranslation();
  const [data] = useState(() => sampleData(new Date()));
  const deferredBody = useDeferredValue(body);
  const segments = useMemo(() => renderTemplate(deferredBody, data), [deferredBody, data]);

  return (
    <Box
      role="region"
      aria-labelledby={labelId}
      data-testid="template-preview"
      p="md"
      bd="1px solid var(--mantine-color-default-border)"
      style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", borderRadius: "var(--mantine-radius-sm)", minHeight: 200 }}
      tabIndex={0}
    >
      {segments.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t("adminTemplates.preview.empty")}
        </Text>
      ) : (
        segments.map((segment, index) =>
          segment.type === "items" ? (
            <ItemsTable key={index} items={data.items} />
          ) : segment.type === "unknown" ? (
            <Mark key={index} color="orange" title={t("adminTemplates.preview.unknown")}>
              {segment.text}
            </Mark>
          ) : (
            <Text key={index} span size="sm">
              {segment.text}
            </Text>
          ),
        )
      )}
    </Box>
  );
}
