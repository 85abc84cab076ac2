import type { Db } from "../db/client";
import { GATHER_MS } from "./flush-policy";
import { insertJsonRows } from "../db/json-rows";
import { proofReceipts, usageEvents } from "../db/schema";
import { signReceipt, type Sealed, type SignedReceipt } from "../proof/receipt";
import { receiptValues } from "../proof/store";
import { newId } from "../shared/ids";
import type { Signer } from "../shared/signing";
import { usageValues, type UsageRecord } from "../usage/record";

/** One model call as it is kept: its usage row, and the receipt when the call issues one. */
export interface CallRecord {
  usage: UsageRecord;
  receipt: Sealed | null;
}

/** Keeps call records; never throws and never makes the caller wait for storage. */
export type Recorder = (rec: CallRecord) => void;

/**
 * A record as the write-behind buffer holds it. A model call's: its usage row, whose id and time are
 * fixed when the call is recorded (so every retry of a flush writes the same row, and a row already
 * written is skipped), and its receipt when it issues one. Or a receipt that bills nothing itself,
 * with its owner: an operation's (orchestration, code: each of its model calls has its own usage
 * row) or a compliance attestation. Receipts are sealed but not yet signed: the buffer signs them
 * as they arrive, off the isolate.
 */
export type BufferedRecord = BufferedCall | BufferedReceipt;

export interface BufferedCall {
  usage: UsageRecord & { id: string; createdAt: number };
  receipt: Sealed | null;
}

export interface BufferedReceipt {
  usage: null;
  ownerId: string;
  receipt: Sealed;
}

export const bufferedRecord = (rec: CallRecord, now = Date.now()): BufferedCall => ({
  usage: { ...rec.usage, id: newId("use_"), createdAt: now },
  receipt: rec.receipt,
});

/** A receipt that bills nothing itself, as the buffer holds it. */
export const bufferedReceipt = (ownerId: string, receipt: Sealed): BufferedReceipt => ({ usage: null, ownerId, receipt });

/** Hands one record to the isolate's buffer; never throws and never makes the caller wait for storage. */
export type Keep = (record: BufferedRecord) => void;

/** A send carries at most this many records; more start the next one. */
const MAX_GATHER = 200;

/** The records this isolate is gathering for its next send (plain data: any request may add to them). */
let gathering: BufferedRecord[] | null = null;

/**
 * The isolate's half of the write-behind buffer (docs/storage.md): records made within GATHER_MS of
 * each other, by any request of this isolate, go to the buffer in one send. The request that opens
 * a group sends it under its waitUntil, so no request waits and the runtime keeps the isolate until
 * the send is done; the stub is made inside that request, so no request does I/O for another.
 * Durability is the buffer's: a send returns once the records are in its storage. When the buffer
 * cannot be reached the records go straight to D1 (`fallback`), and are lost only when both fail
 * (then logged by request id).
 */
export function bufferKeeper(
  send: (records: BufferedRecord[]) => Promise<unknown>,
  fallback: (records: BufferedRecord[]) => Promise<unknown>,
  waitUntil: (p: Promise<unknown>) => void,
): Keep {
  return (record) => {
    if (gathering) {
      gathering.push(record);
      if (gathering.length >= MAX_GATHER) gathering = null;
      return;
    }
    const records = (gathering = [record]);
    waitUntil(
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
        if (gathering === records) gathering = null;
        try {
          await send(records);
        } catch (err) {
          console.error(`could not reach the usage buffer; writing ${records.length} record(s) to D1 directly`, err);
          try {
            await fallback(records);
          } catch (err2) {
            console.error(`lost records of requests ${records.map(requestIdOf).join(", ")}`, err2);
          }
        }
      })(),
    );
  };
}

const requestIdOf = (r: BufferedRecord) => (r.usage ? r.usage.requestId : r.receipt.receipt.request_id);
const ownerOf = (r: BufferedRecord) => (r.usage ? r.usage.ownerId : r.ownerId);

/** A model call's recorder over a keeper: the usage row gets its id and time now. */
export const callRecorder =
  (keep: Keep): Recorder =>
  (rec) =>
    keep(bufferedRecord(rec));

const isSigned = (r: Sealed): r is SignedReceipt => "signature" in r;

/**
 * The records with every receipt signed (Ed25519 is deterministic, so signing again later gives the
 * same signature): what the buffer stores as records arrive, so that its flush only writes.
 */
export async function signRecords<R extends BufferedRecord>(records: R[], signer: Signer | null): Promise<R[]> {
  return Promise.all(records.map(async (r) => (r.receipt && !isSigned(r.receipt) ? { ...r, receipt: await signReceipt(r.receipt, signer) } : r)));
}

/**
 * Signs any receipt not yet signed and writes every record's usage row and receipt in ONE D1 batch (a batch is a
 * transaction: a call is never billed without its receipt or the reverse). Rows already present
 * (a retried flush whose first attempt reached D1) are skipped: usage rows by their id, receipts by
 * their request id. Throws when D1 refuses, so that the caller keeps the records and retries.
 */
export async function writeRecords(database: Db, signer: Signer | null, records: BufferedRecord[]): Promise<void> {
  if (!records.length) return;
  const receipts = (await signRecords(records, signer)).flatMap((r) => (r.receipt ? [receiptValues(ownerOf(r), r.receipt as SignedReceipt)] : []));
  const usage = records.flatMap((r) => (r.usage ? [r.usage] : [])).map(({ id, createdAt, ...u }) => usageValues(u, id, createdAt));
  await database.$client.batch([...insertJsonRows(database.$client, usageEvents, usage), ...insertJsonRows(database.$client, proofReceipts, receipts)]);
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
