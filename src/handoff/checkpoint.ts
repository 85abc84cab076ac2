import { canonicalJson } from "../shared/canonical-json";
import { hashString } from "../shared/hash";
import type { Signer } from "../shared/signing";
import type { ChainTip } from "./verify";

export const CHECKPOINT_VERSION = "handoff-checkpoint-v1";

/**
 * The ledger's word on its chain: how many entries it has written and the hash of the last, signed
 * like an entry (docs/ledger.md, "Signed checkpoints"). A client holding a verified copy of the
 * first k entries fetches only the entries after them, checks that they link on, and that the last
 * one's hash and the count match a checkpoint signed by the published key.
 */
export interface SignedCheckpoint {
  version: typeof CHECKPOINT_VERSION;
  workspace_id: string;
  count: number;
  last_id: string;
  last_hash: string;
  /** Canonical JSON of the five fields above: what `hash` covers and `signature` signs. */
  subject: string;
  hash: string;
  signature: string | null;
  signing_key_id: string | null;
}

export async function signCheckpoint(workspaceId: string, tip: ChainTip, signer: Signer | null): Promise<SignedCheckpoint> {
  const fields = { version: CHECKPOINT_VERSION, workspace_id: workspaceId, count: tip.seq + 1, last_id: tip.id, last_hash: tip.hash } as const;
  const subject = canonicalJson(fields);
  return { ...fields, subject, hash: hashString(subject), signature: signer ? await signer.sign(subject) : null, signing_key_id: signer?.keyId ?? null };
}
