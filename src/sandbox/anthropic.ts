import { ANTHROPIC_ERROR_STATUS } from "../providers/anthropic";
import { isObject, type Json } from "../providers/adapter";
import { sseBytes } from "../providers/sse";
import { chunksOf, type SandboxPrompt } from "./answer";
import { BadRequest, inverse, json, nonNegativeInt, plainShape, text, type Parsed, type RequestShape, type Reply, type SandboxProtocol } from "./http";
import { shapedAnswer } from "./tools";

/** The adapter's error-type-to-status map, inverted: what the sandbox sends for a status. */
const ERROR_TYPE = inverse(ANTHROPIC_ERROR_STATUS);

/** The JSON instruction the adapter adds to the system prompt (Anthropic has no JSON mode): read as a model would. */
function jsonAsked(system: string): RequestShape["json"] {
  if (!/Answer with a single valid JSON/.test(system)) return null;
  const m = /JSON Schema \(named [^)]*\):\n(.+)$/s.exec(system);
  if (!m) return { schema: null };
  try {
    const schema: unknown = JSON.parse(m[1]!.trim());
    return { schema: isObject(schema) ? schema : null };
  } catch {
    return { schema: null };
  }
}

function shapeOf(body: Json, messages: unknown[], system: string): RequestShape {
  const shape = plainShape();
  if (Array.isArray(body.tools)) {
    for (const [i, t] of body.tools.entries()) {
      if (!isObject(t) || typeof t.name !== "string" || !isObject(t.input_schema)) throw new BadRequest(`tools.${i}: name and input_schema are required`);
      shape.tools.push({ name: t.name, description: typeof t.description === "string" ? t.description : "", parameters: t.input_schema });
    }
  }
  const choice = isObject(body.tool_choice) ? body.tool_choice : null;
  if (choice?.type === "any") shape.toolChoice = "required";
  if (choice?.type === "none") shape.toolChoice = "none";
  if (choice?.type === "tool" && typeof choice.name === "string") shape.toolChoice = { name: choice.name };
  shape.json = jsonAsked(system);
  const names = new Map<string, string>();
  for (const m of messages) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (isObject(b) && b.type === "tool_use" && typeof b.id === "string") names.set(b.id, String(b.name));
      if (isObject(b) && b.type === "image") shape.images++;
    }
  }
  const last = messages[messages.length - 1];
  if (isObject(last) && last.role === "user" && Array.isArray(last.content) && last.content.length && last.content.every((b) => isObject(b) && b.type === "tool_result")) {
    shape.toolResults = last.content.map((b) => {
      const r = b as Json;
      return { name: names.get(String(r.tool_use_id)) ?? "tool", content: r.content === undefined ? "" : text(r.content, "tool_result.content") };
    });
  }
  return shape;
}

function parse(body: Json): Parsed {
  if (typeof body.model !== "string") throw new BadRequest("model: Field required");
  if (body.max_tokens === undefined) throw new BadRequest("max_tokens: Field required");
  if (!Array.isArray(body.messages) || !body.messages.length) throw new BadRequest("messages: at least one message is required");
  const prompt: SandboxPrompt = { system: body.system === undefined ? "" : text(body.system, "system"), turns: [], maxTokens: nonNegativeInt(body.max_tokens, "max_tokens") };
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || (m.role !== "user" && m.role !== "assistant")) throw new BadRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    prompt.turns.push({ role: m.role, text: text(m.content, `messages.${i}.content`) });
  }
  // Anthropic has no way to ask for several choices.
  return { upstreamId: body.model, stream: body.stream === true, streamUsage: false, prompt, shape: shapeOf(body, body.messages, prompt.system), choices: 1 };
}

const STOP_REASON = { length: "max_tokens", stop: "end_turn", tool_calls: "tool_use" } as const;

function body(reply: Reply): Json {
  const { parsed } = reply;
  const a = shapedAnswer(reply);
  const content: Json[] = a.toolCalls.length ? [] : [{ type: "text", text: a.text }];
  for (const c of a.toolCalls) content.push({ type: "tool_use", id: c.id.replace(/^call_/, "toolu_"), name: c.name, input: JSON.parse(c.arguments) });
  return {
    id: `msg_sbx${a.seed.slice(0, 24)}`,
    type: "message",
    role: "assistant",
    model: parsed.upstreamId,
    content,
    stop_reason: STOP_REASON[a.finishReason],
    stop_sequence: null,
    usage: { input_tokens: a.promptTokens, output_tokens: a.completionTokens },
  };
}

export const anthropicSandbox: SandboxProtocol = {
  route: (rest) => (rest === "messages" ? {} : null),
  parse,
  body,
  frames(reply) {
    const a = shapedAnswer(reply);
    const whole = body(reply);
    const ev = (type: string, data: Json) => sseBytes(JSON.stringify({ type, ...data }), type);
    const message = { ...whole, content: [], stop_reason: null, usage: { input_tokens: a.promptTokens, output_tokens: 1 } };
    const frames = [ev("message_start", { message }), ev("ping", {})];
    const blocks = whole.content as Json[];
    for (const [index, block] of blocks.entries()) {
      if (block.type === "text") {
        frames.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
        for (const p of chunksOf(a.text)) frames.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: p } }));
      } else {
        // A tool_use block starts with empty input; the input JSON follows in pieces.
        frames.push(ev("content_block_start", { index, content_block: { ...block, input: {} } }));
        for (const p of chunksOf(JSON.stringify(block.input))) frames.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: p } }));
      }
      frames.push(ev("content_block_stop", { index }));
    }
    frames.push(
      ev("message_delta", { delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: a.completionTokens } }),
      ev("message_stop", {}),
    );
    return { frames, firstContent: 3 };
  },
  error(status, message) {
    const type = ERROR_TYPE[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
    return json({ type: "error", error: { type, message } }, status);
  },
};
