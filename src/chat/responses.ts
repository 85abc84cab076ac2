/**
 * The OpenAI Responses API (POST /v1/responses) over the same model-call path as chat completions:
 * its request read into the neutral messages and options, its response object and its streamed
 * events. State-free: nothing is stored, so `previous_response_id` and item references are a 400.
 */
import { z } from "zod";
import type { ChatOutcome, StreamWriter } from "../calls/chat";
import type { SvcBlock } from "../calls/svc";
import { REASONING_EFFORTS, toolSpec } from "../providers/openai-request";
import type { CallOptions, ContentPart, Message, ResponseFormat, ToolChoice } from "../providers/types";
import { AUTO_MODES, brainConfigSchema } from "../routing/brain-config";
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, MAX_TOKENS_CEILING } from "../routing/request-schema";

const inputText = z.object({ type: z.enum(["input_text", "output_text", "text"]), text: z.string() }).loose();
const inputImage = z
  .object({ type: z.literal("input_image"), image_url: z.string().min(1).optional(), file_id: z.string().optional(), detail: z.enum(["auto", "low", "high"]).optional() })
  .loose()
  .refine((p) => p.image_url !== undefined, { message: "input_image needs image_url (file ids need stored files, which this gateway does not keep)", path: ["image_url"] });
const contentPart = z.union([inputText, inputImage], { error: "content parts are input_text, output_text or input_image" });

const messageItem = z
  .object({
    type: z.literal("message").optional(),
    role: z.enum(["user", "assistant", "system", "developer"]),
    content: z.union([z.string(), z.array(contentPart)]),
  })
  .loose();
const functionCallItem = z.object({ type: z.literal("function_call"), call_id: z.string().min(1), name: z.string().min(1), arguments: z.string() }).loose();
const functionOutputItem = z
  .object({ type: z.literal("function_call_output"), call_id: z.string().min(1), output: z.union([z.string(), z.array(inputText)]) })
  .loose();
/** Reasoning items carry no text the next call needs: accepted and left out. */
const reasoningItem = z.object({ type: z.literal("reasoning") }).loose();

const STATE_FREE = "this gateway stores no responses (store: false semantics); send the whole conversation in input";
const inputItem = z.union([messageItem, functionCallItem, functionOutputItem, reasoningItem], {
  error: `input items are messages, function_call, function_call_output or reasoning; item_reference needs stored items and ${STATE_FREE}`,
});

const functionTool = z.object({
  type: z.literal("function", { error: "only function tools are supported (no hosted tools such as web_search or file_search)" }),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

const textFormat = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({ type: z.literal("json_schema"), name: z.string().min(1), schema: z.record(z.string(), z.unknown()), description: z.string().optional(), strict: z.boolean().nullish() }),
]);

export const responsesRequestSchema = z
  .looseObject({
    model: z.string().trim().min(1).optional(),
    input: z.union([z.string(), z.array(inputItem).min(1, { message: "input must hold at least one item" })], {
      error: `input is a string or an array of items (messages, function_call, function_call_output, reasoning); item_reference needs stored items and ${STATE_FREE}`,
    }),
    instructions: z.string().nullish(),
    max_output_tokens: z.int().min(1).max(MAX_TOKENS_CEILING).nullish(),
    temperature: z.number().min(0).max(2).nullish(),
    top_p: z.number().min(0).max(1).nullish(),
    stream: z.boolean().nullish(),
    tools: z.array(functionTool).max(128).optional(),
    tool_choice: z
      .union([z.enum(["none", "auto", "required"]), z.object({ type: z.literal("function"), name: z.string().min(1) })], {
        error: "tool_choice is none, auto, required or {type: \"function\", name}",
      })
      .optional(),
    parallel_tool_calls: z.boolean().nullish(),
    text: z.looseObject({ format: textFormat.optional() }).nullish(),
    reasoning: z.looseObject({ effort: z.enum(REASONING_EFFORTS).nullish() }).nullish(),
    user: z.string().max(256).optional(),
    previous_response_id: z.null({ error: `previous_response_id is not supported: ${STATE_FREE}` }).optional(),
    conversation: z.null({ error: `conversation is not supported: ${STATE_FREE}` }).optional(),
    background: z.literal(false, { error: "background responses are not supported: they need stored responses" }).nullish(),
    routing_mode: z.enum(AUTO_MODES).optional(),
    brain_config: brainConfigSchema.nullish(),
  })
  .superRefine((body, ctx) => {
    if (Array.isArray(body.input) && body.input.every((i) => i.type === "reasoning")) {
      ctx.addIssue({ code: "custom", path: ["input"], message: "input holds no message, function_call or function_call_output" });
    }
    const names = new Set((body.tools ?? []).map((t) => t.name));
    if (body.tool_choice !== undefined && body.tool_choice !== "auto" && body.tool_choice !== "none" && !names.size) {
      ctx.addIssue({ code: "custom", path: ["tool_choice"], message: "tool_choice is only allowed when tools are given" });
    }
    if (typeof body.tool_choice === "object" && !names.has(body.tool_choice.name)) {
      ctx.addIssue({ code: "custom", path: ["tool_choice"], message: `tool_choice names ${body.tool_choice.name}, which is not among the tools` });
    }
  });
