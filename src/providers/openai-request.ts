/**
 * The OpenAI chat request fields beyond SPEC.md 4.1 as zod schemas, and their translation into the
 * protocol-neutral Message and CallOptions. The chat request schema (routing/request-schema.ts)
 * and the Responses API build on these, so every endpoint reads a message the same way.
 */
import { z } from "zod";
import type { CallOptions, ContentPart, Message, ResponseFormat, ToolChoice, ToolSpec } from "./types";

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const imagePart = z.object({
  type: z.literal("image_url"),
  image_url: z.union([
    z.string().min(1),
    z.object({ url: z.string().min(1), detail: z.enum(["auto", "low", "high"]).optional() }),
  ]),
});
const PART_TYPES = "content parts must be {type: \"text\", text} or {type: \"image_url\", image_url: {url}}";
const part = z.discriminatedUnion("type", [textPart, imagePart], { error: PART_TYPES });
const textOnly = z.array(textPart, { error: "content must be a string or an array of text parts" });

const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

const messageSchema = z.discriminatedUnion(
  "role",
  [
    z.looseObject({ role: z.enum(["system", "developer"]), content: z.union([z.string(), textOnly]) }),
    z.looseObject({
      role: z.literal("user"),
      content: z.union([z.string(), z.array(part).min(1, { message: "content must hold at least one part" })], {
        error: `content must be a string or an array of content parts; ${PART_TYPES}`,
      }),
    }),
    z
      .looseObject({
        role: z.literal("assistant"),
        content: z.union([z.string(), textOnly]).nullish(),
        tool_calls: z.array(toolCall).optional(),
      })
      .refine((m) => m.content != null || m.tool_calls?.length, { message: "an assistant message needs content or tool_calls", path: ["content"] }),
    z.looseObject({ role: z.literal("tool"), tool_call_id: z.string().min(1), content: z.union([z.string(), textOnly]) }),
  ],
  { error: "role must be one of system, developer, user, assistant, tool" },
);
export type OpenAiMessage = z.output<typeof messageSchema>;
export { messageSchema as openAiMessageSchema };

const contentParts = (content: string | ReadonlyArray<z.output<typeof part>>): string | ContentPart[] =>
  typeof content === "string"
    ? content
    : content.map((p): ContentPart => {
        if (p.type === "text") return { type: "text", text: p.text };
        const img = typeof p.image_url === "string" ? { url: p.image_url } : p.image_url;
        return { type: "image", url: img.url, ...(img.detail ? { detail: img.detail } : {}) };
      });

const joinText = (content: string | ReadonlyArray<{ text: string }>) => (typeof content === "string" ? content : content.map((p) => p.text).join(""));

/** An OpenAI message as the neutral Message (`developer` is a system message, as OpenAI treats it for non-o-series models). */
export function toMessage(m: OpenAiMessage): Message {
  switch (m.role) {
    case "system":
    case "developer":
      return { role: "system", content: joinText(m.content) };
    case "user":
      return { role: "user", content: contentParts(m.content) };
    case "assistant": {
      const content = m.content == null ? "" : joinText(m.content);
      if (!m.tool_calls?.length) return { role: "assistant", content };
      return { role: "assistant", content, toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) };
    }
    case "tool":
      return { role: "tool", content: joinText(m.content), toolCallId: m.tool_call_id };
  }
}

const functionName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, { message: "function names are 1-64 letters, digits, _ or -" });
const jsonSchemaObject = z.record(z.string(), z.unknown());

export const toolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: functionName,
    description: z.string().optional(),
    parameters: jsonSchemaObject.optional(),
    strict: z.boolean().nullish(),
  }),
});

export const toolChoiceSchema = z.union([
  z.enum(["none", "auto", "required"]),
  z.object({ type: z.literal("function"), function: z.object({ name: functionName }) }),
]);

export const responseFormatSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("text") }),
    z.object({ type: z.literal("json_object") }),
    z.object({
      type: z.literal("json_schema"),
      json_schema: z.object({ name: functionName, description: z.string().optional(), schema: jsonSchemaObject.optional(), strict: z.boolean().nullish() }),
    }),
  ],
  { error: "response_format type must be text, json_object or json_schema" },
);

