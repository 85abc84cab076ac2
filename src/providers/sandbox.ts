/**
 * The sandbox upstream: an in-process server for the three wire protocols, reached through the
 * same adapters and the same fetch-shaped seam as a real provider, at
 * `https://sandbox.local/<provider>/...`. call.ts routes to it only when SANDBOX_UPSTREAM is "on"
 * and the provider has no key. Answers come from sandbox-answer.ts; faults from the forwarded
 * `x-sandbox-fault` header (sandbox-faults.ts).
 */
import { findModel, MODELS, type Model, type ProviderId } from "../catalog/models";
import { isObject, type Json } from "./adapter";
import { PROVIDER_REGISTRY } from "./registry";
import { chunksOf, sandboxAnswer, type SandboxAnswer, type SandboxPrompt } from "./sandbox-answer";
import { faultFor, FaultSyntaxError, parseFaults, SANDBOX_HEADERS, type Fault } from "./sandbox-faults";
import { sseBytes } from "./sse";
import type { Protocol } from "./types";

export const SANDBOX_ORIGIN = "https://sandbox.local";

/** What a protocol handler read from the request. */
interface Parsed {
  upstreamId: string;
  stream: boolean;
  /** OpenAI only: whether `stream_options.include_usage` asked for a usage chunk. */
  streamUsage: boolean;
  prompt: SandboxPrompt;
}

class BadRequest extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

// ---- error bodies, each in its protocol's own shape ----

const ANTHROPIC_ERROR_TYPE: Record<number, string> = {
  400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
  413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 504: "timeout_error", 529: "overloaded_error",
};
const GEMINI_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
};

function errorResponse(protocol: Protocol, status: number, message: string): Response {
  if (protocol === "anthropic") {
    const type = ANTHROPIC_ERROR_TYPE[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
    return json({ type: "error", error: { type, message } }, status);
  }
  if (protocol === "gemini") {
    return json({ error: { code: status, message, status: GEMINI_STATUS[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION") } }, status);
  }
  const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return json({ error: { message, type, param: null, code: status === 429 ? "rate_limit_exceeded" : null } }, status);
}

// ---- request parsing per protocol ----

const text = (v: unknown, what: string): string => {
  if (typeof v === "string") return v;
  // Content given as blocks/parts: keep the text ones.
  if (Array.isArray(v)) return v.map((b) => (isObject(b) && typeof b.text === "string" ? b.text : "")).join("");
  throw new BadRequest(`${what} must be a string or a list of text blocks`);
};

const nonNegativeInt = (v: unknown, what: string): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new BadRequest(`${what} must be a non-negative integer`);
  return v;
};

function parseOpenAi(body: Json): Parsed {
  if (typeof body.model !== "string") throw new BadRequest("model is required");
  if (!Array.isArray(body.messages) || !body.messages.length) throw new BadRequest("messages must be a non-empty array");
  const prompt: SandboxPrompt = { system: "", turns: [], maxTokens: null };
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || typeof m.role !== "string") throw new BadRequest(`messages[${i}] needs a role`);
    const content = text(m.content, `messages[${i}].content`);
    if (m.role === "system" || m.role === "developer") prompt.system += content;
    else if (m.role === "user" || m.role === "assistant") prompt.turns.push({ role: m.role, text: content });
    else throw new BadRequest(`messages[${i}].role "${m.role}" is not supported by the sandbox`);
  }
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (max !== undefined) prompt.maxTokens = nonNegativeInt(max, "max_tokens");
  const stream = body.stream === true;
  const streamUsage = stream && isObject(body.stream_options) && body.stream_options.include_usage === true;
  return { upstreamId: body.model, stream, streamUsage, prompt };
}

function parseAnthropic(body: Json): Parsed {
  if (typeof body.model !== "string") throw new BadRequest("model: Field required");
  if (body.max_tokens === undefined) throw new BadRequest("max_tokens: Field required");
  if (!Array.isArray(body.messages) || !body.messages.length) throw new BadRequest("messages: at least one message is required");
  const prompt: SandboxPrompt = { system: body.system === undefined ? "" : text(body.system, "system"), turns: [], maxTokens: nonNegativeInt(body.max_tokens, "max_tokens") };
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || (m.role !== "user" && m.role !== "assistant")) throw new BadRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    prompt.turns.push({ role: m.role, text: text(m.content, `messages.${i}.content`) });
  }
  return { upstreamId: body.model, stream: body.stream === true, streamUsage: false, prompt };
}

