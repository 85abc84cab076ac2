import type { Db } from "../db/client";
import { usageEvents } from "../db/schema";
import { newId } from "../shared/ids";

export interface UsageRecord {
  ownerId: string;
  keyId: string;
  requestId: string;
  endpoint: string;
  model: string;
  provider: string;
  mode: string;
  promptTokens: number;
  completionTokens: number;
  costNanos: number;
  latencyMs: number;
  fallback: boolean;
}

/** A usage row's columns. The id and time are fixed once, when the call is recorded, so that a retried write is the same row. */
export function usageValues(u: UsageRecord, id: string = newId("use_"), createdAt = Date.now()) {
  return { id, ...u, totalTokens: u.promptTokens + u.completionTokens, createdAt };
}

export function usageInsert(database: Db, u: UsageRecord, now = Date.now()) {
  return database.insert(usageEvents).values(usageValues(u, newId("use_"), now));
}
