import { MODEL } from "./classifier-weights";
import { BUCKETS, cuePoints, featureBuckets, SCORED, scan, scanMessage } from "./features";

/**
 * The prompt classifier (docs/routing.md, "The classifier"): one linear model per output over the
 * hashed features of `features.ts`, trained by `npm run train:router` and shipped as int8 weights in
 * `classifier-weights.ts`. Outputs: one per intent signal, `simple`, and two ordinal difficulty
 * heads (at least standard; strong). A logit is the bias plus, for each word group of a scan (the
 * request's words, the request group, and for the difficulty heads only the body's words), the sum
 * of its feature weights divided by the square root of its size, plus the other features' weights:
 * so a long message does not score higher merely for being long. An intent's logit also starts
 * from a fixed prior of CUE_PRIOR per cue point of `vocabulary.ts` (at most CUE_PRIOR_MAX points):
 * the hand-made vocabulary is what the model knows beyond its corpus, and training learns the
 * correction on top of it (a story about a programmer is not code).
 */
export const CUE_PRIOR = 0.5;
export const CUE_PRIOR_MAX = 4;

export const OUTPUTS = [...SCORED, "simple", "standard", "strong"] as const;
export type Output = (typeof OUTPUTS)[number];
export const K = OUTPUTS.length;
/** The first difficulty output: body words weigh on outputs from here on (the last packed lane). */
export const DIFFICULTY_FROM = OUTPUTS.indexOf("standard");
const INTENT_COUNT = SCORED.length;

function decode(base64: string): Int8Array {
  const bytes = atob(base64);
  const out = new Int8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = (bytes.charCodeAt(i) << 24) >> 24;
  return out;
}

const weights = decode(MODEL.weights);
/**
 * Whether the shipped weights fit the feature layout. When they do not (the layout changed and the
 * model is not retrained yet), scoring throws, but importing does not: the trainer imports this
 * module for its outputs and priors, and must run to make the new weights.
 */
const layoutMatches = K === 10 && DIFFICULTY_FROM === 8 && MODEL.buckets === BUCKETS && MODEL.outputs.join() === OUTPUTS.join() && weights.length === BUCKETS * K;
const scales = Float64Array.from(MODEL.scales);

/**
 * Two int8 weights per double, `high * 2^26 + low`: summing packed doubles sums both lanes at once
 * and exactly (a message has at most 8,192 features, so a lane stays under 2^20 in magnitude and the
 * total under 2^53), which halves the loads of the hot loop. `unpack` splits a sum back into lanes.
 */
const LANE = 2 ** 26;
const packed = new Float64Array(BUCKETS * 5);
for (let b = 0; b < BUCKETS && layoutMatches; b++) {
  for (let j = 0; j < 5; j++) packed[b * 5 + j] = weights[b * 10 + 2 * j]! * LANE + weights[b * 10 + 2 * j + 1]!;
}
const sums = new Float64Array(10);

function split(sum: number, j: number, scale: number) {
  const low = sum - Math.round(sum / LANE) * LANE;
  sums[2 * j]! += ((sum - low) / LANE) * scale;
  sums[2 * j + 1]! += low * scale;
}

function unpack(s0: number, s1: number, s2: number, s3: number, s4: number, scale: number) {
  split(s0, 0, scale);
  split(s1, 1, scale);
  split(s2, 2, scale);
  split(s3, 3, scale);
  split(s4, 4, scale);
}
const biases = Float64Array.from(MODEL.biases);

/**
 * Adds `factor` times the current scan's weighted sums (no bias) to `logits`: word features first,
 * normalized by the square root of their count, then the symbol, cue and length features.
 */
export const accumulate = layoutMatches
  ? sumWeights
  : () => {
      throw new Error("classifier-weights.ts does not match the feature layout; run npm run train:router");
    };

function sumWeights(logits: Float64Array, factor: number) {
  const words = scan.words;
  const total = scan.total;
  const p = packed;
  const fb = featureBuckets;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  for (let f = 0; f < words; f++) {
    const b = fb[f]! * 5;
    s0 += p[b]!; s1 += p[b + 1]!; s2 += p[b + 2]!; s3 += p[b + 3]!; s4 += p[b + 4]!;
  }
  // The word part, normalized; then the symbol, cue and length features at weight 1.
  const norm = words > 0 ? 1 / Math.sqrt(words) : 0;
  unpack(s0, s1, s2, s3, s4, norm);
  s0 = s1 = s2 = s3 = s4 = 0;
  const request = scan.request;
  for (let f = words; f < request; f++) {
    const b = fb[f]! * 5;
    s0 += p[b]!; s1 += p[b + 1]!; s2 += p[b + 2]!; s3 += p[b + 3]!; s4 += p[b + 4]!;
  }
  unpack(s0, s1, s2, s3, s4, request > words ? 1 / Math.sqrt(request - words) : 0);
  // The body's words weigh on difficulty only (the last lane: the standard and strong heads).
  const body = scan.body;
  s0 = s1 = s2 = s3 = s4 = 0;
  for (let f = request; f < body; f++) s4 += p[fb[f]! * 5 + 4]!;
  if (body > request) split(s4, 4, 1 / Math.sqrt(body - request));
  s4 = 0;
  // The difficulty heads' own features (features.ts), at weight 1.
  const difficulty = scan.difficulty;
  for (let f = body; f < difficulty; f++) s4 += p[fb[f]! * 5 + 4]!;
  split(s4, 4, 1);
  s4 = 0;
  for (let f = difficulty; f < total; f++) {
    const b = fb[f]! * 5;
    s0 += p[b]!; s1 += p[b + 1]!; s2 += p[b + 2]!; s3 += p[b + 3]!; s4 += p[b + 4]!;
  }
  unpack(s0, s1, s2, s3, s4, 1);
  for (let k = 0; k < 10; k++) logits[k]! += factor * scales[k]! * sums[k]!;
  for (let s = 0; s < INTENT_COUNT; s++) logits[s]! += factor * CUE_PRIOR * Math.min(cuePoints[s]!, CUE_PRIOR_MAX);
  sums.fill(0);
}

export const bias = (k: number) => biases[k]!;

export function addBiases(logits: Float64Array) {
  for (let k = 0; k < K; k++) logits[k]! += biases[k]!;
}

/** The logits of one message alone (for tests and the trainer's check). */
export function classify(text: string): Float64Array {
  const logits = new Float64Array(K);
  scanMessage(text);
  accumulate(logits, 1);
  addBiases(logits);
  return logits;
}

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
