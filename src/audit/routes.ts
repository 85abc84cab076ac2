import { Hono } from "hono";
import { z } from "zod";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { validate } from "../shared/validate";
import { workspaceIdSchema } from "../workspace/manifest";
import { listAuditEvents, pageLimit } from "./list";
import { AUDIT_EVENT_TYPES } from "./record";

/** ISO 8601 date or date-time (any offset), normalized to UTC with milliseconds so it compares as text. */
export const isoInstant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .transform((s, ctx) => {
    const t = Date.parse(s);
    const d = new Date(t);
    if (Number.isNaN(t) || d.getUTCFullYear() < 1970 || d.getUTCFullYear() > 9999) {
      ctx.addIssue({ code: "custom", message: "not a valid ISO 8601 instant" });
      return z.NEVER;
    }
    return d.toISOString();
  });

const listQuery = z.object({
  workspace_id: workspaceIdSchema.optional(),
  event_type: z.enum(AUDIT_EVENT_TYPES).optional(),
  decision: z.enum(["allow", "deny", "confirm", "approve"]).optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
  limit: pageLimit,
  cursor: z.string().min(1).max(500).optional(),
});

/** GET /v1/audit/events (SPEC.md 4.7, 2.12): the caller's events only. */
export const auditRoutes = new Hono<AppEnv>().get("/v1/audit/events", validate("query", listQuery), async (c) => {
  const q = c.req.valid("query");
  return c.json(
    await listAuditEvents(db(c.env.DB), {
      ownerId: c.get("apiKey").ownerId,
      workspaceId: q.workspace_id,
      eventType: q.event_type,
      decision: q.decision,
      since: q.since,
      until: q.until,
      limit: q.limit,
      cursor: q.cursor,
    }),
  );
});
