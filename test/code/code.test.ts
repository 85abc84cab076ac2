import { describe, expect, it } from "vitest";
import { findModel, MODELS, PROVIDERS } from "../../src/catalog/models";
import { call, newKey } from "../helpers";
import { codeCall, nanos, results, usageRows } from "../orchestrate/helpers";

const TASK = "Write a Python function that reverses a string";

async function run(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const { key } = await newKey();
  const r = await codeCall(key, { task: TASK, ...body }, headers);
  expect(r.status, r.text).toBe(200);
  await expectCodeConsistent(r.json);
  return r.json;
}

async function expectCodeConsistent(b: any) {
  expect(b.object).toBe("code");
  expect(b.id).toMatch(/^svc-/);
  expect(b.svc.cost.estimated).toBe(true);
  for (const f of b.files) {
    expect(f.path).not.toMatch(/^\/|\.\.|^[A-Za-z]:/);
    expect(f.bytes).toBe(new TextEncoder().encode(f.content).length);
  }
  if (!b.svc.stages) return;
  const names = b.svc.stages.map((s: any) => s.name);
  expect(names[0]).toBe("plan");
  // plan, generate:0, review:0, generate:1, review:1, ...
  names.slice(1).forEach((n: string, i: number) => expect(n).toBe(`${i % 2 === 0 ? "generate" : "review"}:${Math.floor(i / 2)}`));
  const ok = results(b).filter((r) => r.ok);
  for (const r of results(b)) expect(r).not.toHaveProperty("content");
  expect(nanos(b.svc.cost.total_usd)).toBe(ok.reduce((s, r) => s + nanos(r.cost_usd), 0));
  expect(b.usage.prompt_tokens).toBe(ok.reduce((s, r) => s + r.in_tokens, 0));
  const rows = await usageRows(b.svc.proof.request_id, ok.length);
  expect(rows).toHaveLength(ok.length);
  expect(rows.every((r: any) => r.endpoint === "/v2/code")).toBe(true);
}

