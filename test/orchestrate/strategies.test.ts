import { describe, expect, it } from "vitest";
import { MODELS } from "../../src/catalog/models";
import { newKey } from "../helpers";
import { ask, expectConsistent, orchestrateCall, results } from "./helpers";

const QUESTION = "Why is the sky blue during the day and red at sunset?";
const names = (b: any) => b.svc.stages.map((s: any) => s.name);
const roles = (stage: any) => stage.results.map((r: any) => r.role);

async function run(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const { key } = await newKey();
  const r = await orchestrateCall(key, { messages: ask(QUESTION), ...body }, headers);
  expect(r.status, r.text).toBe(200);
  await expectConsistent(r.json);
  return r.json;
}

describe("POST /v2/orchestrate: ensemble_moa", () => {
  it("k proposers of different providers, then one aggregator", async () => {
    const b = await run({ strategy: "ensemble_moa" });
    expect(names(b)).toEqual(["propose", "aggregate"]);
    const [propose, aggregate] = b.svc.stages;
    expect(roles(propose)).toEqual(["proposer", "proposer", "proposer"]);
    expect(new Set(propose.detail.providers).size).toBe(3);
    expect(roles(aggregate)).toEqual(["aggregator"]);
    expect(b.svc.orchestration.agreement).toBe(propose.detail.agreement);
    expect(b.svc.orchestration.agreement).toBeGreaterThan(0);
    expect(b.svc.orchestration.agreement).toBeLessThan(1);
    // confidence = 0.4 * agreement + 0.4 * 0.5 (no judge) + 0.2 * 1 (all stopped)
    expect(b.svc.orchestration.confidence).toBeCloseTo(0.4 * b.svc.orchestration.agreement + 0.4, 3);
  });

  it("judge_model is the aggregator when it is a catalog id, ignored when not", async () => {
    const pinned = await run({ strategy: "ensemble_moa", judge_model: "claude-sonnet-4-6" });
    expect(pinned.svc.stages[1].results[0].model).toBe("claude-sonnet-4-6");
    const unknown = await run({ strategy: "ensemble_moa", judge_model: "my-favourite-model" });
    expect(unknown.svc.stages[1].results[0].ok).toBe(true);
  });

  it("a failing proposer degrades gracefully: ok: false in the stage, the rest aggregated", async () => {
    const first = (await run({ strategy: "ensemble_moa" })).svc.stages[0].results[0].model;
    const b = await run({ strategy: "ensemble_moa" }, { "x-sandbox-fault": `${first}=500` });
    const propose = b.svc.stages[0];
    expect(propose.results[0]).toMatchObject({ model: first, ok: false, error: "HTTP 500", cost_usd: 0, in_tokens: 0 });
    expect(propose.detail.answered).toBe(2);
    expect(b.svc.stages[1].results[0].ok).toBe(true);
    expect(b.svc.orchestration.models_used).not.toContain(first);
  });

  it("k sets the width, and max_cost_usd trims it", async () => {
    expect((await run({ strategy: "ensemble_moa", k: 2 })).svc.stages[0].results).toHaveLength(2);
    const tight = await run({ strategy: "ensemble_moa", k: 5, max_cost_usd: 0.000001 });
    expect(tight.svc.stages[0].detail).toMatchObject({ k: 1, requested_k: 5 });
    expect(tight.svc.stages[1].detail.skipped).toBeDefined();
  });
});

