/**
 * `npm run bench`: timings of the local stack, p50/p95 over repeated runs, each compared
 * with the raw-SQL baseline of the same work (the database alone, no HTTP, no Auth).
 * Numbers, not pass/fail: run it before and after a change that may cost speed.
 */
import { performance } from "node:perf_hooks";
import { freePort, startStack } from "./stack/server.ts";
import { anonClient, signedInClient } from "../tests/support/clients.ts";

interface Sample {
  name: string;
  p50: number;
  p95: number;
  runs: number;
}

async function measure(name: string, runs: number, work: () => Promise<unknown>): Promise<Sample> {
  for (let warmup = 0; warmup < Math.min(5, runs); warmup++) await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { name, p50: at(0.5), p95: at(0.95), runs };
}

const bootStarted = performance.now();
const stack = await startStack({ port: await freePort(), seed: true });
const bootMs = performance.now() - bootStarted;

try {
  const { client, session } = await signedInClient(stack.url, "admin@demo.test");
  const rawSql = `select set_config('request.jwt.claim.sub', '${session.user.id}', true),
                         public.get_current_user_context()`;

  const pairs: [Sample, Sample][] = [
    [
      await measure("get_current_user_context via REST", 200, async () => {
        const { error } = await client.rpc("get_current_user_context");
        if (error) throw new Error(error.message);
      }),
      await measure("get_current_user_context raw SQL", 200, () => stack.backend.sql.query(rawSql)),
    ],
    [
      await measure("password sign-in via Auth", 20, () =>
        anonClient(stack.url).auth.signInWithPassword({ email: "admin@demo.test", password: "Demo.1234" }),
      ),
      await measure("bcrypt check raw SQL", 20, () =>
        stack.backend.sql.query(
          "select encrypted_password = extensions.crypt('Demo.1234', encrypted_password) from auth.users where email = 'admin@demo.test'",
        ),
      ),
    ],
  ];

  console.log(`stack boot (in-memory PGlite, migrations + seed, edge runtime): ${bootMs.toFixed(0)} ms\n`);
  console.log("work".padEnd(42), "p50 ms".padStart(9), "p95 ms".padStart(9), "runs".padStart(6), "ratio p50".padStart(10));
  for (const [measured, baseline] of pairs) {
    for (const sample of [measured, baseline]) {
      const ratio = sample === measured ? `${(measured.p50 / baseline.p50).toFixed(1)}x` : "baseline";
      console.log(sample.name.padEnd(42), sample.p50.toFixed(2).padStart(9), sample.p95.toFixed(2).padStart(9), String(sample.runs).padStart(6), ratio.padStart(10));
    }
  }
} finally {
  await stack.stop();
}
