import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { limitError, rateLimitHeaders } from "../limits/limits";
import type { LimitDecision } from "../limits/rate-limiter";
import { admit } from "../limits/lease";
import { PLANS } from "../plans/plans";
import { invalidApiKey } from "../shared/errors";
import { requiresKey } from "./access";
import { cachedKey, keyHashOf, knownKey, loadKey } from "./key-cache";
import { isWellFormedKey, type ApiKeyRecord } from "./keys";

const BEARER = "Bearer ";

/** waitUntil where the runtime gave one (app.request in tests has none; the promise then just runs). */
function deferTo(c: Context<AppEnv>, p: Promise<unknown>) {
  try {
    c.executionCtx.waitUntil(p);
  } catch {
    void p;
  }
}

/**
 * Every protected request: the bearer key (SPEC.md section 5), then the per-key limiter
 * (section 8). The key is usually answered from the isolate's cache and the request admitted from
 * the isolate's rate-limit lease (limits/lease.ts), so a warm request awaits no storage at all.
 */
export const authAndLimits: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!requiresKey(c.req.method, c.req.path)) return next();

  const header = c.req.header("authorization");
  if (!header || !header.startsWith(BEARER)) throw invalidApiKey("Missing API key: send Authorization: Bearer svc_sk_...");
  const key = header.slice(BEARER.length).trim();
  if (!isWellFormedKey(key)) throw invalidApiKey("Malformed API key: keys start with svc_sk_.");

  const keyHash = keyHashOf(key);
  const defer = (p: Promise<unknown>) => deferTo(c, p);
  let record: ApiKeyRecord | null | undefined = cachedKey(c.env.DB, keyHash, Date.now(), defer);
  let early: { record: ApiKeyRecord; decision: Promise<LimitDecision> } | undefined;
  if (record === undefined) {
    // Mostly the key is known and only the revocation epoch is old (a quiet second): ask the key's
    // limiter while D1 answers, so the request waits for one round trip, not two in a row. If the
    // key turns out revoked, the admission it took is simply not used.
    const known = knownKey(keyHash);
    if (known && known.revokedAt === null) {
      const decision = admit(c.env, known.id, PLANS[known.plan], defer);
      decision.catch(() => {});
      early = { record: known, decision };
    }
    record = await loadKey(c.env.DB, keyHash);
  }
  if (!record || record.revokedAt !== null) throw invalidApiKey("Invalid or revoked API key.");

  const plan = PLANS[record.plan];
  const sameKey = early && early.record.id === record.id && early.record.plan === record.plan;
  const decision = await (sameKey ? early!.decision : admit(c.env, record.id, plan, defer));
  if (!decision.allowed) throw limitError(plan, decision);

  c.set("apiKey", record);
  c.set("limit", decision);
  await next();
  const headers = rateLimitHeaders(decision);
  for (const name in headers) c.res.headers.set(name, headers[name]!);
};
