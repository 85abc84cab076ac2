import type { ChatMessage } from "../providers/types";
import { accumulate, addBiases, K, OUTPUTS, sigmoid } from "./classifier";
import { FOLLOW_UP_WEIGHT, turnsOf } from "./conversation";
import { scan, scanMessage } from "./features";
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
const probabilities = new Float64Array(K);
const SIMPLE = OUTPUTS.indexOf("simple");
const STANDARD = OUTPUTS.indexOf("standard");
const STRONG = OUTPUTS.indexOf("strong");
const CODE = OUTPUTS.indexOf("code");

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
  // Probabilities into a reused array, and no closure per call (one per call shows in a
  // microsecond budget, the more so where the transpiler wraps each in a naming helper, as tsx does).
  for (let k = 0; k < K; k++) probabilities[k] = sigmoid(logits[k]!);
  const pr = probabilities;
  if (codeBySymbols && pr[CODE]! < FIRE_AT) pr[CODE] = FIRE_AT;
  // One object literal with every key: a stable shape for the engine, and all keys always present.
  const scores: Record<Signal, number> = {
    code: two(pr[0]!),
    math: two(pr[1]!),
    reasoning: two(pr[2]!),
    creative: two(pr[3]!),
    extraction: two(pr[4]!),
    summarization: two(pr[5]!),
    translation: two(pr[6]!),
    long_context: long_context ? 1 : 0,
    simple: two(pr[SIMPLE]!),
  };
  // An acknowledgement ("thanks!") asks nothing: no intent fires, and it is simple (conversation.ts).
  const open = !closing;
  const signals: Record<Signal, boolean> = {
    code: open && pr[0]! >= FIRE_AT,
    math: open && pr[1]! >= FIRE_AT,
    reasoning: open && pr[2]! >= FIRE_AT,
    creative: open && pr[3]! >= FIRE_AT,
    extraction: open && pr[4]! >= FIRE_AT,
    summarization: open && pr[5]! >= FIRE_AT,
    translation: open && pr[6]! >= FIRE_AT,
    long_context,
    simple: false,
  };
  // A quick question or a greeting that the simple head is surer of than of any intent is simple,
  // and its intents are dropped ("How many ounces are in a pound?" is no maths task): on the
  // cross-validated train split simple recall rose from 77 to 85% with every intent's precision
  // as high or higher. Symbols that make it code, and a long conversation, rule it out.
  if (open && !codeBySymbols && !long_context && pr[SIMPLE]! >= FIRE_AT && outranksIntents(logits[SIMPLE]!)) {
    signals.code = signals.math = signals.reasoning = signals.creative = false;
    signals.extraction = signals.summarization = signals.translation = false;
  }
  const any = long_context || signals.code || signals.math || signals.reasoning || signals.creative || signals.extraction || signals.summarization || signals.translation;
  signals.simple = !any && (closing || pr[SIMPLE]! >= FIRE_AT);
  const standard = pr[STANDARD]!;
  const strong = pr[STRONG]!;
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

/** Whether a simple logit is above every intent's logit (of the last `detectSignals` call). */
function outranksIntents(simple: number): boolean {
  for (let k = 0; k < SIMPLE; k++) if (logits[k]! >= simple) return false;
  return true;
}

/** The names of the signals that are set, in SIGNALS order (for reasons and logs). */
export function signalNames(signals: Record<Signal, boolean>): Signal[] {
  const names: Signal[] = [];
  for (const s of SIGNALS) if (signals[s]) names.push(s);
  return names;
}
