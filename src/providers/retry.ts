/**
 * The retry policy, as pure functions: which failures are worth another try at the same model,
 * how long to wait, and the knobs read from the environment.
 */

/** 408, 409, 429 and every 5xx, Anthropic's 529 `overloaded_error` included (shared/CATALOG.md). */
export const isRetryableStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * The wait an upstream asked for: `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an
 * HTTP date. Null when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return null;
  const seconds = Number(ra);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export interface RetryPolicy {
  /** Per attempt; for streams, the longest silence allowed between two upstream messages. */
  timeoutMs: number;
  maxRetries: number;
  baseMs: number;
  /** The longest single wait; a `retry-after` beyond it moves on to the next model instead. */
  maxWaitMs: number;
}

/** The knobs, read from the environment; an absent or invalid value means the default. */
export interface PolicyEnv {
  UPSTREAM_TIMEOUT_MS?: string;
  UPSTREAM_MAX_RETRIES?: string;
  UPSTREAM_RETRY_BASE_MS?: string;
  UPSTREAM_RETRY_MAX_WAIT_MS?: string;
}

const knob = (raw: string | undefined, fallback: number) => {
  const n = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
};

export function retryPolicy(env: PolicyEnv): RetryPolicy {
  return {
    timeoutMs: knob(env.UPSTREAM_TIMEOUT_MS, 30_000),
    maxRetries: Math.floor(knob(env.UPSTREAM_MAX_RETRIES, 2)),
    baseMs: knob(env.UPSTREAM_RETRY_BASE_MS, 200),
    maxWaitMs: knob(env.UPSTREAM_RETRY_MAX_WAIT_MS, 5_000),
  };
}

/**
 * Milliseconds to wait before retry number `retry` (0-based), or null to give up on this model.
 * Without a hint: exponential backoff with equal jitter (half fixed, half random), so concurrent
 * retries spread out yet never come back at once. With a hint: exactly what the upstream asked, as
 * long as it is within `maxWaitMs`; a longer wait is better spent on the next candidate.
 */
export function retryDelay(retry: number, hintMs: number | null, policy: RetryPolicy, random: () => number = Math.random): number | null {
  if (hintMs !== null) return hintMs <= policy.maxWaitMs ? hintMs : null;
  const exp = Math.min(policy.maxWaitMs, policy.baseMs * 2 ** retry);
  return exp / 2 + (random() * exp) / 2;
}
