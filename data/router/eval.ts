/**
 * `npm run eval:router`: the routing figures on the held-out fifth of data/router/corpus.jsonl
 * (docs/routing.md, "Measured accuracy"). `-- --write` also stores them in
 * data/router/heldout-figures.json, the floor that test/routing/router-eval.node.test.ts holds.
 * `-- --split train` measures the train split instead (to see over-fitting, never to tune on).
 * `-- --set independent` measures the independent set of data/router/independent/ instead (prompts
 * written by hand apart from the corpus, never read by training, validation or threshold choice;
 * docs/routing.md, "The independent set"); with `--write` its figures go to
 * data/router/independent-figures.json, the floor of test/routing/independent-eval.node.test.ts.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TIERS } from "../../src/routing/tiers";
import type { Item } from "./corpus/kit";
import { readCorpus, readJsonl } from "./examples";
import { measure } from "./metrics";

const HERE = dirname(fileURLToPath(import.meta.url));
export const FIGURES_FILE = join(HERE, "heldout-figures.json");
export const INDEPENDENT_DIR = join(HERE, "independent");
export const INDEPENDENT_FIGURES_FILE = join(HERE, "independent-figures.json");

export type IndependentItem = Omit<Item, "split"> & { split: "independent" };

/** Every prompt of data/router/independent/*.jsonl (one file per language), in file order. */
export function readIndependent(): IndependentItem[] {
  return readdirSync(INDEPENDENT_DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => readJsonl<IndependentItem>(join(INDEPENDENT_DIR, f)));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(7);

if (import.meta.url === `file://${process.argv[1]}`) {
  const independent = process.argv.includes("--set") && process.argv[process.argv.indexOf("--set") + 1] === "independent";
  const split = process.argv.includes("--split") ? process.argv[process.argv.indexOf("--split") + 1] : "heldout";
  const items = independent ? readIndependent() : readCorpus().filter((i) => i.split === split);
  const f = measure(items);
  console.log(`${independent ? "independent set" : `${split} split`}: ${f.prompts} prompts\n`);
  console.log("intent          precision  recall  support");
  for (const [s, m] of Object.entries(f.intents)) console.log(`${s.padEnd(15)} ${pct(m.precision)}   ${pct(m.recall)}  ${String(m.support).padStart(6)}`);
  console.log(`\nexact intent set: ${pct(f.intent_exact)}   difficulty: ${pct(f.difficulty_accuracy)}\n`);
  console.log("language  prompts  intents  difficulty");
  for (const [l, m] of Object.entries(f.languages)) console.log(`${l.padEnd(9)} ${String(m.prompts).padStart(7)}  ${pct(m.intent_accuracy)}  ${pct(m.difficulty_accuracy)}`);
  console.log(`\nbalanced mode, labeled difficulty x chosen tier:\n${"".padEnd(10)}${TIERS.map((t) => t.padStart(10)).join("")}`);
  for (const [d, row] of Object.entries(f.tier_matrix)) console.log(`${d.padEnd(10)}${TIERS.map((t) => String(row[t]).padStart(10)).join("")}`);
  console.log(`\nstrong on premium/frontier: ${pct(f.strong_on_premium_or_frontier)} (underpowered ${pct(f.strong_underpowered).trim()})`);
  console.log(`light on budget:            ${pct(f.light_on_budget)} (overspent ${pct(f.light_overspent).trim()})`);
  console.log(`average price: $${f.avg_usd_per_mtok.toFixed(2)} per million tokens (blended), always-frontier $${f.frontier_usd_per_mtok.toFixed(2)}: ${pct(f.avg_usd_per_mtok / f.frontier_usd_per_mtok).trim()} of it`);
  if (process.argv.includes("--write")) {
    if (!independent && split !== "heldout") throw new Error("--write stores held-out or independent figures only");
    const file = independent ? INDEPENDENT_FIGURES_FILE : FIGURES_FILE;
    writeFileSync(file, JSON.stringify(f, null, 2) + "\n");
    console.log(`\nwrote ${file}`);
  }
}
