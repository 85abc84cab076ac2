import { beforeAll, describe, expect, it } from "vitest";
import { findModel } from "../../src/catalog/models";
import { call, newKey } from "../helpers";
import { sseEvents } from "../chat/sse-parse";

let key: string;
let freeKey: string;
beforeAll(async () => {
  key = (await newKey("pro")).key;
  freeKey = (await newKey("free")).key;
});

const chat = (body: Record<string, unknown>, k = key) => call("/v1/chat/completions", { key: k, json: body });

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Get the current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } }, required: ["city", "unit"], additionalProperties: false },
  },
};
const ASK = [{ role: "user", content: "What is the weather in Paris today?" }];

/** The streamed tool calls put together as a client does, by index. */
function streamedCalls(text: string) {
  const chunks = sseEvents(text).slice(0, -1).map((e) => JSON.parse(e));
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const ch of chunks) {
    for (const d of ch.choices[0]?.delta?.tool_calls ?? []) {
      const c = (calls[d.index] ??= { id: "", name: "", arguments: "" });
      if (d.id) c.id = d.id;
      if (d.function?.name) c.name += d.function.name;
      c.arguments += d.function?.arguments ?? "";
    }
  }
  return { calls, finish: chunks.at(-1) };
}

// One model per wire protocol: the translation runs both ways through the sandbox of each.
for (const model of ["gpt-5-mini", "claude-haiku-4-5", "gemini-2.5-flash"]) {
  describe(`tools through ${model}`, () => {
    it("answers a tool call in OpenAI's shape", async () => {
      const r = await chat({ model, messages: ASK, tools: [WEATHER] });
      expect(r.status).toBe(200);
      const choice = r.json.choices[0];
      expect(choice.finish_reason).toBe("tool_calls");
      expect(choice.message.content).toBeNull();
      expect(choice.message.tool_calls).toHaveLength(1);
      const tc = choice.message.tool_calls[0];
      expect(tc).toMatchObject({ type: "function", function: { name: "get_weather" } });
      expect(tc.id).toEqual(expect.any(String));
      expect(JSON.parse(tc.function.arguments)).toEqual({ city: "Paris", unit: "celsius" });
    });

    it("streams the tool call as OpenAI's tool_calls deltas", async () => {
      const r = await chat({ model, messages: ASK, tools: [WEATHER], stream: true });
      const { calls, finish } = streamedCalls(r.text);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.name).toBe("get_weather");
      expect(JSON.parse(calls[0]!.arguments)).toEqual({ city: "Paris", unit: "celsius" });
      expect(finish.choices[0].finish_reason).toBe("tool_calls");
      expect(finish.svc.routing.model).toBe(model);
    });

    it("takes the assistant's tool call and the tool result back in the history", async () => {
      const messages = [
        ...ASK,
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris","unit":"celsius"}' } }] },
        { role: "tool", tool_call_id: "call_1", content: '{"temperature":21}' },
      ];
      const r = await chat({ model, messages, tools: [WEATHER] });
      expect(r.status).toBe(200);
      expect(r.json.choices[0].finish_reason).toBe("stop");
      expect(r.json.choices[0].message.content).toContain("get_weather returned");
      expect(r.json.choices[0].message.content).toContain("21");
    });

    it("does not call a tool when tool_choice is none", async () => {
      const r = await chat({ model, messages: ASK, tools: [WEATHER], tool_choice: "none" });
      expect(r.json.choices[0].finish_reason).toBe("stop");
      expect(r.json.choices[0].message).not.toHaveProperty("tool_calls");
    });
  });
}

