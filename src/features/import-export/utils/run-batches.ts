/**
 * Sends batches one after the other (the preview's checks and the import's run share it). A
 * lost connection sends the same batch again after a growing pause (the server's batches are
 * idempotent, so a batch that did arrive is answered from its stored result); any other
 * failure, or too many lost attempts, ends the run with that error. Stopping takes effect
 * between batches: a batch on its way is answered and counted first, so nothing the server
 * wrote goes unreported.
 */
import type { BatchRange } from "./batches.ts";

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
 * Sends the batches in order; rejects with the signal's reason when stopped before the last
 * one was sent, or with the failure that ended the run.
 */
export async function runBatches<Answer>({
  batches,
  send,
  onAnswer,
  onRetry,
  signal,
  isLostConnection,
  retryDelays = RETRY_DELAYS_MS,
  sleep = abortableSleep,
}: RunBatchesOptions<Answer>): Promise<void> {
  for (const batch of batches) {
    signal.throwIfAborted();
    for (let attempt = 0; ; attempt += 1) {
      try {
        onAnswer(batch, await send(batch));
        break;
      } catch (error) {
        if (!isLostConnection(error) || attempt >= retryDelays.length) throw error;
        onRetry?.(batch, attempt + 1, retryDelays[attempt]);
        await sleep(retryDelays[attempt], signal);
      }
    }
  }
}
