import { describe, expect, it } from "vitest";
import { findModel, MODELS } from "../../src/catalog/models";
import { newKey } from "../helpers";
import { ask, expectConsistent, orchestrateCall, results } from "./helpers";

const LONG = "Compare the trade-offs between optimistic and pessimistic concurrency control in distributed databases, covering contention, retries, latency under load and operational complexity.";

describe("POST /v2/orchestrate: single", () => {
  it("runs the routed model once: one answer stage, confidence from the finish reason alone", async () => {
    const { key } = await newKey();
    const r = await orchestrateCall(key, { messages: ask("What is the capital of France?"), strategy: "single" });
    expect(r.status).toBe(200);
    const b = r.json;
    await expectConsistent(b);
    expect(b).toMatchObject({ policy: "balanced", strategy: "single" });
    expect(b.svc.stages.map((s: any) => s.name)).toEqual(["answer"]);
    expect(results(b)).toHaveLength(1);
    expect(results(b)[0]).toMatchObject({ ok: true, role: "answer" });
    // 0.4 * 0.5 (one answer) + 0.4 * 0.5 (no judge) + 0.2 * 1 (stop)
    expect(b.svc.orchestration).toMatchObject({ confidence: 0.6, agreement: 1, escalated: false, calls: 1 });
    expect(b.svc.orchestration.models_used).toEqual([results(b)[0].model]);
  });

  it("include_trace: false omits the stages", async () => {
    const { key } = await newKey();
    const r = await orchestrateCall(key, { messages: ask("Say hi."), strategy: "single", include_trace: false });
    expect(r.status).toBe(200);
    expect(r.json.svc.stages).toBeUndefined();
    expect(r.json.svc.proof.verifiable).toBe(true);
  });
});

describe("POST /v2/orchestrate: cascade", () => {
  it("stops at the cheapest rung when the grader is convinced", async () => {
    const { key } = await newKey();
    const r = await orchestrateCall(key, { messages: ask("What is the capital of France?"), strategy: "cascade" });
    expect(r.status).toBe(200);
    const b = r.json;
    await expectConsistent(b);
    expect(b.svc.stages.map((s: any) => s.name)).toEqual(["cascade:0"]);
    const [stage] = b.svc.stages;
    expect(stage.results.map((x: any) => x.role)).toEqual(["answer", "grader"]);
    expect(stage.detail).toMatchObject({ tier: "budget", bar: 0.7, escalate: false });
    expect(stage.detail.confidence).toBeGreaterThanOrEqual(0.7);
    expect(b.svc.orchestration.escalated).toBe(false);
  });

  it("escalates to stronger tiers while the confidence is below the bar", async () => {
    const { key } = await newKey();
    const r = await orchestrateCall(key, { messages: ask(LONG), strategy: "cascade" });
    expect(r.status).toBe(200);
    const b = r.json;
    await expectConsistent(b);
    const tiers = b.svc.stages.map((s: any) => s.detail.tier);
    expect(tiers).toEqual(["budget", "mid", "premium", "frontier"]);
    for (const s of b.svc.stages) expect(s.detail.confidence).toBeLessThan(0.7);
    expect(b.svc.orchestration.escalated).toBe(true);
    expect(b.svc.orchestration.confidence).toBeLessThan(0.7);
    expect(b.svc.orchestration.confidence).toBeGreaterThan(0.4);
  });

  it("stops escalating when the next rung's worst case would pass max_cost_usd", async () => {
    const { key } = await newKey();
    const r = await orchestrateCall(key, { messages: ask(LONG), strategy: "cascade", max_cost_usd: 0.001 });
    expect(r.status).toBe(200);
    const b = r.json;
    await expectConsistent(b);
    const last = b.svc.stages.at(-1);
    expect(last.detail.stopped).toBe("max_cost_usd");
    expect(b.svc.cost.total_usd + last.detail.next_worst_case_usd).toBeGreaterThan(0.001);
    expect(b.svc.stages.length).toBeLessThan(4);
  });

  it("a rung whose models all fail shows ok: false and the cascade escalates past it", async () => {
    const { key } = await newKey();
    const budget = MODELS.filter((m) => m.tier === "budget").map((m) => `${m.id}=500`).join(",");
    const r = await orchestrateCall(key, { messages: ask("What is the capital of France?"), strategy: "cascade" }, { "x-sandbox-fault": budget });
    expect(r.status).toBe(200);
    const b = r.json;
    await expectConsistent(b);
    expect(b.svc.stages[0].results).toEqual([expect.objectContaining({ ok: false, role: "answer", cost_usd: 0, error: "HTTP 500" })]);
    expect(b.svc.stages[1].detail.tier).toBe("mid");
    expect(b.svc.orchestration.escalated).toBe(true);
  });

  it("grades with a model of another provider than the answer", async () => {
    const { key } = await newKey();
    const b = (await orchestrateCall(key, { messages: ask("What is the capital of France?"), strategy: "cascade" })).json;
    const [answer, grader] = b.svc.stages[0].results;
    expect(findModel(grader.model)!.provider).not.toBe(findModel(answer.model)!.provider);
  });
});
