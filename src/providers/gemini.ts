/**
 * Google Gemini generateContent (POST {base}/models/{model}:generateContent, `x-goog-api-key`) and
 * streamGenerateContent?alt=sse, whose messages are each a full GenerateContentResponse with the
 * next text part; the last one carries finishReason and the final usageMetadata. There is no end
 * marker: a finishReason is what tells a complete answer from a cut stream.
 */
import type { Model } from "../catalog/models";
import {
  contentDelta, errorBodyMessage, finishWithTools, isObject, num, parseJson, UpstreamFault, withChoices,
  type Adapter, type Json, type StreamDecoder, type UpstreamCompletion,
} from "./adapter";
import type { SseMessage } from "./sse";
import { usageOf } from "../cost/tokens";
import { argumentsObject, blockTurns, contentText, dataUrl, imageTypeOf, toolNameOf } from "./turns";
import type { Message, ModelRequest, ReasoningEffort, StreamDelta, TokenUsage, ToolCall } from "./types";

const FINISH: Record<string, string> = {
  STOP: "stop", MAX_TOKENS: "length", SAFETY: "content_filter", RECITATION: "content_filter",
  BLOCKLIST: "content_filter", PROHIBITED_CONTENT: "content_filter", SPII: "content_filter",
  IMAGE_SAFETY: "content_filter", LANGUAGE: "content_filter", MALFORMED_FUNCTION_CALL: "stop",
  OTHER: "stop", FINISH_REASON_UNSPECIFIED: "stop",
};
const finishReason = (raw: string | null) => (raw === null ? "stop" : FINISH[raw] ?? raw.toLowerCase());

/** Thinking tokens are billed as output, so they count as completion tokens. */
function usage(u: unknown): TokenUsage | null {
  if (!isObject(u)) return null;
  const prompt = num(u.promptTokenCount);
  if (prompt === null) return null;
  return usageOf(prompt, (num(u.candidatesTokenCount) ?? 0) + (num(u.thoughtsTokenCount) ?? 0));
}

interface Candidate {
  text: string;
  calls: ToolCall[];
  finish: string | null;
}

/**
 * The text, function calls and finish reason of a candidate (0 unless `which` says); thought
 * summaries are not part of the answer. Gemini's calls may come without an id: they are numbered
 * from `firstCall` in the answer.
 */
