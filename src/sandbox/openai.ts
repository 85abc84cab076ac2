import { isObject, type Json } from "../providers/adapter";
import { sseBytes } from "../providers/sse";
import type { SandboxPrompt } from "./answer";
import { chunksOf } from "./answer";
import { BadRequest, created, json, nonNegativeInt, text, type Parsed, type Reply, type SandboxProtocol } from "./http";

function parse(body: Json): Parsed {
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

function body({ parsed, answer }: Reply): Json {
  return {
    id: `chatcmpl-sbx${answer.seed.slice(0, 24)}`,
    object: "chat.completion",
    created: created(),
    model: parsed.upstreamId,
    choices: [{ index: 0, message: { role: "assistant", content: answer.text, refusal: null }, finish_reason: answer.finishReason, logprobs: null }],
    usage: { prompt_tokens: answer.promptTokens, completion_tokens: answer.completionTokens, total_tokens: answer.promptTokens + answer.completionTokens },
  };
}

export const openaiSandbox: SandboxProtocol = {
  route: (rest) => (rest === "chat/completions" ? {} : null),
  parse,
  body,
  frames(reply) {
    const { parsed, answer } = reply;
    const head = { id: `chatcmpl-sbx${answer.seed.slice(0, 24)}`, object: "chat.completion.chunk", created: created(), model: parsed.upstreamId };
    const chunk = (delta: Json, finish: string | null) => sseBytes(JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] }));
    const frames = [chunk({ role: "assistant", content: "" }, null)];
    for (const p of chunksOf(answer.text)) frames.push(chunk({ content: p }, null));
    frames.push(chunk({}, answer.finishReason));
    if (parsed.streamUsage) frames.push(sseBytes(JSON.stringify({ ...head, choices: [], usage: body(reply).usage })));
    frames.push(sseBytes("[DONE]"));
    return { frames, firstContent: 1 };
  },
  error(status, message) {
    const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
    return json({ error: { message, type, param: null, code: status === 429 ? "rate_limit_exceeded" : null } }, status);
  },
};