describe("POST /v2/orchestrate: rank_fuse", () => {
  it("k candidates, a judge ranks them, the top two are fused", async () => {
    const b = await run({ strategy: "rank_fuse" });
    expect(names(b)).toEqual(["propose", "rank", "fuse"]);
    const [propose, rank, fuse] = b.svc.stages;
    expect(roles(propose)).toEqual(["candidate", "candidate", "candidate"]);
    expect(roles(rank)).toEqual(["judge"]);
    expect(rank.detail.by).toBe("judge");
    expect(rank.detail.ranking.toSorted()).toEqual(propose.results.map((r: any) => r.model).toSorted());
    for (const s of rank.detail.scores) expect(s).toBeGreaterThanOrEqual(0);
    expect(rank.detail.scores).toEqual(rank.detail.scores.toSorted((x: number, y: number) => y - x));
    expect(fuse.detail.fused).toEqual(rank.detail.ranking.slice(0, 2));
    // The judge's top score is the J term: confidence = 0.4 A + 0.4 J + 0.2 F.
    const { agreement, confidence } = b.svc.orchestration;
    expect(confidence).toBeCloseTo(0.4 * agreement + 0.4 * rank.detail.scores[0] + 0.2, 3);
  });

  it("a failing judge falls back to ranking by consensus, a failing fuser to the top candidate", async () => {
    const strong = MODELS.filter((m) => m.tier === "premium" || m.tier === "frontier").map((m) => `${m.id}=500`).join(",");
    const b = await run({ strategy: "rank_fuse", judge_model: "claude-sonnet-4-6" }, { "x-sandbox-fault": strong });
    const [propose, rank, fuse] = b.svc.stages;
    expect(propose.detail.answered).toBe(3);
    expect(rank.results[0]).toMatchObject({ model: "claude-sonnet-4-6", ok: false, role: "judge" });
    expect(rank.detail.by).toBe("consensus");
    expect(fuse.results[0]).toMatchObject({ ok: false, role: "fuser" });
    expect(fuse.detail.fallback).toMatch(/top-ranked/);
    // No judge score: J is neutral (0.5).
    expect(b.svc.orchestration.confidence).toBeCloseTo(0.4 * b.svc.orchestration.agreement + 0.2 + 0.2, 3);
  });
});

describe("POST /v2/orchestrate: decompose_and_route", () => {
  it("splits separate asks, routes each by its own signals, then synthesizes", async () => {
    const b = await run({ strategy: "decompose_and_route", messages: ask("1. Compute 12 * 34 step by step.\n2. Write a haiku about autumn.\n3. Translate 'good morning' into Spanish.") });
    expect(names(b)).toEqual(["decompose", "subtasks", "synthesize"]);
    const [decompose, subtasks, synthesize] = b.svc.stages;
    expect(roles(decompose)).toEqual(["planner"]);
    expect(decompose.detail).toMatchObject({ subtasks: 3, planned: true });
    expect(roles(subtasks)).toEqual(["subtask", "subtask", "subtask"]);
    expect(subtasks.detail.routes.map((r: any) => r.signals)).toEqual([expect.arrayContaining(["math"]), expect.arrayContaining(["creative"]), expect.arrayContaining(["translation"])]);
    expect(roles(synthesize)).toEqual(["synthesizer"]);
    expect(b.svc.orchestration.agreement).toBe(synthesize.detail.coverage);
    expect(b.svc.orchestration.agreement).toBeGreaterThan(0.5);
  });

  it("a failed subtask is ok: false and counts as zero coverage", async () => {
    // A simple part (a budget model) and a creative part (a mid model); the synthesizer pinned to a premium one.
    const body = { strategy: "decompose_and_route", judge_model: "claude-sonnet-4-6", messages: ask("1. What is the capital of France?\n2. Write a sonnet about the sea.") };
    const b0 = await run(body);
    const keep = [b0.svc.stages[0].results[0].model, b0.svc.stages[1].detail.routes[0].model, "claude-sonnet-4-6"];
    expect(b0.svc.stages[1].results.map((r: any) => r.ok)).toEqual([true, true]);
    expect(keep).not.toContain(b0.svc.stages[1].detail.routes[1].model);
    const faults = MODELS.filter((m) => !keep.includes(m.id)).map((m) => `${m.id}=500`);
    const b = await run(body, { "x-sandbox-fault": faults.join(",") });
    expect(b.svc.stages[1].results.map((r: any) => r.ok)).toEqual([true, false]);
    expect(b.svc.stages[2].results[0]).toMatchObject({ ok: true, model: "claude-sonnet-4-6" });
    expect(b.svc.orchestration.agreement).toBeLessThanOrEqual(0.5);
    expect(b.svc.orchestration.agreement).toBe(b.svc.stages[2].detail.coverage);
  });
});

