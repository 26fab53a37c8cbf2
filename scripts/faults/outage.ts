/**
 * Scenario 3 of `npm run faults`, the requests: the product runs on a private PostgreSQL
 * cluster (scripts/faults/cluster.ts) while a stream of requests goes on (Auth sign-in, a
 * Data API RPC, an Edge Function, each from two clients at once); the cluster is stopped as
 * in a crash (`pg_ctl stop -m immediate`), stays down a few seconds and starts again. Every
 * answer must be a success or a clean error (scripts/fuzz/judge.ts, the fuzzer's judgement,
 * with a 5xx allowed while the database is down), no request may take longer than the
 * bound, and the same product, never restarted, must answer each kind again.
 */
import { answerProblems, type JudgedCall } from "../fuzz/judge.ts";
import type { Cluster } from "./cluster.ts";
import { demoPassword, signedInClient } from "../../tests/support/clients.ts";
import { testKeys } from "../../tests/support/keys.ts";

/** No request may take longer than this (postgres.js gives up connecting after 30 s). */
export const requestBoundMs = 30_000;
const kinds = ["sign-in", "Data API RPC", "Edge Function"] as const;
type Kind = (typeof kinds)[number];

export interface KindTally {
  requests: number;
  successes: number;
  cleanErrors: number;
  unclean: number;
  /** Answers slower than requestBoundMs, or none at all. */
  hung: number;
  slowestMs: number;
  /** Seconds from the cluster accepting connections again to this kind's first success. */
  recoveredAfter: number | null;
  /** Status codes of the clean errors. */
  errorStatuses: Map<number, number>;
}

export interface OutageReport {
  tallies: Map<Kind, KindTally>;
  downSeconds: number;
  /** A sample of the unclean answers, with what is wrong with them. */
  uncleanSamples: string[];
  problems: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function requestsThroughOutage(url: string, cluster: Cluster, log: (line: string) => void): Promise<OutageReport> {
  // The product `npm run faults` started runs on the tests' keys (faults.ts).
  const key = testKeys.publishableKey;
  const { session } = await signedInClient(url, "satis@demo.test");
  const json = { "content-type": "application/json", apikey: key };
  const signedIn = { ...json, authorization: `Bearer ${session.access_token}` };
  const requests: Record<Kind, { path: string; headers: Record<string, string>; body: unknown; judged: JudgedCall }> = {
    "sign-in": { path: "/auth/v1/token?grant_type=password", headers: json, body: { email: "satis@demo.test", password: demoPassword }, judged: { kind: "auth", databaseDown: true } },
    "Data API RPC": { path: "/rest/v1/rpc/list_customers", headers: signedIn, body: { p_limit: 25 }, judged: { kind: "rpc", databaseDown: true } },
    "Edge Function": { path: "/functions/v1/current-user", headers: signedIn, body: {}, judged: { kind: "edge", databaseDown: true } },
  };
  const tallies = new Map<Kind, KindTally>(kinds.map((kind) => [kind, {
    requests: 0, successes: 0, cleanErrors: 0, unclean: 0, hung: 0, slowestMs: 0, recoveredAfter: null, errorStatuses: new Map(),
  }]));
  const report: OutageReport = { tallies, downSeconds: 0, uncleanSamples: [], problems: [] };
  let stopAt = Infinity;
  let upAt = Infinity;
  let running = true;

  const send = async (kind: Kind) => {
    const request = requests[kind];
    const tally = tallies.get(kind)!;
    const sent = performance.now();
    let status = 0;
    let text: string;
    try {
      const response = await fetch(`${url}${request.path}`, {
        method: "POST", headers: request.headers, body: JSON.stringify(request.body), signal: AbortSignal.timeout(requestBoundMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      text = `no answer: ${(error as Error).message}`;
    }
    const ms = performance.now() - sent;
    tally.requests += 1;
    tally.slowestMs = Math.max(tally.slowestMs, ms);
    if (status === 0 || ms > requestBoundMs) tally.hung += 1;
    if (status >= 200 && status < 300) {
      tally.successes += 1;
      const answered = performance.now();
      if (sent >= stopAt && answered >= upAt) tally.recoveredAfter ??= (answered - upAt) / 1000;
      return;
    }
    if (performance.now() < stopAt) report.problems.push(`${kind} failed before the database went away: ${status} ${text.slice(0, 200)}`);
    const problems = status === 0 ? ["no answer"] : answerProblems(status, text, request.judged);
    if (problems.length === 0) {
      tally.cleanErrors += 1;
      tally.errorStatuses.set(status, (tally.errorStatuses.get(status) ?? 0) + 1);
    } else {
      tally.unclean += 1;
      if (report.uncleanSamples.length < 10) report.uncleanSamples.push(`${kind}: ${problems.join(", ")}: ${status} ${text.slice(0, 300)}`);
    }
  };
  const loop = async (kind: Kind) => {
    while (running) await send(kind);
  };
  const loops = kinds.flatMap((kind) => [loop(kind), loop(kind)]);

  await sleep(5_000);
  log("stopping the cluster (immediate)");
  stopAt = performance.now();
  await cluster.stop("immediate");
  await sleep(5_000);
  log("starting the cluster");
  await cluster.start();
  upAt = performance.now();
  report.downSeconds = (upAt - stopAt) / 1000;
  // Until every kind has succeeded again (or the bound has passed twice), then 5 s more.
  while (kinds.some((kind) => tallies.get(kind)!.recoveredAfter === null) && performance.now() - upAt < 2 * requestBoundMs) await sleep(250);
  await sleep(5_000);
  running = false;
  await Promise.all(loops);
  for (const kind of kinds) {
    if (tallies.get(kind)!.recoveredAfter === null) report.problems.push(`${kind}: no success after the database came back`);
  }
  return report;
}

/** Whether the product signs a user in (Auth and the database behind it answer). */
export async function productAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey: testKeys.publishableKey },
      body: JSON.stringify({ email: "satis@demo.test", password: demoPassword }),
      signal: AbortSignal.timeout(requestBoundMs),
    });
    return response.ok;
  } catch {
    return false;
  }
}
