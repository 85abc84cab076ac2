import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The one error type of the service. SPEC.md section 7 has two body shapes:
 * auth and per-minute rate-limit errors are wrapped in `detail`, all others are flat.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly wrapped = false,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    if (this.wrapped) return { detail: { error: this.code, message: this.message, ...this.extra } };
    return { error: this.code, message: this.message, ...this.extra };
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
}

export const invalidRequest = (message: string, issues: ValidationIssue[] = []) =>
  new ApiError(400, "invalid_request", message, { issues });

export const invalidApiKey = (message = "Missing, malformed or revoked API key.") =>
  new ApiError(401, "invalid_api_key", message, {}, true);

export const notFound = (code = "not_found", message = "Not found.") => new ApiError(404, code, message);
