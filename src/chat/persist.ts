import type { ApiKeyRecord } from "../auth/keys";
import { db } from "../db/client";
import type { Env } from "../env";
import { signReceipt, type Receipt } from "../proof/receipt";
import { receiptInsert } from "../proof/store";
import type { HashString } from "../shared/hash";
import { signerFrom } from "../shared/signing";
import { usageInsert } from "../usage/record";
import type { Outcome } from "./svc-block";

/**
 * Off the hot path (waitUntil): sign the receipt and write it with the usage row in one D1 batch,
 * so a call is never billed without its receipt or the reverse.
 */
export async function persistOutcome(env: Env, key: ApiKeyRecord, o: Outcome, receipt: Receipt, proof: HashString) {
  const database = db(env.DB);
  try {
    const signed = await signReceipt(receipt, proof, signerFrom(env.LEDGER_SIGNING_KEY));
    await database.batch([
      receiptInsert(database, key.ownerId, signed),
      usageInsert(database, {
        ownerId: key.ownerId,
        keyId: key.id,
        requestId: o.requestId,
        endpoint: o.endpoint,
        model: o.model.id,
        provider: o.model.provider,
        mode: o.decision.mode,
        promptTokens: o.usage.prompt_tokens,
        completionTokens: o.usage.completion_tokens,
        costUsd: receipt.cost_usd,
        latencyMs: o.latencyMs,
        fallback: o.fallbackFrom !== null,
      }),
    ]);
  } catch (err) {
    console.error(`[${o.requestId}] could not store receipt and usage`, err);
  }
}
