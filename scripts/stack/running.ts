/**
 * The embedded database opens in one process only: a second process on the same folder
 * would corrupt it. `npm start` leaves a note beside the folder while it runs
 * (`<data folder>.running.json`: its process id and address), so a second start refuses,
 * a backup asks the running product for its snapshot, and a restore waits for a stop.
 * A note left by a process that no longer runs (kill -9, power cut) is ignored.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";

export interface RunningProduct {
  pid: number;
  url: string;
}

const notePath = (dataDir: string) => `${dataDir.replace(/\/+$/, "")}.running.json`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A process id is reused after a restart: only a process started from scripts/start.ts counts.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("scripts/start.ts");
  } catch {
    return true;
  }
}

/** The product running on this data folder, or null. */
export function runningProduct(dataDir: string): RunningProduct | null {
  try {
    const note = JSON.parse(readFileSync(notePath(dataDir), "utf8")) as RunningProduct;
    return note.pid !== process.pid && alive(note.pid) ? note : null;
  } catch {
    return null;
  }
}

/** Leaves the note; returns what removes it. */
export function markRunning(dataDir: string, url: string): () => void {
  const path = notePath(dataDir);
  writeFileSync(path, JSON.stringify({ pid: process.pid, url } satisfies RunningProduct));
  return () => rmSync(path, { force: true });
}
