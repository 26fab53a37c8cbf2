import { mailEnvironment } from "../mail/environment.ts";
import { createHandler, siteUrlFrom } from "./handler.ts";

/** Hosted Supabase keeps a function alive for work handed to EdgeRuntime.waitUntil; locally the process stays. */
const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (task: Promise<unknown>) => void } }).EdgeRuntime;

Deno.serve(createHandler({
  mail: mailEnvironment(),
  siteUrl: siteUrlFrom(Deno.env.get("SITE_URL")),
  background: (task) => {
    // Never the link or the token in the log: only that a reset e-mail could not be finished.
    const finished = task().catch(() => console.error("password-reset: a reset e-mail could not be finished"));
    runtime?.waitUntil?.(finished);
  },
}));
