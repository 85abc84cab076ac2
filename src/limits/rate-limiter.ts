import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { ensureSchema } from "../shared/durable-schema";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
/**
 * The daily window is rolling, kept as hourly buckets: the current hour and the 24 before it. A
 * request therefore counts for at least 24 hours (so no 24 hours ever admit more than the daily
 * limit) and at most 25 (it leaves with its hour's bucket).
 */
export const DAY_BUCKETS = 25;

export interface LimitDecision {
  allowed: boolean;
  /** Which limit refused, when one did. */
  limited: "rpm" | "daily" | null;
  rpm: number;
  rpmRemaining: number;
  /** Unix ms when the oldest request leaves the minute window. */
  rpmResetAt: number;
  daily: number | null;
  /** Requests admitted in the rolling daily window (every protected request, refused ones excepted). */
  usedToday: number;
  /** Unix ms when the oldest counted hour leaves the daily window (now, when nothing is counted). */
  dailyResetAt: number;
}

/** The one way to reach a key's limiter: one object per API key, named by the key id. */
export function limiterFor(env: Pick<Env, "LIMITER">, keyId: string): DurableObjectStub<RateLimiter> {
  return env.LIMITER.getByName(keyId);
}

/** The object's storage, step by step (`ensureSchema`): append a step, never edit one. */
const SCHEMA = [
  // 1: the minute window and a fixed 24-hour day window.
  [
    "CREATE TABLE IF NOT EXISTS minute_hits (ts INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS day_window (id INTEGER PRIMARY KEY CHECK (id = 1), start INTEGER NOT NULL, count INTEGER NOT NULL)",
  ],
  // 2: the rolling day in hourly buckets. A fixed window's count cannot be spread over the hours it
  // came from, so a live one is carried into the current hour: it still counts, and leaves within 25 hours.
  [
    "CREATE TABLE hour_buckets (hour INTEGER PRIMARY KEY, count INTEGER NOT NULL)",
    `INSERT INTO hour_buckets (hour, count) SELECT unixepoch() / 3600 * ${HOUR_MS}, count FROM day_window WHERE count > 0 AND start > unixepoch() * 1000 - ${24 * HOUR_MS}`,
    "DROP TABLE day_window",
  ],
  // 3: the minute window as one row per admission time with its count (a lease's admissions share
  // one time), keyed by it: a lease is one row, and pruning or giving back is an index lookup, not a
  // scan of up to a minute's admissions (the table had no index).
  [
    "CREATE TABLE IF NOT EXISTS minute_runs (ts INTEGER PRIMARY KEY, n INTEGER NOT NULL)",
    "INSERT INTO minute_runs (ts, n) SELECT ts, count(*) FROM minute_hits GROUP BY ts",
    "DROP TABLE minute_hits",
  ],
];

const hourOf = (t: number) => t - (t % HOUR_MS);

/** Admissions of an ended lease that were not spent, counted until `at`: given back with the next lease. */
export interface LeaseReturn {
  unused: number;
  at: number;
}

/** Admissions that count from the same time: a lease's, or one plain hit. */
interface Run {
  at: number;
  n: number;
}

/**
 * One per API key (`limiterFor(env, key id)`; the key id is `ctx.id.name`). Counts exactly:
 * - per minute, a sliding window: the requests admitted in the last 60 s, as runs of admissions
 *   that share a time (a lease is one run), as the storage keeps them;
 * - per day, a rolling window of hourly buckets (DAY_BUCKETS).
 * A Durable Object runs one call at a time and `hit` never awaits, so concurrent requests are
 * admitted one by one against the true count: 300 at once on an RPM of 100 admit exactly 100.
 * State is written to the object's SQLite storage in the same synchronous section, so an
 * evicted or restarted object resumes with the same counts.
 */
