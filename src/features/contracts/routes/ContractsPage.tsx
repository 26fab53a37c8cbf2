import { Anchor, Badge, Button, Group, SegmentedControl, Select, Stack, Table, Text, Title } from "@mantine/core";
import { IconContract, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { declaredColumn, type RecordListSpec } from "@/components/records/record-config.ts";
import { linkColumn, linkedRecord, recordPickerSources } from "@/components/records/record-links.ts";
import { LinkedRecordName } from "@/components/records/LinkedRecordName.tsx";
import { RecordListPage } from "@/components/records/RecordListPage.tsx";
import { readRecordLinks } from "@/components/records/related-records.ts";
import { formatCalendarDate, formatMoney } from "@/lib/format.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { ModuleDenied } from "@/modules/ModuleDenied.tsx";
import { contractRowSchema, useContractsEnding, type ContractRow, type EndingContract } from "../api/contracts.ts";
import { contractStatuses, contractTypes } from "../utils/contract-fields.ts";
import { ContractStatusBadge } from "../components/ContractBits.tsx";
import { ContractFormModal } from "../components/ContractFormModal.tsx";

const views = ["all", "ending"] as const;
type View = (typeof views)[number];
const endingWindows = [30, 60, 90, 180] as const;

/** The contracts module: every contract on the record kit, and those ending soon (list_contracts_ending). */
export function ContractsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const view: View = params.get("view") === "ending" ? "ending" : "all";
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.contracts ?? {};
  // ?new=1 opens the form (with ?customer_id=… and the other links when another record's page started it).
  const [creatingHere, setCreating] = useState(false);
  const creatingFromLink = params.get("new") === "1";
  const creating = (creatingHere || creatingFromLink) && allowed.create !== undefined;
  const links = readRecordLinks(params);
  const closeForm = () => {
    setCreating(false);
    if (creatingFromLink) setParams({}, { replace: true });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: "1 1 16rem" }}>
          <Title order={1}>{t("modules.contracts.title")}</Title>
          <Text c="dimmed">{t("modules.contracts.description")}</Text>
        </Stack>
        <Group gap="sm">
          <SegmentedControl
            aria-label={t("modules.contracts.views.label")}
            value={view}
            onChange={(next) => setParams(next === "all" ? {} : { view: next }, { replace: true })}
            data={views.map((value) => ({ value, label: t(`modules.contracts.views.${value}`) }))}
          />
          {allowed.create !== undefined && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              {t("modules.contracts.newContract")}
            </Button>
          )}
        </Group>
      </Group>
      {view === "all" ? <ContractList /> : <EndingSoon />}
      {creating && <ContractFormModal links={links} onClose={closeForm} />}
    </Stack>
  );
}

function ContractList() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const date = (value: string | null) => (value ? formatCalendarDate(value, language) : "—");
  const typeLabel = (row: ContractRow) => t(`modules.contracts.types.${row.contract_type}`);
  const autoRenewLabel = (row: ContractRow) => (row.auto_renew ? t("modules.contracts.list.autoRenew") : null);
  const config: RecordListSpec<ContractRow> = {
    module: "contracts",
    row: contractRowSchema,
    columns: [
      declaredColumn("contract_number"),
      declaredColumn("title"),
      linkColumn<ContractRow>({ key: "customer_id", module: "customers" }),
      declaredColumn("contract_type", { render: typeLabel, exportValue: typeLabel }),
      declaredColumn("status", {
        render: (row) => <ContractStatusBadge status={row.status} />,
        exportValue: (row) => t(`modules.contracts.statuses.${row.status}`),
      }),
      declaredColumn("start_date", { render: (row) => date(row.start_date), exportType: "date" }),
      declaredColumn("end_date", { render: (row) => date(row.end_date), exportType: "date" }),
      declaredColumn("value", { render: (row) => formatMoney(Number(row.value), row.currency, language), exportType: "money", currencyColumn: "currency" }),
      declaredColumn("currency", { hidden: true }),
      declaredColumn("auto_renew", { hidden: true, render: (row) => autoRenewLabel(row) ?? "—", exportValue: autoRenewLabel }),
      { key: "owner_name", label: t("modules.contracts.list.owner"), hidden: true },
      { key: "updated_at", label: t("modules.contracts.list.updatedAt"), sort: "updated_at", hidden: true },
      { key: "created_at", label: t("records.list.createdAt"), sort: "created_at", hidden: true },
    ],
    filters: [
      { key: "status", label: t("modules.contracts.fields.status"), options: contractStatuses.map((status) => ({ value: status, label: t(`modules.contracts.statuses.${status}`) })) },
      { key: "contract_type", label: t("modules.contracts.fields.contract_type"), options: contractTypes.map((type) => ({ value: type, label: t(`modules.contracts.types.${type}`) })) },
      { key: "customer_id", label: t("modules.contracts.fields.customer_id"), picker: recordPickerSources.customers },
    ],
    defaultSort: "updated_at",
    defaultDescending: true,
    title: t("modules.contracts.title"),
    description: t("modules.contracts.description"),
    searchPlaceholder: t("modules.contracts.list.searchPlaceholder"),
    emptyTitle: t("modules.contracts.emptyTitle"),
    emptyDescription: t("modules.contracts.emptyDescription"),
    loadError: t("modules.contracts.list.loadError"),
    listLabel: t("modules.contracts.list.label"),
    totalText: (count, capped) => t(capped ? "modules.contracts.list.totalCapped" : "modules.contracts.list.total", { count }),
    noMatch: t("modules.contracts.list.noMatch"),
    icon: <IconContract size={28} aria-hidden />,
    titleOf: (row) => row.contract_number ?? row.title,
    detailPath: (row) => `/contracts/${row.id}`,
    headless: true,
  };
  return <RecordListPage config={config} />;
}

