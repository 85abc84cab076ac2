import { sha256Hex } from "../shared/hash";
import { randomBase62 } from "../shared/ids";

/** The shape of an API key, shared by the Worker and the key CLI (which has no D1 binding). */
export const KEY_PREFIX = "svc_sk_";
/** 43 base62 characters carry 256 bits. */
const KEY_BODY_LENGTH = 43;
const KEY_RE = /^svc_sk_[0-9A-Za-z]{32,128}$/;
/** Stored display prefix: `svc_sk_` plus 8 characters of the body. */
export const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export const isWellFormedKey = (key: string) => KEY_RE.test(key);
export const hashKey = (key: string) => sha256Hex(key);

export function generateKey(): string {
  return KEY_PREFIX + randomBase62(KEY_BODY_LENGTH);
}
