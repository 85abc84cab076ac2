import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { usageEvents } from "../db/schema";
import type { UsageGroup } from "./summary";

/** The columns of one `UsageGroup` (GROUP BY model, provider, mode), for every usage summary query. */
export const usageGroupColumns = {
  model: usageEvents.model,
  provider: usageEvents.provider,
  mode: usageEvents.mode,
  requests: sql<number>`count(*)`,
  promptTokens: sql<number>`sum(${usageEvents.promptTokens})`,
  completionTokens: sql<number>`sum(${usageEvents.completionTokens})`,
  costNanos: sql<number>`sum(${usageEvents.costNanos})`,
};

/** All of an owner's usage, grouped: what GET /v1/usage and GET /v1/savings summarise. */
export function usageGroups(database: Db, ownerId: string): Promise<UsageGroup[]> {
  return database.select(usageGroupColumns).from(usageEvents).where(eq(usageEvents.ownerId, ownerId)).groupBy(usageEvents.model, usageEvents.provider, usageEvents.mode);
}
