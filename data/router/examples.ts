/**
 * The corpus as the trainer and the evaluation read it: each prompt's sparse feature vector, built
 * by the same scanner and the same follow-up rule as serving (src/routing/features.ts,
 * src/routing/conversation.ts), and its targets per classifier output.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CUE_PRIOR, CUE_PRIOR_MAX, OUTPUTS } from "../../src/routing/classifier";
import { FOLLOW_UP_WEIGHT, turnsOf } from "../../src/routing/conversation";
import { CHARS_PER_TOKEN, LONG_CONTEXT_TOKENS } from "../../src/routing/signals";
import { cuePoints, featureBuckets, scan, scanMessage, SCORED } from "../../src/routing/features";
import type { Item } from "./corpus/kit";

export const CORPUS_FILE = join(dirname(fileURLToPath(import.meta.url)), "corpus.jsonl");

/** The objects of a JSON Lines file, one a line, in file order. */
export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as T);
}

export function readCorpus(): Item[] {
  return readJsonl<Item>(CORPUS_FILE);
}

export interface Example {
  item: Item;
  /** Bucket -> value. */
  x: Map<number, number>;
  /** Bucket -> value of the body's words, which weigh on the difficulty outputs only (classifier.ts). */
  xd: Map<number, number>;
  /** The fixed cue prior per output (classifier.ts), added to the learned logit. */
  offset: number[];
  /** One 0/1 target per output of OUTPUTS. */
  y: number[];
  /** A fence or 4+ structural symbols in the last message: code whatever the model says (signals.ts). */
  codeBySymbols: boolean;
  /** The last message is only an acknowledgement: simple by rule (conversation.ts). */
  closing: boolean;
  /** The conversation is long_context by size, which rules out simple. */
  longContext: boolean;
}

function addScan(x: Map<number, number>, xd: Map<number, number>, offset: number[], factor: number) {
  for (let s = 0; s < SCORED.length; s++) offset[s]! += factor * CUE_PRIOR * Math.min(cuePoints[s]!, CUE_PRIOR_MAX);
  const norm = scan.words > 0 ? 1 / Math.sqrt(scan.words) : 0;
  const requestNorm = scan.request > scan.words ? 1 / Math.sqrt(scan.request - scan.words) : 0;
  const bodyNorm = scan.body > scan.request ? 1 / Math.sqrt(scan.body - scan.request) : 0;
  for (let f = 0; f < scan.total; f++) {
    const b = featureBuckets[f]!;
    if (f >= scan.request && f < scan.body) xd.set(b, (xd.get(b) ?? 0) + factor * bodyNorm);
    else if (f >= scan.body && f < scan.difficulty) xd.set(b, (xd.get(b) ?? 0) + factor);
    else x.set(b, (x.get(b) ?? 0) + factor * (f < scan.words ? norm : f < scan.request ? requestNorm : 1));
  }
}

export function toExample(item: Item): Example {
  const { last, previous, closing } = turnsOf(item.messages);
  const x = new Map<number, number>();
  const xd = new Map<number, number>();
  const offset = OUTPUTS.map(() => 0);
  scanMessage(last);
  const codeBySymbols = scan.fence || scan.structural >= 4;
  addScan(x, xd, offset, 1);
  if (previous !== undefined) {
    scanMessage(previous);
    addScan(x, xd, offset, FOLLOW_UP_WEIGHT);
  }
  const y = OUTPUTS.map((o) => {
    if (o === "standard") return item.capability === "light" ? 0 : 1;
    if (o === "strong") return item.capability === "strong" ? 1 : 0;
    return (item.intents as string[]).includes(o) ? 1 : 0;
  });
  let chars = 0;
  for (const m of item.messages) chars += m.content.length;
  return { item, x, xd, offset, y, codeBySymbols, closing, longContext: Math.ceil(chars / CHARS_PER_TOKEN) >= LONG_CONTEXT_TOKENS };
}
