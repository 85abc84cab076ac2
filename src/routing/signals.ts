import type { ChatMessage } from "../providers/types";
import { SIGNALS, type Signal } from "./types";
import { CUES } from "./vocabulary";

/**
 * Intent signals (docs/routing.md, "Signals"). The last user message (head and tail of a very long
 * one) is scanned once, character by character, with no regular expression and no substring
 * allocation: each word is hashed as it is read (lowercasing ASCII on the fly) and looked up in a
 * precomputed open-addressing table of cue words and phrases. A phrase is looked up word by word,
 * and only while the words so far start a known phrase, so most words cost one lookup.
 * Symbols (code fences, braces, `digit operator digit`) are counted in the same pass.
 */

/** About 4 characters a token (DESIGN.md section 4). */
export const CHARS_PER_TOKEN = 4;
/** From this estimated conversation size on, `long_context` is set and long-context models are preferred. */
export const LONG_CONTEXT_TOKENS = 8000;
/** A last user message at most this long, with no other signal, is a simple question. */
export const SIMPLE_MAX_CHARS = 280;
/**
 * A longer message is read at its head and its tail only, where the request is stated ("Summarize
 * the following: ..." / "... what went wrong?"), so a pasted megabyte costs the same as 10,000 characters.
 */
export const SCAN_HEAD_CHARS = 8000;
export const SCAN_TAIL_CHARS = 2000;
/** Points at which a scored signal fires: one strong cue, or two weak ones. */
const FIRE_AT = 2;

type ScoredSignal = keyof typeof CUES;
const SCORED = Object.keys(CUES) as ScoredSignal[];
const CODE = SCORED.indexOf("code");
const MATH = SCORED.indexOf("math");

export interface PromptFeatures {
  signals: Record<Signal, boolean>;
  /** Characters of all message contents. */
  totalChars: number;
  /** ceil(totalChars / 4). */
  estimatedPromptTokens: number;
  /** Content of the last user message (the last message if no user message), as written. */
  lastUserText: string;
}

// ---- hashing: FNV-1a per word, an avalanche mix to chain words into phrases ----

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

const nonZero = (h: number) => h || 1;

function hashWord(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h;
}

function hashPhrase(phrase: string): number {
  const words = phrase.split(" ");
  // Chained exactly as the scanner chains words (zero is the table's empty marker, so never a key).
  let h = nonZero(hashWord(words[0]!));
  for (let i = 1; i < words.length; i++) h = nonZero(mix(h, nonZero(hashWord(words[i]!))));
  return h;
}

// ---- the cue table: key = phrase hash, value = strong mask (bits 0-15) | weak mask (bits 16-29) | PREFIX ----

const TABLE_BITS = 12;
const TABLE_SIZE = 1 << TABLE_BITS;
const TABLE_MASK = TABLE_SIZE - 1;
const EMPTY = 0;
/** Set on the first word (and first two words) of a longer phrase: only then is the next phrase hash looked up. */
const PREFIX = 1 << 30;
const WEAK_SHIFT = 16;
const tableKeys = new Int32Array(TABLE_SIZE);
const tableValues = new Int32Array(TABLE_SIZE);
const MAX_PHRASE_WORDS = 3;

function slotOf(key: number): number {
  let slot = (key ^ (key >>> TABLE_BITS)) & TABLE_MASK;
  while (tableKeys[slot] !== EMPTY && tableKeys[slot] !== key) slot = (slot + 1) & TABLE_MASK;
  return slot;
}

const lookup = (key: number) => tableValues[slotOf(key)]!;

{
  const phraseOfKey = new Map<number, string>();
  const put = (phrase: string, bits: number) => {
    const key = nonZero(hashPhrase(phrase));
    // Two different entries with one hash would silently merge; the vocabulary is static, so fail at load.
    const seen = phraseOfKey.get(key);
    if (seen !== undefined && seen !== phrase) throw new Error(`cue hash collision: "${seen}" and "${phrase}"`);
    phraseOfKey.set(key, phrase);
    const slot = slotOf(key);
    tableKeys[slot] = key;
    tableValues[slot] = tableValues[slot]! | bits;
  };
  const add = (phrase: string, bit: number) => {
    const words = phrase.split(" ");
    if (words.length > MAX_PHRASE_WORDS) throw new Error(`cue "${phrase}" has more than ${MAX_PHRASE_WORDS} words`);
    for (let n = 1; n < words.length; n++) put(words.slice(0, n).join(" "), PREFIX);
    put(phrase, bit);
  };
  SCORED.forEach((signal, i) => {
    for (const phrase of CUES[signal].strong) add(phrase, 1 << i);
    for (const phrase of CUES[signal].weak) add(phrase, 1 << (i + WEAK_SHIFT));
  });
  if (phraseOfKey.size > TABLE_SIZE / 4) throw new Error("cue table over a quarter full; raise TABLE_BITS");
}

// Reused across calls (JavaScript is single-threaded; every call resets it before use).
const scores = new Int32Array(SCORED.length);
const SIGNAL_BITS = (1 << SCORED.length) - 1;

/** Adds the points of a table value; returns whether the entry is a phrase prefix. */
function credit(value: number): boolean {
  if (value & SIGNAL_BITS) for (let i = 0; i < SCORED.length; i++) if (value & (1 << i)) scores[i]! += 2;
  if ((value >>> WEAK_SHIFT) & SIGNAL_BITS) for (let i = 0; i < SCORED.length; i++) if (value & (1 << (i + WEAK_SHIFT))) scores[i]! += 1;
  return (value & PREFIX) !== 0;
}

