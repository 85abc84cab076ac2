import { beforeAll, describe, expect, it } from "vitest";
import { FREE_MODEL_IDS, findModel } from "../../src/catalog/models";
import { UNKNOWN_IMAGE_TOKENS } from "../../src/cost/image-tokens";
import { call, newKey } from "../helpers";
import { dataUrl, pngHeader } from "./image-headers";

/**
 * POST /v1/route applies what chat applies (src/routing/request-route.ts): the capability
 * predicates (tools, vision, json_schema, n), n completions in the worst case and the images in the
 * prompt estimate, so it never previews a model chat would refuse.
 */

let key: string;
let free: string;
beforeAll(async () => {
  key = (await newKey("pro")).key;
  free = (await newKey("free")).key;
});

const WEATHER = { type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: { type: "object", properties: { city: { type: "string" } } } } };
const PERSON = { type: "json_schema", json_schema: { name: "person", schema: { type: "object", properties: { name: { type: "string" } } } } };
const IMAGE = (url: string) => [{ role: "user", content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url } }] }];
const ASK = [{ role: "user", content: "Hello there, how are you?" }];

const preview = (json: Record<string, unknown>, k = key) => call("/v1/route", { key: k, json });
const chat = (json: Record<string, unknown>, k = key) => call("/v1/chat/completions", { key: k, json });

describe("POST /v1/route with the capability predicates", () => {
  const CASES: Array<[string, Record<string, unknown>, string, string]> = [
    ["tools", { messages: [{ role: "user", content: "What is the weather in Paris?" }], tools: [WEATHER] }, "tools", "key"],
    ["an image", { messages: IMAGE("https://example.com/cat.png") }, "vision", "free"],
    ["json_schema", { messages: ASK, response_format: PERSON }, "json_schema", "free"],
    ["n: 2", { messages: ASK, n: 2 }, "n", "key"],
  ];
  it.each(CASES)("%s: previews only models that have it, and the model chat then serves", async (_what, body, capability, which) => {
    const k = which === "free" ? free : key;
    const r = await preview(body, k);
    expect(r.status).toBe(200);
    for (const id of r.json.svc.candidates) expect(findModel(id)!.capabilities, id).toContain(capability);
    if (which === "free") expect(FREE_MODEL_IDS).toContain(r.json.model);
    const served = await chat(body, k);
    expect(served.status).toBe(200);
    expect(served.json.model).toBe(r.json.model);
  });

  it("a pinned model without the capability is the 400 chat gives, not a preview", async () => {
    for (const body of [{ model: "claude-haiku-4-5", messages: ASK, n: 2 }, { model: "deepseek-chat", messages: ASK, response_format: PERSON }, { model: "gpt-5-nano", messages: IMAGE("https://example.com/cat.png") }]) {
      const r = await preview(body);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ error: "invalid_request", message: expect.stringContaining(`${body.model} does not support`) });
      expect((await chat(body)).json.error.message).toBe(r.json.message);
    }
  });

  it("prices n completions in the worst case", async () => {
    const one = (await preview({ model: "gpt-5-mini", messages: ASK, max_tokens: 400 })).json.svc.estimated_cost;
    const three = (await preview({ model: "gpt-5-mini", messages: ASK, max_tokens: 400, n: 3 })).json.svc.estimated_cost;
    expect(three.max_completion_tokens).toBe(1200);
    expect(three.prompt_tokens).toBe(one.prompt_tokens);
    expect(three.output_usd).toBeCloseTo(one.output_usd * 3, 12);
  });

  it("counts images in the prompt estimate: by size for a data: URL, UNKNOWN_IMAGE_TOKENS for a URL", async () => {
    const text = (await preview({ model: "gpt-5-mini", messages: [{ role: "user", content: "What is in this picture?" }] })).json.svc.estimated_cost.prompt_tokens;
    const remote = (await preview({ model: "gpt-5-mini", messages: IMAGE("https://example.com/cat.png") })).json.svc.estimated_cost.prompt_tokens;
    expect(remote - text).toBe(UNKNOWN_IMAGE_TOKENS);
    const small = (await preview({ model: "gpt-5-mini", messages: IMAGE(dataUrl("image/png", pngHeader(512, 512))) })).json.svc.estimated_cost.prompt_tokens;
    expect(small - text).toBe(1120);
  });
});
