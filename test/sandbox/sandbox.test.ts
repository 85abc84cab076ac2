import { describe, expect, it } from "vitest";
import { chunksOf, sandboxAnswer } from "../../src/sandbox/answer";
import { faultFor, FaultSyntaxError, parseFaults } from "../../src/sandbox/faults";
import { SANDBOX_ORIGIN, sandboxUpstream } from "../../src/sandbox/upstream";
import { model } from "../providers/helpers";

/** A fresh sandbox per request, as the edge makes one per client request; faults from the header. */
const post = (path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal, sandbox = sandboxUpstream(headers["x-sandbox-fault"] ?? null)) =>
  sandbox.fetch(`${SANDBOX_ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal,
  });

const openaiBody = (content: string, extra: Record<string, unknown> = {}) => ({
  model: "gpt-5-nano",
  messages: [{ role: "user", content }],
  ...extra,
});

describe("sandbox answers", () => {
  const prompt = (text: string, maxTokens: number | null = null) => ({ system: "", turns: [{ role: "user" as const, text }], maxTokens });

  it("are deterministic for a request body and differ between bodies", () => {
    const m = model("gpt-5-mini");
    const a = sandboxAnswer(m, prompt("Explain DNS"), '{"x":1}');
    expect(sandboxAnswer(m, prompt("Explain DNS"), '{"x":1}')).toEqual(a);
    expect(sandboxAnswer(m, prompt("Explain DNS"), '{"x":2}').seed).not.toBe(a.seed);
  });

  it("name the model, reflect the prompt, and count about 4 characters a token, rounded up", () => {
    const a = sandboxAnswer(model("claude-haiku-4-5"), { system: "Be brief.", turns: [{ role: "user", text: "Explain DNS caching" }], maxTokens: null }, "b");
    expect(a.text).toContain("Claude Haiku 4.5");
    expect(a.text).toContain("claude-haiku-4-5");
    expect(a.text).toContain("Explain DNS caching");
    expect(a.promptTokens).toBe(Math.ceil(("Be brief.".length + "Explain DNS caching".length) / 4));
    expect(a.completionTokens).toBe(Math.ceil(a.text.length / 4));
    expect(a.finishReason).toBe("stop");
  });

  it("answer a request for code with a code block in the language asked for", () => {
    const a = sandboxAnswer(model("gpt-5-nano"), prompt("Write a TypeScript function that reverses a string"), "c");
    expect(a.text).toMatch(/```typescript\nexport function reversesString/);
    expect(sandboxAnswer(model("gpt-5-nano"), prompt("implement quicksort"), "d").text).toContain("```python\ndef quicksort(");
    expect(sandboxAnswer(model("gpt-5-nano"), prompt("What is the capital of France?"), "e").text).not.toContain("```");
  });

  it("respect max_tokens: cut to 4 characters a token with finish reason length", () => {
    const a = sandboxAnswer(model("gpt-5-nano"), prompt("Explain DNS", 5), "f");
    expect(a).toMatchObject({ finishReason: "length", completionTokens: 5 });
    expect(a.text.length).toBe(20);
  });

  it("stream in several chunks that add up to the text", () => {
    const text = sandboxAnswer(model("gpt-5-nano"), prompt("Explain DNS"), "g").text;
    const chunks = chunksOf(text);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    expect(chunks.join("")).toBe(text);
    expect(chunksOf("😀😀😀😀😀😀😀😀😀😀😀😀😀😀").join("")).toBe("😀😀😀😀😀😀😀😀😀😀😀😀😀😀");
  });
});

