import type { Model } from "../catalog/models";
import { costNanos, usdBreakdown, type Nanos } from "../cost/money";
import type { TokenUsage } from "../cost/tokens";
import { complete } from "../providers/call";
import type { Attempt, ChatMessage } from "../providers/types";
import type { CostUsd } from "./svc";
import type { CallDeps } from "./deps";
import { providerContext } from "./chat";
import { usageRow } from "./record";

/**
 * One model call inside a larger operation (an orchestration stage, a code-mode draft or review, an
 * agent step): the caller has already chosen the candidates and the budget. The call is priced
 * exactly and its usage row is recorded under the operation's request id, endpoint and mode, so
 * `GET /v1/usage` sums equal the costs the operation reports. The operation seals its own receipt.
 */
export interface ModelCallInput {
  requestId: string;
  endpoint: string;
  /** The usage row's mode (SPEC.md 2.16 `by_mode`). */
  mode: string;
  /** Tried in order, with the provider core's retries and fallback. */
  candidates: readonly Model[];
  messages: ChatMessage[];
  /** Sent upstream as the completion limit, so the output side of a worst-case bound holds. */
  maxTokens: number;
  temperature: number;
  /**
   * The most tokens the caller's cost guard reserved for: the call is billed (usage row and cost) at
   * the upstream's reported usage clamped to these, so a guarded budget can never be passed.
   */
  ceiling?: { promptTokens: number; completionTokens: number };
}

export interface ModelCallResult {
  model: Model;
  fallbackFrom: Model | null;
  sandbox: boolean;
  content: string;
  finishReason: string;
  usage: TokenUsage;
  costNanos: Nanos;
  cost: CostUsd;
  latencyMs: number;
  attempts: Attempt[];
}

function clamp(u: TokenUsage, c: { promptTokens: number; completionTokens: number }): TokenUsage {
  const prompt = Math.min(u.prompt_tokens, c.promptTokens);
  const completion = Math.min(u.completion_tokens, c.completionTokens);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Throws the provider core's domain errors (`toApiError` maps them per endpoint). */
export async function callModel(deps: CallDeps, input: ModelCallInput): Promise<ModelCallResult> {
  const started = performance.now();
  const result = await complete([...input.candidates], { messages: input.messages, maxTokens: input.maxTokens, temperature: input.temperature }, providerContext(deps));
  const { content, finishReason } = result.completion;
  const usage = input.ceiling ? clamp(result.completion.usage, input.ceiling) : result.completion.usage;
  const nanos = costNanos(result.model, usage.prompt_tokens, usage.completion_tokens);
  const latencyMs = Math.round(performance.now() - started);
  deps.record({
    usage: usageRow(deps.key, { requestId: input.requestId, endpoint: input.endpoint, mode: input.mode, model: result.model, usage, costNanos: nanos.total, latencyMs, fallback: result.fallbackFrom !== null }),
    receipt: null,
  });
  return {
    model: result.model,
    fallbackFrom: result.fallbackFrom,
    sandbox: result.sandbox,
    content,
    finishReason,
    usage,
    costNanos: nanos.total,
    cost: usdBreakdown(nanos),
    latencyMs,
    attempts: result.attempts,
  };
}
