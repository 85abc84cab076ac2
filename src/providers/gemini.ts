/**
 * Google Gemini generateContent (POST {base}/models/{model}:generateContent, `x-goog-api-key`) and
 * streamGenerateContent?alt=sse, whose messages are each a full GenerateContentResponse with the
 * next text part; the last one carries finishReason and the final usageMetadata. There is no end
 * marker: a finishReason is what tells a complete answer from a cut stream.
 */
import {
  errorBodyMessage, isObject, num, parseJson, UpstreamFault,
  type Adapter, type Json, type StreamDecoder, type UpstreamCompletion,
} from "./adapter";
import type { SseMessage } from "./sse";
import { usageOf } from "../cost/tokens";
import { alternatingTurns } from "./turns";
import type { TokenUsage } from "./types";

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

/** The text and finish reason of candidate 0; thought summaries are not part of the answer. */
function candidate(body: Json): { text: string; finish: string | null } | null {
  const c = Array.isArray(body.candidates) ? body.candidates[0] : undefined;
  if (!isObject(c)) return null;
  let text = "";
  const parts = isObject(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
  for (const part of parts) if (isObject(part) && typeof part.text === "string" && part.thought !== true) text += part.text;
  return { text, finish: typeof c.finishReason === "string" ? c.finishReason : null };
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
    const { system, turns } = alternatingTurns(req.messages);
    const contents = turns.map((t) => ({ role: t.role === "assistant" ? "model" : "user", parts: [{ text: t.content }] }));
    const body: Record<string, unknown> = {
      contents,
      generationConfig: { maxOutputTokens: req.maxTokens, temperature: req.temperature },
    };
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
    const c = candidate(body);
    if (!c) {
      // A prompt blocked by safety settings comes back with promptFeedback and no candidates.
      if (isObject(body.promptFeedback) && typeof body.promptFeedback.blockReason === "string") {
        return { content: "", finishReason: "content_filter", usage: usage(body.usageMetadata) };
      }
      throw new UpstreamFault("response has no candidates");
    }
    return { content: c.text, finishReason: finishReason(c.finish), usage: usage(body.usageMetadata) };
  },

  decoder(): StreamDecoder {
    let finish: string | null = null;
    let blocked = false;
    let tokens: TokenUsage | null = null;
    return {
      push(msg: SseMessage) {
        const obj = parseJson(msg.data);
        if (!isObject(obj)) throw new UpstreamFault("stream chunk is not a JSON object");
        const fault = embeddedError(obj);
        if (fault) throw fault;
        if (obj.usageMetadata) tokens = usage(obj.usageMetadata) ?? tokens;
        const c = candidate(obj);
        if (!c) {
          if (isObject(obj.promptFeedback) && typeof obj.promptFeedback.blockReason === "string") blocked = true;
          return "";
        }
        if (c.finish) finish = c.finish;
        return c.text;
      },
      get finished() {
        return finish !== null || blocked;
      },
      end() {
        if (finish === null && !blocked) throw new UpstreamFault("stream ended without a finishReason");
        return { finishReason: blocked && finish === null ? "content_filter" : finishReason(finish), usage: tokens };
      },
    };
  },

  errorMessage: errorBodyMessage,
};