/** Active contracts ending within the chosen window, soonest first, with their days left and notice date. */
function EndingSoon() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const [days, setDays] = useState<number>(60);
  const ending = useContractsEnding(days);

  if (ending.error instanceof RpcError && ending.error.code === "permission_denied") return <ModuleDenied module="contracts" />;
  const left = (contract: EndingContract) =>
    contract.days_left < 0
      ? t("modules.contracts.ending.overdue")
      : contract.days_left === 0
        ? t("modules.contracts.ending.endsToday")
        : t("modules.contracts.ending.daysLeft", { count: contract.days_left });

  return (
    <Stack gap="sm">
      <Group>
        <Select
          label={t("modules.contracts.ending.within")}
          allowDeselect={false}
          w={200}
          data={endingWindows.map((window) => ({ value: String(window), label: t("modules.contracts.ending.days", { count: window }) }))}
          value={String(days)}
          onChange={(value) => value && setDays(Number(value))}
        />
      </Group>
      {ending.isPending ? (
        <LoadingScreen compact />
      ) : ending.isError ? (
        <LoadError title={t("modules.contracts.ending.loadError")} onRetry={() => void ending.refetch()} />
      ) : ending.data.contracts.length === 0 ? (
        <Text c="dimmed">{t("modules.contracts.ending.empty")}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640} type="native">
          <Table striped aria-label={t("modules.contracts.ending.label")}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t("modules.contracts.fields.contract_number")}</Table.Th>
                <Table.Th scope="col">{t("modules.contracts.fields.customer_id")}</Table.Th>
                <Table.Th scope="col">{t("modules.contracts.fields.end_date")}</Table.Th>
                <Table.Th scope="col">{t("modules.contracts.fields.value")}</Table.Th>
                <Table.Th scope="col">{t("modules.contracts.list.owner")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ending.data.contracts.map((contract) => (
                <Table.Tr key={contract.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/contracts/${contract.id}`}>
                      {contract.contract_number ?? contract.title}
                    </Anchor>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                      {contract.title}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <LinkedRecordName module="customers" linked={linkedRecord(contract, "customer_id")} />
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <Text size="sm">{formatCalendarDate(contract.end_date, language)}</Text>
                      <Group gap={4}>
                        <Badge variant="dot" color={contract.days_left <= 7 ? "red" : "orange"}>
                          {left(contract)}
                        </Badge>
                        {contract.auto_renew && (
                          <Badge variant="dot" color="blue">
                            {t("modules.contracts.list.autoRenew")}
                          </Badge>
                        )}
                      </Group>
                      <Text size="xs" c="dimmed">
                        {t("modules.contracts.ending.notice", { date: formatCalendarDate(contract.notice_date, language) })}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>{formatMoney(Number(contract.value), contract.currency, language)}</Table.Td>
                  <Table.Td>{contract.owner_name ?? "—"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
