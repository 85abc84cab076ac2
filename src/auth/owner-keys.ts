import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, usageEvents } from "../db/schema";
import { apiError, notFound } from "../shared/errors";
import { newId } from "../shared/ids";
import { forgetKey } from "./key-cache";
import { DISPLAY_PREFIX_LENGTH, generateKey, hashKey, publicKeyView, type ApiKeyRecord } from "./keys";

/**
 * The owner-scoped side of key management (issue 17): what the console's Keys page and any client
 * holding a key can do to the keys of its own owner. An owner never sees or touches another owner's
 * keys, and a new key always gets the caller's plan, so a key cannot mint a stronger one.
 */

/** Unrevoked keys one owner may hold at once, so a leaked key cannot mint keys without bound. */
export const MAX_ACTIVE_KEYS_PER_OWNER = 20;
/** Keys listed, newest first (revoked ones included, so a revocation stays visible). */
export const MAX_LISTED_KEYS = 200;

export type OwnerKeyView = ReturnType<typeof publicKeyView> & { last_used_at: string | null; current: boolean };

function view(r: ApiKeyRecord, lastUsed: number | null | undefined, callerKeyId: string): OwnerKeyView {
  return { ...publicKeyView(r), last_used_at: lastUsed ? new Date(lastUsed).toISOString() : null, current: r.id === callerKeyId };
}

/** The caller owner's keys, newest first, each with the time of its latest recorded call. */
export async function listOwnerKeys(database: Db, caller: ApiKeyRecord): Promise<OwnerKeyView[]> {
  const [rows, used] = await Promise.all([
    database.select().from(apiKeys).where(eq(apiKeys.ownerId, caller.ownerId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(MAX_LISTED_KEYS),
    database
      .select({ keyId: usageEvents.keyId, last: sql<number>`max(${usageEvents.createdAt})` })
      .from(usageEvents)
      .where(eq(usageEvents.ownerId, caller.ownerId))
      .groupBy(usageEvents.keyId),
  ]);
  const lastUsed = new Map(used.map((u) => [u.keyId, u.last]));
  return rows.map((r) => view(r as ApiKeyRecord, lastUsed.get(r.id), caller.id));
}

function newRecord(caller: ApiKeyRecord) {
  const key = generateKey();
  const record: ApiKeyRecord = {
    id: newId("key_"),
    keyHash: hashKey(key),
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    plan: caller.plan,
    ownerId: caller.ownerId,
    createdAt: Date.now(),
    revokedAt: null,
  };
  return { key, record };
}

/**
 * A new key for the caller's owner, on the caller's plan; the secret is returned here only. The
 * insert and the count of active keys are one statement, so concurrent creates cannot pass the cap.
 */
export async function createOwnerKey(database: Db, caller: ApiKeyRecord) {
  const { key, record } = newRecord(caller);
  const written = await database.run(sql`
    INSERT INTO api_keys (id, key_hash, prefix, plan, owner_id, created_at, revoked_at)
    SELECT ${record.id}, ${record.keyHash}, ${record.prefix}, ${record.plan}, ${record.ownerId}, ${record.createdAt}, NULL
    WHERE (SELECT count(*) FROM api_keys WHERE owner_id = ${record.ownerId} AND revoked_at IS NULL) < ${MAX_ACTIVE_KEYS_PER_OWNER}`);
  if (!written.meta.changes) {
    throw apiError("too_many_keys", `An owner may hold at most ${MAX_ACTIVE_KEYS_PER_OWNER} active keys; revoke one first.`, { max_active_keys: MAX_ACTIVE_KEYS_PER_OWNER });
  }
  return { ...view(record, null, caller.id), key };
}

async function ownedKey(database: Db, caller: ApiKeyRecord, id: string): Promise<ApiKeyRecord> {
  const row = await database.select().from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.ownerId, caller.ownerId))).get();
  // Another owner's key is answered exactly like a missing one, so ids cannot be probed.
  if (!row) throw notFound("key_not_found", `No API key with id ${id} for this owner.`);
  return row as ApiKeyRecord;
}

/**
 * Revokes one of the owner's keys (revoking it again keeps the first `revoked_at`). This isolate
 * forgets it at once; every other isolate sees the revocation epoch move within
 * REVOCATION_CHECK_MS (key-cache.ts), as for the admin endpoint.
 */
export async function revokeOwnerKey(database: Db, caller: ApiKeyRecord, id: string): Promise<OwnerKeyView> {
  const existing = await ownedKey(database, caller, id);
  const rows = await database
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.ownerId, caller.ownerId), isNull(apiKeys.revokedAt)))
    .returning();
  const record = (rows[0] ?? existing) as ApiKeyRecord;
  forgetKey(record.keyHash);
  return view(record, undefined, caller.id);
}

/**
 * Rotation: a new key on the caller's plan and the revocation of `id`, in one D1 batch (a
 * transaction), so there is never a new key without the old one revoked or the other way round.
 * An already revoked key cannot be rotated (it would mint a key without revoking anything).
 */
export async function rotateOwnerKey(database: Db, caller: ApiKeyRecord, id: string) {
  const old = await ownedKey(database, caller, id);
  if (old.revokedAt !== null) throw apiError("key_revoked", `API key ${id} is already revoked; create a new key instead.`);
  const { key, record } = newRecord(caller);
  const revokedAt = Date.now();
  const [, revoked] = await database.batch([
    database.insert(apiKeys).values(record),
    database
      .update(apiKeys)
      .set({ revokedAt })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.ownerId, caller.ownerId), isNull(apiKeys.revokedAt)))
      .returning(),
  ]);
  forgetKey(old.keyHash);
  const revokedRecord = (revoked[0] ?? { ...old, revokedAt }) as ApiKeyRecord;
  return { ...view(record, null, caller.id), key, revoked: view(revokedRecord, undefined, caller.id) };
}
