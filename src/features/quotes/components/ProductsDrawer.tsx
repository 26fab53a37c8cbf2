import { ActionIcon, Autocomplete, Button, Checkbox, Drawer, Group, NativeSelect, Paper, Select, SimpleGrid, Stack, Switch, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from "@mantine/core";
import { IconPencil, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { StaleRecordAlert } from "@/components/records/StaleRecordAlert.tsx";
import { RpcError } from "@/lib/rpc.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { useProducts, useSaveProduct, useSetProductActive, type Product } from "../api/quotes.ts";
import { formatAmount, formatRate } from "../utils/quote-format.ts";
import { canonicalRate, decimalInputText, normalizeDecimal, quoteErrorsOf, unitSuggestions, vatRateOptions } from "../utils/quote-form.ts";
import { quoteFailureKey } from "./QuoteEditor.tsx";

/**
 * The organization's product list (for those who may edit every quote): search, the inactive
 * ones on request, a new product or a change to one, and (de)activation. Quotes pick from
 * the active products.
 */
export function ProductsDrawer({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const [includeInactive, setIncludeInactive] = useState(false);
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<Product | "new" | null>(null);
  const products = useProducts(includeInactive);
  const setActive = useSetProductActive();
  const folded = search.trim().toLocaleLowerCase("tr");
  const shown = (products.data ?? []).filter((product) => folded === "" || product.name.toLocaleLowerCase("tr").includes(folded));

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="xl" title={t("modules.quotes.products.title")}
      closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <Stack gap="md">
        <Text c="dimmed" size="sm">
          {t("modules.quotes.products.description")}
        </Text>
        {editing ? (
          <ProductForm key={editing === "new" ? "new" : editing.id} product={editing === "new" ? null : editing} onDone={() => setEditing(null)} />
        ) : (
          <Group justify="space-between" align="flex-end" gap="sm">
            <TextInput label={t("modules.quotes.products.search")} type="search" value={search} onChange={(event) => setSearch(event.currentTarget.value)} style={{ flex: "1 1 12rem" }} />
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing("new")}>
              {t("modules.quotes.products.new")}
            </Button>
          </Group>
        )}
        <Checkbox label={t("modules.quotes.products.showInactive")} checked={includeInactive} onChange={(event) => setIncludeInactive(event.currentTarget.checked)} />
        {products.isPending && <LoadingScreen compact />}
        {products.isError && <LoadError title={t("modules.quotes.products.loadError")} onRetry={() => void products.refetch()} />}
        {products.isSuccess && shown.length === 0 && <Text c="dimmed">{t("modules.quotes.products.empty")}</Text>}
        {products.isSuccess && shown.length > 0 && (
          <Table.ScrollContainer minWidth={520} type="native">
            <Table striped aria-label={t("modules.quotes.products.tableLabel")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t("modules.quotes.products.name")}</Table.Th>
                  <Table.Th scope="col">{t("modules.quotes.products.unit")}</Table.Th>
                  <Table.Th scope="col" ta="right">{t("modules.quotes.products.unit_price")}</Table.Th>
                  <Table.Th scope="col">{t("modules.quotes.products.vat_rate")}</Table.Th>
                  <Table.Th scope="col">{t("modules.quotes.products.active")}</Table.Th>
                  <Table.Th scope="col"><VisuallyHidden>{t("records.detail.actions")}</VisuallyHidden></Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((product) => (
                  <Table.Tr key={product.id}>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{product.name}</Table.Td>
                    <Table.Td>{product.unit ?? "—"}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>{formatAmount(product.unit_price, product.currency, language)}</Table.Td>
                    <Table.Td>{formatRate(product.vat_rate, language)}</Table.Td>
                    <Table.Td>
                      <Switch
                        aria-label={t(product.active ? "modules.quotes.products.deactivate" : "modules.quotes.products.activate", { name: product.name })}
                        checked={product.active}
                        disabled={setActive.isPending}
                        onChange={(event) =>
                          setActive.mutate(
                            { id: product.id, active: event.currentTarget.checked },
                            { onError: (error) => notifyFailure(t("modules.quotes.products.failed"), t(quoteFailureKey(error))) },
                          )
                        }
                        label={product.active ? t("modules.quotes.products.active") : t("modules.quotes.products.inactive")}
                      />
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon variant="subtle" aria-label={t("modules.quotes.products.edit", { name: product.name })} onClick={() => setEditing(product)}>
                        <IconPencil size={16} aria-hidden />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Drawer>
  );
}

const knownCurrencies = ["TRY", "USD", "EUR", "GBP"];

function ProductForm({ product, onDone }: { product: Product | null; onDone(): void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const settings = useOrganizationSettings();
  const save = useSaveProduct();
  const [base, setBase] = useState(product);
  const [name, setName] = useState(product?.name ?? "");
  const [unit, setUnit] = useState(product?.unit ?? "adet");
  const [price, setPrice] = useState(decimalInputText(product?.unit_price, language));
  const [currency, setCurrency] = useState(product?.currency ?? settings.data?.default_currency ?? "TRY");
  const [vatRate, setVatRate] = useState(canonicalRate(product?.vat_rate ?? String(settings.data?.default_vat_rate ?? 20)));
  const [description, setDescription] = useState(product?.description ?? "");
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const organizationRates = (settings.data as { vat_rates?: unknown } | undefined)?.vat_rates;
  const rates = vatRateOptions(Array.isArray(organizationRates) ? (organizationRates as (string | number)[]) : [], []);
  if (!rates.includes(vatRate)) rates.push(vatRate);
  const normalisedPrice = normalizeDecimal(price, language);
  const nameError = tried && name.trim() === "" ? t("modules.quotes.products.nameRequired") : serverErrors.name ? t("modules.quotes.cellErrors.invalid") : undefined;
  const priceError = tried && (normalisedPrice === null || normalisedPrice === "" || normalisedPrice.startsWith("-")) ? t("modules.quotes.products.priceInvalid") : serverErrors.unit_price ? t("modules.quotes.cellErrors.invalid") : undefined;

  return (
    <Paper withBorder p="md" component="form" aria-labelledby="product-form-title" noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (name.trim() === "" || normalisedPrice === null || normalisedPrice === "" || normalisedPrice.startsWith("-")) return;
        save.mutate(
          {
            id: base?.id ?? null,
            values: { name: name.trim(), unit: unit.trim() || null, unit_price: normalisedPrice, currency, vat_rate: vatRate, description: description.trim() || null },
            updatedAt: base?.updated_at ?? null,
          },
          {
            onSuccess: () => {
              notifySuccess(t("modules.quotes.products.saved"));
              onDone();
            },
            onError: (error) => {
              if (error instanceof RpcError && error.code === "stale_record") {
                setStale(true);
                return;
              }
              setServerErrors(quoteErrorsOf(error) ?? {});
              notifyFailure(t("modules.quotes.products.failed"), t(quoteFailureKey(error)));
            },
          },
        );
      }}
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id="product-form-title">
          {product ? t("modules.quotes.products.formTitleEdit") : t("modules.quotes.products.formTitleNew")}
        </Title>
        {stale && (
          <StaleRecordAlert
            onReload={() => {
              const latest = save.error instanceof RpcError ? save.error.details.record : undefined;
              if (latest && typeof latest === "object") setBase({ ...(base as Product), ...(latest as Product) });
              setStale(false);
            }}
          />
        )}
        <TextInput label={t("modules.quotes.products.name")} required maxLength={200} value={name} onChange={(event) => setName(event.currentTarget.value)} error={nameError} data-autofocus />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Autocomplete label={t("modules.quotes.products.unit")} data={[...unitSuggestions]} value={unit} onChange={setUnit} maxLength={20} />
          <TextInput label={t("modules.quotes.products.unit_price")} required inputMode="decimal" value={price} onChange={(event) => setPrice(event.currentTarget.value)} error={priceError} />
          <Select label={t("modules.quotes.products.currency")} allowDeselect={false}
            data={[...new Set([currency, settings.data?.default_currency ?? "TRY", ...knownCurrencies])]} value={currency} onChange={(value) => value && setCurrency(value)} />
          <NativeSelect label={t("modules.quotes.products.vat_rate")} data={rates.map((rate) => ({ value: rate, label: formatRate(rate, language) }))}
            value={vatRate} onChange={(event) => setVatRate(event.currentTarget.value)} />
        </SimpleGrid>
        <Textarea label={t("modules.quotes.products.descriptionField")} autosize minRows={2} maxLength={2000} value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t("modules.quotes.actions.cancel")}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t("modules.quotes.products.save")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
