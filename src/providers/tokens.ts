import type { ChatMessage, TokenUsage } from "./types";

/** About 4 characters a token (DESIGN.md section 4), rounded up. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  return Math.ceil(chars / 4);
}

export const usageOf = (prompt: number, completion: number): TokenUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});
