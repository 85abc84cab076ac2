/**
 * The chat pipeline as plain functions: route, call, price, seal, record. Chat completions, skills
 * and MCP tools call `completeChat` / `streamChat`; none of them repeats a step.
 */
import type { Model } from "../catalog/models";
import type { Eligibility } from "../cost/guard";
import { costNanos, usdBreakdown } from "../cost/money";
import { estimatePromptTokens, estimateTokens, usageOf, type TokenUsage } from "../cost/tokens";
import { seal } from "../proof/seal";
import type { Sealed } from "../proof/receipt";
import { complete, stream, type CallContext } from "../providers/call";
import type { Attempt, ChatMessage } from "../providers/types";
import { UpstreamError } from "../providers/upstream-error";
import { route } from "../routing/router";
import type { BrainConfig, RouteDecision, RoutingMode } from "../routing/types";
import type { CallDeps } from "./deps";
import { svcBlock, type SvcBlock } from "./svc";

/** The names of the signals a decision detected. */
const signalNames = (d: RouteDecision) => Object.entries(d.signals_detected).filter(([, on]) => on).map(([name]) => name);

export interface ChatInput {
  requestId: string;
  /** The endpoint the receipt and the usage row name. */
  endpoint: string;
  /** performance.now() when the request entered the Worker: latency_ms counts from it. */
  startedAt: number;
  messages: ChatMessage[];
  /** "auto", a catalog id, or anything else (routed to the budget default). */
  model: string;
  routingMode?: Exclude<RoutingMode, "direct">;
  brainConfig?: BrainConfig;
  maxTokens: number;
  temperature: number;
  /** More cost-guard predicates (compliance, capabilities) the caller adds to routing. */
  eligibility?: readonly Eligibility[];
  /** Predicates routing never relaxes, like the plan (compliance: src/compliance/chat-gate.ts). */
  requirements?: readonly Eligibility[];
}

/** A finished call, whole or streamed: everything a response or a trace renders. */
export interface ChatOutcome {
  requestId: string;
  created: number;
  decision: RouteDecision;
  model: Model;
  fallbackFrom: Model | null;
  sandbox: boolean;
  content: string;
  finishReason: string;
  usage: TokenUsage;
  latencyMs: number;
  attempts: Attempt[];
  sealed: Sealed;
  svc: SvcBlock;
}

/** A stream's final `finish_reason` when it ended before the upstream finished (documented in docs/proofs.md). */
export const INCOMPLETE = "incomplete";

function decide(deps: CallDeps, input: ChatInput): RouteDecision {
  return route({
    messages: input.messages,
    model: input.model,
    routingMode: input.routingMode,
    brainConfig: input.brainConfig,
    allowedModels: deps.plan.models,
    maxTokens: input.maxTokens,
    eligibility: input.eligibility,
    requirements: input.requirements,
  });
}

export const providerContext = (deps: CallDeps): CallContext => ({ env: deps.env, fetch: deps.fetch, keyless: deps.keyless, signal: deps.signal });

interface Served {
  model: Model;
  fallbackFrom: Model | null;
  sandbox: boolean;
  attempts: Attempt[];
}

/** Price, seal and record one finished call; the record leaves the request path. */
function finish(deps: CallDeps, input: ChatInput, decision: RouteDecision, created: number, s: Served, content: string, finishReason: string, usage: TokenUsage): ChatOutcome {
  const nanos = costNanos(s.model, usage.prompt_tokens, usage.completion_tokens);
  const cost = usdBreakdown(nanos);
  const latencyMs = Math.round(performance.now() - input.startedAt);
  const sealed = seal("chat", {
    requestId: input.requestId,
    created,
    endpoint: input.endpoint,
    model: s.model,
    mode: decision.mode,
    rule: decision.rule,
    signals: signalNames(decision),
    fallbackFrom: s.fallbackFrom,
    sandbox: s.sandbox,
    request: { messages: input.messages, model: input.model, max_tokens: input.maxTokens, temperature: input.temperature },
    response: { content, finish_reason: finishReason, usage },
    costUsd: cost.total_usd,
  });
  deps.record({
    usage: {
      ownerId: deps.key.ownerId,
      keyId: deps.key.id,
      requestId: input.requestId,
      endpoint: input.endpoint,
      model: s.model.id,
      provider: s.model.provider,
      mode: decision.mode,
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      costNanos: nanos.total,
      latencyMs,
      fallback: s.fallbackFrom !== null,
    },
    receipt: sealed,
  });
  const svc = svcBlock({ decision, model: s.model, fallbackFrom: s.fallbackFrom, sandbox: s.sandbox, cost, latencyMs, requestId: input.requestId, sealed });
  return { requestId: input.requestId, created, decision, ...s, content, finishReason, usage, latencyMs, sealed, svc };
}

export interface CompletedChat {
  outcome: ChatOutcome;
  /** Milliseconds spent waiting on upstreams (for x-svc-overhead-us). */
  upstreamMs: number;
}

/** One chat call, whole. Throws the provider core's domain errors (`toApiError` maps them). */
export async function completeChat(deps: CallDeps, input: ChatInput): Promise<CompletedChat> {
  const created = Math.floor(Date.now() / 1000);
  const decision = decide(deps, input);
  const result = await complete(decision.candidates, { messages: input.messages, maxTokens: input.maxTokens, temperature: input.temperature }, providerContext(deps));
  const { content, finishReason, usage } = result.completion;
  const outcome = finish(deps, input, decision, created, result, content, finishReason, usage);
  return { outcome, upstreamMs: result.upstreamMs };
}

export type ChatStreamEvent = { type: "delta"; content: string } | { type: "done"; outcome: ChatOutcome };

export interface ChatStream {
  requestId: string;
  created: number;
  model: Model;
  /** Content deltas, then one `done` with the sealed outcome. A failure after the first delta is thrown as an UpstreamError. */
  events: AsyncGenerator<ChatStreamEvent>;
  upstreamMs(): number;
}

/**
 * One chat call, streamed. Fallback happens before the first content delta. Usage and the receipt
 * are recorded however the stream ends: finished, failed after it began, or abandoned by the
 * reader (the consumer stops iterating): then with the tokens estimated from the text produced so
 * far and finish_reason `incomplete`.
 */
export async function streamChat(deps: CallDeps, input: ChatInput): Promise<ChatStream> {
  const created = Math.floor(Date.now() / 1000);
  const decision = decide(deps, input);
  const s = await stream(decision.candidates, { messages: input.messages, maxTokens: input.maxTokens, temperature: input.temperature }, providerContext(deps));

  async function* events(): AsyncGenerator<ChatStreamEvent> {
    let content = "";
    let recorded = false;
    try {
      for await (const ev of s.events) {
        if (ev.type === "delta") {
          content += ev.content;
          yield ev;
        } else {
          recorded = true;
          yield { type: "done", outcome: finish(deps, input, decision, created, s, content, ev.finishReason, ev.usage) };
          return;
        }
      }
      throw new UpstreamError(`${s.model.id}: the upstream stream ended without a final event`, null, s.model.id, s.model.provider);
    } finally {
      if (!recorded) {
        const usage = usageOf(estimatePromptTokens(input.messages), estimateTokens(content));
        finish(deps, input, decision, created, s, content, INCOMPLETE, usage);
      }
    }
  }

  return { requestId: input.requestId, created, model: s.model, events: events(), upstreamMs: s.upstreamMs };
}
