import { describe, expect, it } from "vitest";
import { anthropicAdapter } from "../../src/providers/anthropic";
import { geminiAdapter } from "../../src/providers/gemini";
import { openaiAdapter } from "../../src/providers/openai";
import type { ModelRequest } from "../../src/providers/types";
import anthropicRequest from "./fixtures/anthropic/request.tools.json";
import anthropicToolUse from "./fixtures/anthropic/response.tool-use.json";
import anthropicToolStream from "./fixtures/anthropic/stream.tool-use.sse?raw";
import anthropicJsonSchema from "./fixtures/anthropic/response.json-schema.json";
import anthropicJsonSchemaStream from "./fixtures/anthropic/stream.json-schema.sse?raw";
import geminiRequest from "./fixtures/gemini/request.tools.json";
import geminiCall from "./fixtures/gemini/response.function-call.json";
import geminiCallStream from "./fixtures/gemini/stream.function-call.sse?raw";
import openaiRequest from "./fixtures/openai/request.tools.gpt-5-mini.json";
import openaiToolCalls from "./fixtures/openai/response.tool-calls.json";
import openaiToolStream from "./fixtures/openai/stream.tool-calls.sse?raw";
import openaiChoices from "./fixtures/openai/response.choices.json";
import geminiCandidates from "./fixtures/gemini/response.candidates.json";
import { decodeStream, model, parseAll } from "./helpers";
import { JSON_SCHEMA_REQ, RICH } from "./rich-request";

const target = { baseUrl: "https://up.example/v1", apiKey: "k", stream: false };
const bodyOf = (adapter: typeof openaiAdapter, id: string, req: ModelRequest) => JSON.parse(adapter.request(model(id), req, target).body);
const withOptions = (options: ModelRequest["options"]): ModelRequest => ({ ...RICH, messages: RICH.messages.slice(0, 2), options });

describe("OpenAI translation (pass-through)", () => {
  it("carries parts, images, tool calls, tool results and every option", () => {
    expect(bodyOf(openaiAdapter, "gpt-5-mini", RICH)).toEqual(openaiRequest);
  });

  it("sends top_p and leaves reasoning_effort out where the server does not take it", () => {
    const body = bodyOf(openaiAdapter, "deepseek-chat", RICH);
    expect(body.top_p).toBe(0.9);
    expect(body).not.toHaveProperty("reasoning_effort");
    expect(bodyOf(openaiAdapter, "gpt-oss-120b", RICH).reasoning_effort).toBe("low");
  });

  it("sends response_format json_schema and json_object as they are", () => {
    expect(bodyOf(openaiAdapter, "gpt-5-mini", JSON_SCHEMA_REQ).response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "person", strict: true, schema: JSON_SCHEMA_REQ.options!.responseFormat!.type === "json_schema" ? JSON_SCHEMA_REQ.options!.responseFormat!.schema : {} },
    });
    expect(bodyOf(openaiAdapter, "deepseek-chat", withOptions({ responseFormat: { type: "json_object" } })).response_format).toEqual({ type: "json_object" });
  });

  it("reads tool calls from a response", () => {
    expect(openaiAdapter.response(openaiToolCalls)).toEqual({
      content: "",
      toolCalls: [
        { id: "call_Vw1", name: "get_weather", arguments: '{"city":"Rome"}' },
        { id: "call_Vw2", name: "get_weather", arguments: '{"city":"Oslo"}' },
      ],
      finishReason: "tool_calls",
      usage: { prompt_tokens: 80, completion_tokens: 52, total_tokens: 132 },
    });
  });

  it("reads streamed tool-call deltas", async () => {
    const { deltas, tools, end } = await decodeStream(openaiAdapter, openaiToolStream);
    expect(deltas).toEqual([]);
    expect(tools).toEqual([
      { index: 0, id: "call_Vw1", name: "get_weather", arguments: "" },
      { index: 0, arguments: '{"city"' },
      { index: 0, arguments: ':"Rome"}' },
    ]);
    expect(end).toEqual({ finishReason: "tool_calls", usage: { prompt_tokens: 80, completion_tokens: 30, total_tokens: 110 } });
  });
});

