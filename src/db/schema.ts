import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Times are Unix milliseconds unless the column says otherwise. */

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    /** Hex SHA-256 of the whole key; the key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** First characters of the key, for display and for revoking by prefix. */
    prefix: text("prefix").notNull(),
    plan: text("plan").notNull(),
    ownerId: text("owner_id").notNull(),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash").on(t.keyHash),
    index("api_keys_prefix").on(t.prefix),
    // The key cache's revocation epoch (count and latest of the revoked keys) reads only this.
    index("api_keys_revoked_at").on(t.revokedAt).where(sql`${t.revokedAt} IS NOT NULL`),
  ],
);

export const usageEvents = sqliteTable(
  "usage_events",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    keyId: text("key_id").notNull(),
    requestId: text("request_id").notNull(),
    endpoint: text("endpoint").notNull(),
    model: text("model").notNull(),
    provider: text("provider").notNull(),
    mode: text("mode").notNull(),
    promptTokens: integer("prompt_tokens").notNull(),
    completionTokens: integer("completion_tokens").notNull(),
    totalTokens: integer("total_tokens").notNull(),
    /** Exact cost in nano-dollars (1e-9 USD), so sums are exact (cost/money.ts). */
    costNanos: integer("cost_nanos").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    fallback: integer("fallback", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("usage_events_owner_created").on(t.ownerId, t.createdAt)],
);

export const proofReceipts = sqliteTable("proof_receipts", {
  requestId: text("request_id").primaryKey(),
  ownerId: text("owner_id").notNull(),
  /** The canonical JSON receipt that proof_hash covers. */
  receipt: text("receipt").notNull(),
  proofHash: text("proof_hash").notNull(),
  /** Ed25519 signature (hex) over proof_hash, or null when no signing key is provisioned. */
  signature: text("signature"),
  signingKeyId: text("signing_key_id"),
  createdAt: integer("created_at").notNull(),
});

export const workspaceManifests = sqliteTable(
  "workspace_manifests",
  {
    ownerId: text("owner_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    manifest: text("manifest").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.workspaceId] })],
);

export const handoffs = sqliteTable(
  "handoffs",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    /** Position in the workspace chain, 0-based. */
    seq: integer("seq").notNull(),
    objective: text("objective").notNull(),
    fromTool: text("from_tool"),
    toTool: text("to_tool"),
    /** JSON string arrays / object arrays, exactly as they appear in the signed subject. */
    filesTouched: text("files_touched").notNull(),
    constraints: text("constraints").notNull(),
    risks: text("risks").notNull(),
    validation: text("validation").notNull(),
    recommendedNextAction: text("recommended_next_action"),
    actionKind: text("action_kind").notNull(),
    estCost: real("est_cost"),
    prevHandoffId: text("prev_handoff_id"),
    prevHash: text("prev_hash"),
    prevSignature: text("prev_signature"),
    /** Canonical JSON that was hashed and signed (docs/ledger.md). */
    subject: text("subject").notNull(),
    hash: text("hash").notNull(),
    signature: text("signature"),
    signingKeyId: text("signing_key_id"),
    riskScore: integer("risk_score").notNull(),
    riskTier: text("risk_tier").notNull(),
    /** JSON array of the ids of the risk factors that fired. */
    riskFactors: text("risk_factors").notNull(),
    /** ISO 8601 with milliseconds. */
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("handoffs_workspace_seq").on(t.ownerId, t.workspaceId, t.seq)],
);

export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    workspaceId: text("workspace_id"),
    eventType: text("event_type").notNull(),
    actor: text("actor").notNull(),
    payload: text("payload").notNull(),
    decision: text("decision"),
    riskScore: integer("risk_score"),
    riskTier: text("risk_tier"),
    /** ISO 8601 with milliseconds; sorts as time. */
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("audit_events_owner_created").on(t.ownerId, t.createdAt, t.id),
    index("audit_events_owner_ws_created").on(t.ownerId, t.workspaceId, t.createdAt, t.id),
  ],
);

/** Shared brain configs (SPEC.md 2.13, docs/brain.md). A share never changes once written. */
export const brainShares = sqliteTable(
  "brain_shares",
  {
    /** `bs_` + time-ordered id (shared/ids.ts): the order of the owner's list and its cursor. */
    id: text("id").primaryKey(),
    /** The short public id; random, so it cannot be guessed from another. */
    shareId: text("share_id").notNull(),
    ownerId: text("owner_id").notNull(),
    title: text("title"),
    /** Canonical JSON of the normalised config. */
    config: text("config").notNull(),
    /** The text as sent, or null when shared as an object. */
    brainMd: text("brain_md"),
    valid: integer("valid", { mode: "boolean" }).notNull(),
    /** JSON string array, empty when valid. */
    errors: text("errors").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("brain_shares_share_id").on(t.shareId), index("brain_shares_owner_id").on(t.ownerId, t.id)],
);

/** One agent run (SPEC.md 2.5). `status` is `running` only while the synchronous run executes. */
export const agentRuns = sqliteTable(
  "agent_runs",
  {
    runId: text("run_id").primaryKey(),
    ownerId: text("owner_id").notNull(),
    keyId: text("key_id").notNull(),
    /** A repeated key from the same owner returns this run instead of spending again (unique per owner). */
    idempotencyKey: text("idempotency_key"),
    workspaceId: text("workspace_id"),
    goal: text("goal").notNull(),
    status: text("status").notNull(),
    policy: text("policy").notNull(),
    strategy: text("strategy").notNull(),
    /** JSON array of sub-task strings. */
    plan: text("plan").notNull().default("[]"),
    stepsTaken: integer("steps_taken").notNull().default(0),
    costNanos: integer("cost_nanos").notNull().default(0),
    maxCostNanos: integer("max_cost_nanos").notNull(),
    output: text("output").notNull().default(""),
    outputHash: text("output_hash"),
    trajectoryProof: text("trajectory_proof"),
    /** JSON: alerts[] and the budget block as the response shows them. */
    alerts: text("alerts").notNull().default("[]"),
    budget: text("budget").notNull(),
    finalMessage: text("final_message"),
    createdAt: integer("created_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [uniqueIndex("agent_runs_owner_idempotency").on(t.ownerId, t.idempotencyKey), index("agent_runs_owner_created").on(t.ownerId, t.createdAt, t.runId)],
);

/** The steps of a run, in chain order; input and output only as hashes. */
export const agentSteps = sqliteTable(
  "agent_steps",
  {
    runId: text("run_id").notNull(),
    index: integer("idx").notNull(),
    role: text("role").notNull(),
    model: text("model").notNull(),
    intensity: text("intensity").notNull(),
    strategy: text("strategy").notNull(),
    costNanos: integer("cost_nanos").notNull(),
    confidence: real("confidence").notNull(),
    inputHash: text("input_hash").notNull(),
    outputHash: text("output_hash").notNull(),
    stepProof: text("step_proof").notNull(),
    timestamp: text("timestamp").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.index] })],
);
