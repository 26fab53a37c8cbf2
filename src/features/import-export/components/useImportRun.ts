import { useEffect, useRef, useState } from "react";
import { forgetRunningImport, writeRunningImport } from "@/lib/browser-storage.ts";
import { isLostConnection } from "@/lib/errors.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import {
  finishImport,
  getImport,
  isBatchOutOfOrder,
  runImportBatch,
  startImport,
  useInvalidateImports,
  type ImportDetail,
  type ImportRecord,
  type RowResult,
  type StartImportArgs,
} from "../api/imports.ts";
import type { ImportKind } from "../kinds.ts";
import { batchesToRun, batchRows, rowsIn, type BatchRange } from "../utils/batches.ts";
import { importFailureKey } from "../utils/import-errors.ts";
import type { PreparedRow } from "../utils/prepare-rows.ts";
import { BATCHES_IN_FLIGHT, isStopped, runBatches } from "../utils/run-batches.ts";

/**
 * starting: start_import on its way; running / retrying: batches going (a lost one again after
 * a pause); paused: the connection stayed lost; failed: a refusal stopped it; collecting: a
 * resumed import reads its earlier batches' failures back; stopping / finishing: finish_import
 * on its way; finished: `record` holds the import as it ended.
 */
export type RunPhase = "idle" | "starting" | "running" | "retrying" | "paused" | "failed" | "collecting" | "stopping" | "finishing" | "finished";

export interface RunState {
  phase: RunPhase;
  kind: ImportKind | null;
  importId: string | null;
  /** File rows done (their batch answered, or applied before a resume), of `total`. */
  done: number;
  total: number;
  /** The rows and their plan, kept for the result and its error file. */
  rows: readonly PreparedRow[];
  plan: readonly BatchRange[];
  /** Batch numbers the server has applied. */
  applied: ReadonlySet<number>;
  /** The server's answers by row number (of this session's batches, and those read back after a resume). */
  results: ReadonlyMap<number, RowResult>;
  attempt?: number;
  errorKey?: ReturnType<typeof importFailureKey>;
  /** The import as finish_import answered, and whether it was stopped. */
  record?: ImportRecord;
  cancelled?: boolean;
}

/** Leaving the page stops sending but not the import: it stays running, to be resumed. */
const PAGE_LEFT = Symbol("page left");

const idle: RunState = { phase: "idle", kind: null, importId: null, done: 0, total: 0, rows: [], plan: [], applied: new Set(), results: new Map() };

interface Job {
  kind: ImportKind;
  importId: string;
  rows: readonly PreparedRow[];
  plan: readonly BatchRange[];
  applied: Set<number>;
  /** Applied before this session (a resume): their answers are read back if failures are missing. */
  earlier: readonly number[];
  results: Map<number, RowResult>;
}

/**
 * Runs an import: start_import (or a running import to resume), its batches in order from
 * the first the server has not applied, two on their way at once (the server applies them in
 * order), retried after a lost connection, then finish_import.
 * The import's id stays in localStorage until it ends, so a closed tab can resume it. Stop
 * finishes it as cancelled after the batches on their way; leaving the page only stops sending (the
 * import stays running, to be resumed). A resumed import whose server counts
 * more failures than this session saw reads its earlier batches again (answered from their
 * stored results, changing nothing) so the error file has every failed row.
 */
