/**
 * One agent run as a pure loop over an injected model call: plan, run each sub-task as a step, then
 * finalize; the cost guard before every call; alerts and downshifts at 70% and 90% of the cap; the
 * trajectory proof at the end. The REST route binds `call` to the model-call service; the property
 * test binds it to a fake upstream and runs thousands of runs in Node.
 */
import type { Model } from "../catalog/models";
import { costNanos, usdFromNanos, type Nanos } from "../cost/money";
import { tokenUpperBound, type TokenUsage } from "../cost/tokens";
import { stepProofs, textHash, trajectoryProof, type StepRecord } from "../proof/trajectory";
import type { HashString } from "../shared/hash";
import type { ChatMessage } from "../providers/types";
import { billedUsage, guardCall } from "./guard";
import { ALERT_LEVELS, lower, START_INTENSITY, STEP_STRATEGY, type AgentPolicy, type Intensity } from "./policy";
import { finalizeMessages, parsePlan, planMessages, subtaskMessages } from "./prompts";

export type RunStatus = "complete" | "budget_exhausted" | "max_steps_reached";

export interface StepCallRequest {
  models: Model[];
  messages: ChatMessage[];
  maxTokens: number;
  temperature: number;
  role: "plan" | "subtask" | "finalize";
  /** The prompt's token bound the guard priced: billing never counts more prompt tokens than this. */
  promptBound: number;
}
export interface StepCallResult {
  model: Model;
  content: string;
  finishReason: string;
  usage: TokenUsage;
}
/** One model call. It may throw; the run then fails as a whole (the route answers agent_error). */
export type StepCall = (req: StepCallRequest) => Promise<StepCallResult>;

export interface RunSpec {
  runId: string;
  goal: string;
  policy: AgentPolicy;
  maxCost: Nanos;
  /** Per-step cap, already clamped to the run cap. */
  maxCostPerStep: Nanos;
  maxSteps: number;
  maxTokens: number;
  temperature: number;
  pools: Readonly<Record<Intensity, readonly Model[]>>;
  now(): Date;
}

export interface AgentStep extends StepRecord {
  role: "subtask" | "finalize";
  intensity: Intensity;
  strategy: string;
  cost_nanos: Nanos;
  step_proof: HashString;
}

export interface BudgetAlert {
  level: "WARNING" | "CRITICAL";
  threshold_pct: number;
  consumed_usd: number;
  remaining_usd: number;
  intensity: Intensity;
  /** The step index after which the share was crossed (-1: during planning). */
  at_step: number;
}

export interface RunOutcome {
  status: RunStatus;
  plan: string[];
  steps: AgentStep[];
  output: string;
  outputHash: HashString;
  consumed: Nanos;
  alerts: BudgetAlert[];
  finalMessage: string | null;
  trajectoryProof: HashString;
  strategy: string;
  /** Every call's worst case was within what was left: the invariant the property test checks. */
  calls: number;
  downshifts: number;
}

/** A call must be able to write at least this many tokens to be worth making. */
export const MIN_STEP_TOKENS = 16;
/** The most sub-tasks a plan may hold (the finalize step takes one more). */
export const MAX_PLAN_ITEMS = 999;
/** Chat templates add role markers around each message; counted into the prompt bound. */
const TEMPLATE_TOKENS = 16;

/** Confidence of a step from how its call ended (docs/agents.md): not a model's self-report. */
export function stepConfidence(finishReason: string, content: string): number {
  if (!content.trim()) return 0;
  if (finishReason === "stop") return 1;
  if (finishReason === "length") return 0.5;
  return 0.25;
}

