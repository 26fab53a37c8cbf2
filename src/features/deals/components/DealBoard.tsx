import {
  DndContext,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from "@dnd-kit/core";
import { ActionIcon, Anchor, Badge, Button, Group, Menu, Paper, ScrollArea, Stack, Tabs, Text, Title, Tooltip } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconArrowsExchange, IconGripVertical } from "@tabler/icons-react";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { formatCalendarDate, formatMoney } from "@/lib/format.ts";
import { hasMoreCards, type Board, type BoardCard, type BoardStage } from "../api/deals.ts";

interface Props {
  board: Board;
  /** May the signed-in user move this deal (edit scope all, or own and theirs)? */
  canMove(card: BoardCard): boolean;
  onMove(card: BoardCard, stage: BoardStage): void;
  onLoadMore(stage: BoardStage): void;
  loadingMore?: string | null;
}

/**
 * A column's narrowest and widest: six stages fit side by side at 1440 px beside the sidebar
 * (columns grow to share the width); more stages scroll sideways inside the board.
 */
const COLUMN_MIN_WIDTH = 168;
const COLUMN_MAX_WIDTH = 320;

/** A stage's name; a stage the pipeline lost shows its key. */
export function stageLabel(stage: Pick<BoardStage, "key" | "name">): string {
  return stage.name ?? stage.key;
}

/**
 * Arrow keys move a picked-up card from column to column (left and right) instead of by
 * pixels, so a keyboard user moves a deal with Space, → and Space.
 */
const columnKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context }) => {
  const { active, collisionRect, droppableRects, droppableContainers, over } = context;
  if (!active || !collisionRect) return undefined;
  if (event.code !== KeyboardCode.Right && event.code !== KeyboardCode.Left) return undefined;
  event.preventDefault();
  const columns = droppableContainers
    .getEnabled()
    .map((container) => ({ id: container.id, rect: droppableRects.get(container.id) }))
    .filter((column): column is { id: typeof column.id; rect: NonNullable<typeof column.rect> } => column.rect !== undefined)
    .sort((a, b) => a.rect.left - b.rect.left);
  const current = columns.findIndex((column) => column.id === (over?.id ?? active.data.current?.stage));
  const target = columns[current + (event.code === KeyboardCode.Right ? 1 : -1)];
  if (!target) return undefined;
  return { x: target.rect.left + target.rect.width / 2 - collisionRect.width / 2, y: target.rect.top + 40 };
};

/** Pointer drops land on the column under the pointer; keyboard drops on the column the card overlaps. */
const collision: CollisionDetection = (args) => {
  const under = pointerWithin(args);
  return under.length > 0 ? under : rectIntersection(args);
};

/**
 * The pipeline as a kanban board: one column per stage with its count and totals in each
 * currency, cards that drag (pointer or keyboard) to another stage, and a menu on every
 * card that moves it without dragging. Cards the user may not move do not drag. Each
 * column's cards scroll inside it, so the board stays on one screen; on a phone one stage
 * shows at a time, chosen with its tab (cards move with their menu there).
 */
