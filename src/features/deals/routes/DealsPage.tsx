import { Badge, Button, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconPlus, IconTargetArrow } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { declaredColumn, type RecordListSpec } from "@/components/records/record-config.ts";
import { isStaleRecord, recordFailureKey } from "@/components/records/record-form.ts";
import { RecordListPage } from "@/components/records/RecordListPage.tsx";
import { linkColumn, recordPickerSources } from "@/components/records/record-links.ts";
import { readRecordLinks } from "@/components/records/related-records.ts";
import { SearchField } from "@/components/SearchField.tsx";
import { formatCalendarDate, formatMoney } from "@/lib/format.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { ModuleDenied } from "@/modules/ModuleDenied.tsx";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { dealRowSchema, useDealBoard, useLoadMoreCards, useMoveDeal, type BoardCard, type BoardFilters, type BoardStage, type DealRow } from "../api/deals.ts";
import { DealBoard, stageLabel } from "../components/DealBoard.tsx";
import { DealFormModal } from "../components/DealFormModal.tsx";
import { DealForecast } from "../components/DealForecast.tsx";
import { LostReasonModal } from "../components/LostReasonModal.tsx";

const views = ["board", "list", "forecast"] as const;
type View = (typeof views)[number];

/** The deals module: the pipeline as a board (default), a list on the record kit, and the weighted forecast. */
export function DealsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const view: View = (views as readonly string[]).includes(params.get("view") ?? "") ? (params.get("view") as View) : "board";
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.deals ?? {};
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
          <Title order={1}>{t("modules.deals.title")}</Title>
          <Text c="dimmed">{t("modules.deals.description")}</Text>
        </Stack>
        <Group gap="sm">
          <SegmentedControl
            aria-label={t("modules.deals.views.label")}
            value={view}
            onChange={(next) => setParams(next === "board" ? {} : { view: next }, { replace: true })}
            data={views.map((value) => ({ value, label: t(`modules.deals.views.${value}`) }))}
          />
          {allowed.create !== undefined && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              {t("modules.deals.newDeal")}
            </Button>
          )}
        </Group>
      </Group>
      {view === "board" && <BoardView />}
      {view === "list" && <DealList />}
      {view === "forecast" && <DealForecast />}
      {creating && <DealFormModal customerId={links.customer_id} contactId={links.contact_id} onClose={closeForm} />}
    </Stack>
  );
}

function BoardView() {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const permissions = useMyPermissions();
  const editScope = permissions.data?.permissions.deals?.edit;
  const [mine, setMine] = useState(false);
  const [searchInput, setSearchInput] = useState("");
  const [search] = useDebouncedValue(searchInput.trim(), 300);
  const filters: BoardFilters = { ...(mine ? { owner_id: "me" } : {}), ...(search ? { search } : {}) };
  const board = useDealBoard(filters);
  const move = useMoveDeal(filters);
  const more = useLoadMoreCards(filters);
  const [losing, setLosing] = useState<{ card: BoardCard; stage: BoardStage } | null>(null);

  if (board.error instanceof RpcError && board.error.code === "permission_denied") return <ModuleDenied module="deals" />;
  if (board.isPending) return <LoadingScreen compact />;
  if (board.isError) return <LoadError title={t("modules.deals.board.loadError")} onRetry={() => void board.refetch()} />;

  const canMove = (card: BoardCard) => editScope === "all" || (editScope === "own" && card.owner_id === session.user.id);
  const send = (card: BoardCard, stage: BoardStage, lostReason?: string) =>
    move.mutate(
      { card, stage: stage.key, lostReason },
      {
        onSuccess: () => {
          setLosing(null);
          notifySuccess(t("modules.deals.board.moved", { title: card.title, stage: stageLabel(stage) }));
        },
        onError: (error) => {
          setLosing(null);
          notifyFailure(t("modules.deals.board.moveFailed"), isStaleRecord(error) ? t("modules.deals.board.stale") : t(recordFailureKey(error)));
        },
      },
    );
  const onMove = (card: BoardCard, stage: BoardStage) => {
    if (stage.outcome === "lost") setLosing({ card, stage });
    else send(card, stage);
  };

  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SearchField label={t("modules.deals.filters.search")} placeholder={t("modules.deals.filters.searchPlaceholder")} value={searchInput} onChange={setSearchInput} />
        <SegmentedControl
          aria-label={t("modules.deals.filters.owner")}
          value={mine ? "mine" : "everyone"}
          onChange={(value) => setMine(value === "mine")}
          data={[
            { value: "everyone", label: t("modules.deals.filters.everyone") },
            { value: "mine", label: t("modules.deals.filters.mine") },
          ]}
        />
        {board.data.scope === "own" && (
          <Badge variant="light" color="gray">
            {t("modules.deals.board.ownOnly")}
          </Badge>
        )}
      </Group>
      <DealBoard
        board={board.data}
        canMove={canMove}
        onMove={onMove}
        loadingMore={more.isPending ? more.variables?.stage : null}
        onLoadMore={(stage) => {
          if (stage.next_cursor === null) return;
          more.mutate(
            { stage: stage.key, cursor: stage.next_cursor },
            { onError: (error) => notifyFailure(t("modules.deals.board.loadMoreFailed"), t(recordFailureKey(error))) },
          );
        }}
      />
      {losing && (
        <LostReasonModal
          title={losing.card.title}
          stage={stageLabel(losing.stage)}
          saving={move.isPending}
          onCancel={() => setLosing(null)}
          onConfirm={(reason) => send(losing.card, losing.stage, reason)}
        />
      )}
    </Stack>
  );
}

