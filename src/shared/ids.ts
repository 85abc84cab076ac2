const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random base62 string; rejection sampling keeps every character uniform. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Prefixed ids: `ho_…`, `ae_…`, `svc-…`. Time-ordered prefix keeps D1 indexes append-friendly. */
export function newId(prefix: string, randomChars = 16): string {
  return `${prefix}${Date.now().toString(36).padStart(9, "0")}${randomBase62(randomChars)}`;
}
