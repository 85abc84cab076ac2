import { eq } from "drizzle-orm";
import { db } from "../db/client";
import { apiKeys } from "../db/schema";
import { timingSafeEqualStr } from "../shared/hash";
import type { ApiKeyRecord } from "./keys";

/**
 * Key lookups are cached per isolate so that a request does not pay a D1 round trip.
 * A revoked key stops working within KEY_CACHE_TTL_MS on every isolate (immediately on
 * the isolate that revoked it). Unknown keys are cached too, so a stream of bad keys
 * cannot hammer D1; a freshly created key has never been looked up, so it works at once.
 */
export const KEY_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  record: ApiKeyRecord | null;
  expiresAt: number;
}
const cache = new Map<string, Entry>();
const inflight = new Map<string, Promise<ApiKeyRecord | null>>();

/** Synchronous fast path: undefined means "not cached, go to D1". */
export function cachedKey(keyHash: string, now: number): ApiKeyRecord | null | undefined {
  const entry = cache.get(keyHash);
  if (!entry) return undefined;
  if (entry.expiresAt <= now) {
    cache.delete(keyHash);
    return undefined;
  }
  return entry.record;
}

export function loadKey(d1: D1Database, keyHash: string): Promise<ApiKeyRecord | null> {
  // Concurrent first requests with one key share one D1 query.
  let pending = inflight.get(keyHash);
  if (!pending) {
    pending = db(d1)
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, keyHash))
      .get()
      .then((row) => {
        const record = row && timingSafeEqualStr(row.keyHash, keyHash) ? (row as ApiKeyRecord) : null;
        if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
        cache.set(keyHash, { record, expiresAt: Date.now() + KEY_CACHE_TTL_MS });
        return record;
      })
      .finally(() => inflight.delete(keyHash));
    inflight.set(keyHash, pending);
  }
  return pending;
}

/** Called where this isolate revokes a key, so it stops working here at once. */
export function forgetKey(keyHash: string) {
  cache.delete(keyHash);
}
