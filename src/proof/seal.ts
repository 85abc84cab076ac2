import { chatReceipt, type ChatFacts } from "./chat";
import { proofHash, type Receipt, type Sealed } from "./receipt";

/**
 * One `seal` for every receipt kind: the facts of a kind go in, the receipt and its proof hash come
 * out. A new kind adds its facts type here and its builder to BUILDERS.
 */
export interface FactsByKind {
  chat: ChatFacts;
}
export type ReceiptKind = keyof FactsByKind;

const BUILDERS: { [K in ReceiptKind]: (facts: FactsByKind[K]) => Receipt } = {
  chat: chatReceipt,
};

export function seal<K extends ReceiptKind>(kind: K, facts: FactsByKind[K]): Sealed {
  const receipt = BUILDERS[kind](facts);
  return { receipt, proofHash: proofHash(receipt) };
}
