import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys } from "../db/schema";
import { sha256Hex } from "../shared/hash";
import { newId, randomBase62 } from "../shared/ids";
import type { PlanId } from "../plans/plans";

export const KEY_PREFIX = "svc_sk_";
/** 43 base62 characters carry 256 bits. */
const KEY_BODY_LENGTH = 43;
const KEY_RE = /^svc_sk_[0-9A-Za-z]{32,128}$/;
/** Stored display prefix: `svc_sk_` plus 8 characters of the body. */
export const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export interface ApiKeyRecord {
  id: string;
  keyHash: string;
  prefix: string;
  plan: PlanId;
  ownerId: string;
  createdAt: number;
  revokedAt: number | null;
}

export const isWellFormedKey = (key: string) => KEY_RE.test(key);
export const hashKey = (key: string) => sha256Hex(key);

export function generateKey(): string {
  return KEY_PREFIX + randomBase62(KEY_BODY_LENGTH);
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

export async function revokeKey(database: Db, id: string): Promise<ApiKeyRecord | undefined> {
  const rows = await database.update(apiKeys).set({ revokedAt: Date.now() }).where(eq(apiKeys.id, id)).returning();
  return rows[0] as ApiKeyRecord | undefined;
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
