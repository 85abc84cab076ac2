import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { callDeps } from "../../src/calls/deps";
import { startAgentRun } from "../../src/agents/run";
import { agentRunSchema } from "../../src/agents/schema";
import { call, newKey, recorded } from "../helpers";

const GOAL = "1. List three risks of storing API keys in a repository.\n2. Propose a fix for each.\n3. Write a short checklist.";
const run = (key: string, json: unknown, headers: Record<string, string> = {}) => call("/v1/agent/run", { key, json, headers });

const usageOf = async (runId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n, coalesce(sum(cost_nanos), 0) AS nanos FROM usage_events WHERE request_id = ?").bind(runId).first<{ n: number; nanos: number }>())!;
/** The run's usage once `calls` rows of it reached D1 (through the write-behind buffer). */
const usageOnceRecorded = (runId: string, calls: number) => recorded(async () => {
  const u = await usageOf(runId);
  return u.n >= calls ? u : undefined;
});

describe("POST /v1/agent/run", () => {
  it("plans, runs each sub-task, finalizes, and answers every field of SPEC.md 2.5", async () => {
    const { key } = await newKey();
    const r = await run(key, { goal: GOAL, max_cost_usd: 1 });
    expect(r.status).toBe(200);
    const b = r.json;
    expect(b).toMatchObject({ object: "agent.run", status: "complete", policy: "balanced", strategy: "single", steps_taken: 4, max_cost_usd: 1 });
    expect(b.run_id).toMatch(/^agt_/);
    expect(b.plan).toEqual(["List three risks of storing API keys in a repository.", "Propose a fix for each.", "Write a short checklist."]);
    expect(b.steps.map((s: any) => s.role)).toEqual(["subtask", "subtask", "subtask", "finalize"]);
    for (const [i, s] of b.steps.entries()) {
      expect(s).toMatchObject({ index: i, intensity: "Halo", strategy: "single" });
      expect(s.input_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(s.output_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(s.step_proof).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
      expect(JSON.stringify(s)).not.toContain("API keys");
    }
    expect(b.trajectory_proof).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(b.output.length).toBeGreaterThan(0);
    expect(b.cost_consumed_usd).toBeGreaterThan(0);
    expect(b.cost_consumed_usd + b.remaining_usd).toBeCloseTo(1, 12);
    expect(b.budget).toEqual({ plan: "pro", plan_envelope_usd: 0.5, tier_limit_usd: 2.5, max_cost_usd: 1, multiplier: 5 });
    expect(b.alerts).toEqual([]);
    expect(b).not.toHaveProperty("final_message");
    // Every model call (the plan and each step) is billed under the run id, and the sum is the run's cost.
    const u = await usageOnceRecorded(b.run_id, 5);
    expect(u.n).toBe(5);
    expect(u.nanos / 1e9).toBe(b.cost_consumed_usd);
  });

  it("defaults max_cost_usd to the tier limit, takes `prompt` as an alias, and 400s no_goal on an empty goal", async () => {
    const { key } = await newKey("personal");
    const r = await run(key, { prompt: "Summarise the benefits of code review.", max_steps: 3 });
    expect(r.status).toBe(200);
    expect(r.json.budget).toEqual({ plan: "personal", plan_envelope_usd: 0.05, tier_limit_usd: 0.25, max_cost_usd: 0.25, multiplier: 5 });
    for (const body of [{ goal: "" }, { goal: "   " }, { prompt: "" }, {}]) {
      const bad = await run(key, body);
      expect([bad.status, bad.json.error]).toEqual([400, "no_goal"]);
    }
    const invalid = await run(key, { goal: "x", max_steps: 1001 });
    expect([invalid.status, invalid.json.error]).toEqual([400, "invalid_request"]);
    expect(invalid.text).toContain("1000");
  });

  it("402 budget_exceeds_tier_limit above 5 x the plan envelope, before any model runs", async () => {
    const { key, record } = await newKey("free");
    const r = await run(key, { goal: GOAL, max_cost_usd: 0.051 });
    expect(r.status).toBe(402);
    expect(r.json).toMatchObject({ error: "budget_exceeds_tier_limit", tier_limit_usd: 0.05, plan_envelope_usd: 0.01, requested_max_cost_usd: 0.051 });
    const used = await env.DB.prepare("SELECT count(*) AS n FROM usage_events WHERE owner_id = ?").bind(record.ownerId).first<{ n: number }>();
    expect(used!.n).toBe(0);
  });

  it("stops gracefully on budget pressure: budget_exhausted with the best partial output and final_message, never an error", async () => {
    const { key } = await newKey();
    for (const cap of [0, 0.000001, 0.00002, 0.0002]) {
      const r = await run(key, { goal: GOAL, max_cost_usd: cap, policy: "depth" });
      expect(r.status).toBe(200);
      expect(r.json.cost_consumed_usd).toBeLessThanOrEqual(cap);
      if (r.json.status === "budget_exhausted") expect(r.json.final_message).toMatch(/did not fit the remaining budget/);
      // The run's usage rows add up to what it reports (times out when they never do).
      await recorded(async () => (await usageOf(r.json.run_id)).nanos / 1e9 === r.json.cost_consumed_usd);
    }
    const zero = await run(key, { goal: GOAL, max_cost_usd: 0 });
    expect(zero.json).toMatchObject({ status: "budget_exhausted", steps_taken: 0, cost_consumed_usd: 0 });
  });

  it("downshifts intensity with WARNING and CRITICAL alerts as the cap fills", async () => {
    const { key } = await newKey();
    const many = Array.from({ length: 12 }, (_, i) => `${i + 1}. Write paragraph ${i + 1} of a long essay about distributed consensus.`).join("\n");
    const r = await run(key, { goal: many, policy: "depth", max_cost_usd: 0.02, max_tokens: 200 });
    expect(r.status).toBe(200);
    const b = r.json;
    expect(b.alerts.map((a: any) => a.level)).toEqual(["WARNING", "CRITICAL"]);
    expect(b.alerts[0]).toMatchObject({ threshold_pct: 70, intensity: "Halo" });
    expect(b.alerts[1]).toMatchObject({ threshold_pct: 90, intensity: "Foton" });
    expect(b.alerts[0].consumed_usd).toBeGreaterThanOrEqual(0.014);
    expect(b.steps[0].intensity).toBe("Laser");
    // After each alert, no step runs above the alert's intensity.
    const rank = (i: string) => ["Laser", "Halo", "Foton"].indexOf(i);
    for (const a of b.alerts) for (const s of b.steps.filter((x: any) => x.index > a.at_step)) expect(rank(s.intensity)).toBeGreaterThanOrEqual(rank(a.intensity));
    expect(b.steps.some((s: any) => s.intensity === "Halo")).toBe(true);
    expect(b.cost_consumed_usd).toBeLessThanOrEqual(0.02);
  });

  it("stops at max_steps with max_steps_reached", async () => {
    const { key } = await newKey();
    const r = await run(key, { goal: GOAL, max_steps: 2 });
    expect(r.json).toMatchObject({ status: "max_steps_reached", steps_taken: 2 });
    expect(r.json.final_message).toMatch(/max_steps \(2\)/);
  });

  it("the same idempotency_key from the same owner returns the original run and spends once, also when concurrent", async () => {
    const { key } = await newKey();
    const body = { goal: GOAL, idempotency_key: "job-42" };
    const rs = await Promise.all(Array.from({ length: 5 }, () => run(key, body)));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const ids = new Set(rs.map((r) => r.json.run_id));
    expect(ids.size).toBe(1);
    const again = await run(key, body);
    expect(again.json).toMatchObject({ run_id: [...ids][0], idempotent_replay: true });
    expect((await usageOnceRecorded([...ids][0] as string, 5)).n).toBe(5);
    const runs = await env.DB.prepare("SELECT count(*) AS n FROM usage_events WHERE key_id = (SELECT key_id FROM agent_runs WHERE run_id = ?)").bind([...ids][0]).first<{ n: number }>();
    expect(runs!.n).toBe(5);
    // Another owner with the same key gets its own run.
    const other = await newKey();
    expect((await run(other.key, body)).json.run_id).not.toBe([...ids][0]);
  });

  it("503 no_provider_available when no provider can serve; 502 agent_error when every call fails, and the key can be reused", async () => {
    const { record } = await newKey();
    const deps = { ...callDeps({ env, key: record, faults: null, waitUntil: () => {} }), keyless: null };
    await expect(startAgentRun(deps, agentRunSchema.parse({ goal: GOAL }))).rejects.toMatchObject({ code: "no_provider_available", status: 503 });
    const { key } = await newKey();
    const everyProvider = "openai=500,anthropic=500,google=500,mistral=500,groq=500,deepseek=500,xai=500,together=500,fireworks=500,perplexity=500,cohere=500,openrouter=500";
    const failed = await run(key, { goal: GOAL, idempotency_key: "retry-me" }, { "x-sandbox-fault": everyProvider });
    expect(failed.status).toBe(502);
    expect(failed.json.error).toBe("agent_error");
    expect(failed.text).not.toMatch(/at \w+ \(/);
    const ok = await run(key, { goal: GOAL, idempotency_key: "retry-me" });
    expect(ok.json.status).toBe("complete");
  });

  it("files agent_plan and agent_record audit events under the run's workspace", async () => {
    const { key } = await newKey();
    const r = await run(key, { goal: GOAL, workspace_id: "ws-agents" });
    const events = await call("/v1/audit/events?workspace_id=ws-agents", { key });
    const types = events.json.data.map((e: any) => e.event_type);
    expect(types).toEqual(["agent_record", "agent_plan"]);
    expect(events.json.data[0].payload).toMatchObject({ run_id: r.json.run_id, status: "complete", trajectory_proof: r.json.trajectory_proof });
    expect(events.json.data[1].payload).toMatchObject({ run_id: r.json.run_id, plan_items: 3 });
  });
});

describe("agent reads, trajectory and verify", () => {
  it("lists, reads, cancels (idempotently) and isolates tenants", async () => {
    const { key } = await newKey();
    const a = (await run(key, { goal: GOAL })).json;
    const b = (await run(key, { goal: "Explain idempotency keys in one paragraph." })).json;
    const list = await call("/v1/agent/runs?limit=1", { key });
    expect(list.json).toMatchObject({ object: "list", count: 1 });
    expect(list.json.data[0]).toMatchObject({ run_id: b.run_id, status: "complete", goal: "Explain idempotency keys in one paragraph." });
    expect(list.json.data[0]).not.toHaveProperty("steps");
    expect((await call("/v1/agent/runs?limit=201", { key })).status).toBe(400);
    const state = await call(`/v1/agent/${a.run_id}`, { key });
    expect(state.json).toEqual({ object: "agent.run", run_id: a.run_id, status: "complete", cost_consumed_usd: a.cost_consumed_usd, steps_taken: 4, trajectory_proof: a.trajectory_proof, output: a.output });
    for (let i = 0; i < 2; i++) expect((await call(`/v1/agent/${a.run_id}/cancel`, { key, method: "POST" })).json).toEqual(state.json);
    const stranger = await newKey();
    for (const [path, method] of [[`/v1/agent/${a.run_id}`, "GET"], [`/v1/agent/${a.run_id}/trajectory`, "GET"], [`/v1/agent/${a.run_id}/cancel`, "POST"]] as const) {
      const r = await call(path, { key: stranger.key, method });
      expect([r.status, r.json.error]).toEqual([404, "run_not_found"]);
    }
    expect((await call("/v1/agent/runs", { key: stranger.key })).json.count).toBe(0);
    expect((await call("/v1/agent/runs")).status).toBe(401);
  });

  it("the trajectory re-verifies server-side; full=true gives the bundle that POST /v1/agent/verify (public) accepts unchanged", async () => {
    const { key } = await newKey();
    const a = (await run(key, { goal: GOAL })).json;
    const short = await call(`/v1/agent/${a.run_id}/trajectory`, { key });
    expect(short.json.verification).toEqual({ valid: true, recomputed_proof: a.trajectory_proof, n_steps: 4, mismatched_steps: [] });
    expect(short.json.steps[0].input_hash).toMatch(/^sha256:[0-9a-f]{16}…$/);
    expect(short.json).not.toHaveProperty("verify_request");
    const full = await call(`/v1/agent/${a.run_id}/trajectory?full=true`, { key });
    const bundle = full.json.verify_request;
    expect(bundle.steps[0].input_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const ok = await call("/v1/agent/verify", { json: bundle });
    expect(ok.json).toEqual({ object: "agent.verification", valid: true, recomputed_proof: a.trajectory_proof, n_steps: 4, mismatched_steps: [] });
    const byOutput = await call("/v1/agent/verify", { json: { ...bundle, output_hash: undefined, output: a.output } });
    expect(byOutput.json.valid).toBe(true);
    const tampered = structuredClone(bundle);
    tampered.steps[2].cost_usd = 0;
    expect((await call("/v1/agent/verify", { json: tampered })).json).toMatchObject({ valid: false, mismatched_steps: [2] });
    // A tampered row in storage is caught by the server-side re-verification.
    await env.DB.prepare("UPDATE agent_steps SET model = 'gpt-5-nano' WHERE run_id = ? AND idx = 1").bind(a.run_id).run();
    expect((await call(`/v1/agent/${a.run_id}/trajectory`, { key })).json.verification).toMatchObject({ valid: false, mismatched_steps: [1] });
  });

  it("verify: 400 over 2000 steps naming the limit, 400 on short hashes or a missing output", async () => {
    const step = { index: 0, model: "m", input_hash: `sha256:${"a".repeat(64)}`, output_hash: `sha256:${"b".repeat(64)}`, cost_usd: 0, confidence: 1, timestamp: "t" };
    const big = await call("/v1/agent/verify", { json: { run_id: "agt_x", trajectory_proof: "sha256:x", output_hash: step.output_hash, steps: Array.from({ length: 2001 }, (_, i) => ({ ...step, index: i })) } });
    expect([big.status, big.json.error]).toEqual([400, "invalid_request"]);
    expect(big.text).toContain("2000");
    const short = await call("/v1/agent/verify", { json: { run_id: "agt_x", trajectory_proof: "sha256:x", output_hash: step.output_hash, steps: [{ ...step, input_hash: "sha256:abcd" }] } });
    expect(short.status).toBe(400);
    expect(short.text).toContain("64 lowercase hex");
    const noOutput = await call("/v1/agent/verify", { json: { run_id: "agt_x", trajectory_proof: "sha256:x", steps: [step] } });
    expect(noOutput.status).toBe(400);
  });
});