function parseGemini(body: Json, upstreamId: string, stream: boolean): Parsed {
  if (!Array.isArray(body.contents) || !body.contents.length) throw new BadRequest("* GenerateContentRequest.contents: contents is not specified");
  const parts = (c: unknown, what: string) => (isObject(c) && Array.isArray(c.parts) ? text(c.parts, what) : "");
  const prompt: SandboxPrompt = { system: parts(body.systemInstruction, "systemInstruction"), turns: [], maxTokens: null };
  for (const [i, c] of body.contents.entries()) {
    if (!isObject(c) || !Array.isArray(c.parts)) throw new BadRequest(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty`);
    prompt.turns.push({ role: c.role === "model" ? "assistant" : "user", text: parts(c, `contents[${i}]`) });
  }
  const cfg = isObject(body.generationConfig) ? body.generationConfig : {};
  if (cfg.maxOutputTokens !== undefined) prompt.maxTokens = nonNegativeInt(cfg.maxOutputTokens, "generationConfig.maxOutputTokens");
  return { upstreamId, stream, streamUsage: false, prompt };
}

// ---- responses per protocol ----

interface Reply {
  model: Model;
  parsed: Parsed;
  answer: SandboxAnswer;
}

const created = () => Math.floor(Date.now() / 1000);

function openAiBody({ parsed, answer }: Reply) {
  return {
    id: `chatcmpl-sbx${answer.seed.slice(0, 24)}`,
    object: "chat.completion",
    created: created(),
    model: parsed.upstreamId,
    choices: [{ index: 0, message: { role: "assistant", content: answer.text, refusal: null }, finish_reason: answer.finishReason, logprobs: null }],
    usage: { prompt_tokens: answer.promptTokens, completion_tokens: answer.completionTokens, total_tokens: answer.promptTokens + answer.completionTokens },
  };
}

function anthropicBody({ parsed, answer }: Reply) {
  return {
    id: `msg_sbx${answer.seed.slice(0, 24)}`,
    type: "message",
    role: "assistant",
    model: parsed.upstreamId,
    content: [{ type: "text", text: answer.text }],
    stop_reason: answer.finishReason === "length" ? "max_tokens" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: answer.promptTokens, output_tokens: answer.completionTokens },
  };
}

const geminiUsage = (a: SandboxAnswer, final: boolean) =>
  final
    ? { promptTokenCount: a.promptTokens, candidatesTokenCount: a.completionTokens, totalTokenCount: a.promptTokens + a.completionTokens }
    : { promptTokenCount: a.promptTokens, totalTokenCount: a.promptTokens };

function geminiBody({ parsed, answer }: Reply, textPart = answer.text, final = true) {
  const candidate: Json = { content: { parts: [{ text: textPart }], role: "model" }, index: 0 };
  if (final) candidate.finishReason = answer.finishReason === "length" ? "MAX_TOKENS" : "STOP";
  return { candidates: [candidate], usageMetadata: geminiUsage(answer, final), modelVersion: parsed.upstreamId, responseId: `sbx${answer.seed.slice(0, 20)}` };
}

/**
 * The stream as SSE frames, with the index of the first frame that carries content, so the `cut`
 * faults know where to stop.
 */
function streamFrames(protocol: Protocol, reply: Reply): { frames: Uint8Array[]; firstContent: number } {
  const { parsed, answer } = reply;
  const pieces = chunksOf(answer.text);
  const frames: Uint8Array[] = [];
  if (protocol === "openai") {
    const head = { id: `chatcmpl-sbx${answer.seed.slice(0, 24)}`, object: "chat.completion.chunk", created: created(), model: parsed.upstreamId };
    const chunk = (delta: Json, finish: string | null) => sseBytes(JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] }));
    frames.push(chunk({ role: "assistant", content: "" }, null));
    for (const p of pieces) frames.push(chunk({ content: p }, null));
    frames.push(chunk({}, answer.finishReason));
    if (parsed.streamUsage) frames.push(sseBytes(JSON.stringify({ ...head, choices: [], usage: openAiBody(reply).usage })));
    frames.push(sseBytes("[DONE]"));
    return { frames, firstContent: 1 };
  }
  if (protocol === "anthropic") {
    const ev = (type: string, data: Json) => sseBytes(JSON.stringify({ type, ...data }), type);
    const message = { ...anthropicBody(reply), content: [], stop_reason: null, usage: { input_tokens: answer.promptTokens, output_tokens: 1 } };
    frames.push(ev("message_start", { message }), ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }), ev("ping", {}));
    for (const p of pieces) frames.push(ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: p } }));
    frames.push(
      ev("content_block_stop", { index: 0 }),
      ev("message_delta", { delta: { stop_reason: anthropicBody(reply).stop_reason, stop_sequence: null }, usage: { output_tokens: answer.completionTokens } }),
      ev("message_stop", {}),
    );
    return { frames, firstContent: 3 };
  }
  // Gemini: every frame a full response with the next part; the last one with finishReason. CRLF, as Google sends.
  if (!pieces.length) pieces.push("");
  pieces.forEach((p, i) => frames.push(sseBytes(JSON.stringify(geminiBody(reply, p, i === pieces.length - 1)), undefined, "\r\n")));
  return { frames, firstContent: 0 };
}

/** One frame per read, so the client sees the answer arrive in pieces. */
function sseResponse(frames: Uint8Array[]): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < frames.length) controller.enqueue(frames[i++]!);
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

/** A 200 that the caller cannot use: a malformed body, or a connection that stops early. */
function broken(protocol: Protocol, fault: "malformed" | "cut" | "cut0", reply: Reply): Response {
  if (fault === "malformed") {
    if (reply.parsed.stream) return sseResponse([sseBytes('{"sandbox": "malformed stream", "choices": [{"delta": {"content": "Hel'), sseBytes("not json at all")]);
    return new Response('{"id": "sandbox-malformed", "choices": [{"message": {"content": "Hel', { headers: { "content-type": "application/json" } });
  }
  if (!reply.parsed.stream) {
    // A body that stops half-way is the non-streaming form of a cut connection.
    const whole = JSON.stringify(protocol === "openai" ? openAiBody(reply) : protocol === "anthropic" ? anthropicBody(reply) : geminiBody(reply));
    return new Response(whole.slice(0, Math.floor(whole.length / 2)), { headers: { "content-type": "application/json" } });
  }
  const { frames, firstContent } = streamFrames(protocol, reply);
  return sseResponse(frames.slice(0, fault === "cut" ? firstContent + 1 : firstContent));
}

/**
 * Resolves after `ms` (never, for Infinity); rejects when the caller aborts, as fetch does, so a
 * timeout or a client that went away ends the wait.
 */
const wait = (ms: number, signal: AbortSignal | null | undefined) =>
  new Promise<void>((resolve, reject) => {
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
    signal?.addEventListener(
      "abort",
      () => {
        if (timer !== undefined) clearTimeout(timer);
        reject(signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
      },
      { once: true },
    );
  });

/** Routes a sandbox URL path to its protocol and, for Gemini, the model and method in the path. */
function endpoint(provider: ProviderId, rest: string): { protocol: Protocol; geminiModel?: string; stream?: boolean } | null {
  const protocol = PROVIDER_REGISTRY[provider].protocol;
  if (protocol === "openai") return rest === "chat/completions" ? { protocol } : null;
  if (protocol === "anthropic") return rest === "messages" ? { protocol } : null;
  const m = /^models\/(.+):(generateContent|streamGenerateContent)$/.exec(rest);
  return m ? { protocol, geminiModel: m[1]!, stream: m[2] === "streamGenerateContent" } : null;
}

/** The sandbox upstream, fetch-shaped: `(input, init?) => Promise<Response>`. */
export async function sandboxFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const signal = init?.signal ?? request.signal;
  const url = new URL(request.url);
  const [provider, ...restParts] = url.pathname.slice(1).split("/");
  if (url.origin !== SANDBOX_ORIGIN || !provider || !(provider in PROVIDER_REGISTRY)) {
    return json({ error: { message: `The sandbox upstream does not serve ${request.url}.` } }, 404);
  }
  const providerId = provider as ProviderId;
  const route = endpoint(providerId, decodeURIComponent(restParts.join("/")));
  if (!route || request.method !== "POST") {
    return errorResponse(PROVIDER_REGISTRY[providerId].protocol, 404, `No sandbox endpoint ${request.method} ${url.pathname}.`);
  }
  const { protocol } = route;
  const raw = await request.text();

  let parsed: Parsed;
  try {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new BadRequest("The request body is not valid JSON.");
    }
    if (!isObject(body)) throw new BadRequest("The request body must be a JSON object.");
    if (protocol === "openai") parsed = parseOpenAi(body);
    else if (protocol === "anthropic") parsed = parseAnthropic(body);
    else {
      if (route.stream && url.searchParams.get("alt") !== "sse") throw new BadRequest("The sandbox streams Gemini only with alt=sse.");
      parsed = parseGemini(body, route.geminiModel!, route.stream!);
    }
  } catch (err) {
    if (err instanceof BadRequest) return errorResponse(protocol, err.status, err.message);
    throw err;
  }

  const model = MODELS.find((m) => m.provider === providerId && m.upstream_id === parsed.upstreamId);
  if (!model) return errorResponse(protocol, 404, `The model \`${parsed.upstreamId}\` does not exist at ${providerId} (sandbox).`);

  let fault: Fault | null = null;
  const faultHeader = request.headers.get(SANDBOX_HEADERS.fault);
  if (faultHeader) {
    try {
      const attempt = Number(request.headers.get(SANDBOX_HEADERS.attempt) ?? 1);
      const providerAttempt = Number(request.headers.get(SANDBOX_HEADERS.providerAttempt) ?? attempt);
      const target = findModel(request.headers.get(SANDBOX_HEADERS.model) ?? "") ?? model;
      fault = faultFor(parseFaults(faultHeader), target.id, providerId, attempt, providerAttempt);
    } catch (err) {
      if (err instanceof FaultSyntaxError) return errorResponse(protocol, 400, err.message);
      throw err;
    }
  }
  if (fault?.kind === "timeout") await wait(Infinity, signal);
  if (fault?.kind === "latency") await wait(fault.ms, signal);
  if (fault?.kind === "status") return errorResponse(protocol, fault.status, `Sandbox fault injected: HTTP ${fault.status} for ${model.id}.`);

  const reply: Reply = { model, parsed, answer: sandboxAnswer(model, parsed.prompt, raw) };
  if (fault?.kind === "malformed" || fault?.kind === "cut" || fault?.kind === "cut0") return broken(protocol, fault.kind, reply);
  if (parsed.stream) return sseResponse(streamFrames(protocol, reply).frames);
  return json(protocol === "openai" ? openAiBody(reply) : protocol === "anthropic" ? anthropicBody(reply) : geminiBody(reply));
}
