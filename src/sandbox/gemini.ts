import { isObject, type Json } from "../providers/adapter";
import { GEMINI_STATUS_OF } from "../providers/gemini";
import { sseBytes } from "../providers/sse";
import { chunksOf, type SandboxAnswer, type SandboxPrompt } from "./answer";
import { BadRequest, inverse, json, nonNegativeInt, text, type Parsed, type PathInfo, type Reply, type SandboxProtocol } from "./http";

/** The adapter's status-name-to-code map, inverted: what the sandbox sends for a status. */
const STATUS_NAME = inverse(GEMINI_STATUS_OF);

function parse(body: Json, path: PathInfo, url: URL): Parsed {
  if (path.stream && url.searchParams.get("alt") !== "sse") throw new BadRequest("The sandbox streams Gemini only with alt=sse.");
  if (!Array.isArray(body.contents) || !body.contents.length) throw new BadRequest("* GenerateContentRequest.contents: contents is not specified");
  const parts = (c: unknown, what: string) => (isObject(c) && Array.isArray(c.parts) ? text(c.parts, what) : "");
  const prompt: SandboxPrompt = { system: parts(body.systemInstruction, "systemInstruction"), turns: [], maxTokens: null };
  for (const [i, c] of body.contents.entries()) {
    if (!isObject(c) || !Array.isArray(c.parts)) throw new BadRequest(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty`);
    prompt.turns.push({ role: c.role === "model" ? "assistant" : "user", text: parts(c, `contents[${i}]`) });
  }
  const cfg = isObject(body.generationConfig) ? body.generationConfig : {};
  if (cfg.maxOutputTokens !== undefined) prompt.maxTokens = nonNegativeInt(cfg.maxOutputTokens, "generationConfig.maxOutputTokens");
  return { upstreamId: path.geminiModel!, stream: path.stream === true, streamUsage: false, prompt };
}

const usage = (a: SandboxAnswer, final: boolean) =>
  final
    ? { promptTokenCount: a.promptTokens, candidatesTokenCount: a.completionTokens, totalTokenCount: a.promptTokens + a.completionTokens }
    : { promptTokenCount: a.promptTokens, totalTokenCount: a.promptTokens };

function body({ parsed, answer }: Reply, textPart = answer.text, final = true): Json {
  const candidate: Json = { content: { parts: [{ text: textPart }], role: "model" }, index: 0 };
  if (final) candidate.finishReason = answer.finishReason === "length" ? "MAX_TOKENS" : "STOP";
  return { candidates: [candidate], usageMetadata: usage(answer, final), modelVersion: parsed.upstreamId, responseId: `sbx${answer.seed.slice(0, 20)}` };
}

export const geminiSandbox: SandboxProtocol = {
  route(rest) {
    const m = /^models\/(.+):(generateContent|streamGenerateContent)$/.exec(rest);
    return m ? { geminiModel: m[1]!, stream: m[2] === "streamGenerateContent" } : null;
  },
  parse,
  body: (reply) => body(reply),
  // Every frame a full response with the next part; the last one with finishReason. CRLF, as Google sends.
  frames(reply) {
    const pieces = chunksOf(reply.answer.text);
    if (!pieces.length) pieces.push("");
    const frames = pieces.map((p, i) => sseBytes(JSON.stringify(body(reply, p, i === pieces.length - 1)), undefined, "\r\n"));
    return { frames, firstContent: 0 };
  },
  error(status, message) {
    return json({ error: { code: status, message, status: STATUS_NAME[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION") } }, status);
  },
};
