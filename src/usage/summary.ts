import { costUsd, findModel, type Model } from "../catalog/models";
import { AUTO_MODES } from "../routing/brain-config";

/** One group of usage rows (GROUP BY model, provider, mode). */
export interface UsageGroup {
  model: string;
  provider: string;
  mode: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

export interface Bucket {
  requests: number;
  tokens: number;
  cost_usd: number;
}

/** Money is summed in floating point and rounded once, at the edge, to a millionth of a cent. */
export const roundUsd = (x: number) => Math.round(x * 1e8) / 1e8;

function add(map: Record<string, Bucket>, key: string, g: UsageGroup) {
  const b = (map[key] ??= { requests: 0, tokens: 0, cost_usd: 0 });
  b.requests += g.requests;
  b.tokens += g.promptTokens + g.completionTokens;
  b.cost_usd += g.costUsd;
}

const roundBuckets = (map: Record<string, Bucket>) => {
  for (const k in map) map[k]!.cost_usd = roundUsd(map[k]!.cost_usd);
  return map;
};

export function summarize(groups: UsageGroup[]) {
  const by_model: Record<string, Bucket> = {};
  const by_provider: Record<string, Bucket> = {};
  // Every mode is listed (SPEC.md 2.16), with zeros where none ran.
  const by_mode: Record<string, Bucket> = Object.fromEntries([...AUTO_MODES, "direct"].map((m) => [m, { requests: 0, tokens: 0, cost_usd: 0 }]));
  let total_requests = 0;
  let total_tokens = 0;
  let total_cost_usd = 0;
  for (const g of groups) {
    add(by_model, g.model, g);
    add(by_provider, g.provider, g);
    add(by_mode, g.mode, g);
    total_requests += g.requests;
    total_tokens += g.promptTokens + g.completionTokens;
    total_cost_usd += g.costUsd;
  }
  return {
    total_requests,
    total_tokens,
    total_cost_usd: roundUsd(total_cost_usd),
    by_model: roundBuckets(by_model),
    by_provider: roundBuckets(by_provider),
    by_mode: roundBuckets(by_mode),
  };
}

/** SPEC.md 2.17: what the same tokens would have cost on the baseline model. */
export function savings(groups: UsageGroup[], baseline: Model) {
  let actual = 0;
  let base = 0;
  let requests = 0;
  let tokens = 0;
  for (const g of groups) {
    actual += g.costUsd;
    base += costUsd(baseline, g.promptTokens, g.completionTokens).total_usd;
    requests += g.requests;
    tokens += g.promptTokens + g.completionTokens;
  }
  const saved = Math.max(0, base - actual);
  return {
    baseline_model: baseline.id,
    total_requests: requests,
    total_tokens: tokens,
    actual_cost_usd: roundUsd(actual),
    baseline_cost_usd: roundUsd(base),
    saved_usd: roundUsd(saved),
    saved_pct: base > 0 ? Math.round((saved / base) * 10000) / 100 : 0,
  };
}

/** The default savings baseline: a premium model most teams would otherwise pin. */
export const DEFAULT_BASELINE = "gpt-5.2";
if (!findModel(DEFAULT_BASELINE)) throw new Error(`savings baseline ${DEFAULT_BASELINE} is not in the catalog`);
