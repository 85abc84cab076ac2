import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, jsonSchema, streamText, tool } from "ai";
import OpenAI from "openai";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const apiKey = inject("devKey");
const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0 });

const WEATHER_PARAMS = {
  type: "object",
  properties: { city: { type: "string", description: "The city" } },
  required: ["city"],
  additionalProperties: false,
} as const;
const WEATHER = { type: "function" as const, function: { name: "get_weather", description: "Get the current weather for a city", parameters: WEATHER_PARAMS } };
const ASK = "What is the weather in Paris today?";

describe("the openai SDK: tools, JSON schema, content parts, models, Responses", () => {
  it("calls a tool, then answers from its result", async () => {
    const first = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: ASK }], tools: [WEATHER] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(call.type === "function" && call.function.name).toBe("get_weather");
    expect(call.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });
    const second = await client.chat.completions.create({
      model: "auto",
      tools: [WEATHER],
      messages: [{ role: "user", content: ASK }, first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: '{"temperature":21}' }],
    });
    expect(second.choices[0]!.message.content).toContain("get_weather returned");
  });

  it("streams a tool call (the SDK's stream helper puts it together)", async () => {
    const runner = client.chat.completions.stream({ model: "claude-haiku-4-5", messages: [{ role: "user", content: ASK }], tools: [WEATHER] });
    const done = await runner.finalChatCompletion();
    const call = done.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });
    expect(done.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("answers JSON of a schema (response_format json_schema, strict)", async () => {
    const r = await client.chat.completions.create({
      model: "gemini-2.5-flash",
      messages: [{ role: "user", content: "Extract: Ada is 36." }],
      response_format: {
        type: "json_schema",
        json_schema: { name: "person", strict: true, schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"], additionalProperties: false } },
      },
    });
    expect(JSON.parse(r.choices[0]!.message.content!)).toEqual({ name: "Ada", age: 36 });
  });

  it("takes content parts, an image among them", async () => {
    const r = await client.chat.completions.create({
      model: "gpt-5-mini",
      messages: [{ role: "user", content: [{ type: "text", text: "Describe this image." }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] }],
    });
    expect(r.choices[0]!.message.content).toContain("1 image received");
  });

  it("answers n choices (n: 2), each with its index, and the receipt covers both", async () => {
    const r = await client.chat.completions.create({ model: "gpt-5-mini", messages: [{ role: "user", content: "Name a colour." }], n: 2 });
    expect(r.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(r.choices[0]!.message.content).not.toBe(r.choices[1]!.message.content);
    const err = await client.chat.completions.create({ model: "claude-haiku-4-5", messages: [{ role: "user", content: "Name a colour." }], n: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain("n above 1");
  });

  it("answers JSON of a schema through Anthropic (a forced tool, unwrapped), plain and streamed", async () => {
    const response_format = {
      type: "json_schema" as const,
      json_schema: { name: "person", strict: true, schema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"], additionalProperties: false } },
    };
    const messages = [{ role: "user" as const, content: "Extract: Ada is 36." }];
    const r = await client.chat.completions.create({ model: "claude-haiku-4-5", messages, response_format });
    expect(JSON.parse(r.choices[0]!.message.content!)).toEqual({ name: "Ada", age: 36 });
    expect(r.choices[0]!.finish_reason).toBe("stop");
    const done = await client.chat.completions.stream({ model: "claude-haiku-4-5", messages, response_format }).finalChatCompletion();
    expect(JSON.parse(done.choices[0]!.message.content!)).toEqual({ name: "Ada", age: 36 });
  });

  it("shows our message for a skill invoke error (OpenAI's error object there too)", async () => {
    const err = await client.post("/skills/no-such-skill/invoke", { body: { task: "hi" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as Error).message).toContain('No skill "no-such-skill"');
  });

  it("retrieves a model, and a missing one is a 404 whose message the SDK shows", async () => {
    const m = await client.models.retrieve("claude-haiku-4-5");
    expect(m).toMatchObject({ id: "claude-haiku-4-5", object: "model", owned_by: "anthropic" });
    expect((m as unknown as { capabilities: string[] }).capabilities).toContain("tools");
    const err = await client.models.retrieve("no-such-model").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as Error).message).toContain("The model 'no-such-model' does not exist");
  });

  it("shows our message for a bad request, the zod issue included", async () => {
    const err = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }], temperature: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain("temperature");
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("invalid_request");
  });

  it("client.responses.create, plain: text, usage and svc", async () => {
    const r = await client.responses.create({ model: "auto", input: "Write a Python function that reverses a string.", instructions: "Be brief." });
    expect(r.status).toBe("completed");
    expect(r.output_text.length).toBeGreaterThan(0);
    expect(r.usage!.total_tokens).toBe(r.usage!.input_tokens + r.usage!.output_tokens);
    expect((r as unknown as { svc: { proof: { verifiable: boolean } } }).svc.proof.verifiable).toBe(true);
  });

  it("client.responses.create, streamed, with a function call", async () => {
    const stream = await client.responses.create({
      model: "gemini-2.5-flash",
      input: [{ role: "user", content: ASK }],
      tools: [{ type: "function", name: "get_weather", description: "Get the current weather for a city", parameters: WEATHER_PARAMS, strict: true }],
      stream: true,
    });
    const types: string[] = [];
    let completed: any;
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === "response.completed") completed = ev.response;
    }
    expect(types[0]).toBe("response.created");
    expect(types).toContain("response.function_call_arguments.delta");
    const call = completed.output.find((o: { type: string }) => o.type === "function_call");
    expect(call.name).toBe("get_weather");
    expect(JSON.parse(call.arguments)).toEqual({ city: "Paris" });
    expect(completed.svc.routing.model).toBe("gemini-2.5-flash");
  });

  it("client.responses.stream, text deltas", async () => {
    const stream = client.responses.stream({ model: "claude-haiku-4-5", input: "Count from one to five." });
    let text = "";
    stream.on("response.output_text.delta", (ev) => (text += ev.delta));
    const final = await stream.finalResponse();
    expect(text).toBe(final.output_text);
    expect(text.length).toBeGreaterThan(0);
  });

  it("previous_response_id is a clear 400 (state-free)", async () => {
    const err = await client.responses.create({ model: "auto", input: "hi", previous_response_id: "resp_123" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain("previous_response_id is not supported");
  });
});

describe("@ai-sdk/openai's default provider (the Responses API)", () => {
  const openai = createOpenAI({ baseURL: `${baseUrl}/v1`, apiKey });

  it("generateText", async () => {
    const r = await generateText({ model: openai("auto"), prompt: "Explain CRDTs in two sentences." });
    expect(r.text.length).toBeGreaterThan(0);
    expect(r.usage.outputTokens).toBeGreaterThan(0);
  });

  it("streamText", async () => {
    const r = streamText({ model: openai("claude-haiku-4-5"), prompt: "Count from one to five." });
    let text = "";
    for await (const t of r.textStream) text += t;
    expect(text.length).toBeGreaterThan(0);
  });

  it("a tool call", async () => {
    const r = await generateText({
      model: openai("auto"),
      prompt: ASK,
      tools: { get_weather: tool({ description: "Get the current weather for a city", inputSchema: jsonSchema<{ city: string }>(WEATHER_PARAMS) }) },
    });
    expect(r.toolCalls[0]).toMatchObject({ toolName: "get_weather", input: { city: "Paris" } });
  });

  it("shows our message on an error", async () => {
    const err = await generateText({ model: openai("auto"), prompt: "hi", temperature: 3, maxRetries: 0 }).catch((e: unknown) => e);
    expect((err as Error).message).toContain("temperature");
  });
});

describe("LangChain's ChatOpenAI", () => {
  const llm = new ChatOpenAI({ model: "auto", apiKey, configuration: { baseURL: `${baseUrl}/v1` }, maxRetries: 0 });

  it("invokes", async () => {
    const r = await llm.invoke("Say hello.");
    expect(String(r.content).length).toBeGreaterThan(0);
  });

  it("bindTools: the model's tool call arrives as tool_calls", async () => {
    const r = await llm.bindTools([WEATHER]).invoke(ASK);
    expect(r.tool_calls?.[0]).toMatchObject({ name: "get_weather", args: { city: "Paris" } });
  });

  it("streams", async () => {
    let text = "";
    for await (const chunk of await llm.stream("Count from one to five.")) text += String(chunk.content);
    expect(text.length).toBeGreaterThan(0);
  });

  it("withStructuredOutput (json_schema) through an Anthropic model", async () => {
    const claude = new ChatOpenAI({ model: "claude-haiku-4-5", apiKey, configuration: { baseURL: `${baseUrl}/v1` }, maxRetries: 0 });
    const person = { title: "person", type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"], additionalProperties: false };
    const r = await claude.withStructuredOutput(person, { method: "jsonSchema", name: "person" }).invoke("Extract: Ada is 36.");
    expect(r).toEqual({ name: "Ada", age: 36 });
  });
});
