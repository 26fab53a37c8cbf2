/**
 * The deals module's calls: the board (get_deal_board, get_deal_board_stage, move_deal),
 * a deal with its contacts and stage history, create and update through the record
 * engine, the contacts of a deal, and the weighted forecast.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { assertRecordId, recordBaseSchema, recordKeys, useInvalidateRecords } from "@/components/records/record-api.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { organizationTopic, pollingOptions } from "@/lib/realtime.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { useBroadcastRefresh } from "@/session/use-broadcast-refresh.ts";
import type { Json } from "@/types/database.types.ts";

const money = z.coerce.number();

/** A deal's row in the list (the module's list columns). */
export const dealRowSchema = recordBaseSchema.extend({
  title: z.string(),
  customer_id: z.string().nullable(),
  stage: z.string(),
  amount: money,
  currency: z.string(),
  probability: z.number().nullable(),
  expected_close_date: z.string().nullable(),
  source: z.string().nullable(),
  tags: z.array(z.string()),
  closed_at: z.string().nullable(),
});
export type DealRow = z.infer<typeof dealRowSchema>;

/** A whole deal (get_deal_details: the record with its customer's name). */
export const dealSchema = dealRowSchema.extend({
  description: z.string().nullable(),
  lost_reason: z.string().nullable(),
  customer_name: z.string().nullable().optional(),
});
export type Deal = z.infer<typeof dealSchema>;

export const dealContactSchema = z.looseObject({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() });
export type DealContact = z.infer<typeof dealContactSchema>;

export interface DealValues {
  title: string;
  customer_id: string | null;
  amount: number;
  currency: string;
  stage: string;
  probability: number | null;
  expected_close_date: string | null;
  source: string | null;
  tags: string[] | null;
  description: string | null;
  lost_reason: string | null;
}

// ---------------------------------------------------------------------------------
// The board
// ---------------------------------------------------------------------------------

export const boardCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  amount: money,
  currency: z.string(),
  probability: z.number().nullable(),
  expected_close_date: z.string().nullable(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  owner_id: z.string().nullable(),
  owner_name: z.string().nullable(),
  updated_at: z.string(),
});
export type BoardCard = z.infer<typeof boardCardSchema>;

export const boardStageSchema = z.object({
  key: z.string(),
  name: z.string().nullable(),
  outcome: z.enum(["open", "won", "lost"]).nullable(),
  probability: z.number().nullable(),
  /** A stage the deals hold that the pipeline no longer has. */
  unknown: z.boolean(),
  count: z.number(),
  totals: z.array(z.object({ currency: z.string(), amount: money })),
  cards: z.array(boardCardSchema),
  /** Where the stage's next cards start (the server's cursor, handed back as it came); null when none follow. */
  next_cursor: z.json().nullable(),
});
export type BoardStage = z.infer<typeof boardStageSchema>;

const boardSchema = z.object({
  scope: z.enum(["all", "own"]),
  currency: z.string(),
  stages: z.array(boardStageSchema),
});
export type Board = z.infer<typeof boardSchema>;

export interface BoardFilters {
  owner_id?: string;
  search?: string;
}

export const dealKeys = {
  board: (scope: OrganizationScope, filters: BoardFilters) =>
    [...recordKeys.all(scope, "deals"), "board", filters] as const,
  forecast: (scope: OrganizationScope, months: number) =>
    [...recordKeys.all(scope, "deals"), "forecast", months] as const,
};

export const BOARD_PAGE = 50;

/**
 * The board. Others' moves reach it through the organization's Realtime topic where it
 * subscribes (hosted Supabase); elsewhere it reads again on focus and every 30 s.
 */
export function useDealBoard(filters: BoardFilters) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  const delivery = useBroadcastRefresh(scope.organizationId === "none" ? null : organizationTopic(scope.organizationId), "deals_changed", () =>
    void queryClient.invalidateQueries({ queryKey: recordKeys.all(scope, "deals") }),
  );
  return useQuery({
    queryKey: dealKeys.board(scope, filters),
    queryFn: () => rpc("get_deal_board", { p_filters: filters as Json, p_per_stage: BOARD_PAGE }, boardSchema),
    placeholderData: keepPreviousData,
    ...pollingOptions(delivery),
  });
}

/** The next cards of one stage (after its cursor: by key, not by offset), appended to the cached board with the stage's next cursor. */
export function useLoadMoreCards(filters: BoardFilters) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ stage, cursor }: { stage: string; cursor: Json }) =>
      rpc(
        "get_deal_board_stage",
        { p_stage: stage, p_filters: filters as Json, p_cursor: cursor, p_limit: BOARD_PAGE },
        z.object({ key: z.string(), cards: z.array(boardCardSchema), has_more: z.boolean(), next_cursor: z.json().nullable() }),
      ),
    onSuccess: (page) =>
      queryClient.setQueryData<Board>(dealKeys.board(scope, filters), (board) =>
        board && {
          ...board,
          stages: board.stages.map((stage) =>
            stage.key === page.key
              ? {
                  ...stage,
                  cards: [...stage.cards, ...page.cards.filter((card) => !stage.cards.some((known) => known.id === card.id))],
                  next_cursor: page.has_more ? page.next_cursor : null,
                }
              : stage,
          ),
        },
      ),
  });
}

