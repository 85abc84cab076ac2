import type { ChatMessage } from "./types";

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

/**
 * System prompts apart, and consecutive messages of one role joined: Anthropic, Gemini and
 * Perplexity reject a conversation whose user and assistant turns do not alternate.
 */
export function alternatingTurns(messages: readonly ChatMessage[]): { system: string; turns: Turn[] } {
  const system: string[] = [];
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === "system") {
      system.push(m.content);
      continue;
    }
    const last = turns[turns.length - 1];
    if (last && last.role === m.role) last.content += `\n\n${m.content}`;
    else turns.push({ role: m.role, content: m.content });
  }
  return { system: system.join("\n\n"), turns };
}
