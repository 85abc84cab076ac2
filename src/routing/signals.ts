import type { ChatMessage } from "../providers/types";
import { accumulate, addBiases, K, OUTPUTS, sigmoid } from "./classifier";
import { FOLLOW_UP_WEIGHT, turnsOf } from "./conversation";
import { scan, scanMessage, SCORED } from "./features";
import { SIGNALS, type Difficulty, type Signal } from "./types";

/**
 * Intent signals and difficulty (docs/routing.md, "Signals"). The last user message (and, for a
 * short follow-up, the user turn before it) is scanned once by `features.ts`, scored by the linear
 * classifier of `classifier.ts`, and the scores are read against fixed thresholds. Two symbol rules
 * of the cue scanner stay, because a fence or a brace-heavy message is code whatever its words say.
 */

/** About 4 characters a token (DESIGN.md section 4). */
export const CHARS_PER_TOKEN = 4;
/** From this estimated conversation size on, `long_context` is set and long-context models are preferred. */
export const LONG_CONTEXT_TOKENS = 8000;
/** A signal fires at this probability. */
export const FIRE_AT = 0.5;
/** The difficulty heads: at least standard, and strong, each at this probability. */
export const STANDARD_AT = 0.5;
export const STRONG_AT = 0.5;

export interface PromptFeatures {
  signals: Record<Signal, boolean>;
  /** The classifier's probability per signal (long_context: 1 or 0, by size), two decimals. */
  scores: Record<Signal, number>;
  difficulty: Difficulty;
  /** Probability that the prompt needs at least a standard model, and a strong one, two decimals. */
  difficultyScores: { standard: number; strong: number };
  /** Characters of all message contents. */
  totalChars: number;
  /** ceil(totalChars / 4). */
  estimatedPromptTokens: number;
  /** Content of the last user message (the last message if no user message), as written. */
  lastUserText: string;
}

// Reused across calls (JavaScript is single-threaded; every call resets it before use).
const logits = new Float64Array(K);
const SIMPLE = OUTPUTS.indexOf("simple");
const STANDARD = OUTPUTS.indexOf("standard");
const STRONG = OUTPUTS.indexOf("strong");
const CODE = SCORED.indexOf("code");

const two = (x: number) => Math.round(x * 100) / 100;

export function detectSignals(messages: readonly ChatMessage[]): PromptFeatures {
  let totalChars = 0;
  for (const message of messages) totalChars += message.content.length;
  const estimatedPromptTokens = Math.ceil(totalChars / CHARS_PER_TOKEN);
  const { last, previous, closing } = turnsOf(messages);

  logits.fill(0);
  scanMessage(last);
  const codeBySymbols = scan.fence || scan.structural >= 4;
  accumulate(logits, 1);
  if (previous !== undefined) {
    scanMessage(previous);
    accumulate(logits, FOLLOW_UP_WEIGHT);
  }
  addBiases(logits);

  const long_context = estimatedPromptTokens >= LONG_CONTEXT_TOKENS;
  const p = (k: number) => sigmoid(logits[k]!);
  const pCode = codeBySymbols ? Math.max(p(CODE), FIRE_AT) : p(CODE);
  // One object literal with every key: a stable shape for the engine, and all keys always present.
  const scores: Record<Signal, number> = {
    code: two(pCode),
    math: two(p(1)),
    reasoning: two(p(2)),
    creative: two(p(3)),
    extraction: two(p(4)),
    summarization: two(p(5)),
    translation: two(p(6)),
    long_context: long_context ? 1 : 0,
    simple: two(p(SIMPLE)),
  };
  // An acknowledgement ("thanks!") asks nothing: no intent fires, and it is simple (conversation.ts).
  const fires = (x: number) => !closing && x >= FIRE_AT;
  const signals: Record<Signal, boolean> = {
    code: fires(pCode),
    math: fires(p(1)),
    reasoning: fires(p(2)),
    creative: fires(p(3)),
    extraction: fires(p(4)),
    summarization: fires(p(5)),
    translation: fires(p(6)),
    long_context,
    simple: false,
  };
  let any = long_context;
  for (let i = 0; i < SCORED.length; i++) any ||= signals[SCORED[i]!];
  signals.simple = !any && (closing || p(SIMPLE) >= FIRE_AT);
  const standard = p(STANDARD);
  const strong = p(STRONG);
  const difficulty: Difficulty = strong >= STRONG_AT ? "strong" : standard >= STANDARD_AT ? "standard" : "light";
  return {
    signals,
    scores,
    difficulty,
    difficultyScores: { standard: two(standard), strong: two(strong) },
    totalChars,
    estimatedPromptTokens,
    lastUserText: last,
  };
}

/** The names of the signals that are set, in SIGNALS order (for reasons and logs). */
export function signalNames(signals: Record<Signal, boolean>): Signal[] {
  return SIGNALS.filter((s) => signals[s]);
}
