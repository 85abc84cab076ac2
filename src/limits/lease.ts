import type { Env } from "../env";
import type { Plan } from "../plans/plans";
import { notAwaited } from "../shared/storage-meter";
import { limiterFor, type LeaseReturn, type LimitDecision } from "./rate-limiter";

/**
 * Rate-limit leases: a warm request is admitted from a lease this isolate holds, with no call to the
 * key's limiter object. Once a lease will run out within AHEAD_MS (at the key's recent rate, or by
 * its life), the next one is fetched off the request path, so under steady traffic no request waits
 * for the object; one waits (single
 * flight per key) only when the isolate holds nothing usable: a key's first request, or one after a
 * quiet second (for a light key, below, after a quiet ten seconds). The object counts a lease's
 * admissions when it grants them and keeps them in its minute window until the lease's end has left
 * it, so leases never over-admit: on one isolate the limits stay exact (300 concurrent on RPM 100 admit exactly 100). Across isolates unspent
 * admissions are counted until given back, so the limiter may under-admit by at most two leases
 * per other isolate (docs/auth-and-limits.md).
 */
export const LEASE_MS = 1000;
/** The next lease is fetched when the current one has this little left (time, or admissions at the recent rate). */
export const AHEAD_MS = LEASE_MS / 4;
/** A lease never exceeds a tenth of the per-minute limit (Free: 1, Pro: 30) nor this. */
export const MAX_LEASE = 64;
/**
 * A key this isolate sees less than about once a second gets leases of one admission that live
 * this long, on plans of at least LIGHT_MIN_RPM a minute, so that its next request finds one
 * waiting. One held admission is then at most 1% of the minute's limit per isolate; smaller plans
 * (Free: 10) keep one-second leases, where ten idle isolates could otherwise hold the whole minute.
 */
export const LIGHT_LEASE_MS = 10_000;
export const LIGHT_MIN_RPM = 100;
/**
 * How long a request waits for a lease call another request started before it calls for itself.
 * Waiting on another request's promise is the single flight's point, but the runtime may cancel
 * that request (its client gone, say), and then its call never settles: a request that waited on
 * it for ever would hang, and so would every later one of the key. So the wait is bounded, and a
 * call older than this is not joined at all (docs/auth-and-limits.md).
 */
export const JOIN_MS = LEASE_MS;

interface Lease {
  granted: number;
  used: number;
  /** Until when the object counts the lease (what `release` names). */
  at: number;
  /** How long the lease lives: LEASE_MS, or LIGHT_LEASE_MS for a light key. */
  life: number;
  expiresAt: number;
  decision: LimitDecision;
}

interface KeyState {
  /** The lease being spent, and the next one when it was fetched ahead. */
  leases: Lease[];
  pending: Promise<Lease> | null;
  /** When `pending` was started. */
  pendingSince: number;
  /** What ended leases did not spend, to give back with the next lease call. */
  returns: LeaseReturn[];
  /** Arrival times in the last LEASE_MS: the recent rate that sizes the next lease. */
  arrivals: number[];
}

const states = new Map<string, KeyState>();
/** Keys remembered per isolate; beyond it the least recently seen go (their leases are given back on next use anyway). */
const MAX_KEYS = 10_000;
/** Lease calls this isolate made to limiter objects (tests read it; a lease carries the give-backs); `waited`: times a request waited for one. */
export const limiterCalls = { lease: 0, waited: 0 };

export const leaseSize = (rpm: number, recentArrivals: number) => Math.max(1, Math.min(MAX_LEASE, Math.floor(rpm / 10), recentArrivals));

const usable = (l: Lease, now: number) => l.used < l.granted && now < l.expiresAt;

/**
 * The decision a request admitted from a lease reports: the object counted every held lease when it
 * granted it, so the part not yet spent is added back to what remains and taken off what was used.
 */
function viewOf(state: KeyState): LimitDecision {
  const newest = state.leases[state.leases.length - 1]!;
  const unspent = state.leases.reduce((n, l) => n + l.granted - l.used, 0);
  return { ...newest.decision, rpmRemaining: newest.decision.rpmRemaining + unspent, usedToday: newest.decision.usedToday - unspent };
}

/**
 * Drops spent and expired leases. What an expired one did not spend goes back with the next lease
 * call, which a key still in use makes within a lease's life (`admit` fetches ahead within
 * AHEAD_MS of the end); one round trip instead of two.
 */
