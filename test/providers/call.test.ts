import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AllCandidatesFailed, complete, NoProviderConfigured, stream, UpstreamError, type CallContext } from "../../src/providers/call";
import type { FetchLike, StreamDelta, StreamResult, StreamSink, TokenUsage } from "../../src/providers/types";
import { sandboxUpstream } from "../../src/sandbox/upstream";
import anthropicResponse from "./fixtures/anthropic/response.json";
import anthropicStreamError from "./fixtures/anthropic/stream-error.sse?raw";
import { model, REQ, streamOf } from "./helpers";

/** Sandbox on (vitest.config.ts), no keys, and retries fast enough for a test. */
const fast = { ...env, SANDBOX_UPSTREAM: "on", UPSTREAM_RETRY_BASE_MS: "1" };
/** One client request: its own sandbox instance, which counts attempts for the `*N` fault limits. */
const ctx = (faults: string | null = null, extra: Partial<CallContext> = {}): CallContext => ({ env: fast, keyless: sandboxUpstream(faults), ...extra });

const nano = model("gpt-5-nano");
const mini = model("gpt-5-mini");
const haiku = model("claude-haiku-4-5");
const flash = model("gemini-2.5-flash");

interface Drained {
  deltas: string[];
  content: string;
  done: { finishReason: string; usage: TokenUsage };
}

/** A sink that collects what the pipe hands it, writing one line per delta so reads can be counted. */
function collector() {
  const got = { deltas: [] as string[], done: undefined as Drained["done"] | undefined, failed: undefined as Error | null | undefined };
  const lines = (ds: readonly StreamDelta[]) => ds.map((d) => (d.type === "delta" && got.deltas.push(d.content), "d\n")).join("");
  const sink: StreamSink = {
    open: lines,
    deltas: lines,
    done: (finishReason, usage) => ((got.done = { finishReason, usage }), "done\n"),
    failed: (err) => ((got.failed = err), "failed\n"),
  };
  return { got, sink };
}

/** Reads the piped stream to its end like a client; rejects with the failure the sink was handed. */
async function drain(s: StreamResult): Promise<Drained> {
  const { got, sink } = collector();
  const piped = s.pipe(sink);
  await new Response(piped.readable).text();
  await piped.ended;
  if (got.failed !== undefined) throw got.failed;
  return { deltas: got.deltas, content: got.deltas.join(""), done: got.done! };
}

const caught = (p: Promise<unknown>) => p.then(() => { throw new Error("expected a rejection"); }, (e: unknown) => e);

/** One model per wire protocol, plus Mistral: OpenAI-compatible without a usage chunk, so usage is estimated. */
const EVERY_PROTOCOL: Array<[string, ReturnType<typeof model>]> = [
  ["openai", nano],
  ["anthropic", haiku],
  ["gemini", flash],
  ["openai-compatible (mistral)", model("mistral-large-2512")],
];

describe("complete() and stream() through the real adapters against the sandbox", () => {
  it.each(EVERY_PROTOCOL)("serves %s, not streamed", async (_, m) => {
    const r = await complete([m], REQ, ctx());
    expect(r.model).toBe(m);
    expect(r.sandbox).toBe(true);
    expect(r.fallbackFrom).toBeNull();
    expect(r.completion.content).toContain(m.display_name);
    expect(r.completion.finishReason).toBe("stop");
    expect(r.completion.usage.completion_tokens).toBe(Math.ceil(r.completion.content.length / 4));
    expect(r.completion.usage.prompt_tokens).toBe(Math.ceil(("You are terse." + "What is the capital of France?").length / 4));
    expect(r.attempts).toEqual([{ model: m.id, ok: true, status: 200, error: null, latency_ms: expect.any(Number) }]);
    expect(await complete([m], REQ, ctx())).toMatchObject({ completion: r.completion });
  });

  it.each(EVERY_PROTOCOL)("serves %s, streamed in several deltas then one done", async (_, m) => {
    const s = await stream([m], REQ, ctx());
    expect(s.model).toBe(m);
    expect(s.sandbox).toBe(true);
    const { deltas, content, done } = await drain(s);
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(content).toContain(m.display_name);
    expect(done.finishReason).toBe("stop");
    expect(done.usage.completion_tokens).toBe(Math.ceil(content.length / 4));
    expect(s.upstreamMs()).toBeGreaterThanOrEqual(0);
  });

  it("reports length when max_tokens cuts the answer, in every protocol", async () => {
    for (const m of [nano, haiku, flash]) {
      const r = await complete([m], { ...REQ, maxTokens: 7 }, ctx());
      expect(r.completion).toMatchObject({ finishReason: "length", usage: { completion_tokens: 7 } });
      const s = await drain(await stream([m], { ...REQ, maxTokens: 7 }, ctx()));
      expect(s.done).toMatchObject({ finishReason: "length", usage: { completion_tokens: 7 } });
      expect(s.content.length).toBe(28);
    }
  });
});

