import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { beforeAll, describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, findModel } from "../../src/catalog/models";
import { exports } from "cloudflare:workers";
import { BASE, call, eventually, newKey } from "../helpers";
import { sseEvents } from "../chat/sse-parse";

/**
 * OpenAI's `n` (docs/compatibility.md): several choices where the provider can answer them (the
 * OpenAI protocol passes n through, Gemini takes candidateCount), through the sandbox upstream of
 * each protocol; a clear 400 where it cannot (Anthropic); routing keeps `auto` on models that can.
 */

let key: string;
beforeAll(async () => {
  key = (await newKey("pro")).key;
});

const chat = (body: Record<string, unknown>, k = key) => call("/v1/chat/completions", { key: k, json: body });
const ASK = [{ role: "user", content: "Why is the sky blue?" }];
const sha = (s: string) => `sha256:${bytesToHex(sha256(utf8ToBytes(s)))}`;
/** The sandbox counts about 4 characters a token, per choice. */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

describe("n above 1", () => {
  for (const model of ["gpt-5-mini", "gemini-2.5-flash"]) {
    it(`${model}: n choices, each with its index, usage the sum the provider reports`, async () => {
      const r = await chat({ model, messages: ASK, n: 3, max_tokens: 300 });
      expect(r.status).toBe(200);
      const choices = r.json.choices as Array<{ index: number; message: { role: string; content: string }; finish_reason: string }>;
      expect(choices.map((c) => c.index)).toEqual([0, 1, 2]);
      for (const c of choices) {
        expect(c.message.role).toBe("assistant");
        expect(c.message.content.length).toBeGreaterThan(0);
        expect(c.finish_reason).toBe("stop");
      }
      // Three samples, not one answer three times.
      expect(new Set(choices.map((c) => c.message.content)).size).toBe(3);
      const completion = choices.reduce((sum, c) => sum + tokensOf(c.message.content), 0);
      expect(r.json.usage.completion_tokens).toBe(completion);
      expect(r.json.usage.total_tokens).toBe(r.json.usage.prompt_tokens + completion);
    });
  }

  it("several choices of a tool call and of JSON output", async () => {
    const tools = [{ type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
    const r = await chat({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "What is the weather in Paris?" }], tools, n: 2 });
    expect(r.status).toBe(200);
    for (const c of r.json.choices) {
      expect(c.finish_reason).toBe("tool_calls");
      expect(JSON.parse(c.message.tool_calls[0].function.arguments)).toEqual({ city: "Paris" });
    }
    const schema = { type: "object", properties: { color: { type: "string" } }, required: ["color"], additionalProperties: false };
    const j = await chat({ model: "gpt-5-mini", messages: ASK, response_format: { type: "json_schema", json_schema: { name: "sky", schema, strict: true } }, n: 2 });
    expect(j.json.choices).toHaveLength(2);
    for (const c of j.json.choices) expect(Object.keys(JSON.parse(c.message.content))).toEqual(["color"]);
  });

  it("a pinned Anthropic model is a clear 400 naming what it lacks; nothing is called", async () => {
    const r = await chat({ model: "claude-haiku-4-5", messages: ASK, n: 2 });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("invalid_request");
    expect(r.json.error.message).toContain("claude-haiku-4-5 does not support several choices in one answer (n above 1)");
  });

  it("auto routes only to models that can answer several choices, Free keys included", async () => {
    for (const mode of ["quality", "balanced", "agility"]) {
      const r = await chat({ messages: [{ role: "user", content: "Prove that there are infinitely many primes, step by step." }], routing_mode: mode, n: 2 });
      expect(r.status, mode).toBe(200);
      expect(findModel(r.json.model)!.capabilities, mode).toContain("n");
      expect(r.json.choices).toHaveLength(2);
    }
    const { key: free } = await newKey("free");
    const r = await chat({ messages: ASK, n: 2 }, free);
    expect(r.status).toBe(200);
    expect(FREE_MODEL_IDS).toContain(r.json.model);
    expect(findModel(r.json.model)!.capabilities).toContain("n");
  });

  it("the receipt hashes every choice returned (docs/proofs.md)", async () => {
    const r = await chat({ model: "gpt-5-mini", messages: ASK, n: 2, max_tokens: 200, temperature: 0.3 });
    const b = r.json;
    expect(b.svc.proof.request_hash).toBe(sha(canonicalize({ messages: ASK, model: "gpt-5-mini", max_tokens: 200, temperature: 0.3, options: { n: 2 } })!));
    const choices = b.choices.map((c: { index: number; message: { content: string }; finish_reason: string }) => ({ index: c.index, content: c.message.content, finish_reason: c.finish_reason }));
    const first = b.choices[0];
    expect(b.svc.proof.response_hash).toBe(sha(canonicalize({ content: first.message.content, finish_reason: first.finish_reason, model: b.model, usage: b.usage, choices })!));
  });

  it("n: 1 answers and hashes as a request without n", async () => {
    const one = (await chat({ model: "gpt-5-mini", messages: ASK, n: 1, max_tokens: 50, temperature: 0.3 })).json;
    expect(one.choices).toHaveLength(1);
    expect(one.svc.proof.request_hash).toBe(sha(canonicalize({ messages: ASK, model: "gpt-5-mini", max_tokens: 50, temperature: 0.3 })!));
  });

  it("the cost guard prices n completions: a cap that admits one answer refuses n of them", async () => {
    // gpt-5-mini: 2.0 USD per million output tokens. 1000 completion tokens cost at most 0.002 USD;
    // three of them at most 0.006 USD (plus the short prompt): a 0.004 cap admits n 1 and excludes n 3.
    const cap = { max_cost_per_request: 0.004 };
    const one = await chat({ messages: ASK, brain_config: { model: "gpt-5-mini", ...cap }, max_tokens: 1000 });
    expect(one.json.model).toBe("gpt-5-mini");
    const three = await chat({ messages: ASK, brain_config: { model: "gpt-5-mini", ...cap }, max_tokens: 1000, n: 3 });
    expect(three.status).toBe(200);
    expect(three.json.model).not.toBe("gpt-5-mini");
    expect(three.json.svc.routing.reason).toContain("gpt-5-mini");
  });

  it("refuses n above 8, streamed or not", async () => {
    for (const stream of [false, true]) {
      const many = await chat({ model: "gpt-5-mini", messages: ASK, n: 9, stream });
      expect(many.status).toBe(400);
      expect(many.json.error.param).toBe("n");
    }
  });
});

