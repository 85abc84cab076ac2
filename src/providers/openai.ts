/**
 * OpenAI chat completions, spoken by OpenAI and by the ten OpenAI-compatible providers
 * (POST {base}/chat/completions, Bearer auth). Streams end with `data: [DONE]`; usage arrives in a
 * last chunk with empty `choices` when `stream_options.include_usage` is set.
 */
import {
  errorBodyMessage, isObject, num, parseJson, UpstreamFault,
  type Adapter, type StreamDecoder, type UpstreamCompletion,
} from "./adapter";
import { PROVIDER_REGISTRY } from "./registry";
import type { SseMessage } from "./sse";
import { alternatingTurns } from "./turns";
import type { ChatMessage, TokenUsage } from "./types";

// Compatible servers mostly send OpenAI's own values; these are the strays seen in the wild.
const FINISH: Record<string, string> = {
  stop: "stop", length: "length", content_filter: "content_filter", tool_calls: "tool_calls", function_call: "function_call",
  eos: "stop", end_turn: "stop", complete: "stop", max_tokens: "length", model_length: "length", error: "error",
};
const finishReason = (raw: unknown) => (typeof raw === "string" ? FINISH[raw.toLowerCase()] ?? raw : "stop");

function usage(u: unknown): TokenUsage | null {
  if (!isObject(u)) return null;
  const prompt = num(u.prompt_tokens);
  const completion = num(u.completion_tokens);
  if (prompt === null || completion === null) return null;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: num(u.total_tokens) ?? prompt + completion };
}

/** An `{error}` object inside a 200 body or stream (OpenRouter and others do this). */
function embeddedError(obj: Record<string, unknown>): UpstreamFault | null {
  const err = obj.error;
  if (err === undefined || err === null) return null;
  const message = isObject(err) && typeof err.message === "string" ? err.message : JSON.stringify(err);
  const code = isObject(err) ? num(err.code) : null;
  return new UpstreamFault(`upstream error: ${message}`, code !== null && code >= 400 && code < 600 ? code : 500);
}

function alternated(messages: readonly ChatMessage[]) {
  const { system, turns } = alternatingTurns(messages);
  return system ? [{ role: "system", content: system }, ...turns] : turns;
}

export const openaiAdapter: Adapter = {
  request(model, req, target) {
    const compat = PROVIDER_REGISTRY[model.provider].compat;
    const body: Record<string, unknown> = {
      model: model.upstream_id,
      messages: compat?.alternateTurns ? alternated(req.messages) : req.messages.map((m) => ({ role: m.role, content: m.content })),
      [compat?.maxTokensField ?? "max_tokens"]: req.maxTokens,
    };
    if (!compat?.fixedTemperature?.test(model.upstream_id)) body.temperature = req.temperature;
    if (target.stream) {
      body.stream = true;
      if (compat?.streamOptions ?? true) body.stream_options = { include_usage: true };
    }
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
    return { url: `${target.baseUrl}/chat/completions`, headers, body: JSON.stringify(body) };
  },

  response(body): UpstreamCompletion {
    if (!isObject(body)) throw new UpstreamFault("response is not a JSON object");
    const fault = embeddedError(body);
    if (fault) throw fault;
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (!isObject(choice) || !isObject(choice.message)) throw new UpstreamFault("response has no choices[0].message");
    const msg = choice.message;
    const content = typeof msg.content === "string" ? msg.content : typeof msg.refusal === "string" ? msg.refusal : "";
    return { content, finishReason: finishReason(choice.finish_reason), usage: usage(body.usage) };
  },

  decoder(): StreamDecoder {
    let finish: string | null = null;
    let done = false;
    let tokens: TokenUsage | null = null;
    return {
      push(msg: SseMessage) {
        if (msg.data === "[DONE]") {
          done = true;
          return "";
        }
        const obj = parseJson(msg.data);
        if (!isObject(obj)) throw new UpstreamFault("stream chunk is not a JSON object");
        const fault = embeddedError(obj);
        if (fault) throw fault;
        if (obj.usage) tokens = usage(obj.usage) ?? tokens;
        const choice = Array.isArray(obj.choices) ? obj.choices[0] : undefined;
        if (!isObject(choice)) return "";
        if (typeof choice.finish_reason === "string") finish = choice.finish_reason;
        const delta = choice.delta;
        return isObject(delta) && typeof delta.content === "string" ? delta.content : "";
      },
      get finished() {
        return done || finish !== null;
      },
      end() {
        if (!done && finish === null) throw new UpstreamFault("stream ended before the upstream finished the answer");
        return { finishReason: finishReason(finish), usage: tokens };
      },
    };
  },

  errorMessage: errorBodyMessage,
};
