import { describe, expect, it } from "vitest";
import { UpstreamFault } from "../../src/providers/adapter";
import { ANTHROPIC_VERSION, anthropicAdapter } from "../../src/providers/anthropic";
import { geminiAdapter } from "../../src/providers/gemini";
import { openaiAdapter } from "../../src/providers/openai";
import anthropicError from "./fixtures/anthropic/error.529.json";
import anthropicRequest from "./fixtures/anthropic/request.json";
import anthropicResponse from "./fixtures/anthropic/response.json";
import anthropicStreamError from "./fixtures/anthropic/stream-error.sse?raw";
import anthropicStream from "./fixtures/anthropic/stream.sse?raw";
import geminiError from "./fixtures/gemini/error.429.json";
import geminiRequest from "./fixtures/gemini/request.json";
import geminiBlocked from "./fixtures/gemini/response.blocked.json";
import geminiResponse from "./fixtures/gemini/response.json";
import geminiStream from "./fixtures/gemini/stream.sse?raw";
import openaiError from "./fixtures/openai/error.429.json";
import openaiRequest from "./fixtures/openai/request.gpt-5-nano.json";
import groqStreamRequest from "./fixtures/openai/request.stream.groq.json";
import openaiResponse from "./fixtures/openai/response.json";
import openaiStreamError from "./fixtures/openai/stream-error.sse?raw";
import openaiStream from "./fixtures/openai/stream.sse?raw";
import { decodeStream, model, REQ } from "./helpers";

const target = (stream = false, apiKey: string | null = "sk-test") => ({ baseUrl: "https://up.example/v1", apiKey: apiKey ?? undefined, stream });

describe("OpenAI chat completions adapter", () => {
  it("builds the request: path, Bearer auth, upstream id, max_completion_tokens and no temperature for OpenAI's reasoning models", () => {
    const up = openaiAdapter.request(model("gpt-5-nano"), REQ, target());
    expect(up.url).toBe("https://up.example/v1/chat/completions");
    expect(up.headers).toEqual({ "content-type": "application/json", authorization: "Bearer sk-test" });
    expect(JSON.parse(up.body)).toEqual(openaiRequest);
  });

  it("asks compatible providers for max_tokens, temperature and usage in the stream", () => {
    const up = openaiAdapter.request(model("gpt-oss-120b"), REQ, target(true));
    expect(JSON.parse(up.body)).toEqual(groqStreamRequest);
  });

  it("leaves stream_options out for Mistral, which rejects it, and auth out when there is no key", () => {
    const up = openaiAdapter.request(model("mistral-large-2512"), REQ, target(true, null));
    const body = JSON.parse(up.body);
    expect(body.stream).toBe(true);
    expect(body).not.toHaveProperty("stream_options");
    expect(up.headers).not.toHaveProperty("authorization");
  });

  it("alternates turns for Perplexity, which rejects two user messages in a row", () => {
    const up = openaiAdapter.request(
      model("sonar"),
      { messages: [{ role: "system", content: "s" }, { role: "user", content: "a" }, { role: "user", content: "b" }], maxTokens: 9, temperature: 0.2 },
      target(true),
    );
    const body = JSON.parse(up.body);
    expect(body.messages).toEqual([{ role: "system", content: "s" }, { role: "user", content: "a\n\nb" }]);
    expect(body).not.toHaveProperty("stream_options");
    expect(up.url).toBe("https://up.example/v1/chat/completions");
  });

  it("reads the recorded response", () => {
    expect(openaiAdapter.response(openaiResponse)).toEqual({
      content: "Paris is the capital of France.",
      toolCalls: [],
      finishReason: "stop",
      usage: { prompt_tokens: 22, completion_tokens: 75, total_tokens: 97 },
    });
  });

  it("reads the recorded stream: deltas, finish reason, and the usage chunk", async () => {
    const { deltas, end } = await decodeStream(openaiAdapter, openaiStream);
    expect(deltas).toEqual(["Paris", " is the capital of France."]);
    expect(end).toEqual({ finishReason: "stop", usage: { prompt_tokens: 22, completion_tokens: 75, total_tokens: 97 } });
  });

  it("throws on an error object inside a 200 stream, with the status it carries", async () => {
    const err = await decodeStream(openaiAdapter, openaiStreamError).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamFault);
    expect(err.status).toBe(502);
    expect(err.message).toContain("Provider disconnected");
  });

  it("refuses a stream that stopped before the finish reason, and a body without choices", async () => {
    const cut = openaiStream.split("\n\n").slice(0, 3).join("\n\n") + "\n\n";
    await expect(decodeStream(openaiAdapter, cut)).rejects.toThrow(/ended before/);
    expect(() => openaiAdapter.response({ id: "x" })).toThrow(UpstreamFault);
  });

  it("turns the recorded error body into a one-line reason", () => {
    expect(openaiAdapter.errorMessage(429, JSON.stringify(openaiError))).toBe(`HTTP 429 tokens: ${openaiError.error.message}`);
    expect(openaiAdapter.errorMessage(502, "<html>Bad Gateway</html>")).toBe("HTTP 502: <html>Bad Gateway</html>");
  });
});

