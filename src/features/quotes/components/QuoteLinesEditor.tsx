import {
  closestCenter,
  DndContext,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { ActionIcon, Autocomplete, Button, Group, NativeSelect, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Tooltip } from "@mantine/core";
import { IconArrowDown, IconArrowUp, IconCopy, IconGripVertical, IconPlus, IconTrash } from "@tabler/icons-react";
import { useCallback, type Dispatch } from "react";
import { useTranslation } from "react-i18next";
import { discountTypes, type LineTotals, type Product } from "../api/quotes.ts";
import { formatAmount, formatRate } from "../utils/quote-format.ts";
import { cellErrorKey, lineErrors, unitSuggestions, withholdingRates, type LineAction, type QuoteErrors, type QuoteLineForm } from "../utils/quote-form.ts";

interface Props {
  lines: QuoteLineForm[];
  dispatch: Dispatch<LineAction>;
  currency: string;
  vatRates: string[];
  defaultVatRate: string;
  products: Product[];
  /** The preview's amounts per line, in the lines' order (absent while none has come). */
  amounts: LineTotals[] | undefined;
  /** Cell errors keyed "items.<index>.<field>" (codes). */
  errors: QuoteErrors;
}

/**
 * Up and down arrows carry a picked-up line to the previous or next line's place (instead of
 * by pixels), so a keyboard user reorders with Space, ↑/↓ and Space.
 */
const lineKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const { active, collisionRect, droppableRects, droppableContainers, over } = context;
  if (!active || !collisionRect) return undefined;
  if (event.code !== KeyboardCode.Down && event.code !== KeyboardCode.Up) return undefined;
  event.preventDefault();
  const rows = droppableContainers
    .getEnabled()
    .map((container) => ({ id: container.id, rect: droppableRects.get(container.id) }))
    .filter((row): row is { id: UniqueIdentifier; rect: NonNullable<typeof row.rect> } => row.rect !== undefined)
    .sort((a, b) => a.rect.top - b.rect.top);
  const current = rows.findIndex((row) => row.id === (over?.id ?? active.id));
  const target = rows[current + (event.code === KeyboardCode.Down ? 1 : -1)];
  if (!target) return undefined;
  return { x: collisionRect.left, y: target.rect.top + target.rect.height / 2 - collisionRect.height / 2 };
};

/**
 * The quote's lines as an ordered list of cards (it stays readable on a phone): product,
 * description, quantity, unit, price, discount, KDV rate (with the exemption reason at 0),
 * withholding, and the line's net, KDV and total from the SQL preview. Lines are added,
 * duplicated, removed, dragged (pointer or keyboard) or moved with the up/down buttons.
 */
export function QuoteLinesEditor({ lines, dispatch, currency, vatRates, defaultVatRate, products, amounts, errors }: Props) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: lineKeyboardCoordinates }),
  );
  const position = (id: UniqueIdentifier | undefined) => lines.findIndex((line) => line.key === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t("modules.quotes.lines.dragStart", { position: position(active.id) }),
    onDragOver: ({ active, over }) =>
      over ? t("modules.quotes.lines.dragOver", { position: position(active.id), target: position(over.id) }) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? t("modules.quotes.lines.dragEnd", { position: position(active.id), target: position(over.id) }) : t("modules.quotes.lines.dragCancel"),
    onDragCancel: () => t("modules.quotes.lines.dragCancel"),
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    dispatch({ type: "move", from: position(active.id) - 1, to: position(over.id) - 1 });
  };

  return (
    <Stack gap="sm">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t("modules.quotes.lines.dragInstructions") } }}
      >
        {lines.length === 0 ? (
          <Text c="dimmed">{t("modules.quotes.lines.empty")}</Text>
        ) : (
          <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: "none" }} aria-label={t("modules.quotes.lines.tableLabel")}>
            {lines.map((line, index) => (
              <LineCard
                key={line.key}
                line={line}
                index={index}
                count={lines.length}
                dispatch={dispatch}
                currency={currency}
                vatRates={vatRates}
                products={products}
                amounts={amounts?.[index]}
                errors={lineErrors(errors, index)}
              />
            ))}
          </Stack>
        )}
      </DndContext>
      <Group>
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => dispatch({ type: "add", vatRate: defaultVatRate })}>
          {t("modules.quotes.lines.add")}
        </Button>
      </Group>
    </Stack>
  );
}