export type ResponsesRequest = z.output<typeof responsesRequestSchema>;

function partsOf(content: z.output<typeof messageItem>["content"]): string | ContentPart[] {
  if (typeof content === "string") return content;
  return content.map((p): ContentPart => (p.type === "input_image" ? { type: "image", url: p.image_url!, ...(p.detail ? { detail: p.detail } : {}) } : { type: "text", text: p.text }));
}
const textOf = (c: string | ContentPart[]) => (typeof c === "string" ? c : c.map((p) => (p.type === "text" ? p.text : "")).join(""));

/** The input items as the neutral conversation: consecutive function calls become one assistant message. */
export function responsesMessages(body: ResponsesRequest): Message[] {
  const messages: Message[] = [];
  if (body.instructions) messages.push({ role: "system", content: body.instructions });
  if (typeof body.input === "string") return [...messages, { role: "user", content: body.input }];
  for (const item of body.input) {
    if (item.type === "reasoning") continue;
    if (item.type === "function_call") {
      const call = { id: item.call_id, name: item.name, arguments: item.arguments };
      const last = messages[messages.length - 1];
      if (last?.role === "assistant") (last.toolCalls ??= []).push(call);
      else messages.push({ role: "assistant", content: "", toolCalls: [call] });
      continue;
    }
    if (item.type === "function_call_output") {
      messages.push({ role: "tool", toolCallId: item.call_id, content: typeof item.output === "string" ? item.output : item.output.map((p) => p.text).join("") });
      continue;
    }
    const content = partsOf(item.content);
    if (item.role === "user") messages.push({ role: "user", content });
    else messages.push({ role: item.role === "assistant" ? "assistant" : "system", content: textOf(content) });
  }
  return messages;
}

function formatOf(f: z.output<typeof textFormat> | undefined): ResponseFormat | undefined {
  if (!f || f.type === "text") return undefined;
  if (f.type === "json_object") return { type: "json_object" };
  return { type: "json_schema", name: f.name, schema: f.schema, strict: f.strict === true, ...(f.description ? { description: f.description } : {}) };
}

export function responsesOptions(body: ResponsesRequest): CallOptions | undefined {
  const o: CallOptions = {};
  if (body.tools?.length) {
    o.tools = body.tools.map((t) =>
      toolSpec({ type: "function", function: { name: t.name, description: t.description ?? undefined, parameters: t.parameters ?? undefined, strict: t.strict } }),
    );
  }
  if (body.tool_choice !== undefined && (body.tools?.length || body.tool_choice === "none" || body.tool_choice === "auto")) {
    o.toolChoice = (typeof body.tool_choice === "string" ? body.tool_choice : { name: body.tool_choice.name }) satisfies ToolChoice;
  }
  if (body.parallel_tool_calls != null) o.parallelToolCalls = body.parallel_tool_calls;
  const format = formatOf(body.text?.format);
  if (format) o.responseFormat = format;
  if (body.top_p != null) o.topP = body.top_p;
  if (body.user !== undefined) o.user = body.user;
  if (body.reasoning?.effort) o.reasoningEffort = body.reasoning.effort;
  return Object.keys(o).length ? o : undefined;
}