describe("retries and fallback", () => {
  it("retries a 429 and then succeeds on the same model", async () => {
    const r = await complete([nano, haiku], REQ, ctx("gpt-5-nano=429*1"));
    expect(r.model).toBe(nano);
    expect(r.fallbackFrom).toBeNull();
    expect(r.attempts.map((a) => [a.model, a.ok, a.status])).toEqual([["gpt-5-nano", false, 429], ["gpt-5-nano", true, 200]]);
    expect(r.attempts[0]!.error).toContain("429");
  });

  it("retries a 503 up to UPSTREAM_MAX_RETRIES, then falls back to the next model with fallbackFrom set", async () => {
    const r = await complete([nano, haiku], REQ, ctx("gpt-5-nano=503"));
    expect(r.model).toBe(haiku);
    expect(r.fallbackFrom).toBe(nano);
    expect(r.attempts.map((a) => [a.model, a.status])).toEqual([["gpt-5-nano", 503], ["gpt-5-nano", 503], ["gpt-5-nano", 503], ["claude-haiku-4-5", 200]]);
    const once = await complete([nano, haiku], REQ, ctx("gpt-5-nano=503", { env: { ...fast, UPSTREAM_MAX_RETRIES: "0" } }));
    expect(once.attempts.map((a) => a.model)).toEqual(["gpt-5-nano", "claude-haiku-4-5"]);
  });

  it("falls back at once on a non-retryable 4xx and on a malformed body", async () => {
    const unauthorized = await complete([nano, haiku], REQ, ctx("openai=401"));
    expect(unauthorized.attempts.map((a) => [a.model, a.status])).toEqual([["gpt-5-nano", 401], ["claude-haiku-4-5", 200]]);
    const malformed = await complete([flash, nano], REQ, ctx("google=malformed"));
    expect(malformed.model).toBe(nano);
    expect(malformed.fallbackFrom).toBe(flash);
    expect(malformed.attempts).toHaveLength(2);
    expect(malformed.attempts[0]).toMatchObject({ ok: false, status: 200, error: expect.stringContaining("malformed JSON") });
    const halfBody = await complete([haiku, nano], REQ, ctx("claude-haiku-4-5=cut"));
    expect(halfBody.attempts.map((a) => [a.model, a.ok])).toEqual([["claude-haiku-4-5", false], ["gpt-5-nano", true]]);
  });

  it("stops trying as soon as the client goes away", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const err = (await caught(complete([flash, nano], REQ, ctx("google=timeout", { signal: controller.signal })))) as AllCandidatesFailed;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err).toBeInstanceOf(AllCandidatesFailed);
    expect(err.aborted).toBe(true);
    expect(err.attempts).toEqual([expect.objectContaining({ model: "gemini-2.5-flash", error: "aborted by the client" })]);
  });

  it("times out after UPSTREAM_TIMEOUT_MS and falls back without retrying the silent model", async () => {
    const started = Date.now();
    const r = await complete([haiku, nano], REQ, ctx("anthropic=timeout", { env: { ...fast, UPSTREAM_TIMEOUT_MS: "300" } }));
    const elapsed = Date.now() - started;
    expect(r.model).toBe(nano);
    expect(r.attempts[0]).toMatchObject({ model: "claude-haiku-4-5", ok: false, status: null, error: "timed out after 300 ms" });
    expect(r.attempts).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    expect(r.upstreamMs).toBeGreaterThanOrEqual(290);
  });

  it("waits out injected latency, counts it as upstream time, and times out when it is too long", async () => {
    const slow = await complete([nano], REQ, ctx("gpt-5-nano=latency:200"));
    expect(slow.attempts).toHaveLength(1);
    expect(slow.upstreamMs).toBeGreaterThanOrEqual(190);
    const tooSlow = await complete([nano, haiku], REQ, ctx("gpt-5-nano=latency:2000", { env: { ...fast, UPSTREAM_TIMEOUT_MS: "100" } }));
    expect(tooSlow.model).toBe(haiku);
    expect(tooSlow.attempts[0]!.error).toBe("timed out after 100 ms");
  });

  it("counts `*N` per provider across its models", async () => {
    const r = await complete([nano, mini, model("gpt-5.2")], REQ, ctx("openai=503*2", { env: { ...fast, UPSTREAM_MAX_RETRIES: "0" } }));
    expect(r.attempts.map((a) => [a.model, a.status])).toEqual([["gpt-5-nano", 503], ["gpt-5-mini", 503], ["gpt-5.2", 200]]);
    expect(r.fallbackFrom).toBe(nano);
  });

  it("shares attempt counts between calls made with one context (one client request)", async () => {
    const shared = ctx("gpt-5-nano=429*1");
    expect((await complete([nano], REQ, shared)).attempts).toHaveLength(2);
    expect((await complete([nano], REQ, shared)).attempts).toHaveLength(1);
  });

  it("throws AllCandidatesFailed with every attempt when all candidates fail (each endpoint maps it to its code)", async () => {
    const err = await caught(complete([nano, haiku], REQ, ctx("openai=500,anthropic=400")));
    expect(err).toBeInstanceOf(AllCandidatesFailed);
    const e = err as AllCandidatesFailed;
    expect(e.aborted).toBe(false);
    expect(e.attempts.length).toBe(4);
    expect(e.message).toContain("claude-haiku-4-5");
    expect(e.message).not.toMatch(/\.\.$/);
  });

  it("throws NoProviderConfigured when nothing is servable (no keyless upstream handed in, no keys)", async () => {
    const off = { ...env, SANDBOX_UPSTREAM: "off" };
    for (const call of [complete, stream]) {
      const err = await caught(call([nano, haiku], REQ, { env: off }));
      expect(err).toBeInstanceOf(NoProviderConfigured);
    }
  });

  it("skips candidates that are not servable and still reports the intended model as fallbackFrom", async () => {
    const r = await complete([nano, haiku], REQ, { env: { ...env, SANDBOX_UPSTREAM: "off", ANTHROPIC_API_KEY: "k" }, fetch: async () => Response.json(anthropicResponse) });
    expect(r.model).toBe(haiku);
    expect(r.fallbackFrom).toBe(nano);
    expect(r.attempts).toHaveLength(1);
  });
});

