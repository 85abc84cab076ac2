import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../src/limits/rate-limiter";
import { call, newKey } from "../helpers";

const limiterFor = (keyId: string) => env.LIMITER.get(env.LIMITER.idFromName(keyId));

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
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(60);
  });

  it("the daily cap answers 429 daily_limit_exceeded, flat, with plan figures", async () => {
    const { key, record } = await newKey("free"); // 1,000 a day
    const stub = limiterFor(record.id);
    await runInDurableObject(stub, (instance: RateLimiter, state) => {
      // A window that opened an hour ago and is full.
      state.storage.sql.exec("INSERT INTO day_window (id, start, count) VALUES (1, ?, 1000)", Date.now() - 3600_000);
      (instance as unknown as { dayStart: number; dayCount: number }).dayStart = Date.now() - 3600_000;
      (instance as unknown as { dayStart: number; dayCount: number }).dayCount = 1000;
    });
    const r = await call("/v1/usage", { key });
    expect(r.status).toBe(429);
    expect(r.json).toEqual({
      error: "daily_limit_exceeded",
      message: expect.stringMatching(/Free plan.*resets in 2[23]h/),
      plan: "free",
      daily_limit: 1000,
      used_today: 1000,
    });
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(22 * 3600);
  });

  it("counts survive the object being restarted", async () => {
    const { record } = await newKey("pro");
    const stub = limiterFor(record.id);
    for (let i = 0; i < 7; i++) expect((await stub.hit(5, 100)).allowed).toBe(i < 5);
    // A fresh instance over the same storage, as after eviction.
    await runInDurableObject(stub, (_instance: RateLimiter, state) => {
      const reborn = new RateLimiter(state, env);
      const d = reborn.peek(5, 100);
      expect(d.usedToday).toBe(5);
      expect(d.rpmRemaining).toBe(0);
    });
  });

  it("unlimited daily (null) never refuses for the day; refused requests do not count", async () => {
    const { record } = await newKey("corporate");
    const stub = limiterFor(record.id);
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await stub.hit(2, null));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false, false]);
    expect(decisions[3]!.limited).toBe("rpm");
    expect(decisions[3]!.usedToday).toBe(2);
  });
});
