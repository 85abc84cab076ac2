import { and, asc, desc, eq } from "drizzle-orm";
import { auditEventInsert, type AuditEventInput } from "../audit/record";
import type { Db } from "../db/client";
import { agentRuns, agentSteps } from "../db/schema";
import type { AgentStep } from "./runner";

export type RunRow = typeof agentRuns.$inferSelect;
export type NewRunRow = typeof agentRuns.$inferInsert;
export type StepRow = typeof agentSteps.$inferSelect;

/**
 * Insert-first: the run row exists (status `running`) before any model is called. With an
 * idempotency key the unique index (owner, key) makes exactly one of concurrent duplicates win;
 * the others get null and read the winner's run instead of spending.
 */
export async function claimRun(database: Db, row: NewRunRow): Promise<boolean> {
  const inserted = await database.insert(agentRuns).values(row).onConflictDoNothing().returning({ runId: agentRuns.runId });
  return inserted.length === 1;
}

export const findRunByKey = (database: Db, ownerId: string, idempotencyKey: string) =>
  database.select().from(agentRuns).where(and(eq(agentRuns.ownerId, ownerId), eq(agentRuns.idempotencyKey, idempotencyKey))).get();

export const findRun = (database: Db, ownerId: string, runId: string) =>
  database.select().from(agentRuns).where(and(eq(agentRuns.ownerId, ownerId), eq(agentRuns.runId, runId))).get();

export const listRuns = (database: Db, ownerId: string, limit: number) =>
  database.select().from(agentRuns).where(eq(agentRuns.ownerId, ownerId)).orderBy(desc(agentRuns.createdAt), desc(agentRuns.runId)).limit(limit);

export const stepsOf = (database: Db, runId: string) => database.select().from(agentSteps).where(eq(agentSteps.runId, runId)).orderBy(asc(agentSteps.index));

/** A run that failed as a whole leaves no row, so its idempotency key can be used again. */
export const releaseRun = (database: Db, runId: string) => database.delete(agentRuns).where(eq(agentRuns.runId, runId));

/** D1 binds at most 100 parameters a statement: 12 columns a step row, so 8 rows an insert. */
const STEP_ROWS_PER_INSERT = 8;

/** The finished run, its steps and its two audit events, in one batch: all land or none. */
export async function finishRun(database: Db, runId: string, update: Partial<NewRunRow>, steps: readonly AgentStep[], events: readonly AuditEventInput[]) {
  const rows = steps.map((s) => ({
    runId,
    index: s.index,
    role: s.role,
    model: s.model,
    intensity: s.intensity,
    strategy: s.strategy,
    costNanos: s.cost_nanos,
    confidence: s.confidence,
    inputHash: s.input_hash,
    outputHash: s.output_hash,
    stepProof: s.step_proof,
    timestamp: s.timestamp,
  }));
  const statements = [
    database.update(agentRuns).set(update).where(eq(agentRuns.runId, runId)),
    ...events.map((e) => auditEventInsert(database, e).query),
  ];
  const inserts = [];
  for (let i = 0; i < rows.length; i += STEP_ROWS_PER_INSERT) inserts.push(database.insert(agentSteps).values(rows.slice(i, i + STEP_ROWS_PER_INSERT)));
  await database.batch([statements[0]!, ...statements.slice(1), ...inserts] as unknown as Parameters<Db["batch"]>[0]);
}
