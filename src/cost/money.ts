import type { Model } from "../catalog/models";

/**
 * Money as integers: nano-dollars (1e-9 USD). Catalog prices are USD per million tokens with at most
 * three decimals, so one token costs a whole number of nano-dollars (price x 1000) and every cost and
 * every sum of costs is exact. Dollars appear only at the edge, as nanos / 1e9: a double that prints
 * as the exact decimal (at most nine decimals), never `0.00011289999999999999`.
 */
export type Nanos = number;

export const NANOS_PER_USD = 1e9;

/** Nano-dollars per token for a price in USD per million tokens. */
export const nanosPerToken = (usdPerMtok: number): Nanos => Math.round(usdPerMtok * 1000);

export const usdFromNanos = (n: Nanos): number => n / NANOS_PER_USD;

/**
 * A caller's dollar cap in nano-dollars, rounded down: a cap of $0.0000015 allows 1,500 nanos, and
 * comparing a cost against the floored cap can never let a cost above the cap through.
 */
export const capNanos = (usd: number): Nanos => Math.floor(usd * NANOS_PER_USD + 1e-6);

export interface CostNanos {
  input: Nanos;
  output: Nanos;
  total: Nanos;
}

export function costNanos(model: Model, promptTokens: number, completionTokens: number): CostNanos {
  const input = promptTokens * nanosPerToken(model.input_usd_per_mtok);
  const output = completionTokens * nanosPerToken(model.output_usd_per_mtok);
  return { input, output, total: input + output };
}

/** The `cost` object of SPEC.md 2.1, in dollars, from exact nanos. */
export function costUsd(model: Model, promptTokens: number, completionTokens: number) {
  return usdBreakdown(costNanos(model, promptTokens, completionTokens));
}

export const usdBreakdown = (c: CostNanos) => ({ input_usd: usdFromNanos(c.input), output_usd: usdFromNanos(c.output), total_usd: usdFromNanos(c.total) });

/** Blended price used to rank models by cost: a 3:1 input-to-output token mix. */
export const blendedUsdPerMtok = (model: Model) => (3 * model.input_usd_per_mtok + model.output_usd_per_mtok) / 4;

/** Plain decimal dollars (no exponent), three significant digits: "$0.0000201". For messages. */
export const formatUsd = (x: number) => `$${Number(x.toPrecision(3)).toFixed(12).replace(/\.?0+$/, "")}`;
