/**
 * Anthropic Messages (POST {base}/messages, `x-api-key`, `anthropic-version: 2023-06-01`). System
 * prompts move to the top-level `system`; `max_tokens` is required. Streams are named events:
 * message_start, content_block_start/delta/stop, message_delta (stop reason, output tokens),
 * message_stop, ping, and `error` (which can arrive inside a 200 stream).
 */
import {
  errorBodyMessage, isObject, num, parseJson, UpstreamFault,
  type Adapter, type StreamDecoder, type UpstreamCompletion,
} from "./adapter";
import type { SseMessage } from "./sse";
import { usageOf } from "../cost/tokens";
import { alternatingTurns } from "./turns";

export const ANTHROPIC_VERSION = "2023-06-01";

const FINISH: Record<string, string> = {
  end_turn: "stop", stop_sequence: "stop", pause_turn: "stop", max_tokens: "length",
  model_context_window_exceeded: "length", tool_use: "tool_calls", refusal: "content_filter",
};
const finishReason = (raw: unknown) => (typeof raw === "string" ? FINISH[raw] ?? raw : "stop");

/** Error types to the HTTP status they stand for, so an `error` stream event is retried like one. */
export const ANTHROPIC_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400, authentication_error: 401, billing_error: 402, permission_error: 403, not_found_error: 404,
  request_too_large: 413, rate_limit_error: 429, api_error: 500, timeout_error: 504, overloaded_error: 529,
};

/** Input tokens including the cached ones, which are billed as prompt too. */
const inputTokens = (u: Record<string, unknown>) =>
  (num(u.input_tokens) ?? 0) + (num(u.cache_creation_input_tokens) ?? 0) + (num(u.cache_read_input_tokens) ?? 0);

function streamError(obj: Record<string, unknown>): UpstreamFault {
  const err = isObject(obj.error) ? obj.error : {};
  const type = typeof err.type === "string" ? err.type : "error";
  const message = typeof err.message === "string" ? err.message : "error event in stream";
  return new UpstreamFault(`upstream ${type}: ${message}`, ANTHROPIC_ERROR_STATUS[type] ?? 500);
}

export const anthropicAdapter: Adapter = {
  request(model, req, target) {
    const { system, turns } = alternatingTurns(req.messages);
    const body: Record<string, unknown> = {
      model: model.upstream_id,
      max_tokens: req.maxTokens,
      messages: turns,
      // Anthropic's range is 0-1 where OpenAI's is 0-2.
      temperature: Math.min(req.temperature, 1),
    };
    if (system) body.system = system;
    if (target.stream) body.stream = true;
    const headers: Record<string, string> = { "content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION };
    if (target.apiKey) headers["x-api-key"] = target.apiKey;
    return { url: `${target.baseUrl}/messages`, headers, body: JSON.stringify(body) };
  },

  response(body): UpstreamCompletion {
    if (!isObject(body)) throw new UpstreamFault("response is not a JSON object");
    if (body.type === "error") throw streamError(body);
    if (!Array.isArray(body.content)) throw new UpstreamFault("response has no content array");
    let content = "";
    for (const block of body.content) if (isObject(block) && block.type === "text" && typeof block.text === "string") content += block.text;
    const u = isObject(body.usage) ? body.usage : null;
    const usage = u && num(u.output_tokens) !== null ? usageOf(inputTokens(u), num(u.output_tokens)!) : null;
    return { content, finishReason: finishReason(body.stop_reason), usage };
  },

  decoder(): StreamDecoder {
    let input: number | null = null;
    let output: number | null = null;
    let stop: string | null = null;
    let stopped = false;
    return {
      push(msg: SseMessage) {
        const obj = parseJson(msg.data);
        if (!isObject(obj)) throw new UpstreamFault("stream event is not a JSON object");
        switch (obj.type) {
          case "content_block_delta": {
            const d = obj.delta;
            return isObject(d) && d.type === "text_delta" && typeof d.text === "string" ? d.text : "";
          }
          case "message_start": {
            const u = isObject(obj.message) && isObject(obj.message.usage) ? obj.message.usage : null;
            if (u) {
              input = inputTokens(u);
              output = num(u.output_tokens);
            }
            return "";
          }
          case "message_delta": {
            if (isObject(obj.delta) && typeof obj.delta.stop_reason === "string") stop = obj.delta.stop_reason;
            if (isObject(obj.usage)) {
              output = num(obj.usage.output_tokens) ?? output;
              // Newer API versions repeat the (final) input count here.
              if (num(obj.usage.input_tokens) !== null) input = inputTokens(obj.usage);
            }
            return "";
          }
          case "message_stop":
            stopped = true;
            return "";
          case "error":
            throw streamError(obj);
          default:
            return ""; // ping, content_block_start/stop, and event types added later
        }
      },
      get finished() {
        return stopped || stop !== null;
      },
      end() {
        if (!stopped && stop === null) throw new UpstreamFault("stream ended before message_stop");
        return { finishReason: finishReason(stop), usage: input !== null && output !== null ? usageOf(input, output) : null };
      },
    };
  },

  errorMessage: errorBodyMessage,
};