describe("Anthropic Messages translation", () => {
  it("turns parts, images, tool calls and results into content blocks, and the options into Anthropic's", () => {
    expect(bodyOf(anthropicAdapter, "claude-sonnet-4-6", RICH)).toEqual(anthropicRequest);
  });

  it("thinks for a reasoning effort when no tool is forced and no tool call is in the history, with default sampling", () => {
    const body = bodyOf(anthropicAdapter, "claude-sonnet-4-6", withOptions({ reasoningEffort: "medium", topP: 0.5 }));
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2047 });
    expect(body).not.toHaveProperty("temperature");
    expect(body).not.toHaveProperty("top_p");
    // Haiku 4.5 has no reasoning capability in the catalog: no thinking.
    expect(bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ reasoningEffort: "high" }))).not.toHaveProperty("thinking");
  });

  it("asks for a JSON object in the system prompt (Anthropic has no JSON mode)", () => {
    const body = bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ responseFormat: { type: "json_object" } }));
    expect(body.system).toContain("Answer with a single valid JSON object");
    expect(body).not.toHaveProperty("tool_choice");
  });

  it("answers json_schema through a forced tool whose input_schema is the schema, without thinking", () => {
    const schema = JSON_SCHEMA_REQ.options!.responseFormat!.type === "json_schema" ? JSON_SCHEMA_REQ.options!.responseFormat!.schema : {};
    const body = bodyOf(anthropicAdapter, "claude-sonnet-4-6", { ...JSON_SCHEMA_REQ, options: { ...JSON_SCHEMA_REQ.options, reasoningEffort: "high" } });
    expect(body.tools).toEqual([{ name: "json", description: expect.stringContaining("schema person"), input_schema: schema }]);
    expect(body.tool_choice).toEqual({ type: "tool", name: "json" });
    expect(body).not.toHaveProperty("system");
    expect(body).not.toHaveProperty("thinking");
  });

  it("with tools beside json_schema, the model must call one: a real tool, or the answer tool", () => {
    const tools = RICH.options!.tools;
    const format = JSON_SCHEMA_REQ.options!.responseFormat;
    const auto = bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ tools, toolChoice: "auto", responseFormat: format, parallelToolCalls: false }));
    expect(auto.tools.map((t: { name: string }) => t.name)).toEqual(["get_weather", "json"]);
    expect(auto.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
    const named = bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ tools, toolChoice: { name: "get_weather" }, responseFormat: format }));
    expect(named.tool_choice).toEqual({ type: "tool", name: "get_weather" });
    const none = bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ tools, toolChoice: "none", responseFormat: format }));
    expect(none.tools.map((t: { name: string }) => t.name)).toEqual(["json"]);
    expect(none.tool_choice).toEqual({ type: "tool", name: "json" });
  });

  it("reads the answer tool's input as the content, finished with stop", () => {
    expect(anthropicAdapter.response(anthropicJsonSchema)).toEqual({
      content: '{"name":"Ada","age":36}',
      toolCalls: [],
      finishReason: "stop",
      usage: { prompt_tokens: 618, completion_tokens: 41, total_tokens: 659 },
    });
  });

  it("streams the answer tool's input as content deltas", async () => {
    const { deltas, tools, end } = await decodeStream(anthropicAdapter, anthropicJsonSchemaStream, 9);
    expect(tools).toEqual([]);
    expect(JSON.parse(deltas.join(""))).toEqual({ name: "Ada", age: 36 });
    expect(end).toEqual({ finishReason: "stop", usage: { prompt_tokens: 618, completion_tokens: 41, total_tokens: 659 } });
  });

  it("maps tool_choice auto, none and a named tool", () => {
    const tools = RICH.options!.tools;
    expect(bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ tools, toolChoice: "auto" })).tool_choice).toEqual({ type: "auto" });
    expect(bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ tools, toolChoice: { name: "get_weather" } })).tool_choice).toEqual({ type: "tool", name: "get_weather" });
    expect(bodyOf(anthropicAdapter, "claude-haiku-4-5", withOptions({ tools, toolChoice: "none" }))).not.toHaveProperty("tools");
  });

  it("reads tool_use blocks, skipping thinking", () => {
    expect(anthropicAdapter.response(anthropicToolUse)).toEqual({
      content: "Let me check Rome.",
      toolCalls: [{ id: "toolu_01A09q90qw90lq917835lq9", name: "get_weather", arguments: '{"city":"Rome"}' }],
      finishReason: "tool_calls",
      usage: { prompt_tokens: 472, completion_tokens: 89, total_tokens: 561 },
    });
  });

  it("reads a streamed tool_use as OpenAI-style deltas numbered from 0", async () => {
    const { deltas, tools, end } = await decodeStream(anthropicAdapter, anthropicToolStream, 9);
    expect(deltas).toEqual(["Checking Rome."]);
    expect(tools).toEqual([
      { index: 0, id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_weather", arguments: "" },
      { index: 0, arguments: '{"city": "Ro' },
      { index: 0, arguments: 'me"}' },
    ]);
    expect(end).toEqual({ finishReason: "tool_calls", usage: { prompt_tokens: 472, completion_tokens: 89, total_tokens: 561 } });
  });
});

