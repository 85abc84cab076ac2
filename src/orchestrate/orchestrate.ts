import type { CallDeps } from "../calls/deps";
import { NoProviderConfigured } from "../providers/call";
import { seal } from "../proof/seal";
import { detectSignals, signalNames } from "../routing/signals";
import type { BrainConfig } from "../routing/types";
import { apiError, ApiError } from "../shared/errors";
import { attestation, gateFor } from "./compliance";
import { Operation, proofHead, type OperationDeps } from "./operation";
import { forcedReason, planStrategy } from "./plan";
import { POLICY, type Strategy } from "./policy";
import { checkFits, type FitScope, type Pool } from "./pool";
import { aggregatePrompt, combinePrompt, debatePrompt, judgePrompt } from "./prompts";
import type { OrchestrateRequest } from "./schema";
import type { ChatMessage } from "../providers/types";
import type { Tier } from "../catalog/models";
import { cascade } from "./strategies/cascade";
import { AllModelsFailed, NoEligibleModel, type Strategy as StrategyFn } from "./strategies/context";
import { debate } from "./strategies/debate";
import { decomposeAndRoute } from "./strategies/decompose";
import { ensembleMoa } from "./strategies/ensemble";
import { rankFuse } from "./strategies/rank-fuse";
import { selfConsistency } from "./strategies/self-consistency";
import { single } from "./strategies/single";

export const ENDPOINT = "/v2/orchestrate";

const RUN: Readonly<Record<Strategy, StrategyFn>> = {
  single,
  cascade,
  ensemble_moa: ensembleMoa,
  rank_fuse: rankFuse,
  decompose_and_route: decomposeAndRoute,
  self_consistency: selfConsistency,
  debate,
};

/**
 * What each strategy needs to fit beside max_tokens, besides the caller's prompt in some model of the
 * plan: the prompts of its later stages that write up to max_tokens (the cascade's grader, chosen
 * before the answer it reads, counts max_tokens for that answer), with every answer still empty, the
 * least those stages will send; and for the cascade, the caller's prompt on its policy's ladder of
 * tiers. A max_tokens that fails one can only end in a stage without a model, so it is refused (400)
 * before the first call is paid for. Judges and planners write a capped verdict or plan and are
 * chosen for that.
 */
type Fit = [messages: ChatMessage[], scope: FitScope];
const STAGE_FITS: Readonly<Record<Strategy, (q: string, messages: ChatMessage[], ladder: readonly Tier[]) => Fit[]>> = {
  single: () => [],
  self_consistency: () => [],
  cascade: (q, messages, ladder) => [[judgePrompt(q, [""]), { stage: "the grader" }], [messages, { tiers: ladder }]],
  ensemble_moa: (q) => [[aggregatePrompt(q, ["", ""]), { stage: "the aggregator" }]],
  rank_fuse: (q) => [[aggregatePrompt(q, ["", ""]), { stage: "the fuser" }]],
  debate: (q) => [[debatePrompt(q, "", [""]), { stage: "a debate round" }]],
  decompose_and_route: (q) => [[combinePrompt(q, [{ subtask: "", answer: "" }, { subtask: "", answer: "" }]), { stage: "the synthesizer" }]],
};

export interface OrchestrateInput {
  requestId: string;
  /** performance.now() when the request entered the Worker. */
  startedAt: number;
  body: OrchestrateRequest;
}

/** The routing-relevant part of brain_config: its blocked list, fallbacks and caps apply, its pins do not. */
export function poolConfig(config: BrainConfig | undefined | null): BrainConfig {
  if (!config) return {};
  const { model: _model, rules: _rules, ...rest } = config;
  return rest;
}

/** The provider core's and the strategies' failures as SPEC.md section 7 errors; no stack in a body. */
function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof NoProviderConfigured || err instanceof NoEligibleModel) return apiError("no_provider_available", err.message);
  if (err instanceof AllModelsFailed) return apiError("all_models_failed", err.message);
  console.error("orchestration failed", err);
  return apiError("orchestration_error", `The orchestrator raised: ${err instanceof Error ? err.message : String(err)}`);
}

