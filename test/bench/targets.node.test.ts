/**
 * The benchmark's Targets table (issue 14): each figure met or missed, by how much, and why.
 */
import { describe, expect, it } from "vitest";
import { checkTargets, MISSED_BECAUSE, whyMissed, type Results } from "../../bench/report";

const added = (p50: number, p99: number) => ({ p50, p99, mean: p50, pairedRoundMedian: p50 });
const stream = (ttftP50: number, gapMean: number) => ({ ttft: { p50: ttftP50 }, gap: { mean: gapMean } });

/** Only what checkTargets reads; the rest of a run's figures do not enter the targets. */
function run(o: { p50: number; p99: number; ratio: number; ttft: number; onPath: number; d1: number; longNs: number | null }): Results {
  return {
    latency: { overBare: { "gateway pinned": added(o.p50, o.p99), "bare, JSON": added(0.1, 0.2) } },
    throughput: { ratioToBare: { "gateway pinned": o.ratio } },
    streaming: { targets: { bare: stream(3, 0.02), "gateway pinned": stream(3 + o.ttft, 0.05) } },
    storage: {
      onPath: { "gateway pinned": { total: o.onPath } },
      underLoad: { offPath: { "gateway pinned": { d1: o.d1 } }, inDurableObjects: { "gateway pinned": { d1: 0 } } },
    },
    peers: null,
    routeDecision: o.longNs === null ? { status: "absent", reason: "not run" } : { status: "ok", shortNs: 1000, longNs: o.longNs },
  } as unknown as Results;
}

describe("bench targets", () => {
  it("a met figure has no shortfall and no reason", () => {
    const checks = checkTargets(run({ p50: 0.4, p99: 1.5, ratio: 0.6, ttft: 0.2, onPath: 0, d1: 0.01, longNs: 12_000 }));
    expect(checks.map((c) => c.met)).toEqual([true, true, true, true, true, true, true, true]);
    expect(checks.every((c) => c.missedBy === null && c.why === null)).toBe(true);
    expect(whyMissed(checks)).toEqual([]);
  });

  it("a missed figure says by how much, in the goal's unit, on the wrong side of either kind of goal", () => {
    const checks = checkTargets(run({ p50: 0.98, p99: 7.5, ratio: 0.46, ttft: 1.25, onPath: 0.25, d1: 0.03, longNs: 25_000 }));
    const by = Object.fromEntries(checks.map((c) => [c.name, c.missedBy]));
    expect(by["gateway pinned: own code p50 (over bare)"]).toBeCloseTo(0.48, 9);
    expect(by["gateway pinned: own code p99 (over bare)"]).toBeCloseTo(5.5, 9);
    expect(by["gateway pinned: throughput / bare Worker"]).toBeCloseTo(0.04, 9);
    expect(by["gateway pinned: TTFT p50 minus bare's"]).toBeCloseTo(0.75, 9);
    expect(by["gateway pinned: storage calls on the path, warm, per call"]).toBeCloseTo(0.25, 9);
    expect(by["gateway pinned: D1 calls off the path under load, per call"]).toBeCloseTo(0.01, 9);
    expect(by["route decision, 2,000 characters"]).toBeCloseTo(5, 9);
    expect(checks.find((c) => c.name.includes("stream gap"))).toMatchObject({ met: true, missedBy: null });
  });

  it("under the table, one line per kind of missed figure names them and gives the reason; a kind with none known says so", () => {
    const checks = checkTargets(run({ p50: 0.98, p99: 1.5, ratio: 0.46, ttft: 0.2, onPath: 0.25, d1: 0.01, longNs: 12_000 }));
    const lines = whyMissed(checks);
    expect(lines[1]).toBe("Why missed");
    expect(lines).toHaveLength(5);
    expect(lines[2]).toBe(`- gateway pinned: own code p50 (over bare): ${MISSED_BECAUSE.ownP50}`);
    expect(lines[3]).toBe(`- gateway pinned: throughput / bare Worker: ${MISSED_BECAUSE.throughput}`);
    expect(lines[4]).toMatch(/^- gateway pinned: storage calls on the path, warm, per call: no measured explanation yet/);
  });

  it("a figure not measured is neither met nor missed", () => {
    const check = checkTargets(run({ p50: 0.4, p99: 1.5, ratio: 0.6, ttft: 0.2, onPath: 0, d1: 0.01, longNs: null })).at(-1)!;
    expect(check).toMatchObject({ name: "route decision, 2,000 characters", value: null, met: null, missedBy: null, why: null });
  });
});
