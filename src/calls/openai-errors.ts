import { ApiError, apiError, type ValidationIssue } from "../shared/errors";

/**
 * OpenAI's error object for the OpenAI-compatible surface (chat completions, responses, models,
 * skill invoke):
 * `{error: {message, type, code, param}}`, which the openai SDK, the AI SDK and LangChain read, so
 * they show our message. Our code is `code`; the extra fields of the flat shape (the zod `issues`,
 * the fallback `attempts`) stay inside `error`. What SPEC.md section 7 fixes keeps its own shape:
 * the wrapped 401 and 429 and the flat daily 429 (the auth middleware throws those before any
 * handler, so they never reach this handler anyway; the check keeps it so if that changes).
 */
const TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "invalid_request_error",
  403: "permission_error",
  404: "invalid_request_error",
  405: "invalid_request_error",
  413: "invalid_request_error",
  422: "invalid_request_error",
  429: "rate_limit_error",
};

const typeOf = (status: number) => TYPE_BY_STATUS[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");

/** The field a validation error is about, in OpenAI's dotted form (`messages.0.content`), or null. */
function paramOf(extra: Record<string, unknown>): string | null {
  const issues = extra.issues as ValidationIssue[] | undefined;
  return Array.isArray(issues) && issues[0]?.path ? issues[0].path : null;
}

export function openAiErrorBody(err: ApiError): Record<string, unknown> {
  const { param, ...extra } = err.extra as Record<string, unknown> & { param?: string };
  return { error: { message: err.message, type: typeOf(err.status), code: err.code, param: param ?? paramOf(extra), ...extra } };
}

const keepsSpecShape = (err: ApiError) => err.wrapped || err.code === "daily_limit_exceeded";

/** Hono's own HTTPException (a body that is not JSON...), told by its shape so this file stays below the edge. */
const httpStatusOf = (err: unknown): number | null =>
  err instanceof Error && "getResponse" in err && typeof (err as { status?: unknown }).status === "number" ? (err as unknown as { status: number }).status : null;

/** Any error thrown on the OpenAI-compatible surface as the response it becomes. */
export function openAiError(err: unknown, requestId: string): { status: ApiError["status"]; body: Record<string, unknown>; headers: Record<string, string> } {
  let error: ApiError;
  const httpStatus = httpStatusOf(err);
  if (err instanceof ApiError) error = err;
  else if (httpStatus !== null && httpStatus < 500) {
    error = apiError(httpStatus === 413 ? "request_too_large" : "invalid_request", (err as Error).message || "Invalid request.");
  } else {
    // The app's error handler has logged it already.
    error = apiError("internal_error", "An unexpected error occurred.", { request_id: requestId });
  }
  return { status: error.status, body: keepsSpecShape(error) ? error.body() : openAiErrorBody(error), headers: error.headers };
}

/**
 * The response an error on the OpenAI-compatible surface becomes. The routers of that surface call
 * it from a middleware after the app's one error handler has rendered the flat shape (Hono keeps the
 * thrown error as c.error), so their validators stay readable to the operation registry.
 */
export function openAiErrorResponse(err: unknown, requestId: string): Response {
  const { status, body, headers } = openAiError(err, requestId);
  return Response.json(body, { status, headers });
}
