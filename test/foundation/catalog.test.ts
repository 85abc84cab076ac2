import { describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, MODELS, PROVIDERS, findModel } from "../../src/catalog/models";
import { costUsd } from "../../src/cost/money";
import { call } from "../helpers";

describe("model catalog", () => {
  it("holds 27 models of 12 providers with unique ids", () => {
    expect(MODELS).toHaveLength(27);
    expect(PROVIDERS).toHaveLength(12);
    expect(new Set(MODELS.map((m) => m.id)).size).toBe(27);
  });

  it("the Free plan's models are the three cheapest budget models of SPEC.md section 8", () => {
    expect(FREE_MODEL_IDS).toEqual(["llama-3.2-3b", "gpt-5-nano", "gemini-2.5-flash-lite"]);
    const prices = FREE_MODEL_IDS.map((id) => [findModel(id)!.input_usd_per_mtok, findModel(id)!.output_usd_per_mtok]);
    expect(prices).toEqual([[0.02, 0.02], [0.05, 0.4], [0.1, 0.4]]);
  });

  it("finds a model by catalog id or upstream id", () => {
    expect(findModel("openai/gpt-oss-120b")?.id).toBe("gpt-oss-120b");
    expect(findModel("nope")).toBeUndefined();
  });

  it("prices a call per million tokens", () => {
    const c = costUsd(findModel("claude-sonnet-4-6")!, 1_000_000, 100_000);
    expect(c).toEqual({ input_usd: 3, output_usd: 1.5, total_usd: 4.5 });
  });

  it("GET /v1/models is an OpenAI-style list with our fields", async () => {
    const r = await call("/v1/models");
    expect(r.status).toBe(200);
    expect(r.json.object).toBe("list");
    expect(r.json.data).toHaveLength(27);
    expect(r.json.data[0]).toEqual({
      id: "llama-3.2-3b", object: "model", created: expect.any(Number), owned_by: "openrouter",
      display_name: "Llama 3.2 3B Instruct", provider: "openrouter", tier: "budget",
      input_usd_per_mtok: 0.02, output_usd_per_mtok: 0.02, context_tokens: 131072,
      upstream_id: "meta-llama/llama-3.2-3b-instruct", capabilities: ["chat"],
    });
  });
});

describe("plans and health", () => {
  it("GET /v1/plans follows SPEC.md section 8 and 2.15", async () => {
    const r = await call("/v1/plans");
    expect(r.status).toBe(200);
    expect(r.json.object).toBe("list");
    const byId = Object.fromEntries(r.json.data.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(byId)).toEqual(["free", "personal", "pro", "corporate"]);
    expect(byId.free).toEqual({
      id: "free", object: "plan", display_name: "Free", price_usd_month: 0, daily_requests: 1000, rpm: 10,
      model_access: { type: "allowlist", count: 3, models: FREE_MODEL_IDS }, agentguard: true, description: expect.any(String),
    });
    expect([byId.personal.price_usd_month, byId.personal.daily_requests, byId.personal.rpm]).toEqual([0, 1000, 100]);
    expect([byId.pro.price_usd_month, byId.pro.daily_requests, byId.pro.rpm]).toEqual([49, 50000, 300]);
    expect([byId.corporate.price_usd_month, byId.corporate.daily_requests, byId.corporate.rpm]).toEqual([499, null, 1000]);
    expect(byId.pro.model_access).toEqual({ type: "all", count: 27, models: null });
  });

  it("GET /health answers ok with the version", async () => {
    const r = await call("/health");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: "ok", version: "0.1.0", models: 27, providers: 12 });
  });
});