function candidate(c: unknown, firstCall = 0): Candidate | null {
  if (!isObject(c)) return null;
  let text = "";
  const calls: ToolCall[] = [];
  const parts = isObject(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
  for (const part of parts) {
    if (!isObject(part)) continue;
    if (typeof part.text === "string" && part.thought !== true) text += part.text;
    const fc = part.functionCall;
    if (isObject(fc) && typeof fc.name === "string") {
      calls.push({ id: typeof fc.id === "string" ? fc.id : `call_${firstCall + calls.length}`, name: fc.name, arguments: JSON.stringify(fc.args ?? {}) });
    }
  }
  return { text, calls, finish: typeof c.finishReason === "string" ? c.finishReason : null };
}

/** A message as Gemini parts: text, inlineData / fileData images, functionCall and functionResponse. */
function partsOf(all: readonly Message[]) {
  return (m: Message): Json[] => {
    if (m.role === "tool") {
      const text = contentText(m.content);
      let response: unknown;
      try {
        response = JSON.parse(text);
      } catch {
        response = text;
      }
      // functionResponse.response must be an object.
      const wrapped = isObject(response) ? response : { result: response };
      // The call id stays out: Gemini's own calls often have none, and ours may be synthesised.
      return [{ functionResponse: { name: toolNameOf(all, m.toolCallId), response: wrapped } }];
    }
    const out: Json[] = [];
    for (const p of typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content) {
      if (p.type === "text") {
        if (p.text) out.push({ text: p.text });
        continue;
      }
      const data = dataUrl(p.url);
      out.push(data ? { inlineData: { mimeType: data.mediaType, data: data.data } } : { fileData: { mimeType: imageTypeOf(p.url), fileUri: p.url } });
    }
    for (const c of m.toolCalls ?? []) out.push({ functionCall: { name: c.name, args: argumentsObject(c.arguments) } });
    return out.length ? out : [{ text: "" }];
  };
}

/** Thinking budgets per effort for 2.5 models; Gemini 3 takes a level instead. */
const firstCandidate = (body: Json): unknown => (Array.isArray(body.candidates) ? body.candidates[0] : undefined);

const THINKING_BUDGET: Record<ReasoningEffort, number> = { minimal: 0, low: 1024, medium: 8192, high: 24576 };

function thinkingConfig(model: Model, effort: ReasoningEffort): Json | null {
  if (!model.capabilities.includes("reasoning")) return null;
  if (/^gemini-3/.test(model.upstream_id)) return { thinkingLevel: effort === "minimal" || effort === "low" ? "low" : "high" };
  return { thinkingBudget: THINKING_BUDGET[effort] };
}

function generationConfig(model: Model, req: ModelRequest): Json {
  const cfg: Json = { maxOutputTokens: req.maxTokens, temperature: req.temperature };
  const o = req.options ?? {};
  if (o.topP !== undefined) cfg.topP = o.topP;
  if (o.seed !== undefined) cfg.seed = o.seed;
  if (o.stop?.length) cfg.stopSequences = o.stop;
  const f = o.responseFormat;
  if (f) cfg.responseMimeType = "application/json";
  if (f?.type === "json_schema") cfg.responseJsonSchema = f.schema;
  if (o.n !== undefined) cfg.candidateCount = o.n;
  const thinking = o.reasoningEffort ? thinkingConfig(model, o.reasoningEffort) : null;
  if (thinking) cfg.thinkingConfig = thinking;
  return cfg;
}

function toolsOf(req: ModelRequest, body: Json) {
  const o = req.options;
  if (!o?.tools?.length) return;
  body.tools = [{ functionDeclarations: o.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), parametersJsonSchema: t.parameters ?? { type: "object", properties: {} } })) }];
  const choice = o.toolChoice;
  if (choice) {
    const mode = choice === "none" ? "NONE" : choice === "auto" ? "AUTO" : "ANY";
    body.toolConfig = { functionCallingConfig: { mode, ...(typeof choice === "object" ? { allowedFunctionNames: [choice.name] } : {}) } };
  }
}

export const GEMINI_STATUS_OF: Record<string, number> = {
  INVALID_ARGUMENT: 400, FAILED_PRECONDITION: 400, UNAUTHENTICATED: 401, PERMISSION_DENIED: 403, NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429, INTERNAL: 500, UNAVAILABLE: 503, DEADLINE_EXCEEDED: 504,
};

function embeddedError(body: Json): UpstreamFault | null {
  if (!isObject(body.error)) return null;
  const e = body.error;
  const status = num(e.code) ?? (typeof e.status === "string" ? GEMINI_STATUS_OF[e.status] : undefined) ?? 500;
  return new UpstreamFault(`upstream ${typeof e.status === "string" ? e.status : "error"}: ${typeof e.message === "string" ? e.message : "error"}`, status);
}

