/**
 * What `npm run faults` has to undo (temporary folders, databases, clusters, products),
 * undone in its `finally` blocks and, when the run is interrupted (Ctrl-C), all at once
 * before it exits.
 */
const pending = new Set<() => Promise<void>>();

/** Registers an undo step; returns it, to be awaited when the resource is done with (then it runs once). */
export function undoLater(step: () => Promise<void> | void): () => Promise<void> {
  let done: Promise<void> | null = null;
  const once = () => {
    pending.delete(once);
    done ??= Promise.resolve().then(step);
    return done;
  };
  pending.add(once);
  return once;
}

/** Undoes everything still registered, the latest first; failures are reported, not thrown. */
export async function undoAll(): Promise<void> {
  for (const step of [...pending].reverse()) {
    await step().catch((error: unknown) => console.error(`cleanup failed: ${(error as Error).message}`));
  }
}

/**
 * On Ctrl-C or SIGTERM: undo everything, then exit (130 or 143). A listener that stays (not
 * `once`): scripts/stack/product-process.ts leaves the exit to a script with a handler of its own.
 */
export function undoOnInterrupt(): void {
  let interrupted = false;
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`\n${signal}: cleaning up…`);
      void undoAll().finally(() => process.exit(code));
    });
  }
}