describe("tool routing", () => {
  it("sends a request with tools only to a tool-capable model, on any plan", async () => {
    const r = await chat({ messages: [{ role: "user", content: "Say hi." }], tools: [WEATHER] }, freeKey);
    expect(r.status).toBe(200);
    expect(r.json.model).toBe("gpt-5-nano");
  });

  it("refuses a pinned model without tool support with a clear 400", async () => {
    const r = await chat({ model: "llama-3.2-3b", messages: ASK, tools: [WEATHER] });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain("llama-3.2-3b does not support tool calls");
  });

  it("forces the named tool with tool_choice, even when the prompt does not ask for it", async () => {
    const r = await chat({ model: "claude-haiku-4-5", messages: [{ role: "user", content: "Hello there." }], tools: [WEATHER], tool_choice: { type: "function", function: { name: "get_weather" } } });
    expect(r.json.choices[0].message.tool_calls[0].function.name).toBe("get_weather");
  });

  it("rejects tool_choice without tools and a tool_choice naming no tool", async () => {
    expect((await chat({ messages: ASK, tool_choice: "required" })).status).toBe(400);
    const r = await chat({ messages: ASK, tools: [WEATHER], tool_choice: { type: "function", function: { name: "nope" } } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain("not among the tools");
  });
});

const PERSON = {
  type: "json_schema",
  json_schema: {
    name: "person",
    strict: true,
    schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" }, tags: { type: "array", items: { type: "string" } } }, required: ["name", "age", "tags"], additionalProperties: false },
  },
};

describe("response_format", () => {
  // Anthropic through its forced answer tool (docs/compatibility.md), unwrapped as the content.
  for (const model of ["gpt-5-mini", "claude-haiku-4-5", "gemini-2.5-flash"]) {
    it(`json_schema through ${model} answers JSON of the schema, plain and streamed`, async () => {
      const messages = [{ role: "user", content: "Extract: Ada is 36." }];
      const r = await chat({ model, messages, response_format: PERSON });
      expect(r.json.choices[0].finish_reason).toBe("stop");
      expect(r.json.choices[0].message).not.toHaveProperty("tool_calls");
      const value = JSON.parse(r.json.choices[0].message.content);
      expect(value).toEqual({ name: "Ada", age: 36, tags: [expect.any(String)] });
      const s = await chat({ model, messages, response_format: PERSON, stream: true });
      const chunks = sseEvents(s.text).slice(0, -1).map((e) => JSON.parse(e));
      const text = chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");
      expect(JSON.parse(text)).toEqual(value);
      expect(chunks.some((c) => c.choices[0]?.delta?.tool_calls)).toBe(false);
      expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
    });
  }

  it("routes json_schema away from models without it, and refuses a pinned one", async () => {
    const auto = await chat({ messages: [{ role: "user", content: "Extract: Ada is 36." }], response_format: PERSON });
    expect(auto.status).toBe(200);
    expect(findModel(auto.json.svc.routing.model)!.capabilities).toContain("json_schema");
    const pinned = await chat({ model: "deepseek-chat", messages: ASK, response_format: PERSON });
    expect(pinned.status).toBe(400);
    expect(pinned.json.error.message).toContain("JSON Schema output");
  });

  for (const model of ["gpt-5-mini", "claude-haiku-4-5", "gemini-2.5-flash"]) {
    it(`json_object through ${model} answers a JSON object`, async () => {
      const r = await chat({ model, messages: [{ role: "user", content: "Reply in JSON: the capital of France." }], response_format: { type: "json_object" } });
      expect(typeof JSON.parse(r.json.choices[0].message.content)).toBe("object");
    });
  }
});

describe("content parts and other parameters", () => {
  const IMAGE = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };

  it("accepts text parts as content", async () => {
    const r = await chat({ model: "claude-haiku-4-5", messages: [{ role: "user", content: [{ type: "text", text: "What is the capital " }, { type: "text", text: "of France?" }] }] });
    expect(r.status).toBe(200);
    expect(r.json.choices[0].message.content).toContain("What is the capital of France?");
  });

  for (const model of ["gpt-5-mini", "claude-haiku-4-5", "gemini-2.5-flash"]) {
    it(`carries an image to ${model}`, async () => {
      const r = await chat({ model, messages: [{ role: "user", content: [{ type: "text", text: "Describe this." }, IMAGE] }] });
      expect(r.status).toBe(200);
      expect(r.json.choices[0].message.content).toContain("(1 image received.)");
    });
  }

  it("refuses an image for a model without vision, and routes auto to one with it", async () => {
    const r = await chat({ model: "deepseek-chat", messages: [{ role: "user", content: [IMAGE] }] });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain("does not support image input");
    const auto = await chat({ messages: [{ role: "user", content: [{ type: "text", text: "Describe." }, IMAGE] }] }, freeKey);
    expect(auto.status).toBe(200);
    expect(auto.json.model).toBe("gemini-2.5-flash-lite");
  });

  it("refuses content part types it does not carry, and n above 8", async () => {
    const audio = await chat({ messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "", format: "wav" } }] }] });
    expect(audio.status).toBe(400);
    expect(JSON.stringify(audio.json)).toContain("content parts must be");
    const n = await chat({ messages: ASK, n: 9 });
    expect(n.status).toBe(400);
    expect(JSON.stringify(n.json)).toContain("n is at most 8");
  });

  it("accepts stop, top_p, seed, user, n: 1, reasoning_effort and max_completion_tokens", async () => {
    const r = await chat({ model: "gpt-5-mini", messages: ASK, stop: ["\n\n\n"], top_p: 0.9, seed: 7, user: "u-1", n: 1, reasoning_effort: "low", max_completion_tokens: 5 });
    expect(r.status).toBe(200);
    expect(r.json.choices[0].finish_reason).toBe("length");
    expect(r.json.usage.completion_tokens).toBeLessThanOrEqual(5);
  });
});
