import { DurableObject } from "cloudflare:workers";
import { db } from "../db/client";
import type { Env } from "../env";
import { ensureSchema } from "../shared/durable-schema";
import { signerFrom } from "../shared/signing";
import { Arrivals, flushDue, retryDelay } from "./flush-policy";
import { signRecords, writeRecords, type BufferedRecord } from "./record";

/** At most this many records per D1 batch (two to four statements: src/db/json-rows.ts); more flush in the next alarm, at once. */
export const MAX_PER_FLUSH = 500;

/** The object's storage, step by step (`ensureSchema`): append a step, never edit one. */
const SCHEMA = [
  [
    // Records not yet in D1, in arrival order; `at` is when the buffer took them.
    "CREATE TABLE IF NOT EXISTS pending (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, body TEXT NOT NULL)",
    // Counters of the flushes (the instrumentation tests and the bench read through stats()).
    "CREATE TABLE IF NOT EXISTS flush_stats (id INTEGER PRIMARY KEY CHECK (id = 1), batches INTEGER NOT NULL, records INTEGER NOT NULL, failures INTEGER NOT NULL, failing INTEGER NOT NULL, last_error TEXT)",
    "INSERT OR IGNORE INTO flush_stats (id, batches, records, failures, failing) VALUES (1, 0, 0, 0, 0)",
  ],
];

export interface BufferStats {
  /** Records held, not yet written to D1. */
  pending: number;
  /** D1 write batches that succeeded, and the records they carried. */
  batches: number;
  records: number;
  /** Flushes that failed (each is retried), and how many of the latest ones failed in a row. */
  failures: number;
  failing: number;
  lastError: string | null;
}

/**
 * The durable write-behind buffer for usage rows, receipts and attestations (docs/storage.md), one of
 * USAGE_BUFFER_SHARDS (`isolateBuffer`). `append` signs the records' receipts and writes the records
 * to the object's SQLite storage before it returns (the output gate holds the reply until the write
 * is durable), and sets the alarm to when they should flush (`flushDue`: the oldest record's arrival
 * plus a window of 250 ms, 400 ms while the buffer is busy, or at once when FLUSH_AT records wait).
 * The alarm writes everything pending in one D1 batch, and deletes the records only after D1
 * accepted them; a failure keeps them and retries with backoff, and the write skips rows a previous
 * attempt already stored, so a retry never duplicates a row nor fails on one.
 */
export class UsageBuffer extends DurableObject<Env> {
  private readonly arrivals = new Arrivals();
  /**
   * What `append` decides on, kept in memory so that an append is one INSERT (and at most one
   * setAlarm) rather than an INSERT per record, two SELECTs and a getAlarm: the object is the only
   * writer of its storage and runs one call at a time. Read from storage on wake (undefined: not yet).
   */
  private view: { count: number; oldest: number | null; failing: number; alarmAt: number | null } | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ensureSchema(ctx.storage, SCHEMA);
  }

  private async current() {
    if (!this.view) {
      this.view = { ...this.pending(), failing: this.failingStored(), alarmAt: await this.ctx.storage.getAlarm() };
    }
    return this.view;
  }

  async append(records: BufferedRecord[]): Promise<void> {
    if (!records.length) return;
    // Signed as they arrive rather than all at once in the flush: a flush of a hundred receipts
    // spent about 10 ms signing in one go, in the isolate that (locally) also serves the requests.
    const signed = await signRecords(records, signerFrom(this.env.LEDGER_SIGNING_KEY));
    const view = await this.current();
    const now = Date.now();
    // One statement: json_each hands each record's JSON text back as its own row.
    this.ctx.storage.sql.exec("INSERT INTO pending (at, body) SELECT ?, value FROM json_each(?)", now, JSON.stringify(signed));
    view.count += records.length;
    view.oldest ??= now;
    this.arrivals.add(now, records.length);
    // A failing buffer keeps its backoff rather than retrying on every append; otherwise the alarm
    // follows the rule, later too (a buffer that turned busy gives its oldest record the longer window).
    if (view.failing > 0) return;
    const due = this.due(now);
    if (due !== null && view.alarmAt !== due) await this.setAlarm(due);
  }

  override async alarm(): Promise<void> {
    const view = await this.current();
    view.alarmAt = null; // the runtime clears an alarm as it fires
    const sql = this.ctx.storage.sql;
    const rows = sql.exec<{ seq: number; body: string }>("SELECT seq, body FROM pending ORDER BY seq LIMIT ?", MAX_PER_FLUSH).toArray();
    if (rows.length) {
      try {
        // The signer signs only what is unsigned: records a buffer stored before it signed on arrival.
        await writeRecords(db(this.env.DB), signerFrom(this.env.LEDGER_SIGNING_KEY), rows.map((r) => JSON.parse(r.body) as BufferedRecord));
      } catch (err) {
        sql.exec("UPDATE flush_stats SET failures = failures + 1, failing = failing + 1, last_error = ? WHERE id = 1", String(err));
        view.failing++;
        console.error(`usage buffer ${this.ctx.id.name}: flushing ${rows.length} record(s) to D1 failed; retrying`, err);
        await this.setAlarm(Date.now() + retryDelay(view.failing));
        return;
      }
      sql.exec("DELETE FROM pending WHERE seq <= ?", rows.at(-1)!.seq);
      sql.exec("UPDATE flush_stats SET batches = batches + 1, records = records + ?, failing = 0 WHERE id = 1", rows.length);
      // Re-read: records appended while D1 wrote stay pending.
      Object.assign(view, { ...this.pending(), failing: 0 });
    }
    // Records that arrived during the write (or past MAX_PER_FLUSH) get their own alarm.
    const due = this.due(Date.now());
    if (due !== null) await this.setAlarm(due);
  }

  private async setAlarm(at: number): Promise<void> {
    await this.ctx.storage.setAlarm(at);
    this.view!.alarmAt = at;
  }

  stats(): BufferStats {
    const s = this.ctx.storage.sql
      .exec<{ pending: number; batches: number; records: number; failures: number; failing: number; last_error: string | null }>(
        "SELECT (SELECT count(*) FROM pending) AS pending, batches, records, failures, failing, last_error FROM flush_stats WHERE id = 1",
      )
      .one();
    return { pending: s.pending, batches: s.batches, records: s.records, failures: s.failures, failing: s.failing, lastError: s.last_error };
  }

  /** How many records wait, and when the oldest of them arrived. */
  private pending(): { count: number; oldest: number | null } {
    const { n, oldest } = this.ctx.storage.sql.exec<{ n: number; oldest: number | null }>("SELECT count(*) AS n, min(at) AS oldest FROM pending").one();
    return { count: n, oldest };
  }

  /** When the pending records should flush, or null when there are none. */
  private due(now: number): number | null {
    const v = this.view!;
    return flushDue({ count: v.count, oldest: v.oldest, recent: this.arrivals.recent(now), failing: v.failing }, now);
  }

  private failingStored(): number {
    return this.ctx.storage.sql.exec<{ failing: number }>("SELECT failing FROM flush_stats WHERE id = 1").one().failing;
  }
}