export async function runAgent(spec: RunSpec, call: StepCall): Promise<RunOutcome> {
  let consumed = 0;
  let intensity = START_INTENSITY[spec.policy];
  const alerts: BudgetAlert[] = [];
  const steps: AgentStep[] = [];
  const outputs: string[] = [];
  let calls = 0;
  let downshifts = 0;

  const raiseAlerts = (atStep: number) => {
    for (const a of ALERT_LEVELS) {
      if (consumed >= a.share * spec.maxCost && !alerts.some((x) => x.level === a.level) && spec.maxCost > 0) {
        intensity = lower(intensity, a.intensity);
        alerts.push({ level: a.level, threshold_pct: a.share * 100, consumed_usd: usdFromNanos(consumed), remaining_usd: usdFromNanos(spec.maxCost - consumed), intensity, at_step: atStep });
      }
    }
  };

  /** Guard, call, bill. Null when the budget cannot take even the cheapest fitting call. */
  const guarded = async (messages: ChatMessage[], role: StepCallRequest["role"], perCallCap: Nanos) => {
    const promptBound = tokenUpperBound(messages) + TEMPLATE_TOKENS;
    const g = guardCall(intensity, spec.pools, { promptBound, maxTokens: spec.maxTokens, budget: Math.min(spec.maxCost - consumed, perCallCap), minTokens: MIN_STEP_TOKENS });
    if (!g) return null;
    if (g.downshifted) downshifts++;
    calls++;
    const r = await call({ models: g.models, messages, maxTokens: g.maxTokens, temperature: spec.temperature, role, promptBound });
    const usage = billedUsage(r.usage, promptBound, g.maxTokens);
    const cost = costNanos(r.model, usage.prompt_tokens, usage.completion_tokens).total;
    consumed += cost;
    return { r, cost, intensity: g.intensity, inputHash: textHash(messages.map((m) => `${m.role}\n${m.content}`).join("\n\n")) };
  };

  const pushStep = (role: AgentStep["role"], g: NonNullable<Awaited<ReturnType<typeof guarded>>>) => {
    const index = steps.length;
    const record: StepRecord = {
      index,
      model: g.r.model.id,
      input_hash: g.inputHash,
      output_hash: textHash(g.r.content),
      cost_usd: usdFromNanos(g.cost),
      confidence: stepConfidence(g.r.finishReason, g.r.content),
      timestamp: spec.now().toISOString(),
    };
    steps.push({ ...record, role, intensity: g.intensity, strategy: STEP_STRATEGY, cost_nanos: g.cost, step_proof: "sha256:" as HashString });
    outputs.push(g.r.content);
    raiseAlerts(index);
  };

  let status: RunStatus = "complete";
  let plan: string[] = [];
  // The planner is asked for at most max_steps sub-tasks; a plan that fills them leaves no step for
  // finalize, and the run ends max_steps_reached with the last sub-task's result.
  const planned = await guarded(planMessages(spec.goal, Math.min(spec.maxSteps, MAX_PLAN_ITEMS)), "plan", spec.maxCostPerStep);
  if (!planned) status = "budget_exhausted";
  else {
    plan = parsePlan(planned.r.content, spec.goal, MAX_PLAN_ITEMS);
    raiseAlerts(-1);
    for (const subtask of plan) {
      if (steps.length >= spec.maxSteps) {
        status = "max_steps_reached";
        break;
      }
      const g = await guarded(subtaskMessages(spec.goal, subtask, outputs.at(-1) ?? null), "subtask", spec.maxCostPerStep);
      if (!g) {
        status = "budget_exhausted";
        break;
      }
      pushStep("subtask", g);
    }
    if (status === "complete") {
      if (steps.length >= spec.maxSteps) status = "max_steps_reached";
      else {
        const g = await guarded(finalizeMessages(spec.goal, plan, outputs), "finalize", spec.maxCostPerStep);
        if (!g) status = "budget_exhausted";
        else pushStep("finalize", g);
      }
    }
  }

  // The best result there is: the finalize step's, else the last sub-task's.
  const output = outputs.at(-1) ?? plan.map((p, i) => `${i + 1}. ${p}`).join("\n");
  const outputHash = textHash(output);
  const proofs = stepProofs(spec.runId, steps);
  steps.forEach((s, i) => (s.step_proof = proofs[i]!));
  const trajectory = trajectoryProof({ run_id: spec.runId, policy: spec.policy, strategy: STEP_STRATEGY, output_hash: outputHash }, proofs);
  const finalMessage =
    status === "budget_exhausted"
      ? `Stopped: the next call's worst-case cost did not fit the remaining budget of ${usdFromNanos(spec.maxCost - consumed)} USD (cap ${usdFromNanos(spec.maxCost)} USD). The output is the best partial result after ${steps.length} step(s).`
      : status === "max_steps_reached"
        ? `Stopped: max_steps (${spec.maxSteps}) reached before the plan was finished. The output is the last step's result.`
        : null;
  return { status, plan, steps, output, outputHash, consumed, alerts, finalMessage, trajectoryProof: trajectory, strategy: STEP_STRATEGY, calls, downshifts };
}
