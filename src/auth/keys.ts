import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys } from "../db/schema";
import { newId } from "../shared/ids";
import { DISPLAY_PREFIX_LENGTH, generateKey, hashKey } from "./key-format";
import type { PlanId } from "../plans/plans";

export { DISPLAY_PREFIX_LENGTH, generateKey, hashKey, isWellFormedKey, KEY_PREFIX } from "./key-format";

export interface ApiKeyRecord {
  id: string;
  keyHash: string;
  prefix: string;
  plan: PlanId;
  ownerId: string;
  createdAt: number;
  revokedAt: number | null;
}

export async function createKey(database: Db, plan: PlanId, ownerId?: string) {
  const key = generateKey();
  const record: ApiKeyRecord = {
    id: newId("key_"),
    keyHash: hashKey(key),
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    plan,
    ownerId: ownerId ?? newId("usr_"),
    createdAt: Date.now(),
    revokedAt: null,
  };
  await database.insert(apiKeys).values(record);
  return { key, record };
}

/** Revokes a key once: revoking it again keeps the first `revoked_at`. */
export async function revokeKey(database: Db, id: string): Promise<ApiKeyRecord | undefined> {
  const rows = await database.update(apiKeys).set({ revokedAt: Date.now() }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning();
  return (rows[0] ?? (await database.select().from(apiKeys).where(eq(apiKeys.id, id)).get())) as ApiKeyRecord | undefined;
}

export function publicKeyView(r: ApiKeyRecord) {
  return {
    id: r.id,
    object: "api_key",
    prefix: r.prefix,
    plan: r.plan,
    owner_id: r.ownerId,
    created_at: new Date(r.createdAt).toISOString(),
    revoked_at: r.revokedAt === null ? null : new Date(r.revokedAt).toISOString(),
  };
}