interface Chunk {
  choices: Array<{ index: number; delta: { role?: string; content?: string | null; tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments: string } }> }; finish_reason: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  svc?: { proof: { response_hash: string }; routing: { model: string } };
  model: string;
}

/** A streamed answer put back together per choice index, as an OpenAI client does. */
function assemble(text: string) {
  const events = sseEvents(text);
  expect(events.at(-1)).toBe("[DONE]");
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as Chunk);
  const byIndex = new Map<number, { content: string; finish: string[]; calls: Array<{ id: string; name: string; arguments: string }> }>();
  for (const c of chunks) {
    for (const ch of c.choices) {
      const one = byIndex.get(ch.index) ?? { content: "", finish: [], calls: [] };
      byIndex.set(ch.index, one);
      one.content += ch.delta.content ?? "";
      for (const t of ch.delta.tool_calls ?? []) {
        const call = (one.calls[t.index] ??= { id: "", name: "", arguments: "" });
        if (t.id) call.id = t.id;
        call.name += t.function.name ?? "";
        call.arguments += t.function.arguments;
      }
      if (ch.finish_reason) one.finish.push(ch.finish_reason);
    }
  }
  const indexes = [...byIndex.keys()].sort((a, b) => a - b);
  return { chunks, indexes, choices: indexes.map((i) => byIndex.get(i)!) };
}

