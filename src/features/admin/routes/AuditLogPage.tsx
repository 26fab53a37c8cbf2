import { Alert, Anchor, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import {
  activityActorName,
  activityLabel,
  activitySentence,
  filterableActions,
  recordGroups,
  type RecordGroup,
} from "@/components/activity/activity-actions.ts";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { memberName, useOrganizationMembers } from "@/components/records/record-api.ts";
import { formatDateTime } from "@/lib/format.ts";
import { recordPath } from "@/modules/registry.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { useAuditLog } from "../audit-log/api/audit-log.ts";
import type { AuditEntry } from "../audit-log/api/schemas.ts";
import { auditActorName, isKnownTargetType } from "../audit-log/utils/actions.ts";
import { hasFilters, isInvalidRange, type AuditFilters } from "../audit-log/utils/filters.ts";
import { consoleErrorReason } from "../utils/console-errors.ts";

function isRecordGroup(type: string | null): type is RecordGroup {
  return (recordGroups as readonly (string | null)[]).includes(type);
}

/** admin/audit-log: what was done in the organization, by whom, newest first; filtered by who, action and dates. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<AuditFilters>({});
  const log = useAuditLog(useOrganizationScope(), filters);
  const members = useOrganizationMembers();
  const tableTitleId = useId();
  const entries = log.data?.pages.flat() ?? [];
  const filtered = hasFilters(filters);
  const invalidRange = isInvalidRange(filters);

  const actorOptions = useMemo(
    () => (members.data ?? []).map((member) => ({ value: member.id, label: memberName(member) })),
    [members.data],
  );
  const actionOptions = filterableActions().map(([group, actions]) => ({
    group: t(`activity.groups.${group}`),
    items: actions.map((action) => ({ value: action, label: activityLabel(action, (key) => t(key)) })),
  }));
  const set = (change: AuditFilters) => setFilters((current) => ({ ...current, ...change }));

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("admin.sections.auditLog.title")}</Title>
        <Text c="dimmed">{t("admin.sections.auditLog.description")}</Text>
      </Stack>
      <Card withBorder padding="lg" component="section" aria-label={t("auditLog.filters.label")}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          <Select
            label={t("auditLog.filters.actor")}
            placeholder={t("auditLog.filters.actorPlaceholder")}
            data={actorOptions}
            value={filters.actor ?? null}
            onChange={(actor) => set({ actor })}
            searchable
            clearable
            nothingFoundMessage={t("auditLog.filters.noMatch")}
          />
          <Select
            label={t("auditLog.filters.action")}
            placeholder={t("auditLog.filters.actionPlaceholder")}
            data={actionOptions}
            value={filters.action ?? null}
            onChange={(action) => set({ action })}
            searchable
            clearable
            maxDropdownHeight={320}
          />
          <TextInput
            type="date"
            label={t("auditLog.filters.from")}
            value={filters.from ?? ""}
            onChange={(event) => set({ from: event.currentTarget.value || null })}
          />
          <TextInput
            type="date"
            label={t("auditLog.filters.to")}
            value={filters.to ?? ""}
            onChange={(event) => set({ to: event.currentTarget.value || null })}
            error={invalidRange ? t("auditLog.filters.invalidRange") : undefined}
          />
        </SimpleGrid>
        {filtered && (
          <Group justify="flex-end" mt="sm">
            <Button variant="subtle" onClick={() => setFilters({})}>
              {t("auditLog.filters.clear")}
            </Button>
          </Group>
        )}
      </Card>
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
          <Text>{filtered ? t("auditLog.filters.noMatch") : t("auditLog.empty")}</Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table striped aria-labelledby={tableTitleId} aria-busy={log.isPlaceholderData}>
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
  const actor = activityActorName(
    { id: entry.actor?.id, name: auditActorName(entry.actor), deleted: entry.actor?.deleted },
    (key) => t(key),
  );
  const { target_type: type, target_id: id, target } = entry;
  const typeLabel = isRecordGroup(type) ? t(`activity.groups.${type}`) : isKnownTargetType(type) ? t(`auditLog.targets.${type}`) : null;
  const targetName = target?.name ?? (type === "user" ? t("activity.deletedUser") : t("activity.deletedRecord"));
  const path = target?.module ? recordPath(target.module, id) : null;
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: "nowrap" }}>
        <time dateTime={entry.created_at}>{formatDateTime(entry.created_at, i18n.resolvedLanguage)}</time>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{actor}</Text>
        {entry.actor?.email && actor !== entry.actor.email && (
          <Text size="xs" c="dimmed">
            {entry.actor.email}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{activitySentence(entry.action, actor, (key, options) => t(key, options ?? {}))}</Text>
      </Table.Td>
      <Table.Td>
        {id || target ? (
          <Stack gap={0}>
            {path ? (
              <Anchor component={Link} to={path} size="sm" style={{ overflowWrap: "anywhere" }}>
                {targetName}
              </Anchor>
            ) : (
              <Text size="sm" style={{ overflowWrap: "anywhere" }} c={target ? undefined : "dimmed"}>
                {targetName}
              </Text>
            )}
            {target?.email && target.email !== targetName && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                {target.email}
              </Text>
            )}
            {typeLabel && (
              <Text size="xs" c="dimmed">
                {typeLabel}
                {!target && ` · ${t("auditLog.deletedTarget")}`}
              </Text>
            )}
          </Stack>
        ) : (
          "—"
        )}
      </Table.Td>
    </Table.Tr>
  );
}
