/** Types of the standalone verifier (scripts/verify-trajectory.mjs) for the tests that import it. */
export interface TrajectoryBundle {
  run_id: string;
  trajectory_proof: string;
  policy?: string;
  strategy?: string;
  output?: string;
  output_hash?: string;
  steps: Array<{ index: number; model: string; input_hash: string; output_hash: string; cost_usd: number; confidence: number; timestamp: string }>;
  step_proofs?: string[];
}
export function verifyBundle(bundle: TrajectoryBundle): { valid: boolean; recomputed_proof: string; n_steps: number; mismatched_steps: number[] };
