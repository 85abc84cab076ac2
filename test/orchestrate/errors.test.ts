import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { MODELS, PROVIDERS } from "../../src/catalog/models";
import { estimatePromptTokens } from "../../src/cost/tokens";
import { POLICY } from "../../src/orchestrate/policy";
import { call, flushRecords, newKey } from "../helpers";
import { ask, orchestrateCall } from "./helpers";

const everyProvider = (fault: string) => PROVIDERS.map((p) => `${p}=${fault}`).join(",");

describe("POST /v2/orchestrate: errors (SPEC.md section 7)", () => {
  it("needs a key", async () => {
    const r = await call("/v2/orchestrate", { json: { messages: ask("hi") } });
    expect(r.status).toBe(401);
    expect(r.json.detail.error).toBe("invalid_api_key");
  });

  it("400 no_messages for empty or missing messages", async () => {
    const { key } = await newKey();
    for (const body of [{ messages: [] }, {}]) {
      const r = await orchestrateCall(key, body);
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("no_messages");
    }
  });

  it("400 invalid_request for a bad field, with the issues", async () => {
    const { key } = await newKey();
    for (const body of [
      { messages: ask("hi"), strategy: "vote" },
      { messages: ask("hi"), policy: "fast" },
      { messages: ask("hi"), k: 0 },
      { messages: ask("hi"), k: 9 },
      { messages: ask("hi"), max_cost_usd: -1 },
      { messages: [{ role: "robot", content: "x" }] },
      { messages: "hi" },
    ]) {
      const r = await orchestrateCall(key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toBe("invalid_request");
      expect(r.json.issues.length).toBeGreaterThan(0);
    }
    const notJson = await call("/v2/orchestrate", { key, body: "{", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
  });

  it("502 all_models_failed when every call fails, for every strategy, with no stack", async () => {
    const { key } = await newKey();
    for (const strategy of ["single", "cascade", "ensemble_moa", "rank_fuse", "decompose_and_route", "self_consistency", "debate"]) {
      const r = await orchestrateCall(key, { messages: ask("Why is the sky blue?"), strategy }, { "x-sandbox-fault": everyProvider("503") });
      expect(r.status, strategy).toBe(502);
      expect(r.json.error).toBe("all_models_failed");
      expect(r.text).not.toMatch(/at \w+ \(|\.ts:\d+/);
    }
  });

  it("400 invalid_request on max_tokens, before any call, when a later stage's prompt cannot fit beside it in any model", async () => {
    // The caller's own prompt fits the largest context exactly; the grader, aggregator, fuser,
    // synthesizer or debate prompt, which wraps the question, cannot.
    const { key, record } = await newKey();
    const messages = ask("Why is the sky blue?");
    const largest = Math.max(...MODELS.map((m) => m.context_tokens));
    const maxTokens = largest - estimatePromptTokens(messages);
    const stages = { cascade: "the grader", ensemble_moa: "the aggregator", rank_fuse: "the fuser", debate: "a debate round", decompose_and_route: "the synthesizer" };
    for (const [strategy, stage] of Object.entries(stages)) {
      const r = await orchestrateCall(key, { messages, strategy, max_tokens: maxTokens });
      expect(r.status, strategy).toBe(400);
      expect(r.json).toMatchObject({ error: "invalid_request", issues: [{ path: "max_tokens" }] });
      expect(r.json.message, strategy).toContain(`tokens of ${stage}'s prompt`);
    }
    await flushRecords();
    const used = await env.DB.prepare("SELECT count(*) AS n FROM usage_events WHERE key_id = ?").bind(record.id).first<{ n: number }>();
    expect(used!.n).toBe(0);
    // One more token and the caller's own prompt does not fit either; without later stages it runs.
    expect((await orchestrateCall(key, { messages, strategy: "single", max_tokens: maxTokens + 1 })).json.message).toContain("prompt tokens exceeds");
    expect((await orchestrateCall(key, { messages, strategy: "single", max_tokens: maxTokens })).status).toBe(200);
  });

  it("400 invalid_request on max_tokens when no model of the cascade's ladder can hold it, though a model of another tier could", async () => {
    const { key } = await newKey();
    const messages = ask("Why is the sky blue?");
    const prompt = estimatePromptTokens(messages);
    const largest = Math.max(...MODELS.map((m) => m.context_tokens));
    let checked = 0;
    for (const [policy, { ladder }] of Object.entries(POLICY)) {
      const onLadder = Math.max(...MODELS.filter((m) => ladder.includes(m.tier)).map((m) => m.context_tokens));
      if (onLadder >= largest) continue;
      const r = await orchestrateCall(key, { messages, policy, strategy: "cascade", max_tokens: onLadder - prompt + 1 });
      expect(r.status, policy).toBe(400);
      expect(r.json).toMatchObject({ error: "invalid_request", issues: [{ path: "max_tokens", message: `at most ${onLadder - prompt}` }] });
      expect(r.json.message).toContain(`among the ${ladder.join(", ")} models (${onLadder} tokens)`);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("503 no_provider_available when no model may serve (brain_config blocks every provider)", async () => {
    const { key } = await newKey();
    const r = await orchestrateCall(key, { messages: ask("Why is the sky blue?"), strategy: "ensemble_moa", brain_config: { blocked: [...PROVIDERS] } });
    expect(r.status).toBe(503);
    expect(r.json.error).toBe("no_provider_available");
  });
});
