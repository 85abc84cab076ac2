/**
 * The one token estimator (DESIGN.md section 4): about 4 characters a token, rounded up. Used where
 * an upstream reports no usage and for routing's prompt size. It is an estimate, not a bound: for a
 * bound that cannot be exceeded use `tokenUpperBound`.
 */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Anything with text content: chat messages, or the parts of one. */
export interface HasText {
  content: string;
}

export function estimatePromptTokens(messages: readonly HasText[]): number {
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  return Math.ceil(chars / 4);
}

const encoder = new TextEncoder();

/**
 * A hard upper bound of the tokens any byte-level BPE tokenizer can make of this text: every token
 * covers at least one UTF-8 byte, so the byte count bounds the token count. The agents' cost guard
 * prices the worst case with it; `perMessageOverhead` covers the role markers a chat template adds.
 */
export function tokenUpperBound(messages: readonly HasText[], perMessageOverhead = 8): number {
  let bytes = 0;
  for (const m of messages) bytes += encoder.encode(m.content).length + perMessageOverhead;
  return bytes;
}

export const usageOf = (prompt: number, completion: number): TokenUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}
