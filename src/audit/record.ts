import type { Db } from "../db/client";
import { auditEvents } from "../db/schema";
import { newId } from "../shared/ids";

export const AUDIT_EVENT_TYPES = ["policy_check", "handoff_created", "agent_plan", "agent_record"] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

export interface AuditEventInput {
  ownerId: string;
  workspaceId: string | null;
  eventType: AuditEventType;
  /** Who caused it, e.g. `key:<key id>`. */
  actor: string;
  payload: Record<string, unknown>;
  /** Policy-check events only. */
  decision?: string | undefined;
  riskScore?: number | undefined;
  riskTier?: string | undefined;
  /** Unix ms; defaults to now. */
  at?: number | undefined;
}

/** `key:<key id>`: the caller as audit events name it. */
export const actorOf = (key: { id: string }) => `key:${key.id}`;

/**
 * The insert for one event, not yet run, so a caller can put it in the same db.batch as the write
 * it records (a handoff and its `handoff_created` event land together or not at all).
 */
export function auditEventInsert(database: Db, e: AuditEventInput) {
  const row = {
    id: newId("ae_"),
    ownerId: e.ownerId,
    workspaceId: e.workspaceId,
    eventType: e.eventType,
    actor: e.actor,
    payload: JSON.stringify(e.payload),
    decision: e.decision ?? null,
    riskScore: e.riskScore ?? null,
    riskTier: e.riskTier ?? null,
    createdAt: new Date(e.at ?? Date.now()).toISOString(),
  };
  return { row, query: database.insert(auditEvents).values(row) };
}

/** Appends one event; audit events are never updated or deleted through the service. */
export async function recordAuditEvent(database: Db, e: AuditEventInput): Promise<{ id: string; createdAt: string }> {
  const { row, query } = auditEventInsert(database, e);
  await query;
  return { id: row.id, createdAt: row.createdAt };
}