interface LineProps {
  line: QuoteLineForm;
  index: number;
  count: number;
  dispatch: Dispatch<LineAction>;
  currency: string;
  vatRates: string[];
  products: Product[];
  amounts: LineTotals | undefined;
  errors: Record<string, string>;
}

function LineCard({ line, index, count, dispatch, currency, vatRates, products, amounts, errors }: LineProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const positionNumber = index + 1;
  const { attributes, listeners, setNodeRef: setDragNode, setActivatorNodeRef, transform: offset, isDragging } = useDraggable({ id: line.key });
  const { setNodeRef: setDropNode, isOver } = useDroppable({ id: line.key });
  // One stable ref for both: a new callback each render would re-register the line on every render.
  const setNode = useCallback(
    (node: HTMLLIElement | null) => {
      setDropNode(node);
      setDragNode(node);
    },
    [setDropNode, setDragNode],
  );
  const set = (patch: Partial<Omit<QuoteLineForm, "key">>) => dispatch({ type: "update", index, patch });
  const error = (field: string) => {
    const code = errors[field];
    return code ? t(cellErrorKey(code)) : undefined;
  };
  const labelId = `quote-line-${line.key}`;
  const transform = offset ? `translate3d(${offset.x}px, ${offset.y}px, 0)` : undefined;
  const productOptions = products.map((product) => ({ value: product.id, label: product.name }));
  if (line.product_id && !productOptions.some((option) => option.value === line.product_id)) {
    productOptions.unshift({ value: line.product_id, label: line.description.split("\n")[0] || line.product_id });
  }
  const money = (value: string | null | undefined) => formatAmount(value, currency, language);

  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      ref={setNode}
      style={{
        transform,
        position: isDragging ? "relative" : undefined,
        zIndex: isDragging ? 2 : undefined,
        outline: isOver && !isDragging ? "2px dashed var(--mantine-color-blue-5)" : undefined,
      }}
    >
      <div role="group" aria-labelledby={labelId}>
        <Group justify="space-between" wrap="nowrap" gap="xs" mb="xs">
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              ref={setActivatorNodeRef}
              variant="subtle"
              color="gray"
              aria-label={t("modules.quotes.lines.drag", { position: positionNumber })}
              style={{ cursor: "grab", touchAction: "none" }}
              {...listeners}
              {...attributes}
            >
              <IconGripVertical size={16} aria-hidden />
            </ActionIcon>
            <Text fw={600} id={labelId}>
              {t("modules.quotes.lines.lineLabel", { position: positionNumber })}
            </Text>
          </Group>
          <Group gap={2} wrap="nowrap">
            <Tooltip label={t("modules.quotes.lines.moveUp", { position: positionNumber })}>
              <ActionIcon variant="subtle" color="gray" disabled={index === 0}
                aria-label={t("modules.quotes.lines.moveUp", { position: positionNumber })}
                onClick={() => dispatch({ type: "move", from: index, to: index - 1 })}>
                <IconArrowUp size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t("modules.quotes.lines.moveDown", { position: positionNumber })}>
              <ActionIcon variant="subtle" color="gray" disabled={index === count - 1}
                aria-label={t("modules.quotes.lines.moveDown", { position: positionNumber })}
                onClick={() => dispatch({ type: "move", from: index, to: index + 1 })}>
                <IconArrowDown size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t("modules.quotes.lines.duplicate", { position: positionNumber })}>
              <ActionIcon variant="subtle" color="gray"
                aria-label={t("modules.quotes.lines.duplicate", { position: positionNumber })}
                onClick={() => dispatch({ type: "duplicate", index })}>
                <IconCopy size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t("modules.quotes.lines.remove", { position: positionNumber })}>
              <ActionIcon variant="subtle" color="red"
                aria-label={t("modules.quotes.lines.remove", { position: positionNumber })}
                onClick={() => dispatch({ type: "remove", index })}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
          <Select
            label={t("modules.quotes.lines.product")}
            placeholder={t("modules.quotes.lines.productPlaceholder")}
            nothingFoundMessage={t("modules.quotes.lines.noProduct")}
            searchable
            clearable
            data={productOptions}
            value={line.product_id}
            onChange={(value) => {
              const product = products.find((candidate) => candidate.id === value);
              if (product) dispatch({ type: "product", index, product, language });
              else set({ product_id: null });
            }}
            error={error("product_id")}
          />
          <Textarea
            label={t("modules.quotes.lines.description")}
            required
            autosize
            minRows={1}
            maxLength={2000}
            value={line.description}
            onChange={(event) => set({ description: event.currentTarget.value })}
            error={error("description")}
          />
          <TextInput
            label={t("modules.quotes.lines.quantity")}
            required
            inputMode="decimal"
            value={line.quantity}
            onChange={(event) => set({ quantity: event.currentTarget.value })}
            error={error("quantity")}
          />
          <Autocomplete
            label={t("modules.quotes.lines.unit")}
            data={[...unitSuggestions]}
            value={line.unit}
            onChange={(value) => set({ unit: value })}
            maxLength={20}
            error={error("unit")}
          />
          <TextInput
            label={t("modules.quotes.lines.unit_price")}
            required
            inputMode="decimal"
            rightSection={<Text size="xs" c="dimmed">{currency}</Text>}
            rightSectionWidth={44}
            value={line.unit_price}
            onChange={(event) => set({ unit_price: event.currentTarget.value })}
            error={error("unit_price")}
          />
          <Group gap={4} align="flex-start" wrap="nowrap">
            <NativeSelect
              label={t("modules.quotes.lines.discount_type")}
              data={discountTypes.map((type) => ({ value: type, label: t(`modules.quotes.discount.${type}`) }))}
              value={line.discount_type}
              onChange={(event) => set({ discount_type: event.currentTarget.value as QuoteLineForm["discount_type"] })}
              w={84}
              error={error("discount_type")}
            />
            <TextInput
              label={t("modules.quotes.lines.discount_value")}
              inputMode="decimal"
              value={line.discount_value}
              onChange={(event) => set({ discount_value: event.currentTarget.value })}
              error={error("discount_value")}
              style={{ flex: 1 }}
            />
          </Group>
          <NativeSelect
            label={t("modules.quotes.lines.vat_rate")}
            data={vatRates.map((rate) => ({ value: rate, label: formatRate(rate, language) }))}
            value={line.vat_rate}
            onChange={(event) => set({ vat_rate: event.currentTarget.value })}
            error={error("vat_rate")}
          />
          <NativeSelect
            label={t("modules.quotes.lines.withholding_rate")}
            data={[{ value: "", label: t("modules.quotes.lines.noWithholding") }, ...withholdingRates.map((rate) => ({ value: rate, label: rate }))]}
            value={line.withholding_rate ?? ""}
            onChange={(event) => set({ withholding_rate: event.currentTarget.value || null })}
            error={error("withholding_rate")}
          />
          {Number(line.vat_rate) === 0 && (
            <TextInput
              label={t("modules.quotes.lines.vat_exemption_reason")}
              placeholder={t("modules.quotes.lines.vat_exemption_placeholder")}
              required
              maxLength={200}
              value={line.vat_exemption_reason}
              onChange={(event) => set({ vat_exemption_reason: event.currentTarget.value })}
              error={error("vat_exemption_reason")}
            />
          )}
        </SimpleGrid>
        <Group justify="flex-end" gap="lg" mt="xs" component="dl" m={0} pt="xs">
          {(["line_net", "line_vat", "line_gross"] as const).map((field) => (
            <Group key={field} gap={6} wrap="nowrap">
              <Text component="dt" size="sm" c="dimmed">
                {t(`modules.quotes.lines.${field}`)}
              </Text>
              <Text component="dd" m={0} size="sm" fw={field === "line_gross" ? 700 : 500} style={{ fontVariantNumeric: "tabular-nums" }}>
                {money(amounts?.[field])}
              </Text>
            </Group>
          ))}
        </Group>
      </div>
    </Paper>
  );
}
