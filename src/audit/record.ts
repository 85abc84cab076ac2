import type { Db } from "../db/client";
import { auditEvents } from "../db/schema";
import { randomBase62 } from "../shared/ids";

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

let lastMs = 0;
let sameMsCount = 0;

/**
 * `ae_` + milliseconds (9 base36) + a per-isolate counter (4 base36) + 12 random base62. Ids are the
 * tiebreak of the audit order within one millisecond; the counter makes events written by one isolate
 * in the same millisecond (Date.now() stands still during a request) sort in the order they were made,
 * even if the clock steps back.
 */
export function auditEventId(): string {
  const now = Date.now();
  if (now <= lastMs) sameMsCount++;
  else {
    lastMs = now;
    sameMsCount = 0;
  }
  return `ae_${lastMs.toString(36).padStart(9, "0")}${sameMsCount.toString(36).padStart(4, "0")}${randomBase62(12)}`;
}

/** `key:<key id>`: the caller as audit events name it. */
export const actorOf = (key: { id: string }) => `key:${key.id}`;

/**
 * The insert for one event, not yet run, so a caller can put it in the same db.batch as the write
 * it records (a handoff and its `handoff_created` event land together or not at all).
 */
export function auditEventInsert(database: Db, e: AuditEventInput) {
  const row = {
    id: auditEventId(),
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
