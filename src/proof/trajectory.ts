import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { hashCanonical, hashString, sha256Bytes as sha256, type HashString } from "../shared/hash";

/**
 * The agent trajectory proof (DESIGN.md section 3, docs/agents.md): every step chained over the one
 * before it, an RFC 6962 merkle root over the step proofs, and a trajectory proof over the run's
 * identity, its output and both. Pure: the runner, the trajectory endpoint and POST
 * /v1/agent/verify all call these, and docs/agents.md gives every formula for third parties.
 */
export const TRAJECTORY_VERSION = "svc-trajectory-v1";

/** One step as the proof covers it: hashes of its input and output, never the text. */
export interface StepRecord {
  index: number;
  model: string;
  input_hash: HashString;
  output_hash: HashString;
  cost_usd: number;
  confidence: number;
  timestamp: string;
}

export interface TrajectoryHead {
  run_id: string;
  policy: string;
  strategy: string;
  output_hash: HashString;
}

/** The fields a step record is made of, in the form the proof covers (extra fields dropped). */
export const stepRecordOf = (s: StepRecord): StepRecord => ({
  index: s.index,
  model: s.model,
  input_hash: s.input_hash,
  output_hash: s.output_hash,
  cost_usd: s.cost_usd,
  confidence: s.confidence,
  timestamp: s.timestamp,
});

/** step_proof[i] = sha256(canonical({version, run_id, prev_proof: step_proof[i-1] or null, step})). */
export function stepProof(runId: string, prevProof: HashString | null, step: StepRecord): HashString {
  return hashCanonical({ version: TRAJECTORY_VERSION, run_id: runId, prev_proof: prevProof, step: stepRecordOf(step) });
}

export function stepProofs(runId: string, steps: readonly StepRecord[]): HashString[] {
  const proofs: HashString[] = [];
  for (const step of steps) proofs.push(stepProof(runId, proofs.at(-1) ?? null, step));
  return proofs;
}

const bytesOf = (h: HashString) => hexToBytes(h.slice("sha256:".length));
const concat = (prefix: number, ...parts: Uint8Array[]) => {
  const out = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0));
  out[0] = prefix;
  let at = 1;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** RFC 6962 section 2.1: leaves are the 32 raw bytes of each step proof; 0x00 leaf and 0x01 node prefixes. */
function mth(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(new Uint8Array());
  if (leaves.length === 1) return sha256(concat(0x00, leaves[0]!));
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(concat(0x01, mth(leaves.slice(0, k)), mth(leaves.slice(k))));
}

export const merkleRoot = (proofs: readonly HashString[]): HashString => `sha256:${bytesToHex(mth(proofs.map(bytesOf)))}`;

/** trajectory_proof = sha256(canonical({version, run_id, policy, strategy, output_hash, merkle_root, chain_tip})). */
export function trajectoryProof(head: TrajectoryHead, proofs: readonly HashString[]): HashString {
  return hashCanonical({
    version: TRAJECTORY_VERSION,
    run_id: head.run_id,
    policy: head.policy,
    strategy: head.strategy,
    output_hash: head.output_hash,
    merkle_root: merkleRoot(proofs),
    chain_tip: proofs.at(-1) ?? null,
  });
}

export interface TrajectoryVerification {
  valid: boolean;
  recomputed_proof: HashString;
  n_steps: number;
  mismatched_steps: number[];
}

/**
 * Replays a bundle. With `claimedStepProofs`, each step is re-proved over the claimed proof of the
 * step before it, so a changed step, a changed proof, a reorder, a deletion or an insertion is located
 * at the index where it happened (and, for a changed proof, at the step that links to it); a step
 * whose `index` is not its position is mismatched too.
 */
export function verifyTrajectory(head: TrajectoryHead, claimedProof: string, steps: readonly StepRecord[], claimedStepProofs?: readonly string[]): TrajectoryVerification {
  const recomputed = stepProofs(head.run_id, steps);
  const root = trajectoryProof(head, recomputed);
  const mismatched: number[] = [];
  if (claimedStepProofs) {
    const n = Math.max(steps.length, claimedStepProofs.length);
    for (let i = 0; i < n; i++) {
      const step = steps[i];
      const claimed = claimedStepProofs[i];
      const prev = i === 0 ? null : ((claimedStepProofs[i - 1] ?? null) as HashString | null);
      if (!step || claimed === undefined || step.index !== i || stepProof(head.run_id, prev, step) !== claimed) mismatched.push(i);
    }
  } else {
    steps.forEach((s, i) => {
      if (s.index !== i) mismatched.push(i);
    });
  }
  return { valid: root === claimedProof && mismatched.length === 0, recomputed_proof: root, n_steps: steps.length, mismatched_steps: mismatched };
}

/** The hash of a text (a step's input or output, the run's output): sha256 of its UTF-8 bytes. */
export const textHash = (text: string): HashString => hashString(text);
