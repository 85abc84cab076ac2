import type { Model } from "../catalog/models";
import { capNanos, costNanos, formatUsd, usdFromNanos, type Nanos } from "./money";

/**
 * The cost guard (SPEC.md "cost guard"): the worst case of one call and which models may take it,
 * as composable predicates. Router, orchestration, code mode and agents build their candidate lists
 * from the same predicates; compliance is one more.
 */

/** The size of one call: its prompt and the most it may write. */
export interface CallShape {
  promptTokens: number;
  /** The most one completion may write. */
  maxTokens: number;
  /** How many completions the call asks for (OpenAI's `n`; 1 when absent): each may write maxTokens. */
  completions?: number;
}

/**
 * The most a call can cost: every prompt token at the input price (billed once however many
 * choices), max_tokens per completion at the output price.
 */
export const worstCaseNanos = (m: Model, shape: CallShape): Nanos => costNanos(m, shape.promptTokens, shape.maxTokens * (shape.completions ?? 1)).total;
export const worstCaseUsd = (m: Model, shape: CallShape) => usdFromNanos(worstCaseNanos(m, shape));

/** Why a model may not take a call (a phrase that reads after the model id), or null when it may. */
export type Eligibility = (m: Model) => string | null;

export const onPlan = (allowed: readonly string[] | null): Eligibility => (m) =>
  allowed === null || allowed.includes(m.id) ? null : "is not available on your plan";

export const notBlocked = (blocked: ReadonlySet<string>, by = "brain_config"): Eligibility => (m) =>
  blocked.has(m.id) ? `is blocked by ${by}` : null;

export const fitsContext = (shape: CallShape): Eligibility => (m) =>
  shape.promptTokens + shape.maxTokens <= m.context_tokens
    ? null
    : `cannot hold ${shape.promptTokens} prompt + ${shape.maxTokens} completion tokens in its ${m.context_tokens}-token context`;

/** `capUsd` undefined means no cap. `label` names the cap in the reason. */
export const withinCap = (shape: CallShape, capUsd: number | undefined, label = "max_cost_per_request"): Eligibility => {
  if (capUsd === undefined) return () => null;
  const cap = capNanos(capUsd);
  return (m) => {
    const worst = worstCaseNanos(m, shape);
    return worst <= cap ? null : `could cost up to ${formatUsd(usdFromNanos(worst))}, over ${label} ${formatUsd(capUsd)}`;
  };
};

/** The first reason among the predicates that excludes the model, or null when every one admits it. */
export function exclusion(m: Model, rules: readonly Eligibility[]): string | null {
  for (const rule of rules) {
    const why = rule(m);
    if (why !== null) return why;
  }
  return null;
}

export const eligible = (m: Model, rules: readonly Eligibility[]) => exclusion(m, rules) === null;
