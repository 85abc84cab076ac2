import { ApiError } from "../shared/errors";
import type { Plan } from "../plans/plans";
import type { LimitDecision } from "./rate-limiter";

function formatDuration(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** x-ratelimit-* describe the per-minute window, the one a client paces itself by. */
export function rateLimitHeaders(d: LimitDecision, now = Date.now()): Record<string, string> {
  return {
    "x-ratelimit-limit": String(d.rpm),
    "x-ratelimit-remaining": String(d.rpmRemaining),
    "x-ratelimit-reset": String(Math.max(0, Math.ceil((d.rpmResetAt - now) / 1000))),
  };
}

/** SPEC.md section 7: per-minute refusals are wrapped, daily ones flat with plan figures. */
export function limitError(plan: Plan, d: LimitDecision, now = Date.now()): ApiError {
  const headers = rateLimitHeaders(d, now);
  if (d.limited === "daily") {
    const wait = d.dailyResetAt - now;
    headers["retry-after"] = String(Math.max(1, Math.ceil(wait / 1000)));
    return new ApiError("daily_limit_exceeded", {
      message: `Daily limit of ${d.daily} requests in a rolling 24 hours reached on the ${plan.display_name} plan; the window resets in ${formatDuration(wait)}, when the oldest counted hour leaves it.`,
      extra: { plan: plan.id, daily_limit: d.daily, used_today: d.usedToday },
      headers,
    });
  }
  const wait = d.rpmResetAt - now;
  headers["retry-after"] = String(Math.max(1, Math.ceil(wait / 1000)));
  return new ApiError("rate_limit_exceeded", {
    message: `Rate limit of ${d.rpm} requests per minute exceeded on the ${plan.display_name} plan; retry in ${formatDuration(wait)}.`,
    headers,
  });
}
