/**
 * The agent area as plain functions over explicit dependencies (the REST routes and the MCP tools
 * call these): start a run, read runs, trajectories, verify a bundle.
 */
import { actorOf } from "../audit/record";
import type { CallDeps } from "../calls/deps";
import { callModel } from "../calls/model-call";
import { capNanos, usdFromNanos } from "../cost/money";
import { textHash, verifyTrajectory } from "../proof/trajectory";
import { AllCandidatesFailed, NoProviderConfigured } from "../providers/call";
import { apiError } from "../shared/errors";
import type { HashString } from "../shared/hash";
import { newId } from "../shared/ids";
import { intensityPools } from "./policy";
import { runAgent, type StepCall } from "./runner";
import type { AgentRunRequest, AgentVerifyRequest } from "./schema";
import { claimRun, findRun, findRunByKey, finishRun, listRuns, releaseRun, stepsOf, type RunRow } from "./store";
import { fullRun, runState, runSummary, trajectoryView } from "./views";

export const AGENT_ENDPOINT = "/v1/agent/run";
/** SPEC.md 8.3: the tier limit is this many times the plan's per-query envelope. */
export const TIER_MULTIPLIER = 5;
/** How long a duplicate (same idempotency key) waits for the original run to finish. */
const DUPLICATE_WAIT_MS = 60_000;
const PLAN_ITEM_CHARS = 300;

/** 400 no_goal, 402 budget_exceeds_tier_limit: checked before anything is stored or called. */
function budgetOf(deps: CallDeps, body: AgentRunRequest) {
  const envelope = deps.plan.envelope_usd;
  const tierLimit = Math.round(envelope * TIER_MULTIPLIER * 1e9) / 1e9;
  const maxCost = body.max_cost_usd ?? tierLimit;
  if (maxCost > tierLimit) {
    throw apiError("budget_exceeds_tier_limit", `max_cost_usd ${maxCost} is above the ${deps.plan.display_name} plan's tier limit of ${tierLimit} USD (${TIER_MULTIPLIER} x the ${envelope} USD per-query envelope).`, {
      tier_limit_usd: tierLimit,
      plan_envelope_usd: envelope,
      requested_max_cost_usd: maxCost,
    });
  }
  return { plan: deps.plan.id, plan_envelope_usd: envelope, tier_limit_usd: tierLimit, max_cost_usd: maxCost, multiplier: TIER_MULTIPLIER };
}

