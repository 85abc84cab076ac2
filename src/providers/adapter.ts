/**
 * What every wire-protocol adapter provides: pure transforms to the upstream request and from the
 * upstream's response, stream messages and error bodies. No I/O here; `attempt.ts` sends.
 */
import type { Model } from "../catalog/models";
import type { SseMessage } from "./sse";
import type { Choice, ModelRequest, StreamDelta, TokenUsage } from "./types";

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface RequestTarget {
  /** Without a trailing slash. */
  baseUrl: string;
  /** Undefined only for the sandbox upstream, which takes no credentials. */
  apiKey: string | undefined;
  stream: boolean;
}

/** A completion as the upstream reported it; usage is null when it reported none. */
export interface UpstreamCompletion extends Choice {
  usage: TokenUsage | null;
  /** Every choice in index order when the upstream answered several (n > 1); the fields above are choices[0]. */
  choices?: Choice[];
}

/** Choices read from an upstream body as one completion: the first at the top, all of them in `choices` when there are several. */
export function withChoices(choices: readonly Choice[], usage: TokenUsage | null): UpstreamCompletion {
  const [first] = choices;
  if (!first) throw new UpstreamFault("response has no choices");
  return { ...first, usage, ...(choices.length > 1 ? { choices: [...choices] } : {}) };
}

export interface StreamEnd {
  finishReason: string;
  usage: TokenUsage | null;
  /** Each choice's finish reason in index order when the stream carried several choices (n > 1). */
  finishReasons?: string[];
}

/** Stateful reader of one upstream stream, fed one SSE message at a time. */
export interface StreamDecoder {
  /** The content and tool-call deltas the message carries (often none). Throws UpstreamFault on an error event or garbage. */
  push(msg: SseMessage): StreamDelta[];
  /** True once the upstream has said the answer is complete. */
  readonly finished: boolean;
  /** The end of the answer; throws UpstreamFault if the stream stopped before the upstream finished it. */
  end(): StreamEnd;
}

export interface Adapter {
  request(model: Model, req: ModelRequest, target: RequestTarget): UpstreamRequest;
  /** Throws UpstreamFault when the body is not the protocol's response shape. */
  response(body: unknown): UpstreamCompletion;
  decoder(): StreamDecoder;
  /** A one-line reason from an error body (any text; it may not be JSON at all). */
  errorMessage(status: number, body: string): string;
}

/**
 * A response the caller cannot use although the HTTP exchange succeeded: a malformed body, an error
 * event inside a 200 stream, a stream that stopped early. `status` is the HTTP status the upstream
 * would have meant (an Anthropic `overloaded_error` event means 529), or null when none applies;
 * the retry policy reads it.
 */
export class UpstreamFault extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message);
    this.name = "UpstreamFault";
  }
}

/** JSON.parse for SSE data and bodies, failing as an UpstreamFault. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamFault(`malformed JSON from upstream: ${snippet(text)}`);
  }
}

export const snippet = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat || "(empty body)";
};

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** `error.message` from the common `{error: {message}}` / `{error: "..."}` / `{message}` shapes. */
export function errorBodyMessage(status: number, body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `HTTP ${status}: ${snippet(body)}`;
  }
  const root = Array.isArray(parsed) ? parsed[0] : parsed; // Gemini has wrapped errors in an array.
  if (isObject(root)) {
    const err = root.error;
    if (isObject(err) && typeof err.message === "string") {
      const kind = typeof err.type === "string" ? err.type : typeof err.status === "string" ? err.status : null;
      return `HTTP ${status}${kind ? ` ${kind}` : ""}: ${err.message}`;
    }
    if (typeof err === "string") return `HTTP ${status}: ${err}`;
    if (typeof root.message === "string") return `HTTP ${status}: ${root.message}`;
  }
  return `HTTP ${status}: ${snippet(body)}`;
}

/** A tool call means the answer is the call: compatible servers and Gemini still say "stop". */
export const finishWithTools = (finish: string, toolCalls: readonly unknown[]) => (toolCalls.length && finish === "stop" ? "tool_calls" : finish);

export const contentDelta = (content: string): StreamDelta[] => (content ? [{ type: "delta", content }] : []);
