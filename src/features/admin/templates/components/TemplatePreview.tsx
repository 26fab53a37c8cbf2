import { Box, Center, Group, Image, Mark, Table, Text } from "@mantine/core";
import { useDeferredValue, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { totalsRows, type DocumentData } from "@/lib/document-template/document-data.ts";
import { documentLabels } from "@/lib/document-template/labels.ts";
import type { BlockKind, PlaceholderValues } from "@/lib/document-template/placeholders.ts";
import { renderTemplate, type TextSegment as TextSegmentData } from "@/lib/document-template/render.ts";
import { sampleData } from "@/lib/document-template/sample-data.ts";
import { usePreviewOrganization } from "./preview-organization.ts";

// The preview shows the document as it prints: in Turkish, the PDF's language.
const labels = documentLabels.tr;

function ItemsTable({ data }: { data: DocumentData }) {
  const columns = labels.items;
  return (
    <Table withTableBorder withColumnBorders my="xs" fz="xs" style={{ whiteSpace: "normal" }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{columns.position}</Table.Th>
          <Table.Th scope="col">{columns.description}</Table.Th>
          {[columns.quantity, columns.unitPrice, columns.discount, columns.vatRate, columns.lineNet, columns.lineVat, columns.lineGross].map((label) => (
            <Table.Th key={label} scope="col" ta="right">
              {label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.items.map((item) => (
          <Table.Tr key={item.position}>
            <Table.Td>{item.position}</Table.Td>
            <Table.Td>{item.description}</Table.Td>
            {[item.quantity, item.unit_price, item.discount, item.vat_rate, item.line_net, item.line_vat, item.line_gross].map((value, index) => (
              <Table.Td key={index} ta="right">
                {value}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function VatTable({ data }: { data: DocumentData }) {
  const columns = labels.vatBreakdown;
  return (
    <Table withTableBorder withColumnBorders my="xs" fz="xs" w="auto">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{columns.rate}</Table.Th>
          <Table.Th scope="col" ta="right">
            {columns.base}
          </Table.Th>
          <Table.Th scope="col" ta="right">
            {columns.vat}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.vatBreakdown.map((row) => (
          <Table.Tr key={row.rate}>
            <Table.Td>{row.rate}</Table.Td>
            <Table.Td ta="right">{row.base}</Table.Td>
            <Table.Td ta="right">{row.vat}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function TotalsTable({ data }: { data: DocumentData }) {
  const rows = totalsRows(data.values);
  return (
    <Group justify="flex-end" my="xs">
      <Table withTableBorder fz="xs" w="auto">
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key} fw={row.key === "total" ? 700 : undefined}>
              <Table.Th scope="row">{labels.totals[row.key]}</Table.Th>
              <Table.Td ta="right">{row.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Group>
  );
}

function Block({ block, data, logo }: { block: BlockKind; data: DocumentData; logo: string | null | undefined }) {
  switch (block) {
    case "items":
      return <ItemsTable data={data} />;
    case "vat_breakdown":
      return <VatTable data={data} />;
    case "totals":
      return <TotalsTable data={data} />;
    case "logo":
      return logo ? (
        <Image src={logo} alt={labels.logo} h={48} w="auto" fit="contain" my={4} display="inline-block" />
      ) : (
        <Center w={120} h={48} my={4} bd="1px dashed var(--mantine-color-default-border)" style={{ display: "inline-flex" }}>
          <Text size="xs" c="dimmed">
            {labels.logo}
          </Text>
        </Center>
      );
  }
}

/** A text part of a preview: filled text, or an unknown placeholder marked as written. */
export function TextSegment({ segment }: { segment: TextSegmentData }) {
  const { t } = useTranslation();
  return segment.type === "unknown" ? (
    <Mark color="orange" title={t("adminTemplates.preview.unknown")}>
      {segment.text}
    </Mark>
  ) : (
    <Text span size="sm">
      {segment.text}
    </Text>
  );
}

/**
 * The body with the organization's own details and logo and sample record data. Plain text
 * only: every part is a React text node (escaped), line breaks are kept by CSS, unknown
 * placeholders are marked, the tables and the logo are drawn here as the PDF draws them; the
 * organization's custom fields show as their labels (customSamples).
 */
export function TemplatePreview({ body, labelId, customSamples }: { body: string; labelId: string; customSamples: PlaceholderValues }) {
  const { t } = useTranslation();
  const { organization } = usePreviewOrganization();
  const [today] = useState(() => new Date());
  const data = useMemo(() => sampleData(today, organization), [today, organization]);
  const deferredBody = useDeferredValue(body);
  const segments = useMemo(() => renderTemplate(deferredBody, { ...customSamples, ...data.values }), [deferredBody, data, customSamples]);

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
          segment.type === "block" ? (
            <Block key={index} block={segment.block} data={data} logo={organization.logo} />
          ) : (
            <TextSegment key={index} segment={segment} />
          ),
        )
      )}
    </Box>
  );
}