function DealList() {
  const { t, i18n } = useTranslation();
  const settings = useOrganizationSettings();
  const stages = settings.data?.deal_stages ?? [];
  const stageName = (key: string) => stages.find((stage) => stage.key === key)?.name ?? key;
  const stageOptions = stages.map((stage) => ({ value: stage.key, label: stage.name }));
  const config: RecordListSpec<DealRow> = {
    module: "deals",
    row: dealRowSchema,
    columns: [
      declaredColumn("title"),
      linkColumn<DealRow>({ key: "customer_id", module: "customers" }),
      declaredColumn("stage", { render: (row) => stageName(row.stage), exportValue: (row) => stageName(row.stage) }),
      declaredColumn("amount", {
        render: (row) => formatMoney(row.amount, row.currency, i18n.resolvedLanguage),
        exportType: "money",
        currencyColumn: "currency",
      }),
      declaredColumn("probability", { render: (row) => (row.probability === null ? "—" : `%${row.probability}`), exportType: "number" }),
      declaredColumn("expected_close_date", {
        render: (row) => (row.expected_close_date ? formatCalendarDate(row.expected_close_date, i18n.resolvedLanguage) : "—"),
        exportType: "date",
      }),
      { key: "owner_name", label: t("modules.deals.list.owner") },
      { key: "updated_at", label: t("modules.deals.list.updatedAt"), sort: "updated_at" },
      declaredColumn("currency", { hidden: true }),
      declaredColumn("source", { hidden: true }),
      declaredColumn("tags", { hidden: true }),
      { key: "created_at", label: t("records.list.createdAt"), sort: "created_at", hidden: true },
    ],
    filters: [
      { key: "stage", label: t("modules.deals.fields.stage"), options: stageOptions },
      { key: "customer_id", label: t("modules.deals.fields.customer_id"), picker: recordPickerSources.customers },
    ],
    statusField: { key: "stage", label: t("modules.deals.fields.stage"), options: stageOptions.filter((option) => stages.find((stage) => stage.key === option.value)?.outcome !== "lost") },
    defaultSort: "updated_at",
    defaultDescending: true,
    title: t("modules.deals.title"),
    description: t("modules.deals.description"),
    searchPlaceholder: t("modules.deals.list.searchPlaceholder"),
    emptyTitle: t("modules.deals.emptyTitle"),
    emptyDescription: t("modules.deals.emptyDescription"),
    loadError: t("modules.deals.list.loadError"),
    listLabel: t("modules.deals.list.label"),
    totalText: (count, capped) => t(capped ? "modules.deals.list.totalCapped" : "modules.deals.list.total", { count }),
    noMatch: t("modules.deals.list.noMatch"),
    icon: <IconTargetArrow size={28} aria-hidden />,
    titleOf: (row) => row.title,
    detailPath: (row) => `/deals/${row.id}`,
    headless: true,
  };
  return <RecordListPage config={config} />;
}
