import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { admit, JOIN_MS, leaseSize, limiterCalls, LEASE_MS } from "../../src/limits/lease";
import { limiterFor } from "../../src/limits/rate-limiter";
import { PLANS } from "../../src/plans/plans";
import { call, newKey } from "../helpers";

/** Rate-limit leases (issue 14): a warm request makes no call to the limiter object. */
describe("rate-limit leases", () => {
  it("a warm key is admitted from the isolate's lease: 100 requests make a handful of limiter calls", async () => {
    const { record } = await newKey("pro"); // RPM 300: leases of up to 30
    const before = limiterCalls.lease;
    for (let i = 0; i < 100; i++) expect((await admit(env, record.id, PLANS.pro, () => {})).allowed).toBe(true);
    const calls = limiterCalls.lease - before;
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(12);
    console.log(`100 warm admissions: ${calls} limiter calls`);
  });

  it("through the app: headers count down and GET /v1/usage reports what was spent, not what was leased", async () => {
    const { key } = await newKey("pro");
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) remaining.push(Number((await call("/v1/savings", { key })).headers.get("x-ratelimit-remaining") ?? "-1"));
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => 299 - i));
    const usage = await call("/v1/usage", { key });
    expect(usage.json.limits.daily_requests_used).toBe(21);
    expect(Number(usage.headers.get("x-ratelimit-remaining"))).toBe(300 - 21);
  });

  it("never over-admits: leases count their admissions when granted, and refusals reach every waiter", async () => {
    const { record } = await newKey("personal"); // RPM 100
    const plan = PLANS.personal;
    const decisions = await Promise.all(Array.from({ length: 250 }, () => admit(env, record.id, plan, () => {})));
    expect(decisions.filter((d) => d.allowed).length).toBe(100);
    expect((await limiterFor(env, record.id).peek(plan.rpm, plan.daily_requests)).rpmRemaining).toBe(0);
  });

  it("across isolates: never over-admits, and under-admits by at most the other isolate's two leases", async () => {
    const { record } = await newKey("personal"); // RPM 100: a lease is at most 10
    const plan = PLANS.personal;
    const stub = limiterFor(env, record.id);
    // Another isolate, as admit() runs there: the lease it spends and the one it fetched ahead, both
    // as large as the plan allows; it has spent 7 of the 20 when this isolate meets the limit.
    const held = [await stub.lease(plan.rpm, plan.daily_requests, 10, LEASE_MS), await stub.lease(plan.rpm, plan.daily_requests, 10, LEASE_MS)];
    const heldTotal = held.reduce((n, l) => n + l.granted, 0);
    expect(heldTotal).toBe(20);
    const otherSpent = 7;
    const pending: Promise<unknown>[] = [];
    let here = 0;
    for (let i = 0; i < 200; i++) {
      const d = await admit(env, record.id, plan, (p) => pending.push(p));
      if (!d.allowed) break;
      here++;
    }
    await Promise.all(pending);
    // Never over: what this isolate spent and everything the other holds fit in the minute.
    expect(here + heldTotal).toBeLessThanOrEqual(plan.rpm);
    // Exact here given what the other holds; the minute's unused part is the other's unspent rest,
    // at most its two leases (docs/auth-and-limits.md).
    expect(here).toBe(plan.rpm - heldTotal);
    expect(plan.rpm - (here + otherSpent)).toBeLessThanOrEqual(heldTotal);
    // Once the other isolate gives its rest back (with its next lease call), this one is admitted again.
    await stub.release(heldTotal - otherSpent - 3, held[1]!.at);
    expect((await stub.peek(plan.rpm, plan.daily_requests)).rpmRemaining).toBe(heldTotal - otherSpent - 3);
  });

  it("gives back what an expired lease did not spend", async () => {
    const { record } = await newKey("pro");
    const plan = PLANS.pro;
    const stub = limiterFor(env, record.id);
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) await admit(env, record.id, plan, (p) => pending.push(p));
    const counted = (await stub.peek(plan.rpm, plan.daily_requests)).usedToday;
    expect(counted).toBeGreaterThanOrEqual(40);
    await new Promise((r) => setTimeout(r, LEASE_MS + 20));
    await admit(env, record.id, plan, (p) => pending.push(p)); // takes a new lease, returning the old one's rest
    await Promise.all(pending);
    const after = await stub.peek(plan.rpm, plan.daily_requests);
    // After the quiet second the key is light: its admission came from a lease of one, and the next
    // light lease of one was taken ahead for its next request.
    expect(after.usedToday).toBeLessThanOrEqual(41 + 1);
    expect(after.usedToday).toBeGreaterThanOrEqual(41);
  });

  it("fetches the next lease ahead: a steady key's requests stop waiting for the limiter object", async () => {
    const { record } = await newKey("pro");
    const plan = PLANS.pro;
    const deferred: Promise<unknown>[] = [];
    const defer = (p: Promise<unknown>) => deferred.push(p);
    // Warm up: the first requests size the lease from the key's rate.
    for (let i = 0; i < 10; i++) await admit(env, record.id, plan, defer);
    await Promise.all(deferred);
    const waitedBefore = limiterCalls.waited;
    const leasesBefore = limiterCalls.lease;
    for (let i = 0; i < 200; i++) {
      expect((await admit(env, record.id, plan, defer)).allowed).toBe(true);
      // The runtime finishes deferred work between requests; let the fetched-ahead lease arrive.
      if (i % 5 === 4) await Promise.all(deferred);
    }
    await Promise.all(deferred);
    expect(limiterCalls.lease - leasesBefore).toBeGreaterThan(0);
    expect(limiterCalls.waited - waitedBefore).toBe(0);
  });

  it("a light key (seen less than once a second) finds its next lease waiting, on plans of RPM >= 100", async () => {
    const { record } = await newKey("pro"); // RPM 300
    const deferred: Promise<unknown>[] = [];
    const defer = (p: Promise<unknown>) => deferred.push(p);
    await admit(env, record.id, PLANS.pro, defer); // the key's first request waits
    await Promise.all(deferred);
    const waitedBefore = limiterCalls.waited;
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, LEASE_MS + 200));
      expect((await admit(env, record.id, PLANS.pro, defer)).allowed).toBe(true);
      await Promise.all(deferred);
    }
    expect(limiterCalls.waited - waitedBefore).toBe(0);
    // Free (RPM 10) keeps one-second leases: after a quiet second its request waits again.
    const free = await newKey("free");
    await admit(env, free.record.id, PLANS.free, defer);
    await Promise.all(deferred);
    await new Promise((r) => setTimeout(r, LEASE_MS + 200));
    const freeBefore = limiterCalls.waited;
    await admit(env, free.record.id, PLANS.free, defer);
    expect(limiterCalls.waited - freeBefore).toBe(1);
  });

  it("counts a lease's admissions until its end has left the minute window, so none spent late escapes the limit", async () => {
    const { record } = await newKey("free");
    const stub = limiterFor(env, record.id);
    const before = Date.now();
    const res = await stub.lease(10, null, 3, LEASE_MS);
    expect(res.granted).toBe(3);
    expect(res.at).toBeGreaterThanOrEqual(before + LEASE_MS);
    // Counted from the grant on; the window resets a minute after the lease's end, not its start.
    const now = await stub.peek(10, null);
    expect(now.rpmRemaining).toBe(7);
    expect(now.rpmResetAt).toBe(res.at + 60_000);
    await stub.release(2, res.at);
    expect((await stub.peek(10, null)).rpmRemaining).toBe(9);
  });

  it("a steady key makes about one limiter call per lease life, and its unspent rests go back with the next lease", async () => {
    const { record } = await newKey("corporate"); // RPM 1,000: leases of up to 64
    const plan = PLANS.corporate;
    const deferred: Promise<unknown>[] = [];
    const defer = (p: Promise<unknown>) => deferred.push(p);
    for (let i = 0; i < 20; i++) {
      await admit(env, record.id, plan, defer); // warm up to the rate: 20 a second
      await new Promise((r) => setTimeout(r, 50));
    }
    await Promise.all(deferred);
    const leasesBefore = limiterCalls.lease;
    const waitedBefore = limiterCalls.waited;
    for (let i = 0; i < 60; i++) {
      expect((await admit(env, record.id, plan, defer)).allowed).toBe(true);
      await new Promise((r) => setTimeout(r, 50));
    }
    await Promise.all(deferred);
    const leases = limiterCalls.lease - leasesBefore;
    console.log(`60 admissions at 20 a second: ${leases} limiter calls (no separate give-back calls)`);
    // Three seconds of traffic: one lease per second, and one more at most for the timing of the test.
    expect(leases).toBeLessThanOrEqual(4);
    expect(limiterCalls.waited - waitedBefore).toBe(0);
    // What the isolate holds is counted, and nothing more: 80 spent, the rest in its held leases.
    const counted = (await limiterFor(env, record.id).peek(plan.rpm, plan.daily_requests)).usedToday;
    expect(counted).toBeGreaterThanOrEqual(80);
    expect(counted).toBeLessThanOrEqual(80 + 2 * 21);
    // After a quiet lease life, the next request's lease call gives back what the expired ones did not spend.
    await new Promise((r) => setTimeout(r, LEASE_MS + 50));
    await admit(env, record.id, plan, defer);
    await Promise.all(deferred);
    const after = (await limiterFor(env, record.id).peek(plan.rpm, plan.daily_requests)).usedToday;
    expect(after).toBeLessThanOrEqual(81 + 1); // the 81 spent, and at most one light admission held ahead
    expect(after).toBeGreaterThanOrEqual(81);
  });

  it("a lease call that never answers (its request cancelled by the runtime) holds the key's next requests at most JOIN_MS", async () => {
    const { record } = await newKey("pro");
    const plan = PLANS.pro;
    // The first lease call never settles, as when the request that made it is cancelled: its
    // continuation never runs, so neither does anything chained to it.
    const stuck = new Proxy(env.LIMITER, {
      get(target, prop) {
        if (prop !== "getByName") return Reflect.get(target, prop, target);
        return () => ({ lease: () => new Promise(() => {}) });
      },
    });
    void admit({ LIMITER: stuck }, record.id, plan, () => {});
    const started = performance.now();
    const timeout = new Promise<"hung">((r) => setTimeout(() => r("hung"), JOIN_MS + 2000));
    const first = await Promise.race([admit(env, record.id, plan, () => {}), timeout]);
    const waited = performance.now() - started;
    expect(first, "a request joined the dead call for ever").not.toBe("hung");
    expect(first).toMatchObject({ allowed: true });
    expect(waited).toBeGreaterThanOrEqual(JOIN_MS - 50); // it did wait for the call it joined, once
    // The dead call is past joining now: later requests do not wait for it at all.
    const again = performance.now();
    for (let i = 0; i < 5; i++) expect((await admit(env, record.id, plan, () => {})).allowed).toBe(true);
    expect(performance.now() - again).toBeLessThan(JOIN_MS / 2);
  });

  it("sizes leases from the recent rate, within a tenth of the minute limit", () => {
    expect(leaseSize(10, 50)).toBe(1);
    expect(leaseSize(300, 1)).toBe(1);
    expect(leaseSize(300, 50)).toBe(30);
    expect(leaseSize(1000, 500)).toBe(64);
  });
});
