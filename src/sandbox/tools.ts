/**
 * The sandbox's answers beyond text, the same in every protocol: a tool call when tools are offered
 * and the prompt asks for one (or tool_choice forces it), valid JSON for a JSON response format
 * (shaped by the JSON Schema when one is given), a sentence about the tool results when the
 * conversation ends with them, and a note of the images it was shown. Deterministic, like the
 * text answers: the arguments and values are read from the prompt.
 */
import { estimateTokens } from "../cost/tokens";
import { isObject, type Json } from "../providers/adapter";
import type { SandboxAnswer } from "./answer";
import type { Reply, SandboxTool } from "./http";

export interface SandboxToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

export interface ShapedAnswer extends Omit<SandboxAnswer, "finishReason"> {
  finishReason: SandboxAnswer["finishReason"] | "tool_calls";
  toolCalls: SandboxToolCall[];
}

const STOP = new Set(["the", "and", "for", "with", "from", "this", "that", "what", "when", "into", "about", "current", "given", "your", "please", "tool", "function"]);
const words = (s: string) => (s.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !STOP.has(w));

/** The offered tool the prompt asks for: named outright, or sharing a telling word with its name or description. */
function wantedTool(tools: readonly SandboxTool[], ask: string): SandboxTool | null {
  const lower = ask.toLowerCase();
  const named = tools.find((t) => lower.includes(t.name.toLowerCase()) || lower.includes(t.name.toLowerCase().replace(/[_-]+/g, " ")));
  if (named) return named;
  const asked = new Set(words(ask));
  return tools.find((t) => words(`${t.name.replace(/[_-]+/g, " ")} ${t.description}`).some((w) => asked.has(w))) ?? null;
}

/** A capitalised word after in/for/at/of ("weather in Paris"): what a place or name argument usually is. */
const properNoun = (ask: string) => /\b(?:in|for|at|of|from|to)\s+([A-Z][\p{L}-]+(?:\s+[A-Z][\p{L}-]+)?)/u.exec(ask)?.[1] ?? /\b([A-Z][\p{L}]{2,})\b/u.exec(ask.slice(1))?.[1] ?? null;
const firstNumber = (ask: string) => {
  const m = /-?\d+(?:\.\d+)?/.exec(ask);
  return m ? Number(m[0]) : null;
};

function resolveRef(schema: Json, root: Json): Json {
  if (typeof schema.$ref !== "string" || !schema.$ref.startsWith("#/")) return schema;
  let node: unknown = root;
  for (const key of schema.$ref.slice(2).split("/")) node = isObject(node) ? node[key] : undefined;
  return isObject(node) ? node : {};
}

/** A value that conforms to the (common subset of) JSON Schema, filled from the prompt where it can be. */
export function valueFor(schemaIn: unknown, key: string, ask: string, root: Json, depth = 0): unknown {
  if (!isObject(schemaIn) || depth > 8) return null;
  const schema = resolveRef(schemaIn, root);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const alt = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (alt?.length) return valueFor(alt.find((s) => !(isObject(s) && s.type === "null")) ?? alt[0], key, ask, root, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (isObject(schema.properties) ? "object" : "string")];
  const type = types.find((t) => t !== "null") ?? "null";
  switch (type) {
    case "object": {
      const out: Json = {};
      const props = isObject(schema.properties) ? schema.properties : {};
      for (const [k, sub] of Object.entries(props)) out[k] = valueFor(sub, k, ask, root, depth + 1);
      return out;
    }
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 1;
      return Array.from({ length: Math.max(1, min) }, () => valueFor(schema.items, key, ask, root, depth + 1));
    }
    case "integer":
    case "number": {
      let n = firstNumber(ask) ?? 1;
      if (type === "integer") n = Math.round(n);
      if (typeof schema.minimum === "number" && n < schema.minimum) n = schema.minimum;
      if (typeof schema.maximum === "number" && n > schema.maximum) n = schema.maximum;
      return n;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    default: {
      if (schema.format === "date") return "2026-01-01";
      if (schema.format === "date-time") return "2026-01-01T00:00:00Z";
      if (/city|location|place|country|name|town|region/i.test(key)) return properNoun(ask) ?? "Paris";
      const topic = ask.replace(/\s+/g, " ").trim();
      return topic ? `${key}: ${topic.slice(0, 60)}` : key;
    }
  }
}

const lastUserText = (reply: Reply) => reply.parsed.prompt.turns.filter((t) => t.role === "user").at(-1)?.text ?? "";

function toolCall(reply: Reply, tool: SandboxTool, ask: string, index: number): SandboxToolCall {
  const schema = tool.parameters ?? { type: "object", properties: {} };
  const args = valueFor(schema, tool.name, ask, schema);
  return { id: `call_sbx${reply.answer.seed.slice(index * 4, index * 4 + 20)}`, name: tool.name, arguments: JSON.stringify(isObject(args) ? args : {}) };
}

function jsonText(reply: Reply, schema: Json | null, ask: string): string {
  if (schema) return JSON.stringify(valueFor(schema, "answer", ask, schema));
  return JSON.stringify({ answer: reply.answer.text.split("\n\n")[1] ?? reply.answer.text, model: reply.model.id, sandbox: true });
}

export function shapedAnswer(reply: Reply): ShapedAnswer {
  const { answer } = reply;
  const shape = reply.parsed.shape;
  const ask = lastUserText(reply);
  const plain: ShapedAnswer = { ...answer, toolCalls: [] };

  if (shape.tools.length && shape.toolChoice !== "none" && shape.toolResults === null) {
    const choice = shape.toolChoice;
    const tool =
      typeof choice === "object" ? shape.tools.find((t) => t.name === choice.name) ?? null : wantedTool(shape.tools, ask) ?? (choice === "required" ? shape.tools[0]! : null);
    if (tool) {
      const call = toolCall(reply, tool, ask, 0);
      return { ...answer, text: "", toolCalls: [call], finishReason: "tool_calls", completionTokens: estimateTokens(call.name + call.arguments) };
    }
  }

  let text: string | null = null;
  if (shape.json) text = jsonText(reply, shape.json.schema, ask);
  else if (shape.toolResults) {
    const results = shape.toolResults.map((r) => `${r.name} returned ${r.content.replace(/\s+/g, " ").slice(0, 200)}`).join("; ");
    text = `${reply.model.display_name} (${reply.model.id}, sandbox upstream): ${results}. That answers "${ask.slice(0, 80)}". (Deterministic sandbox answer ${answer.seed.slice(0, 12)}; no real model was called.)`;
  } else if (shape.images) text = `${answer.text}\n\n(${shape.images} image${shape.images === 1 ? "" : "s"} received.)`;
  if (text === null) return plain;
  return { ...answer, text, finishReason: "stop", toolCalls: [], completionTokens: estimateTokens(text) };
}
