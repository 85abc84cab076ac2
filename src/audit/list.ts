import { z } from "zod";
import { and, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditEvents } from "../db/schema";
import { invalidRequest } from "../shared/errors";
import type { AuditEventType } from "./record";

/** SPEC.md section 8: snapshot and audit `limit` is 1 to 200, default 50. */
export const pageLimit = z.coerce.number().int().min(1).max(200).default(50);

export interface AuditQuery {
  ownerId: string;
  workspaceId?: string | undefined;
  eventType?: AuditEventType | undefined;
  decision?: string | undefined;
  /** ISO 8601 with milliseconds, UTC. */
  since?: string | undefined;
  until?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

interface CursorPosition {
  createdAt: string;
  id: string;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVENT_ID = /^ae_[0-9A-Za-z]{1,64}$/;

/** Opaque to clients: base64url of `<created_at>|<id>` of the last event of the page. */
export function encodeCursor(p: CursorPosition): string {
  return btoa(`${p.createdAt}|${p.id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeCursor(cursor: string): CursorPosition {
  const bad = () => invalidRequest("Invalid cursor: pass next_cursor from a previous response unchanged.", [{ path: "cursor", message: "invalid cursor" }]);
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
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
export async function listAuditEvents(database: Db, q: AuditQuery) {
  const where: SQL[] = [eq(auditEvents.ownerId, q.ownerId)];
  if (q.workspaceId !== undefined) where.push(eq(auditEvents.workspaceId, q.workspaceId));
  if (q.eventType !== undefined) where.push(eq(auditEvents.eventType, q.eventType));
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

export function auditEventView(r: typeof auditEvents.$inferSelect) {
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
