/**
 * The chat pipeline as plain functions: route, call, price, seal, record. Chat completions, skills
 * and MCP tools call `completeChat` / `streamChat`; none of them repeats a step.
 */
import type { Model } from "../catalog/models";
import type { Eligibility } from "../cost/guard";
import { costNanos, usdBreakdown } from "../cost/money";
import { estimatePromptTokens, estimateTokens, usageOf, type TokenUsage } from "../cost/tokens";
import { seal } from "../proof/seal";
import type { ChatReceipt } from "../proof/chat";
import type { Sealed } from "../proof/receipt";
import { complete, stream, type CallContext } from "../providers/call";
import { textMessages } from "../providers/turns";
import type { Attempt, CallOptions, Choice, Message, ModelRequest, StreamDelta, ToolCall, ToolCallDelta } from "../providers/types";
import { routeRequest } from "../routing/request-route";
import type { BrainConfig, RouteDecision, RoutingMode } from "../routing/types";
import type { CallDeps } from "./deps";
import { usageRow } from "./record";
import { svcBlock, type SvcBlock } from "./svc";

/** The names of the signals a decision detected. */
const signalNames = (d: RouteDecision) => Object.entries(d.signals_detected).filter(([, on]) => on).map(([name]) => name);

export interface ChatInput {
  requestId: string;
  /** The endpoint the receipt and the usage row name. */
  endpoint: string;
  /** performance.now() when the request entered the Worker: latency_ms counts from it. */
  startedAt: number;
  /** Plain text messages, or OpenAI's richer ones (content parts, tool calls, tool results). */
  messages: Message[];
  /** The OpenAI parameters beyond these (tools, response_format, stop...); see docs/compatibility.md. */
  options?: CallOptions;
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
  toolCalls: ToolCall[];
  finishReason: string;
  /** Every choice in index order when the request asked for several (n > 1); content, toolCalls and finishReason are choices[0]. */
  choices?: Choice[];
  usage: TokenUsage;
  latencyMs: number;
  attempts: Attempt[];
  sealed: Sealed<ChatReceipt>;
  svc: SvcBlock;
}

/** A stream's final `finish_reason` when it ended before the upstream finished (documented in docs/proofs.md). */
export const INCOMPLETE = "incomplete";

/** Routing with what the request needs of a model (routing/request-route.ts). */
const decide = (deps: CallDeps, input: ChatInput): RouteDecision =>
  routeRequest({
    messages: input.messages,
    options: input.options,
    model: input.model,
    routingMode: input.routingMode,
    brainConfig: input.brainConfig,
    allowedModels: deps.plan.models,
    maxTokens: input.maxTokens,
    eligibility: input.eligibility,
    requirements: input.requirements,
  });

const modelRequest = (input: ChatInput): ModelRequest => ({ messages: input.messages, maxTokens: input.maxTokens, temperature: input.temperature, options: input.options });

export const providerContext = (deps: CallDeps): CallContext => ({ env: deps.env, fetch: deps.fetch, keyless: deps.keyless, signal: deps.signal });

interface Served {
  model: Model;
  fallbackFrom: Model | null;
  sandbox: boolean;
  attempts: Attempt[];
}

/** What the model answered: one choice, or several (n > 1) with the first at the top. */
interface Answer extends Choice {
  usage: TokenUsage;
  choices?: Choice[];
}

const hashedChoice = (c: Choice) => ({ content: c.content, finish_reason: c.finishReason, tool_calls: c.toolCalls });

/** Price, seal and record one finished call; the record leaves the request path. */
function finish(deps: CallDeps, input: ChatInput, decision: RouteDecision, created: number, s: Served, answer: Answer): ChatOutcome {
  const { content, toolCalls, finishReason, usage, choices } = answer;
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
    request: { messages: input.messages, model: input.model, max_tokens: input.maxTokens, temperature: input.temperature, ...(input.options ? { options: { ...input.options } } : {}) },
    response: { content, finish_reason: finishReason, usage, tool_calls: toolCalls, ...(choices ? { choices: choices.map(hashedChoice) } : {}) },
    costUsd: cost.total_usd,
  });
  deps.record({
    usage: usageRow(deps.key, { requestId: input.requestId, endpoint: input.endpoint, mode: decision.mode, model: s.model, usage, costNanos: nanos.total, latencyMs, fallback: s.fallbackFrom !== null }),
    receipt: sealed,
  });
  const svc = svcBlock({ decision, model: s.model, fallbackFrom: s.fallbackFrom, sandbox: s.sandbox, cost, latencyMs, requestId: input.requestId, sealed });
  return { requestId: input.requestId, created, decision, ...s, content, toolCalls, finishReason, ...(choices ? { choices } : {}), usage, latencyMs, sealed, svc };
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
  const result = await complete(decision.candidates, modelRequest(input), providerContext(deps));
  const outcome = finish(deps, input, decision, created, result, result.completion);
  return { outcome, upstreamMs: result.upstreamMs };
}

