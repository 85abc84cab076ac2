import { describe, expect, it } from "vitest";
import { isRetryableStatus, retryAfterMs, retryDelay, retryPolicy } from "../../src/providers/retry";

describe("retry policy", () => {
  it("retries 408, 409, 429 and every 5xx (529 included), nothing else", () => {
    expect([408, 409, 429, 500, 502, 503, 504, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });

  it("reads retry-after-ms, retry-after in seconds and as an HTTP date", () => {
    const now = Date.parse("2026-11-22T08:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after-ms": "120" }), now)).toBe(120);
    expect(retryAfterMs(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(retryAfterMs(new Headers({ "retry-after": "Sun, 22 Nov 2026 08:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ "retry-after": "Sun, 22 Nov 2026 07:59:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });

  it("backs off exponentially with jitter between half and all of the step, capped", () => {
    const p = retryPolicy({ UPSTREAM_RETRY_BASE_MS: "100", UPSTREAM_RETRY_MAX_WAIT_MS: "300" });
    expect(retryDelay(0, null, p, () => 0)).toBe(50);
    expect(retryDelay(0, null, p, () => 1)).toBe(100);
    expect(retryDelay(1, null, p, () => 0.5)).toBe(150);
    expect(retryDelay(5, null, p, () => 1)).toBe(300);
  });

  it("waits exactly what the upstream asked, but moves on when that is beyond the cap", () => {
    const p = retryPolicy({ UPSTREAM_RETRY_MAX_WAIT_MS: "1000" });
    expect(retryDelay(0, 700, p)).toBe(700);
    expect(retryDelay(0, 1500, p)).toBeNull();
  });

  it("reads its knobs with defaults for absent or invalid values", () => {
    expect(retryPolicy({})).toEqual({ timeoutMs: 30000, maxRetries: 2, baseMs: 200, maxWaitMs: 5000 });
    expect(retryPolicy({ UPSTREAM_TIMEOUT_MS: "300", UPSTREAM_MAX_RETRIES: "0", UPSTREAM_RETRY_BASE_MS: "x", UPSTREAM_RETRY_MAX_WAIT_MS: "-1" })).toEqual({
      timeoutMs: 300, maxRetries: 0, baseMs: 200, maxWaitMs: 5000,
    });
  });
});
