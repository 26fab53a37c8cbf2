import { clientForCaller } from "../_shared/supabase.ts";
import { createHandler } from "./handler.ts";
import { mailEnvironment } from "./environment.ts";

Deno.serve(createHandler(clientForCaller, mailEnvironment()));
