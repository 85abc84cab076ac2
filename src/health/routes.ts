import { Hono } from "hono";
import type { AppEnv } from "../env";
import { SERVICE_VERSION } from "../version";
import { MODELS, PROVIDERS } from "../catalog/models";

export const healthRoutes = new Hono<AppEnv>().get("/health", (c) =>
  c.json({
    status: "ok",
    version: SERVICE_VERSION,
    models: MODELS.length,
    providers: PROVIDERS.length,
    sandbox_upstream: c.env.SANDBOX_UPSTREAM === "on",
    time: new Date().toISOString(),
  }),
);
