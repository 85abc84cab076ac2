/**
 * Writes data/router/corpus.jsonl from the language files (docs/routing.md, "The corpus").
 * Run: `npm run corpus:router`. Deterministic: the same files give the same bytes.
 *
 * The held-out fifth is chosen by family, not by prompt: within each language and intent, every
 * fifth family (in file order) is held out whole, so no phrasing or slot combination of a held-out
 * family is ever seen in training, and the held-out figures measure new request shapes.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compose, fifthByShape, type Family, type Item, type Pools } from "./kit";
import * as de from "./de";
import * as en from "./en";
import * as es from "./es";
import * as fr from "./fr";
import * as it from "./it";
import * as ja from "./ja";
import * as pt from "./pt";
import * as ru from "./ru";
import * as zh from "./zh";

const LANGUAGES: Record<string, { pools: Pools; families: Family[] }> = { en, es, fr, de, pt, it, ru, zh, ja };

export function buildCorpus(): Item[] {
  const out: Item[] = [];
  for (const [lang, { pools, families }] of Object.entries(LANGUAGES)) {
    const items = compose(lang, pools, families);
    // Request shapes (family + phrasing) grouped by language and intent; a fifth of each group's
    // shapes is held out whole (kit.ts, fifthByShape).
    const groupOf = (i: Omit<Item, "split">) => (i.intents.length === 1 ? i.intents[0]! : i.intents.length ? "mixed" : "general");
    const heldOut = fifthByShape(items, groupOf, 0, 4);
    for (const item of items) out.push({ ...item, split: heldOut(item) ? "heldout" : "train" });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const items = buildCorpus();
  const file = join(dirname(fileURLToPath(import.meta.url)), "..", "corpus.jsonl");
  writeFileSync(file, items.map((i) => JSON.stringify(i)).join("\n") + "\n");
  const by = (f: (i: Item) => string) => {
    const m = new Map<string, number>();
    for (const i of items) m.set(f(i), (m.get(f(i)) ?? 0) + 1);
    return Object.fromEntries([...m].sort());
  };
  console.log(`${items.length} prompts -> ${file}`);
  console.log("split", by((i) => i.split));
  console.log("lang", by((i) => i.lang));
  console.log("capability", by((i) => i.capability));
  console.log("intents", by((i) => i.intents.join("+") || "(none)"));
}
