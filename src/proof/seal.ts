import type { AttestationFacts } from "../compliance/attestation";
import { attestationReceipt, type AttestationReceipt } from "./attestation";
import { chatReceipt, type ChatFacts, type ChatReceipt } from "./chat";
import { codeReceipt, orchestrationReceipt, type CodeFacts, type CodeReceipt, type OrchestrationFacts, type OrchestrationReceipt } from "./orchestration";
import { proofHash, type Sealed } from "./receipt";

/**
 * One `seal` for every receipt kind: the facts of a kind go in, the receipt and its proof hash come
 * out. A new kind adds its facts type here and its builder to BUILDERS.
 */
export interface FactsByKind {
  chat: ChatFacts;
  attestation: AttestationFacts;
  orchestration: OrchestrationFacts;
  code: CodeFacts;
}
export interface ReceiptByKind {
  chat: ChatReceipt;
  attestation: AttestationReceipt;
  orchestration: OrchestrationReceipt;
  code: CodeReceipt;
}
export type ReceiptKind = keyof FactsByKind;

const BUILDERS: { [K in ReceiptKind]: (facts: FactsByKind[K]) => ReceiptByKind[K] } = {
  chat: chatReceipt,
  attestation: attestationReceipt,
  orchestration: orchestrationReceipt,
  code: codeReceipt,
};

export function seal<K extends ReceiptKind>(kind: K, facts: FactsByKind[K]): Sealed<ReceiptByKind[K]> {
  const receipt = BUILDERS[kind](facts);
  return { receipt, proofHash: proofHash(receipt) };
}
