import type { Model } from "../catalog/models";
import { costNanos, nanosPerToken, type Nanos } from "../cost/money";
import { INTENSITIES, type Intensity } from "./policy";

/**
 * The agents' cost guard, before every model call: the worst case of a call is its prompt's token
 * bound at the input price plus max_tokens at the output price, and a call runs only when that fits
 * the budget. Under pressure it first downshifts intensity, then lowers max_tokens, and only when
 * not even the cheapest fitting call fits does it answer null (the run stops: budget_exhausted).
 */
export interface CallBudget {
  /** An upper bound of the prompt's tokens (cost/tokens.ts tokenUpperBound). */
  promptBound: number;
  /** The max_tokens wanted for the call. */
  maxTokens: number;
  /** What the call may cost at most: min(remaining run budget, per-step cap). */
  budget: Nanos;
  /** Below this many output tokens a call is not worth making. */
  minTokens: number;
}

export interface GuardedCall {
  intensity: Intensity;
  /** Fallback chain: every model in it fits the budget, so whichever serves, the bound holds. */
  models: Model[];
  maxTokens: number;
  /** The largest cost any model of the chain can reach with this prompt and max_tokens. */
  worstCase: Nanos;
  /** True when intensity had to drop below the one asked for, or max_tokens was lowered. */
  downshifted: boolean;
}

export const FALLBACKS = 3;
const worst = (m: Model, promptBound: number, maxTokens: number) => costNanos(m, promptBound, maxTokens).total;

export function guardCall(start: Intensity, pools: Readonly<Record<Intensity, readonly Model[]>>, b: CallBudget): GuardedCall | null {
  const from = INTENSITIES.indexOf(start);
  for (let i = from; i < INTENSITIES.length; i++) {
    const intensity = INTENSITIES[i]!;
    const models = pools[intensity].filter((m) => worst(m, b.promptBound, b.maxTokens) <= b.budget).slice(0, FALLBACKS);
    if (models.length) {
      return { intensity, models, maxTokens: b.maxTokens, worstCase: Math.max(...models.map((m) => worst(m, b.promptBound, b.maxTokens))), downshifted: i > from };
    }
  }
  // Nothing fits at full max_tokens: the model (at or below the starting intensity) that can write
  // the most tokens within the budget, with max_tokens lowered to what fits.
  let best: { m: Model; intensity: Intensity; tokens: number } | null = null;
  for (let i = from; i < INTENSITIES.length; i++) {
    const intensity = INTENSITIES[i]!;
    for (const m of pools[intensity]) {
      const left = b.budget - b.promptBound * nanosPerToken(m.input_usd_per_mtok);
      const out = nanosPerToken(m.output_usd_per_mtok);
      const tokens = left < 0 ? -1 : out === 0 ? b.maxTokens : Math.min(b.maxTokens, Math.floor(left / out));
      if (!best || tokens > best.tokens) best = { m, intensity, tokens };
    }
  }
  if (!best || best.tokens < b.minTokens) return null;
  return { intensity: best.intensity, models: [best.m], maxTokens: best.tokens, worstCase: worst(best.m, b.promptBound, best.tokens), downshifted: true };
}

/**
 * What a call is billed: the upstream's reported usage, clamped to the bounds the guard reserved.
 * A provider that honours max_tokens never reports more; if one does, the excess is the service's
 * loss, never the customer's, so a run cannot pass its cap.
 */
export function billedUsage(usage: { prompt_tokens: number; completion_tokens: number }, promptBound: number, maxTokens: number) {
  const prompt = Math.max(0, Math.min(usage.prompt_tokens, promptBound));
  const completion = Math.max(0, Math.min(usage.completion_tokens, maxTokens));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
