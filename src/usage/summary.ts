import { findModel, type Model } from "../catalog/models";
import { costNanos, usdFromNanos } from "../cost/money";
import { AUTO_MODES } from "../routing/brain-config";

/** One group of usage rows (GROUP BY model, provider, mode). */
export interface UsageGroup {
  model: string;
  provider: string;
  mode: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Exact, in nano-dollars. */
  costNanos: number;
}

export interface Bucket {
  requests: number;
  tokens: number;
  cost_usd: number;
}

/** Sums are exact integers of nano-dollars; dollars appear once, at the edge (cost/money.ts). */
interface NanoBucket {
  requests: number;
  tokens: number;
  nanos: number;
}

function add(map: Record<string, NanoBucket>, key: string, g: UsageGroup) {
  const b = (map[key] ??= { requests: 0, tokens: 0, nanos: 0 });
  b.requests += g.requests;
  b.tokens += g.promptTokens + g.completionTokens;
  b.nanos += g.costNanos;
}

const inUsd = (map: Record<string, NanoBucket>): Record<string, Bucket> =>
  Object.fromEntries(Object.entries(map).map(([k, b]) => [k, { requests: b.requests, tokens: b.tokens, cost_usd: usdFromNanos(b.nanos) }]));

export function summarize(groups: UsageGroup[]) {
  const by_model: Record<string, NanoBucket> = {};
  const by_provider: Record<string, NanoBucket> = {};
  // Every mode is listed (SPEC.md 2.16), with zeros where none ran.
  const by_mode: Record<string, NanoBucket> = Object.fromEntries([...AUTO_MODES, "direct"].map((m) => [m, { requests: 0, tokens: 0, nanos: 0 }]));
  let total_requests = 0;
  let total_tokens = 0;
  let total_nanos = 0;
  for (const g of groups) {
    add(by_model, g.model, g);
    add(by_provider, g.provider, g);
    add(by_mode, g.mode, g);
    total_requests += g.requests;
    total_tokens += g.promptTokens + g.completionTokens;
    total_nanos += g.costNanos;
  }
  return {
    total_requests,
    total_tokens,
    total_cost_usd: usdFromNanos(total_nanos),
    by_model: inUsd(by_model),
    by_provider: inUsd(by_provider),
    by_mode: inUsd(by_mode),
  };
}

/** SPEC.md 2.17: what the same tokens would have cost on the baseline model. */
export function savings(groups: UsageGroup[], baseline: Model) {
  let actual = 0;
  let base = 0;
  let requests = 0;
  let tokens = 0;
  for (const g of groups) {
    actual += g.costNanos;
    base += costNanos(baseline, g.promptTokens, g.completionTokens).total;
    requests += g.requests;
    tokens += g.promptTokens + g.completionTokens;
  }
  const saved = Math.max(0, base - actual);
  return {
    baseline_model: baseline.id,
    total_requests: requests,
    total_tokens: tokens,
    actual_cost_usd: usdFromNanos(actual),
    baseline_cost_usd: usdFromNanos(base),
    saved_usd: usdFromNanos(saved),
    saved_pct: base > 0 ? Math.round((saved / base) * 10000) / 100 : 0,
  };
}

/** The default savings baseline: a premium model most teams would otherwise pin. */
export const DEFAULT_BASELINE = "gpt-5.2";
if (!findModel(DEFAULT_BASELINE)) throw new Error(`savings baseline ${DEFAULT_BASELINE} is not in the catalog`);
