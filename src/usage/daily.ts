import { and, eq, gte, sql } from "drizzle-orm";
import type { Model } from "../catalog/models";
import type { Db } from "../db/client";
import { usageEvents } from "../db/schema";
import { usageGroupColumns } from "./groups";
import { savings, type UsageGroup } from "./summary";

const DAY_MS = 86_400_000;
export const MAX_DAYS = 90;

export interface DailyUsage {
  /** The UTC day, YYYY-MM-DD. */
  date: string;
  requests: number;
  tokens: number;
  cost_usd: number;
  baseline_cost_usd: number;
  saved_usd: number;
}

/**
 * The owner's usage per UTC day over the last `days` days (today included), oldest first, every day
 * present (zeros where nothing ran), with what each day would have cost on `baseline`: the series the
 * console's spend and savings charts draw. One GROUP BY over the (owner, created_at) index; each day's
 * savings come from the same `savings()` as GET /v1/savings, so the days add up to it.
 */
export async function dailyUsage(database: Db, ownerId: string, days: number, baseline: Model, now = Date.now()) {
  const firstDay = Math.floor(now / DAY_MS) - (days - 1);
  const rows = await database
    .select({
      day: sql<number>`cast(${usageEvents.createdAt} / ${sql.raw(String(DAY_MS))} as integer)`,
      ...usageGroupColumns,
    })
    .from(usageEvents)
    .where(and(eq(usageEvents.ownerId, ownerId), gte(usageEvents.createdAt, firstDay * DAY_MS)))
    .groupBy(sql`1`, usageEvents.model, usageEvents.provider, usageEvents.mode);
  const byDay = new Map<number, UsageGroup[]>();
  for (const { day, ...group } of rows) {
    const list = byDay.get(Number(day)) ?? [];
    list.push(group);
    byDay.set(Number(day), list);
  }
  const data: DailyUsage[] = [];
  for (let d = firstDay; d < firstDay + days; d++) {
    const s = savings(byDay.get(d) ?? [], baseline);
    data.push({
      date: new Date(d * DAY_MS).toISOString().slice(0, 10),
      requests: s.total_requests,
      tokens: s.total_tokens,
      cost_usd: s.actual_cost_usd,
      baseline_cost_usd: s.baseline_cost_usd,
      saved_usd: s.saved_usd,
    });
  }
  return { object: "usage.daily" as const, baseline_model: baseline.id, days, data, estimated: true };
}
