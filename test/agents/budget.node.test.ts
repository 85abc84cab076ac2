import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MODELS, type Model } from "../../src/catalog/models";
import { billedUsage } from "../../src/agents/guard";
import { AGENT_POLICIES, intensityPools, isHyperFrontier } from "../../src/agents/policy";
import { runAgent, type RunOutcome, type StepCall } from "../../src/agents/runner";
import { costNanos } from "../../src/cost/money";
import { verifyTrajectory } from "../../src/proof/trajectory";

/**
 * The cap is never passed (issue 11): runs with random goals, caps from zero to large, prices (the
 * whole catalog, plan allowlists), upstream usage reports (honest, under- and over-reporting) and
 * faults, through the real runner and cost guard with a fake upstream.
 */
const FREE = ["llama-3.2-3b", "gpt-5-nano", "gemini-2.5-flash-lite"];

interface Upstream {
  /** Fraction of max_tokens the model writes. */
  fill: number;
  /** Multiplier on the reported usage: <1 under-reports, >1 over-reports. */
  report: number;
  /** Calls after which the upstream fails (never when null). */
  failAfter: number | null;
}

function fakeUpstream(u: Upstream, spent: { nanos: number }): StepCall {
  let n = 0;
  return async (req) => {
    if (u.failAfter !== null && n++ >= u.failAfter) throw new Error("every candidate failed");
    const model = req.models[0]!;
    const completion = Math.floor(req.maxTokens * u.fill);
    const content = req.role === "plan" ? "1. gather facts\n2. draft\n3. check" : "x".repeat(Math.min(completion * 4, 4000));
    const usage = { prompt_tokens: Math.ceil(req.messages.reduce((a, m) => a + m.content.length, 0) / 4 * u.report), completion_tokens: Math.ceil(completion * u.report), total_tokens: 0 };
    // What the service bills for this call (the same clamp the model-call service applies).
    const billed = billedUsage(usage, req.promptBound, req.maxTokens);
    spent.nanos += costNanos(model, billed.prompt_tokens, billed.completion_tokens).total;
    return { model, content, finishReason: completion >= req.maxTokens ? "length" : "stop", usage };
  };
}

describe("agents: the cost guard never lets a run pass its cap", () => {
  it("holds over 10,000 random runs, and reports how often runs complete, downshift and exhaust", async () => {
    const tally = { runs: 0, complete: 0, budget_exhausted: 0, max_steps_reached: 0, failed: 0, downshifted: 0, alerts: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          goal: fc.string({ minLength: 1, maxLength: 300 }),
          policy: fc.constantFrom(...AGENT_POLICIES),
          capNanos: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 50_000, max: 5_000_000 }), fc.integer({ min: 5_000_000, max: 5_000_000_000 })),
          perStepShare: fc.double({ min: 0.05, max: 1, noNaN: true }),
          maxSteps: fc.integer({ min: 1, max: 12 }),
          maxTokens: fc.integer({ min: 1, max: 4096 }),
          free: fc.boolean(),
          upstream: fc.record({ fill: fc.double({ min: 0, max: 1, noNaN: true }), report: fc.constantFrom(0, 0.5, 1, 1, 1, 2, 10), failAfter: fc.option(fc.integer({ min: 0, max: 6 }), { freq: 4 }) }),
        }),
        async (c) => {
          const spent = { nanos: 0 };
          const pools = intensityPools(c.free ? FREE : null);
          let out: RunOutcome | null = null;
          try {
            out = await runAgent(
              { runId: "agt_prop", goal: c.goal, policy: c.policy, maxCost: c.capNanos, maxCostPerStep: Math.floor(c.capNanos * c.perStepShare), maxSteps: c.maxSteps, maxTokens: c.maxTokens, temperature: 0.5, pools, now: () => new Date(0) },
              fakeUpstream(c.upstream, spent),
            );
          } catch {
            tally.failed++;
          }
          tally.runs++;
          expect(spent.nanos).toBeLessThanOrEqual(c.capNanos);
          if (out) {
            tally[out.status]++;
            if (out.downshifts) tally.downshifted++;
            if (out.alerts.length) tally.alerts++;
            expect(out.consumed).toBe(spent.nanos);
            expect(out.steps.length).toBeLessThanOrEqual(c.maxSteps);
            for (const s of out.steps) expect(s.cost_nanos).toBeLessThanOrEqual(Math.floor(c.capNanos * c.perStepShare));
            expect(verifyTrajectory({ run_id: "agt_prop", policy: c.policy, strategy: out.strategy, output_hash: out.outputHash }, out.trajectoryProof, out.steps, out.steps.map((s) => s.step_proof)).valid).toBe(true);
          }
        },
      ),
      { numRuns: 10_000 },
    );
    console.log("agent property test:", JSON.stringify(tally));
    expect(tally.runs).toBe(10_000);
    // The generator reaches every outcome, so the property is not vacuous.
    for (const k of ["complete", "budget_exhausted", "max_steps_reached", "failed", "downshifted", "alerts"] as const) expect(tally[k]).toBeGreaterThan(0);
  }, 120_000);

  it("excludes hyper-frontier models and draws each intensity from its tiers", () => {
    const pools = intensityPools(null);
    expect(MODELS.filter(isHyperFrontier).map((m) => m.id)).toEqual(["gpt-5.2-pro"]);
    const all = [...pools.Laser, ...pools.Halo, ...pools.Foton];
    expect(all.some(isHyperFrontier)).toBe(false);
    expect(pools.Laser.every((m: Model) => m.tier === "frontier" || m.tier === "premium")).toBe(true);
    expect(pools.Laser[0]!.tier).toBe("frontier");
    expect(pools.Halo.every((m) => m.tier === "mid")).toBe(true);
    expect(pools.Foton.every((m) => m.tier === "budget")).toBe(true);
    expect(intensityPools(FREE).Laser).toEqual([]);
  });
});
