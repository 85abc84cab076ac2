import { DurableObject } from "cloudflare:workers";
import { and, asc, desc, eq, gte, lte } from "drizzle-orm";
import { auditEventInsert } from "../audit/record";
import { db } from "../db/client";
import { handoffs } from "../db/schema";
import type { Env } from "../env";
import type { RiskTier } from "../policy/risk";
import { newId } from "../shared/ids";
import { ensureSchema } from "../shared/durable-schema";
import { ledgerName, parseLedgerName, type LedgerIdentity } from "./name";
import { signerFrom } from "../shared/signing";
import { rowFromSubject, SUBJECT_VERSION, subjectHash, subjectText, type HandoffRow, type HandoffSubject, type RiskItem } from "./subject";
import { signCheckpoint, type SignedCheckpoint } from "./checkpoint";
import { verifyPass, type ChainReader, type Checkpoint, type PassResult, type VerifyMode } from "./incremental";
import type { ChainTip } from "./verify";

/**
 * What the route hands the ledger: validated fields and the risk it scored. The owner and workspace
 * are the object's own (its name); the links are the ledger's.
 */
export interface AppendRequest {
  actor: string;
  objective: string;
  fromTool: string | null;
  toTool: string | null;
  filesTouched: string[];
  constraints: string[];
  risks: RiskItem[];
  validation: RiskItem[];
  recommendedNextAction: string | null;
  actionKind: string;
  estCost: number | null;
  risk: { score: number; tier: RiskTier; factors: string[] };
}

/** SPEC.md 2.10's `verification` and how it was checked, with the ledger's signed checkpoint. */
export type LedgerVerification = PassResult & { signing_enabled: boolean; checkpoint: SignedCheckpoint | null };

export interface AppendResult {
  row: HandoffRow;
  eventId: string;
}

interface TipRecord extends ChainTip {
  signature: string | null;
  createdAt: string;
}

/** The object's storage, step by step (`ensureSchema`): append a step, never edit one. */
const TIP_COLUMNS = "(id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, handoff_id TEXT NOT NULL, hash TEXT NOT NULL, signature TEXT, created_at TEXT NOT NULL)";
const SCHEMA = [
  // 1: the chain tip, and an append written to D1 but not yet promoted to it.
  [`CREATE TABLE IF NOT EXISTS tip ${TIP_COLUMNS}`, `CREATE TABLE IF NOT EXISTS pending ${TIP_COLUMNS}`],
  // 2: the verification checkpoint (./incremental.ts).
  ["CREATE TABLE IF NOT EXISTS checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, handoff_id TEXT NOT NULL, hash TEXT NOT NULL, signature TEXT, anchor INTEGER NOT NULL)"],
];

type TipColumns = { seq: number; handoff_id: string; hash: string; signature: string | null; created_at: string };
const toTip = (r: TipColumns): TipRecord => ({ seq: r.seq, id: r.handoff_id, hash: r.hash, signature: r.signature, createdAt: r.created_at });

/**
 * One per (owner, workspace), reached through `ledgerFor` (named by `ledgerName`). It alone appends to its
 * chain, one append at a time, so 50 concurrent appends still form one line.
 *
 * Appends are serialized by a promise queue rather than by the object's input gate, because the gate
 * opens at every D1 await. The chain tip (last seq, id, hash, signature) lives in the object's own
 * SQLite storage: it is what the next entry links to, whatever a client sends, and it lets verification
 * notice entries deleted from the end of the chain in D1. Before the D1 write the new entry is recorded
 * as pending; if the object dies between the D1 write and promoting the tip, the next append looks the
 * pending id up in D1 and adopts or drops it, so the tip never falls behind D1 or runs ahead of it.
 */
