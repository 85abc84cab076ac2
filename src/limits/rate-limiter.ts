import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * 60_000;

export interface LimitDecision {
  allowed: boolean;
  /** Which limit refused, when one did. */
  limited: "rpm" | "daily" | null;
  rpm: number;
  rpmRemaining: number;
  /** Unix ms when the oldest request leaves the minute window. */
  rpmResetAt: number;
  daily: number | null;
  usedToday: number;
  /** Unix ms when the current 24-hour window ends. */
  dailyResetAt: number;
}

/**
 * One per API key (idFromName(key id)). Counts exactly:
 * - per minute, a sliding window: the timestamps of the requests admitted in the last 60 s;
 * - per day, a fixed 24-hour window that opens with the first request after the previous
 *   window closed (SPEC.md section 8: "the daily window is 24 hours").
 * A Durable Object runs one call at a time and `hit` never awaits, so concurrent requests are
 * admitted one by one against the true count: 300 at once on an RPM of 100 admit exactly 100.
 * State is written to the object's SQLite storage in the same synchronous section, so an
 * evicted or restarted object resumes with the same counts.
 */
export class RateLimiter extends DurableObject<Env> {
  private minute: number[] = [];
  private dayStart = 0;
  private dayCount = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS minute_hits (ts INTEGER NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS day_window (id INTEGER PRIMARY KEY CHECK (id = 1), start INTEGER NOT NULL, count INTEGER NOT NULL)");
    const now = Date.now();
    this.minute = sql.exec<{ ts: number }>("SELECT ts FROM minute_hits WHERE ts > ? ORDER BY ts", now - MINUTE_MS).toArray().map((r) => r.ts);
    const day = sql.exec<{ start: number; count: number }>("SELECT start, count FROM day_window WHERE id = 1").toArray()[0];
    if (day) {
      this.dayStart = day.start;
      this.dayCount = day.count;
    }
  }

  hit(rpm: number, daily: number | null): LimitDecision {
    return this.decide(rpm, daily, true);
  }

  /** The current counts without admitting a request (for GET /v1/usage). */
  peek(rpm: number, daily: number | null): LimitDecision {
    return this.decide(rpm, daily, false);
  }

  private decide(rpm: number, daily: number | null, admit: boolean): LimitDecision {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    let drop = 0;
    while (drop < this.minute.length && this.minute[drop]! <= now - MINUTE_MS) drop++;
    if (drop) {
      this.minute.splice(0, drop);
      if (admit) sql.exec("DELETE FROM minute_hits WHERE ts <= ?", now - MINUTE_MS);
    }
    if (now - this.dayStart >= DAY_MS) {
      this.dayStart = now;
      this.dayCount = 0;
    }

    let limited: LimitDecision["limited"] = null;
    if (daily !== null && this.dayCount >= daily) limited = "daily";
    else if (this.minute.length >= rpm) limited = "rpm";

    if (admit && limited === null) {
      this.minute.push(now);
      this.dayCount++;
      sql.exec("INSERT INTO minute_hits (ts) VALUES (?)", now);
      sql.exec("INSERT INTO day_window (id, start, count) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET start = excluded.start, count = excluded.count", this.dayStart, this.dayCount);
    }

    return {
      allowed: limited === null,
      limited,
      rpm,
      rpmRemaining: Math.max(0, rpm - this.minute.length),
      rpmResetAt: (this.minute[0] ?? now) + MINUTE_MS,
      daily,
      usedToday: this.dayCount,
      dailyResetAt: this.dayStart + DAY_MS,
    };
  }
}
