import { round4 } from "./text";

/**
 * Confidence (docs/orchestration.md, "Formulas"): computed from evidence, never asserted by a model.
 *
 *   confidence = 0.4 * A + 0.4 * J + 0.2 * F
 *
 * A: agreement evidence, the agreement among two or more independent answers (0.5 when there is
 *    only one answer: a lone answer is neither corroborated nor contradicted);
 * J: the judge's score of the final answer, 0-1 (0.5 when no judge scored it);
 * F: the mean finish score of the calls the final answer is made from (stop 1, length 0.5, other 0.25).
 */
export const WEIGHTS = { agreement: 0.4, judge: 0.4, finish: 0.2 } as const;
export const NEUTRAL = 0.5;

export function finishScore(reason: string): number {
  if (reason === "stop") return 1;
  if (reason === "length") return 0.5;
  return 0.25;
}

export const meanFinish = (reasons: readonly string[]) =>
  reasons.length ? reasons.reduce((s, r) => s + finishScore(r), 0) / reasons.length : 0;

export interface Evidence {
  /** Agreement among at least two answers, or null when there was one. */
  agreement: number | null;
  /** The judge's score of the final answer, or null when no judge scored it. */
  judge: number | null;
  finishReasons: readonly string[];
}

export function confidenceOf(e: Evidence): number {
  const a = e.agreement ?? NEUTRAL;
  const j = e.judge ?? NEUTRAL;
  return round4(WEIGHTS.agreement * a + WEIGHTS.judge * j + WEIGHTS.finish * meanFinish(e.finishReasons));
}
