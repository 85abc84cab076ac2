/**
 * Pure text measures behind agreement and confidence (docs/orchestration.md, "Formulas"). Answers
 * are compared as sets of normalised words, so two answers that say the same thing in a different
 * order agree, and an answer that only shares filler words does not.
 */

/** Words too common to say whether two answers agree. */
const FILLER = new Set([
  "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "is", "are", "was", "be", "it", "this", "that", "with", "as",
  "by", "at", "from", "not", "but", "if", "then", "so", "we", "you", "i", "can", "will", "do", "does", "have", "has",
]);

/** Lowercased letter-and-digit words of the text, minus filler: the form answers are compared in. */
export function wordSet(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => !FILLER.has(w)));
}

/** Jaccard similarity of two word sets, in [0, 1]; two empty answers are identical. */
export function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Rounded for display and hashing: four decimals. */
export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Pairwise similarity matrix of the answers. */
function matrix(answers: readonly string[]): number[][] {
  const sets = answers.map(wordSet);
  return sets.map((a, i) => sets.map((b, j) => (i === j ? 1 : similarity(a, b))));
}

/** Agreement of a set of answers: the mean pairwise similarity; 1 when there are fewer than two. */
export function meanAgreement(answers: readonly string[]): number {
  if (answers.length < 2) return 1;
  const m = matrix(answers);
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < answers.length; i++) {
    for (let j = i + 1; j < answers.length; j++) {
      sum += m[i]![j]!;
      pairs++;
    }
  }
  return round4(sum / pairs);
}

/** Two answers agree when their similarity reaches this. */
export const AGREE_AT = 0.6;

export interface Consensus {
  /** Index of the answer with the greatest total similarity to the others (the medoid); ties: the first. */
  index: number;
  /** Share of the answers (the chosen one included) that agree with the chosen one. */
  support: number;
  /** Mean similarity of the chosen answer to each of the others (1 when alone). */
  closeness: number;
}

/** The answer the others agree on most, and how many agree with it. */
export function consensus(answers: readonly string[]): Consensus {
  if (answers.length === 0) throw new Error("consensus of no answers");
  if (answers.length === 1) return { index: 0, support: 1, closeness: 1 };
  const m = matrix(answers);
  let best = 0;
  let bestSum = -1;
  for (let i = 0; i < answers.length; i++) {
    const sum = m[i]!.reduce((s, x, j) => (j === i ? s : s + x), 0);
    if (sum > bestSum) {
      best = i;
      bestSum = sum;
    }
  }
  const agreeing = m[best]!.filter((x) => x >= AGREE_AT).length;
  return { index: best, support: round4(agreeing / answers.length), closeness: round4(bestSum / (answers.length - 1)) };
}

/**
 * The first JSON object in a model's reply, tolerating what models wrap around it: a ```json fence,
 * prose before or after, a trailing comma-free explanation. Null when there is none.
 */
export function parseJsonObject(reply: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(reply);
  const sources = fenced ? [fenced[1]!, reply] : [reply];
  for (const source of sources) {
    for (let start = source.indexOf("{"); start !== -1; start = source.indexOf("{", start + 1)) {
      const end = matchingBrace(source, start);
      if (end === -1) break;
      try {
        const value: unknown = JSON.parse(source.slice(start, end + 1));
        if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // not JSON from this brace: try the next one
      }
    }
  }
  return null;
}

/** Index of the brace closing the one at `start`, skipping strings; -1 when unbalanced. */
function matchingBrace(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** A number in [0, 1] from a model's JSON (a 0-10 or 0-100 scale is rescaled), or null. */
export function unitScore(v: unknown): number | null {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return null;
  if (v <= 1) return v;
  if (v <= 10) return v / 10;
  if (v <= 100) return v / 100;
  return null;
}
