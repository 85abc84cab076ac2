import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { streamChat, type ChatInput } from "../../src/calls/chat";
import { callDeps, type CallDeps } from "../../src/calls/deps";
import type { CallRecord } from "../../src/calls/record";
import { chatSse } from "../../src/calls/render";
import { newKey } from "../helpers";
import { sseEvents } from "../chat/sse-parse";

/**
 * The streamed chat response in workerd, read by a client chunk by chunk: the upstream body is read
 * and converted in one loop, so the frames of one upstream read are one chunk of the response, a read
 * after the clock moved is written at once (the joining of reads within one tick is tested in
 * test/providers/stream-pipe.node.test.ts, where the clock can be held), and a client that cancels
 * the response cancels the upstream and still leaves the call recorded.
 */
const enc = new TextEncoder();
const dec = new TextDecoder();
const content = (text: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
const FINISH = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } })}\n\ndata: [DONE]\n\n`;

/** An OpenAI upstream whose body the test feeds read by read, recording whether it was cancelled. */
function upstream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const seen = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c), cancel: () => void (seen.cancelled = true) }, { highWaterMark: 0 });
  return { seen, fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }), send: (t: string) => ctl.enqueue(enc.encode(t)), end: () => ctl.close() };
}

async function started(up: ReturnType<typeof upstream>, requestId: string) {
  const { record: key } = await newKey();
  const records: CallRecord[] = [];
  const deps: CallDeps = { ...callDeps({ env: { ...env, SANDBOX_UPSTREAM: "off", OPENAI_API_KEY: "k" }, key, faults: null, waitUntil: () => {} }), fetch: up.fetch, record: (r) => void records.push(r) };
  const input: ChatInput = { requestId, endpoint: "/v1/chat/completions", startedAt: performance.now(), messages: [{ role: "user", content: "Say a few words." }], model: "gpt-5-nano", maxTokens: 50, temperature: 0 };
  up.send(content("Hello"));
  const s = await streamChat(deps, input);
  const ended: Promise<unknown>[] = [];
  const reader = chatSse(s, (p) => void ended.push(p), undefined, { includeUsage: false }).getReader();
  const read = async () => {
    const r = await reader.read();
    return r.done ? null : sseEvents(dec.decode(r.value)).map((e) => (e === "[DONE]" ? e : JSON.parse(e)));
  };
  return { reader, read, records, ended };
}

describe("calls: the streamed response, chunk by chunk", () => {
  it("writes one upstream read that brings several events as one chunk of OpenAI chunks", async () => {
    const up = upstream();
    const { read, records, ended } = await started(up, "req_stream_writes_1");
    const first = await read();
    expect(first!.map((c) => c.choices[0].delta)).toEqual([{ role: "assistant", content: "" }, { content: "Hello" }]);
    const next = read();
    up.send(content(",") + content(" world") + content("!"));
    expect((await next)!.map((c) => c.choices[0].delta.content)).toEqual([",", " world", "!"]);
    const last = read();
    up.send(FINISH);
    up.end();
    const closing = (await last)!;
    expect(closing[0]).toMatchObject({ choices: [{ delta: {}, finish_reason: "stop" }], svc: { proof: { request_id: "req_stream_writes_1" } } });
    expect(closing[1]).toBe("[DONE]");
    expect(await read()).toBeNull();
    await Promise.all(ended);
    expect(records).toHaveLength(1);
    expect(records[0]!.usage).toMatchObject({ requestId: "req_stream_writes_1", promptTokens: 5, completionTokens: 9 });
  });

  it("writes a read at once when the clock has moved since the last write", async () => {
    const up = upstream();
    const { read, reader } = await started(up, "req_stream_writes_4");
    await read();
    await new Promise((r) => setTimeout(r, 5));
    const next = read();
    up.send(content(" later"));
    // Written before any timer runs: a token after a pause is not held back.
    const first = await Promise.race([next, new Promise((r) => setTimeout(() => r("a timer ran first"), 0))]);
    expect(first).toEqual([expect.objectContaining({ choices: [expect.objectContaining({ delta: { content: " later" } })] })]);
    await reader.cancel();
  });

  it("cancels the upstream when the client cancels the response, and records the call with the tokens produced", async () => {
    const up = upstream();
    const { reader, read, records, ended } = await started(up, "req_stream_writes_2");
    await read();
    const next = read();
    up.send(content(" there, how are you"));
    await next;
    await reader.cancel();
    await Promise.all(ended);
    expect(up.seen.cancelled).toBe(true);
    expect(records).toHaveLength(1);
    // "Hello there, how are you": 24 characters, 6 tokens estimated.
    expect(records[0]!.usage).toMatchObject({ requestId: "req_stream_writes_2", completionTokens: 6 });
    expect(records[0]!.receipt).not.toBeNull();
  });
});
