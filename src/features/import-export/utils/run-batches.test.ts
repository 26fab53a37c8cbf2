import { describe, expect, it, vi } from "vitest";
import type { BatchRange } from "./batches.ts";
import { abortableSleep, isStopped, runBatches } from "./run-batches.ts";

const batches: BatchRange[] = [0, 1, 2].map((number) => ({ number, start: number * 10, end: number * 10 + 10 }));
const lost = new Error("TypeError: Failed to fetch");
const refused = new Error("permission_denied");
const isLostConnection = (error: unknown) => error === lost;

/** A run whose sends follow `outcomes` per batch (an error is thrown, anything else answered), with pauses recorded. */
function harness(outcomes: Record<number, unknown[]>, signal = new AbortController().signal) {
  const sent: number[] = [];
  const answered: [number, unknown][] = [];
  const pauses: number[] = [];
  const retries: [number, number][] = [];
  const run = () =>
    runBatches({
      batches,
      send: async (batch) => {
        sent.push(batch.number);
        const outcome = outcomes[batch.number]?.shift() ?? `answer ${batch.number}`;
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
      onAnswer: (batch, answer) => answered.push([batch.number, answer]),
      onRetry: (batch, attempt) => retries.push([batch.number, attempt]),
      signal,
      isLostConnection,
      retryDelays: [10, 20, 40],
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
  return { run, sent, answered, pauses, retries };
}

describe("runBatches", () => {
  it("sends the batches in order and hands over each answer", async () => {
    const { run, sent, answered } = harness({});
    await run();
    expect(sent).toEqual([0, 1, 2]);
    expect(answered).toEqual([
      [0, "answer 0"],
      [1, "answer 1"],
      [2, "answer 2"],
    ]);
  });

  it("sends the same batch again after a lost connection, pausing longer each time", async () => {
    const { run, sent, answered, pauses, retries } = harness({ 1: [lost, lost, "late answer 1"] });
    await run();
    expect(sent).toEqual([0, 1, 1, 1, 2]);
    expect(pauses).toEqual([10, 20]);
    expect(retries).toEqual([
      [1, 1],
      [1, 2],
    ]);
    expect(answered.map(([number]) => number)).toEqual([0, 1, 2]);
    expect(answered[1][1]).toBe("late answer 1");
  });

  it("gives up when the connection stays lost, leaving the later batches unsent", async () => {
    const { run, sent, pauses } = harness({ 1: [lost, lost, lost, lost] });
    await expect(run()).rejects.toBe(lost);
    expect(sent).toEqual([0, 1, 1, 1, 1]);
    expect(pauses).toEqual([10, 20, 40]);
  });

  it("stops at once on a refusal, without retrying it", async () => {
    const { run, sent, pauses } = harness({ 0: [refused] });
    await expect(run()).rejects.toBe(refused);
    expect(sent).toEqual([0]);
    expect(pauses).toEqual([]);
  });

  it("stops between batches: the batch on its way is answered first", async () => {
    const controller = new AbortController();
    const sent: number[] = [];
    const answered: number[] = [];
    const run = runBatches({
      batches,
      send: async (batch) => {
        sent.push(batch.number);
        if (batch.number === 1) controller.abort();
        return batch.number;
      },
      onAnswer: (batch) => answered.push(batch.number),
      signal: controller.signal,
      isLostConnection,
    });
    const error = await run.catch((reason: unknown) => reason);
    expect(isStopped(error, controller.signal)).toBe(true);
    expect(sent).toEqual([0, 1]);
    expect(answered).toEqual([0, 1]);
  });

  it("ends complete when stopped while the last batch was on its way", async () => {
    const controller = new AbortController();
    await expect(
      runBatches({
        batches: batches.slice(0, 1),
        send: async () => controller.abort(),
        onAnswer: () => undefined,
        signal: controller.signal,
        isLostConnection,
      }),
    ).resolves.toBeUndefined();
  });
});

const outOfOrder = new Error("batch_out_of_order");

/**
 * A run of `count` batches, two on their way at once, whose answers the test settles by hand
 * (`settle`), recording what went and what was answered when (`log`).
 */
function pipelined(count: number) {
  const log: string[] = [];
  const pending = new Map<number, { resolve(answer: string): void; reject(error: unknown): void }[]>();
  const run = runBatches({
    batches: batches.slice(0, count),
    send: (batch) =>
      new Promise<string>((resolve, reject) => {
        log.push(`send ${batch.number}`);
        pending.set(batch.number, [...(pending.get(batch.number) ?? []), { resolve, reject }]);
      }),
    onAnswer: (batch, answer) => log.push(`answer ${batch.number}: ${answer}`),
    signal: new AbortController().signal,
    isLostConnection,
    waitsForPrevious: (error) => error === outOfOrder,
    inFlight: 2,
  });
  const outcome = run.then(
    () => "done",
    (error: unknown) => error,
  );
  const settle = async (number: number, answer: string | Error) => {
    const waiting = pending.get(number)!.shift()!;
    if (answer instanceof Error) waiting.reject(answer);
    else waiting.resolve(answer);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { log, settle, outcome };
}

describe("runBatches with two batches on their way", () => {
  it("sends the next batch before the one before it is answered, and hands the answers over in order", async () => {
    const { log, settle, outcome } = pipelined(3);
    await settle(1, "b");
    expect(log).toEqual(["send 0", "send 1"]);
    await settle(0, "a");
    await settle(2, "c");
    expect(await outcome).toBe("done");
    expect(log).toEqual(["send 0", "send 1", "answer 0: a", "send 2", "answer 1: b", "answer 2: c"]);
  });

  it("sends a batch refused as early again once the one before it is answered", async () => {
    const { log, settle, outcome } = pipelined(2);
    await settle(1, outOfOrder);
    expect(log).toEqual(["send 0", "send 1"]);
    await settle(0, "a");
    await settle(1, "b");
    expect(await outcome).toBe("done");
    expect(log).toEqual(["send 0", "send 1", "answer 0: a", "send 1", "answer 1: b"]);
  });

  it("ends with the first failure: nothing more is sent, the batch on its way is still answered", async () => {
    const { log, settle, outcome } = pipelined(3);
    await settle(0, refused);
    await settle(1, "b");
    expect(await outcome).toBe(refused);
    expect(log).toEqual(["send 0", "send 1", "answer 1: b"]);
  });

  it("gives up a batch refused as early when the one before it failed", async () => {
    const { log, settle, outcome } = pipelined(2);
    await settle(1, outOfOrder);
    await settle(0, refused);
    expect(await outcome).toBe(refused);
    expect(log).toEqual(["send 0", "send 1"]);
  });
});

describe("abortableSleep", () => {
  it("waits, or rejects with the reason as soon as the signal aborts", async () => {
    vi.useFakeTimers();
    try {
      const done = vi.fn();
      const waiting = abortableSleep(1_000, new AbortController().signal).then(done);
      await vi.advanceTimersByTimeAsync(999);
      expect(done).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(done).toHaveBeenCalled();

      const controller = new AbortController();
      const stopped = abortableSleep(60_000, controller.signal);
      controller.abort("stop");
      await expect(stopped).rejects.toBe("stop");
      const already = new AbortController();
      already.abort("gone");
      await expect(abortableSleep(10, already.signal)).rejects.toBe("gone");
    } finally {
      vi.useRealTimers();
    }
  });
});