describe("POST /v2/orchestrate: self_consistency", () => {
  it("k samples of one model, the medoid answer, agreement = share agreeing with it", async () => {
    const b = await run({ strategy: "self_consistency", k: 5 });
    expect(names(b)).toEqual(["sample", "vote"]);
    const [sample, vote] = b.svc.stages;
    expect(roles(sample)).toEqual(Array(5).fill("sample"));
    expect(new Set(sample.results.map((r: any) => r.model)).size).toBe(1);
    expect(vote.results).toEqual([]);
    expect(vote.detail.support).toBe(b.svc.orchestration.agreement);
    expect(vote.detail.agreeing).toBe(Math.round(vote.detail.support * 5));
    expect(b.svc.orchestration.agreement).toBeGreaterThanOrEqual(0.2);
  });

  it("agreement varies with the samples: neither always 0 nor always 1 at temperature > 0", async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 6; i++) seen.add((await run({ strategy: "self_consistency", k: 4, temperature: 1 })).svc.orchestration.agreement);
    expect([...seen].some((a) => a < 1)).toBe(true);
    expect([...seen].every((a) => a > 0)).toBe(true);
  });

  it("at temperature 0 every sample is the same answer: agreement 1", async () => {
    const b = await run({ strategy: "self_consistency", k: 3, temperature: 0 });
    expect(b.svc.orchestration.agreement).toBe(1);
  });
});

describe("POST /v2/orchestrate: debate", () => {
  it("opening answers, critique rounds, a judge; agreement rises as debaters converge", async () => {
    const b = await run({ strategy: "debate" });
    expect(names(b)).toEqual(["debate:0", "debate:1", "judge"]);
    const [opening, round1, judge] = b.svc.stages;
    expect(roles(opening)).toEqual(["debater", "debater", "debater"]);
    expect(roles(round1)).toEqual(["debater", "debater", "debater"]);
    expect(round1.detail.agreement).toBeGreaterThan(opening.detail.agreement);
    expect(roles(judge)).toEqual(["judge"]);
    expect(judge.detail.by).toBe("judge");
    expect(b.svc.orchestration.agreement).toBe(round1.detail.agreement);
  });

  it("depth runs two rounds; max_cost_usd stops the rounds", async () => {
    expect(names(await run({ strategy: "debate", policy: "depth" }))).toEqual(["debate:0", "debate:1", "debate:2", "judge"]);
    const tight = await run({ strategy: "debate", max_cost_usd: 0.0001 });
    expect(names(tight)).toEqual(["debate:0", "judge"]);
    expect(tight.svc.stages[0].detail.stopped).toBe("max_cost_usd");
  });
});

describe("POST /v2/orchestrate: planning (strategy omitted)", () => {
  const planned = async (content: string, policy = "balanced") => {
    const b = await run({ messages: ask(content), policy });
    expect(b.reason).toMatch(/^Planned from the prompt/);
    expect(b.svc.orchestration.reason).toBe(b.reason);
    return b.strategy;
  };
  it("plans from the prompt's signals and the policy, and says why", async () => {
    expect(await planned("What is the capital of France?")).toBe("single");
    expect(await planned("Solve the equation 3x + 7 = 22 and show the algebra.")).toBe("self_consistency");
    expect(await planned("1. Summarize the causes of World War I.\n2. List three effects.")).toBe("decompose_and_route");
    expect(await planned("Write a Python function that merges two sorted lists.", "efficiency")).toBe("cascade");
    expect(await planned("Write a Python function that merges two sorted lists.", "depth")).toBe("ensemble_moa");
  });
});

describe("POST /v2/orchestrate: usage", () => {
  it("GET /v1/usage totals equal the costs the responses reported", async () => {
    const { key } = await newKey();
    let total = 0;
    let calls = 0;
    for (const strategy of ["single", "rank_fuse"]) {
      const b = (await orchestrateCall(key, { messages: ask(QUESTION), strategy })).json;
      await expectConsistent(b);
      total += Math.round(b.svc.cost.total_usd * 1e9);
      calls += results(b).filter((r) => r.ok).length;
    }
    const { call } = await import("../helpers");
    const usage = (await call("/v1/usage", { key })).json;
    expect(usage.total_requests).toBe(calls);
    expect(Math.round(usage.total_cost_usd * 1e9)).toBe(total);
    expect(usage.by_mode.balanced.requests).toBe(calls);
  });
});
