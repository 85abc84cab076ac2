import { Hono } from "hono";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { validate } from "../shared/validate";
import { auditQuery, listAuditEvents } from "./list";

/** GET /v1/audit/events (SPEC.md 4.7, 2.12): the caller's events only. */
export const auditRoutes = new Hono<AppEnv>().get("/v1/audit/events", validate("query", auditQuery), async (c) =>
  c.json(await listAuditEvents(db(c.env.DB), c.get("apiKey").ownerId, c.req.valid("query"))),
);