describe("POST /v2/code: the coder and critic loop (SPEC.md 2.4, 3.3)", () => {
  it("fails the first draft on a checkable defect and passes the repair", async () => {
    const b = await run({});
    expect(b).toMatchObject({ task: TASK, language: "python", policy: "balanced", passed: true, iterations: 2 });
    expect(b.svc.stages.map((s: any) => s.name)).toEqual(["plan", "generate:0", "review:0", "generate:1", "review:1"]);
    const [plan, gen0, rev0, gen1, rev1] = b.svc.stages;
    expect(plan.results).toEqual([]);
    expect(plan.detail).toMatchObject({ language: "python", language_source: "detected", max_iters: 3, review: true });
    expect(gen0.results.map((r: any) => r.role)).toEqual(["coder"]);
    expect(rev0.results.map((r: any) => r.role)).toEqual(["reviewer"]);
    expect(rev0.detail).toMatchObject({ passed: false });
    expect(rev0.detail.issues).toBeGreaterThan(0);
    expect(rev1.detail).toMatchObject({ passed: true, issues: 0 });
    expect(gen1.results[0].model).toBe(gen0.results[0].model);
    // The critic is of another provider than the coder.
    const coder = findModel(gen0.results[0].model)!;
    const critic = findModel(rev0.results[0].model)!;
    expect(critic.provider).not.toBe(coder.provider);
    expect(coder.tier).toBe("mid");
    expect(b.review).toEqual({ passed: true, score: 0.9, issues: [], reviewer: critic.id });
    expect(b.files).toHaveLength(1);
    expect(b.files[0].path).toMatch(/\.py$/);
    expect(b.files[0].content).not.toContain("TODO");
    expect(b.svc.code).toMatchObject({ policy: "balanced", language: "python", passed: true, score: 0.9, iterations: 2, coder_models: [coder.id], reviewer_model: critic.id });
    // 0.4 * 1 (passed) + 0.4 * 0.9 + 0.2 * 1
    expect(b.svc.code.confidence).toBe(0.96);
    expect(b.reason).toMatch(/passed after 2 iterations/);
    expect(b.reason).toContain(`one mid-tier coder (${coder.id})`);
  });

  it("names the coder's own tier when no mid-tier model can hold the request", async () => {
    // Only a budget model has a context past a million tokens.
    const b = await run({ task: TASK, max_tokens: 1_500_000, review: false });
    const coder = findModel(b.svc.code.coder_models[0])!;
    expect(coder.tier).toBe("budget");
    expect(b.reason).toContain(`one budget-tier coder (${coder.id})`);
  });

  it("stops at max_iters when a budget coder cannot repair everything in time", async () => {
    // Three requirements: three defects in the first draft; a budget coder repairs one per attempt.
    const b = await run({ task: "Write a Python function that parses a CSV line, and validates each field, and reports errors", policy: "efficiency", max_iters: 2 });
    expect(b).toMatchObject({ passed: false, iterations: 2 });
    expect(b.svc.stages.map((s: any) => s.name)).toEqual(["plan", "generate:0", "review:0", "generate:1", "review:1"]);
    expect(findModel(b.svc.stages[1].results[0].model)!.tier).toBe("budget");
    expect(b.svc.stages[2].detail.issues).toBe(3);
    expect(b.svc.stages[4].detail.issues).toBe(2);
    expect(b.review.passed).toBe(false);
    expect(b.review.issues).toHaveLength(2);
    expect(b.svc.code.stopped).toBe("max_iters");
    expect(b.reason).toMatch(/max_iters \(2\)/);
    expect(b.svc.code.confidence).toBeLessThan(0.5);
  });

  it("stops repairing when the next iteration's worst case would pass max_cost_usd", async () => {
    const b = await run({ max_cost_usd: 0.003 });
    expect(b.passed).toBe(false);
    expect(b.iterations).toBe(1);
    expect(b.svc.code.stopped).toBe("max_cost_usd");
    const last = b.svc.stages.at(-1);
    expect(last.name).toBe("review:0");
    expect(last.detail.stopped).toBe("max_cost_usd");
    expect(b.svc.cost.total_usd + last.detail.next_worst_case_usd).toBeGreaterThan(0.003);
  });

  it("review: false: one coder, one draft, review null, review:0 with empty results", async () => {
    const b = await run({ review: false });
    expect(b.review).toBeNull();
    expect(b.passed).toBe(false);
    expect(b.iterations).toBe(1);
    expect(b.svc.stages.map((s: any) => s.name)).toEqual(["plan", "generate:0", "review:0"]);
    expect(b.svc.stages[2].results).toEqual([]);
    expect(b.svc.code.reviewer_model).toBeNull();
    expect(results(b)).toHaveLength(1);
    expect(b.svc.code.confidence).toBe(0.6);
  });

  it("depth: several diverse coders in parallel, every draft reviewed, the best kept", async () => {
    const b = await run({ policy: "depth" });
    const [, gen0, rev0] = b.svc.stages;
    expect(gen0.results).toHaveLength(3);
    expect(new Set(gen0.results.map((r: any) => findModel(r.model)!.provider)).size).toBe(3);
    expect(rev0.results).toHaveLength(3);
    expect(gen0.results.map((r: any) => r.model)).toContain(rev0.detail.kept);
    expect(b.passed).toBe(true);
  });

  it("language forced or detected; coder_model and reviewer_model used when catalog ids, ignored when not", async () => {
    const ts = await run({ task: "Write a TypeScript function that debounces another function" });
    expect(ts.language).toBe("typescript");
    expect(ts.files[0].path).toMatch(/\.ts$/);
    const forced = await run({ language: "JavaScript" });
    expect(forced.language).toBe("javascript");
    expect(forced.svc.stages[0].detail.language_source).toBe("forced");
    const pinned = await run({ coder_model: "claude-sonnet-4-6", reviewer_model: "gpt-5.2" });
    expect(pinned.svc.code).toMatchObject({ coder_models: ["claude-sonnet-4-6"], reviewer_model: "gpt-5.2" });
    const ignored = await run({ coder_model: "no-such-model", reviewer_model: "nor-this" });
    expect(ignored.svc.code.coder_models[0]).not.toBe("no-such-model");
    expect(ignored.passed).toBe(true);
  });

  it("include_trace: false omits the stages; the receipt verifies", async () => {
    const b = await run({ include_trace: false });
    expect(b.svc.stages).toBeUndefined();
    expect(b.svc.proof).toMatchObject({ verifiable: true, language: "python", passed: true });
  });

  it("a failing critic call is retried through its fallbacks; the loop still ends in a verdict", async () => {
    const first = await run({});
    const critic = first.svc.stages[2].results[0].model;
    const b = await run({}, { "x-sandbox-fault": `${critic}=500` });
    expect(b.svc.stages[2].results[0].model).not.toBe(critic);
    expect(b.passed).toBe(true);
  });
});

describe("POST /v2/code: errors (SPEC.md section 7)", () => {
  it("400 no_task for a missing, empty or blank task", async () => {
    const { key } = await newKey();
    for (const body of [{}, { task: "" }, { task: "  \n\t " }]) {
      const r = await codeCall(key, body);
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("no_task");
    }
  });

  it("400 invalid_request for bad fields", async () => {
    const { key } = await newKey();
    for (const body of [{ task: "x", max_iters: 0 }, { task: "x", max_iters: 11 }, { task: "x", policy: "fast" }, { task: "x", review: "no" }, { task: 5 }]) {
      const r = await codeCall(key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toBe("invalid_request");
    }
  });

  it("401 without a key", async () => {
    const r = await call("/v2/code", { json: { task: TASK } });
    expect(r.status).toBe(401);
  });

  it("502 no_code_produced when every coder fails, with no stack", async () => {
    const { key } = await newKey();
    const r = await codeCall(key, { task: TASK }, { "x-sandbox-fault": PROVIDERS.map((p) => `${p}=503`).join(",") });
    expect(r.status).toBe(502);
    expect(r.json.error).toBe("no_code_produced");
    expect(r.text).not.toMatch(/\.ts:\d+/);
  });

  it("502 code_error when every critic call fails", async () => {
    const { key } = await newKey();
    const b0 = (await codeCall(key, { task: TASK, policy: "efficiency" })).json;
    const coder = b0.svc.stages[1].results[0].model;
    const faults = MODELS.filter((m) => m.id !== coder).map((m) => `${m.id}=500`).join(",");
    const r = await codeCall(key, { task: TASK, policy: "efficiency", coder_model: coder }, { "x-sandbox-fault": faults });
    expect(r.status).toBe(502);
    expect(r.json.error).toBe("code_error");
  });
});
