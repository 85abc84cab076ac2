import { isObject, type Json } from "../providers/adapter";
import { GEMINI_STATUS_OF } from "../providers/gemini";
import { sseBytes } from "../providers/sse";
import { chunksOf, type SandboxPrompt } from "./answer";
import { BadRequest, choiceCount, inverse, json, nonNegativeInt, plainShape, text, type Parsed, type PathInfo, type RequestShape, type Reply, type SandboxProtocol } from "./http";
import { shapedAnswer, type ShapedAnswer } from "./tools";

/** The adapter's status-name-to-code map, inverted: what the sandbox sends for a status. */
const STATUS_NAME = inverse(GEMINI_STATUS_OF);

function shapeOf(body: Json, contents: unknown[]): RequestShape {
  const shape = plainShape();
  for (const group of Array.isArray(body.tools) ? body.tools : []) {
    const decls = isObject(group) && Array.isArray(group.functionDeclarations) ? group.functionDeclarations : [];
    for (const d of decls) {
      if (!isObject(d) || typeof d.name !== "string") throw new BadRequest("* GenerateContentRequest.tools.function_declarations.name: name is required");
      const params = isObject(d.parametersJsonSchema) ? d.parametersJsonSchema : isObject(d.parameters) ? d.parameters : null;
      shape.tools.push({ name: d.name, description: typeof d.description === "string" ? d.description : "", parameters: params });
    }
  }
  const cfg = isObject(body.toolConfig) && isObject(body.toolConfig.functionCallingConfig) ? body.toolConfig.functionCallingConfig : null;
  if (cfg?.mode === "NONE") shape.toolChoice = "none";
  if (cfg?.mode === "ANY") {
    const only = Array.isArray(cfg.allowedFunctionNames) && cfg.allowedFunctionNames.length === 1 ? cfg.allowedFunctionNames[0] : null;
    shape.toolChoice = typeof only === "string" ? { name: only } : "required";
  }
  const gen = isObject(body.generationConfig) ? body.generationConfig : {};
  if (gen.responseMimeType === "application/json") {
    const schema = isObject(gen.responseJsonSchema) ? gen.responseJsonSchema : isObject(gen.responseSchema) ? gen.responseSchema : null;
    shape.json = { schema };
  }
  for (const c of contents) {
    for (const p of isObject(c) && Array.isArray(c.parts) ? c.parts : []) if (isObject(p) && (isObject(p.inlineData) || isObject(p.fileData))) shape.images++;
  }
  const last = contents[contents.length - 1];
  const lastParts = isObject(last) && Array.isArray(last.parts) ? last.parts : [];
  if (lastParts.length && lastParts.every((p) => isObject(p) && isObject(p.functionResponse))) {
    shape.toolResults = lastParts.map((p) => {
      const r = (p as Json).functionResponse as Json;
      return { name: typeof r.name === "string" ? r.name : "tool", content: JSON.stringify(r.response ?? {}) };
    });
  }
  return shape;
}

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
  return { upstreamId: path.geminiModel!, stream: path.stream === true, streamUsage: false, prompt, shape: shapeOf(body, body.contents), choices: choiceCount(cfg.candidateCount, "generationConfig.candidateCount") };
}

const usage = (a: ShapedAnswer, final: boolean) =>
  final
    ? { promptTokenCount: a.promptTokens, candidatesTokenCount: a.completionTokens, totalTokenCount: a.promptTokens + a.completionTokens }
    : { promptTokenCount: a.promptTokens, totalTokenCount: a.promptTokens };

/** Gemini's calls carry no id; a function call's finish reason is plain STOP. */
function body(reply: Reply, answer: ShapedAnswer, textPart = answer.text, final = true): Json {
  const parts: Json[] = answer.toolCalls.length ? answer.toolCalls.map((c) => ({ functionCall: { name: c.name, args: JSON.parse(c.arguments) } })) : [{ text: textPart }];
  const candidate: Json = { content: { parts, role: "model" }, index: 0 };
  if (final) candidate.finishReason = answer.finishReason === "length" ? "MAX_TOKENS" : "STOP";
  return { candidates: [candidate], usageMetadata: usage(answer, final), modelVersion: reply.parsed.upstreamId, responseId: `sbx${answer.seed.slice(0, 20)}` };
}

/** The whole answer: a candidate per choice (candidateCount), usageMetadata counting every candidate. */
function wholeBody(reply: Reply): Json {
  const shaped = reply.answers.map((answer) => shapedAnswer({ ...reply, answer }));
  const first = body(reply, shaped[0]!);
  if (shaped.length === 1) return first;
  const candidates = shaped.map((a, index) => ({ ...((body(reply, a).candidates as Json[])[0]!), index }));
  const completion = shaped.reduce((sum, a) => sum + a.completionTokens, 0);
  const prompt = shaped[0]!.promptTokens;
  return { ...first, candidates, usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion } };
}

export const geminiSandbox: SandboxProtocol = {
  route(rest) {
    const m = /^models\/(.+):(generateContent|streamGenerateContent)$/.exec(rest);
    return m ? { geminiModel: m[1]!, stream: m[2] === "streamGenerateContent" } : null;
  },
  parse,
  body: (reply) => wholeBody(reply),
  // Every frame a full response with the next part; the last one with finishReason. CRLF, as Google sends.
  frames(reply) {
    const piecesOf = (a: ShapedAnswer) => {
      const pieces = a.toolCalls.length ? [""] : chunksOf(a.text);
      if (!pieces.length) pieces.push("");
      return pieces;
    };
    const answer = shapedAnswer(reply);
    if (reply.answers.length === 1) {
      const pieces = piecesOf(answer);
      const frames = pieces.map((p, i) => sseBytes(JSON.stringify(body(reply, answer, p, i === pieces.length - 1)), undefined, "\r\n"));
      return { frames, firstContent: 0 };
    }
    // candidateCount > 1: each message carries the next part of every candidate still going, each
    // with its index; a candidate's last part has its finishReason, the last message the summed usage.
    const shaped = reply.answers.map((a) => shapedAnswer({ ...reply, answer: a }));
    const pieces = shaped.map(piecesOf);
    const count = Math.max(...pieces.map((p) => p.length));
    const prompt = shaped[0]!.promptTokens;
    const completion = shaped.reduce((sum, a) => sum + a.completionTokens, 0);
    const frames: Uint8Array[] = [];
    for (let k = 0; k < count; k++) {
      const candidates: Json[] = [];
      for (const [index, a] of shaped.entries()) {
        const ps = pieces[index]!;
        if (k >= ps.length) continue;
        candidates.push({ ...((body(reply, a, ps[k], k === ps.length - 1).candidates as Json[])[0]!), index });
      }
      const final = k === count - 1;
      const usageMetadata = final ? { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion } : { promptTokenCount: prompt, totalTokenCount: prompt };
      frames.push(sseBytes(JSON.stringify({ candidates, usageMetadata, modelVersion: reply.parsed.upstreamId, responseId: `sbx${answer.seed.slice(0, 20)}` }), undefined, "\r\n"));
    }
    return { frames, firstContent: 0 };
  },
  error(status, message) {
    return json({ error: { code: status, message, status: STATUS_NAME[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION") } }, status);
  },
};
