import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import { usageEvents } from "../../src/db/schema";
import { call, newKey } from "../helpers";

const DAY = 86_400_000;

async function seed(ownerId: string, keyId: string, rows: Array<{ daysAgo: number; model: string; provider: string; tokens: [number, number]; nanos: number }>) {
  const today = Math.floor(Date.now() / DAY) * DAY;
  const database = db(env.DB);
  let i = 0;
  for (const r of rows) {
    await database.insert(usageEvents).values({
      id: `use_${crypto.randomUUID()}`,
      ownerId,
      keyId,
      requestId: `req_${i++}_${crypto.randomUUID()}`,
      endpoint: "/v1/chat/completions",
      model: r.model,
      provider: r.provider,
      mode: "balanced",
      promptTokens: r.tokens[0],
      completionTokens: r.tokens[1],
      totalTokens: r.tokens[0] + r.tokens[1],
      costNanos: r.nanos,
      latencyMs: 10,
      fallback: false,
      createdAt: today - r.daysAgo * DAY + 3_600_000,
    });
  }
}

describe("GET /v1/usage/daily (the console's spend and savings over time)", () => {
  it("one entry per UTC day, oldest first, zeros where nothing ran, adding up to GET /v1/savings", async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const { key, record } = await newKey("pro", owner);
    await seed(owner, record.id, [
      { daysAgo: 0, model: "gpt-5-nano", provider: "openai", tokens: [100, 50], nanos: 1_000 },
      { daysAgo: 0, model: "gpt-5-nano", provider: "openai", tokens: [200, 50], nanos: 2_000 },
      { daysAgo: 2, model: "gpt-5-nano", provider: "openai", tokens: [1000, 1000], nanos: 5_000 },
      { daysAgo: 40, model: "gpt-5-nano", provider: "openai", tokens: [1, 1], nanos: 1 },
    ]);
    const r = await call("/v1/usage/daily?days=7", { key });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ object: "usage.daily", baseline_model: "gpt-5.2", days: 7, estimated: true });
    expect(r.json.data).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(r.json.data.at(-1)).toMatchObject({ date: today, requests: 2, tokens: 400, cost_usd: 0.000003 });
    expect(r.json.data.at(-3)).toMatchObject({ requests: 1, tokens: 2000, cost_usd: 0.000005 });
    expect(r.json.data.at(-2)).toEqual({ date: expect.any(String), requests: 0, tokens: 0, cost_usd: 0, baseline_cost_usd: 0, saved_usd: 0 });
    const dates = r.json.data.map((d: any) => d.date);
    expect([...dates].sort()).toEqual(dates);

    // Over a window holding every row, the days add up to the savings endpoint's totals.
    const all = await call("/v1/usage/daily?days=90&baseline=gpt-5.2", { key });
    const savings = await call("/v1/savings?baseline=gpt-5.2", { key });
    const sum = (f: string) => all.json.data.reduce((s: number, d: any) => s + d[f], 0);
    expect(sum("requests")).toBe(savings.json.total_requests);
    expect(sum("tokens")).toBe(savings.json.total_tokens);
    expect(sum("baseline_cost_usd")).toBeCloseTo(savings.json.baseline_cost_usd, 9);
    expect(sum("cost_usd")).toBeCloseTo(savings.json.actual_cost_usd, 9);
  });

  it("another owner's usage is not counted", async () => {
    const { key } = await newKey("pro");
    const other = await newKey("pro");
    await seed(other.record.ownerId, other.record.id, [{ daysAgo: 0, model: "gpt-5-nano", provider: "openai", tokens: [5, 5], nanos: 10 }]);
    const r = await call("/v1/usage/daily?days=1", { key });
    expect(r.json.data).toEqual([expect.objectContaining({ requests: 0 })]);
  });

  it("the baseline is selectable; bad input is a 400, no key a 401", async () => {
    const { key } = await newKey("pro");
    expect((await call("/v1/usage/daily?baseline=gpt-5-nano", { key })).json.baseline_model).toBe("gpt-5-nano");
    expect((await call("/v1/usage/daily?baseline=nope", { key })).json.error).toBe("unknown_model");
    for (const q of ["days=0", "days=91", "days=x"]) {
      const r = await call(`/v1/usage/daily?${q}`, { key });
      expect(r.status, q).toBe(400);
      expect(r.json.error).toBe("invalid_request");
    }
    expect((await call("/v1/usage/daily")).status).toBe(401);
  });
});
