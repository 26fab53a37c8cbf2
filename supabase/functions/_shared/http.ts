/** Response helpers shared by every function: CORS and the {success, error, message} shape. */

export const corsHeaders: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "authorization, x-client-info, apikey, content-type, x-csrf-token",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
};

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: corsHeaders });
}

export function failure(status: number, error: string, message?: string): Response {
  return json({ success: false, error, ...(message ? { message } : {}) }, status);
}

export function preflight(): Response {
  return new Response("ok", { headers: corsHeaders });
}
