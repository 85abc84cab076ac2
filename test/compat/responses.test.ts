import { beforeAll, describe, expect, it } from "vitest";
import { call, newKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await newKey("pro")).key;
});

const create = (body: Record<string, unknown>) => call("/v1/responses", { key, json: body });
const TOOL = { type: "function", name: "get_weather", description: "Get the current weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const ASK = "What is the weather in Paris today?";

/** The SSE events of a Responses stream: `event:` name and parsed data. */
function events(text: string) {
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      const lines = block.split("\n");
      return { event: lines.find((l) => l.startsWith("event: "))!.slice(7), data: JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6)) };
    });
}

describe("POST /v1/responses", () => {
  it("answers a Response object with output_text, usage and svc, and a verifiable receipt", async () => {
    const r = await create({ model: "claude-haiku-4-5", input: "What is the capital of France?", instructions: "Be brief." });
    expect(r.status).toBe(200);
    const b = r.json;
    expect(b).toMatchObject({ object: "response", status: "completed", model: "claude-haiku-4-5", store: false, previous_response_id: null, instructions: "Be brief." });
    expect(b.id).toMatch(/^resp_/);
    expect(b.output).toEqual([{ type: "message", id: expect.any(String), status: "completed", role: "assistant", content: [{ type: "output_text", text: b.output_text, annotations: [] }] }]);
    expect(b.output_text).toContain("What is the capital of France?");
    expect(b.usage.total_tokens).toBe(b.usage.input_tokens + b.usage.output_tokens);
    expect(b.svc.routing.mode).toBe("direct");
    expect(b.svc.proof.proof_hash).toMatch(/^sha256:/);
  });

  for (const model of ["gpt-5-mini", "claude-haiku-4-5", "gemini-2.5-flash"]) {
    it(`returns a function_call item through ${model}, and takes its output back`, async () => {
      const r = await create({ model, input: [{ role: "user", content: ASK }], tools: [TOOL] });
      const call = r.json.output.find((o: { type: string }) => o.type === "function_call");
      expect(call).toMatchObject({ type: "function_call", name: "get_weather", status: "completed" });
      expect(JSON.parse(call.arguments)).toEqual({ city: "Paris" });
      const next = await create({
        model,
        tools: [TOOL],
        input: [{ role: "user", content: ASK }, { type: "function_call", call_id: call.call_id, name: "get_weather", arguments: call.arguments }, { type: "function_call_output", call_id: call.call_id, output: '{"temperature":21}' }],
      });
      expect(next.json.output_text).toContain("get_weather returned");
    });
  }

  it("streams the Responses events, text and svc on response.completed", async () => {
    const r = await create({ model: "gemini-2.5-flash", input: "Count from one to five.", stream: true });
    expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const evs = events(r.text);
    const names = evs.map((e) => e.event);
    expect(names.slice(0, 4)).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"]);
    expect(names.slice(-4)).toEqual(["response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"]);
    expect(evs.every((e) => e.event === e.data.type)).toBe(true);
    expect(evs.map((e) => e.data.sequence_number)).toEqual(evs.map((_, i) => i));
    const text = evs.filter((e) => e.event === "response.output_text.delta").map((e) => e.data.delta).join("");
    const done = evs.at(-1)!.data.response;
    expect(text).toBe(done.output_text);
    expect(done.svc.routing.model).toBe("gemini-2.5-flash");
  });

  it("streams a function call as function_call_arguments deltas", async () => {
    const r = await create({ model: "claude-haiku-4-5", input: ASK, tools: [TOOL], stream: true });
    const evs = events(r.text);
    const args = evs.filter((e) => e.event === "response.function_call_arguments.delta").map((e) => e.data.delta).join("");
    expect(JSON.parse(args)).toEqual({ city: "Paris" });
    expect(evs.find((e) => e.event === "response.output_item.added")!.data.item).toMatchObject({ type: "function_call", name: "get_weather" });
  });

  it("answers JSON for text.format json_schema", async () => {
    const r = await create({ model: "gpt-5-mini", input: "Extract: Ada is 36.", text: { format: { type: "json_schema", name: "person", strict: true, schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"] } } } });
    expect(JSON.parse(r.json.output_text)).toEqual({ name: "Ada", age: 36 });
  });

  it("is state-free: previous_response_id and item references are a clear 400 in OpenAI's error object", async () => {
    const prev = await create({ input: "hi", previous_response_id: "resp_1" });
    expect(prev.status).toBe(400);
    expect(prev.json.error).toMatchObject({ type: "invalid_request_error", code: "invalid_request", param: "previous_response_id" });
    expect(prev.json.error.message).toContain("previous_response_id is not supported");
    const ref = await create({ input: [{ type: "item_reference", id: "msg_1" }] });
    expect(ref.status).toBe(400);
    expect(ref.json.error.message).toContain("item_reference needs stored items");
    const hosted = await create({ input: "hi", tools: [{ type: "web_search" }] });
    expect(hosted.status).toBe(400);
    expect(hosted.json.error.message).toContain("only function tools");
  });

  it("reports a budget that ran out as incomplete", async () => {
    const r = await create({ model: "gpt-5-mini", input: "Explain CRDTs.", max_output_tokens: 5 });
    expect(r.json).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });
});

describe("GET /v1/models/{id}", () => {
  it("answers OpenAI's model object with the catalog fields, without a key", async () => {
    const r = await call("/v1/models/claude-haiku-4-5");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: "claude-haiku-4-5", object: "model", owned_by: "anthropic", created: expect.any(Number), tier: "mid", capabilities: expect.arrayContaining(["tools", "vision"]) });
  });

  it("answers 404 in OpenAI's error object", async () => {
    const r = await call("/v1/models/gpt-9");
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ error: { message: expect.stringContaining("'gpt-9' does not exist"), type: "invalid_request_error", code: "model_not_found", param: "model" } });
  });
});

describe("CORS", () => {
  it("answers a preflight without a key, any origin for a public endpoint", async () => {
    const r = await call("/v1/models", { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "GET" } });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("allows the configured origins on protected endpoints, and no other", async () => {
    const pre = (origin: string) => call("/v1/chat/completions", { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" } });
    const ok = await pre("https://app.example");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(ok.headers.get("access-control-allow-headers")).toContain("authorization");
    const other = await pre("https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const real = await call("/v1/chat/completions", { key, json: { messages: [{ role: "user", content: "hi" }] }, headers: { origin: "https://app.example" } });
    expect(real.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(real.headers.get("access-control-expose-headers")).toContain("x-request-id");
  });

  it("sends no CORS headers to a server-side call of a protected endpoint (no Origin), and always on public ones", async () => {
    const server = await call("/v1/chat/completions", { key, json: { messages: [{ role: "user", content: "hi" }] } });
    expect(server.status).toBe(200);
    expect(server.headers.get("access-control-allow-origin")).toBeNull();
    expect(server.headers.get("vary")).toBeNull();
    expect(server.headers.get("x-request-id")).toBeTruthy();
    const pub = await call("/v1/models/gpt-5-mini");
    expect(pub.headers.get("access-control-allow-origin")).toBe("*");
    expect(pub.headers.get("cache-control")).toBe("public, max-age=300");
  });
});
