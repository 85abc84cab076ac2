import type { ProviderId } from "../catalog/models";

/**
 * An upstream failure after a stream has begun (its first content delta is already out), thrown
 * from `StreamResult.events`. Nothing can fall back at that point; the chat layer ends its own
 * stream with an error event.
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
