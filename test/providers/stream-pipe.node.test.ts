import { afterEach, describe, expect, it, vi } from "vitest";
import { findModel } from "../../src/catalog/models";
import { openStream, type Route } from "../../src/providers/attempt";
import { anthropicAdapter } from "../../src/providers/anthropic";
import { openaiAdapter } from "../../src/providers/openai";
import { STREAM_BACKLOG, pipeStream } from "../../src/providers/stream-pipe";
import type { StreamDelta, StreamSink, TokenUsage } from "../../src/providers/types";
import { UpstreamError } from "../../src/providers/upstream-error";

/**
 * The stream pipe under plain Node web streams: the upstream body read and converted in one loop,
 * one write per upstream read (reads within one tick of the isolate's clock joined), and every way
 * a stream ends reaching the sink exactly once. Node's clock moves all the time; the tests of the
 * joining hold it still, as workerd's does between two I/O events.
 */
const nano = findModel("gpt-5-nano")!;
const haiku = findModel("claude-haiku-4-5")!;
const enc = new TextEncoder();
const dec = new TextDecoder();

const content = (text: string, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: finish }] })}\n\n`;
const FINISH = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } })}\n\ndata: [DONE]\n\n`;

/** An upstream body the test feeds read by read; it records the reads asked of it and its cancellation. */
function upstream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const seen = { pulls: 0, cancelled: null as unknown };
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (ctl = c),
      pull: () => void seen.pulls++,
      cancel: (reason) => void (seen.cancelled = reason ?? "cancelled"),
    },
    { highWaterMark: 0 },
  );
  return { body, seen, send: (text: string) => ctl.enqueue(enc.encode(text)), end: () => ctl.close(), fail: (e: Error) => ctl.error(e) };
}

/** A sink writing one line per delta (its text), so each chunk the client reads shows what went into it. */
function recorder() {
  const got = { done: null as { finishReason: string; usage: TokenUsage } | null, failed: [] as Array<Error | null> };
  const lines = (ds: readonly StreamDelta[]) => ds.map((d) => `${d.type === "delta" ? d.content : `tool:${d.call.arguments}`}\n`).join("");
  const sink: StreamSink = {
    open: (first) => `open\n${lines(first)}`,
    deltas: lines,
    done: (finishReason, usage) => ((got.done = { finishReason, usage }), "done\n"),
    failed: (err) => (got.failed.push(err), `failed: ${err?.message}\n`),
  };
  return { got, sink };
}

async function opened(up: ReturnType<typeof upstream>, timeoutMs = 5_000, model = nano) {
  const route: Route = { model, adapter: model === nano ? openaiAdapter : anthropicAdapter, baseUrl: "https://upstream.example", apiKey: "k", fetch: async () => new Response(up.body), sandbox: false };
  const out = await openStream({ route, req: { messages: [{ role: "user", content: "hi" }], maxTokens: 50, temperature: 0 }, timeoutMs, signal: undefined, clock: { ms: 0 } });
  if (!out.ok) throw new Error(out.error);
  return out.value;
}

/** An upstream that has sent its first content ("a"), opened and piped into a recorder. */
async function piping(timeoutMs = 5_000) {
  const up = upstream();
  up.send(content("a"));
  const { got, sink } = recorder();
  const piped = pipeStream(await opened(up, timeoutMs), nano, estimate, sink);
  return { up, got, piped };
}

const estimate = (produced: string): TokenUsage => ({ prompt_tokens: 1, completion_tokens: produced.length, total_tokens: produced.length + 1 });
const text = (r: ReadableStreamReadResult<Uint8Array>) => (r.done ? null : dec.decode(r.value));