export class WorkspaceLedger extends DurableObject<Env> {
  private queue: Promise<unknown> = Promise.resolve();
  private passes: Promise<unknown> = Promise.resolve();
  private queuedIncremental: Promise<LedgerVerification> | null = null;
  private lastCheckpoint: SignedCheckpoint | null = null;
  private identity: LedgerIdentity | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ensureSchema(ctx.storage, SCHEMA);
  }

  /** Whose chain this is, read from the object's own name (never from a caller, so chains cannot mix). */
  private get who(): LedgerIdentity {
    if (!this.identity) {
      const name = this.ctx.id.name;
      if (name === undefined) throw new Error("WorkspaceLedger must be reached by name (ledgerFor), not by a bare id");
      this.identity = parseLedgerName(name);
    }
    return this.identity;
  }

  append(req: AppendRequest): Promise<AppendResult> {
    const who = this.who;
    return this.serialized(() => this.appendNow(who, req));
  }

  /** The last entry this ledger wrote, or null before the first. */
  tip(): ChainTip | null {
    const t = this.readTip("tip");
    return t ? { seq: t.seq, id: t.id, hash: t.hash, signature: t.signature } : null;
  }

  /**
   * Whole-chain verification from the stored checkpoint (or a full pass), with the signed checkpoint
   * of the ledger's tip. Passes run one at a time, beside appends; readers arriving while a pass is
   * queued share it, so a burst of reads costs one pass.
   */
  verify(mode: VerifyMode): Promise<LedgerVerification> {
    if (mode === "incremental" && this.queuedIncremental) return this.queuedIncremental;
    const task = () => {
      if (mode === "incremental") this.queuedIncremental = null;
      return this.verifyNow(mode);
    };
    const run = this.passes.then(task, task);
    this.passes = run.catch(() => undefined);
    if (mode === "incremental") this.queuedIncremental = run;
    return run;
  }

  private async verifyNow(mode: VerifyMode): Promise<LedgerVerification> {
    const { ownerId, workspaceId } = this.who;
    const tip = this.tip();
    const signer = signerFrom(this.env.LEDGER_SIGNING_KEY);
    const database = db(this.env.DB);
    const chain = and(eq(handoffs.ownerId, ownerId), eq(handoffs.workspaceId, workspaceId));
    const read: ChainReader = {
      rows: (from, to) => database.select().from(handoffs).where(and(chain, gte(handoffs.seq, from), lte(handoffs.seq, to))).orderBy(asc(handoffs.seq)),
      last: async () => (await database.select().from(handoffs).where(chain).orderBy(desc(handoffs.seq)).limit(1))[0],
    };
    const { result, checkpoint } = await verifyPass(mode, tip, this.readCheckpoint(), read, signer);
    if (checkpoint) this.writeCheckpoint(checkpoint);
    return { ...result, signing_enabled: signer !== null, checkpoint: tip ? await this.signedCheckpoint(workspaceId, tip) : null };
  }

  private readCheckpoint(): Checkpoint | null {
    const r = this.ctx.storage.sql.exec<{ seq: number; handoff_id: string; hash: string; signature: string | null; anchor: number }>("SELECT seq, handoff_id, hash, signature, anchor FROM checkpoint WHERE id = 1").toArray()[0];
    return r ? { seq: r.seq, id: r.handoff_id, hash: r.hash, signature: r.signature, anchor: r.anchor } : null;
  }

  private writeCheckpoint(c: Checkpoint): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO checkpoint (id, seq, handoff_id, hash, signature, anchor) VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, handoff_id = excluded.handoff_id, hash = excluded.hash, signature = excluded.signature, anchor = excluded.anchor",
      c.seq, c.id, c.hash, c.signature, c.anchor,
    );
  }

  /** The tip as a signed statement (docs/ledger.md, "Signed checkpoints"), built once per tip. */
  private async signedCheckpoint(workspaceId: string, tip: ChainTip): Promise<SignedCheckpoint> {
    if (this.lastCheckpoint?.last_hash === tip.hash) return this.lastCheckpoint;
    const signed = await signCheckpoint(workspaceId, tip, signerFrom(this.env.LEDGER_SIGNING_KEY));
    this.lastCheckpoint = signed;
    return signed;
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private readTip(table: "tip" | "pending"): TipRecord | null {
    const r = this.ctx.storage.sql.exec<TipColumns>(`SELECT seq, handoff_id, hash, signature, created_at FROM ${table} WHERE id = 1`).toArray()[0];
    return r ? toTip(r) : null;
  }

  private writeTip(table: "tip" | "pending", t: TipRecord): void {
    this.ctx.storage.sql.exec(
      `INSERT INTO ${table} (id, seq, handoff_id, hash, signature, created_at) VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, handoff_id = excluded.handoff_id, hash = excluded.hash, signature = excluded.signature, created_at = excluded.created_at`,
      t.seq, t.id, t.hash, t.signature, t.createdAt,
    );
  }

  /** Settles an append whose outcome was not recorded: adopt it if D1 has the row, else forget it. */
  private async settlePending(): Promise<void> {
    const pending = this.readTip("pending");
    if (!pending) return;
    const found = await db(this.env.DB).select({ id: handoffs.id }).from(handoffs).where(eq(handoffs.id, pending.id)).limit(1);
    this.ctx.storage.transactionSync(() => {
      if (found.length) this.writeTip("tip", pending);
      this.ctx.storage.sql.exec("DELETE FROM pending");
    });
  }

  /** Without a stored tip (a new ledger, or one whose storage was lost) the latest D1 row is the tip. */
  private async currentTip(): Promise<TipRecord | null> {
    const stored = this.readTip("tip");
    if (stored) return stored;
    const { ownerId, workspaceId } = this.who;
    const [last] = await db(this.env.DB)
      .select()
      .from(handoffs)
      .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.workspaceId, workspaceId)))
      .orderBy(desc(handoffs.seq))
      .limit(1);
    return last ? { seq: last.seq, id: last.id, hash: last.hash, signature: last.signature, createdAt: last.createdAt } : null;
  }

  private async appendNow({ ownerId, workspaceId }: LedgerIdentity, req: AppendRequest): Promise<AppendResult> {
    await this.settlePending();
    const prev = await this.currentTip();
    const signer = signerFrom(this.env.LEDGER_SIGNING_KEY);
    // Never earlier than the previous entry, so created_at reads in chain order.
    const now = new Date().toISOString();
    const createdAt = prev && prev.createdAt > now ? prev.createdAt : now;

    const s: HandoffSubject = {
      version: SUBJECT_VERSION,
      id: newId("ho_"),
      workspace_id: workspaceId,
      seq: prev ? prev.seq + 1 : 0,
      objective: req.objective,
      from_tool: req.fromTool,
      to_tool: req.toTool,
      files_touched: req.filesTouched,
      constraints: req.constraints,
      risks: req.risks,
      validation: req.validation,
      recommended_next_action: req.recommendedNextAction,
      action_kind: req.actionKind,
      est_cost: req.estCost,
      risk: req.risk,
      created_at: createdAt,
      prev_handoff_id: prev?.id ?? null,
      prev_hash: prev?.hash ?? null,
      prev_signature: prev?.signature ?? null,
      signing_key_id: signer?.keyId ?? null,
    };
    const subject = subjectText(s);
    const hash = subjectHash(subject);
    const signature = signer ? await signer.sign(subject) : null;
    const row = rowFromSubject(ownerId, s, subject, hash, signature);
    const next: TipRecord = { seq: s.seq, id: s.id, hash, signature, createdAt };

    const database = db(this.env.DB);
    const event = auditEventInsert(database, {
      ownerId,
      workspaceId,
      eventType: "handoff_created",
      actor: req.actor,
      payload: {
        handoff_id: s.id,
        seq: s.seq,
        hash,
        prev_handoff_id: s.prev_handoff_id,
        action_kind: s.action_kind,
        from_tool: s.from_tool,
        to_tool: s.to_tool,
        risk_score: s.risk.score,
        risk_tier: s.risk.tier,
        signed: signature !== null,
      },
      at: Date.parse(createdAt),
    });

    this.writeTip("pending", next);
    try {
      // The handoff and its audit event land together or not at all.
      await database.batch([database.insert(handoffs).values(row), event.query]);
    } catch (err) {
      // Settle now so the tip stays true to D1; if that fails too, the next append settles it, and
      // the caller still learns why the write failed, not why the clean-up did.
      await this.settlePending().catch((settleErr: unknown) => console.error("ledger: settling a failed append failed; the next append retries", settleErr));
      throw err;
    }
    this.ctx.storage.transactionSync(() => {
      this.writeTip("tip", next);
      this.ctx.storage.sql.exec("DELETE FROM pending");
    });
    return { row, eventId: event.row.id };
  }
}

/** The ledger of one owner's workspace; the one place a stub is looked up (names: `./name`). */
export const ledgerFor = (env: Pick<Env, "LEDGER">, ownerId: string, workspaceId: string) => env.LEDGER.getByName(ledgerName(ownerId, workspaceId));
