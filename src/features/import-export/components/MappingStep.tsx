import { Alert, Badge, Button, Group, List, Paper, Select, Stack, Table, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { ParsedSheet } from "@/lib/spreadsheet/index.ts";
import { findField, labelText, type ImportKindDefinition } from "../kinds.ts";
import type { Mapping, MappingProblem } from "../utils/mapping.ts";
import { cellText } from "../utils/prepare-rows.ts";
import { SavedMappings } from "./SavedMappings.tsx";

const SAMPLE_ROWS = 3;
const SAMPLE_CHARS = 60;

interface Props {
  definition: ImportKindDefinition;
  sheet: ParsedSheet;
  mapping: Mapping;
  autoMatched: number;
  problems: readonly MappingProblem[];
  onChange(mapping: Mapping): void;
  /** Matches the columns by their headers again. */
  onAutoMatch(): void;
  onApplySaved(mapping: Mapping, name: string): void;
}

/** The first non-empty values of a column, shortened: what the user recognises the column by. */
function samples(sheet: ParsedSheet, column: number): string {
  const values: string[] = [];
  for (const row of sheet.rows) {
    const text = cellText(row[column]);
    if (text !== "") values.push(text.length > SAMPLE_CHARS ? `${text.slice(0, SAMPLE_CHARS)}…` : text);
    if (values.length === SAMPLE_ROWS) break;
  }
  return values.join(" · ");
}

/** Step 2: each file column to a field or to "not imported", matched automatically, changeable, saved and reused by name. */
export function MappingStep({ definition, sheet, mapping, autoMatched, problems, onChange, onAutoMatch, onApplySaved }: Props) {
  const { t } = useTranslation();
  const required = new Set(definition.required.flat());
  const fieldOptions = definition.fields.map((field) => ({
    value: field.key,
    label: required.has(field.key)
      ? t("modules.importExport.mapping.requiredField", { field: labelText(field.label, t) })
      : labelText(field.label, t),
  }));
  const data = [{ value: "", label: t("modules.importExport.mapping.skip") }, ...fieldOptions];
  const fieldName = (key: string) => {
    const field = findField(definition, key);
    return field ? labelText(field.label, t) : key;
  };
  const problemText = (problem: MappingProblem) => {
    switch (problem.type) {
      case "nothing_mapped":
        return t("modules.importExport.mapping.nothingMapped");
      case "missing":
        return t("modules.importExport.mapping.missing", { fields: problem.fields.map(fieldName).join(" / ") });
      case "duplicate":
        return t("modules.importExport.mapping.duplicate", { field: fieldName(problem.field), columns: problem.headers.join(", ") });
      case "conflict":
        return t("modules.importExport.mapping.conflict", { field: fieldName(problem.field), other: fieldName(problem.other) });
    }
  };
  const setField = (header: string, key: string | null) => {
    const next = { ...mapping };
    if (key) next[header] = key;
    else delete next[header];
    onChange(next);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <Stack gap={2} style={{ flex: "1 1 18rem" }}>
          <Title order={2} size="h4">
            {t("modules.importExport.mapping.title")}
          </Title>
          <Text size="sm" c="dimmed">
            {t("modules.importExport.mapping.description", { count: autoMatched, total: sheet.headers.length })}
          </Text>
        </Stack>
        <SavedMappings kind={definition.kind} mapping={mapping} onApply={onApplySaved} />
      </Group>

      {problems.length > 0 && (
        <Alert color="red" role="alert" title={t("modules.importExport.mapping.problemsTitle")}>
          <List size="sm" spacing={4}>
            {problems.map((problem) => (
              <List.Item key={`${problem.type}-${"field" in problem ? problem.field : ""}-${"fields" in problem ? problem.fields.join() : ""}`}>
                {problemText(problem)}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}

      <Paper withBorder>
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label={t("modules.importExport.mapping.tableLabel")}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("modules.importExport.mapping.column")}</Table.Th>
                <Table.Th>{t("modules.importExport.mapping.sample")}</Table.Th>
                <Table.Th w={280}>{t("modules.importExport.mapping.field")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sheet.headers.map((header, column) => {
                const key = Object.hasOwn(mapping, header) ? mapping[header] : "";
                const field = key ? findField(definition, key) : undefined;
                return (
                  <Table.Tr key={header}>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Text fw={500} style={{ overflowWrap: "anywhere" }}>
                          {header}
                        </Text>
                        {!field && (
                          <Badge variant="light" color="gray" size="sm">
                            {t("modules.importExport.mapping.skipped")}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                        {samples(sheet, column) || "—"}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={t("modules.importExport.mapping.fieldLabel", { column: header })}
                        data={data}
                        value={key}
                        onChange={(value) => setField(header, value)}
                        allowDeselect={false}
                        searchable
                        description={field ? t(`modules.importExport.fieldTypes.${field.type}`) : undefined}
                        comboboxProps={{ withinPortal: true }}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Group>
        <Button variant="subtle" size="xs" onClick={onAutoMatch}>
          {t("modules.importExport.mapping.autoMatch")}
        </Button>
      </Group>
    </Stack>
  );
}