export function DealBoard({ board, canMove, onMove, onLoadMore, loadingMore }: Props) {
  const { t } = useTranslation();
  const phone = useMediaQuery("(max-width: 47.99em)") ?? false;
  const [shown, setShown] = useState<string | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnKeyboardCoordinates }),
  );
  const stageOf = (id: string | number | undefined) => board.stages.find((stage) => stage.key === id);
  const cardOf = (id: string | number) => board.stages.flatMap((stage) => stage.cards).find((card) => card.id === id);
  const title = (id: string | number) => cardOf(id)?.title ?? "";
  const announcements: Announcements = {
    onDragStart: ({ active }) => t("modules.deals.board.announce.start", { title: title(active.id) }),
    onDragOver: ({ active, over }) =>
      over ? t("modules.deals.board.announce.over", { title: title(active.id), stage: stageLabel(stageOf(over.id) ?? { key: String(over.id), name: null }) }) : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? t("modules.deals.board.announce.end", { title: title(active.id), stage: stageLabel(stageOf(over.id) ?? { key: String(over.id), name: null }) })
        : t("modules.deals.board.announce.cancel", { title: title(active.id) }),
    onDragCancel: ({ active }) => t("modules.deals.board.announce.cancel", { title: title(active.id) }),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const card = cardOf(active.id);
    const stage = stageOf(over?.id);
    if (!card || !stage || stage.key === active.data.current?.stage) return;
    onMove(card, stage);
  };

  // The stage a phone shows: the one picked, else the first.
  const shownStage = stageOf(shown ?? undefined) ?? board.stages[0];
  const column = (stage: BoardStage) => (
    <StageColumn
      key={stage.key}
      stage={stage}
      stages={board.stages}
      canMove={canMove}
      onMove={onMove}
      onLoadMore={onLoadMore}
      loadingMore={loadingMore === stage.key}
      fullWidth={phone}
    />
  );

  if (!shownStage) return null;
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("modules.deals.board.instructions") } }}
    >
      {phone ? (
        <Tabs value={shownStage.key} onChange={setShown} keepMounted={false}>
          <ScrollArea type="auto" scrollbarSize={6} mb="xs">
            <Tabs.List style={{ flexWrap: "nowrap" }}>
              {board.stages.map((stage) => (
                <Tabs.Tab key={stage.key} value={stage.key} style={{ whiteSpace: "nowrap" }}>
                  {t("modules.deals.board.tab", { stage: stageLabel(stage), count: stage.count })}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </ScrollArea>
          <Tabs.Panel value={shownStage.key}>
            <ol aria-label={t("modules.deals.board.label")} style={{ listStyle: "none", padding: 0, margin: 0 }}>
              {column(shownStage)}
            </ol>
          </Tabs.Panel>
        </Tabs>
      ) : (
        <ScrollArea type="auto" offsetScrollbars scrollbarSize={10}>
          <Group
            component="ol"
            aria-label={t("modules.deals.board.label")}
            align="flex-start"
            wrap="nowrap"
            gap="xs"
            p={0}
            m={0}
            style={{ listStyle: "none" }}
          >
            {board.stages.map(column)}
          </Group>
        </ScrollArea>
      )}
    </DndContext>
  );
}

function StageColumn({
  stage,
  stages,
  canMove,
  onMove,
  onLoadMore,
  loadingMore,
  fullWidth,
}: {
  stage: BoardStage;
  stages: BoardStage[];
  canMove(card: BoardCard): boolean;
  onMove(card: BoardCard, stage: BoardStage): void;
  onLoadMore(stage: BoardStage): void;
  loadingMore: boolean;
  /** A phone's one column: the whole width, cards in the page's own scroll. */
  fullWidth: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { isOver, setNodeRef } = useDroppable({ id: stage.key, disabled: stage.unknown });
  const headingId = `stage-${stage.key}`;
  const totals = stage.totals.filter((total) => total.amount !== 0);
  const more = hasMoreCards(stage);
  const end = useRef<HTMLLIElement>(null);
  const reachedEnd = useEffectEvent(() => {
    if (!loadingMore) onLoadMore(stage);
  });
  // Scrolled to the column's end (its own scroll, or the page's on a phone), the next cards
  // load; again after each page while the end stays in view. An observer tells only when the
  // end comes into view, so it is made anew whenever the cards change (a page added, the
  // board read again) or a load ends: an end reached while a load ran, or just before the
  // cards were replaced, is then seen again. The button stays for keyboards.
  useEffect(() => {
    const sentinel = end.current;
    if (!more || !sentinel || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) reachedEnd();
      },
      { root: fullWidth ? null : sentinel.parentElement, rootMargin: "0px 0px 120px 0px" },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [more, fullWidth, stage.cards, loadingMore]);
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      p="xs"
      aria-labelledby={headingId}
      bg={isOver ? "var(--mantine-primary-color-light)" : "var(--mantine-color-default-hover)"}
      style={{
        transition: "background-color 120ms",
        ...(fullWidth ? {} : { flex: `1 0 ${COLUMN_MIN_WIDTH}px`, minWidth: COLUMN_MIN_WIDTH, maxWidth: COLUMN_MAX_WIDTH }),
      }}
    >
      <Stack gap={6} mb="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Title order={2} size="h5" id={headingId} style={{ overflowWrap: "anywhere" }}>
            {stageLabel(stage)}
          </Title>
          <Badge variant="light" color={stage.outcome === "won" ? "green" : stage.outcome === "lost" ? "red" : "gray"}>
            {stage.count}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {totals.length === 0
            ? formatMoney(0, stage.totals[0]?.currency ?? "TRY", i18n.resolvedLanguage)
            : totals.map((total) => formatMoney(total.amount, total.currency, i18n.resolvedLanguage)).join(" · ")}
        </Text>
        {stage.unknown && (
          <Text size="xs" c="orange">
            {t("modules.deals.board.unknownStage")}
          </Text>
        )}
      </Stack>
      <Stack
        gap="xs"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: "none", ...(fullWidth ? {} : { maxHeight: "calc(100dvh - 300px)", minHeight: 80, overflowY: "auto" }) }}
        aria-label={t("modules.deals.board.cardsOf", { stage: stageLabel(stage) })}>
        {stage.cards.map((card) => (
          <DealCard key={card.id} card={card} stage={stage} stages={stages} movable={canMove(card)} onMove={onMove} />
        ))}
        {more && <li ref={end} aria-hidden data-stage-end style={{ minHeight: 1 }} />}
      </Stack>
      {more && (
        <Button variant="subtle" size="xs" fullWidth mt="xs" loading={loadingMore} onClick={() => onLoadMore(stage)}>
          {t("modules.deals.board.more", { count: stage.count - stage.cards.length })}
        </Button>
      )}
    </Paper>
  );
}

