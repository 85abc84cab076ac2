import { isObject, type Json } from "../providers/adapter";
import { sseBytes } from "../providers/sse";
import type { SandboxPrompt } from "./answer";
import { chunksOf } from "./answer";
import { BadRequest, choiceCount, created, json, nonNegativeInt, plainShape, text, type Parsed, type RequestShape, type Reply, type SandboxProtocol } from "./http";
import { shapedAnswer, type ShapedAnswer } from "./tools";

function shapeOf(body: Json, messages: unknown[]): RequestShape {
  const shape = plainShape();
  if (Array.isArray(body.tools)) {
    for (const [i, t] of body.tools.entries()) {
      if (!isObject(t) || t.type !== "function" || !isObject(t.function) || typeof t.function.name !== "string") throw new BadRequest(`tools[${i}] must be {type: "function", function: {name}}`);
      const f = t.function;
      shape.tools.push({ name: f.name as string, description: typeof f.description === "string" ? f.description : "", parameters: isObject(f.parameters) ? f.parameters : null });
    }
  }
  const choice = body.tool_choice;
  if (choice === "none" || choice === "auto" || choice === "required") shape.toolChoice = choice;
  else if (isObject(choice) && isObject(choice.function) && typeof choice.function.name === "string") shape.toolChoice = { name: choice.function.name };
  const format = body.response_format;
  if (isObject(format) && format.type === "json_object") shape.json = { schema: null };
  if (isObject(format) && format.type === "json_schema") {
    const spec = isObject(format.json_schema) ? format.json_schema : {};
    shape.json = { schema: isObject(spec.schema) ? spec.schema : null };
  }
  // Tool results at the end of the conversation, named by the calls they answer.
  const names = new Map<string, string>();
  for (const m of messages) {
    if (isObject(m) && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) if (isObject(c) && typeof c.id === "string" && isObject(c.function)) names.set(c.id, String(c.function.name));
    }
    if (isObject(m) && Array.isArray(m.content)) shape.images += m.content.filter((p) => isObject(p) && p.type === "image_url").length;
  }
  const trailing: Array<{ name: string; content: string }> = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!isObject(m) || m.role !== "tool") break;
    trailing.unshift({ name: names.get(String(m.tool_call_id)) ?? "tool", content: text(m.content, `messages[${i}].content`) });
  }
  if (trailing.length) shape.toolResults = trailing;
  return shape;
}

function parse(body: Json): Parsed {
  if (typeof body.model !== "string") throw new BadRequest("model is required");
  if (!Array.isArray(body.messages) || !body.messages.length) throw new BadRequest("messages must be a non-empty array");
  const prompt: SandboxPrompt = { system: "", turns: [], maxTokens: null };
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || typeof m.role !== "string") throw new BadRequest(`messages[${i}] needs a role`);
    if (m.role === "assistant" && (m.content === null || m.content === undefined) && Array.isArray(m.tool_calls)) continue;
    const content = text(m.content, `messages[${i}].content`);
    if (m.role === "system" || m.role === "developer") prompt.system += content;
    else if (m.role === "user" || m.role === "assistant") prompt.turns.push({ role: m.role, text: content });
    else if (m.role === "tool") {
      if (typeof m.tool_call_id !== "string") throw new BadRequest(`messages[${i}].tool_call_id is required for a tool message`);
      prompt.turns.push({ role: "user", text: content });
    } else throw new BadRequest(`messages[${i}].role "${m.role}" is not supported by the sandbox`);
  }
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (max !== undefined) prompt.maxTokens = nonNegativeInt(max, "max_tokens");
  const stream = body.stream === true;
  const streamUsage = stream && isObject(body.stream_options) && body.stream_options.include_usage === true;
  return { upstreamId: body.model, stream, streamUsage, prompt, shape: shapeOf(body, body.messages), choices: choiceCount(body.n, "n") };
}

const id = (reply: Reply) => `chatcmpl-sbx${reply.answer.seed.slice(0, 24)}`;

/** The message of one choice. */
function message(a: ShapedAnswer): Json {
  const msg: Json = { role: "assistant", content: a.toolCalls.length ? null : a.text, refusal: null };
  if (a.toolCalls.length) msg.tool_calls = a.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  return msg;
}

/** Every choice (n of them), and usage as OpenAI reports it: the prompt once, the completions summed. */
function body(reply: Reply): Json {
  const shaped = reply.answers.map((answer) => shapedAnswer({ ...reply, answer }));
  const prompt = shaped[0]!.promptTokens;
  const completion = shaped.reduce((sum, a) => sum + a.completionTokens, 0);
  return {
    id: id(reply),
    object: "chat.completion",
    created: created(),
    model: reply.parsed.upstreamId,
    choices: shaped.map((a, index) => ({ index, message: message(a), finish_reason: a.finishReason, logprobs: null })),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

export const openaiSandbox: SandboxProtocol = {
  route: (rest) => (rest === "chat/completions" ? {} : null),
  parse,
  body,
  frames(reply) {
    const head = { id: id(reply), object: "chat.completion.chunk", created: created(), model: reply.parsed.upstreamId };
    /** One choice's frames (n > 1: each chunk's choice carries its index), role chunk first. */
    const choiceFrames = (a: ShapedAnswer, choice: number) => {
      const chunk = (delta: Json, finish: string | null) => sseBytes(JSON.stringify({ ...head, choices: [{ index: choice, delta, finish_reason: finish }] }));
      const frames = [chunk({ role: "assistant", content: a.toolCalls.length ? null : "" }, null)];
      for (const p of chunksOf(a.text)) frames.push(chunk({ content: p }, null));
      // A call's id and name come first with empty arguments, then the arguments in pieces, as OpenAI streams them.
      for (const [index, c] of a.toolCalls.entries()) {
        frames.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }, null));
        for (const p of chunksOf(c.arguments)) frames.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }, null));
      }
      frames.push(chunk({}, a.finishReason));
      return frames;
    };
    // Several choices are interleaved, as OpenAI streams them: the k-th chunk of each choice in turn.
    const per = reply.answers.map((answer, i) => choiceFrames(shapedAnswer({ ...reply, answer }), i));
    const frames: Uint8Array[] = [];
    for (let k = 0; k < Math.max(...per.map((f) => f.length)); k++) for (const f of per) if (k < f.length) frames.push(f[k]!);
    if (reply.parsed.streamUsage) frames.push(sseBytes(JSON.stringify({ ...head, choices: [], usage: body(reply).usage })));
    frames.push(sseBytes("[DONE]"));
    return { frames, firstContent: per.length };
  },
  error(status, message) {
    const type = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
    return json({ error: { message, type, param: null, code: status === 429 ? "rate_limit_exceeded" : null } }, status);
  },
};
