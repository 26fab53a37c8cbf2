/**
 * What makes an answer clean, for `npm run fuzz` and `npm run faults`: a success, or a
 * refusal that says what went wrong in the API's own shape (the RPC envelope
 * `{success: false, error, code}`, a Data API error about the request itself, an Edge
 * Function's envelope, Auth's error) as JSON; never a server error, a stack trace, a raw
 * SQL error or a database driver's message.
 */

/** A Data API refusal about the request itself (names, types, JWT), not the function's work. */
const requestLevelCodes = /^(PGRST\d+|42501|42883)$/;
/** Type conversion of an argument (with a mistyped argument these are fair). */
const conversionCodes = /^(22P02|22P05|22003|22007|22008|22021|2202E|22023|22004|22025|22P04)$/;
const stackTrace = /\bat [\w$.<>]+ \(|\bat (file|node|deno|ext):|node_modules\/|\.(ts|js|mjs):\d+:\d+/;
/** A database driver's or server's own words about a lost connection. */
const rawConnectionError =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|terminating connection|server closed the connection|the database system is (starting up|shutting down|in recovery)|Connection terminated/i;

export interface JudgedCall {
  /** What was called: an RPC (/rest/v1/rpc), an Edge Function (/functions/v1) or Auth (/auth/v1). */
  kind: "rpc" | "edge" | "auth";
  /** An argument of the wrong type was sent (a type conversion refusal is then fair). */
  mistyped?: boolean;
  /**
   * The database was unreachable: then a server error (503, the service is unavailable, or
   * a function's 500) is the honest answer, clean when it says so in the API's JSON.
   */
  databaseDown?: boolean;
}

/** The problems of one answer (none: it is clean). */
export function answerProblems(status: number, text: string, call: JudgedCall): string[] {
  const problems: string[] = [];
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = null;
  }
  const envelope = answer !== null && typeof answer === "object" && !Array.isArray(answer) ? (answer as Record<string, unknown>) : null;
  const apiError = status >= 400 && envelope && typeof envelope.code === "string" && typeof envelope.message === "string" ? envelope : null;

  if (status >= 500 && !call.databaseDown) problems.push(`server error ${status}`);
  if (status >= 400 && !envelope) problems.push(`a ${status} answer that is not a JSON object`);
  if (stackTrace.test(text)) problems.push("stack trace in the answer");
  if (rawConnectionError.test(text)) problems.push("a raw connection error in the answer");
  if (apiError && call.kind === "rpc") {
    const code = apiError.code as string;
    if (!requestLevelCodes.test(code) && !(call.mistyped && conversionCodes.test(code))) problems.push(`raw SQL error ${code}`);
  }
  // An Edge Function refuses with the envelope; the gateway in front of it (as on hosted
  // Supabase) refuses a request without a valid JWT with its own {code: "UNAUTHORIZED_…"}.
  const gatewayRefusal = status === 401 && typeof envelope?.code === "string" && envelope.code.startsWith("UNAUTHORIZED_");
  if (status >= 400 && status < 500 && call.kind === "edge" && !(envelope && typeof envelope.error === "string") && !gatewayRefusal) {
    problems.push("an Edge Function refusal without the envelope");
  }
  return problems;
}

/** Whether an answer refuses the call: an HTTP error, or the RPC envelope with success false. */
export function isRefusal(status: number, text: string): boolean {
  if (status >= 400) return true;
  try {
    const answer = JSON.parse(text) as { success?: unknown; error?: unknown } | null;
    return answer !== null && typeof answer === "object" && answer.success === false && typeof answer.error === "string";
  } catch {
    return false;
  }
}
