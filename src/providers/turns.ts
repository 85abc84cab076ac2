import type { ChatMessage, Message } from "./types";

/** The text of a message's content: the text parts joined (an image has none). */
export function contentText(content: Message["content"]): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const p of content) if (p.type === "text") text += p.text;
  return text;
}

/**
 * A message as text, for routing's signals and the token estimator: content text, then the
 * assistant's tool calls as `name(arguments)`. A tool result reads as an assistant turn, so that
 * the last user message stays what the person asked.
 */
export function textMessage(m: Message): ChatMessage {
  let content = contentText(m.content);
  for (const call of m.toolCalls ?? []) content += `${content ? "\n" : ""}${call.name}(${call.arguments})`;
  return { role: m.role === "tool" ? "assistant" : m.role, content };
}

export const textMessages = (messages: readonly Message[]): ChatMessage[] => messages.map(textMessage);

export const hasImages = (messages: readonly Message[]) =>
  messages.some((m) => typeof m.content !== "string" && m.content.some((p) => p.type === "image"));

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

/**
 * System prompts apart, and consecutive messages of one role joined: Anthropic, Gemini and
 * Perplexity reject a conversation whose user and assistant turns do not alternate.
 */
export function alternatingTurns(messages: readonly Message[]): { system: string; turns: Turn[] } {
  const { system, turns } = blockTurns(messages, (m) => [textMessage(m).content]);
  return { system, turns: turns.map((t) => ({ role: t.role, content: t.blocks.join("\n\n") })) };
}

export interface BlockTurn<B> {
  role: "user" | "assistant";
  blocks: B[];
}

/**
 * The same grouping over a protocol's own content blocks: system text apart; a tool result
 * belongs to a user turn (Anthropic's tool_result, Gemini's functionResponse); consecutive turns of
 * one role are one turn with the blocks of both.
 */
export function blockTurns<B>(messages: readonly Message[], blocks: (m: Message) => B[]): { system: string; turns: BlockTurn<B>[] } {
  const system: string[] = [];
  const turns: BlockTurn<B>[] = [];
  for (const m of messages) {
    if (m.role === "system") {
      system.push(contentText(m.content));
      continue;
    }
    const role = m.role === "assistant" ? "assistant" : "user";
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.blocks.push(...blocks(m));
    else turns.push({ role, blocks: blocks(m) });
  }
  // OpenAI answers a conversation of system messages only; Anthropic and Gemini need one turn, so
  // the instructions become it.
  if (!turns.length && system.length) return { system: "", turns: [{ role: "user", blocks: blocks({ role: "user", content: system.join("\n\n") || " " }) }] };
  return { system: system.join("\n\n"), turns };
}

/** A `data:` URL's media type and base64 payload, or null for any other URL. */
export function dataUrl(url: string): { mediaType: string; data: string } | null {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1]!, data: m[2]! } : null;
}

const IMAGE_TYPES: Record<string, string> = { png: "image/png", gif: "image/gif", webp: "image/webp", jpg: "image/jpeg", jpeg: "image/jpeg" };

/** The media type an image URL's extension names (JPEG when it names none). */
export function imageTypeOf(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return (ext && IMAGE_TYPES[ext]) || "image/jpeg";
}

/** The name of the function a tool result answers, from the assistant call with its id (Gemini needs it). */
export function toolNameOf(messages: readonly Message[], callId: string | undefined): string {
  for (const m of messages) for (const call of m.toolCalls ?? []) if (call.id === callId) return call.name;
  return "tool";
}

/** The arguments JSON text as an object; a model's malformed arguments are kept under `_raw`. */
export function argumentsObject(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args || "{}");
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { _raw: args };
  }
}

