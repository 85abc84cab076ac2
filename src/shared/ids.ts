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

let lastMs = 0;
let sameMsCount = 0;

/**
 * Prefixed ids (`key_…`, `usr_…`, `use_…`, `ho_…`, `ae_…`): the prefix, then milliseconds (9 base36),
 * a per-isolate counter (4 base36) and 12 random base62. The time prefix keeps D1 indexes
 * append-friendly; the counter makes ids made by one isolate in the same millisecond (Date.now()
 * stands still during a request) sort in the order they were made, even if the clock steps back,
 * which is what audit listing uses as its tiebreak.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now <= lastMs) sameMsCount++;
  else {
    lastMs = now;
    sameMsCount = 0;
  }
  return `${prefix}${lastMs.toString(36).padStart(9, "0")}${sameMsCount.toString(36).padStart(4, "0")}${randomBase62(12)}`;
}
