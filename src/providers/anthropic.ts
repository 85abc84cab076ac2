/**
 * Anthropic Messages (POST {base}/messages, `x-api-key`, `anthropic-version: 2023-06-01`). System
 * prompts move to the top-level `system`; `max_tokens` is required. Streams are named events:
 * message_start, content_block_start/delta/stop, message_delta (stop reason, output tokens),
 * message_stop, ping, and `error` (which can arrive inside a 200 stream).
 */
import type { Model } from "../catalog/models";
import {
  contentDelta, errorBodyMessage, isObject, num, parseJson, UpstreamFault,
  type Adapter, type Json, type StreamDecoder, type UpstreamCompletion,
} from "./adapter";
import type { SseMessage } from "./sse";
import { usageOf } from "../cost/tokens";
import { argumentsObject, blockTurns, dataUrl } from "./turns";
import type { CallOptions, Message, ModelRequest, ReasoningEffort, ResponseFormat, StreamDelta, ToolCall } from "./types";

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

/** A message as Anthropic content blocks: text, image, tool_use (assistant) and tool_result (user). */
function blocks(m: Message): Json[] {
  if (m.role === "tool") return [{ type: "tool_result", tool_use_id: m.toolCallId, content: typeof m.content === "string" ? m.content : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("") }];
  const out: Json[] = [];
  for (const p of typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content) {
    if (p.type === "text") {
      if (p.text) out.push({ type: "text", text: p.text });
      continue;
    }
    const data = dataUrl(p.url);
    out.push({ type: "image", source: data ? { type: "base64", media_type: data.mediaType, data: data.data } : { type: "url", url: p.url } });
  }
  for (const c of m.toolCalls ?? []) out.push({ type: "tool_use", id: c.id, name: c.name, input: argumentsObject(c.arguments) });
  return out;
}

/** Plain text turns keep the string form (Anthropic's shortest, and what a text-only request always sent). */
function turnsOf(messages: readonly Message[]) {
  const { system, turns } = blockTurns(messages, blocks);
  const wire = turns.map((t) =>
    t.blocks.every((b) => b.type === "text") ? { role: t.role, content: t.blocks.map((b) => b.text as string).join("\n\n") } : { role: t.role, content: t.blocks },
  );
  return { system, turns: wire };
}

/** Anthropic has no JSON mode: json_object becomes an instruction in the system prompt (docs/compatibility.md). */
const JSON_OBJECT_INSTRUCTION = "Answer with a single valid JSON object and nothing else: no prose, no code fence.";

/**
 * The tool that carries a json_schema answer: Anthropic's structured output is a forced tool call
 * whose input_schema is the schema; its input is the answer, unwrapped as the message content
 * (`response` and the stream decoder). Named as the AI SDK names it; a caller's own tool of this
 * name would be read as the answer too.
 */
export const ANSWER_TOOL = "json";

function answerTool(f: Extract<ResponseFormat, { type: "json_schema" }>): Json {
  const what = f.description ? `: ${f.description}` : "";
  return { name: ANSWER_TOOL, description: `Respond with the answer as a JSON value of the schema ${f.name}${what}. Call this tool to answer.`, input_schema: f.schema };
}

/**
 * json_schema: the answer tool beside the caller's tools. Alone, it is forced; with tools the model
 * may call, it must call one of them (`any`): a real tool, or the answer tool to answer. A named
 * tool_choice stays as it is.
 */
function applyJsonSchema(f: Extract<ResponseFormat, { type: "json_schema" }>, body: Json) {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  body.tools = [...tools, answerTool(f)];
  const choice = isObject(body.tool_choice) ? body.tool_choice : null;
  if (!tools.length) body.tool_choice = { type: "tool", name: ANSWER_TOOL };
  else if (choice?.type === "auto") body.tool_choice = { ...choice, type: "any" };
}

/** A response_format json_schema is answered through a forced tool, which rules out extended thinking. */
const forcesTool = (req: ModelRequest) => {
  const choice = req.options?.toolChoice;
  return req.options?.responseFormat?.type === "json_schema" || ((choice === "required" || typeof choice === "object") && !!req.options?.tools?.length);
};

/** Extended-thinking budgets per effort; thinking needs at least 1024 tokens and less than max_tokens. */
const THINKING_BUDGET: Record<ReasoningEffort, number> = { minimal: 0, low: 1024, medium: 4096, high: 16384 };

/**
 * Thinking cannot be combined with a forced tool_choice, and a history with tool calls would need
 * the thinking blocks of those turns, which an OpenAI-shaped history does not carry: both go without.
 */
function thinkingBudget(model: Model, req: ModelRequest): number | null {
  const effort = req.options?.reasoningEffort;
  if (!effort || !model.capabilities.includes("reasoning")) return null;
  if (forcesTool(req)) return null;
  if (req.messages.some((m) => m.toolCalls?.length)) return null;
  const budget = Math.min(THINKING_BUDGET[effort], req.maxTokens - 1);
  return budget >= 1024 ? budget : null;
}

