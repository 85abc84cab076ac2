import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { LEASE_MS } from "../../src/limits/lease";
import { describe, expect, it } from "vitest";
import { DAY_BUCKETS, HOUR_MS, limiterFor, type RateLimiter } from "../../src/limits/rate-limiter";
import { call, newKey } from "../helpers";

const hourOf = (t: number) => t - (t % HOUR_MS);

/** Writes hourly buckets straight into the object's storage, then evicts it so the next call reloads. */
async function seedHours(keyId: string, buckets: Array<[hoursAgo: number, count: number]>) {
  const stub = limiterFor(env, keyId);
  await runInDurableObject(stub, (_instance: RateLimiter, state) => {
    for (const [ago, count] of buckets) state.storage.sql.exec("INSERT INTO hour_buckets (hour, count) VALUES (?, ?)", hourOf(Date.now()) - ago * HOUR_MS, count);
  });
  await evictDurableObject(stub);
  return stub;
}

describe("per-key limits (SPEC.md section 8)", () => {
  it("is exact under concurrency: 300 concurrent requests on RPM 100 admit exactly 100", async () => {
    const { key } = await newKey("personal"); // RPM 100
    const results = await Promise.all(Array.from({ length: 300 }, () => call("/v1/usage", { key })));
    const limited = results.filter((r) => r.status === 429);
    expect(results.length - limited.length).toBe(100);
    expect(limited.length).toBe(200);
    for (const r of limited) {
      expect(r.json).toEqual({ detail: { error: "rate_limit_exceeded", message: expect.stringContaining("100 requests per minute") } });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(r.headers.get("x-ratelimit-limit")).toBe("100");
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    }
  });

  it("admitted responses carry x-ratelimit headers counting down", async () => {
    const { key } = await newKey("free"); // RPM 10
    const first = await call("/v1/usage", { key });
    const second = await call("/v1/usage", { key });
    expect(first.headers.get("x-ratelimit-limit")).toBe("10");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(second.headers.get("x-ratelimit-remaining")).toBe("8");
    // A leased admission stays counted a minute after its lease's end (limits/lease.ts).
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(60 + LEASE_MS / 1000);
  });

  it("the daily cap answers 429 daily_limit_exceeded, flat, with plan figures", async () => {
    const { key, record } = await newKey("free"); // 1,000 a day
    await seedHours(record.id, [[1, 1000]]); // full, from the hour before this one
    const r = await call("/v1/usage", { key });
    expect(r.status).toBe(429);
    expect(r.json).toEqual({
      error: "daily_limit_exceeded",
      // That hour leaves the window 25 hours after it began: 23 to 24 hours from now.
      message: expect.stringMatching(/rolling 24 hours reached on the Free plan; the window resets in 2[34]h/),
      plan: "free",
      daily_limit: 1000,
      used_today: 1000,
    });
    const retry = Number(r.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(23 * 3600);
    expect(retry).toBeLessThanOrEqual(24 * 3600);
  });

  it("the day is rolling: an hour counts until 25 hours after it began, then leaves the count", async () => {
    const { record } = await newKey("free");
    const stub = await seedHours(record.id, [[DAY_BUCKETS, 999], [DAY_BUCKETS - 1, 600], [3, 100]]);
    const d = await stub.peek(10, 1000);
    expect(d.usedToday).toBe(700); // the bucket 25 hours back is out; 24 hours back is still in
    expect(d.dailyResetAt).toBe(hourOf(Date.now()) + HOUR_MS); // when the 600 leave
    expect((await stub.hit(10, 1000)).usedToday).toBe(701);
    for (let i = 0; i < 9; i++) await stub.hit(10, 1000);
    // 300 more would fit the day; the minute refuses first, and refusals are not counted.
    const refused = await stub.hit(10, 1000);
    expect([refused.allowed, refused.limited, refused.usedToday]).toEqual([false, "rpm", 710]);
  });

  it("counts survive the object being evicted", async () => {
    const { record } = await newKey("pro");
    const stub = limiterFor(env, record.id);
    for (let i = 0; i < 7; i++) expect((await stub.hit(5, 100)).allowed).toBe(i < 5);
    await evictDurableObject(stub);
    const d = await stub.peek(5, 100);
    expect(d.usedToday).toBe(5);
    expect(d.rpmRemaining).toBe(0);
  });

  it("a lease is one run of the minute window: given back in part, the rest still counts, the same before and after eviction", async () => {
    const { record } = await newKey("pro");
    const stub = limiterFor(env, record.id);
    const lease = await stub.lease(100, 1000, 30, LEASE_MS);
    expect(lease.granted).toBe(30);
    expect((await stub.hit(100, 1000)).rpmRemaining).toBe(69);
    // 12 of the lease unspent go back with the next call; a second give-back of the same run takes only what is left.
    const next = await stub.lease(100, 1000, 5, LEASE_MS, [{ unused: 12, at: lease.at }]);
    expect(next.decision.rpmRemaining).toBe(100 - 30 - 1 + 12 - 5);
    await stub.lease(100, 1000, 1, LEASE_MS, [{ unused: 40, at: lease.at }]);
    const after = await stub.peek(100, 1000);
    expect(after.rpmRemaining).toBe(100 - 1 - 5 - 1);
    await evictDurableObject(stub);
    expect(await stub.peek(100, 1000)).toMatchObject({ rpmRemaining: after.rpmRemaining, rpmResetAt: after.rpmResetAt });
    await runInDurableObject(stub, (_instance: RateLimiter, state) => {
      expect(state.storage.sql.exec("SELECT n FROM minute_runs WHERE ts = ?", lease.at).one().n).toBe(0);
    });
  });

  it("knows its key from its name, and brings storage written before hourly buckets forward on wake", async () => {
    const { record } = await newKey("pro");
    const stub = limiterFor(env, record.id);
    await runInDurableObject(stub, (instance: RateLimiter, state) => {
      expect(instance.keyId).toBe(record.id);
      expect(state.storage.sql.exec("SELECT version FROM schema_version").one().version).toBe(3);
      // Make the storage look like the first deployment's: a fixed window opened 2 hours ago.
      state.storage.sql.exec("DROP TABLE hour_buckets");
      state.storage.sql.exec("DROP TABLE schema_version");
      state.storage.sql.exec("CREATE TABLE day_window (id INTEGER PRIMARY KEY CHECK (id = 1), start INTEGER NOT NULL, count INTEGER NOT NULL)");
      state.storage.sql.exec("INSERT INTO day_window (id, start, count) VALUES (1, ?, 40)", Date.now() - 2 * HOUR_MS);
    });
    await evictDurableObject(stub);
    expect((await stub.peek(300, 50_000)).usedToday).toBe(40);
    await runInDurableObject(stub, (_instance: RateLimiter, state) => {
      expect(state.storage.sql.exec("SELECT version FROM schema_version").one().version).toBe(3);
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'day_window'").one().n).toBe(0);
    });
  });

  it("brings a minute window stored a row per admission (schema 2) forward as one row per admission time", async () => {
    const { record } = await newKey("pro");
    const stub = limiterFor(env, record.id);
    const now = Date.now();
    await runInDurableObject(stub, (_instance: RateLimiter, state) => {
      const sql = state.storage.sql;
      sql.exec("DROP TABLE minute_runs");
      sql.exec("CREATE TABLE minute_hits (ts INTEGER NOT NULL)");
      for (const ts of [now - 70_000, now - 1_000, now - 1_000, now - 1_000, now + 500]) sql.exec("INSERT INTO minute_hits (ts) VALUES (?)", ts);
      sql.exec("UPDATE schema_version SET version = 2");
    });
    await evictDurableObject(stub);
    // The admission older than a minute has left the window; the three at one time and the leased one count.
    expect((await stub.peek(10, null)).rpmRemaining).toBe(6);
    await runInDurableObject(stub, (_instance: RateLimiter, state) => {
      expect(state.storage.sql.exec("SELECT version FROM schema_version").one().version).toBe(3);
      expect(state.storage.sql.exec("SELECT ts, n FROM minute_runs WHERE ts > ? ORDER BY ts", now - 60_000).toArray()).toEqual([
        { ts: now - 1_000, n: 3 },
        { ts: now + 500, n: 1 },
      ]);
    });
    // A lease is one row, and giving back part of it is counted after a restart too.
    const lease = await stub.lease(10, null, 4, 1_000);
    expect(lease.granted).toBe(4);
    await stub.release(3, lease.at);
    await evictDurableObject(stub);
    expect((await stub.peek(10, null)).rpmRemaining).toBe(5);
  });

  it("unlimited daily (null) never refuses for the day; refused requests do not count", async () => {
    const { record } = await newKey("corporate");
    const stub = limiterFor(env, record.id);
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await stub.hit(2, null));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false, false]);
    expect(decisions[3]!.limited).toBe("rpm");
    expect(decisions[3]!.usedToday).toBe(2);
  });

  it("GET /v1/usage: daily_requests_used counts every admitted protected request of the key; total_requests counts model calls", async () => {
    const { key } = await newKey("pro");
    expect((await call("/v1/route", { key, json: { messages: [] } })).status).toBe(400); // an error, still admitted
    expect((await call("/v1/models", { key })).status).toBe(200); // public: the limiter is not asked
    const usage = await call("/v1/usage", { key });
    expect(usage.json.limits.daily_requests_used).toBe(2); // the failed route call and this usage call
    expect(usage.json.limits.daily_requests_remaining).toBe(50_000 - 2);
    expect(usage.json.total_requests).toBe(0);
  });
});