describe("x-sandbox-fault grammar", () => {
  it("parses targets, faults and limits", () => {
    expect(parseFaults(" gpt-5-nano=429*1, openai=503 ,google=timeout,claude-haiku-4-5=cut0*2,,mistral=malformed,xai=cut,groq=latency:250*3")).toEqual([
      { target: "gpt-5-nano", provider: false, fault: { kind: "status", status: 429 }, limit: 1 },
      { target: "openai", provider: true, fault: { kind: "status", status: 503 }, limit: null },
      { target: "google", provider: true, fault: { kind: "timeout" }, limit: null },
      { target: "claude-haiku-4-5", provider: false, fault: { kind: "cut0" }, limit: 2 },
      { target: "mistral", provider: true, fault: { kind: "malformed" }, limit: null },
      { target: "xai", provider: true, fault: { kind: "cut" }, limit: null },
      { target: "groq", provider: true, fault: { kind: "latency", ms: 250 }, limit: 3 },
    ]);
  });

  it.each(["gpt-5-nano", "gpt-5-nano=", "nope=429", "gpt-5-nano=200", "gpt-5-nano=slow", "gpt-5-nano=429*0", "gpt-5-nano=429*x", "gpt-5-nano=latency:", "gpt-5-nano=latency:60001"])(
    "rejects %j by naming the entry",
    (header) => {
      expect(() => parseFaults(header)).toThrow(FaultSyntaxError);
    },
  );

  it("applies the first entry that matches and whose limit is not used up", () => {
    const rules = parseFaults("gpt-5-nano=429*1,openai=503*2,gpt-5-mini=500");
    expect(faultFor(rules, "gpt-5-nano", "openai", 1, 1)).toEqual({ kind: "status", status: 429 });
    expect(faultFor(rules, "gpt-5-nano", "openai", 2, 2)).toEqual({ kind: "status", status: 503 });
    expect(faultFor(rules, "gpt-5-nano", "openai", 3, 3)).toBeNull();
    expect(faultFor(rules, "gpt-5-mini", "openai", 1, 3)).toEqual({ kind: "status", status: 500 });
    expect(faultFor(rules, "claude-haiku-4-5", "anthropic", 1, 1)).toBeNull();
  });
});