function applyOptions(o: CallOptions, body: Json) {
  if (o.tools?.length && o.toolChoice !== "none") {
    body.tools = o.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: t.parameters ?? { type: "object", properties: {} } }));
    const choice: Json = o.toolChoice === "required" ? { type: "any" } : typeof o.toolChoice === "object" ? { type: "tool", name: o.toolChoice.name } : { type: "auto" };
    if (o.parallelToolCalls === false) choice.disable_parallel_tool_use = true;
    body.tool_choice = choice;
  }
  if (o.stop?.length) body.stop_sequences = o.stop;
  if (o.topP !== undefined) {
    // Current Claude models reject temperature and top_p together: the one the caller set wins.
    body.top_p = o.topP;
    delete body.temperature;
  }
  if (o.user !== undefined) body.metadata = { user_id: o.user };
  if (o.responseFormat?.type === "json_schema") applyJsonSchema(o.responseFormat, body);
}

/** The tool_use blocks as tool calls, but the answer tool's input, which is the answer's text. */
function toolCallsOf(content: unknown[]): { calls: ToolCall[]; answer: string | null } {
  const calls: ToolCall[] = [];
  let answer: string | null = null;
  for (const b of content) {
    if (!isObject(b) || b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string") continue;
    if (b.name === ANSWER_TOOL) answer = JSON.stringify(b.input ?? {});
    else calls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
  }
  return { calls, answer };
}

/** The finish of an answer given through the answer tool: `tool_use` there means the answer is done. */
const answerFinish = (stop: unknown) => (stop === "tool_use" ? "stop" : finishReason(stop));

export const anthropicAdapter: Adapter = {
  request(model, req, target) {
    const { system, turns } = turnsOf(req.messages);
    const body: Record<string, unknown> = {
      model: model.upstream_id,
      max_tokens: req.maxTokens,
      messages: turns,
      // Anthropic's range is 0-1 where OpenAI's is 0-2.
      temperature: Math.min(req.temperature, 1),
    };
    if (req.options) applyOptions(req.options, body);
    const budget = thinkingBudget(model, req);
    if (budget !== null) {
      body.thinking = { type: "enabled", budget_tokens: budget };
      // Thinking takes only the default sampling.
      delete body.temperature;
      delete body.top_p;
    }
    const jsonObject = req.options?.responseFormat?.type === "json_object";
    const systemText = [system, jsonObject ? JSON_OBJECT_INSTRUCTION : ""].filter(Boolean).join("\n\n");
    if (systemText) body.system = systemText;
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
    const { calls, answer } = toolCallsOf(body.content);
    // A json_schema answer: the answer tool's input is the content, and the answer is complete.
    if (answer !== null) return { content: answer, toolCalls: calls, finishReason: calls.length ? "tool_calls" : answerFinish(body.stop_reason), usage };
    return { content, toolCalls: calls, finishReason: finishReason(body.stop_reason), usage };
  },

  decoder(): StreamDecoder {
    let input: number | null = null;
    let output: number | null = null;
    let stop: string | null = null;
    let stopped = false;
    // Content block index to tool-call index: tool calls are numbered 0, 1, ... as OpenAI numbers them.
    const toolIndex = new Map<number, number>();
    // The content block of the answer tool (json_schema): its input streams as the content.
    let answerBlock: number | null = null;
    return {
      push(msg: SseMessage): StreamDelta[] {
        const obj = parseJson(msg.data);
        if (!isObject(obj)) throw new UpstreamFault("stream event is not a JSON object");
        switch (obj.type) {
          case "content_block_start": {
            const b = obj.content_block;
            if (!isObject(b) || b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string") return [];
            if (b.name === ANSWER_TOOL) {
              answerBlock = num(obj.index);
              return [];
            }
            const index = toolIndex.size;
            toolIndex.set(num(obj.index) ?? index, index);
            return [{ type: "tool_call", call: { index, id: b.id, name: b.name, arguments: "" } }];
          }
          case "content_block_delta": {
            const d = obj.delta;
            if (!isObject(d)) return [];
            if (d.type === "input_json_delta" && typeof d.partial_json === "string") {
              if (answerBlock !== null && num(obj.index) === answerBlock) return contentDelta(d.partial_json);
              const index = toolIndex.get(num(obj.index) ?? -1);
              return index === undefined || !d.partial_json ? [] : [{ type: "tool_call", call: { index, arguments: d.partial_json } }];
            }
            return contentDelta(d.type === "text_delta" && typeof d.text === "string" ? d.text : "");
          }
          case "message_start": {
            const u = isObject(obj.message) && isObject(obj.message.usage) ? obj.message.usage : null;
            if (u) {
              input = inputTokens(u);
              output = num(u.output_tokens);
            }
            return [];
          }
          case "message_delta": {
            if (isObject(obj.delta) && typeof obj.delta.stop_reason === "string") stop = obj.delta.stop_reason;
            if (isObject(obj.usage)) {
              output = num(obj.usage.output_tokens) ?? output;
              // Newer API versions repeat the (final) input count here.
              if (num(obj.usage.input_tokens) !== null) input = inputTokens(obj.usage);
            }
            return [];
          }
          case "message_stop":
            stopped = true;
            return [];
          case "error":
            throw streamError(obj);
          default:
            return []; // ping, content_block_stop, and event types added later
        }
      },
      get finished() {
        return stopped || stop !== null;
      },
      end() {
        if (!stopped && stop === null) throw new UpstreamFault("stream ended before message_stop");
        const finish = answerBlock !== null && toolIndex.size === 0 ? answerFinish(stop) : finishReason(stop);
        return { finishReason: finish, usage: input !== null && output !== null ? usageOf(input, output) : null };
      },
    };
  },

  errorMessage: errorBodyMessage,
};