function prune(state: KeyState, now: number) {
  while (state.leases.length && !usable(state.leases[0]!, now)) {
    const old = state.leases.shift()!;
    if (old.granted > old.used) state.returns.push({ unused: old.granted - old.used, at: old.at });
  }
}

/** A key seen at most once in the last second, on a plan large enough for long light leases. */
const isLight = (plan: Plan, state: KeyState) => plan.rpm >= LIGHT_MIN_RPM && state.arrivals.length <= 1;

function acquire(env: Pick<Env, "LIMITER">, keyId: string, plan: Plan, state: KeyState): Promise<Lease> {
  limiterCalls.lease++;
  const light = isLight(plan, state);
  const life = light ? LIGHT_LEASE_MS : LEASE_MS;
  // The object counts the lease until its own now + life; measured from before the call, the
  // lease here ends no later than that, so nothing is spent after the object stopped counting it.
  const sentAt = Date.now();
  const returns = state.returns;
  state.returns = [];
  const pending = limiterFor(env, keyId)
    .lease(plan.rpm, plan.daily_requests, light ? 1 : leaseSize(plan.rpm, state.arrivals.length), life, returns)
    .then((res) => {
      const lease: Lease = { granted: res.granted, used: 0, at: res.at, life, expiresAt: sentAt + life, decision: res.decision };
      if (res.granted > 0) state.leases.push(lease);
      return lease;
    })
    .finally(() => {
      if (state.pending === pending) state.pending = null;
    });
  state.pending = pending;
  state.pendingSince = sentAt;
  return pending;
}

/** A lease call in flight that a request may still wait for. */
const joinable = (state: KeyState, now: number) => state.pending !== null && now - state.pendingSince < JOIN_MS;

/** `p`'s value, or undefined once `ms` have passed without one. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([p, new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Admits one request for the key, or returns the refusing decision. */
export async function admit(env: Pick<Env, "LIMITER">, keyId: string, plan: Plan, defer: (p: Promise<unknown>) => void): Promise<LimitDecision> {
  let state = states.get(keyId);
  if (state) states.delete(keyId);
  else state = { leases: [], pending: null, pendingSince: 0, returns: [], arrivals: [] };
  // Re-inserted on every use, so the Map's first key is the least recently seen.
  states.set(keyId, state);
  if (states.size > MAX_KEYS) states.delete(states.keys().next().value!);
  const now = Date.now();
  state.arrivals.push(now);
  while (state.arrivals[0]! <= now - LEASE_MS) state.arrivals.shift();

  for (;;) {
    const t = Date.now();
    prune(state, t);
    const l = state.leases[0];
    if (l) {
      l.used++;
      // Fetch the next lease ahead: while this one still serves, when the key has a steady rate;
      // as soon as it is spent, for a light key on a plan that allows light leases. Steady means:
      // at the key's recent rate (arrivals in the last LEASE_MS) this lease runs out within
      // AHEAD_MS, or AHEAD_MS is all its life has left. Not at half, as before: a lease fetched at
      // half expired with half of it unspent (its life runs from its grant, while the current one
      // still serves), which cost a lease call and a give-back per half second.
      const left = l.granted - l.used;
      const steady = state.arrivals.length > 1 && (left * LEASE_MS <= state.arrivals.length * AHEAD_MS || t >= l.expiresAt - AHEAD_MS);
      const lightNext = plan.rpm >= LIGHT_MIN_RPM && l.used === l.granted;
      const ahead = state.leases.length === 1 && !joinable(state, t) && (steady || lightNext);
      if (ahead) defer(notAwaited(() => acquire(env, keyId, plan, state)).catch((err) => console.error(`limiter lease for ${keyId} failed`, err)));
      return viewOf(state);
    }
    limiterCalls.waited++;
    const fresh = joinable(state, t) ? await within(state.pending!, state.pendingSince + JOIN_MS - t) : await acquire(env, keyId, plan, state);
    if (!fresh) continue; // the call joined did not answer in time: the next turn makes its own
    // Refused by the true count just now: every request that waited for this answer is refused too.
    if (fresh.granted === 0 && !state.leases.some((x) => usable(x, Date.now()))) return fresh.decision;
  }
}
