import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { FREE_MODEL_IDS, findModel } from "../../src/catalog/models";
import { SIGNALS } from "../../src/routing/types";
import { call, newKey } from "../helpers";
import { sseEvents } from "./sse-parse";

let key: string;
beforeAll(async () => {
  key = (await newKey("pro")).key;
});

const ask = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call("/v1/chat/completions", { key, json: { messages: [{ role: "user", content: "What is the capital of France?" }], ...body }, headers });

describe("POST /v1/chat/completions", () => {
  it("answers every field of SPEC.md 2.1", async () => {
    const r = await ask({});
    expect(r.status).toBe(200);
    const b = r.json;
    expect(b.id).toMatch(/^svc-/);
    expect(b.object).toBe("chat.completion");
    expect(Number.isInteger(b.created)).toBe(true);
    expect(findModel(b.model)?.id).toBe(b.model);
    expect(b.choices).toEqual([{ index: 0, message: { role: "assistant", content: expect.any(String) }, finish_reason: expect.any(String) }]);
    expect(b.choices[0].message.content.length).toBeGreaterThan(0);
    const u = b.usage;
    expect([u.prompt_tokens, u.completion_tokens, u.total_tokens].every(Number.isInteger)).toBe(true);
    expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);

    const svc = b.svc;
    const model = findModel(b.model)!;
    expect(["quality", "balanced", "agility"]).toContain(svc.routing.mode);
    expect(svc.routing).toMatchObject({ model_display: model.display_name, provider: model.provider, tier: model.tier, reason: expect.any(String) });
    expect(Object.keys(svc.routing.signals_detected).sort()).toEqual([...SIGNALS].sort());
    expect(Object.values(svc.routing.signals_detected).every((v) => typeof v === "boolean")).toBe(true);
    const expectedIn = (u.prompt_tokens * model.input_usd_per_mtok) / 1e6;
    const expectedOut = (u.completion_tokens * model.output_usd_per_mtok) / 1e6;
    expect(svc.cost.input_usd).toBeCloseTo(expectedIn, 12);
    expect(svc.cost.output_usd).toBeCloseTo(expectedOut, 12);
    expect(svc.cost.total_usd).toBeCloseTo(expectedIn + expectedOut, 12);
    expect(Number.isInteger(svc.latency_ms)).toBe(true);
    expect(svc.proof).toMatchObject({
      request_id: expect.any(String), timestamp: expect.stringMatching(/Z$/), proof_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      model: b.model, provider: model.provider, mode: svc.routing.mode, reason: expect.stringMatching(/^Decided by /), verifiable: true,
    });
    expect(b.id).toBe(`svc-${svc.proof.request_id}`);
    expect(svc.fallback).toBe(false);
    expect(svc.fallback_from).toBeNull();
    expect(svc.fallback_to).toBeNull();
    expect(svc.sandbox).toBe(true);
    expect(Number(r.headers.get("x-svc-overhead-us"))).toBeGreaterThanOrEqual(0);
    expect(r.headers.get("x-request-id")).toBe(svc.proof.request_id);
  });

  it("routes a pinned catalog id directly", async () => {
    const r = await ask({ model: "claude-haiku-4-5" });
    expect(r.json.model).toBe("claude-haiku-4-5");
    expect(r.json.svc.routing.mode).toBe("direct");
    expect(r.json.svc.routing.provider).toBe("anthropic");
  });

  it("serves each wire protocol through the sandbox (OpenAI, Anthropic, Gemini)", async () => {
    for (const model of ["gpt-5-mini", "claude-sonnet-4-6", "gemini-2.5-flash"]) {
      const r = await ask({ model, max_tokens: 50 });
      expect(r.status, model).toBe(200);
      expect(r.json.model).toBe(model);
      expect(r.json.usage.completion_tokens).toBeLessThanOrEqual(50);
    }
  });

  it("keeps a Free key on the three cheapest budget models", async () => {
    const free = (await newKey("free")).key;
    for (const model of ["claude-opus-4-6", "auto", "gpt-5.2"]) {
      const r = await call("/v1/chat/completions", { key: free, json: { model, messages: [{ role: "user", content: "Prove that sqrt(2) is irrational, step by step." }] } });
      expect(r.status).toBe(200);
      expect(FREE_MODEL_IDS).toContain(r.json.model);
    }
  });

  it("retries a 429 on the same model without falling back", async () => {
    const r = await ask({ model: "gpt-5-mini" }, { "x-sandbox-fault": "gpt-5-mini=429*1" });
    expect(r.status).toBe(200);
    expect(r.json.model).toBe("gpt-5-mini");
    expect(r.json.svc.fallback).toBe(false);
  });

  it("falls back when the first model answers 503 and says so", async () => {
    const r = await ask({ model: "gpt-5-mini" }, { "x-sandbox-fault": "gpt-5-mini=503" });
    expect(r.status).toBe(200);
    expect(r.json.model).not.toBe("gpt-5-mini");
    expect(r.json.svc).toMatchObject({ fallback: true, fallback_from: "gpt-5-mini", fallback_to: r.json.model });
    expect(r.json.svc.proof.model).toBe(r.json.model);
  });

  it("falls back across a whole provider outage", async () => {
    const r = await ask({ model: "gpt-5-mini" }, { "x-sandbox-fault": "openai=503" });
    expect(r.status).toBe(200);
    expect(r.json.svc.routing.provider).not.toBe("openai");
    expect(r.json.svc.fallback_from).toBe("gpt-5-mini");
  });

  it("applies inline brain_config rules and blocks", async () => {
    const ruled = await ask({
      messages: [{ role: "user", content: "Extract the invoice number from: INV-2231 due 2026-12-01" }],
      brain_config: { rules: [{ when: { contains: "invoice" }, model: "mistral-medium-2508" }] },
    });
    expect(ruled.json.model).toBe("mistral-medium-2508");
    const blocked = await ask({ model: "auto", brain_config: { blocked: ["openai", "google", "openrouter"] } });
    expect(["openai", "google", "openrouter"]).not.toContain(blocked.json.svc.routing.provider);
  });

  it("refuses bad input with 400 in OpenAI's error object, our message and the zod issues inside", async () => {
    const bad: Array<Record<string, unknown>> = [
      { messages: [] },
      { messages: [{ role: "wizard", content: "hi" }] },
      { messages: [{ role: "user", content: 42 }] },
      { messages: [{ role: "user", content: "hi" }], temperature: 3 },
      { messages: [{ role: "user", content: "hi" }], max_tokens: 0 },
      { messages: [{ role: "user", content: "hi" }], routing_mode: "fastest" },
    ];
    for (const body of bad) {
      const r = await call("/v1/chat/completions", { key, json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error).toMatchObject({ type: "invalid_request_error", code: "invalid_request", message: expect.stringContaining("Invalid request body") });
      expect(r.json.error.issues.length).toBeGreaterThan(0);
      expect(r.json.error.param).toBe(r.json.error.issues[0].path);
    }
  });

  it("answers 503 no_provider_available with the sandbox off and no provider keys", async () => {
    const res = await app.request(
      "/v1/chat/completions",
      { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }) },
      { ...env, SANDBOX_UPSTREAM: "off" },
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: "no_provider_available", type: "server_error" } });
  });
});

