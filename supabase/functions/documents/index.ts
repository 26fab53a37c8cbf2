import { clientForCaller, serviceClient } from "../_shared/supabase.ts";
import { bucketStorage, createHandler } from "./handler.ts";

Deno.serve(createHandler(clientForCaller, () => bucketStorage(serviceClient())));
