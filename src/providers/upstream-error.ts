import type { ProviderId } from "../catalog/models";
import type { Attempt } from "./types";

/**
 * An upstream failure after a stream has begun (its first content delta is already out), handed
 * to the stream sink (`StreamSink.failed`). Nothing can fall back at that point; the chat layer
 * ends its own stream with an error event.
 */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** The HTTP status the failure stands for (e.g. 529 for an `overloaded_error` event), or null for a cut stream or a timeout. */
    readonly status: number | null,
    /** Catalog id of the model whose stream failed. */
    readonly model: string,
    readonly provider: ProviderId,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

/**
 * The provider core's domain errors: each endpoint maps them to its own SPEC.md section 7 code
 * (chat: 502 upstream_error and 503 no_provider_available; orchestrate: all_models_failed).
 */
export class AllCandidatesFailed extends Error {
  constructor(
    readonly attempts: Attempt[],
    /** The client went away before any upstream answered. */
    readonly aborted: boolean,
  ) {
    const last = attempts[attempts.length - 1];
    super(
      aborted
        ? "The request was aborted before an upstream answered."
        : `Every candidate model failed; last: ${last ? `${last.model}: ${(last.error ?? "failed").replace(/\.+$/, "")}` : "none"}.`,
    );
    this.name = "AllCandidatesFailed";
  }
}

export class NoProviderConfigured extends Error {
  constructor() {
    super("No provider is configured for any candidate model (no API key, and the sandbox upstream is off).");
    this.name = "NoProviderConfigured";
  }
}
