import { EmptyState, Stack, Text, Title } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { IconBuilding } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ListPagination } from "@/components/ListPagination.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { SearchField } from "@/components/SearchField.tsx";
import { RpcError } from "@/lib/rpc.ts";
import { ModuleDenied } from "@/modules/RequireModule.tsx";
import { useCustomerList } from "../api/customers.ts";
import { CustomersTable } from "../components/CustomersTable.tsx";
import { customerPageCount, initialCustomerListState, sortCustomersBy, type CustomerListState } from "../utils/list-params.ts";
import { LoadError } from "@/components/LoadError.tsx";

const SEARCH_DEBOUNCE_MS = 300;

/** The customers module: the customers the role may see, searched, sorted, page by page. */
export function CustomersPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<CustomerListState>(initialCustomerListState);
  const [searchInput, setSearchInput] = useState("");
  const customers = useCustomerList(state);

  // The typed search reaches the list once typing pauses.
  const applySearch = useDebouncedCallback((search: string) => {
    setState((current) => (current.search === search ? current : { ...current, search, page: 1 }));
  }, SEARCH_DEBOUNCE_MS);
  const onSearch = (search: string) => {
    setSearchInput(search);
    applySearch(search);
  };

  const refused = customers.error instanceof RpcError && customers.error.code === "permission_denied";
  if (refused) return <ModuleDenied module="customers" />;

  const total = customers.data?.total ?? 0;
  const searching = state.search.trim() !== "";

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("modules.customers.title")}</Title>
        <Text c="dimmed">{t("modules.customers.description")}</Text>
      </Stack>

      <SearchField
        label={t("modules.customers.list.search")}
        placeholder={t("modules.customers.list.searchPlaceholder")}
        value={searchInput}
        onChange={onSearch}
      />

      {customers.isPending && <LoadingScreen compact />}
      {customers.isError && (
        <LoadError title={t("modules.customers.list.loadError")} onRetry={() => void customers.refetch()} />
      )}
      {customers.isSuccess && total === 0 && !searching && (
        <EmptyState icon={<IconBuilding size={28} aria-hidden />} withIndicatorBackground py="xl">
          <EmptyState.Title order={2}>{t("modules.customers.emptyTitle")}</EmptyState.Title>
          <EmptyState.Description>{t("modules.customers.emptyDescription")}</EmptyState.Description>
        </EmptyState>
      )}
      {customers.isSuccess && (total > 0 || searching) && (
        <Stack gap="sm">
          <Text size="sm" aria-live="polite">
            {t("modules.customers.list.total", { count: total })}
            {customers.data.scope === "own" && ` · ${t("modules.customers.list.ownOnly")}`}
          </Text>
          {customers.data.customers.length === 0 ? (
            <Text>{t("modules.customers.list.noMatch")}</Text>
          ) : (
            <CustomersTable
              customers={customers.data.customers}
              state={state}
              onSort={(column) => setState((current) => sortCustomersBy(current, column))}
            />
          )}
          <ListPagination
            pages={customerPageCount(total)}
            page={state.page}
            onChange={(page) => setState((current) => ({ ...current, page }))}
          />
        </Stack>
      )}
    </Stack>
  );
}