export const geminiAdapter: Adapter = {
  request(model, req, target) {
    const { system, turns } = blockTurns(req.messages, partsOf(req.messages));
    const contents = turns.map((t) => ({ role: t.role === "assistant" ? "model" : "user", parts: mergeText(t.blocks) }));
    const body: Record<string, unknown> = { contents, generationConfig: generationConfig(model, req) };
    toolsOf(req, body);
    if (system) body.systemInstruction = { parts: [{ text: system }] };
    const method = target.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (target.apiKey) headers["x-goog-api-key"] = target.apiKey;
    return { url: `${target.baseUrl}/models/${model.upstream_id}:${method}`, headers, body: JSON.stringify(body) };
  },

  response(body): UpstreamCompletion {
    if (!isObject(body)) throw new UpstreamFault("response is not a JSON object");
    const fault = embeddedError(body);
    if (fault) throw fault;
    const c = candidate(firstCandidate(body));
    if (!c) {
      // A prompt blocked by safety settings comes back with promptFeedback and no candidates.
      if (isObject(body.promptFeedback) && typeof body.promptFeedback.blockReason === "string") {
        return { content: "", toolCalls: [], finishReason: "content_filter", usage: usage(body.usageMetadata) };
      }
      throw new UpstreamFault("response has no candidates");
    }
    // candidateCount > 1: every candidate, in the order of its index (usageMetadata counts them all).
    const all = (body.candidates as unknown[]).filter(isObject).toSorted((a, b) => (num(a.index) ?? 0) - (num(b.index) ?? 0));
    const choices = all.map((one) => candidate(one)!).map((x) => ({ content: x.text, toolCalls: x.calls, finishReason: finishWithTools(finishReason(x.finish), x.calls) }));
    return withChoices(choices, usage(body.usageMetadata));
  },

  decoder(): StreamDecoder {
    /** Per candidate index (candidateCount > 1): its raw finish reason and how many calls it made. */
    const finishes: Array<string | null> = [];
    const calls: number[] = [];
    let blocked = false;
    let tokens: TokenUsage | null = null;
    const reasonOf = (i: number) => finishWithTools(finishReason(finishes[i] ?? null), calls[i] ? [calls[i]] : []);
    return {
      push(msg: SseMessage): StreamDelta[] {
        const obj = parseJson(msg.data);
        if (!isObject(obj)) throw new UpstreamFault("stream chunk is not a JSON object");
        const fault = embeddedError(obj);
        if (fault) throw fault;
        if (obj.usageMetadata) tokens = usage(obj.usageMetadata) ?? tokens;
        const wire = Array.isArray(obj.candidates) ? obj.candidates : [];
        if (!isObject(wire[0])) {
          if (isObject(obj.promptFeedback) && typeof obj.promptFeedback.blockReason === "string") blocked = true;
          return [];
        }
        const out: StreamDelta[] = [];
        // candidateCount > 1: a message carries the next part of one or several candidates, each with its index.
        for (const [pos, raw] of wire.entries()) {
          if (!isObject(raw)) continue;
          const index = num(raw.index) ?? pos;
          const c = candidate(raw, calls[index] ?? 0)!;
          finishes[index] ??= null;
          if (c.finish) finishes[index] = c.finish;
          const tag = index ? { choice: index } : {};
          for (const d of contentDelta(c.text)) out.push({ ...d, ...tag });
          // Gemini sends each call whole, in one message.
          for (const call of c.calls) {
            const n = calls[index] ?? 0;
            calls[index] = n + 1;
            out.push({ type: "tool_call", call: { index: n, id: call.id, name: call.name, arguments: call.arguments }, ...tag });
          }
        }
        return out;
      },
      get finished() {
        return (finishes.length > 0 && finishes.every((f) => f !== null && f !== undefined)) || blocked;
      },
      end() {
        const finished = finishes.filter((f) => f !== null && f !== undefined);
        if ((!finished.length || finished.length < finishes.length) && !blocked) throw new UpstreamFault("stream ended without a finishReason");
        if (blocked && !finished.length) return { finishReason: "content_filter", usage: tokens };
        const all = Array.from({ length: Math.max(finishes.length, 1) }, (_, i) => reasonOf(i));
        return { finishReason: all[0]!, usage: tokens, ...(all.length > 1 ? { finishReasons: all } : {}) };
      },
    };
  },

  errorMessage: errorBodyMessage,
};

/** Adjacent text parts of one turn joined, as a text-only conversation always sent them. */
function mergeText(parts: Json[]): Json[] {
  const out: Json[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (last && typeof last.text === "string" && typeof p.text === "string" && Object.keys(last).length === 1 && Object.keys(p).length === 1) {
      out[out.length - 1] = { text: `${last.text}\n\n${p.text}` };
    } else out.push(p);
  }
  return out;
}