async function waitForRun(deps: CallDeps, runId: string): Promise<RunRow> {
  const deadline = Date.now() + DUPLICATE_WAIT_MS;
  for (;;) {
    const row = await findRun(deps.db, deps.key.ownerId, runId);
    if (!row) throw apiError("agent_error", "The original run with this idempotency_key failed; send the request again to start a new run.");
    if (row.status !== "running" || Date.now() > deadline) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function replay(deps: CallDeps, key: string) {
  const row = await findRunByKey(deps.db, deps.key.ownerId, key);
  if (!row) return null;
  const done = await waitForRun(deps, row.runId);
  return { ...fullRun(done, await stepsOf(deps.db, done.runId)), idempotent_replay: true };
}

export async function startAgentRun(deps: CallDeps, body: AgentRunRequest) {
  const goal = (body.goal ?? body.prompt ?? "").trim();
  if (!goal) throw apiError("no_goal", "goal is required (prompt is accepted as an alias) and must not be empty.");
  const budget = budgetOf(deps, body);
  const maxCost = capNanos(budget.max_cost_usd);
  const maxCostPerStep = Math.min(maxCost, body.max_cost_per_step === undefined ? maxCost : capNanos(body.max_cost_per_step));

  if (body.idempotency_key) {
    const earlier = await replay(deps, body.idempotency_key);
    if (earlier) return earlier;
  }
  const runId = newId("agt_");
  const createdAt = Date.now();
  const claimed = await claimRun(deps.db, {
    runId, ownerId: deps.key.ownerId, keyId: deps.key.id, idempotencyKey: body.idempotency_key ?? null, workspaceId: body.workspace_id ?? null,
    goal, status: "running", policy: body.policy, strategy: "single", maxCostNanos: maxCost, budget: JSON.stringify(budget), createdAt,
  });
  if (!claimed) {
    // A concurrent duplicate won the insert: answer with its run, spend nothing.
    const earlier = await replay(deps, body.idempotency_key!);
    if (earlier) return earlier;
    throw apiError("agent_error", "The run could not be recorded; nothing was spent.");
  }

  let plannedAt = createdAt;
  const call: StepCall = async (req) => {
    const r = await callModel(deps, {
      requestId: runId, endpoint: AGENT_ENDPOINT, mode: "agent", candidates: req.models, messages: req.messages,
      maxTokens: req.maxTokens, temperature: req.temperature, ceiling: { promptTokens: req.promptBound, completionTokens: req.maxTokens },
    });
    if (req.role === "plan") plannedAt = Date.now();
    return { model: r.model, content: r.content, finishReason: r.finishReason, usage: r.usage };
  };

  try {
    const pools = intensityPools(deps.plan.models);
    const out = await runAgent({ runId, goal, policy: body.policy, maxCost, maxCostPerStep, maxSteps: body.max_steps, maxTokens: body.max_tokens, temperature: body.temperature, pools, now: () => new Date() }, call);
    const plan = out.plan.map((p) => (p.length > PLAN_ITEM_CHARS ? `${p.slice(0, PLAN_ITEM_CHARS - 1)}…` : p));
    const base = { ownerId: deps.key.ownerId, workspaceId: body.workspace_id ?? null, actor: actorOf(deps.key) };
    await finishRun(
      deps.db,
      runId,
      {
        status: out.status, strategy: out.strategy, plan: JSON.stringify(plan), stepsTaken: out.steps.length, costNanos: out.consumed, output: out.output,
        outputHash: out.outputHash, trajectoryProof: out.trajectoryProof, alerts: JSON.stringify(out.alerts), finalMessage: out.finalMessage, completedAt: Date.now(),
      },
      out.steps,
      [
        { ...base, eventType: "agent_plan", at: plannedAt, payload: { run_id: runId, policy: body.policy, plan_items: plan.length, max_cost_usd: budget.max_cost_usd, max_steps: body.max_steps } },
        { ...base, eventType: "agent_record", payload: { run_id: runId, status: out.status, steps_taken: out.steps.length, cost_consumed_usd: usdFromNanos(out.consumed), trajectory_proof: out.trajectoryProof, output_hash: out.outputHash } },
      ],
    );
    const row = await findRun(deps.db, deps.key.ownerId, runId);
    return fullRun(row!, await stepsOf(deps.db, runId));
  } catch (err) {
    // The run failed as a whole: its calls so far stay billed (their usage rows are written), the
    // run row goes so the idempotency key can be used again.
    await releaseRun(deps.db, runId).catch(() => {});
    if (err instanceof NoProviderConfigured) throw apiError("no_provider_available", err.message);
    if (err instanceof AllCandidatesFailed) throw apiError("agent_error", `The run stopped: ${err.message}`, { attempts: err.attempts });
    console.error(`[${runId}] agent run failed`, err);
    throw apiError("agent_error", "The agent runner failed unexpectedly; calls made before the failure are billed and listed in GET /v1/usage.");
  }
}

async function ownRun(deps: Pick<CallDeps, "db" | "key">, runId: string) {
  const row = await findRun(deps.db, deps.key.ownerId, runId);
  if (!row) throw apiError("run_not_found", `No agent run ${runId} for this key's owner.`);
  return row;
}

export async function agentRunState(deps: Pick<CallDeps, "db" | "key">, runId: string) {
  return runState(await ownRun(deps, runId));
}

/** Runs are synchronous, so a run is terminal when a cancel can reach it: cancel returns its state. */
export const cancelAgentRun = agentRunState;

export async function agentTrajectory(deps: Pick<CallDeps, "db" | "key">, runId: string, full: boolean) {
  const row = await ownRun(deps, runId);
  return trajectoryView(row, await stepsOf(deps.db, runId), full);
}

export async function listAgentRuns(deps: Pick<CallDeps, "db" | "key">, limit: number) {
  const rows = await listRuns(deps.db, deps.key.ownerId, limit);
  return { object: "list" as const, count: rows.length, data: rows.map(runSummary) };
}

/** POST /v1/agent/verify (public): a deterministic replay of the bundle alone. */
export function verifyAgentBundle(b: AgentVerifyRequest) {
  const outputHash = (b.output_hash ?? textHash(b.output!)) as HashString;
  const v = verifyTrajectory({ run_id: b.run_id, policy: b.policy, strategy: b.strategy, output_hash: outputHash }, b.trajectory_proof, b.steps as never, b.step_proofs);
  return { object: "agent.verification" as const, valid: v.valid, recomputed_proof: v.recomputed_proof, n_steps: v.n_steps, mismatched_steps: v.mismatched_steps };
}
