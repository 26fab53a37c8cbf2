import { Alert, Badge, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { DuplicateReason } from "./record-duplicates.ts";

/** One likely duplicate as the warning lists it. */
export interface ShownDuplicate {
  id: string;
  title: string;
  /** A line of what identifies it (tax number, email, phone, city...). */
  details: string;
  reasons: readonly DuplicateReason[];
}

interface Props {
  /** The module's texts: the warning's title and description, the list's accessible name. */
  title: string;
  description: string;
  listLabel: string;
  duplicates: readonly ShownDuplicate[];
  detailPath(id: string): string;
  /** True while the record is being created. */
  creating: boolean;
  /** The existing record is opened (the form closes). */
  onOpen(): void;
  onBack(): void;
  onCreateAnyway(): void;
  onCreateAndMerge(id: string): void;
}

/**
 * The warning a create form shows instead of saving at once: the likely duplicates with
 * their reasons, each to open or to merge with once created; or create anyway, or go back.
 */
export function RecordDuplicates({
  title,
  description,
  listLabel,
  duplicates,
  detailPath,
  creating,
  onOpen,
  onBack,
  onCreateAnyway,
  onCreateAndMerge,
}: Props) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Alert color="yellow" title={title}>
        {description}
      </Alert>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label={listLabel}>
        {duplicates.map((duplicate) => (
          <Paper component="li" key={duplicate.id} withBorder p="sm">
            <Group justify="space-between" gap="sm">
              <Stack gap={4} style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: "anywhere" }}>
                  {duplicate.title}
                </Text>
                <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                  {duplicate.details}
                </Text>
                <Group gap={4}>
                  {duplicate.reasons.map((reason) => (
                    <Badge key={reason} size="sm" variant="dot" color="orange">
                      {t(`records.duplicates.reasons.${reason}`)}
                    </Badge>
                  ))}
                </Group>
              </Stack>
              <Group gap="xs">
                <Button component={Link} to={detailPath(duplicate.id)} variant="default" size="xs" onClick={onOpen}>
                  {t("records.duplicates.open")}
                </Button>
                <Button variant="default" size="xs" loading={creating} onClick={() => onCreateAndMerge(duplicate.id)}>
                  {t("records.duplicates.createAndMerge")}
                </Button>
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          {t("records.duplicates.back")}
        </Button>
        <Button loading={creating} onClick={onCreateAnyway}>
          {t("records.duplicates.createAnyway")}
        </Button>
      </Group>
    </Stack>
  );
}