describe("Gemini translation", () => {
  it("turns parts, images, calls and responses into Gemini parts, and the options into generationConfig and toolConfig", () => {
    expect(bodyOf(geminiAdapter, "gemini-2.5-flash", RICH)).toEqual(geminiRequest);
  });

  it("answers JSON with responseMimeType and responseJsonSchema; thinking levels for Gemini 3", () => {
    expect(bodyOf(geminiAdapter, "gemini-2.5-flash", JSON_SCHEMA_REQ).generationConfig).toMatchObject({
      responseMimeType: "application/json",
      responseJsonSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    expect(bodyOf(geminiAdapter, "gemini-3.1-pro-preview", withOptions({ reasoningEffort: "medium" })).generationConfig.thinkingConfig).toEqual({ thinkingLevel: "high" });
    expect(bodyOf(geminiAdapter, "gemini-2.5-flash-lite", withOptions({ reasoningEffort: "medium" })).generationConfig).not.toHaveProperty("thinkingConfig");
  });

  it("names an image URL as fileData and a named tool_choice as allowedFunctionNames", () => {
    const req: ModelRequest = { ...RICH, messages: [{ role: "user", content: [{ type: "image", url: "https://example.com/a.webp" }] }], options: { tools: RICH.options!.tools, toolChoice: { name: "get_weather" } } };
    const body = bodyOf(geminiAdapter, "gemini-2.5-flash", req);
    expect(body.contents[0].parts).toEqual([{ fileData: { mimeType: "image/webp", fileUri: "https://example.com/a.webp" } }]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } });
  });

  it("reads functionCall parts as tool calls with ids, and STOP with calls as tool_calls", () => {
    expect(geminiAdapter.response(geminiCall)).toEqual({
      content: "",
      toolCalls: [
        { id: "call_0", name: "get_weather", arguments: '{"city":"Rome"}' },
        { id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      ],
      finishReason: "tool_calls",
      usage: { prompt_tokens: 61, completion_tokens: 14, total_tokens: 75 },
    });
  });

  it("reads a streamed functionCall as one whole delta", async () => {
    const { deltas, tools, end } = await decodeStream(geminiAdapter, geminiCallStream, 11);
    expect(deltas).toEqual([]);
    expect(tools).toEqual([{ index: 0, id: "call_0", name: "get_weather", arguments: '{"city":"Rome"}' }]);
    expect(end).toEqual({ finishReason: "tool_calls", usage: { prompt_tokens: 61, completion_tokens: 7, total_tokens: 68 } });
  });
});

// OpenAI's n: passed through to the OpenAI protocol, Gemini's candidateCount; Anthropic has none
// (routing keeps such requests off it, see test/compat/choices.test.ts).
describe("several choices (n)", () => {
  const threeChoices = withOptions({ n: 3 });

  it("sends n as it is to the OpenAI protocol and as generationConfig.candidateCount to Gemini", () => {
    expect(bodyOf(openaiAdapter, "gpt-5-mini", threeChoices).n).toBe(3);
    expect(bodyOf(geminiAdapter, "gemini-2.5-flash", threeChoices).generationConfig.candidateCount).toBe(3);
    expect(bodyOf(anthropicAdapter, "claude-haiku-4-5", threeChoices)).not.toHaveProperty("n");
    // One choice is every protocol's default: nothing is sent.
    expect(bodyOf(openaiAdapter, "gpt-5-mini", withOptions({}))).not.toHaveProperty("n");
    expect(bodyOf(geminiAdapter, "gemini-2.5-flash", withOptions({})).generationConfig).not.toHaveProperty("candidateCount");
  });

  it("reads every OpenAI choice in index order, the first at the top, usage as reported (summed)", () => {
    const first = { content: "Sunlight scatters off air molecules; blue scatters most.", toolCalls: [], finishReason: "stop" };
    expect(openaiAdapter.response(openaiChoices)).toEqual({
      ...first,
      usage: { prompt_tokens: 14, completion_tokens: 41, total_tokens: 55 },
      choices: [first, { content: "Blue, because of Rayleigh scattering.", toolCalls: [], finishReason: "stop" }, { content: "Short wavelengths", toolCalls: [], finishReason: "length" }],
    });
  });

  it("reads every Gemini candidate in index order, usageMetadata counting them all", () => {
    const first = { content: "Sunlight scatters off air molecules; blue scatters most.", toolCalls: [], finishReason: "stop" };
    expect(geminiAdapter.response(geminiCandidates)).toEqual({
      ...first,
      usage: { prompt_tokens: 9, completion_tokens: 23, total_tokens: 32 },
      choices: [first, { content: "Blue, because of Rayleigh scattering.", toolCalls: [], finishReason: "stop" }],
    });
  });

  /** Every delta of a stream with the choice it belongs to, and the end (or the fault). */
  const decodeChoices = (adapter: typeof openaiAdapter, sse: string) => {
    const decoder = adapter.decoder();
    const text: string[] = [];
    const calls: Array<{ choice: number; name?: string; index: number }> = [];
    for (const msg of parseAll(sse, 9)) {
      for (const d of decoder.push(msg)) {
        if (d.type === "delta") text[d.choice ?? 0] = (text[d.choice ?? 0] ?? "") + d.content;
        else calls.push({ choice: d.choice ?? 0, name: d.call.name, index: d.call.index });
      }
    }
    return { text, calls, decoder };
  };
  const oa = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices, ...extra })}\n\n`;

  it("decodes an OpenAI stream of interleaved choices by index, each with its finish reason", () => {
    const sse =
      oa([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]) +
      oa([{ index: 1, delta: { role: "assistant", content: "" }, finish_reason: null }]) +
      oa([{ index: 0, delta: { content: "Blue " }, finish_reason: null }]) +
      oa([{ index: 1, delta: { content: "Rayleigh" }, finish_reason: null }, { index: 0, delta: { content: "light." }, finish_reason: null }]) +
      oa([{ index: 1, delta: { tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "look", arguments: "{}" } }] }, finish_reason: null }]) +
      oa([{ index: 0, delta: {}, finish_reason: "length" }]) +
      oa([{ index: 1, delta: {}, finish_reason: "tool_calls" }]) +
      oa([], { usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } }) +
      "data: [DONE]\n\n";
    const { text, calls, decoder } = decodeChoices(openaiAdapter, sse);
    expect(text).toEqual(["Blue light.", "Rayleigh"]);
    expect(calls).toEqual([{ choice: 1, name: "look", index: 0 }]);
    expect(decoder.end()).toEqual({ finishReason: "length", usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 }, finishReasons: ["length", "tool_calls"] });
  });

  it("an OpenAI stream cut before every choice finished is a fault", () => {
    const sse = oa([{ index: 0, delta: { content: "a" }, finish_reason: "stop" }]) + oa([{ index: 1, delta: { content: "b" }, finish_reason: null }]);
    const { decoder } = decodeChoices(openaiAdapter, sse);
    expect(decoder.finished).toBe(false);
    expect(() => decoder.end()).toThrow(/before the upstream finished/);
  });

  it("decodes a Gemini stream of several candidates by index, calls numbered per candidate", () => {
    const g = (candidates: unknown[], usage?: unknown) => `data: ${JSON.stringify({ candidates, ...(usage ? { usageMetadata: usage } : {}) })}\r\n\r\n`;
    const sse =
      g([{ index: 0, content: { role: "model", parts: [{ text: "Blue " }] } }, { index: 1, content: { role: "model", parts: [{ functionCall: { name: "look", args: {} } }] }, finishReason: "STOP" }]) +
      g([{ index: 0, content: { role: "model", parts: [{ text: "light." }] }, finishReason: "MAX_TOKENS" }], { promptTokenCount: 4, candidatesTokenCount: 6 });
    const { text, calls, decoder } = decodeChoices(geminiAdapter, sse);
    expect(text).toEqual(["Blue light."]);
    expect(calls).toEqual([{ choice: 1, name: "look", index: 0 }]);
    expect(decoder.end()).toEqual({ finishReason: "length", usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 }, finishReasons: ["length", "tool_calls"] });
  });

  it("answers one choice without a choices list, as before", () => {
    expect(openaiAdapter.response(openaiToolCalls)).not.toHaveProperty("choices");
    expect(geminiAdapter.response(geminiCall)).not.toHaveProperty("choices");
  });
});
