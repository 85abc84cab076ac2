import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/catalog/models";
import { callDeps } from "../../src/calls/deps";
import { callModel } from "../../src/calls/model-call";
import { AllCandidatesFailed } from "../../src/providers/call";
import { eventually, newKey } from "../helpers";

/** The model-call service without Hono: what orchestration, code mode and agents stand on. */
describe("calls: callModel", () => {
  it("calls the candidates, prices exactly, and records one usage row under the operation's id and mode", async () => {
    const { record: key } = await newKey();
    const pending: Promise<unknown>[] = [];
    const deps = callDeps({ env, key, faults: "gpt-5-nano=503", waitUntil: (p) => pending.push(p) });
    const nano = findModel("gpt-5-nano")!;
    const mini = findModel("gpt-5-mini")!;
    const r = await callModel(deps, { requestId: "req_model_call_1", endpoint: "/v2/orchestrate", mode: "balanced", candidates: [nano, mini], messages: [{ role: "user", content: "Say hi." }], maxTokens: 50, temperature: 0 });
    expect(r.model.id).toBe("gpt-5-mini");
    expect(r.fallbackFrom?.id).toBe("gpt-5-nano");
    expect(r.usage.completion_tokens).toBeLessThanOrEqual(50);
    expect(r.costNanos).toBe(r.usage.prompt_tokens * 250 + r.usage.completion_tokens * 2000);
    expect(r.cost.total_usd).toBe(r.costNanos / 1e9);
    await Promise.all(pending);
    const row = await eventually(() => env.DB.prepare("SELECT * FROM usage_events WHERE request_id = ?").bind("req_model_call_1").first<any>());
    expect(row).toMatchObject({ endpoint: "/v2/orchestrate", mode: "balanced", model: "gpt-5-mini", cost_nanos: r.costNanos, fallback: 1 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM proof_receipts WHERE request_id = ?").bind("req_model_call_1").first("n")).toBe(0);
  });

  it("throws the domain error when every candidate fails, and records nothing", async () => {
    const { record: key } = await newKey();
    const deps = callDeps({ env, key, faults: "openai=500", waitUntil: () => {} });
    await expect(callModel(deps, { requestId: "req_model_call_2", endpoint: "/v2/orchestrate", mode: "balanced", candidates: [findModel("gpt-5-nano")!], messages: [{ role: "user", content: "x" }], maxTokens: 10, temperature: 0 })).rejects.toBeInstanceOf(AllCandidatesFailed);
  });
});