/** Per ASCII code: the lowercased code for letters and digits (they form words), 0 for the rest. */
const FOLD = new Uint8Array(128);
for (let c = 97; c <= 122; c++) FOLD[c] = c;
for (let c = 65; c <= 90; c++) FOLD[c] = c + 32;
for (let c = 48; c <= 57; c++) FOLD[c] = c;

/** Beyond ASCII, letters form words; no-break space, guillemets and the punctuation blocks do not. */
const wordBeyondAscii = (c: number) =>
  c !== 0xa0 && c !== 0xab && c !== 0xbb && !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f);

const isMathOperator = (c: number) => c === 43 || c === 42 || c === 94 || c === 61 || c === 0xd7 || c === 0xf7; // + * ^ = × ÷

/**
 * Adds the points of text[start, end) to `scores`. A word is read by a tight inner loop to its end
 * and then looked up once, so the branch that tells words from the rest changes course once per
 * word, not per character.
 */
function scoreRange(text: string, start: number, end: number) {
  let prefix1 = 0; // hash of the previous word when it starts a phrase, else 0
  let prefix2 = 0; // hash of the previous two words when they start a phrase, else 0
  let structural = 0; // { } ; () =>
  let backticks = 0;
  let fence = false;
  let mathExpressions = 0;
  let numberState = 0; // 0 other, 1 after a number, 2 after "number operator"
  let prevCode = 32;
  let i = start;
  while (i < end) {
    let c = text.charCodeAt(i);
    let folded = c < 128 ? FOLD[c]! : wordBeyondAscii(c) ? c : 0;
    if (folded !== 0) {
      let word = FNV_OFFSET;
      do {
        word = Math.imul(word ^ folded, FNV_PRIME);
        if (folded <= 57) {
          if (numberState === 2) mathExpressions++;
          numberState = 1;
        } else numberState = 0;
        if (++i === end) break;
        c = text.charCodeAt(i);
        folded = c < 128 ? FOLD[c]! : wordBeyondAscii(c) ? c : 0;
      } while (folded !== 0);
      // prevCode is only read for punctuation patterns; any letter stands for the word just ended.
      prevCode = 97;
      const key = nonZero(word);
      if (prefix1 === 0 && prefix2 === 0) {
        // The common case: no phrase is open, so only this word is looked up.
        prefix1 = credit(lookup(key)) ? key : 0;
      } else {
        if (prefix2) credit(lookup(nonZero(mix(prefix2, key))));
        const pair = prefix1 ? nonZero(mix(prefix1, key)) : 0;
        prefix2 = pair && credit(lookup(pair)) ? pair : 0;
        prefix1 = credit(lookup(key)) ? key : 0;
      }
      continue;
    }
    i++;
    if (c <= 32) {
      // White space keeps the arithmetic state: "2 + 2" is as much arithmetic as "2+2".
      prevCode = c;
      continue;
    }
    // c is text[i - 1] here.
    if (c === 96) {
      if (++backticks >= 3 && prevCode === 96 && i - 3 >= start && text.charCodeAt(i - 3) === 96) fence = true;
    } else if (c === 123 || c === 125 || c === 59) structural++;
    else if (c === 41 && prevCode === 40) structural++;
    else if (c === 62 && prevCode === 61) structural++;
    // Dates and phone numbers use "-" and "/" without spaces; only spaced ones are arithmetic.
    if (numberState === 1 && (isMathOperator(c) || ((c === 45 || c === 47) && prevCode <= 32))) numberState = 2;
    else numberState = 0;
    prevCode = c;
  }
  if (fence || structural >= 4) scores[CODE]! += 2;
  else if (structural >= 2 || backticks >= 2) scores[CODE]! += 1;
  if (mathExpressions > 0) scores[MATH]! += 2;
}

/** Whether a scored signal reached FIRE_AT in the last scan. */
function fired(signal: ScoredSignal): boolean {
  return scores[SCORED.indexOf(signal)]! >= FIRE_AT;
}

function lastUserMessage(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "user") return messages[i]!.content;
  return messages.length ? messages[messages.length - 1]!.content : "";
}

export function detectSignals(messages: readonly ChatMessage[]): PromptFeatures {
  let totalChars = 0;
  for (const message of messages) totalChars += message.content.length;
  const estimatedPromptTokens = Math.ceil(totalChars / CHARS_PER_TOKEN);
  const lastUserText = lastUserMessage(messages);
  scores.fill(0);
  if (lastUserText.length <= SCAN_HEAD_CHARS + SCAN_TAIL_CHARS) scoreRange(lastUserText, 0, lastUserText.length);
  else {
    scoreRange(lastUserText, 0, SCAN_HEAD_CHARS);
    scoreRange(lastUserText, lastUserText.length - SCAN_TAIL_CHARS, lastUserText.length);
  }

  // One object literal with every key: a stable shape for the engine, and all keys always present.
  const signals: Record<Signal, boolean> = {
    code: fired("code"),
    math: fired("math"),
    reasoning: fired("reasoning"),
    creative: fired("creative"),
    extraction: fired("extraction"),
    summarization: fired("summarization"),
    translation: fired("translation"),
    long_context: estimatedPromptTokens >= LONG_CONTEXT_TOKENS,
    simple: false,
  };
  let any = signals.long_context;
  for (let i = 0; i < SCORED.length; i++) any ||= scores[i]! >= FIRE_AT;
  signals.simple = !any && lastUserText.length <= SIMPLE_MAX_CHARS;
  return { signals, totalChars, estimatedPromptTokens, lastUserText };
}

/** The names of the signals that are set, in SIGNALS order (for reasons and logs). */
export function signalNames(signals: Record<Signal, boolean>): Signal[] {
  return SIGNALS.filter((s) => signals[s]);
}