/** POST /v2/orchestrate as a plain function (SPEC.md 4.2, response 2.3); REST and MCP call it. */
export async function orchestrate(deps: OperationDeps, input: OrchestrateInput) {
  const { body, requestId } = input;
  if (!body.messages.length) throw apiError("no_messages", "messages is empty: give at least one message.");
  checkFits(body.messages, body.max_tokens, deps.calls.plan.models);
  try {
    return await run(deps.calls, input);
  } catch (err) {
    throw asApiError(err);
  }
}

async function run(calls: CallDeps, { body, requestId, startedAt }: OrchestrateInput) {
  const created = Math.floor(Date.now() / 1000);
  const features = detectSignals(body.messages);
  const planned = body.strategy
    ? { strategy: body.strategy, reason: forcedReason(body.strategy, body.policy) }
    : planStrategy(signalNames(features.signals), features.lastUserText, body.policy);
  const settings = POLICY[body.policy];
  for (const [messages, scope] of STAGE_FITS[planned.strategy](features.lastUserText, body.messages, settings.ladder)) checkFits(messages, body.max_tokens, calls.plan.models, scope);
  const op = new Operation(calls, {
    requestId,
    endpoint: ENDPOINT,
    mode: settings.mode,
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    maxCostUsd: body.max_cost_usd ?? null,
  });
  const gate = gateFor(body.compliance, body.brain_config, body.messages, calls.plan.models);
  const pool: Pool = { allowedModels: calls.plan.models, brainConfig: poolConfig(body.brain_config), maxTokens: body.max_tokens, eligibility: [], requirements: gate ? [gate.requirement] : [] };
  const attested = gate ? attestation(gate) : null;
  const result = await RUN[planned.strategy]({
    op,
    pool,
    messages: body.messages,
    question: features.lastUserText,
    policy: body.policy,
    settings,
    k: body.k ?? settings.k,
    judgeModel: body.judge_model,
  });

  const costUsd = op.spentNanos / 1e9;
  const modelsUsed = op.modelsUsed;
  const sealed = seal("orchestration", {
    requestId,
    created,
    endpoint: ENDPOINT,
    policy: body.policy,
    strategy: planned.strategy,
    modelsUsed,
    confidence: result.confidence,
    agreement: result.agreement,
    request: { messages: body.messages, max_tokens: body.max_tokens, temperature: body.temperature },
    content: result.content,
    stages: op.stages,
    usage: op.usage,
    costUsd,
    sandbox: op.sandbox,
    compliance: attested?.decision_hash ?? null,
  });
  // Signed and stored off the request path, through the write-behind buffer (docs/storage.md).
  calls.keepReceipt(sealed);
  const latencyMs = Math.round(performance.now() - startedAt);
  return {
    id: `svc-${requestId}`,
    object: "orchestration" as const,
    created,
    policy: body.policy,
    strategy: planned.strategy,
    reason: planned.reason,
    choices: [{ index: 0, message: { role: "assistant" as const, content: result.content }, finish_reason: "stop" as const }],
    usage: op.usage,
    svc: {
      orchestration: {
        policy: body.policy,
        strategy: planned.strategy,
        reason: planned.reason,
        models_used: modelsUsed,
        confidence: result.confidence,
        agreement: result.agreement,
        escalated: result.escalated,
        latency_ms: latencyMs,
        calls: op.calls,
      },
      cost: { total_usd: costUsd, estimated: true as const },
      proof: {
        ...proofHead(requestId, sealed, body.policy),
        strategy: planned.strategy,
        models_used: modelsUsed,
        confidence: result.confidence,
        agreement: result.agreement,
        stages_hash: sealed.receipt.stages_hash,
        verifiable: true as const,
        ...(attested ? { compliance: attested } : {}),
      },
      ...(gate ? { compliance: gate.decision } : {}),
      ...(body.include_trace ? { stages: op.stages } : {}),
      ...(op.sandbox ? { sandbox: true as const } : {}),
    },
  };
}
