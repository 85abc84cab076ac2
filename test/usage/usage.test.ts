import { describe, expect, it } from "vitest";
import { findModel } from "../../src/catalog/models";
import { costUsd } from "../../src/cost/money";
import { call, eventually, newKey } from "../helpers";

describe("usage and savings", () => {
  it("records every call, streamed or not, and sums tokens and cost exactly", async () => {
    const { key, record } = await newKey("pro");
    const bodies = [];
    for (const [model, stream] of [["gpt-5-nano", false], ["claude-haiku-4-5", false], ["gemini-2.5-flash", true]] as const) {
      const r = await call("/v1/chat/completions", { key, json: { model, stream, ...(stream ? { stream_options: { include_usage: true } } : {}), messages: [{ role: "user", content: `Tell me about ${model}` }] } });
      expect(r.status).toBe(200);
      bodies.push(stream ? JSON.parse(r.text.split("\n\n").filter((l) => l.startsWith("data: {")).at(-1)!.slice(6)) : r.json);
    }
    const usage = await eventually(async () => {
      const r = await call("/v1/usage", { key });
      return r.json.total_requests === 3 ? r.json : undefined;
    });
    const tokens = bodies.reduce((s, b) => s + b.usage.total_tokens, 0);
    const cost = bodies.reduce((s, b) => s + b.svc.cost.total_usd, 0);
    expect(usage).toMatchObject({ object: "usage", user_id: record.ownerId, plan: "pro", plan_display: "Pro", total_requests: 3, total_tokens: tokens });
    expect(usage.total_cost_usd).toBeCloseTo(cost, 8);
    expect(usage.limits).toMatchObject({ daily_requests: 50000, rpm: 300, daily_requests_remaining: 50000 - usage.limits.daily_requests_used, model_access: { type: "all", models: null } });
    expect(usage.limits.daily_requests_used).toBeGreaterThanOrEqual(4);
    expect(Object.keys(usage.by_model).sort()).toEqual(["claude-haiku-4-5", "gemini-2.5-flash", "gpt-5-nano"]);
    expect(usage.by_provider.anthropic.requests).toBe(1);
    expect(usage.by_mode.direct).toMatchObject({ requests: 3, tokens });
    expect(usage.by_mode.quality).toEqual({ requests: 0, tokens: 0, cost_usd: 0 });
    expect(usage.recent).toHaveLength(3);
    expect(usage.recent[0].model).toBe("gemini-2.5-flash");

    const s = (await call("/v1/savings", { key })).json;
    const baseline = findModel("gpt-5.2")!;
    const baselineCost = bodies.reduce((sum, b) => sum + costUsd(baseline, b.usage.prompt_tokens, b.usage.completion_tokens).total_usd, 0);
    expect(s).toMatchObject({ baseline_model: "gpt-5.2", total_requests: 3, total_tokens: tokens });
    expect(s.baseline_cost_usd).toBeCloseTo(baselineCost, 8);
    expect(s.actual_cost_usd).toBeCloseTo(cost, 8);
    expect(s.saved_usd).toBeCloseTo(Math.max(0, baselineCost - cost), 8);
    expect(s.saved_pct).toBeCloseTo((100 * Math.max(0, baselineCost - cost)) / baselineCost, 1);

    const cheap = (await call("/v1/savings?baseline=llama-3.2-3b", { key })).json;
    expect(cheap.saved_usd).toBe(0);
  });

  it("shows the Free plan's allowlist and refuses an unknown baseline", async () => {
    const { key } = await newKey("free");
    const u = (await call("/v1/usage", { key })).json;
    expect(u.limits.model_access).toEqual({ type: "allowlist", models: ["llama-3.2-3b", "gpt-5-nano", "gemini-2.5-flash-lite"] });
    expect(u).toMatchObject({ total_requests: 0, total_tokens: 0, total_cost_usd: 0, recent: [] });
    const r = await call("/v1/savings?baseline=gpt-9", { key });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: "unknown_model", message: expect.stringContaining("gpt-9") });
  });

  it("keeps owners apart", async () => {
    const a = await newKey("pro", "owner-a");
    const b = await newKey("pro", "owner-b");
    await call("/v1/chat/completions", { key: a.key, json: { messages: [{ role: "user", content: "hi" }] } });
    await eventually(async () => (await call("/v1/usage", { key: a.key })).json.total_requests === 1);
    expect((await call("/v1/usage", { key: b.key })).json.total_requests).toBe(0);
  });
});
