import { Hono } from "hono";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { findModel } from "../catalog/models";
import { db } from "../db/client";
import { usageEvents } from "../db/schema";
import type { AppEnv } from "../env";
import { modelAccess, PLANS } from "../plans/plans";
import { apiError } from "../shared/errors";
import { validate } from "../shared/validate";
import { usdFromNanos } from "../cost/money";
import { usageGroups } from "./groups";
import { DEFAULT_BASELINE, savings, summarize } from "./summary";

const RECENT = 20;

export const usageRoutes = new Hono<AppEnv>()
  .get("/v1/usage", async (c) => {
    const key = c.get("apiKey");
    const plan = PLANS[key.plan];
    const database = db(c.env.DB);
    // The counts as of this request's own admission (no second limiter call; docs/auth-and-limits.md).
    const counts = c.get("limit");
    const [grouped, recent] = await Promise.all([
      usageGroups(database, key.ownerId),
      database.select().from(usageEvents).where(eq(usageEvents.ownerId, key.ownerId)).orderBy(desc(usageEvents.createdAt), desc(usageEvents.id)).limit(RECENT),
    ]);
    const access = modelAccess(plan);
    return c.json({
      object: "usage",
      user_id: key.ownerId,
      plan: plan.id,
      plan_display: plan.display_name,
      limits: {
        daily_requests: plan.daily_requests,
        rpm: plan.rpm,
        daily_requests_used: counts.usedToday,
        daily_requests_remaining: plan.daily_requests === null ? null : Math.max(0, plan.daily_requests - counts.usedToday),
        daily_window_resets_at: new Date(counts.dailyResetAt).toISOString(),
        model_access: { type: access.type, models: access.models },
      },
      ...summarize(grouped),
      recent: recent.map((r) => ({
        request_id: r.requestId,
        endpoint: r.endpoint,
        model: r.model,
        provider: r.provider,
        mode: r.mode,
        prompt_tokens: r.promptTokens,
        completion_tokens: r.completionTokens,
        total_tokens: r.totalTokens,
        cost_usd: usdFromNanos(r.costNanos),
        latency_ms: r.latencyMs,
        fallback: r.fallback,
        created_at: new Date(r.createdAt).toISOString(),
      })),
    });
  })
  .get("/v1/savings", validate("query", z.object({ baseline: z.string().min(1).max(200).optional() })), async (c) => {
    const requested = c.req.valid("query").baseline ?? DEFAULT_BASELINE;
    const baseline = findModel(requested);
    if (!baseline) throw apiError("unknown_model", `Unknown baseline model ${requested}; see GET /v1/models.`);
    const key = c.get("apiKey");
    return c.json({ object: "savings", ...savings(await usageGroups(db(c.env.DB), key.ownerId), baseline), estimated: true });
  });
