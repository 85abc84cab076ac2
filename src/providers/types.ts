/**
 * The contract between the chat layer and the provider layer. Adapters (one per wire protocol)
 * are pure transforms plus a thin caller with an injected fetch; `call.ts` adds timeouts,
 * retries and fallback across models.
 */
import type { Model, ProviderId } from "../catalog/models";

export type Role = "system" | "user" | "assistant";
export interface ChatMessage {
  role: Role;
  content: string;
}

export type { TokenUsage } from "../cost/tokens";
import type { TokenUsage } from "../cost/tokens";

/** What the gateway asks of one model, protocol-neutral. */
export interface ModelRequest {
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
}

export interface Completion {
  content: string;
  finishReason: string;
  usage: TokenUsage;
}

export type StreamEvent =
  | { type: "delta"; content: string }
  | { type: "done"; finishReason: string; usage: TokenUsage };

export type Protocol = "openai" | "anthropic" | "gemini";

export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Where providers without an API key are reached (the sandbox upstream), handed in per request. */
export interface KeylessUpstream {
  origin: string;
  fetch: FetchLike;
}

export interface ProviderConfig {
  id: ProviderId;
  protocol: Protocol;
  /** Default base URL; `<PROVIDER>_BASE_URL` overrides it. */
  baseUrl: string;
}

/** One attempt at one model, for the response's fallback fields and for traces. */
export interface Attempt {
  model: string;
  ok: boolean;
  status: number | null;
  error: string | null;
  latency_ms: number;
}

export interface CallResult {
  model: Model;
  completion: Completion;
  /** The first candidate when a later one served the call, else null. */
  fallbackFrom: Model | null;
  attempts: Attempt[];
  /** True when the sandbox upstream answered. */
  sandbox: boolean;
  /** Milliseconds spent waiting on upstreams (for x-svc-overhead-us). */
  upstreamMs: number;
}

export interface StreamResult {
  model: Model;
  fallbackFrom: Model | null;
  attempts: Attempt[];
  sandbox: boolean;
  /**
   * Content deltas then one `done`. Fallback happens only before the first content delta; a
   * failure after it is thrown from the iterator as an UpstreamError.
   */
  events: AsyncIterable<StreamEvent>;
  /** Milliseconds spent waiting on upstreams so far; final once `events` is exhausted. */
  upstreamMs(): number;
}