describe("a configured key", () => {
  it("bypasses the sandbox: the injected fetch gets the real URL, auth headers and body, and no sandbox headers", async () => {
    const seen: Request[] = [];
    const recording: FetchLike = async (input, init) => {
      seen.push(new Request(input, init));
      return Response.json(anthropicResponse);
    };
    const r = await complete([haiku], REQ, {
      env: { ...fast, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "https://anthropic.proxy.example/v1" },
      fetch: recording,
      keyless: sandboxUpstream("anthropic=503"),
    });
    expect(r.sandbox).toBe(false);
    expect(r.completion).toEqual({ content: "Paris is the capital of France.", toolCalls: [], finishReason: "stop", usage: { prompt_tokens: 21, completion_tokens: 10, total_tokens: 31 } });
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.url).toBe("https://anthropic.proxy.example/v1/messages");
    expect(req.method).toBe("POST");
    expect(req.headers.get("x-api-key")).toBe("sk-ant-test");
    expect(req.headers.get("anthropic-version")).toBe("2023-06-01");
    expect([...req.headers.keys()].filter((k) => k.startsWith("x-sandbox"))).toEqual([]);
    expect(await req.json()).toMatchObject({ model: "claude-haiku-4-5", max_tokens: 256, system: "You are terse." });
  });

  it("honours retry-after on a 429, and moves on when it asks for more than the cap", async () => {
    let calls = 0;
    const limited: FetchLike = async () =>
      ++calls === 1 ? Response.json({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "1" } }) : Response.json(anthropicResponse);
    const keyed = { ...fast, ANTHROPIC_API_KEY: "k" };
    const started = Date.now();
    const r = await complete([haiku], REQ, { env: keyed, fetch: limited });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(r.attempts.map((a) => a.status)).toEqual([429, 200]);

    calls = 0;
    const t2 = Date.now();
    const capped = await complete([haiku, nano], REQ, { env: { ...keyed, UPSTREAM_RETRY_MAX_WAIT_MS: "500" }, fetch: limited, keyless: sandboxUpstream(null) });
    expect(Date.now() - t2).toBeLessThan(500);
    expect(capped.model).toBe(nano);
    expect(capped.attempts.map((a) => [a.model, a.status])).toEqual([["claude-haiku-4-5", 429], ["gpt-5-nano", 200]]);
  });

  it("retries a network error", async () => {
    let calls = 0;
    const flaky: FetchLike = async () => {
      if (++calls === 1) throw new TypeError("Network connection lost.");
      return Response.json(anthropicResponse);
    };
    const r = await complete([haiku], REQ, { env: { ...fast, ANTHROPIC_API_KEY: "k" }, fetch: flaky });
    expect(r.attempts.map((a) => [a.ok, a.error])).toEqual([[false, "network error: Network connection lost."], [true, null]]);
  });
});

