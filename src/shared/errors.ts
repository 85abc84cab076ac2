import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The errors catalogue: every code the service answers with, its HTTP status and its body shape.
 * SPEC.md section 7 has two shapes: auth and per-minute rate-limit errors are wrapped in `detail`,
 * all others are flat. A code not in this table cannot be thrown, so docs/errors.md can list them all.
 */
const CATALOGUE = {
  invalid_request: { status: 400 },
  no_goal: { status: 400 },
  no_task: { status: 400 },
  no_messages: { status: 400 },
  unknown_model: { status: 400 },
  invalid_api_key: { status: 401, shape: "wrapped" },
  invalid_admin_token: { status: 401, shape: "wrapped" },
  budget_exceeds_tier_limit: { status: 402 },
  not_found: { status: 404 },
  run_not_found: { status: 404 },
  handoff_not_found: { status: 404 },
  share_not_found: { status: 404 },
  skill_not_found: { status: 404 },
  proof_not_found: { status: 404 },
  key_not_found: { status: 404 },
  model_not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  too_many_keys: { status: 409 },
  key_revoked: { status: 409 },
  request_too_large: { status: 413 },
  unprocessable_request: { status: 422 },
  no_compliant_model: { status: 422 },
  rate_limit_exceeded: { status: 429, shape: "wrapped" },
  daily_limit_exceeded: { status: 429 },
  internal_error: { status: 500 },
  upstream_error: { status: 502 },
  all_models_failed: { status: 502 },
  orchestration_error: { status: 502 },
  no_code_produced: { status: 502 },
  code_error: { status: 502 },
  agent_error: { status: 502 },
  no_provider_available: { status: 503 },
} as const satisfies Record<string, { status: ContentfulStatusCode; shape?: "wrapped" }>;

export type ErrorCode = keyof typeof CATALOGUE;
export const ERROR_CODES = Object.keys(CATALOGUE) as ErrorCode[];

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return CATALOGUE[code].status;
}

export interface ApiErrorOptions {
  message: string;
  /** Extra body fields beside `error` and `message` (SPEC.md section 7 names some per code). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The one error type of the service; `renderError` in app.ts is the one place it becomes a response. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly wrapped: boolean;

  constructor(
    readonly code: ErrorCode,
    options: ApiErrorOptions,
  ) {
    super(options.message);
    const entry: { status: ContentfulStatusCode; shape?: "wrapped" } = CATALOGUE[code];
    this.status = entry.status;
    this.wrapped = entry.shape === "wrapped";
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  body(): Record<string, unknown> {
    if (this.wrapped) return { detail: { error: this.code, message: this.message, ...this.extra } };
    return { error: this.code, message: this.message, ...this.extra };
  }
}

/** The short form: a code, a message and any extra fields. */
export const apiError = (code: ErrorCode, message: string, extra?: Record<string, unknown>) => new ApiError(code, { message, extra });

export interface ValidationIssue {
  path: string;
  message: string;
}

export const invalidRequest = (message: string, issues: ValidationIssue[] = []) => apiError("invalid_request", message, { issues });

export const invalidApiKey = (message = "Missing, malformed or revoked API key.") => apiError("invalid_api_key", message);

type NotFoundCode = { [K in ErrorCode]: (typeof CATALOGUE)[K]["status"] extends 404 ? K : never }[ErrorCode];
export const notFound = (code: NotFoundCode = "not_found", message = "Not found.") => apiError(code, message);