export class RateLimiter extends DurableObject<Env> {
  /** The API key id this object limits. */
  readonly keyId: string;
  /**
   * The minute window, oldest first. Runs rather than one entry per admission: a lease of 64 is one
   * element, and pruning, giving back, inserting and counting cost the number of leases in the
   * minute, not of the admissions (up to the plan's rpm, 1,000 on Corporate).
   */
  private minute: Run[] = [];
  /** Hour start (Unix ms) to admitted count, oldest first. */
  private hours = new Map<number, number>();
  /** A recent lease's `at` to the hour bucket it was counted in (they differ near an hour's end). */
  private leaseHours = new Map<number, number>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Reached only through limiterFor(), so the object always has a name; one without is a bug.
    if (!ctx.id.name) throw new Error("RateLimiter must be addressed by name (limiterFor)");
    this.keyId = ctx.id.name;
    ensureSchema(ctx.storage, SCHEMA);
    const sql = ctx.storage.sql;
    const now = Date.now();
    for (const r of sql.exec<{ ts: number; n: number }>("SELECT ts, n FROM minute_runs WHERE ts > ? AND n > 0 ORDER BY ts", now - MINUTE_MS)) {
      this.minute.push({ at: r.ts, n: r.n });
    }
    for (const r of sql.exec<{ hour: number; count: number }>("SELECT hour, count FROM hour_buckets ORDER BY hour")) this.hours.set(r.hour, r.count);
  }

  hit(rpm: number, daily: number | null): LimitDecision {
    return this.decide(rpm, daily, 1, 0).decision;
  }

  /**
   * Admits up to `want` requests at once, for an isolate to spend locally within `holdMs`
   * (limits/lease.ts). They count from now, and stay in the minute window until `at` (now +
   * holdMs) leaves it: an admission spent up to holdMs after the grant is still counted a full
   * minute after it was spent, so no 60 seconds of spent admissions ever exceed the limit.
   * Fewer (or none, with the refusing decision) when the windows cannot take them all. `returns`
   * are earlier leases' unspent rests, given back first (as `release` would) in the same call.
   */
  lease(rpm: number, daily: number | null, want: number, holdMs = 0, returns: readonly LeaseReturn[] = []): { granted: number; at: number; decision: LimitDecision } {
    for (const r of returns) this.release(r.unused, r.at);
    return this.decide(rpm, daily, Math.max(1, Math.floor(want)), Math.max(0, holdMs));
  }

  /** Gives back `unused` admissions of a lease counted until `at` that expired before they were spent. */
  release(unused: number, at: number): void {
    if (unused <= 0) return;
    const sql = this.ctx.storage.sql;
    // A lease's run is one of the newest: look from the end.
    let i = this.minute.length - 1;
    while (i >= 0 && this.minute[i]!.at !== at) i--;
    const run = this.minute[i];
    const taken = run ? Math.min(run.n, unused) : 0;
    if (run) {
      run.n -= taken;
      if (run.n === 0) this.minute.splice(i, 1);
    }
    sql.exec("UPDATE minute_runs SET n = max(0, n - ?) WHERE ts = ?", taken, at);
    const hour = this.leaseHours.get(at) ?? hourOf(at);
    const count = this.hours.get(hour);
    if (count !== undefined) {
      const back = Math.min(count, unused);
      this.hours.set(hour, count - back);
      sql.exec("UPDATE hour_buckets SET count = max(0, count - ?) WHERE hour = ?", back, hour);
    }
  }

  /** The current counts without admitting a request (for GET /v1/usage). */
  peek(rpm: number, daily: number | null): LimitDecision {
    return this.decide(rpm, daily, 0, 0).decision;
  }

  /** Admits up to `admitCount` requests (0: only look) against the true counts, in one synchronous section. */
  private decide(rpm: number, daily: number | null, admitCount: number, holdMs: number): { granted: number; at: number; decision: LimitDecision } {
    const admit = admitCount > 0;
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    let drop = 0;
    while (drop < this.minute.length && this.minute[drop]!.at <= now - MINUTE_MS) drop++;
    if (drop) {
      this.minute.splice(0, drop);
      if (admit) sql.exec("DELETE FROM minute_runs WHERE ts <= ?", now - MINUTE_MS);
    }
    const hour = hourOf(now);
    const oldestKept = hour - (DAY_BUCKETS - 1) * HOUR_MS;
    let used = 0;
    let expired = false;
    for (const [h, count] of this.hours) {
      if (h < oldestKept) {
        this.hours.delete(h);
        expired = true;
      } else used += count;
    }
    if (expired && admit) sql.exec("DELETE FROM hour_buckets WHERE hour < ?", oldestKept);

    let inMinute = 0;
    for (const run of this.minute) inMinute += run.n;
    let limited: LimitDecision["limited"] = null;
    if (daily !== null && used >= daily) limited = "daily";
    else if (inMinute >= rpm) limited = "rpm";

    let granted = 0;
    const at = now + holdMs;
    if (admit && limited === null) {
      granted = Math.min(admitCount, rpm - inMinute, daily === null ? admitCount : daily - used);
      if (granted > 0) {
        // Kept sorted: a lease's run (at > now) may precede a later plain hit's. One run per time, as in storage.
        let pos = this.minute.length;
        while (pos > 0 && this.minute[pos - 1]!.at > at) pos--;
        const same = this.minute[pos - 1];
        if (same?.at === at) same.n += granted;
        else this.minute.splice(pos, 0, { at, n: granted });
        sql.exec("INSERT INTO minute_runs (ts, n) VALUES (?, ?) ON CONFLICT(ts) DO UPDATE SET n = n + excluded.n", at, granted);
        if (holdMs > 0) {
          this.leaseHours.set(at, hour);
          if (this.leaseHours.size > 256) this.leaseHours.delete(this.leaseHours.keys().next().value!);
        }
      }
      this.hours.set(hour, (this.hours.get(hour) ?? 0) + granted);
      used += granted;
      sql.exec("INSERT INTO hour_buckets (hour, count) VALUES (?, ?) ON CONFLICT(hour) DO UPDATE SET count = count + excluded.count", hour, granted);
    }

    const oldestHour = this.hours.keys().next();
    const decision: LimitDecision = {
      allowed: limited === null,
      limited,
      rpm,
      rpmRemaining: Math.max(0, rpm - inMinute - granted),
      rpmResetAt: (this.minute[0]?.at ?? now) + MINUTE_MS,
      daily,
      usedToday: used,
      dailyResetAt: oldestHour.done ? now : oldestHour.value + DAY_BUCKETS * HOUR_MS,
    };
    return { granted, at, decision };
  }
}
