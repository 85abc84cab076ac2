/**
 * The contract between the chat layer and the provider layer. Adapters (one per wire protocol)
 * are pure transforms plus a thin caller with an injected fetch; `call.ts` adds timeouts,
 * retries and fallback across models.
 */
import type { Model, ProviderId } from "../catalog/models";

export type Role = "system" | "user" | "assistant";
/** A message as text: what routing, the token estimator and plain callers (skills, orchestrate) use. */
export interface ChatMessage {
  role: Role;
  content: string;
}

/** One part of a user message's content (OpenAI content parts, protocol-neutral). */
export type ContentPart =
  | { type: "text"; text: string }
  /** An http(s) URL or a `data:` URL; `detail` is OpenAI's resolution hint. */
  | { type: "image"; url: string; detail?: "auto" | "low" | "high" };

/** A function call the model asked for; `arguments` is JSON text, as OpenAI carries it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * A message of the conversation as every protocol needs it: content parts, the assistant's tool
 * calls and the tool results that answer them. A ChatMessage is one too.
 */
export interface Message {
  role: Role | "tool";
  content: string | ContentPart[];
  /** Assistant messages: the calls the model made. */
  toolCalls?: ToolCall[];
  /** Tool messages: the call this result answers. */
  toolCallId?: string;
}

export interface ToolSpec {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
  strict?: boolean;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

export type ResponseFormat =
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: Record<string, unknown>; strict: boolean; description?: string };

export type ReasoningEffort = "minimal" | "low" | "medium" | "high";

/** The OpenAI parameters beyond messages, budget and temperature; each adapter translates or drops them (docs/compatibility.md). */
export interface CallOptions {
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  stop?: string[];
  topP?: number;
  seed?: number;
  user?: string;
  reasoningEffort?: ReasoningEffort;
  /** OpenAI's `n` when above 1: that many choices in one answer (models with the `n` capability). */
  n?: number;
}

export type { TokenUsage } from "../cost/tokens";
import type { TokenUsage } from "../cost/tokens";

/** What the gateway asks of one model, protocol-neutral. */
export interface ModelRequest {
  messages: readonly Message[];
  maxTokens: number;
  temperature: number;
  options?: CallOptions;
}

/** One answer of the model: a completion has one, or `n` of them when the request asked for several. */
export interface Choice {
  content: string;
  toolCalls: ToolCall[];
  finishReason: string;
}

export interface Completion extends Choice {
  /** The sum over every choice, as the provider reports it. */
  usage: TokenUsage;
  /** Every choice in index order when the request asked for several (n > 1); the fields above are choices[0]. */
  choices?: Choice[];
}

/** A piece of a streamed tool call, in OpenAI's delta form: id and name come first, arguments in pieces. */
export interface ToolCallDelta {
  /** Which tool call of the answer (0, 1, ...). */
  index: number;
  id?: string;
  name?: string;
  arguments: string;
}

/** What one upstream stream message adds to the answer. */
export type StreamDelta =
  /** `choice`: which of the n choices (n > 1) the delta belongs to; absent means 0. */
  | { type: "delta"; content: string; choice?: number }
  | { type: "tool_call"; call: ToolCallDelta; choice?: number };


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

/**
 * What the layer above makes of one upstream stream, called synchronously by the stream pipe's read
 * loop: each returns the text to write (often several frames), and the pipe writes it as ONE chunk
 * (joined with the next ones when they come within one clock tick). No awaits.
 */
export interface StreamSink {
  /** Before the first upstream read of the pipe, with the deltas the attempt read to open the stream. */
  open(first: readonly StreamDelta[]): string;
  /** The deltas of one upstream read (none, one or several). */
  deltas(ds: readonly StreamDelta[]): string;
  /** The upstream finished the answer. */
  /** `finishReasons`: each choice's, in index order, when the request asked for several (n > 1). */
  done(finishReason: string, usage: TokenUsage, finishReasons?: string[]): string;
  /**
   * The stream ended early: the upstream failed after the first delta (an UpstreamError), or the
   * reader went away (null; nobody reads what is returned). Called at most once, never after done.
   */
  failed(err: Error | null): string;
}

export interface PipedStream {
  /** The response body: the upstream piped through the sink. Cancelling it cancels the upstream. */
  readable: ReadableStream<Uint8Array>;
  /** Settles once the sink's done or failed has run, however the stream ended. */
  ended: Promise<void>;
}

export interface StreamResult {
  model: Model;
  fallbackFrom: Model | null;
  attempts: Attempt[];
  sandbox: boolean;
  /**
   * The rest of the stream through `sink`, once (an upstream body is read once). Fallback happened
   * before the first delta; a failure after it reaches `sink.failed` as an UpstreamError.
   */
  pipe(sink: StreamSink): PipedStream;
  /** Milliseconds spent waiting on upstreams until the stream opened (for x-svc-overhead-us). */
  upstreamMs(): number;
}