describe("streams", () => {
  it("retry and fall back before the first content delta: 429 then success, cut0 and malformed fall back", async () => {
    const retried = await stream([nano], REQ, ctx("gpt-5-nano=429*1"));
    expect(retried.attempts.map((a) => a.status)).toEqual([429, 200]);
    expect((await drain(retried)).content).toContain("GPT-5 nano");

    for (const fault of ["cut0", "malformed"]) {
      const s = await stream([haiku, flash], REQ, ctx(`anthropic=${fault}`));
      expect(s.model).toBe(flash);
      expect(s.fallbackFrom).toBe(haiku);
      expect(s.attempts.map((a) => [a.model, a.ok])).toEqual([["claude-haiku-4-5", false], ["gemini-2.5-flash", true]]);
      expect((await drain(s)).done.finishReason).toBe("stop");
    }
  });

  it("throw an UpstreamError from the iterator when the stream is cut after its first content", async () => {
    const s = await stream([nano, haiku], REQ, ctx("gpt-5-nano=cut"));
    expect(s.model).toBe(nano);
    const { got, sink } = collector();
    const piped = s.pipe(sink);
    await new Response(piped.readable).text();
    await piped.ended;
    const err = got.failed;
    expect(got.deltas).toHaveLength(1);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ model: "gpt-5-nano", provider: "openai", status: null });
  });

  it("throw an UpstreamError carrying the status of an error event after the first content (Anthropic overloaded)", async () => {
    const s = await stream([haiku, nano], REQ, { env: { ...fast, ANTHROPIC_API_KEY: "k" }, fetch: async () => new Response(streamOf(anthropicStreamError)) });
    expect(s.model).toBe(haiku);
    const err = await caught(drain(s));
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ status: 529, model: "claude-haiku-4-5", provider: "anthropic" });
  });

  it("time out an upstream that goes silent after the first content", async () => {
    const encoder = new TextEncoder();
    const stalls: FetchLike = async () => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent) return new Promise(() => {}); // silent from here on
          sent = true;
          c.enqueue(encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] })}\n\n`));
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    };
    const s = await stream([nano], REQ, { env: { ...fast, OPENAI_API_KEY: "k", UPSTREAM_TIMEOUT_MS: "300" }, fetch: stalls });
    const started = Date.now();
    const err = await caught(drain(s));
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toContain("timed out after 300 ms");
  });

  it("do not time out while the consumer, not the upstream, is slow", async () => {
    const s = await stream([flash], REQ, ctx(null, { env: { ...fast, UPSTREAM_TIMEOUT_MS: "100" } }));
    const { got, sink } = collector();
    const reader = s.pipe(sink).readable.getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 250));
    while (!(await reader.read()).done);
    expect(got.failed).toBeUndefined();
    expect(got.deltas.length).toBeGreaterThanOrEqual(3);
  });

  it("fall back when every retry of the first model fails before content, and 502 when all do", async () => {
    const err = (await caught(stream([nano, haiku], REQ, ctx("openai=503,anthropic=cut0")))) as AllCandidatesFailed;
    expect(err).toBeInstanceOf(AllCandidatesFailed);
    expect(err.attempts.map((a) => a.model)).toEqual(["gpt-5-nano", "gpt-5-nano", "gpt-5-nano", "claude-haiku-4-5"]);
  });
});
