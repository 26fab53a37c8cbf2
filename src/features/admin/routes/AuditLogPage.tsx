import { Alert, Button, Card, Code, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { useAuditLog } from "../audit-log/api/audit-log.ts";
import type { AuditEntry } from "../audit-log/api/schemas.ts";
import { auditActionLabel, auditActorName, isKnownTargetType } from "../audit-log/utils/actions.ts";
import { consoleErrorReason } from "../utils/console-errors.ts";
import { LoadError } from "@/components/LoadError.tsx";

/** admin/audit-log: what was done in the organization, by whom, newest first. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const log = useAuditLog(useOrganizationScope());
  const tableTitleId = useId();
  const entries = log.data?.pages.flat() ?? [];

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("admin.sections.auditLog.title")}</Title>
        <Text c="dimmed">{t("admin.sections.auditLog.description")}</Text>
      </Stack>
      <Card withBorder padding="lg" component="section" aria-labelledby={tableTitleId}>
        <Title order={2} size="h4" id={tableTitleId} mb="md">
          {t("auditLog.tableLabel")}
        </Title>
        {log.isPending ? (
          <LoadingScreen compact />
        ) : log.isError && entries.length === 0 ? (
          <LoadError
            title={t("auditLog.loadError")}
            detail={t(`auditLog.errors.${consoleErrorReason(log.error)}`)}
            onRetry={() => void log.refetch()}
          />
        ) : entries.length === 0 ? (
          <Text>{t("auditLog.empty")}</Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table striped aria-labelledby={tableTitleId}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t("auditLog.columns.time")}</Table.Th>
                    <Table.Th scope="col">{t("auditLog.columns.actor")}</Table.Th>
                    <Table.Th scope="col">{t("auditLog.columns.action")}</Table.Th>
                    <Table.Th scope="col">{t("auditLog.columns.target")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {entries.map((entry) => (
                    <AuditRow key={entry.id} entry={entry} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {log.isFetchNextPageError && (
              <Alert color="red" mt="md">
                {t(`auditLog.errors.${consoleErrorReason(log.error)}`)}
              </Alert>
            )}
            {log.hasNextPage && (
              <Group justify="center" mt="md">
                <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
                  {t("auditLog.loadMore")}
                </Button>
              </Group>
            )}
          </>
        )}
      </Card>
    </Stack>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation();
  const actor = auditActorName(entry.actor);
  const { target_type: type, target_id: id } = entry;
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: "nowrap" }}>
        <time dateTime={entry.created_at}>{formatDateTime(entry.created_at, i18n.resolvedLanguage)}</time>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{actor ?? t("auditLog.system")}</Text>
        {actor && entry.actor?.email && actor !== entry.actor.email && (
          <Text size="xs" c="dimmed">
            {entry.actor.email}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{auditActionLabel(entry.action, (key) => t(key))}</Table.Td>
      <Table.Td>
        {type ? (
          <Stack gap={0}>
            <Text size="sm">{isKnownTargetType(type) ? t(`auditLog.targets.${type}`) : type}</Text>
            {id && (
              <Code fz="xs" style={{ overflowWrap: "anywhere" }}>
                {id}
              </Code>
            )}
          </Stack>
        ) : (
          "—"
        )}
      </Table.Td>
    </Table.Tr>
  );
}
