/**
 * What the record engine refused, in words (private.batch_answer / record_refusals): a batch
 * (bulk edit, delete, restore) answers how many it did and lists each refused record with its
 * reason — another member's record (`not_record_owner`), a record not found (gone, out of
 * reach) or, restoring, one whose place a live record has taken (`restore_conflict`); when it did none, the call itself is refused with that code and the same list.
 * Nothing here reads a refusal as success, and a batch that changed nothing never says it
 * did.
 */
import { z } from "zod";
import { RpcError } from "@/lib/rpc.ts";

/** Why the engine left one record alone. */
export const recordRefusalCodes = ["not_record_owner", "not_found", "restore_conflict"] as const;
export type RecordRefusalCode = (typeof recordRefusalCodes)[number];

const refusedSchema = z.array(z.object({ id: z.string(), code: z.string() }));

/** A batch's answer as the engine gives it (`updated` for a bulk edit, `changed` for delete and restore). */
export const batchAnswerSchema = z.object({
  updated: z.number().int().nonnegative().optional(),
  changed: z.number().int().nonnegative().optional(),
  skipped: z.number().int().nonnegative(),
  refused: refusedSchema.optional(),
});
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;

/** What a batch did: how many records it changed and, by reason, how many it refused. */
export interface BatchOutcome {
  done: number;
  notOwner: number;
  notFound: number;
  conflict: number;
}

function countRefused(refused: readonly { code: string }[], skipped: number): Pick<BatchOutcome, "notOwner" | "notFound" | "conflict"> {
  const notOwner = refused.filter((entry) => entry.code === "not_record_owner").length;
  const conflict = refused.filter((entry) => entry.code === "restore_conflict").length;
  // A refusal without its reason (or one this client does not know) is counted as not found.
  return { notOwner, conflict, notFound: Math.max(skipped, refused.length) - notOwner - conflict };
}

/** The outcome of a batch that was answered (some records done). */
export function batchOutcome(answer: BatchAnswer): BatchOutcome {
  return { done: answer.updated ?? answer.changed ?? 0, ...countRefused(answer.refused ?? [], answer.skipped) };
}

/**
 * The outcome of a batch whose call was refused because every record was (not_record_owner,
 * not_found or restore_conflict, with the list); null for any other failure (no permission at all, a field error,
 * a lost connection), which the screen maps as usual.
 */
export function refusedBatchOutcome(error: unknown): BatchOutcome | null {
  if (!(error instanceof RpcError) || !(recordRefusalCodes as readonly string[]).includes(error.code ?? "")) return null;
  const refused = refusedSchema.safeParse(error.details.refused);
  if (!refused.success) return null;
  const skipped = z.number().int().nonnegative().catch(refused.data.length).parse(error.details.skipped);
  return { done: 0, ...countRefused(refused.data, skipped) };
}

/**
 * A batch answer the engine gave as success that still changed nothing is a refusal: the
 * client never reports it as done (thrown as not_found with the answer's list).
 */
export function assertBatchDid(answer: BatchAnswer): BatchAnswer {
  if (batchOutcome(answer).done === 0) {
    throw new RpcError("Nothing changed", "not_found", { refused: answer.refused ?? [], skipped: answer.skipped });
  }
  return answer;
}

export type BatchVerb = "deleted" | "updated" | "restored";

/** One sentence of a batch report: a catalogue key under `records.batch` and its count. */
export interface BatchPart {
  key: `records.batch.${BatchVerb}.${"done" | "none" | "notOwner"}` | "records.batch.notFound" | "records.batch.restoreConflict";
  count: number;
}

/**
 * How a batch is reported: "3 kayıt silindi." (success) when all were done; the done count
 * and each reason of the refused ones ("2 kayıt başka bir kullanıcıya ait olduğu için
 * silinmedi.") when some were refused (partial); the reasons only when none was done
 * (failure). Never success when something was refused.
 */
export function batchReport(verb: BatchVerb, outcome: BatchOutcome): { tone: "success" | "partial" | "failure"; parts: BatchPart[] } {
  const reasons: BatchPart[] = [];
  if (outcome.notOwner > 0) reasons.push({ key: `records.batch.${verb}.notOwner`, count: outcome.notOwner });
  if (outcome.notFound > 0) reasons.push({ key: "records.batch.notFound", count: outcome.notFound });
  if (outcome.conflict > 0) reasons.push({ key: "records.batch.restoreConflict", count: outcome.conflict });
  if (outcome.done === 0) return { tone: "failure", parts: [{ key: `records.batch.${verb}.none`, count: 0 }, ...reasons] };
  return { tone: reasons.length === 0 ? "success" : "partial", parts: [{ key: `records.batch.${verb}.done`, count: outcome.done }, ...reasons] };
}
