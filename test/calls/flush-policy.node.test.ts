import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Arrivals, BATCH_TARGET, BUSY_WINDOW_MS, FLUSH_AT, FLUSH_WINDOW_MS, flushDue, retryDelay } from "../../src/calls/flush-policy";

/**
 * The write-behind buffer's flush rule (docs/storage.md "Batching"), without a runtime. The
 * simulation feeds a steady stream of records through the rule as the buffer does (every append
 * recomputes the alarm; the alarm writes everything pending) and reads off the batches and waits.
 */
function simulate(perSecond: number, records: number, jitter: number) {
  const arrivals = new Arrivals();
  const batches: number[] = [];
  let maxWait = 0;
  let pending: number[] = [];
  let due: number | null = null;
  const flush = (at: number) => {
    batches.push(pending.length);
    maxWait = Math.max(maxWait, ...pending.map((t) => at - t));
    pending = [];
    due = null;
  };
  for (let i = 0; i < records; i++) {
    // Whole milliseconds, as Date.now() gives them; jitter moves each arrival by up to a fraction of the gap.
    const t = Math.round((i * 1000) / perSecond + (jitter * (1000 / perSecond) * ((i * 7919) % 13)) / 13);
    if (due !== null && due <= t) flush(due);
    pending.push(t);
    arrivals.add(t, 1);
    due = flushDue({ count: pending.length, oldest: pending[0]!, recent: arrivals.recent(t), failing: 0 }, t);
    if (due !== null && due <= t) flush(t);
  }
  if (due !== null) flush(due);
  return { batches, maxWait };
}

describe("write-behind flush rule", () => {
  it("gives a quiet buffer's oldest record 250 ms, a busy one's 400 ms, and flushes at once from FLUSH_AT records", () => {
    expect(flushDue({ count: 0, oldest: null, recent: 0, failing: 0 }, 1_000)).toBeNull();
    expect(flushDue({ count: 1, oldest: 1_000, recent: 1, failing: 0 }, 1_000)).toBe(1_000 + FLUSH_WINDOW_MS);
    expect(flushDue({ count: 30, oldest: 900, recent: BATCH_TARGET - 1, failing: 0 }, 1_000)).toBe(900 + FLUSH_WINDOW_MS);
    expect(flushDue({ count: 30, oldest: 900, recent: BATCH_TARGET, failing: 0 }, 1_000)).toBe(900 + BUSY_WINDOW_MS);
    expect(flushDue({ count: FLUSH_AT - 1, oldest: 900, recent: 500, failing: 0 }, 1_000)).toBe(900 + BUSY_WINDOW_MS);
    expect(flushDue({ count: FLUSH_AT, oldest: 900, recent: 500, failing: 0 }, 1_000)).toBe(1_000);
  });

  it("a failing buffer waits out its backoff (1 s doubling to a minute), whatever it holds", () => {
    expect([1, 2, 3, 6, 7, 20].map(retryDelay)).toEqual([1_000, 2_000, 4_000, 32_000, 60_000, 60_000]);
    expect(flushDue({ count: FLUSH_AT * 3, oldest: 0, recent: 500, failing: 2 }, 1_000)).toBe(3_000);
  });

  it("counts the records of the last BUSY_WINDOW_MS only", () => {
    const a = new Arrivals();
    a.add(0, 30);
    a.add(200, 25);
    expect(a.recent(200)).toBe(55);
    expect(a.recent(BUSY_WINDOW_MS - 1)).toBe(55);
    expect(a.recent(BUSY_WINDOW_MS)).toBe(25);
    expect(a.recent(200 + BUSY_WINDOW_MS)).toBe(0);
  });

  it(`from 125 records a second on, every batch but the first and the last carries at least ${BATCH_TARGET}; no record waits more than ${BUSY_WINDOW_MS} ms`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 125, max: 5_000 }), fc.double({ min: 0, max: 0.9, noNaN: true }), (perSecond, jitter) => {
        const { batches, maxWait } = simulate(perSecond, 3_000, jitter);
        expect(Math.min(...batches.slice(1, -1))).toBeGreaterThanOrEqual(BATCH_TARGET);
        expect(maxWait).toBeLessThanOrEqual(BUSY_WINDOW_MS);
      }),
    );
  });

  // Not "the average of all batches": the last one carries whatever the burst left (200 a second for
  // 81 records gives batches of 80 and 1; fast-check found it), so it is left out.
  it(`from 200 records a second on, the batches before a burst's last carry ${BATCH_TARGET} or more on average, however short the burst`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 5_000 }), fc.integer({ min: BATCH_TARGET, max: 3_000 }), (perSecond, records) => {
        const { batches } = simulate(perSecond, records, 0);
        const before = batches.slice(0, -1);
        if (before.length) expect(before.reduce((a, b) => a + b, 0) / before.length).toBeGreaterThanOrEqual(BATCH_TARGET);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 100) },
    );
  });

  it("at any rate no record waits more than the busy window", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 5_000, noNaN: true }), fc.double({ min: 0, max: 0.9, noNaN: true }), (perSecond, jitter) => {
        expect(simulate(perSecond, 400, jitter).maxWait).toBeLessThanOrEqual(BUSY_WINDOW_MS);
      }),
    );
  });
});
