/**
 * OpenAI chat completions, spoken by OpenAI and by the ten OpenAI-compatible providers
 * (POST {base}/chat/completions, Bearer auth). Streams end with `data: [DONE]`; usage arrives in a
 * last chunk with empty `choices` when `stream_options.include_usage` is set.
 */
import type { Model } from "../catalog/models";
import {
  contentDelta, errorBodyMessage, finishWithTools, isObject, num, parseJson, UpstreamFault, withChoices,
  type Adapter, type Json, type StreamDecoder, type UpstreamCompletion,
} from "./adapter";
import { PROVIDER_REGISTRY } from "./registry";
import type { SseMessage } from "./sse";
import { alternatingTurns } from "./turns";
import type { CallOptions, Choice, Message, StreamDelta, TokenUsage, ToolCall } from "./types";

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

function alternated(messages: readonly Message[]) {
  const { system, turns } = alternatingTurns(messages);
  return system ? [{ role: "system", content: system }, ...turns] : turns;
}

/** A neutral message back in OpenAI's wire form. */
function wireMessage(m: Message): Json {
  if (m.role === "tool") return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
  const content =
    typeof m.content === "string"
      ? m.content
      : m.content.map((p) => (p.type === "text" ? { type: "text", text: p.text } : { type: "image_url", image_url: { url: p.url, ...(p.detail ? { detail: p.detail } : {}) } }));
  if (m.role !== "assistant" || !m.toolCalls?.length) return { role: m.role, content };
  return {
    role: "assistant",
    content: content || null,
    tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
  };
}

/** The OpenAI parameters as OpenAI names them; what a compatible server cannot take is left out (docs/compatibility.md). */
function wireOptions(model: Model, o: CallOptions, fixedTemperature: boolean, body: Json) {
  const compat = PROVIDER_REGISTRY[model.provider].compat;
  if (o.tools?.length) {
    body.tools = o.tools.map((t) => ({
      type: "function",
      function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters ?? { type: "object", properties: {} }, ...(t.strict !== undefined ? { strict: t.strict } : {}) },
    }));
    if (o.toolChoice) body.tool_choice = typeof o.toolChoice === "string" ? o.toolChoice : { type: "function", function: { name: o.toolChoice.name } };
    if (o.parallelToolCalls !== undefined) body.parallel_tool_calls = o.parallelToolCalls;
  }
  const f = o.responseFormat;
  if (f?.type === "json_object") body.response_format = { type: "json_object" };
  if (f?.type === "json_schema") {
    body.response_format = { type: "json_schema", json_schema: { name: f.name, schema: f.schema, strict: f.strict, ...(f.description ? { description: f.description } : {}) } };
  }
  if (o.stop?.length) body.stop = o.stop;
  // OpenAI's reasoning models fix top_p as they fix temperature.
  if (o.topP !== undefined && !fixedTemperature) body.top_p = o.topP;
  if (o.seed !== undefined) body.seed = o.seed;
  if (o.user !== undefined) body.user = o.user;
  if (o.n !== undefined) body.n = o.n;
  if (o.reasoningEffort && compat?.reasoningEffort && model.capabilities.includes("reasoning")) body.reasoning_effort = o.reasoningEffort;
}

function toolCallsOf(msg: Json): ToolCall[] {
  if (!Array.isArray(msg.tool_calls)) return [];
  const calls: ToolCall[] = [];
  for (const c of msg.tool_calls) {
    if (!isObject(c) || !isObject(c.function) || typeof c.function.name !== "string") continue;
    const args = c.function.arguments;
    calls.push({ id: typeof c.id === "string" ? c.id : `call_${calls.length}`, name: c.function.name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) });
  }
  return calls;
}

function toolDeltas(delta: Json): StreamDelta[] {
  if (!Array.isArray(delta.tool_calls)) return [];
  const out: StreamDelta[] = [];
  for (const [i, c] of delta.tool_calls.entries()) {
    if (!isObject(c)) continue;
    const fn = isObject(c.function) ? c.function : {};
    out.push({
      type: "tool_call",
      call: {
        index: num(c.index) ?? i,
        ...(typeof c.id === "string" ? { id: c.id } : {}),
        ...(typeof fn.name === "string" ? { name: fn.name } : {}),
        arguments: typeof fn.arguments === "string" ? fn.arguments : "",
      },
    });
  }
  return out;
}

