import { DISPLAY_PREFIX_LENGTH, generateKey, hashKey, isWellFormedKey } from "../../src/auth/key-format";
import { newId } from "../../src/shared/ids";
import { isPlanId, type PlanId } from "../../src/plans/plans";
import { d1Query, sqlString, type Target } from "./wrangler";

export interface KeyRow {
  id: string;
  prefix: string;
  plan: string;
  owner_id: string;
  created_at: number;
  revoked_at: number | null;
}

export async function createKeyRow(plan: PlanId, owner: string | undefined, t: Target) {
  if (!isPlanId(plan)) throw new Error(`unknown plan ${plan}: use free, personal, pro or corporate`);
  const key = generateKey();
  const id = newId("key_");
  await d1Query(
    `INSERT INTO api_keys (id, key_hash, prefix, plan, owner_id, created_at, revoked_at) VALUES (${[
      id, hashKey(key), key.slice(0, DISPLAY_PREFIX_LENGTH), plan, owner ?? newId("usr_"),
    ].map(sqlString).join(", ")}, ${Date.now()}, NULL)`,
    t,
  );
  return { id, key };
}

export function listKeys(t: Target) {
  return d1Query<KeyRow>("SELECT id, prefix, plan, owner_id, created_at, revoked_at FROM api_keys ORDER BY created_at DESC", t);
}

/** Whether a full key is known and not revoked. */
export async function keyIsActive(key: string, t: Target) {
  if (!isWellFormedKey(key)) return false;
  const rows = await d1Query(`SELECT id FROM api_keys WHERE key_hash = ${sqlString(hashKey(key))} AND revoked_at IS NULL`, t);
  return rows.length === 1;
}

/** Revokes by whole key, key id, or display prefix; a prefix must name exactly one key. */
export async function revokeKeyRow(which: string, t: Target): Promise<KeyRow> {
  const where = isWellFormedKey(which)
    ? `key_hash = ${sqlString(hashKey(which))}`
    : which.startsWith("key_")
      ? `id = ${sqlString(which)}`
      : `prefix LIKE ${sqlString(which.replaceAll("%", "").replaceAll("_", "\\_") + "%")} ESCAPE '\\'`;
  const rows = await d1Query<KeyRow>(`SELECT id, prefix, plan, owner_id, created_at, revoked_at FROM api_keys WHERE ${where}`, t);
  if (rows.length === 0) throw new Error(`no key matches ${which}`);
  if (rows.length > 1) throw new Error(`${which} matches ${rows.length} keys; give more of it`);
  const row = rows[0]!;
  await d1Query(`UPDATE api_keys SET revoked_at = ${Date.now()} WHERE id = ${sqlString(row.id)} AND revoked_at IS NULL`, t);
  return { ...row, revoked_at: row.revoked_at ?? Date.now() };
}
