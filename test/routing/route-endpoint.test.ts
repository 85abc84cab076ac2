import { describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, findModel } from "../../src/catalog/models";
import { costUsd } from "../../src/cost/money";
import { chatRequestSchema } from "../../src/routing/request-schema";
import { SIGNALS } from "../../src/routing/types";
import { call, newKey } from "../helpers";

const CODE = "Write a Python function that parses a CSV file and returns a list of dicts.";
const body = (extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content: CODE }], ...extra });

describe("POST /v1/route", () => {
  it("answers the routing decision and its estimated cost without calling a model", async () => {
    const { key } = await newKey("pro");
    const res = await call("/v1/route", { key, json: body({ routing_mode: "balanced" }) });
    expect(res.status).toBe(200);
    const { object, model, svc } = res.json;
    expect(object).toBe("route");
    expect(model).toBe("glm-4.7");
    const m = findModel(model)!;
    expect(svc.routing).toEqual({
      mode: "balanced",
      model: "glm-4.7",
      model_display: m.display_name,
      provider: m.provider,
      tier: "mid",
      reason: expect.stringContaining("Signals: code ("),
      signals_detected: Object.fromEntries(SIGNALS.map((s) => [s, s === "code"])),
      signal_scores: expect.any(Object),
      difficulty: "standard",
      difficulty_scores: { standard: expect.any(Number), strong: expect.any(Number) },
    });
    // The scores explain the decision: code over the firing point, the difficulty that set the mid tier.
    expect(Object.keys(svc.routing.signal_scores).sort()).toEqual([...SIGNALS].sort());
    expect(svc.routing.signal_scores.code).toBeGreaterThanOrEqual(0.5);
    expect(svc.routing.difficulty_scores.standard).toBeGreaterThanOrEqual(0.5);
    expect(svc.routing.difficulty_scores.strong).toBeLessThan(0.5);
    expect(svc.routing.reason).toContain(`Difficulty: standard (standard ${svc.routing.difficulty_scores.standard.toFixed(2)}`);
    expect(svc.candidates[0]).toBe("glm-4.7");
    expect(svc.candidates.length).toBeGreaterThan(1);
    const promptTokens = Math.ceil(CODE.length / 4);
    expect(svc.estimated_cost).toEqual({
      prompt_tokens: promptTokens,
      max_completion_tokens: 1000,
      ...costUsd(m, promptTokens, 1000),
      estimated: true,
    });
    expect(svc.estimated_cost.total_usd).toBeCloseTo(svc.estimated_cost.input_usd + svc.estimated_cost.output_usd, 12);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("applies model pins, max_tokens and an inline brain_config", async () => {
    const { key } = await newKey("pro");
    const pinned = await call("/v1/route", { key, json: body({ model: "claude-sonnet-4-6", max_tokens: 50 }) });
    expect(pinned.json.model).toBe("claude-sonnet-4-6");
    expect(pinned.json.svc.routing.mode).toBe("direct");
    expect(pinned.json.svc.estimated_cost.max_completion_tokens).toBe(50);

    const configured = await call("/v1/route", {
      key,
      json: body({ brain_config: { blocked: ["openrouter"], fallback: ["claude-haiku-4-5"] } }),
    });
    expect(configured.status).toBe(200);
    expect(configured.json.model).toBe("gpt-5-mini");
    expect(configured.json.svc.candidates[1]).toBe("claude-haiku-4-5");
    expect(configured.json.svc.candidates).not.toContain("glm-4.7");
  });

  it("keeps a Free key on the Free models and says why", async () => {
    const { key } = await newKey("free");
    const res = await call("/v1/route", { key, json: body({ model: "gpt-5.2" }) });
    expect(res.status).toBe(200);
    expect(FREE_MODEL_IDS).toContain(res.json.model);
    expect(res.json.svc.candidates.every((id: string) => FREE_MODEL_IDS.includes(id))).toBe(true);
    expect(res.json.svc.routing.reason).toContain("not available on your plan");
  });

  it("accepts the extra fields an OpenAI client sends, and max_completion_tokens", async () => {
    const { key } = await newKey("pro");
    const res = await call("/v1/route", {
      key,
      json: body({
        stream: true,
        stream_options: { include_usage: true },
        n: 1,
        user: "u-1",
        top_p: 0.9,
        presence_penalty: 0,
        tools: [],
        max_completion_tokens: 77,
        messages: [{ role: "user", content: CODE, name: "ana" }],
        brain_config: null,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.json.svc.estimated_cost.max_completion_tokens).toBe(77);
  });

  it("needs a key", async () => {
    const res = await call("/v1/route", { json: body() });
    expect(res.status).toBe(401);
    expect(res.json.detail.error).toBe("invalid_api_key");
  });

  const BAD: Array<[string, unknown, string]> = [
    ["no messages", {}, "messages"],
    ["empty messages", { messages: [] }, "messages"],
    ["a bad role", { messages: [{ role: "wizard", content: "x" }] }, "messages.0.role"],
    ["non-string content", { messages: [{ role: "user", content: 42 }] }, "messages.0.content"],
    ["an unknown content part", { messages: [{ role: "user", content: [{ type: "input_audio" }] }] }, "messages.0.content"],
    ["a tool message without tool_call_id", { messages: [{ role: "tool", content: "x" }] }, "messages.0.tool_call_id"],
    ["null content", { messages: [{ role: "assistant", content: null }] }, "messages.0.content"],
    ["temperature 3", body({ temperature: 3 }), "temperature"],
    ["negative temperature", body({ temperature: -0.1 }), "temperature"],
    ["max_tokens 0", body({ max_tokens: 0 }), "max_tokens"],
    ["fractional max_tokens", body({ max_tokens: 1.5 }), "max_tokens"],
    ["an unknown routing_mode", body({ routing_mode: "turbo" }), "routing_mode"],
    ["routing_mode direct", body({ routing_mode: "direct" }), "routing_mode"],
    ["a non-string model", body({ model: 5 }), "model"],
    ["a non-boolean stream", body({ stream: "yes" }), "stream"],
    ["a brain_config.blocked entry that is not a string", body({ brain_config: { blocked: [42] } }), "brain_config.blocked.0"],
    ["an unknown brain_config key", body({ brain_config: { max_cst: 1 } }), "brain_config.max_cst"],
    ["a brain_config rule without a choice", body({ brain_config: { rules: [{ when: { signal: "code" } }] } }), "brain_config.rules.0"],
    ["a brain_config that is not an object", body({ brain_config: "model: auto" }), "brain_config"],
  ];

  it.each(BAD)("400 invalid_request on %s", async (_, json, path) => {
    const { key } = await newKey("pro");
    const res = await call("/v1/route", { key, json });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_request");
    expect(res.json.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it("400 on a body that is not JSON", async () => {
    const { key } = await newKey("pro");
    const res = await call("/v1/route", { key, body: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_request");
  });
});

describe("chatRequestSchema", () => {
  it("fills the SPEC.md 4.1 defaults, reads the OpenAI parameters into options, and keeps unknown fields", () => {
    const parsed = chatRequestSchema.parse({ messages: [{ role: "user", content: "hi" }], user: "u-1", n: 1, logprobs: true });
    expect(parsed).toEqual({
      messages: [{ role: "user", content: "hi" }],
      options: { user: "u-1" },
      include_usage: false,
      model: "auto",
      max_tokens: 1000,
      temperature: 0.7,
      stream: false,
      brain_config: undefined,
      user: "u-1",
      n: 1,
      logprobs: true,
    });
  });

  it("gives the normalised brain_config to the router", () => {
    const parsed = chatRequestSchema.parse({ messages: [{ role: "user", content: "hi" }], brain_config: { max_cost: 0.5, blocked: ["openai/gpt-oss-120b"] } });
    expect(parsed.brain_config).toEqual({ max_cost_per_request: 0.5, blocked: ["gpt-oss-120b"] });
  });

  it("prefers max_tokens over max_completion_tokens", () => {
    const parsed = chatRequestSchema.parse({ messages: [{ role: "user", content: "hi" }], max_tokens: 10, max_completion_tokens: 20 });
    expect(parsed.max_tokens).toBe(10);
    expect("max_completion_tokens" in parsed).toBe(false);
  });
});