describe("sandbox upstream over its three wire protocols", () => {
  it("answers OpenAI chat completions, identically for an identical request", async () => {
    const body = openaiBody("Explain DNS", { max_completion_tokens: 300 });
    const a = await (await post("/openai/chat/completions", body)).json<any>();
    const b = await (await post("/openai/chat/completions", body)).json<any>();
    expect(a.object).toBe("chat.completion");
    expect(a.choices[0].message.content).toBe(b.choices[0].message.content);
    expect(a.id).toBe(b.id);
    expect(a.usage.completion_tokens).toBe(Math.ceil(a.choices[0].message.content.length / 4));
    expect(a.usage.prompt_tokens).toBe(Math.ceil("Explain DNS".length / 4));
  });

  it("streams each protocol in its own format, in several chunks", async () => {
    const oa = await (await post("/groq/chat/completions", { ...openaiBody("Explain DNS"), model: "openai/gpt-oss-120b", stream: true, stream_options: { include_usage: true } })).text();
    expect(oa.match(/"content":"[^"]/g)!.length).toBeGreaterThanOrEqual(3);
    expect(oa).toContain('"choices":[],"usage":{');
    expect(oa.endsWith("data: [DONE]\n\n")).toBe(true);

    const an = await (await post("/anthropic/messages", { model: "claude-haiku-4-5", max_tokens: 100, messages: [{ role: "user", content: "Explain DNS" }], stream: true })).text();
    expect(an.match(/^event: (\w+)$/gm)!.map((l) => l.slice(7))).toEqual(
      expect.arrayContaining(["message_start", "content_block_start", "ping", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]),
    );
    expect(an.match(/event: content_block_delta/g)!.length).toBeGreaterThanOrEqual(3);

    const gm = await (await post("/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse", { contents: [{ role: "user", parts: [{ text: "Explain DNS" }] }] })).text();
    expect(gm.split("\r\n\r\n").filter(Boolean).length).toBeGreaterThanOrEqual(3);
    expect(gm).toContain('"finishReason":"STOP"');
  });

  it("rejects what the real APIs reject, in their error shapes", async () => {
    const noMax = await post("/anthropic/messages", { model: "claude-haiku-4-5", messages: [{ role: "user", content: "hi" }] });
    expect(noMax.status).toBe(400);
    expect(await noMax.json()).toEqual({ type: "error", error: { type: "invalid_request_error", message: "max_tokens: Field required" } });
    const unknown = await post("/openai/chat/completions", openaiBody("hi", { model: "gpt-4" }));
    expect(unknown.status).toBe(404);
    expect((await unknown.json<any>()).error.message).toContain("gpt-4");
    const gem = await post("/google/models/gemini-2.5-flash:generateContent", { contents: [] });
    expect(gem.status).toBe(400);
    expect((await gem.json<any>()).error.status).toBe("INVALID_ARGUMENT");
    const elsewhere = await sandboxUpstream(null).fetch("https://api.openai.com/v1/chat/completions", { method: "POST", body: "{}" });
    expect(elsewhere.status).toBe(404);
    await elsewhere.text();
  });

  it("injects status faults in the protocol's error shape, and rejects a bad fault header with 400", async () => {
    const r = await post("/anthropic/messages", { model: "claude-haiku-4-5", max_tokens: 9, messages: [{ role: "user", content: "hi" }] }, { "x-sandbox-fault": "anthropic=529" });
    expect(r.status).toBe(529);
    expect((await r.json<any>()).error.type).toBe("overloaded_error");
    const bad = await post("/openai/chat/completions", openaiBody("hi"), { "x-sandbox-fault": "gpt-5-nano=soon" });
    expect(bad.status).toBe(400);
    expect((await bad.json<any>()).error.message).toContain("gpt-5-nano=soon");
  });

  it("counts `*N` per sandbox instance (one client request): per model, and per provider for provider targets", async () => {
    const one = sandboxUpstream("gpt-5-nano=429*1");
    const first = await post("/openai/chat/completions", openaiBody("hi"), {}, undefined, one);
    const second = await post("/openai/chat/completions", openaiBody("hi"), {}, undefined, one);
    expect([first.status, second.status]).toEqual([429, 200]);
    // A new instance (a new client request) starts counting again.
    const again = await post("/openai/chat/completions", openaiBody("hi"), {}, undefined, sandboxUpstream("gpt-5-nano=429*1"));
    expect(again.status).toBe(429);
    const byProvider = sandboxUpstream("openai=503*2");
    const statuses: number[] = [];
    for (const m of ["gpt-5-nano", "gpt-5-mini", "gpt-5-nano"]) {
      const r = await post("/openai/chat/completions", { ...openaiBody("hi"), model: m }, {}, undefined, byProvider);
      statuses.push(r.status);
      await r.text();
    }
    expect(statuses).toEqual([503, 503, 200]);
    await Promise.all([first.text(), second.text(), again.text()]);
  });

  it("serves malformed bodies, and cut streams before or after the first content", async () => {
    const mal = await post("/openai/chat/completions", openaiBody("hi"), { "x-sandbox-fault": "openai=malformed" });
    expect(mal.status).toBe(200);
    await expect(mal.json()).rejects.toThrow();
    const cut = await (await post("/openai/chat/completions", openaiBody("hi", { stream: true }), { "x-sandbox-fault": "openai=cut" })).text();
    expect(cut.match(/"content":"[^"]/g)).toHaveLength(1);
    expect(cut).not.toContain("[DONE]");
    const cut0 = await (await post("/anthropic/messages", { model: "claude-haiku-4-5", max_tokens: 50, messages: [{ role: "user", content: "hi" }], stream: true }, { "x-sandbox-fault": "anthropic=cut0" })).text();
    expect(cut0).toContain("message_start");
    expect(cut0).not.toContain("content_block_delta");
  });

  it("never answers under a timeout fault until the caller aborts", async () => {
    const controller = new AbortController();
    const pending = post("/google/models/gemini-2.5-flash:generateContent", { contents: [{ parts: [{ text: "hi" }] }] }, { "x-sandbox-fault": "google=timeout" }, controller.signal);
    const raced = await Promise.race([pending.then(() => "answered"), new Promise((r) => setTimeout(() => r("waiting"), 100))]);
    expect(raced).toBe("waiting");
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});