/** Whether a stage has cards still to load: fewer shown than it counts, and a cursor to start from. */
export function hasMoreCards(stage: BoardStage): boolean {
  return stage.cards.length < stage.count && stage.next_cursor !== null;
}

/** Moves a card on the cached board at once (counts and totals follow); the server then decides. */
export function moveOnBoard(board: Board, cardId: string, toStage: string): Board {
  const from = board.stages.find((stage) => stage.cards.some((card) => card.id === cardId));
  const card = from?.cards.find((candidate) => candidate.id === cardId);
  if (!from || !card || from.key === toStage) return board;
  const adjust = (totals: BoardStage["totals"], sign: 1 | -1) => {
    const next = totals.some((total) => total.currency === card.currency) ? totals : [...totals, { currency: card.currency, amount: 0 }];
    return next
      .map((total) => (total.currency === card.currency ? { ...total, amount: total.amount + sign * card.amount } : total))
      .filter((total) => total.amount !== 0 || total.currency !== card.currency || sign === 1);
  };
  return {
    ...board,
    stages: board.stages.map((stage) => {
      if (stage.key === from.key) {
        return { ...stage, count: stage.count - 1, totals: adjust(stage.totals, -1), cards: stage.cards.filter((other) => other.id !== cardId) };
      }
      if (stage.key === toStage) {
        return { ...stage, count: stage.count + 1, totals: adjust(stage.totals, 1), cards: [card, ...stage.cards] };
      }
      return stage;
    }),
  };
}

/** A deal as its save and move answer it (without the long texts). */
export const savedDealSchema = dealSchema.partial({ description: true, lost_reason: true });
const recordAnswer = z.object({ record: savedDealSchema });

export function useMoveDeal(filters: BoardFilters) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRecords("deals");
  const key = dealKeys.board(scope, filters);
  return useMutation({
    mutationFn: ({ card, stage, lostReason }: { card: BoardCard; stage: string; lostReason?: string }) =>
      rpc(
        "move_deal",
        { p_id: card.id, p_stage: stage, p_updated_at: card.updated_at, p_lost_reason: lostReason ?? undefined },
        recordAnswer,
      ),
    onMutate: async ({ card, stage }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Board>(key);
      if (before) queryClient.setQueryData<Board>(key, moveOnBoard(before, card.id, stage));
      return { before };
    },
    onError: (_error, _move, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSettled: invalidate,
  });
}

// ---------------------------------------------------------------------------------
// One deal
// ---------------------------------------------------------------------------------

const historyEntrySchema = z.object({
  id: z.union([z.string(), z.number()]),
  from_stage: z.string().nullable(),
  from_stage_name: z.string().nullable(),
  to_stage: z.string(),
  to_stage_name: z.string().nullable(),
  changed_by_name: z.string().nullable(),
  changed_at: z.string(),
  duration_seconds: z.number(),
});
export type StageHistoryEntry = z.infer<typeof historyEntrySchema>;

/** A deal with its customer's name, contacts, stage history (oldest first) and the time spent per stage. */
const detailsSchema = z.object({
  record: dealSchema,
  contacts: z.array(dealContactSchema),
  stage_history: z.array(historyEntrySchema),
  time_in_stage: z.array(z.object({ stage: z.string(), name: z.string().nullable(), seconds: z.number() })),
});
export type DealDetails = z.infer<typeof detailsSchema>;

export function useDealDetails(id: string) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: recordKeys.record(scope, "deals", id),
    queryFn: () => {
      assertRecordId(id);
      return rpc("get_deal_details", { p_id: id }, detailsSchema);
    },
    retry: false,
  });
}

export function useSetDealContacts() {
  const invalidate = useInvalidateRecords("deals");
  return useMutation({
    mutationFn: ({ id, contactIds }: { id: string; contactIds: string[] }) =>
      rpc("set_deal_contacts", { p_id: id, p_contact_ids: contactIds }, z.object({ contacts: z.array(dealContactSchema) })),
    onSuccess: invalidate,
  });
}

// ---------------------------------------------------------------------------------
// The forecast
// ---------------------------------------------------------------------------------

const forecastMonthSchema = z.object({ month: z.string(), count: z.number(), amount: money, weighted: money });
const forecastSummarySchema = z.object({
  count: z.number(),
  amount: money,
  weighted: money,
  months: z.array(forecastMonthSchema),
  unconverted: z.array(
    z.object({ currency: z.string(), count: z.number(), amount: money, weighted: money, months: z.array(forecastMonthSchema) }),
  ),
});
export const forecastSchema = z.looseObject({
  currency: z.string(),
  months: z.array(z.string()),
  total: forecastSummarySchema,
  owners: z.array(forecastSummarySchema.extend({ owner_id: z.string().nullable(), owner_name: z.string().nullable() })),
});
export type Forecast = z.infer<typeof forecastSchema>;

export function useDealForecast(months = 6) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: dealKeys.forecast(scope, months),
    queryFn: () => rpc("get_deal_forecast", { p_months: months }, forecastSchema),
  });
}
