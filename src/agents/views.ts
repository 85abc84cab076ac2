import { usdFromNanos } from "../cost/money";
import { verifyTrajectory, type StepRecord } from "../proof/trajectory";
import type { HashString } from "../shared/hash";
import type { RunRow, StepRow } from "./store";

/** The response shapes of SPEC.md 2.5, from stored rows. */

const json = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/** Display form of a hash; verification always needs the full form (`full=true`). */
const short = (h: string) => `${h.slice(0, 7 + 16)}…`;

const GOAL_SUMMARY_CHARS = 120;

export function runState(r: RunRow) {
  return {
    object: "agent.run" as const,
    run_id: r.runId,
    status: r.status,
    cost_consumed_usd: usdFromNanos(r.costNanos),
    steps_taken: r.stepsTaken,
    trajectory_proof: r.trajectoryProof,
    output: r.output,
    ...(r.finalMessage ? { final_message: r.finalMessage } : {}),
  };
}

export function runSummary(r: RunRow) {
  return {
    ...runState(r),
    goal: r.goal.length > GOAL_SUMMARY_CHARS ? `${r.goal.slice(0, GOAL_SUMMARY_CHARS - 1)}…` : r.goal,
    policy: r.policy,
    max_cost_usd: usdFromNanos(r.maxCostNanos),
    created_at: new Date(r.createdAt).toISOString(),
  };
}

export const stepRecordOfRow = (s: StepRow): StepRecord => ({
  index: s.index,
  model: s.model,
  input_hash: s.inputHash as HashString,
  output_hash: s.outputHash as HashString,
  cost_usd: usdFromNanos(s.costNanos),
  confidence: s.confidence,
  timestamp: s.timestamp,
});

export function stepView(s: StepRow, full = true) {
  const h = (x: string) => (full ? x : short(x));
  return {
    index: s.index,
    role: s.role,
    model: s.model,
    intensity: s.intensity,
    strategy: s.strategy,
    cost_usd: usdFromNanos(s.costNanos),
    confidence: s.confidence,
    input_hash: h(s.inputHash),
    output_hash: h(s.outputHash),
    step_proof: h(s.stepProof),
    timestamp: s.timestamp,
  };
}

export function fullRun(r: RunRow, steps: readonly StepRow[]) {
  return {
    ...runState(r),
    policy: r.policy,
    strategy: r.strategy,
    plan: json<string[]>(r.plan, []),
    max_cost_usd: usdFromNanos(r.maxCostNanos),
    remaining_usd: usdFromNanos(r.maxCostNanos - r.costNanos),
    steps: steps.map((s) => stepView(s)),
    alerts: json<unknown[]>(r.alerts, []),
    budget: json<Record<string, unknown>>(r.budget, {}),
  };
}

/** GET /v1/agent/{run_id}/trajectory: the step log, a server-side re-verification, and (full) the bundle. */
export function trajectoryView(r: RunRow, steps: readonly StepRow[], full: boolean) {
  const records = steps.map(stepRecordOfRow);
  const head = { run_id: r.runId, policy: r.policy, strategy: r.strategy, output_hash: (r.outputHash ?? "") as HashString };
  const stepProofs = steps.map((s) => s.stepProof);
  const verification = verifyTrajectory(head, r.trajectoryProof ?? "", records, stepProofs);
  return {
    object: "agent.trajectory" as const,
    run_id: r.runId,
    status: r.status,
    trajectory_proof: full || !r.trajectoryProof ? r.trajectoryProof : short(r.trajectoryProof),
    steps: steps.map((s) => stepView(s, full)),
    verification,
    ...(full ? { verify_request: { run_id: r.runId, trajectory_proof: r.trajectoryProof, policy: r.policy, strategy: r.strategy, output_hash: r.outputHash, steps: records, step_proofs: stepProofs } } : {}),
  };
}
