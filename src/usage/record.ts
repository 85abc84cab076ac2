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

export function usageInsert(database: Db, u: UsageRecord, now = Date.now()) {
  return database.insert(usageEvents).values({
    id: newId("use_"),
    ...u,
    totalTokens: u.promptTokens + u.completionTokens,
    createdAt: now,
  });
}
