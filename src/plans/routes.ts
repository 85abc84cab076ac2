import { Hono } from "hono";
import type { AppEnv } from "../env";
import { modelAccess, PLAN_IDS, PLANS } from "./plans";

const LISTING_JSON = JSON.stringify({
  object: "list",
  data: PLAN_IDS.map((id) => {
    const p = PLANS[id];
    return {
      id: p.id,
      object: "plan",
      display_name: p.display_name,
      price_usd_month: p.price_usd_month,
      daily_requests: p.daily_requests,
      rpm: p.rpm,
      model_access: modelAccess(p),
      agentguard: p.agentguard,
      description: p.description,
    };
  }),
});

export const planRoutes = new Hono<AppEnv>().get("/v1/plans", (c) =>
  c.body(LISTING_JSON, 200, { "content-type": "application/json", "cache-control": "public, max-age=300" }),
);
