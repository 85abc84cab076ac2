/**
 * The write-behind timing (docs/storage.md "Batching"): how long an isolate gathers records before a
 * send, and when a buffer writes its pending records to D1, as pure functions of what it holds and
 * how fast records arrive: no runtime, tested in plain Node (and read by the benchmark).
 */

/**
 * How long an isolate gathers records, of any of its requests, into one send to its buffer. Each
 * send is an RPC and a storage commit in the buffer, whose fixed cost dwarfs a record's: measured
 * in workerd, an append of 1 record took 2.5-3.4 ms and one of 10 records 3.6 ms (a read-only call
 * to the same object 0.8 ms). At 5 ms a client sending one request at a time made a send for every
 * second call, at 20 ms one for about a dozen; at 50 ms one for about thirty, and a record is still
 * durable 50 ms and one RPC after its response, under the request's waitUntil.
 */
export const GATHER_MS = 50;

/** A quiet buffer's records wait at most this long: a lone call is in D1 about 250 ms after its response. */
export const FLUSH_WINDOW_MS = 250;
/**
 * A busy buffer's records wait at most this long, so that its batches carry BATCH_TARGET records
 * from BATCH_TARGET * 1000 / BUSY_WINDOW_MS (125) records a second on, while a record's wait stays
 * well inside the one-second visibility bound (the send before it and the D1 batch after it take
 * the rest, and a loaded isolate runs its alarm late).
 */
export const BUSY_WINDOW_MS = 400;
/** The records per D1 batch the buffer aims for under load (issue 14: one batch per 50 calls). */
export const BATCH_TARGET = 50;
/**
 * This many pending records flush at once, without waiting for the window: it bounds a batch under
 * heavy load. Five times BATCH_TARGET, so that batches cut by a window (the first of a burst, the
 * last after it) leave the average per batch well above BATCH_TARGET, and because a D1 batch's
 * fixed cost is most of a small one's: measured against local D1, 100 calls' rows and receipts took
 * 8-13 ms in one batch, 250 calls' 16 ms (a bare `SELECT 1` 1.2-2.2 ms).
 */
export const FLUSH_AT = 250;
/** A failed flush is retried after 1 s, doubling up to a minute, for as long as it fails. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 60_000;

export const retryDelay = (failing: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failing - 1));

export interface Pending {
  /** Records waiting. */
  count: number;
  /** When the oldest of them arrived (ms), or null when none wait. */
  oldest: number | null;
  /** Records that arrived in the last BUSY_WINDOW_MS, these included (`Arrivals.recent`). */
  recent: number;
  /** Flushes that failed in a row. */
  failing: number;
}

/**
 * The window a buffer gives its oldest record: the busy one when the last BUSY_WINDOW_MS brought at
 * least BATCH_TARGET records (at that rate a busy window fills a batch), the quiet one otherwise
 * (a longer wait would only delay a call nobody batches with).
 */
export const flushWindow = (recent: number) => (recent >= BATCH_TARGET ? BUSY_WINDOW_MS : FLUSH_WINDOW_MS);

/** When the pending records should be written to D1, or null when there are none. */
export function flushDue(p: Pending, now: number): number | null {
  if (!p.count || p.oldest === null) return null;
  if (p.failing > 0) return now + retryDelay(p.failing);
  return p.count >= FLUSH_AT ? now : p.oldest + flushWindow(p.recent);
}

/**
 * The records that arrived in the last BUSY_WINDOW_MS, counted per append. In memory: a buffer that
 * wakes up (new, or after an eviction) starts quiet, which costs at most one short batch.
 */
export class Arrivals {
  private readonly seen: { at: number; n: number }[] = [];
  private total = 0;

  add(at: number, n: number): void {
    this.seen.push({ at, n });
    this.total += n;
  }

  recent(now: number): number {
    while (this.seen.length && this.seen[0]!.at <= now - BUSY_WINDOW_MS) this.total -= this.seen.shift()!.n;
    return this.total;
  }
}