function choiceOf(choice: Json): Choice {
  const msg = choice.message as Json;
  const content = typeof msg.content === "string" ? msg.content : typeof msg.refusal === "string" ? msg.refusal : "";
  const toolCalls = toolCallsOf(msg);
  return { content, toolCalls, finishReason: finishWithTools(finishReason(choice.finish_reason), toolCalls) };
}

export const openaiAdapter: Adapter = {
  request(model, req, target) {
    const compat = PROVIDER_REGISTRY[model.provider].compat;
    const fixedTemperature = compat?.fixedTemperature?.test(model.upstream_id) ?? false;
    const body: Record<string, unknown> = {
      model: model.upstream_id,
      messages: compat?.alternateTurns ? alternated(req.messages) : req.messages.map(wireMessage),
      [compat?.maxTokensField ?? "max_tokens"]: req.maxTokens,
    };
    if (!fixedTemperature) body.temperature = req.temperature;
    if (req.options) wireOptions(model, req.options, fixedTemperature, body);
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
    const wire = Array.isArray(body.choices) ? body.choices : [];
    if (!isObject(wire[0]) || !isObject(wire[0].message)) throw new UpstreamFault("response has no choices[0].message");
    // With n > 1, every choice, in the order of its index.
    const ordered = wire.filter(isObject).toSorted((a, b) => (num(a.index) ?? 0) - (num(b.index) ?? 0));
    return withChoices(ordered.filter((c) => isObject(c.message)).map(choiceOf), usage(body.usage));
  },

  decoder(): StreamDecoder {
    /** Each choice's raw finish reason (null until it finishes) and whether it called tools, by index. */
    const finishes: Array<string | null> = [];
    const tools: boolean[] = [];
    let done = false;
    let tokens: TokenUsage | null = null;
    const reasonOf = (i: number) => finishWithTools(finishReason(finishes[i] ?? null), tools[i] ? [true] : []);
    return {
      push(msg: SseMessage): StreamDelta[] {
        if (msg.data === "[DONE]") {
          done = true;
          return [];
        }
        const obj = parseJson(msg.data);
        if (!isObject(obj)) throw new UpstreamFault("stream chunk is not a JSON object");
        const fault = embeddedError(obj);
        if (fault) throw fault;
        if (obj.usage) tokens = usage(obj.usage) ?? tokens;
        const out: StreamDelta[] = [];
        // With n > 1 every chunk's choices carry their index; a chunk may carry several.
        for (const [pos, choice] of (Array.isArray(obj.choices) ? obj.choices : []).entries()) {
          if (!isObject(choice)) continue;
          const index = num(choice.index) ?? pos;
          finishes[index] ??= null;
          if (typeof choice.finish_reason === "string") finishes[index] = choice.finish_reason;
          const delta = choice.delta;
          if (!isObject(delta)) continue;
          const calls = toolDeltas(delta);
          if (calls.length) tools[index] = true;
          const ds = [...contentDelta(typeof delta.content === "string" ? delta.content : ""), ...calls];
          for (const d of ds) out.push(index ? { ...d, choice: index } : d);
        }
        return out;
      },
      get finished() {
        return done || (finishes.length > 0 && finishes.every((f) => f !== null && f !== undefined));
      },
      end() {
        const finished = finishes.filter((f) => f !== null && f !== undefined);
        if (!done && (!finished.length || finished.length < finishes.length)) throw new UpstreamFault("stream ended before the upstream finished the answer");
        const all = Array.from({ length: Math.max(finishes.length, 1) }, (_, i) => reasonOf(i));
        return { finishReason: all[0]!, usage: tokens, ...(all.length > 1 ? { finishReasons: all } : {}) };
      },
    };
  },

  errorMessage: errorBodyMessage,
};