describe("stream pipe", () => {
  afterEach(() => vi.restoreAllMocks());

  it("joins reads that arrive in the clock tick of the last write, and writes them on a timer or with the next read of a later tick", async () => {
    let now = 1_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const { up, piped } = await piping();
    const reader = piped.readable.getReader();
    expect(text(await reader.read())).toBe("open\na\n");
    // Three upstream reads, the clock where it was when "a" went out: one chunk, by the timer.
    const next = reader.read();
    for (const t of ["b", "c", "d"]) up.send(content(t));
    expect(text(await next)).toBe("b\nc\nd\n");
    // Reads in that tick wait; the first read after the clock moved takes them along at once.
    const joined = reader.read();
    up.send(content("e"));
    // setImmediate runs before any timer of this loop turn can: "e" is read and waits, unwritten.
    await new Promise((r) => setImmediate(r));
    now += 1;
    up.send(content("f"));
    expect(text(await joined)).toBe("e\nf\n");
    // A read in a later tick than the last write goes out at once, before any timer.
    now += 5;
    const atOnce = reader.read();
    up.send(content("g"));
    expect(await Promise.race([atOnce.then(text), new Promise((r) => setTimeout(() => r("a timer ran first"), 0))])).toBe("g\n");
    await reader.cancel();
  });

  it("writes the frames of one upstream read that brings several events as ONE chunk", async () => {
    const { up, got, piped } = await piping();
    const reader = piped.readable.getReader();
    expect(text(await reader.read())).toBe("open\na\n");
    const second = reader.read();
    up.send(content("b") + content("c") + content("d"));
    expect(text(await second)).toBe("b\nc\nd\n");
    // An event split across reads is written once it is whole.
    const third = reader.read();
    const e = content("e");
    up.send(e.slice(0, 20));
    up.send(e.slice(20) + FINISH);
    expect(text(await third)).toBe("e\n");
    const last = reader.read();
    up.end();
    expect(text(await last)).toBe("done\n");
    expect((await reader.read()).done).toBe(true);
    await piped.ended;
    expect(got).toEqual({ done: { finishReason: "stop", usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } }, failed: [] });
  });

  it("coalesces what arrives while the client has not read into the next chunk", async () => {
    const { up, piped } = await piping();
    for (const t of ["b", "c", "d"]) up.send(content(t));
    up.send(FINISH);
    up.end();
    await piped.ended;
    expect(await new Response(piped.readable).text()).toBe("open\na\nb\nc\nd\ndone\n");
  });

  it("estimates usage from the text streamed when the upstream reports none", async () => {
    const up = upstream();
    up.send(content("hello"));
    const { got, sink } = recorder();
    const piped = pipeStream(await opened(up), nano, estimate, sink);
    up.send(content(" world", "stop") + "data: [DONE]\n\n");
    up.end();
    await new Response(piped.readable).text();
    expect(got.done).toEqual({ finishReason: "stop", usage: estimate("hello world") });
  });

  it("hands a client's cancel to the sink as failed(null) and cancels the upstream", async () => {
    const { up, got, piped } = await piping();
    const reader = piped.readable.getReader();
    await reader.read();
    await reader.cancel("client went away");
    await piped.ended;
    expect(got.failed).toEqual([null]);
    expect(got.done).toBeNull();
    await expect.poll(() => up.seen.cancelled).toBeTruthy();
  });

  it("ends with the sink's failure frames, not a stream error, when the upstream read fails after the first delta", async () => {
    const { up, got, piped } = await piping();
    const reader = piped.readable.getReader();
    expect(text(await reader.read())).toBe("open\na\n");
    const next = reader.read();
    up.send(content("b"));
    expect(text(await next)).toBe("b\n");
    up.fail(new TypeError("Network connection lost."));
    expect(text(await reader.read())).toBe("failed: gpt-5-nano: network error: Network connection lost.\n");
    expect((await reader.read()).done).toBe(true);
    expect(got.failed[0]).toBeInstanceOf(UpstreamError);
  });

  it("fails on an error event after the first delta with its status, and cancels the upstream", async () => {
    const up = upstream();
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    up.send(ev("message_start", { message: { usage: { input_tokens: 3, output_tokens: 1 } } }) + ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Hi" } }));
    const { got, sink } = recorder();
    const piped = pipeStream(await opened(up, 5_000, haiku), haiku, estimate, sink);
    up.send(ev("error", { error: { type: "overloaded_error", message: "Overloaded" } }));
    expect(await new Response(piped.readable).text()).toMatch(/^open\nHi\nfailed: claude-haiku-4-5: .*Overloaded\n$/);
    expect(got.failed[0]).toMatchObject({ status: 529, model: "claude-haiku-4-5", provider: "anthropic" });
    await expect.poll(() => up.seen.cancelled).toBeTruthy();
  });

  it("fails a stream the upstream cut before it finished the answer", async () => {
    const { up, got, piped } = await piping();
    up.end();
    expect(await new Response(piped.readable).text()).toMatch(/^open\na\nfailed: gpt-5-nano: .*ended before/);
    expect(got.failed).toHaveLength(1);
  });

  it("times out an upstream that goes silent while the client reads", async () => {
    const { up, got, piped } = await piping(100);
    expect(await new Response(piped.readable).text()).toBe("open\na\nfailed: gpt-5-nano: timed out after 100 ms\n");
    expect(got.failed).toHaveLength(1);
    await expect.poll(() => up.seen.cancelled).toBeTruthy();
  });

  it("holds the upstream back while a slow client lets the backlog fill, without timing it out", async () => {
    const big = content("x".repeat(32 * 1024));
    const reads = Math.ceil((2 * STREAM_BACKLOG) / big.length);
    let sent = 0;
    // An upstream that answers every read at once: the only silence is the pipe not asking.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          if (sent === 0) c.enqueue(enc.encode(content("a")));
          else if (sent <= reads) c.enqueue(enc.encode(big));
          else {
            c.enqueue(enc.encode(FINISH));
            c.close();
          }
          sent++;
        },
      },
      { highWaterMark: 0 },
    );
    const { got, sink } = recorder();
    const route: Route = { model: nano, adapter: openaiAdapter, baseUrl: "https://upstream.example", apiKey: "k", fetch: async () => new Response(body), sandbox: false };
    const out = await openStream({ route, req: { messages: [{ role: "user", content: "hi" }], maxTokens: 50, temperature: 0 }, timeoutMs: 100, signal: undefined, clock: { ms: 0 } });
    if (!out.ok) throw new Error(out.error);
    const piped = pipeStream(out.value, nano, estimate, sink);
    await new Promise((r) => setTimeout(r, 400));
    expect(sent).toBeGreaterThan(1);
    expect(sent).toBeLessThan(reads);
    const text = await new Response(piped.readable).text();
    expect(text.split("x".repeat(32 * 1024)).length - 1).toBe(reads);
    expect(got.failed).toEqual([]);
    expect(got.done?.finishReason).toBe("stop");
  });
});
