import type { Model } from "../catalog/models";
import type { CallDeps } from "../calls/deps";
import { callModel } from "../calls/model-call";
import { worstCaseNanos } from "../cost/guard";
import { capNanos, usdFromNanos, type Nanos } from "../cost/money";
import { estimatePromptTokens, usageOf, type TokenUsage } from "../cost/tokens";
import type { Sealed } from "../proof/receipt";
import type { ExecutionStage } from "../proof/orchestration";
import { AllCandidatesFailed } from "../providers/call";
import type { ChatMessage } from "../providers/types";
import { finishScore } from "./confidence";

/**
 * One orchestration or code run: every model call goes through `callModel` (priced exactly, one
 * usage row under the run's request id, endpoint and mode), and the run keeps the totals the
 * response reports, so `GET /v1/usage` sums equal them. A call whose candidates all fail is a
 * failed result in its stage (`ok: false`), not an exception: strategies degrade around it.
 */
export interface OperationDeps {
  calls: CallDeps;
}

export interface OperationMeta {
  requestId: string;
  endpoint: string;
  /** The usage rows' mode (SPEC.md 2.16 by_mode). */
  mode: string;
  maxTokens: number;
  temperature: number;
  /** `max_cost_usd`, a soft budget: checked before optional work, never after the fact. */
  maxCostUsd: number | null;
}

export interface CallSpec {
  role: string;
  /** Tried in order (the first is the intended model). */
  candidates: readonly Model[];
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
}

export interface Answered {
  ok: true;
  role: string;
  model: Model;
  content: string;
  finishReason: string;
  usage: TokenUsage;
  costNanos: Nanos;
  latencyMs: number;
  /** Per-call confidence shown in the stage: the finish score unless the strategy knows better. */
  confidence: number;
}

export interface Failed {
  ok: false;
  role: string;
  model: Model;
  error: string;
  latencyMs: number;
}

export type Outcome = Answered | Failed;

/** SPEC.md 2.3 per-call result: no text. */
export interface StageResult {
  model: string;
  ok: boolean;
  in_tokens: number;
  out_tokens: number;
  latency_ms: number;
  cost_usd: number;
  confidence: number;
  role: string;
  error?: string;
}

export interface Stage extends ExecutionStage {
  name: string;
  results: StageResult[];
  detail: Record<string, unknown>;
}

export const answered = (outcomes: readonly Outcome[]): Answered[] => outcomes.filter((o): o is Answered => o.ok);

export function stageResult(o: Outcome): StageResult {
  if (!o.ok) return { model: o.model.id, ok: false, in_tokens: 0, out_tokens: 0, latency_ms: o.latencyMs, cost_usd: 0, confidence: 0, role: o.role, error: o.error };
  return {
    model: o.model.id,
    ok: true,
    in_tokens: o.usage.prompt_tokens,
    out_tokens: o.usage.completion_tokens,
    latency_ms: o.latencyMs,
    cost_usd: usdFromNanos(o.costNanos),
    confidence: o.confidence,
    role: o.role,
  };
}

export class Operation {
  readonly stages: Stage[] = [];
  private spent: Nanos = 0;
  private promptTokens = 0;
  private completionTokens = 0;
  private readonly used: string[] = [];
  calls = 0;
  sandbox = false;
  private readonly cap: Nanos | null;

  constructor(
    readonly deps: CallDeps,
    readonly meta: OperationMeta,
  ) {
    this.cap = meta.maxCostUsd === null ? null : capNanos(meta.maxCostUsd);
  }

  /** One model call. Throws only what is not a model failure (no provider at all, a bug). */
  async call(spec: CallSpec): Promise<Outcome> {
    const started = performance.now();
    this.calls++;
    try {
      const r = await callModel(this.deps, {
        requestId: this.meta.requestId,
        endpoint: this.meta.endpoint,
        mode: this.meta.mode,
        candidates: spec.candidates,
        messages: spec.messages,
        maxTokens: spec.maxTokens ?? this.meta.maxTokens,
        temperature: spec.temperature ?? this.meta.temperature,
      });
      this.spent += r.costNanos;
      this.promptTokens += r.usage.prompt_tokens;
      this.completionTokens += r.usage.completion_tokens;
      if (!this.used.includes(r.model.id)) this.used.push(r.model.id);
      if (r.sandbox) this.sandbox = true;
      return {
        ok: true,
        role: spec.role,
        model: r.model,
        content: r.content,
        finishReason: r.finishReason,
        usage: r.usage,
        costNanos: r.costNanos,
        latencyMs: r.latencyMs,
        confidence: finishScore(r.finishReason),
      };
    } catch (err) {
      if (!(err instanceof AllCandidatesFailed)) throw err;
      const last = err.attempts.at(-1);
      const error = last ? (last.status ? `HTTP ${last.status}` : (last.error ?? "failed")) : "failed";
      return { ok: false, role: spec.role, model: spec.candidates[0]!, error, latencyMs: Math.round(performance.now() - started) };
    }
  }

  stage(name: string, outcomes: readonly Outcome[], detail: Record<string, unknown> = {}): Stage {
    const s: Stage = { name, results: outcomes.map(stageResult), detail };
    this.stages.push(s);
    return s;
  }

  /** The most one more call of this shape can cost. */
  worstCase(model: Model, messages: readonly ChatMessage[], maxTokens = this.meta.maxTokens): Nanos {
    return worstCaseNanos(model, { promptTokens: estimatePromptTokens(messages), maxTokens });
  }

  /** Whether spending `more` nano-dollars keeps the run within max_cost_usd (always, without one). */
  affords(more: Nanos): boolean {
    return this.cap === null || this.spent + more <= this.cap;
  }

  get spentNanos(): Nanos {
    return this.spent;
  }

  get usage(): TokenUsage {
    return usageOf(this.promptTokens, this.completionTokens);
  }

  /** Models that answered, in the order they first did. */
  get modelsUsed(): string[] {
    return [...this.used];
  }
}

/** The head every operation's `svc.proof` starts with (orchestration and code). */
export const proofHead = (requestId: string, sealed: Sealed, policy: string) => ({
  request_id: requestId,
  timestamp: sealed.receipt.timestamp,
  proof_hash: sealed.proofHash,
  policy,
});