function DealCard({
  card,
  stage,
  stages,
  movable,
  onMove,
}: {
  card: BoardCard;
  stage: BoardStage;
  stages: BoardStage[];
  movable: boolean;
  onMove(card: BoardCard, stage: BoardStage): void;
}) {
  const { t, i18n } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: card.id,
    data: { stage: stage.key },
    disabled: !movable,
  });
  const overdue = card.expected_close_date !== null && stage.outcome === "open" && card.expected_close_date < new Date().toISOString().slice(0, 10);
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      shadow={isDragging ? "md" : undefined}
      p="xs"
      style={{
        transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
        zIndex: isDragging ? 10 : undefined,
        position: "relative",
        opacity: isDragging ? 0.9 : 1,
      }}
    >
      <Group wrap="nowrap" align="flex-start" gap={4}>
        {movable ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={t("modules.deals.board.drag", { title: card.title })}
            {...attributes}
            {...listeners}
            style={{ cursor: "grab", touchAction: "none" }}
          >
            <IconGripVertical size={16} aria-hidden />
          </ActionIcon>
        ) : (
          <Tooltip label={t("modules.deals.board.notMovable")}>
            <ActionIcon variant="transparent" color="gray" size="sm" aria-label={t("modules.deals.board.notMovableFor", { title: card.title })} aria-disabled>
              <IconGripVertical size={16} aria-hidden opacity={0.3} />
            </ActionIcon>
          </Tooltip>
        )}
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Anchor component={Link} to={`/deals/${card.id}`} fw={600} size="sm" style={{ overflowWrap: "anywhere" }}>
            {card.title}
          </Anchor>
          {card.customer_name && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
              {card.customer_name}
            </Text>
          )}
          <Text size="sm" fw={500}>
            {formatMoney(card.amount, card.currency, i18n.resolvedLanguage)}
            {card.probability !== null && (
              <Text span size="xs" c="dimmed">
                {" "}
                · %{card.probability}
              </Text>
            )}
          </Text>
          <Text size="xs" c={overdue ? "red" : "dimmed"}>
            {card.expected_close_date
              ? t(overdue ? "modules.deals.board.closeOverdue" : "modules.deals.board.close", {
                  date: formatCalendarDate(card.expected_close_date, i18n.resolvedLanguage),
                })
              : t("modules.deals.board.noCloseDate")}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {card.owner_name ?? "—"}
          </Text>
        </Stack>
        {movable && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t("modules.deals.board.moveTo", { title: card.title })}>
                <IconArrowsExchange size={16} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t("modules.deals.board.moveToLabel")}</Menu.Label>
              {stages
                .filter((target) => target.key !== stage.key && !target.unknown)
                .map((target) => (
                  <Menu.Item key={target.key} onClick={() => onMove(card, target)}>
                    {stageLabel(target)}
                  </Menu.Item>
                ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </Paper>
  );
}
