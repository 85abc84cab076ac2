import { eq } from "drizzle-orm";
import { db } from "../db/client";
import { apiKeys } from "../db/schema";
import { timingSafeEqualStr } from "../shared/hash";
import { notAwaited } from "../shared/storage-meter";
import { hashKey, type ApiKeyRecord } from "./keys";

/**
 * Key lookups are cached per isolate so that a request does not pay a D1 round trip. Unknown keys
 * are cached too, so a stream of bad keys cannot hammer D1; a freshly created key has never been
 * looked up, so it works at once.
 *
 * Revocation: the isolate that revokes a key forgets it at once. Every other isolate trusts its
 * cache only while its view of the revocation epoch (how many keys are revoked, and the latest
 * revocation time: one indexed D1 read) is younger than REVOCATION_CHECK_MS; when the epoch has
 * moved, the whole cache is dropped. So a key revoked anywhere (admin endpoint, CLI, SQL) stops
 * working everywhere within REVOCATION_CHECK_MS. Under steady traffic the epoch is re-read in the
 * background at half that age, so no request waits for it.
 */
export const KEY_CACHE_TTL_MS = 120_000;
/**
 * A cached record older than this is re-read in the background when a request uses it, so a key seen
 * in the last minute is always answered from the cache (KEY_CACHE_TTL_MS > KEY_REFRESH_MS + 60 s):
 * with a 30-second lifetime and no refresh, a key seen 31 to 60 seconds ago paid a D1 read on its
 * request's path (0.3% of warm calls in the bench). Only revocation changes a key in this service,
 * and the revocation epoch sees it within REVOCATION_CHECK_MS; the refresh bounds anything else
 * changed straight in D1 (a plan) at KEY_REFRESH_MS for a key in use.
 */
export const KEY_REFRESH_MS = 30_000;
export const REVOCATION_CHECK_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  record: ApiKeyRecord | null;
  /** When the read that loaded it started: the record is at least as new as that. */
  loadedAt: number;
  /** When a background re-read of it last started (see cachedKey). */
  refreshedAt: number;
}
const cache = new Map<string, Entry>();
/** Bumped whenever the cache is dropped, so a lookup that started before cannot refill it. */
let generation = 0;

/*
 * No promise here is shared between requests. A request that awaited a read another request
 * started would hang with it if the runtime cancelled that request (a client gone, a hung
 * neighbour): the read's continuation never runs in a cancelled request, so the promise never
 * settles, and a module-level "read in flight" promise that never settles stalls every later
 * request of the isolate (what the fuzz found: docs/auth-and-limits.md). So each request that must
 * wait reads for itself, and background reads are spaced by the time they started, which heals on
 * its own if one of them never ends.
 */
let epoch: string | undefined;
/** When the newest epoch read applied *started*: everything revoked before then has been seen. */
let epochReadAt = Number.NEGATIVE_INFINITY;
/** When the last background epoch read started. */
let epochBackgroundAt = Number.NEGATIVE_INFINITY;

async function readEpoch(d1: D1Database): Promise<void> {
  const started = Date.now();
  const row = await d1.prepare("SELECT count(*) AS n, max(revoked_at) AS latest FROM api_keys WHERE revoked_at IS NOT NULL").first<{ n: number; latest: number | null }>();
  // A read that started before the one last applied has nothing newer to say.
  if (started < epochReadAt) return;
  const next = `${row?.n ?? 0}:${row?.latest ?? ""}`;
  if (epoch !== undefined && next !== epoch) dropAll();
  epoch = next;
  epochReadAt = started;
}

function dropAll() {
  cache.clear();
  generation++;
}

/**
 * Synchronous fast path: undefined means "ask D1" (`loadKey`). Starts a background epoch read
 * when the epoch is getting old; `defer` is the request's waitUntil.
 */
export function cachedKey(d1: D1Database, keyHash: string, now: number, defer: (p: Promise<unknown>) => void): ApiKeyRecord | null | undefined {
  const age = now - epochReadAt;
  if (age >= REVOCATION_CHECK_MS) return undefined;
  if (age >= REVOCATION_CHECK_MS / 2 && now - epochBackgroundAt >= REVOCATION_CHECK_MS / 2) {
    epochBackgroundAt = now;
    defer(notAwaited(() => readEpoch(d1)).catch(() => {}));
  }
  const entry = cache.get(keyHash);
  if (!entry) return undefined;
  if (now - entry.loadedAt >= KEY_CACHE_TTL_MS) {
    cache.delete(keyHash);
    return undefined;
  }
  if (now - entry.loadedAt >= KEY_REFRESH_MS && now - entry.refreshedAt >= REVOCATION_CHECK_MS) {
    entry.refreshedAt = now;
    defer(notAwaited(() => fetchKey(d1, keyHash)).catch(() => {}));
  }
  return entry.record;
}

/**
 * The record this isolate last loaded for a key, whatever the epoch's age: what a request may start
 * its admission with while `loadKey` re-reads the epoch. Never a decision to serve: `loadKey` is.
 */
export function knownKey(keyHash: string): ApiKeyRecord | null {
  return cache.get(keyHash)?.record ?? null;
}

/** The slow path: brings the epoch up to date if it is stale, then answers from cache or D1. */
export async function loadKey(d1: D1Database, keyHash: string): Promise<ApiKeyRecord | null> {
  if (Date.now() - epochReadAt >= REVOCATION_CHECK_MS) await readEpoch(d1);
  const entry = cache.get(keyHash);
  if (entry && Date.now() - entry.loadedAt < KEY_CACHE_TTL_MS) return entry.record;
  return fetchKey(d1, keyHash);
}

/** One D1 read of a key into the cache. */
async function fetchKey(d1: D1Database, keyHash: string): Promise<ApiKeyRecord | null> {
  const startedIn = generation;
  const started = Date.now();
  const row = await db(d1).select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash)).get();
  const record = row && timingSafeEqualStr(row.keyHash, keyHash) ? (row as ApiKeyRecord) : null;
  // Not after a drop (the read may have seen the key before its revocation), nor over a newer read.
  const held = cache.get(keyHash);
  if (startedIn === generation && !(held && held.loadedAt > started)) {
    if (!held && cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(keyHash, { record, loadedAt: started, refreshedAt: Number.NEGATIVE_INFINITY });
  }
  return record;
}

/**
 * The SHA-256 of a presented key, remembered per isolate: hashing is the largest piece of CPU a
 * warm request spent on auth. The raw key is already in this isolate's memory for every request it
 * sends; remembering it a while longer is the cost. Bounded like the key cache.
 */
const hashes = new Map<string, string>();
export function keyHashOf(key: string): string {
  let h = hashes.get(key);
  if (h === undefined) {
    if (hashes.size >= MAX_ENTRIES) hashes.delete(hashes.keys().next().value!);
    hashes.set(key, (h = hashKey(key)));
  }
  return h;
}

/** Called where this isolate revokes a key, so it stops working here at once. */
export function forgetKey(keyHash: string) {
  cache.delete(keyHash);
}