export const REASONING_EFFORTS = ["minimal", "low", "medium", "high"] as const;

/** The most choices (`n`) one request may ask for. */
export const MAX_CHOICES = 8;

/** The OpenAI chat parameters beyond SPEC.md 4.1, as they appear in the request body. */
export const openAiParamsShape = {
  tools: z.array(toolSchema).max(128).optional(),
  tool_choice: toolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: responseFormatSchema.optional(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  top_p: z.number().min(0).max(1).optional(),
  seed: z.int().optional(),
  // Gemini's candidateCount stops at 8, so the gateway does too (OpenAI's own limit is 128).
  n: z.int().min(1).max(MAX_CHOICES, { message: `n is at most ${MAX_CHOICES}` }).optional(),
  user: z.string().max(256).optional(),
  reasoning_effort: z.enum(REASONING_EFFORTS).optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
};

export type OpenAiParams = { [K in keyof typeof openAiParamsShape]?: z.output<(typeof openAiParamsShape)[K]> };

export const toolSpec = (t: z.output<typeof toolSchema>): ToolSpec => ({
  name: t.function.name,
  ...(t.function.description ? { description: t.function.description } : {}),
  ...(t.function.parameters ? { parameters: t.function.parameters } : {}),
  ...(t.function.strict != null ? { strict: t.function.strict } : {}),
});

const toolChoiceOf = (c: z.output<typeof toolChoiceSchema>): ToolChoice => (typeof c === "string" ? c : { name: c.function.name });

function formatOf(f: z.output<typeof responseFormatSchema>): ResponseFormat | undefined {
  if (f.type === "text") return undefined;
  if (f.type === "json_object") return { type: "json_object" };
  const s = f.json_schema;
  return { type: "json_schema", name: s.name, schema: s.schema ?? {}, strict: s.strict === true, ...(s.description ? { description: s.description } : {}) };
}

/** The parameters as CallOptions, with only the keys that were given (receipts hash them as they are). */
export function callOptionsOf(p: OpenAiParams): CallOptions | undefined {
  const o: CallOptions = {};
  if (p.tools?.length) o.tools = p.tools.map(toolSpec);
  if (p.tool_choice !== undefined) o.toolChoice = toolChoiceOf(p.tool_choice);
  if (p.parallel_tool_calls !== undefined) o.parallelToolCalls = p.parallel_tool_calls;
  const format = p.response_format ? formatOf(p.response_format) : undefined;
  if (format) o.responseFormat = format;
  if (p.stop != null) o.stop = typeof p.stop === "string" ? [p.stop] : p.stop;
  if (p.top_p !== undefined) o.topP = p.top_p;
  if (p.seed !== undefined) o.seed = p.seed;
  if (p.user !== undefined) o.user = p.user;
  if (p.reasoning_effort !== undefined) o.reasoningEffort = p.reasoning_effort;
  // n: 1 is the default every protocol gives: left out, so such a request hashes as it always has.
  if (p.n !== undefined && p.n > 1) o.n = p.n;
  return Object.keys(o).length ? o : undefined;
}

/** Checks across fields, as OpenAI makes them: a tool_choice needs tools, and a named tool must be one of them. */
export function paramIssues(p: OpenAiParams): Array<{ path: string[]; message: string }> {
  const issues: Array<{ path: string[]; message: string }> = [];
  const names = new Set((p.tools ?? []).map((t) => t.function.name));
  if (p.tool_choice !== undefined && !p.tools?.length) issues.push({ path: ["tool_choice"], message: "tool_choice is only allowed when tools are given" });
  if (typeof p.tool_choice === "object" && p.tools?.length && !names.has(p.tool_choice.function.name)) {
    issues.push({ path: ["tool_choice"], message: `tool_choice names ${p.tool_choice.function.name}, which is not among the tools` });
  }
  if (names.size !== (p.tools?.length ?? 0)) issues.push({ path: ["tools"], message: "tool names must be unique" });
  return issues;
}
