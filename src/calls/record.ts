import type { Db } from "../db/client";
import { signReceipt, type Sealed } from "../proof/receipt";
import { receiptInsert } from "../proof/store";
import type { Signer } from "../shared/signing";
import { usageInsert, type UsageRecord } from "../usage/record";

/** One model call as it is kept: its usage row, and the receipt when the call issues one. */
export interface CallRecord {
  usage: UsageRecord;
  receipt: Sealed | null;
}

/** Keeps call records; never throws and never makes the caller wait for storage. */
export type Recorder = (rec: CallRecord) => void;

/**
 * Off the request path (waitUntil): sign the receipt and write it with the usage row in one D1
 * batch, so a call is never billed without its receipt or the reverse.
 */
export function d1Recorder(database: Db, signer: Signer | null, waitUntil: (p: Promise<unknown>) => void): Recorder {
  return (rec) => waitUntil(writeRecord(database, signer, rec));
}

export async function writeRecord(database: Db, signer: Signer | null, rec: CallRecord): Promise<void> {
  try {
    const usage = usageInsert(database, rec.usage);
    if (rec.receipt) {
      const signed = await signReceipt(rec.receipt, signer);
      await database.batch([receiptInsert(database, rec.usage.ownerId, signed), usage]);
    } else {
      await usage;
    }
  } catch (err) {
    console.error(`[${rec.usage.requestId}] could not store usage and receipt`, err);
  }
}

/** What one model call bills: the usage row every caller of the model-call service records. */
export interface CallUsage {
  requestId: string;
  endpoint: string;
  mode: string;
  model: { id: string; provider: string };
  usage: { prompt_tokens: number; completion_tokens: number };
  costNanos: number;
  latencyMs: number;
  fallback: boolean;
}

export function usageRow(key: { ownerId: string; id: string }, u: CallUsage): UsageRecord {
  return {
    ownerId: key.ownerId,
    keyId: key.id,
    requestId: u.requestId,
    endpoint: u.endpoint,
    model: u.model.id,
    provider: u.model.provider,
    mode: u.mode,
    promptTokens: u.usage.prompt_tokens,
    completionTokens: u.usage.completion_tokens,
    costNanos: u.costNanos,
    latencyMs: u.latencyMs,
    fallback: u.fallback,
  };
}
