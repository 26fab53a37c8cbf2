import { siteUrlFrom } from "../password-reset/handler.ts";
import { mailEnvironment } from "../mail/environment.ts";
import { createHandler } from "./handler.ts";

Deno.serve(createHandler({
  mail: mailEnvironment(),
  siteUrl: siteUrlFrom(Deno.env.get("SITE_URL")),
  secretKeys: [Deno.env.get("SUPABASE_SECRET_KEY"), Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")].filter((key): key is string => Boolean(key)),
}));
