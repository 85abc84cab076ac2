/**
 * Trains the prompt classifier: `npm run train:router` (docs/routing.md, "Training").
 * Reads the train split of data/router/corpus.jsonl (never the held-out fifth), fits one
 * L2-regularized logistic regression per output with AdaGrad over a fixed, seeded order, quantizes
 * the weights to int8 with one scale per output, and writes src/routing/classifier-weights.ts.
 * Deterministic: the same corpus gives the same file, byte for byte. Takes one to two minutes on one
 * core (six fits: five cross-validation folds for the thresholds, then the whole train split).
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DIFFICULTY_FROM, K, OUTPUTS, type Output } from "../../src/routing/classifier";
import { BUCKETS } from "../../src/routing/features";
import { readCorpus, toExample, type Example } from "./examples";
import { chooseShifts, crossValidatedLogits } from "./validate";

/** The trainer's settings; `validate.ts` and experiments pass others to compare them on cross-validation. */
export interface TrainOptions {
  epochs: number;
  learningRate: number;
  l2: number;
  /** The most a rare output's positives are weighted up (square root of the imbalance, capped here). */
  posWeightCap: number;
  seed: number;
  /** Outputs whose L2 differs from `l2`: reasoning, the least precise intent, leans on fewer words (issue 15's ninth pass). */
  outputL2: Partial<Record<Output, number>>;
}
export const TRAIN_OPTIONS: TrainOptions = { epochs: 40, learningRate: 0.4, l2: 3e-4, posWeightCap: 4, seed: 15, outputL2: { reasoning: 9e-4 } };

/** mulberry32: a small seeded generator, so the shuffles are the same on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function train(examples: readonly Example[], options: TrainOptions = TRAIN_OPTIONS) {
  const { epochs, learningRate, l2, posWeightCap, seed, outputL2 } = options;
  const l2Of = OUTPUTS.map((o) => outputL2[o] ?? l2);
  const w = new Float64Array(BUCKETS * K);
  const g2 = new Float64Array(BUCKETS * K).fill(1e-8);
  const bias = new Float64Array(K);
  const bg2 = new Float64Array(K).fill(1e-8);
  // Rare outputs weigh their positives up (square root of the imbalance), so they are not drowned.
  const positives = OUTPUTS.map((_, k) => examples.filter((e) => e.y[k] === 1).length);
  const posWeight = positives.map((p) => Math.min(posWeightCap, Math.sqrt((examples.length - p) / Math.max(1, p))));
  const rand = random(seed);
  const order = examples.map((_, i) => i);
  const entries = examples.map((e) => [...e.x.entries()].sort((a, b) => a[0] - b[0]));
  // Difficulty outputs also read the body's words (classifier.ts).
  const difficultyEntries = examples.map((e, n) => [...entries[n]!, ...[...e.xd.entries()].sort((a, b) => a[0] - b[0])]);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const n of order) {
      const y = examples[n]!.y;
      for (let k = 0; k < K; k++) {
        const x = k >= DIFFICULTY_FROM ? difficultyEntries[n]! : entries[n]!;
        let z = bias[k]! + examples[n]!.offset[k]!;
        for (const [b, v] of x) z += w[b * K + k]! * v;
        const p = 1 / (1 + Math.exp(-z));
        const err = (p - y[k]!) * (y[k] ? posWeight[k]! : 1);
        bg2[k]! += err * err;
        bias[k]! -= (learningRate * err) / Math.sqrt(bg2[k]!);
        for (const [b, v] of x) {
          const idx = b * K + k;
          const grad = err * v + l2Of[k]! * w[idx]!;
          g2[idx]! += grad * grad;
          w[idx]! -= (learningRate * grad) / Math.sqrt(g2[idx]!);
        }
      }
    }
  }
  return { w, bias };
}

/** int8 weights, one scale per output (its largest weight maps to 127). */
export function quantize(w: Float64Array) {
  const scales = new Array<number>(K).fill(0);
  for (let i = 0; i < w.length; i++) scales[i % K] = Math.max(scales[i % K]!, Math.abs(w[i]!));
  for (let k = 0; k < K; k++) scales[k] = scales[k]! / 127 || 1;
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.round(w[i]! / scales[i % K]!);
  return { q, scales };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const trainItems = readCorpus().filter((i) => i.split === "train");
  // Decision thresholds: chosen on out-of-fold scores of the train split (5 folds by request shape,
  // each scored by a model fitted on the other four), then folded into the biases of the model
  // fitted on the whole train split.
  const examples = trainItems.map(toExample);
  const shifts = chooseShifts(examples, crossValidatedLogits(trainItems, examples));
  const { w, bias } = train(examples);
  for (let k = 0; k < K; k++) bias[k]! += shifts[k]!;
  const { q, scales } = quantize(w);
  const round = (x: number) => Number(x.toPrecision(8));
  const file = join(dirname(fileURLToPath(import.meta.url)), "../../src/routing/classifier-weights.ts");
  const body = [
    "/**",
    " * Generated by `npm run train:router` (data/router/train.ts) from the train split of",
    " * data/router/corpus.jsonl. Do not edit: retrain. int8 weights, bucket-major (bucket * outputs + output).",
    " */",
    "export const MODEL = {",
    `  buckets: ${BUCKETS},`,
    `  outputs: ${JSON.stringify(OUTPUTS)},`,
    `  scales: ${JSON.stringify(scales.map(round))},`,
    `  biases: ${JSON.stringify([...bias].map(round))},`,
    `  weights:\n    "${Buffer.from(q.buffer).toString("base64")}",`,
    "};",
    "",
  ].join("\n");
  writeFileSync(file, body);
  console.log(`thresholds (logit shifts chosen on out-of-fold scores): ${OUTPUTS.map((o, k) => `${o} ${shifts[k]}`).join(", ")}`);
  console.log(`trained on ${examples.length} prompts in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${file} (${body.length} bytes)`);
}
