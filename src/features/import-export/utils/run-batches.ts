/**
 * Sends batches, up to `inFlight` at once (the preview's checks and the import's run share it):
 * the next batch travels while the server works on the one before, so the network and the
 * browser's share of the work hide behind the database's. Answers are handed over in the
 * batches' order. A lost connection sends the same batch again after a growing pause (the
 * server's batches are idempotent, so a batch that did arrive is answered from its stored
 * result); a batch the server refuses because it arrived before its predecessor (`waitsForPrevious`)
 * goes again once the batch before it is answered; any other failure, or too many lost
 * attempts, ends the run with that error once the batches on their way are answered. Stopping
 * takes effect between batches: the batches on their way are answered and counted first, so
 * nothing the server wrote goes unreported.
 */
import type { BatchRange } from "./batches.ts";

/** Batches the page keeps on their way at once: the next one travels while the server works on the one before. */
export const BATCHES_IN_FLIGHT = 2;

/** Pauses before each new attempt after a lost connection (then the run stops and can be resumed). */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

export interface RunBatchesOptions<Answer> {
  batches: readonly BatchRange[];
  send(batch: BatchRange): Promise<Answer>;
  onAnswer(batch: BatchRange, answer: Answer): void;
  /** A lost connection: the batch goes again after `delay` ms (`attempt` counts the retries from 1). */
  onRetry?(batch: BatchRange, attempt: number, delay: number): void;
  signal: AbortSignal;
  isLostConnection(error: unknown): boolean;
  /** A refusal that means "send me again once the batch before me is answered". */
  waitsForPrevious?(error: unknown): boolean;
  /** Batches on their way at once (1: one after the other). */
  inFlight?: number;
  retryDelays?: readonly number[];
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Whether an error is the run being stopped (its signal's abort). */
export function isStopped(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted && error === signal.reason;
}

/**
 * Sends the batches; rejects with the signal's reason when stopped before the last one was
 * sent, or with the first failure that ended the run.
 */
export async function runBatches<Answer>({
  batches,
  send,
  onAnswer,
  onRetry,
  signal,
  isLostConnection,
  waitsForPrevious = () => false,
  inFlight = 1,
  retryDelays = RETRY_DELAYS_MS,
  sleep = abortableSleep,
}: RunBatchesOptions<Answer>): Promise<void> {
  const answers: Promise<Answer>[] = [];
  const deliver = async (index: number): Promise<Answer> => {
    const batch = batches[index];
    let waited = false;
    for (let attempt = 0; ; ) {
      try {
        return await send(batch);
      } catch (error) {
        if (index > 0 && !waited && waitsForPrevious(error)) {
          // The batch before it is still on its way: go again once it is answered (or give up with it).
          waited = true;
          await answers[index - 1].catch(() => Promise.reject(error));
          continue;
        }
        if (!isLostConnection(error) || attempt >= retryDelays.length) throw error;
        onRetry?.(batch, attempt + 1, retryDelays[attempt]);
        await sleep(retryDelays[attempt], signal);
        attempt += 1;
      }
    }
  };
  let failure: { error: unknown } | null = null;
  for (let index = 0; index < batches.length; index += 1) {
    // Keep the window full unless stopped or failed; nothing more goes once a batch failed.
    while (answers.length < batches.length && answers.length < index + inFlight && !signal.aborted && !failure) {
      const answer = deliver(answers.length);
      answer.catch(() => undefined);
      answers.push(answer);
    }
    if (index >= answers.length) break;
    try {
      const answer = await answers[index];
      onAnswer(batches[index], answer);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
  if (answers.length < batches.length) signal.throwIfAborted();
}
