/**
 * Microbenchmark of the routing decision (`route()`), the work the gateway adds to every chat call
 * before any upstream is contacted. Run: `npx tsx bench/route-decision.ts`.
 * Reports nanoseconds per decision, the median of several timed rounds after a warm-up, for a short
 * prompt and for a 2,000-character prompt (the budget is 20 microseconds for the latter).
 */
import { route } from "../src/routing/router";
import type { RouteInput } from "../src/routing/types";

const WARMUP_ITERATIONS = 20_000;
const ROUNDS = 7; // odd, so the median is one round
const ITERATIONS_PER_ROUND = 20_000;

const SHORT_PROMPT = "What is the capital of France?";

/** About 2,000 characters of mixed prose and code, so every part of the scanner runs. */
function longPrompt(): string {
  const paragraph =
    "Please review the following TypeScript service and explain step by step why the retry loop can " +
    "exceed its deadline under load. Compare two fixes and summarize the trade-offs in a short table. ";
  const code = "```ts\nasync function fetchWithRetry(url: string, tries = 3) {\n  for (let i = 0; i < tries; i++) {\n    const res = await fetch(url);\n    if (res.ok) return res;\n  }\n  throw new Error(`failed after ${tries}`);\n}\n```\n";
  let text = "";
  while (text.length < 2000) text += paragraph + code;
  // Through JSON, as a request body arrives: a flat string, not a slice of a concatenation.
  return JSON.parse(JSON.stringify(text.slice(0, 2000))) as string;
}

function inputFor(content: string): RouteInput {
  return {
    messages: [
      { role: "system", content: "You are a careful senior engineer." },
      { role: "user", content },
    ],
    model: "auto",
    routingMode: "balanced",
    allowedModels: null,
    maxTokens: 1000,
  };
}

// Written by every iteration so the engine cannot drop the call as dead code.
let sink = 0;

/** Median ns per call of `run` over ROUNDS timed rounds, after a warm-up that lets the JIT settle. */
function nsPerCall(run: () => number): number {
  for (let i = 0; i < WARMUP_ITERATIONS; i++) sink ^= run();
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS_PER_ROUND; i++) sink ^= run();
    rounds.push(Number(process.hrtime.bigint() - start) / ITERATIONS_PER_ROUND);
  }
  // Median of an odd number of rounds: one round disturbed by another process cannot move it far.
  return rounds.toSorted((a, b) => a - b)[(ROUNDS - 1) >> 1]!;
}

/** For `npm run bench`: median ns per decision, short prompt and 2,000-character prompt. */
export async function benchRouteDecision(): Promise<{ short_ns: number; long_ns: number }> {
  const short = inputFor(SHORT_PROMPT);
  const long = inputFor(longPrompt());
  const long_ns = Math.round(nsPerCall(() => route(long).candidates.length));
  const short_ns = Math.round(nsPerCall(() => route(short).candidates.length));
  return { short_ns, long_ns };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { short_ns, long_ns } = await benchRouteDecision();
  console.log(`route decision, short prompt (${SHORT_PROMPT.length} chars): ${short_ns} ns`);
  console.log(`route decision, 2,000-character prompt: ${long_ns} ns (budget 20000 ns)`);
  // Calibration: the least any per-character scan can cost here (one multiply-xor per character),
  // so a number from a slow or busy machine can be read against the machine itself.
  const text = longPrompt();
  const floor_ns = Math.round(
    nsPerCall(() => {
      let h = 0;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
      return h;
    }),
  );
  console.log(`calibration, bare hash loop over the same 2,000 characters: ${floor_ns} ns`);
  if (sink === -1) console.log("");
}
