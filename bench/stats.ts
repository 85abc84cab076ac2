/**
 * The few statistics the benchmark reports. Latency samples are milliseconds unless a name
 * says otherwise. Percentiles interpolate linearly between the two nearest ranks (the
 * definition numpy and most load tools use), so p50 of [1, 2] is 1.5 and small samples do
 * not jump from one observation to the next.
 */

export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  /** The tail past p99: with 3,000 samples, between the third and fourth slowest. */
  p999: number;
  min: number;
  max: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (p <= 0) return sorted[0]!;
  if (p >= 100) return sorted[sorted.length - 1]!;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export function median(values: readonly number[]): number {
  return percentile(values.toSorted((a, b) => a - b), 50);
}

export function summarize(values: readonly number[]): Summary {
  const sorted = values.toSorted((a, b) => a - b);
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    n: sorted.length,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    min: sorted.length ? sorted[0]! : Number.NaN,
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/**
 * The median over rounds of each round's median. Drift (another process taking the CPU for a
 * few seconds) moves whole rounds; this statistic lets one bad round move the result by at
 * most one rank, where a pooled percentile would absorb all of its samples.
 */
export function medianOfRoundMedians(rounds: ReadonlyArray<readonly number[]>): number {
  const medians = rounds.filter((r) => r.length > 0).map((r) => median(r));
  return median(medians);
}

/**
 * Per-round difference of medians (a minus b), then the median of those differences. Used for
 * "added latency": both targets ran in the same round, so they shared that round's machine
 * state, and pairing by round cancels what the round had in common.
 */
export function pairedMedianDifference(a: ReadonlyArray<readonly number[]>, b: ReadonlyArray<readonly number[]>): number {
  const diffs: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i]!.length && b[i]!.length) diffs.push(median(a[i]!) - median(b[i]!));
  }
  return median(diffs);
}

/** Round order for round `i`: forward on even rounds, reversed on odd ones, so no target is always first. */
export function roundOrder<T>(targets: readonly T[], i: number): T[] {
  return i % 2 === 0 ? [...targets] : [...targets].reverse();
}