export function useImportRun() {
  const session = useSignedInSession();
  const invalidate = useInvalidateImports();
  const [state, setState] = useState<RunState>(idle);
  const job = useRef<Job | null>(null);
  const controller = useRef<AbortController | null>(null);
  const left = useRef(false);
  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
      controller.current?.abort(PAGE_LEFT);
    };
  }, []);

  const snapshot = (current: Job, phase: RunPhase, extra: Partial<RunState> = {}): RunState => ({
    phase,
    kind: current.kind,
    importId: current.importId,
    done: rowsIn(current.plan.filter((batch) => current.applied.has(batch.number))),
    total: rowsIn(current.plan),
    rows: current.rows,
    plan: current.plan,
    applied: current.applied,
    results: current.results,
    ...extra,
  });

  // A batch goes even when empty (every row of it failed the browser's checks): the server
  // applies batches in order, so each one must arrive.
  const send = (current: Job, batch: BatchRange) => runImportBatch(current.importId, batch.number, batchRows(batch, current.rows));

  const finish = async (current: Job, cancelled: boolean) => {
    setState(snapshot(current, cancelled ? "stopping" : "finishing"));
    try {
      const record = await finishImport(current.importId, cancelled);
      forgetRunningImport();
      void invalidate(current.kind);
      setState(snapshot(current, "finished", { record, cancelled }));
    } catch (error) {
      setState(snapshot(current, "failed", { errorKey: importFailureKey(error) }));
    }
  };

  /** Reads back the failures of batches applied before a resume, when the server counts more than this session saw. */
  const collectEarlier = async (current: Job, signal: AbortSignal) => {
    if (current.earlier.length === 0) return;
    setState(snapshot(current, "collecting"));
    const detail = await getImport(current.importId);
    const known = [...current.results.values()].filter((result) => result.status === "failed").length;
    if (detail.failed <= known) return;
    await runBatches({
      batches: current.plan.filter((batch) => current.earlier.includes(batch.number)),
      send: (batch) => send(current, batch),
      onAnswer: (_batch, answer) => {
        for (const result of answer.results) current.results.set(result.row, result);
      },
      signal,
      isLostConnection,
    });
  };

  const drive = async (current: Job) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    // The page was left while the import was starting: it stays running, to be resumed.
    if (left.current) abort.abort(PAGE_LEFT);
    setState(snapshot(current, "running"));
    try {
      await runBatches({
        batches: batchesToRun(current.plan, [...current.applied]),
        send: (batch) => send(current, batch),
        onAnswer: (batch, answer) => {
          for (const result of answer.results) current.results.set(result.row, result);
          current.applied.add(batch.number);
          setState(snapshot(current, abort.signal.aborted ? "stopping" : "running"));
        },
        onRetry: (_batch, attempt) => setState(snapshot(current, "retrying", { attempt })),
        signal: abort.signal,
        isLostConnection,
        waitsForPrevious: isBatchOutOfOrder,
        inFlight: BATCHES_IN_FLIGHT,
      });
      await collectEarlier(current, abort.signal);
    } catch (error) {
      if (isStopped(error, abort.signal)) {
        // Stopped once every batch was in, it ended complete.
        if (abort.signal.reason !== PAGE_LEFT) await finish(current, batchesToRun(current.plan, [...current.applied]).length > 0);
      } else {
        setState(snapshot(current, isLostConnection(error) ? "paused" : "failed", { errorKey: importFailureKey(error) }));
      }
      return;
    }
    await finish(current, false);
  };

  /** Starts a new import and runs it. */
  const start = async (args: StartImportArgs, rows: readonly PreparedRow[], plan: readonly BatchRange[]) => {
    setState({ ...idle, phase: "starting", kind: args.kind, total: rowsIn(plan) });
    let record: ImportRecord;
    try {
      record = await startImport(args);
    } catch (error) {
      setState({ ...idle, phase: "failed", kind: args.kind, total: rowsIn(plan), errorKey: importFailureKey(error) });
      return;
    }
    writeRunningImport(session.user.id, record.id);
    job.current = { kind: args.kind, importId: record.id, rows, plan, applied: new Set(), earlier: [], results: new Map() };
    await drive(job.current);
  };

  /** Continues a running import from the first batch the server has not applied. */
  const resume = async (detail: ImportDetail, rows: readonly PreparedRow[], plan: readonly BatchRange[]) => {
    writeRunningImport(session.user.id, detail.id);
    job.current = { kind: detail.kind, importId: detail.id, rows, plan, applied: new Set(detail.batches), earlier: detail.batches, results: new Map() };
    await drive(job.current);
  };

  /** Goes on after a pause or a refusal, from the first batch not applied. */
  const retry = () => {
    if (job.current) void drive(job.current);
  };

  /** Stops: after the batches on their way when running, at once when paused or refused. */
  const stop = () => {
    if (state.phase === "running" || state.phase === "retrying" || state.phase === "collecting") controller.current?.abort();
    else if (job.current) void finish(job.current, true);
  };

  const reset = () => {
    controller.current?.abort();
    controller.current = null;
    job.current = null;
    setState(idle);
  };

  return { state, start, resume, retry, stop, reset };
}
