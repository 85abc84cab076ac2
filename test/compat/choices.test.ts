import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import canonicalize from "canonicalize";
import { beforeAll, describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, findModel } from "../../src/catalog/models";
import { call, newKey } from "../helpers";

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

  it("refuses n above 8 and, for now, n above 1 on a stream", async () => {
    const many = await chat({ model: "gpt-5-mini", messages: ASK, n: 9 });
    expect(many.status).toBe(400);
    expect(many.json.error.param).toBe("n");
    const streamed = await chat({ model: "gpt-5-mini", messages: ASK, n: 2, stream: true });
    expect(streamed.status).toBe(400);
    expect(streamed.json.error).toMatchObject({ param: "n", message: expect.stringContaining("stream") });
  });
});