describe("Anthropic Messages adapter", () => {
  it("builds the request: /messages, x-api-key, anthropic-version, system at top level, max_tokens", () => {
    const up = anthropicAdapter.request(model("claude-haiku-4-5"), REQ, target());
    expect(up.url).toBe("https://up.example/v1/messages");
    expect(up.headers).toEqual({ "content-type": "application/json", "x-api-key": "sk-test", "anthropic-version": ANTHROPIC_VERSION });
    expect(JSON.parse(up.body)).toEqual(anthropicRequest);
  });

  it("joins consecutive turns of one role and caps temperature at Anthropic's 1", () => {
    const up = anthropicAdapter.request(
      model("claude-haiku-4-5"),
      { messages: [{ role: "user", content: "a" }, { role: "user", content: "b" }, { role: "assistant", content: "c" }], maxTokens: 9, temperature: 1.6 },
      target(true),
    );
    const body = JSON.parse(up.body);
    expect(body.messages).toEqual([{ role: "user", content: "a\n\nb" }, { role: "assistant", content: "c" }]);
    expect(body.temperature).toBe(1);
    expect(body.stream).toBe(true);
    expect(body).not.toHaveProperty("system");
  });

  it("reads the recorded response", () => {
    expect(anthropicAdapter.response(anthropicResponse)).toEqual({
      content: "Paris is the capital of France.",
      toolCalls: [],
      finishReason: "stop",
      usage: { prompt_tokens: 21, completion_tokens: 10, total_tokens: 31 },
    });
    expect(anthropicAdapter.response({ ...anthropicResponse, stop_reason: "max_tokens" }).finishReason).toBe("length");
  });

  it("reads the recorded stream: text deltas, stop reason from message_delta, usage from start and delta", async () => {
    const { deltas, end } = await decodeStream(anthropicAdapter, anthropicStream, 5);
    expect(deltas).toEqual(["Paris is", " the capital of France."]);
    expect(end).toEqual({ finishReason: "stop", usage: { prompt_tokens: 21, completion_tokens: 10, total_tokens: 31 } });
  });

  it("throws an error event inside a 200 stream as the status it stands for (overloaded: 529)", async () => {
    const err = await decodeStream(anthropicAdapter, anthropicStreamError).catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamFault);
    expect(err.status).toBe(529);
    expect(err.message).toContain("overloaded_error");
  });

  it("turns the recorded error body into a one-line reason", () => {
    expect(anthropicAdapter.errorMessage(529, JSON.stringify(anthropicError))).toBe("HTTP 529 overloaded_error: Overloaded");
  });
});

describe("Gemini adapter", () => {
  it("builds the request: model in the path, x-goog-api-key, contents with roles, systemInstruction, generationConfig", () => {
    const up = geminiAdapter.request(model("gemini-2.5-flash"), REQ, { ...target(), baseUrl: "https://g.example/v1beta" });
    expect(up.url).toBe("https://g.example/v1beta/models/gemini-2.5-flash:generateContent");
    expect(up.headers).toEqual({ "content-type": "application/json", "x-goog-api-key": "sk-test" });
    expect(JSON.parse(up.body)).toEqual(geminiRequest);
  });

  it("streams from streamGenerateContent?alt=sse and names the assistant `model`", () => {
    const up = geminiAdapter.request(
      model("gemini-2.5-flash-lite"),
      { messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "yo" }, { role: "user", content: "?" }], maxTokens: 5, temperature: 0 },
      target(true),
    );
    expect(up.url).toBe("https://up.example/v1/models/gemini-2.5-flash-lite:streamGenerateContent?alt=sse");
    expect(JSON.parse(up.body).contents.map((c: { role: string }) => c.role)).toEqual(["user", "model", "user"]);
  });

  it("reads the recorded response, counting thinking tokens as completion", () => {
    expect(geminiAdapter.response(geminiResponse)).toEqual({
      content: "Paris is the capital of France.\n",
      toolCalls: [],
      finishReason: "stop",
      usage: { prompt_tokens: 12, completion_tokens: 33, total_tokens: 45 },
    });
  });

  it("reads a blocked prompt as content_filter with no content", () => {
    expect(geminiAdapter.response(geminiBlocked)).toEqual({
      content: "",
      toolCalls: [],
      finishReason: "content_filter",
      usage: { prompt_tokens: 9, completion_tokens: 0, total_tokens: 9 },
    });
  });

  it("reads the recorded CRLF stream; MAX_TOKENS maps to length", async () => {
    const { deltas, end } = await decodeStream(geminiAdapter, geminiStream, 3);
    expect(deltas).toEqual(["Paris", " is the capital of France.\n"]);
    expect(end).toEqual({ finishReason: "length", usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 } });
  });

  it("refuses a stream without a finishReason (cut) and an error object in a chunk", async () => {
    const first = geminiStream.split("\r\n\r\n")[0]!;
    await expect(decodeStream(geminiAdapter, `${first}\r\n\r\n`)).rejects.toThrow(/finishReason/);
    const err = await decodeStream(geminiAdapter, `data: ${JSON.stringify(geminiError)}\n\n`).catch((e) => e);
    expect(err.status).toBe(429);
  });

  it("turns the recorded error body into a one-line reason", () => {
    expect(geminiAdapter.errorMessage(429, JSON.stringify(geminiError))).toBe(`HTTP 429 RESOURCE_EXHAUSTED: ${geminiError.error.message}`);
  });
});

describe("a conversation of system messages only", () => {
  // OpenAI answers it; Anthropic and Gemini refuse a request with no turn (found by the fuzz test).
  const onlySystem = { ...REQ, messages: [{ role: "system" as const, content: "Say hi." }] };

  it("is one user turn for Anthropic, with no system prompt left", () => {
    const body = JSON.parse(anthropicAdapter.request(model("claude-haiku-4-5"), onlySystem, target()).body);
    expect(body.messages).toEqual([{ role: "user", content: "Say hi." }]);
    expect(body.system).toBeUndefined();
  });

  it("is one user content for Gemini, with no systemInstruction", () => {
    const body = JSON.parse(geminiAdapter.request(model("gemini-2.5-flash"), onlySystem, target()).body);
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "Say hi." }] }]);
    expect(body.systemInstruction).toBeUndefined();
  });
});