export const responsesBudget = (body: ResponsesRequest) => ({
  maxTokens: body.max_output_tokens ?? DEFAULT_MAX_TOKENS,
  temperature: body.temperature ?? DEFAULT_TEMPERATURE,
});

// ---- the response object and its events ----

export const responseId = (requestId: string) => `resp_${requestId.replace(/-/g, "")}`;
const messageId = (requestId: string, n: number) => `msg_${requestId.replace(/-/g, "")}_${n}`;
const callItemId = (requestId: string, n: number) => `fc_${requestId.replace(/-/g, "")}_${n}`;

export interface ResponseHead {
  requestId: string;
  created: number;
  model: string;
  body: ResponsesRequest;
}

/** The fields a response echoes from its request (OpenAI's Response object). */
function echo(h: ResponseHead) {
  const b = h.body;
  return {
    id: responseId(h.requestId),
    object: "response",
    created_at: h.created,
    model: h.model,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: b.reasoning?.effort ?? null, summary: null },
    store: false,
    temperature: responsesBudget(b).temperature,
    text: { format: b.text?.format ?? { type: "text" } },
    tool_choice: b.tool_choice ?? "auto",
    tools: (b.tools ?? []).map((t) => ({ type: "function", name: t.name, description: t.description ?? null, parameters: t.parameters ?? null, strict: t.strict ?? null })),
    top_p: b.top_p ?? 1,
    truncation: "disabled",
    user: b.user ?? null,
    metadata: {},
    error: null,
  };
}

type OutputItem = Record<string, unknown>;

const messageItemOf = (id: string, text: string, status = "completed"): OutputItem => ({
  type: "message",
  id,
  status,
  role: "assistant",
  content: status === "in_progress" ? [] : [{ type: "output_text", text, annotations: [] }],
});
const callItemOf = (id: string, call: { id: string; name: string; arguments: string }, status = "completed"): OutputItem => ({
  type: "function_call",
  id,
  call_id: call.id,
  name: call.name,
  arguments: status === "in_progress" ? "" : call.arguments,
  status,
});

function usageOf(o: ChatOutcome) {
  return {
    input_tokens: o.usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: o.usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: o.usage.total_tokens,
  };
}

/** `length` means the budget ran out: an incomplete response, as OpenAI reports it. */
const statusOf = (o: ChatOutcome) =>
  o.finishReason === "length" ? { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } : { status: "completed", incomplete_details: null };

export function responseJson(h: ResponseHead, o: ChatOutcome, svc: SvcBlock) {
  const output: OutputItem[] = [];
  if (o.content || !o.toolCalls.length) output.push(messageItemOf(messageId(h.requestId, 0), o.content));
  for (const [i, call] of o.toolCalls.entries()) output.push(callItemOf(callItemId(h.requestId, i), call));
  return { ...echo({ ...h, model: o.model.id }), ...statusOf(o), output, output_text: o.content, usage: usageOf(o), svc };
}

/**
 * The Responses stream's events, each `event: <type>` with the type in its data and a
 * sequence_number: response.created, in_progress, then per output item output_item.added, its
 * deltas and its done events, and response.completed (or incomplete) with the whole response and
 * `svc`. A text item is opened at the first text delta, a function_call item at the first piece of
 * its call.
 */
export class ResponseEvents {
  private seq = 0;
  private outputIndex = -1;
  private open: { kind: "text"; id: string; text: string } | { kind: "call"; id: string; index: number; call: { id: string; name: string; arguments: string } } | null = null;
  private messages = 0;
  constructor(private readonly head: ResponseHead) {}

