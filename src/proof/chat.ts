import type { Model } from "../catalog/models";
import type { TokenUsage } from "../cost/tokens";
import { hashCanonical, type HashString } from "../shared/hash";

/**
 * The chat receipt (SPEC.md 2.1, version svc-receipt-v1): what ran, nothing identifying the caller,
 * and hashes of what went in and out. Used by chat completions and skill invocations.
 */
export interface ChatReceipt {
  version: "svc-receipt-v1";
  request_id: string;
  timestamp: string;
  endpoint: string;
  model: string;
  provider: string;
  mode: string;
  reason: string;
  request_hash: HashString;
  response_hash: HashString;
  usage: TokenUsage;
  cost_usd: number;
  fallback_from: string | null;
  sandbox: boolean;
}

/** A tool call as hashed: the id, the function name and the arguments JSON text as the model wrote it. */
export interface HashedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A message as hashed (docs/proofs.md): content is a string or the array of content parts. */
export interface HashedMessage {
  role: string;
  content: string | ReadonlyArray<unknown>;
  toolCalls?: readonly HashedToolCall[];
  toolCallId?: string;
}

/** The request as the receipt covers it: messages and the parameters that shape the answer. */
export interface HashedRequest {
  messages: readonly HashedMessage[];
  model: string;
  max_tokens: number;
  temperature: number;
  /** The OpenAI parameters beyond these (tools, response_format, stop...), when any was given. */
  options?: Record<string, unknown>;
}

/** One choice of an answer with several (n > 1), as hashed. */
export interface HashedChoice {
  content: string;
  finish_reason: string;
  tool_calls?: readonly HashedToolCall[];
}

export interface HashedResponse {
  content: string;
  finish_reason: string;
  model: string;
  usage: TokenUsage;
  tool_calls?: readonly HashedToolCall[];
  /** Every choice in index order when the answer has several (n > 1); the fields above are the first. */
  choices?: readonly HashedChoice[];
}

/** Everything a chat receipt is made from, once a model has answered (or a stream has ended). */
export interface ChatFacts {
  requestId: string;
  /** Unix seconds: the receipt's timestamp has whole seconds. */
  created: number;
  endpoint: string;
  model: Model;
  mode: string;
  /**
   * What decided, by name and index only (`request_model`, `brain_config.rules[2]`, `default_mode`…):
   * receipts are public, so they never carry the caller's text (a model string, a rule's match text).
   */
  rule: string;
  /** The signals detected, by name. */
  signals: readonly string[];
  fallbackFrom: Model | null;
  sandbox: boolean;
  request: HashedRequest;
  response: { content: string; finish_reason: string; usage: TokenUsage; tool_calls?: readonly HashedToolCall[]; choices?: readonly HashedChoice[] };
  costUsd: number;
}

const hashedCalls = (calls: readonly HashedToolCall[]) => calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));

/**
 * Tool calls, a tool result's call id and the options are hashed only when present, so a plain text
 * request hashes exactly as it always has.
 */
function hashedMessage(m: HashedMessage) {
  return {
    role: m.role,
    content: m.content,
    ...(m.toolCalls?.length ? { tool_calls: hashedCalls(m.toolCalls) } : {}),
    ...(m.toolCallId !== undefined ? { tool_call_id: m.toolCallId } : {}),
  };
}

export function requestHash(req: HashedRequest): HashString {
  return hashCanonical({
    messages: req.messages.map(hashedMessage),
    model: req.model,
    max_tokens: req.max_tokens,
    temperature: req.temperature,
    ...(req.options && Object.keys(req.options).length ? { options: req.options } : {}),
  });
}

export function responseHash(res: HashedResponse): HashString {
  return hashCanonical({
    content: res.content,
    finish_reason: res.finish_reason,
    model: res.model,
    usage: res.usage,
    ...(res.tool_calls?.length ? { tool_calls: hashedCalls(res.tool_calls) } : {}),
    // Several choices (n > 1): each hashed like the answer, in index order; one choice hashes as it always has.
    ...(res.choices && res.choices.length > 1
      ? { choices: res.choices.map((c, index) => ({ index, content: c.content, finish_reason: c.finish_reason, ...(c.tool_calls?.length ? { tool_calls: hashedCalls(c.tool_calls) } : {}) })) }
      : {}),
  });
}

/** A fallback's own sentence, after a routing reason (catalog ids only). */
export const fallbackSentence = (fallbackFrom: Model | null, model: Model) => (fallbackFrom ? ` ${fallbackFrom.id} was unavailable; ${model.id} served the call.` : "");

/** The receipt's reason: rule and signals by name, catalog ids; never text the caller sent. */
export function publicReason(f: Pick<ChatFacts, "rule" | "signals" | "mode" | "fallbackFrom" | "model">): string {
  const signals = f.signals.length ? f.signals.join(", ") : "none";
  return `Decided by ${f.rule} in ${f.mode} mode; signals: ${signals}; model ${f.model.id} (${f.model.tier}).${fallbackSentence(f.fallbackFrom, f.model)}`;
}

export function chatReceipt(f: ChatFacts): ChatReceipt {
  return {
    version: "svc-receipt-v1",
    request_id: f.requestId,
    timestamp: new Date(f.created * 1000).toISOString(),
    endpoint: f.endpoint,
    model: f.model.id,
    provider: f.model.provider,
    mode: f.mode,
    reason: publicReason(f),
    request_hash: requestHash(f.request),
    response_hash: responseHash({ ...f.response, model: f.model.id }),
    usage: f.response.usage,
    cost_usd: f.costUsd,
    fallback_from: f.fallbackFrom?.id ?? null,
    sandbox: f.sandbox,
  };
}
