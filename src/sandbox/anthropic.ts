import { ANTHROPIC_ERROR_STATUS } from "../providers/anthropic";
import { isObject, type Json } from "../providers/adapter";
import { sseBytes } from "../providers/sse";
import { chunksOf, type SandboxPrompt } from "./answer";
import { BadRequest, inverse, json, nonNegativeInt, text, type Parsed, type Reply, type SandboxProtocol } from "./http";

/** The adapter's error-type-to-status map, inverted: what the sandbox sends for a status. */
const ERROR_TYPE = inverse(ANTHROPIC_ERROR_STATUS);

function parse(body: Json): Parsed {
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

function body({ parsed, answer }: Reply): Json {
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

export const anthropicSandbox: SandboxProtocol = {
  route: (rest) => (rest === "messages" ? {} : null),
  parse,
  body,
  frames(reply) {
    const { answer } = reply;
    const whole = body(reply);
    const ev = (type: string, data: Json) => sseBytes(JSON.stringify({ type, ...data }), type);
    const message = { ...whole, content: [], stop_reason: null, usage: { input_tokens: answer.promptTokens, output_tokens: 1 } };
    const frames = [ev("message_start", { message }), ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }), ev("ping", {})];
    for (const p of chunksOf(answer.text)) frames.push(ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: p } }));
    frames.push(
      ev("content_block_stop", { index: 0 }),
      ev("message_delta", { delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: answer.completionTokens } }),
      ev("message_stop", {}),
    );
    return { frames, firstContent: 3 };
  },
  error(status, message) {
    const type = ERROR_TYPE[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
    return json({ type: "error", error: { type, message } }, status);
  },
};
