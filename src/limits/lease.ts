import type { Env } from "../env";
import type { Plan } from "../plans/plans";
import { limiterFor, type LimitDecision } from "./rate-limiter";

/**
 * Rate-limit leases: a warm request is admitted from a lease this isolate holds, with no call to the
 * key's limiter object; only when the lease is spent or stale does one request (single-flight per
 * key) ask the object for another. The object counts a lease's admissions when it grants them, so
 * leases never over-admit: on one isolate the limits stay exact (300 concurrent on RPM 100 admit
 * exactly 100). Across isolates a lease's unspent admissions are counted but unused until they are
 * given back, so the limiter may under-admit by at most one lease per other isolate (docs/auth-and-limits.md).
 */
export const LEASE_MS = 1000;
/** A lease never exceeds a tenth of the per-minute limit (Free: 1, Pro: 30) nor this. */
export const MAX_LEASE = 64;

interface Lease {
  granted: number;
  used: number;
  /** When the object counted the lease's admissions (what `release` names). */
  at: number;
  expiresAt: number;
  decision: LimitDecision;
}

interface KeyState {
  lease: Lease | null;
  pending: Promise<Lease> | null;
  /** Arrival times in the last LEASE_MS: the recent rate that sizes the next lease. */
  arrivals: number[];
}

const states = new Map<string, KeyState>();
/** Keys remembered per isolate; beyond it the least recently seen go (their leases are given back on next use anyway). */
const MAX_KEYS = 10_000;
/** Calls made to limiter objects by this isolate (tests and the bench read it). */
export const limiterCalls = { lease: 0, release: 0 };

export const leaseSize = (rpm: number, recentArrivals: number) => Math.max(1, Math.min(MAX_LEASE, Math.floor(rpm / 10), recentArrivals));

/**
 * The decision a request admitted from a lease reports: the object counted the whole lease when it
 * granted it, so the part not yet spent is added back to what remains and taken off what was used.
 */
const viewOf = (l: Lease): LimitDecision => ({
  ...l.decision,
  rpmRemaining: l.decision.rpmRemaining + (l.granted - l.used),
  usedToday: l.decision.usedToday - (l.granted - l.used),
});

async function acquire(env: Pick<Env, "LIMITER">, keyId: string, plan: Plan, state: KeyState, defer: (p: Promise<unknown>) => void): Promise<Lease> {
  const stub = limiterFor(env, keyId);
  const old = state.lease;
  if (old && old.granted > old.used) {
    // Give back what the last lease did not spend; off the request path.
    limiterCalls.release++;
    defer(stub.release(old.granted - old.used, old.at).catch((err) => console.error(`limiter release for ${keyId} failed`, err)));
  }
  state.lease = null;
  limiterCalls.lease++;
  const res = await stub.lease(plan.rpm, plan.daily_requests, leaseSize(plan.rpm, state.arrivals.length));
  const lease: Lease = { granted: res.granted, used: 0, at: res.at, expiresAt: Date.now() + LEASE_MS, decision: res.decision };
  if (res.granted > 0) state.lease = lease;
  return lease;
}

/** Admits one request for the key, or returns the refusing decision. */
export async function admit(env: Pick<Env, "LIMITER">, keyId: string, plan: Plan, defer: (p: Promise<unknown>) => void): Promise<LimitDecision> {
  let state = states.get(keyId);
  if (state) states.delete(keyId);
  else state = { lease: null, pending: null, arrivals: [] };
  // Re-inserted on every use, so the Map's first key is the least recently seen.
  states.set(keyId, state);
  if (states.size > MAX_KEYS) states.delete(states.keys().next().value!);
  const now = Date.now();
  state.arrivals.push(now);
  while (state.arrivals[0]! <= now - LEASE_MS) state.arrivals.shift();

  for (;;) {
    const l = state.lease;
    if (l && l.used < l.granted && Date.now() < l.expiresAt) {
      l.used++;
      return viewOf(l);
    }
    const s = state;
    const fresh = await (s.pending ??= acquire(env, keyId, plan, s, defer).finally(() => (s.pending = null)));
    // Refused by the true count just now: every request that waited for this answer is refused too.
    if (fresh.granted === 0) return fresh.decision;
  }
}
