import { Hono } from "hono";
import { z } from "zod";
import { findModel } from "../catalog/models";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { apiError } from "../shared/errors";
import { validate } from "../shared/validate";
import { dailyUsage, MAX_DAYS } from "./daily";
import { DEFAULT_BASELINE } from "./summary";

const dailyQuery = z.object({
  days: z.coerce.number().int().min(1).max(MAX_DAYS).default(30),
  baseline: z.string().min(1).max(200).optional(),
});

/** GET /v1/usage/daily: the owner's spend and savings per day (docs/console.md; the console's charts). */
export const dailyUsageRoutes = new Hono<AppEnv>().get("/v1/usage/daily", validate("query", dailyQuery), async (c) => {
  const { days, baseline: requested = DEFAULT_BASELINE } = c.req.valid("query");
  const baseline = findModel(requested);
  if (!baseline) throw apiError("unknown_model", `Unknown baseline model ${requested}; see GET /v1/models.`);
  return c.json(await dailyUsage(db(c.env.DB), c.get("apiKey").ownerId, days, baseline));
});