describe("n above 1, streamed", () => {
  for (const model of ["gpt-5-mini", "gemini-2.5-flash"]) {
    it(`${model}: n choices in OpenAI's chunk format, each with its index and its own finish chunk; svc on the last chunk with choices`, async () => {
      const r = await chat({ model, messages: ASK, n: 3, max_tokens: 300, stream: true });
      expect(r.status).toBe(200);
      const { chunks, indexes, choices } = assemble(r.text);
      expect(indexes).toEqual([0, 1, 2]);
      for (const c of choices) {
        expect(c.content.length).toBeGreaterThan(0);
        expect(c.finish).toEqual(["stop"]);
      }
      expect(new Set(choices.map((c) => c.content)).size).toBe(3);
      // No usage chunk unless asked: every chunk has choices, and only the last carries svc.
      expect(chunks.every((c) => c.choices.length === 1)).toBe(true);
      expect(chunks.filter((c) => c.svc)).toHaveLength(1);
      expect(chunks.at(-1)!.svc!.routing.model).toBe(model);
      expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    });

    it(`${model}: with include_usage, the usage chunk (choices: []) carries usage summed over the choices, and svc`, async () => {
      const r = await chat({ model, messages: ASK, n: 2, max_tokens: 300, stream: true, stream_options: { include_usage: true } });
      const { chunks, choices } = assemble(r.text);
      expect(choices).toHaveLength(2);
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect(last.svc).toBeDefined();
      expect(chunks.filter((c) => c.svc)).toHaveLength(1);
      const completion = choices.reduce((sum, c) => sum + tokensOf(c.content), 0);
      expect(last.usage!.completion_tokens).toBe(completion);
    });

    it(`${model}: several streamed choices of a tool call`, async () => {
      const tools = [{ type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
      const r = await chat({ model, messages: [{ role: "user", content: "What is the weather in Paris?" }], tools, n: 2, stream: true });
      expect(r.status).toBe(200);
      const { choices } = assemble(r.text);
      expect(choices).toHaveLength(2);
      for (const c of choices) {
        expect(c.finish).toEqual(["tool_calls"]);
        expect(c.calls).toHaveLength(1);
        expect(c.calls[0]!.name).toBe("get_weather");
        expect(JSON.parse(c.calls[0]!.arguments)).toEqual({ city: "Paris" });
      }
    });

    it(`${model}: the receipt hashes every streamed choice exactly as a non-streamed n answer`, async () => {
      const r = await chat({ model, messages: ASK, n: 2, max_tokens: 200, temperature: 0.3, stream: true, stream_options: { include_usage: true } });
      const { chunks, choices } = assemble(r.text);
      const last = chunks.at(-1)!;
      const hashed = choices.map((c, index) => ({ index, content: c.content, finish_reason: c.finish[0] }));
      expect(last.svc!.proof.response_hash).toBe(sha(canonicalize({ content: choices[0]!.content, finish_reason: choices[0]!.finish[0], model: last.model, usage: last.usage, choices: hashed })!));
    });
  }

  it("a pinned Anthropic model is still a clear 400 when streamed", async () => {
    const r = await chat({ model: "claude-haiku-4-5", messages: ASK, n: 2, stream: true });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain("does not support several choices");
  });

  it("a streamed n answer the client abandons is recorded and proven, every choice incomplete", async () => {
    const res = await exports.default.fetch(
      new Request(`${BASE}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-sandbox-fault": "openai=drip:30" },
        body: JSON.stringify({ model: "gpt-5-nano", stream: true, n: 2, messages: [{ role: "user", content: "Explain how a hash chain makes tampering evident, in detail." }], max_tokens: 400 }),
      }),
    );
    const requestId = res.headers.get("x-request-id")!;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"index":1,"delta":{"content":"')) seen += decoder.decode((await reader.read()).value);
    await reader.cancel();
    const proof = await eventually(async () => {
      const p = await call(`/v1/proof/${requestId}`);
      return p.status === 200 ? p.json : undefined;
    });
    expect(proof.valid).toBe(true);
    // Estimated from the text of both choices streamed so far.
    expect(proof.receipt.usage.completion_tokens).toBeGreaterThan(0);
  });
});
