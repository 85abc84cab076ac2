#!/usr/bin/env node
// A standalone verifier of agent trajectories, written from docs/agents.md alone: it imports nothing
// from this project, only a SHA-256 implementation. Usage:
//   node scripts/verify-trajectory.mjs verify_request.json
// The file is the `verify_request` of GET /v1/agent/{run_id}/trajectory?full=true (or a body of
// POST /v1/agent/verify). Prints {valid, recomputed_proof, n_steps, mismatched_steps}; exit 0 when
// valid, 1 when not, 2 on unusable input.
import { readFileSync } from "node:fs";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

const VERSION = "svc-trajectory-v1";

// RFC 8785 canonical JSON (the sample of docs/proofs.md).
function canonical(value) {
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("RFC 8785: NaN and Infinity are not JSON");
    return JSON.stringify(value);
  }
  if (typeof value === "string") {
    if (!value.isWellFormed()) throw new TypeError("RFC 8785 (I-JSON): a lone surrogate is not allowed");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object") {
    const names = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${names.map((k) => `${canonical(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  throw new TypeError(`RFC 8785: a ${typeof value} is not JSON`);
}

const sha = (bytes) => sha256(bytes);
const hashText = (text) => `sha256:${bytesToHex(sha(utf8ToBytes(text)))}`;
const hashJson = (value) => hashText(canonical(value));

const record = (s) => ({ index: s.index, model: s.model, input_hash: s.input_hash, output_hash: s.output_hash, cost_usd: s.cost_usd, confidence: s.confidence, timestamp: s.timestamp });
const stepProof = (runId, prev, step) => hashJson({ version: VERSION, run_id: runId, prev_proof: prev, step: record(step) });

function merkle(leaves) {
  if (leaves.length === 0) return sha(new Uint8Array());
  if (leaves.length === 1) return sha(new Uint8Array([0x00, ...leaves[0]]));
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(new Uint8Array([0x01, ...merkle(leaves.slice(0, k)), ...merkle(leaves.slice(k))]));
}

export function verifyBundle(b) {
  const policy = b.policy ?? "balanced";
  const strategy = b.strategy ?? "single";
  const outputHash = b.output_hash ?? hashText(b.output);
  const proofs = [];
  for (const step of b.steps) proofs.push(stepProof(b.run_id, proofs.at(-1) ?? null, step));
  const root = `sha256:${bytesToHex(merkle(proofs.map((p) => hexToBytes(p.slice(7)))))}`;
  const recomputed = hashJson({ version: VERSION, run_id: b.run_id, policy, strategy, output_hash: outputHash, merkle_root: root, chain_tip: proofs.at(-1) ?? null });
  const mismatched = [];
  const claimed = b.step_proofs;
  const n = Math.max(b.steps.length, claimed ? claimed.length : 0);
  for (let i = 0; i < n; i++) {
    const step = b.steps[i];
    const bad = claimed
      ? !step || claimed[i] === undefined || step.index !== i || stepProof(b.run_id, i === 0 ? null : (claimed[i - 1] ?? null), step) !== claimed[i]
      : step.index !== i;
    if (bad) mismatched.push(i);
  }
  return { valid: recomputed === b.trajectory_proof && mismatched.length === 0, recomputed_proof: recomputed, n_steps: b.steps.length, mismatched_steps: mismatched };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node scripts/verify-trajectory.mjs <verify_request.json>");
    process.exit(2);
  }
  let bundle;
  try {
    bundle = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    console.error(`cannot read ${file}: ${err.message}`);
    process.exit(2);
  }
  const result = verifyBundle(bundle);
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.valid ? 0 : 1);
}
