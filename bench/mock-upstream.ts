/**
 * The mock upstream: a plain Node http server on loopback that answers the three wire protocols
 * the provider adapters speak, with fixed bodies, so that everything the benchmark sees beyond
 * this server's (constant) cost is the cost of what sits in front of it.
 *
 * - OpenAI-compatible: POST .../chat/completions (11 of the 12 providers). A completion of about
 *   1.4 KB, or with `stream: true` Server-Sent Events: 64 content chunks, a finish chunk carrying
 *   usage, then `data: [DONE]`.
 * - Anthropic Messages: POST .../messages, the same text as one message or as the Messages event
 *   stream (message_start, 64 content_block_delta events, message_delta, message_stop).
 * - Google Gemini: POST .../models/{id}:generateContent, and :streamGenerateContent (SSE with
 *   `alt=sse`, else a streamed JSON array), 64 chunks.
 *
 * It runs as its own process (`node --import tsx bench/mock-upstream.ts`) so that the load
 * generator and the latency client in the orchestrating process never share an event loop with
 * it: a busy client would otherwise be billed to the upstream, and to the gateway behind it.
 * It prints one line, `{"port":N}`, when it listens.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const STREAM_CHUNKS = 64;

/** 64 pieces of text; joined they are the non-streamed answer (about 1 KB of content). */
const PIECES: readonly string[] = Array.from({ length: STREAM_CHUNKS }, (_, i) => `word${String(i).padStart(2, "0")} filler.. `);
const TEXT = PIECES.join("");
const CREATED = 1_767_225_600;

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

interface Parsed {
  stream: boolean;
  model: string;
  promptChars: number;
}

function parseBody(raw: string): Parsed {
  try {
    const body = JSON.parse(raw) as { stream?: unknown; model?: unknown };
    return { stream: body.stream === true, model: typeof body.model === "string" ? body.model : "mock-model", promptChars: raw.length };
  } catch {
    return { stream: false, model: "mock-model", promptChars: raw.length };
  }
}

function openaiCompletion(model: string, promptChars: number) {
  const prompt = tokens(promptChars);
  const completion = tokens(TEXT.length);
  return JSON.stringify({
    id: "chatcmpl-bench000000000000000000000000",
    object: "chat.completion",
    created: CREATED,
    model,
    system_fingerprint: "fp_bench",
    choices: [{ index: 0, message: { role: "assistant", content: TEXT, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  });
}

function openaiStream(model: string, promptChars: number): string[] {
  const head = { id: "chatcmpl-bench000000000000000000000000", object: "chat.completion.chunk", created: CREATED, model, system_fingerprint: "fp_bench" };
  const events = PIECES.map((piece, i) =>
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: i === 0 ? { role: "assistant", content: piece } : { content: piece }, logprobs: null, finish_reason: null }] })}\n\n`,
  );
  const prompt = tokens(promptChars);
  const completion = tokens(TEXT.length);
  events.push(
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`,
    "data: [DONE]\n\n",
  );
  return events;
}

function anthropicMessage(model: string, promptChars: number) {
  return JSON.stringify({
    id: "msg_bench0000000000000000",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text: TEXT }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: tokens(promptChars), output_tokens: tokens(TEXT.length) },
  });
}

function anthropicStream(model: string, promptChars: number): string[] {
  const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    ev("message_start", {
      type: "message_start",
      message: { id: "msg_bench0000000000000000", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: tokens(promptChars), output_tokens: 1 } },
    }),
    ev("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ...PIECES.map((text) => ev("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
    ev("content_block_stop", { type: "content_block_stop", index: 0 }),
    ev("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: tokens(TEXT.length) } }),
    ev("message_stop", { type: "message_stop" }),
  ];
}

function geminiChunk(text: string, model: string, last: boolean, promptChars: number) {
  const prompt = tokens(promptChars);
  const completion = tokens(TEXT.length);
  return {
    candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0, ...(last ? { finishReason: "STOP" } : {}) }],
    ...(last ? { usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion } } : {}),
    modelVersion: model,
  };
}

function geminiStream(model: string, promptChars: number, sse: boolean): string[] {
  const chunks = PIECES.map((piece, i) => geminiChunk(piece, model, i === PIECES.length - 1, promptChars));
  if (sse) return chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`);
  // Without alt=sse the API streams one JSON array, element by element.
  return chunks.map((c, i) => `${i === 0 ? "[" : ",\r\n"}${JSON.stringify(c)}${i === chunks.length - 1 ? "]" : ""}`);
}

function sendJson(res: ServerResponse, body: string) {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * One write per event, each after a turn of the event loop, so the events leave as separate
 * TCP segments the way a real upstream's tokens do, and the client sees each one arrive.
 */
function sendEvents(res: ServerResponse, events: readonly string[], contentType: string) {
  res.writeHead(200, { "content-type": contentType, "cache-control": "no-cache" });
  let i = 0;
  const next = () => {
    if (res.destroyed) return;
    if (i === events.length) {
      res.end();
      return;
    }
    res.write(events[i++]!);
    setImmediate(next);
  };
  next();
}

function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
  const url = new URL(req.url ?? "/", "http://mock");
  const path = url.pathname;
  if (req.method === "GET" && path === "/health") return sendJson(res, '{"ok":true}');
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  const body = parseBody(raw);
  if (path.endsWith("/chat/completions")) {
    return body.stream ? sendEvents(res, openaiStream(body.model, body.promptChars), "text/event-stream") : sendJson(res, openaiCompletion(body.model, body.promptChars));
  }
  if (path.endsWith("/messages")) {
    return body.stream ? sendEvents(res, anthropicStream(body.model, body.promptChars), "text/event-stream") : sendJson(res, anthropicMessage(body.model, body.promptChars));
  }
  const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (gemini) {
    const model = decodeURIComponent(gemini[1]!);
    if (gemini[2] === "generateContent") {
      return sendJson(res, JSON.stringify(geminiChunk(TEXT, model, true, body.promptChars)));
    }
    const sse = url.searchParams.get("alt") === "sse";
    return sendEvents(res, geminiStream(model, body.promptChars, sse), sse ? "text/event-stream" : "application/json");
  }
  res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `mock upstream: no route for ${path}` } }));
}

export function startMockUpstream(port = 0, host = "127.0.0.1"): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => handle(req, res, Buffer.concat(parts).toString("utf8")));
  });
  // workerd and the load generators hold connections open between requests; do not cut them.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({ port: bound, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

// Run as a process: print the port, serve until killed.
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 0);
  const { port: bound } = await startMockUpstream(port);
  process.stdout.write(`${JSON.stringify({ port: bound })}\n`);
  process.on("SIGTERM", () => process.exit(0));
}
