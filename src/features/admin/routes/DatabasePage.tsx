import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconDatabaseCog } from "@tabler/icons-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useOrganizationTables, useProvisionTables } from "../database/api/database.ts";
import type { OrganizationTables } from "../database/api/schemas.ts";
import { formatBytes, formatCount, templateStatus, templateStatusColor } from "../database/utils/database.ts";
import { consoleErrorReason } from "../utils/console-errors.ts";
import { LoadError } from "@/components/LoadError.tsx";

/** admin/database: the organization's own tables, their row counts and sizes, and the template's state. */
export function DatabasePage() {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const context = useCurrentUserContext(session.user.id);
  const organization = context.data?.organization ?? null;
  const scope = useOrganizationScope();
  const tables = useOrganizationTables(scope);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("admin.sections.database.title")}</Title>
        <Text c="dimmed">{t("admin.sections.database.description")}</Text>
      </Stack>
      {tables.isPending ? (
        <LoadingScreen compact />
      ) : tables.isError ? (
        <LoadError
          title={t("adminDatabase.loadError")}
          detail={t(`adminDatabase.errors.${consoleErrorReason(tables.error)}`)}
          onRetry={() => void tables.refetch()}
        />
      ) : (
        <DatabaseView scope={scope} slug={organization?.slug} data={tables.data} />
      )}
    </Stack>
  );
}

interface ViewProps {
  scope: OrganizationScope;
  slug: string | undefined;
  data: OrganizationTables;
}

function DatabaseView({ scope, slug, data }: ViewProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const provision = useProvisionTables(scope);
  const statusTitleId = useId();
  const tablesTitleId = useId();
  const status = templateStatus(data);

  const runProvisioning = () => {
    if (!slug) return;
    provision.mutate(slug, {
      onSuccess: (answer) =>
        notifySuccess(t("adminDatabase.provisioned", { version: answer.template_version })),
      onError: (error) =>
        notifyFailure(t("adminDatabase.provisionFailed"), t(`adminDatabase.errors.${consoleErrorReason(error)}`)),
    });
  };

  return (
    <>
      <Card withBorder padding="lg" component="section" aria-labelledby={statusTitleId}>
        <Group justify="space-between" align="flex-start" mb="md">
          <Title order={2} size="h4" id={statusTitleId}>
            {t("adminDatabase.statusTitle")}
          </Title>
          <Badge color={templateStatusColor[status]} variant="dot" size="lg" tt="none">
            {t(`adminDatabase.status.${status}`)}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" component="dl" m={0}>
          <Fact term={t("adminDatabase.schemaName")} value={data.schema_name ?? t("adminDatabase.none")} mono={Boolean(data.schema_name)} />
          <Fact
            term={t("adminDatabase.templateVersion")}
            value={t("adminDatabase.versionOf", { version: data.template_version, latest: data.latest_template_version })}
          />
          <Fact
            term={t("adminDatabase.lastMigratedAt")}
            value={data.last_migrated_at ? formatDateTime(data.last_migrated_at, language) : t("adminDatabase.never")}
          />
        </SimpleGrid>
        {data.last_migration_error && (
          <Alert color="red" mt="md" title={t("adminDatabase.lastMigrationError")}>
            <Text size="sm" ff="monospace" style={{ overflowWrap: "anywhere" }}>
              {data.last_migration_error}
            </Text>
          </Alert>
        )}
        {data.needs_provisioning && (
          <Group mt="md">
            <Button
              leftSection={<IconDatabaseCog size={18} aria-hidden />}
              onClick={runProvisioning}
              loading={provision.isPending}
              disabled={!slug}
            >
              {t(data.provisioned ? "adminDatabase.upgrade" : "adminDatabase.provision")}
            </Button>
          </Group>
        )}
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby={tablesTitleId}>
        <Stack gap={2} mb="md">
          <Title order={2} size="h4" id={tablesTitleId}>
            {t("adminDatabase.tablesTitle")}
          </Title>
          <Text size="sm" c="dimmed">
            {t("adminDatabase.tableCount", { count: data.tables.length })}
          </Text>
        </Stack>
        {data.tables.length === 0 ? (
          <Text>{t("adminDatabase.noTables")}</Text>
        ) : (
          <Table.ScrollContainer minWidth={360}>
            <Table striped aria-labelledby={tablesTitleId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t("adminDatabase.columns.name")}</Table.Th>
                  <Table.Th scope="col" style={{ textAlign: "right" }}>
                    {t("adminDatabase.columns.rows")}
                  </Table.Th>
                  <Table.Th scope="col" style={{ textAlign: "right" }}>
                    {t("adminDatabase.columns.size")}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.tables.map((table) => (
                  <Table.Tr key={table.name}>
                    <Table.Td ff="monospace">{table.name}</Table.Td>
                    <Table.Td style={{ textAlign: "right" }}>{formatCount(table.row_count, language)}</Table.Td>
                    <Table.Td style={{ textAlign: "right" }}>{formatBytes(table.total_bytes, language)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </>
  );
}

function Fact({ term, value, mono = false }: { term: string; value: string; mono?: boolean }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed">
        {term}
      </Text>
      <Text component="dd" m={0} fw={500} ff={mono ? "monospace" : undefined}>
        {value}
      </Text>
    </div>
  );
}
