import { useEffect, useRef, useState } from "react";
import { isLostConnection } from "@/lib/errors.ts";
import { checkImportRows, type ImportSettings, type RowResult } from "../api/imports.ts";
import { batchRows, rowsIn, type BatchRange } from "../utils/batches.ts";
import { importFailureKey } from "../utils/import-errors.ts";
import type { PreparedRow } from "../utils/prepare-rows.ts";
import { BATCHES_IN_FLIGHT, isStopped, runBatches } from "../utils/run-batches.ts";

export type CheckPhase = "idle" | "checking" | "done" | "stopped" | "failed";

export interface CheckState {
  phase: CheckPhase;
  /** File rows checked so far, of `total`. */
  checked: number;
  total: number;
  /** The server's answers so far, by row number. */
  results: ReadonlyMap<number, RowResult>;
  /** Set while a lost connection is being retried. */
  attempt?: number;
  errorKey?: ReturnType<typeof importFailureKey>;
}

const idle: CheckState = { phase: "idle", checked: 0, total: 0, results: new Map() };

/**
 * The preview's server check: check_import_rows over the import's own batches (the rows
 * that would be sent), with progress, a stop, and retries after a lost connection. The
 * answers are kept by row number; a new check or a reset forgets them.
 */
export function useImportCheck() {
  const [state, setState] = useState<CheckState>(idle);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (settings: ImportSettings, rows: readonly PreparedRow[], plan: readonly BatchRange[]) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    const results = new Map<number, RowResult>();
    const total = rowsIn(plan);
    let checked = 0;
    setState({ phase: "checking", checked, total, results });
    try {
      await runBatches({
        batches: plan,
        send: (batch) => {
          const payload = batchRows(batch, rows);
          return payload.length === 0 ? Promise.resolve([]) : checkImportRows(settings, payload);
        },
        onAnswer: (batch, answer) => {
          for (const result of answer) results.set(result.row, result);
          checked += batch.end - batch.start;
          if (controller.current === abort) setState({ phase: "checking", checked, total, results });
        },
        onRetry: (_batch, attempt) => setState({ phase: "checking", checked, total, results, attempt }),
        signal: abort.signal,
        isLostConnection,
        inFlight: BATCHES_IN_FLIGHT,
      });
      if (controller.current === abort) setState({ phase: "done", checked, total, results });
    } catch (error) {
      if (controller.current !== abort) return;
      setState(
        isStopped(error, abort.signal)
          ? { phase: "stopped", checked, total, results }
          : { phase: "failed", checked, total, results, errorKey: importFailureKey(error) },
      );
    }
  };

  /** Forgets the check (the settings or the rows changed). */
  const reset = () => {
    controller.current?.abort();
    controller.current = null;
    setState(idle);
  };

  return { state, start, stop: () => controller.current?.abort(), reset };
}
