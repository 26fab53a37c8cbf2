import { Button, Group } from "@mantine/core";
import { IconFileInvoice, IconPackage, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { declaredColumn, type RecordListSpec } from "@/components/records/record-config.ts";
import { linkColumn, recordPickerSources } from "@/components/records/record-links.ts";
import { RecordListPage } from "@/components/records/RecordListPage.tsx";
import { formatCalendarDate } from "@/lib/format.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { quoteRowSchema, quoteStatuses, type QuoteRow } from "../api/quotes.ts";
import { ProductsDrawer } from "../components/ProductsDrawer.tsx";
import { QuoteStatusBadge } from "../components/QuoteStatusBadge.tsx";
import { formatAmount } from "../utils/quote-format.ts";

const nowrap = { whiteSpace: "nowrap" } as const;

/** The quotes module: the quotes the role may see, on the record kit; products for whoever edits every quote. */
export function QuotesPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.quotes ?? {};
  const [productsOpen, setProductsOpen] = useState(false);
  const statusOptions = quoteStatuses.map((status) => ({ value: status, label: t(`modules.quotes.status.${status}`) }));
  const date = (value: string | null | undefined) => (value ? formatCalendarDate(value, language) : "—");
  const currencyOf = (row: QuoteRow) => row.currency ?? "TRY";

  const config: RecordListSpec<QuoteRow> = {
    module: "quotes",
    row: quoteRowSchema,
    columns: [
      declaredColumn("quote_number"),
      declaredColumn("revision", { render: (row) => String(row.revision ?? 1), exportValue: (row) => row.revision ?? 1, exportType: "number" }),
      linkColumn<QuoteRow>({ key: "customer_id", module: "customers" }),
      linkColumn<QuoteRow>({ key: "deal_id", module: "deals", hidden: true }),
      declaredColumn("status", {
        render: (row) => <QuoteStatusBadge status={row.status} />,
        exportValue: (row) => t(`modules.quotes.status.${row.status}`),
      }),
      declaredColumn("quote_date", { render: (row) => date(row.quote_date), exportType: "date" }),
      declaredColumn("valid_until", { render: (row) => date(row.valid_until), exportType: "date" }),
      declaredColumn("grand_total", {
        render: (row) => <span style={nowrap}>{formatAmount(row.grand_total, currencyOf(row), language)}</span>,
        exportType: "money",
        currencyColumn: "currency",
      }),
      declaredColumn("grand_total_try", {
        render: (row) => <span style={nowrap}>{formatAmount(row.grand_total_try, "TRY", language)}</span>,
        exportType: "money",
      }),
      { key: "owner_name", label: t("modules.quotes.list.owner") },
      declaredColumn("currency", { hidden: true, render: currencyOf, exportValue: currencyOf }),
      { key: "updated_at", label: t("modules.quotes.list.updatedAt"), sort: "updated_at", hidden: true },
      { key: "created_at", label: t("records.list.createdAt"), sort: "created_at", hidden: true },
    ],
    filters: [
      { key: "status", label: t("modules.quotes.fields.status"), options: statusOptions },
      { key: "customer_id", label: t("modules.quotes.fields.customer_id"), picker: recordPickerSources.customers },
    ],
    // Older revisions are history: the quote's page lists them.
    definingFilters: { is_latest: true },
    defaultSort: "updated_at",
    defaultDescending: true,
    title: t("modules.quotes.title"),
    description: t("modules.quotes.description"),
    searchPlaceholder: t("modules.quotes.list.searchPlaceholder"),
    emptyTitle: t("modules.quotes.emptyTitle"),
    emptyDescription: t("modules.quotes.emptyDescription"),
    loadError: t("modules.quotes.list.loadError"),
    listLabel: t("modules.quotes.list.label"),
    totalText: (count, capped) => t(capped ? "modules.quotes.list.totalCapped" : "modules.quotes.list.total", { count }),
    noMatch: t("modules.quotes.list.noMatch"),
    icon: <IconFileInvoice size={28} aria-hidden />,
    titleOf: (row) => row.quote_number ?? t("modules.quotes.untitled"),
    detailPath: (row) => `/quotes/${row.id}`,
    actions: (
      <Group gap="sm">
        {allowed.edit === "all" && (
          <Button variant="default" leftSection={<IconPackage size={16} aria-hidden />} onClick={() => setProductsOpen(true)}>
            {t("modules.quotes.products.open")}
          </Button>
        )}
        {allowed.create !== undefined && (
          <Button component={Link} to="/quotes/new" leftSection={<IconPlus size={16} aria-hidden />}>
            {t("modules.quotes.newQuote")}
          </Button>
        )}
      </Group>
    ),
  };

  return (
    <>
      <RecordListPage config={config} />
      {allowed.edit === "all" && <ProductsDrawer opened={productsOpen} onClose={() => setProductsOpen(false)} />}
    </>
  );
}
