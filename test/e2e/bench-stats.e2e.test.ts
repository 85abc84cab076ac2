/**
 * The benchmark's statistics (bench/stats.ts), in Node. Here rather than beside the Worker tests
 * because bench/ is Node code; it needs nothing of the dev server this suite starts.
 */
import { describe, expect, it } from "vitest";
import { median, medianOfRoundMedians, pairedMedianDifference, percentile, roundOrder, summarize } from "../../bench/stats";

describe("bench statistics", () => {
  it("interpolates percentiles between ranks", () => {
    expect(percentile([1, 2], 50)).toBe(1.5);
    expect(percentile([1, 2, 3, 4, 5], 0)).toBe(1);
    expect(percentile([1, 2, 3, 4, 5], 100)).toBe(5);
    expect(percentile([10, 20, 30, 40, 50], 90)).toBeCloseTo(46);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
  });

  it("summarizes unsorted samples", () => {
    const s = summarize([5, 1, 4, 2, 3]);
    expect(s).toMatchObject({ n: 5, mean: 3, p50: 3, min: 1, max: 5 });
    expect(s.p99).toBeCloseTo(4.96);
  });

  it("lets one bad round move the median of round medians by one rank only", () => {
    const rounds = [[1, 1, 1], [1.1, 1.1], [50, 60, 70], [1.2]];
    expect(medianOfRoundMedians(rounds)).toBeCloseTo(1.15);
    expect(median(rounds.flat())).toBeCloseTo(1.1);
  });

  it("pairs rounds when it takes differences", () => {
    const gateway = [[3, 3], [13, 13], [3.5]];
    const direct = [[1, 1], [11, 11], [1]];
    expect(pairedMedianDifference(gateway, direct)).toBe(2);
  });

  it("alternates the order of targets between rounds", () => {
    expect(roundOrder(["a", "b", "c"], 0)).toEqual(["a", "b", "c"]);
    expect(roundOrder(["a", "b", "c"], 1)).toEqual(["c", "b", "a"]);
  });
});