  private ev(type: string, data: Record<string, unknown>) {
    return { type, data: { type, sequence_number: this.seq++, ...data } };
  }

  start() {
    const response = { ...echo(this.head), status: "in_progress", incomplete_details: null, output: [], usage: null };
    return [this.ev("response.created", { response }), this.ev("response.in_progress", { response })];
  }

  private close() {
    const o = this.open;
    if (!o) return [];
    this.open = null;
    if (o.kind === "text") {
      const part = { type: "output_text", text: o.text, annotations: [] };
      return [
        this.ev("response.output_text.done", { item_id: o.id, output_index: this.outputIndex, content_index: 0, text: o.text }),
        this.ev("response.content_part.done", { item_id: o.id, output_index: this.outputIndex, content_index: 0, part }),
        this.ev("response.output_item.done", { output_index: this.outputIndex, item: messageItemOf(o.id, o.text) }),
      ];
    }
    return [
      this.ev("response.function_call_arguments.done", { item_id: o.id, output_index: this.outputIndex, arguments: o.call.arguments }),
      this.ev("response.output_item.done", { output_index: this.outputIndex, item: callItemOf(o.id, o.call) }),
    ];
  }

  text(delta: string) {
    const out = [];
    if (this.open?.kind !== "text") {
      out.push(...this.close());
      const id = messageId(this.head.requestId, this.messages++);
      this.open = { kind: "text", id, text: "" };
      this.outputIndex++;
      out.push(
        this.ev("response.output_item.added", { output_index: this.outputIndex, item: messageItemOf(id, "", "in_progress") }),
        this.ev("response.content_part.added", { item_id: id, output_index: this.outputIndex, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      );
    }
    const open = this.open as { id: string; text: string };
    open.text += delta;
    out.push(this.ev("response.output_text.delta", { item_id: open.id, output_index: this.outputIndex, content_index: 0, delta }));
    return out;
  }

  call(d: { index: number; id?: string; name?: string; arguments: string }) {
    const out = [];
    if (this.open?.kind !== "call" || this.open.index !== d.index) {
      out.push(...this.close());
      const id = callItemId(this.head.requestId, d.index);
      this.open = { kind: "call", id, index: d.index, call: { id: d.id ?? id, name: d.name ?? "", arguments: "" } };
      this.outputIndex++;
      out.push(this.ev("response.output_item.added", { output_index: this.outputIndex, item: callItemOf(id, this.open.call, "in_progress") }));
    }
    const open = this.open as { id: string; call: { arguments: string } };
    open.call.arguments += d.arguments;
    if (d.arguments) out.push(this.ev("response.function_call_arguments.delta", { item_id: open.id, output_index: this.outputIndex, delta: d.arguments }));
    return out;
  }

  finish(o: ChatOutcome, svc: SvcBlock) {
    const out = this.close();
    const response = responseJson(this.head, o, svc);
    // The stream's items and the final object agree: a text-less, call-less answer still has its empty message.
    if (this.outputIndex === -1 && !o.toolCalls.length) {
      out.push(...this.text(""), ...this.close());
    }
    out.push(this.ev(response.status === "completed" ? "response.completed" : "response.incomplete", { response }));
    return out;
  }

  error(message: string, code: string) {
    return [this.ev("error", { code, message, param: null })];
  }
}

const sseEvent = (e: { type: string; data: unknown }) => `event: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;
const frames = (evs: ReadonlyArray<{ type: string; data: unknown }>) => {
  let out = "";
  for (const e of evs) out += sseEvent(e);
  return out;
};

/** The Responses stream as SSE text, for the chat stream's body (`ChatStream.body`). */
export function responsesWriter(head: ResponseHead): StreamWriter {
  const events = new ResponseEvents(head);
  return {
    start: () => frames(events.start()),
    delta: (d) => frames(d.type === "delta" ? events.text(d.content) : events.call(d.call)),
    done: (o) => frames(events.finish(o, o.svc)),
    failed: (message) => frames(events.error(message, "upstream_stream_error")),
  };
}