/** Tool-call deltas put together into whole calls, in index order. */
class ToolCallAssembler {
  private readonly calls: ToolCall[] = [];
  add(d: ToolCallDelta) {
    const call = (this.calls[d.index] ??= { id: "", name: "", arguments: "" });
    if (d.id) call.id = d.id;
    if (d.name) call.name += d.name;
    call.arguments += d.arguments;
  }
  done = (): ToolCall[] => this.calls.filter(Boolean);
  text = () => this.calls.map((c) => c.name + c.arguments).join("");
}

/**
 * How one stream format writes a chat stream, as text: its opening frames, the frames of a delta,
 * the closing frames with the sealed outcome, and the frames of a failure after the stream began.
 * The frames of one upstream read are joined and written as one chunk.
 */
export interface StreamWriter {
  start(): string;
  delta(d: StreamDelta): string;
  done(o: ChatOutcome): string;
  failed(message: string): string;
}

export interface ChatStream {
  requestId: string;
  created: number;
  model: Model;
  /**
   * The response body in `writer`'s format; call it once. Each upstream read's frames are one
   * write, and reads within one clock tick of the last write are joined (providers/stream-pipe.ts);
   * cancelling the body cancels the upstream. `keepAlive` gets a promise that settles once usage and the receipt are recorded.
   */
  body(writer: StreamWriter, keepAlive: (p: Promise<unknown>) => void): ReadableStream<Uint8Array>;
  upstreamMs(): number;
}

/**
 * One chat call, streamed. Fallback happens before the first content delta. Usage and the receipt
 * are recorded however the stream ends: finished, failed after it began, or abandoned by the
 * reader (the body is cancelled): then with the tokens estimated from the text produced so far
 * and finish_reason `incomplete`.
 */
export async function streamChat(deps: CallDeps, input: ChatInput): Promise<ChatStream> {
  const created = Math.floor(Date.now() / 1000);
  const decision = decide(deps, input);
  const s = await stream(decision.candidates, modelRequest(input), providerContext(deps));

  function body(writer: StreamWriter, keepAlive: (p: Promise<unknown>) => void): ReadableStream<Uint8Array> {
    // n > 1: the upstream streams that many choices, each delta tagged with its index.
    const n = Math.max(1, input.options?.n ?? 1);
    const contents: string[] = Array.from({ length: n }, () => "");
    const tools = Array.from({ length: n }, () => new ToolCallAssembler());
    const deltas = (ds: readonly StreamDelta[]) => {
      let out = "";
      for (const d of ds) {
        const i = d.choice ?? 0;
        if (i >= n) continue; // a choice nobody asked for is not returned, so not hashed either
        if (d.type === "delta") contents[i] += d.content;
        else tools[i]!.add(d.call);
        out += writer.delta(d);
      }
      return out;
    };
    /** The answer as the receipt hashes it: choice 0 at the top, every choice when n > 1 (as non-streamed n). */
    const answer = (reasons: readonly string[], usage: TokenUsage): Answer => {
      const choices = contents.map((content, i) => ({ content, toolCalls: tools[i]!.done(), finishReason: reasons[i] ?? reasons[0]! }));
      return { ...choices[0]!, usage, ...(n > 1 ? { choices } : {}) };
    };
    const piped = s.pipe({
      open: (first) => writer.start() + deltas(first),
      deltas,
      done: (finishReason, usage, finishReasons) => writer.done(finish(deps, input, decision, created, s, answer(finishReasons ?? [finishReason], usage))),
      failed(err) {
        const usage = usageOf(estimatePromptTokens(textMessages(input.messages)), estimateTokens(contents.join("") + tools.map((t) => t.text()).join("")));
        finish(deps, input, decision, created, s, answer([INCOMPLETE], usage));
        return err ? writer.failed(`The upstream stream from ${s.model.id} failed after it began: ${err.message}`) : "";
      },
    });
    keepAlive(piped.ended);
    return piped.readable;
  }

  return { requestId: input.requestId, created, model: s.model, body, upstreamMs: s.upstreamMs };
}
