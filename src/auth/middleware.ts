import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { limitError, rateLimitHeaders } from "../limits/limits";
import { admit } from "../limits/lease";
import { PLANS } from "../plans/plans";
import { invalidApiKey } from "../shared/errors";
import { requiresKey } from "./access";
import { cachedKey, keyHashOf, loadKey } from "./key-cache";
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
  let record: ApiKeyRecord | null | undefined = cachedKey(c.env.DB, keyHash, Date.now(), (p) => deferTo(c, p));
  if (record === undefined) record = await loadKey(c.env.DB, keyHash);
  if (!record || record.revokedAt !== null) throw invalidApiKey("Invalid or revoked API key.");

  const plan = PLANS[record.plan];
  const decision = await admit(c.env, record.id, plan, (p) => deferTo(c, p));
  if (!decision.allowed) throw limitError(plan, decision);

  c.set("apiKey", record);
  c.set("limit", decision);
  await next();
  const headers = rateLimitHeaders(decision);
  for (const name in headers) c.res.headers.set(name, headers[name]!);
};