describe("streaming", () => {
  it("answers SSE chunks, svc on the finish chunk, and no usage chunk unless stream_options.include_usage asks for it", async () => {
    const r = await ask({ model: "gpt-5-mini", stream: true });
    const chunks = sseEvents(r.text).slice(0, -1).map((e) => JSON.parse(e));
    for (const ch of chunks) expect(ch.choices).toHaveLength(1);
    const finish = chunks.at(-1);
    expect(finish.choices[0].finish_reason).toBe("stop");
    expect(finish).not.toHaveProperty("usage");
    expect(finish.svc.routing.model).toBe("gpt-5-mini");
    expect(chunks.slice(0, -1).every((ch) => !("svc" in ch))).toBe(true);
  });

  it("answers SSE chunks ending with usage and svc before [DONE] with stream_options.include_usage", async () => {
    const r = await ask({ model: "gpt-5-mini", stream: true, stream_options: { include_usage: true } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = sseEvents(r.text);
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    for (const ch of chunks) expect(ch).toMatchObject({ id: chunks[0].id, object: "chat.completion.chunk", model: "gpt-5-mini" });
    const content = chunks.map((ch) => ch.choices[0]?.delta?.content ?? "").join("");
    expect(content.length).toBeGreaterThan(0);
    expect(chunks.filter((ch) => ch.choices[0]?.delta?.content).length).toBeGreaterThan(1);
    const finish = chunks.at(-2);
    expect(finish.choices[0].finish_reason).toEqual(expect.any(String));
    const last = chunks.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage.total_tokens).toBe(last.usage.prompt_tokens + last.usage.completion_tokens);
    expect(last.svc.routing.mode).toBe("direct");
    expect(last.svc.proof.proof_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  for (const model of ["claude-haiku-4-5", "gemini-2.5-flash"]) {
    it(`streams from ${model} through its own protocol`, async () => {
      const r = await ask({ model, stream: true });
      const events = sseEvents(r.text);
      expect(events.at(-1)).toBe("[DONE]");
      expect(JSON.parse(events.at(-2)!).svc.routing.model).toBe(model);
    });
  }

  it("falls back when the stream is cut before the first chunk", async () => {
    const r = await ask({ model: "gpt-5-mini", stream: true }, { "x-sandbox-fault": "gpt-5-mini=cut0" });
    const events = sseEvents(r.text);
    expect(events.at(-1)).toBe("[DONE]");
    const last = JSON.parse(events.at(-2)!);
    expect(last.svc).toMatchObject({ fallback: true, fallback_from: "gpt-5-mini" });
    expect(last.model).not.toBe("gpt-5-mini");
  });

  it("ends with an OpenAI error event, not a silent cut, when the stream fails after it began", async () => {
    const r = await ask({ model: "gpt-5-mini", stream: true }, { "x-sandbox-fault": "gpt-5-mini=cut" });
    const events = sseEvents(r.text);
    expect(events).not.toContain("[DONE]");
    const last = JSON.parse(events.at(-1)!);
    expect(last.error).toMatchObject({ message: expect.stringContaining("gpt-5-mini"), type: "upstream_error" });
    expect(events.length).toBeGreaterThan(1);
  });

  it("answers a JSON error, not a stream, when every model fails before the first chunk", async () => {
    const r = await ask({ model: "gpt-5-mini", stream: true, brain_config: { fallback: [] } }, { "x-sandbox-fault": "gpt-5-mini=500,openai=500,anthropic=500,google=500,mistral=500,groq=500,deepseek=500,xai=500,together=500,fireworks=500,perplexity=500,cohere=500,openrouter=500" });
    expect(r.status).toBe(502);
    expect(r.json.error).toMatchObject({ code: "upstream_error", type: "server_error" });
  });
});

describe("stream chunk encoding", () => {
  it("the per-stream content encoder writes exactly what the generic chunk writer writes", async () => {
    const { chunk, contentChunkEncoder, sseData } = await import("../../src/calls/openai-sse");
    const enc = contentChunkEncoder("svc-1", 1700000000, "gpt-5-mini");
    for (const content of ["", "plain", 'quote " and \\ backslash', "line\nbreak\u2028", "emoji 🙂 and ünïcode", "<script>"]) {
      expect(enc(content)).toBe(sseData(chunk("svc-1", 1700000000, "gpt-5-mini", { content }, null)));
    }
  });
});
