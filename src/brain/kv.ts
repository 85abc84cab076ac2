/**
 * KV as a cache only: D1 (or the renderer) is the truth, so a KV failure or outage is a miss, never
 * a failed request. Writes go behind the response (`defer`, the Worker's waitUntil).
 */

export type Defer = (work: Promise<unknown>) => void;

/** KV refuses a TTL under 60 seconds. */
export const KV_MIN_TTL_S = 60;

export async function kvGet(kv: KVNamespace, key: string): Promise<string | null> {
  try {
    return await kv.get(key, "text");
  } catch (e) {
    console.warn(`KV get ${key} failed; reading the source instead`, e);
    return null;
  }
}

export async function kvPut(kv: KVNamespace, key: string, value: string, ttlSeconds: number): Promise<void> {
  try {
    await kv.put(key, value, { expirationTtl: Math.max(KV_MIN_TTL_S, ttlSeconds) });
  } catch (e) {
    console.warn(`KV put ${key} failed; the next read goes to the source`, e);
  }
}
