import { and, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { auditEvents } from "../db/schema";
import { base64url, fromBase64url } from "../shared/base64url";
import { invalidRequest } from "../shared/errors";
import { pageLimit, workspaceIdSchema } from "../shared/schemas";
import { AUDIT_EVENT_TYPES } from "./record";

/** ISO 8601 date or date-time (any offset), normalized to UTC with milliseconds so it compares as text. */
const isoInstant = z
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

/** The filters of GET /v1/audit/events (SPEC.md 4.7). */
export const auditQuery = z.object({
  workspace_id: workspaceIdSchema.optional(),
  event_type: z.enum(AUDIT_EVENT_TYPES).optional(),
  decision: z.enum(["allow", "deny", "confirm", "approve"]).optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
  limit: pageLimit,
  cursor: z.string().min(1).max(500).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

interface CursorPosition {
  createdAt: string;
  id: string;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVENT_ID = /^ae_[0-9A-Za-z]{1,64}$/;

/** Opaque to clients: base64url of `<created_at>|<id>` of the last event of the page. */
function encodeCursor(p: CursorPosition): string {
  return base64url(`${p.createdAt}|${p.id}`);
}

function decodeCursor(cursor: string): CursorPosition {
  const bad = () => invalidRequest("Invalid cursor: pass next_cursor from a previous response unchanged.", [{ path: "cursor", message: "invalid cursor" }]);
  let text: string;
  try {
    text = new TextDecoder().decode(fromBase64url(cursor));
  } catch {
    throw bad();
  }
  const [createdAt, id, ...rest] = text.split("|");
  if (rest.length || !createdAt || !id || !ISO_MS.test(createdAt) || !EVENT_ID.test(id)) throw bad();
  return { createdAt, id };
}

/**
 * Newest first, keyset-paginated on (created_at, id): each page continues strictly after the last
 * row of the previous one, so events that arrive while a client pages land before its first page and
 * never shift, skip or repeat the rows it has yet to read. Ties within a millisecond are ordered by id.
 */
export async function listAuditEvents(database: Db, ownerId: string, q: AuditQuery) {
  const where: SQL[] = [eq(auditEvents.ownerId, ownerId)];
  if (q.workspace_id !== undefined) where.push(eq(auditEvents.workspaceId, q.workspace_id));
  if (q.event_type !== undefined) where.push(eq(auditEvents.eventType, q.event_type));
  if (q.decision !== undefined) where.push(eq(auditEvents.decision, q.decision));
  if (q.since !== undefined) where.push(gte(auditEvents.createdAt, q.since));
  if (q.until !== undefined) where.push(lt(auditEvents.createdAt, q.until));
  if (q.cursor !== undefined) {
    const after = decodeCursor(q.cursor);
    where.push(or(lt(auditEvents.createdAt, after.createdAt), and(eq(auditEvents.createdAt, after.createdAt), lt(auditEvents.id, after.id)))!);
  }
  const rows = await database
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  const last = page[page.length - 1];
  return {
    object: "audit.events" as const,
    count: page.length,
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(last) : null,
    data: page.map(auditEventView),
  };
}

function auditEventView(r: typeof auditEvents.$inferSelect) {
  return {
    id: r.id,
    object: "audit.event" as const,
    event_type: r.eventType,
    workspace_id: r.workspaceId,
    actor: r.actor,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    ...(r.eventType === "policy_check" ? { decision: r.decision, risk_score: r.riskScore, risk_tier: r.riskTier } : {}),
    created_at: r.createdAt,
  };
}
